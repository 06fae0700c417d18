"""Numbers evoplay reads are bounded and plain (issue 40).

Every JSON data file (checkpoints, player files, run summaries, champions, league.json,
duels.json, analysis.json, the checkers openings) is read through ``evoplay.files.jsondata``:
a number of more than 100 characters, one beyond the float range or written ``NaN`` or
``Infinity`` is refused in one line naming the file, which is left as it was. Numbers on
the command line and in player specs are plain ASCII decimals (``evoplay.files.plainnum``):
``' 4'``, ``'+4'``, ``'1_2'`` and other scripts' digits are refused naming the option or
parameter. Each case was accepted, or ended in a traceback, before.
"""

from __future__ import annotations

import json
import shutil

import pytest

from evoplay.errors import EvoplayError
from evoplay.framework.rundir import RunDir

from support.cli import ROOT, FuzzEnv, refused
from test_fuzz_cli import real_run, tree_digest

#: A number JSON data may not hold -> the words that name it in the refusal.
OVERSIZED = {
    "9" * 5000: "a number of 5000 characters (at most 100 are read)",
    "-" + "1" * 100: "a number of 101 characters",
    "1e400": "the number 1e400, beyond the float range",
    "-1.5E999": "the number -1.5E999, beyond the float range",
    "NaN": "NaN, which is not a number JSON knows",
    "Infinity": "Infinity, which is not a number JSON knows",
    "-Infinity": "-Infinity, which is not a number JSON knows",
}


def with_number(path, value: str):
    """Give the JSON object in ``path`` a first key holding the number written ``value``."""
    text = path.read_text().lstrip()
    assert text.startswith("{")
    path.write_text('{"oversized": ' + value + ", " + text[1:])


@pytest.fixture(scope="module")
def material(tmp_path_factory):
    """A FuzzEnv (player documents, a tiny finished run) and a genuine interrupted Fogel run."""
    env = FuzzEnv(tmp_path_factory.mktemp("material"))
    return env, real_run(env)


@pytest.mark.parametrize("value", sorted(OVERSIZED), ids=lambda v: v if len(v) < 12 else f"{len(v)} characters")
def test_a_checkpoint_with_an_oversized_number_is_refused_on_resume_and_left_as_it_was(material, tmp_path, value):
    env, run = material
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    path = copy / "checkpoints" / "trial_01.json"
    with_number(path, value)
    before = tree_digest(copy)
    refused(["evolve", str(copy / "config.toml"), "--out", str(copy), "--resume", "-q"],
            f"checkpoint {path} is damaged: it holds {OVERSIZED[value]}")
    assert tree_digest(copy) == before


@pytest.mark.parametrize("value", sorted(OVERSIZED), ids=lambda v: v if len(v) < 12 else f"{len(v)} characters")
def test_player_files_summaries_and_champions_with_an_oversized_number_are_refused(material, tmp_path, monkeypatch, value):
    env, _ = material
    monkeypatch.chdir(tmp_path)
    player = tmp_path / "player.json"
    player.write_text(json.dumps(env.docs["value-net"]))
    with_number(player, value)
    refused(["analyze", str(player)], f"player file {player} holds {OVERSIZED[value]}")

    run = tmp_path / "run"
    shutil.copytree(env.run, run)
    with_number(run / "summary.json", value)
    before = tree_digest(run)
    refused(["report", str(run)], f"run summary {run / 'summary.json'} holds {OVERSIZED[value]}")
    with pytest.raises(EvoplayError, match="summary.json is damaged: it holds "):
        RunDir(run).read_summary()  # the framework's reader (studies, figures, recipes' reports)
    assert tree_digest(run) == before

    shutil.rmtree(run)
    shutil.copytree(env.run, run)
    champion = run / "trials" / "trial_01" / "champion.json"  # trial 1 is the best
    with_number(champion, value)
    before = tree_digest(run)
    refused(["export", str(run), "--out", str(tmp_path / "out.json")], f"player file {champion} holds {OVERSIZED[value]}")
    from evoplay.framework.rundir import read_run_file

    with pytest.raises(EvoplayError, match="champion.json is damaged: it holds "):
        read_run_file(champion)  # a study's champions, analysis.json
    assert tree_digest(run) == before and not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("value", sorted(OVERSIZED), ids=lambda v: v if len(v) < 12 else f"{len(v)} characters")
