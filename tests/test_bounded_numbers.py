"""Numbers evoplay reads are plain (issue 40).

Numbers on the command line and in player specs are plain ASCII decimals
(``evoplay.plainnum``): ``' 4'``, ``'+4'``, ``'1_2'`` and other scripts' digits are refused
naming the option or parameter. Each case was accepted before.
"""

from __future__ import annotations

import pytest

from test_fuzz_cli import problem, run_in_process


def refused(argv, *words) -> str:
    code, out, err = run_in_process(argv)
    assert problem(code, out, err) is None, (argv, code, out, err)
    for w in words:
        assert w in err, (w, err)
    return err


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
    from test_fuzz_cli import ROOT

    run = ROOT / "results" / "fogel1993"  # refused further on (not a checkers run) had the depths been read
    for value in NOT_PLAIN_INTS + ["4, 6", "4,+6", "4,6 "]:
        refused(["report", str(run), "--depths", value], "--depths must be depths separated by commas")


#: Player specs with a number parameter (a second parameter after it, so that the blanks
#: around a whole spec, which are stripped, do not hide a blank after the number).
INT_SPECS = [("mcts:sims={},c=1", "tictactoe"), ("mcts:solve={},sims=5", "openspiel:tic_tac_toe"),
             ("piece-difference:depth={},king=1.5", "checkers")]
FLOAT_SPECS = [("mcts:c={},sims=5", "tictactoe"), ("logic:eps={},develop=own", "tictactoe"),
               ("softmax:t={},model_t=1", "tictactoe"), ("piece-difference:king={},depth=2", "checkers")]


@pytest.mark.parametrize("spec, game", INT_SPECS)
def test_integer_spec_parameters_are_plain_ascii_decimals(spec, game):
    name = spec.partition("=")[0].partition(":")[2]
    for value in NOT_PLAIN_INTS:
        argv = ["match", "--game", game, spec.format(value), "random", "--games", "1"]
        refused(argv, f"{name} must be an integer, got {value!r}")


@pytest.mark.parametrize("spec, game", FLOAT_SPECS)
def test_number_spec_parameters_are_plain_ascii_decimals(spec, game):
    name = spec.partition("=")[0].partition(":")[2]
    for value in [" 0.5", "0.5 ", "+0.5", "0_5", "０.５", "٠.5", "0x1", "0.5\n"]:
        argv = ["match", "--game", game, spec.format(value), "random", "--games", "1"]
        refused(argv, f"{name} must be a number, got {value!r}")


def test_a_spec_parameter_given_twice_is_refused():
    refused(["match", "mcts:sims=2,sims=3", "random", "--games", "1"], "player mcts: parameter 'sims' is given twice")
    refused(["match", "logic:eps=0.1,eps=0.2", "random", "--games", "1"], "player logic: parameter 'eps' is given twice")


def test_plain_decimals_are_read_as_before():
    from evoplay.plainnum import parse_float, parse_int

    assert [parse_int(t) for t in ("0", "7", "007", "18446744073709551615")] == [0, 7, 7, 2**64 - 1]
    assert parse_int("-3", negative=True) == -3
    assert [parse_float(t) for t in ("0.5", ".5", "5.", "1e-3", "-2E+2", "-0")] == [0.5, 0.5, 5.0, 1e-3, -200.0, 0.0]
    for text in ("-3", "9" * 101, "", "-", "1e3", "0x10"):
        with pytest.raises(ValueError):
            parse_int(text)