def test_report_files_and_openings_with_an_oversized_number_are_refused(tmp_path, value):
    from evoplay.checkers.openings import PATH, read_openings
    from evoplay.recipes.blondie24.duels import read_duels
    from evoplay.recipes.blondie24.league import read_league

    for name, read in (("league.json", read_league), ("duels.json", read_duels)):
        (tmp_path / name).write_text(json.dumps({"openings": 8, "depth": 4, "points": [1, 0, -2], "trials": []}))
        with_number(tmp_path / name, value)
        with pytest.raises(EvoplayError, match=f"{name} is damaged \\(it holds "):
            read(tmp_path)
    openings = tmp_path / "openings.json"
    shutil.copy(PATH, openings)
    with_number(openings, value)
    with pytest.raises(EvoplayError, match="openings file ") as e:
        read_openings(openings)
    assert OVERSIZED[value] in str(e.value)


def test_a_number_within_the_bounds_is_read_as_before(tmp_path):
    from evoplay.files import jsondata

    text = '{"a": ' + "7" * 100 + ', "b": -0, "c": 1e-400, "d": 1.7976931348623157e308, "e": [-0.0, 0.1]}'
    assert jsondata.loads(text) == json.loads(text)


# ---------------------------------------------------------------- plain decimals

#: Integers written otherwise than as plain ASCII decimals (each was read before: int() strips
#: blanks and a newline, takes '+', '_' between digits and every script's digits; '-0' is 0).
NOT_PLAIN_INTS = [" 4", "4 ", "+4", "1_2", "１２", "٣", "४", "4\n", "-0"]
#: Options taking an integer, each in a command that is refused for another reason when the
#: number is (wrongly) accepted: the refusal must name the option.
INT_OPTIONS = [
    (["match", "nosuch", "random", "--games"], "--games"),
    (["match", "nosuch", "random", "--seed"], "--seed"),
    (["tournament", "nosuch", "--games"], "--games"),
    (["game", "--vs", "nosuch", "--seed"], "--seed"),
    (["evolve", "missing.toml", "--trials"], "--trials"),
    (["evolve", "missing.toml", "--generations"], "--generations"),
    (["evolve", "missing.toml", "--seed"], "--seed"),
    (["evolve", "missing.toml", "--workers"], "--workers"),
    (["study", "missing.toml", "--trials"], "--trials"),
    (["study", "missing.toml", "--generations"], "--generations"),
    (["study", "missing.toml", "--workers"], "--workers"),
    (["export", "missing-run", "--trial"], "--trial"),
    (["train", "value-net", "--out", "/proc/evoplay-no/v.json", "--games"], "--games"),
    (["train", "value-net", "--out", "/proc/evoplay-no/v.json", "--seed"], "--seed"),
    (["report", "missing-run", "--league"], "--league"),
    (["report", "missing-run", "--workers"], "--workers"),
    (["baselines", "--out", "/proc/evoplay-no", "--seed"], "--seed"),
    (["baselines", "--out", "/proc/evoplay-no", "--value-games"], "--value-games"),
    (["serve", "/nonexistent-evoplay-path", "--port"], "--port"),
    (["figures", "gibson", "--seeds"], "--seeds"),
    (["figures", "seed003", "--games"], "--games"),
    (["figures", "seed003", "--seed"], "--seed"),
    (["figures", "seed003", "--workers"], "--workers"),
]


@pytest.mark.parametrize("argv, option", INT_OPTIONS, ids=[" ".join(a[:1] + a[-1:]) for a, _ in INT_OPTIONS])
def test_integer_options_take_plain_ascii_decimals_only(tmp_path, monkeypatch, argv, option):
    monkeypatch.chdir(tmp_path)
    for value in NOT_PLAIN_INTS:
        refused(argv + [value], f"Invalid value for '{option}': {value!r}")
    assert not any(tmp_path.iterdir())


def test_depths_are_plain_ascii_decimals(tmp_path):
    run = ROOT / "results" / "fogel1993"  # refused further on (not a checkers run) had the depths been read
    for value in NOT_PLAIN_INTS + ["4, 6", "4,+6", "4,6 "]:
        refused(["report", str(run), "--depths", value], "--depths must be depths separated by commas")


#: Player specs with a number parameter (a second parameter after it, so that the blanks
#: around a whole spec, which are stripped, do not hide a blank after the number).
INT_SPECS = [("mcts:sims={},c=1", "tictactoe"), ("mcts:solve={},sims=5", "openspiel:tic_tac_toe"),
             ("piece-difference:depth={},king=1.5", "checkers")]
FLOAT_SPECS = [("mcts:c={},sims=5", "tictactoe"), ("logic:eps={},develop=own", "tictactoe"),
               ("softmax:t={},model_t=1", "tictactoe"), ("piece-difference:king={},depth=2", "checkers")]


#: In a spec, as in an option (``--games ' 4'``), every way of writing a number that is not a
#: plain decimal is refused, blanks around it included (``mcts:sims= 4``).
NOT_PLAIN_SPEC_INTS = NOT_PLAIN_INTS


@pytest.mark.parametrize("spec, game", INT_SPECS)
def test_integer_spec_parameters_are_plain_ascii_decimals(spec, game):
    name = spec.partition("=")[0].partition(":")[2]
    assert " 4" in NOT_PLAIN_SPEC_INTS and "4\n" in NOT_PLAIN_SPEC_INTS and "1_2" in NOT_PLAIN_SPEC_INTS
    for value in NOT_PLAIN_SPEC_INTS:
        argv = ["match", "--game", game, spec.format(value), "random", "--games", "1"]
        refused(argv, f"{name} must be an integer, got {value!r}")


@pytest.mark.parametrize("spec, game", FLOAT_SPECS)
def test_number_spec_parameters_are_plain_ascii_decimals(spec, game):
    name = spec.partition("=")[0].partition(":")[2]
    for value in ["+0.5", "0_5", "０.５", "٠.5", "0x1", "0.5\n", "\t0.5", "0.5\u00a0"]:
        argv = ["match", "--game", game, spec.format(value), "random", "--games", "1"]
        refused(argv, f"{name} must be a number, got {value!r}")


def test_blanks_inside_a_spec_are_refused_as_in_options():
    refused(["match", "mcts:sims= 4", "random", "--games", "1"], "player mcts: sims must be an integer, got ' 4'")
    refused(["match", "--game", "checkers", "alpha-beta:depth= 4", "random", "--games", "1"],
            "player alpha-beta: depth must be a number of plies or 'full', got ' 4'")
    refused(["match", "mcts: sims=4", "random", "--games", "1"],
            "player mcts: parameter ' sims' has blanks around it: write mcts:sims=...")
    refused(["match", "logic:develop= own", "random", "--games", "1"], "logic develop")


def test_range_messages_print_the_numbers_unrounded():
    refused(["match", "--game", "checkers", "openspiel-mcts:seed=2147483648", "random", "--games", "1"],
            "openspiel-mcts seed must be in [0, 2147483647], got 2147483648")
    refused(["match", "mcts:sims=1000001", "random", "--games", "1"], "mcts sims must be in [1, 1000000], got 1000001")
    refused(["match", "mcts:c=100.00001", "random", "--games", "1"], "mcts c must be in [0, 100], got 100.00001")


def test_a_spec_parameter_given_twice_is_refused():
    refused(["match", "mcts:sims=2,sims=3", "random", "--games", "1"], "player mcts: parameter 'sims' is given twice")
    refused(["match", "logic:eps=0.1,eps=0.2", "random", "--games", "1"], "player logic: parameter 'eps' is given twice")


def test_plain_decimals_are_read_as_before():
    from evoplay.files.plainnum import parse_float, parse_int

    assert [parse_int(t) for t in ("0", "7", "007", "18446744073709551615")] == [0, 7, 7, 2**64 - 1]
    assert parse_int("-3", negative=True) == -3
    assert [parse_float(t) for t in ("0.5", ".5", "5.", "1e-3", "-2E+2", "-0")] == [0.5, 0.5, 5.0, 1e-3, -200.0, 0.0]
    for text in ("-3", "9" * 101, "", "-", "1e3", "0x10"):
        with pytest.raises(ValueError):
            parse_int(text)
