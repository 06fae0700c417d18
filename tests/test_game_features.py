"""What a game may offer beyond the rules is declared once (``evoplay.arena.game.FEATURES``),
each game supplies its own, and the commands ask for a feature's behaviour, never use one as
a game's identity."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_fuzz_cli import run_in_process

from evoplay.arena.game import FEATURES, REQUIRED, capability
from evoplay.games import resolve_game

#: A game of Nim (take 1 or 2 from 4 sticks; who takes the last wins) that declares its own
#: exact analysis (a pairing's results, fixed numbers a test can recognise) and benchmark.
NIM = '''
import numpy as np
from evoplay.games import BaseGame


class Nim(BaseGame):
    title = "Nim of four"
    exact = True
    match_games = 3

    def initial(self):
        return (4, 0)

    def to_move(self, state):
        return state[1]

    def legal_moves(self, state):
        return [] if state[0] == 0 else [m for m in (1, 2) if m <= state[0]]

    def apply(self, state, move):
        return (state[0] - move, 1 - state[1])

    def result(self, state):
        return -1 if state[0] == 0 else None

    def key(self, state):
        return state

    def views(self, states):
        return np.array([[s[0], s[1]] for s in states], dtype=np.int8)

    def pair_result(self, first, second, games, rng, progress=None):
        # its own exact analysis: the first player wins 3/8, draws 1/8, loses 1/2
        return {"x_win": 0.375, "draw": 0.125, "o_win": 0.5, "x_payoff": 0.375 - 5.0}

    def bench_figures(self, quick=False, progress=None):
        return {"nim_positions": 5}

    def bench_text(self, result):
        return [f"nim: {result['nim_positions']} positions, counted by the game itself"]
'''


@pytest.fixture(scope="module")
def nim_ref(tmp_path_factory):
    path = tmp_path_factory.mktemp("nim") / "nim.py"
    path.write_text(NIM)
    return f"{path}:Nim"


def test_every_feature_a_built_in_game_offers_is_declared():
    """A misspelt feature on a game shows here: every public attribute of a built-in game
    beyond the protocol and its identity is a declared feature."""
    identity = {"name", "ref", "side_names", "quiet_limit", "game"}
    for ref in ("tictactoe", "checkers", "openspiel:connect_four"):
        game = resolve_game(ref)
        extra = {a for a in dir(type(game)) if not a.startswith("_")} - set(REQUIRED) - identity
        assert extra <= set(FEATURES), (ref, sorted(extra - set(FEATURES)))


def test_an_undeclared_feature_is_refused_and_a_declared_one_has_its_default():
    game = resolve_game("tictactoe")
    with pytest.raises(KeyError, match="not a declared game feature"):
        capability(game, "boardshape")
    assert capability(resolve_game("checkers"), "exact") is FEATURES["exact"].default is False
    assert capability(resolve_game("checkers"), "match_games") == 20 and capability(game, "match_games") == 10_000


def test_checkers_gives_its_own_players_without_importing_anything_else():
    """Checkers' features are on its own class: no other module has to be imported first
    (they were attached by ``checkers/domain.py`` when it was imported)."""
    code = ("from evoplay.arena.specs import make_player\n"
            "from evoplay.checkers.game import CHECKERS\n"
            "print(type(make_player(CHECKERS, 'piece-difference')).__name__, len(CHECKERS.openings()))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["PieceDifferencePlayer", "157"]


def test_a_game_with_its_own_exact_analysis_runs_its_own_in_match_exact(nim_ref):
    code, out, err = run_in_process(["match", "random", "random", "--game", nim_ref, "--exact", "--seats", "a-first", "--json"])
    assert code == 0, err
    result = json.loads(out)["results"][0]
    assert (result["a_win"], result["draw"], result["b_win"]) == (0.375, 0.125, 0.5)
    assert result["games"] is None  # exact, not sampled


def test_a_game_with_its_own_benchmark_runs_its_own_in_bench(nim_ref):
    code, out, err = run_in_process(["bench", "--game", nim_ref, "--quiet"])
    assert code == 0, err
    assert out.strip() == "nim: 5 positions, counted by the game itself"


def test_a_player_file_that_names_no_game_is_tic_tac_toe_and_one_that_does_plays_its_own():
    from evoplay.files.playerfile import LEGACY_GAME, document_game

    assert document_game({"architecture": {"hidden": 3}}) == LEGACY_GAME == "tictactoe"
    assert document_game({"architecture": {"game": "openspiel:hex"}}) == "openspiel:hex"
    assert document_game({"architecture": {"game": 7}}) == LEGACY_GAME


def test_evoplay_games_lists_every_game_one_can_name():
    code, out, err = run_in_process(["games"])
    assert code == 0, err
    lines = out.splitlines()
    assert lines[:3] == ["Built-in games (the defaults of match and tournament --games, of game --vs):",
                         "  tictactoe    Tic-tac-toe   10000 games per pairing, exact with --exact; computer player logic",
                         "  checkers     Checkers      20 games per pairing; computer player piece-difference"]
    assert lines[-2] == ("Any other game: 20 games per pairing; computer player mcts:sims=1000, unless the game "
                         "declares its own (match_games, default_opponent, exact).")
    assert any(line.startswith("  openspiel:breakthrough ") and "(columns=8, rows=8)" in line for line in lines)
    assert lines[-1].startswith("Your own game: path/to/file.py:OBJ or package.module:OBJ")
    code, out, _ = run_in_process(["games", "--json"])
    found = json.loads(out)
    from evoplay.openspiel import eligible_games

    assert [g["ref"] for g in found["openspiel"]] == [f"openspiel:{n}" for n in eligible_games()]
    assert found["openspiel"][0]["parameters"] == {"board_size": 10}  # amazons


def test_a_blondie24_run_without_signal_says_so_in_one_line(tmp_path):
    """Hexapawn is a win for the second player: solved by the search, every game scores -2
    for the first player, who alone scores by default, so every network has the same points."""
    hexapawn = Path(__file__).resolve().parents[1] / "examples" / "games" / "hexapawn.py"
    config = tmp_path / "hexapawn.toml"
    config.write_text(f'recipe = "blondie24"\nname = "hexapawn"\ntrials = 1\ngenerations = 3\n\n[run]\ncheckpoint_every = 3\n\n'
                      f'[game]\nname = "{hexapawn}:Hexapawn"\ndepth = 8\n\n[network]\nhidden = [4]\n\n'
                      '[population]\nparents = 4\n\n[evaluation]\ngames = 2\n\n[yardstick]\nevery = 3\nopenings = 2\nmcts_sims = 5\n')
    out = subprocess.run([str(Path(sys.executable).with_name("evoplay")), "evolve", str(config), "--out", str(tmp_path / "run"),
                          "--workers", "1"], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    said = [line for line in out.stderr.splitlines() if "selection has no signal" in line]
    assert len(said) == 1 and said[0].endswith("every network scored -4 points in each of generations 1-3: selection has no "
                                                "signal; set evaluation.opponent_scores = true or evaluation.both_seats = true, "
                                                "so that the second player's games count")


def test_a_score_interval_stays_inside_the_possible_range():
    from evoplay.framework.stats import score_interval

    lo, hi = score_interval(20, 0, 0)  # 100% wins: the t-interval of the scores is [1, 1] or beyond
    assert 0.6 < lo < hi == 1.0
    assert score_interval(0, 0, 20) == (-1.0, pytest.approx(-lo))
    lo, hi = score_interval(10, 0, 10)
    assert lo == pytest.approx(-hi) and 0.3 < hi < 0.5
    from evoplay.framework.stats import wilson_interval

    assert score_interval(19, 0, 1) == pytest.approx(tuple(2 * p - 1 for p in wilson_interval(19, 20)))
    assert score_interval(18, 2, 0) == pytest.approx(tuple(2 * p - 1 for p in wilson_interval(19, 20)))  # draws: half a point


def test_a_run_of_a_users_game_moved_with_its_game_file_still_exports_matches_and_reports(tmp_path):
    """The run names its game by the file's absolute path; moved elsewhere with the file, the
    game named again at its new place (--game) stands for it."""
    import shutil

    hexapawn = Path(__file__).resolve().parents[1] / "examples" / "games" / "hexapawn.py"
    here = tmp_path / "first"
    here.mkdir()
    shutil.copy(hexapawn, here / "hexapawn.py")
    (here / "hx.toml").write_text('recipe = "blondie24"\nname = "hx"\ntrials = 1\ngenerations = 2\n\n[run]\ncheckpoint_every = 2\n\n'
                                  '[game]\nname = "hexapawn.py:Hexapawn"\ndepth = 2\n\n[network]\nhidden = [4]\n\n'
                                  '[population]\nparents = 3\n\n[evaluation]\ngames = 2\nboth_seats = true\n\n'
                                  '[yardstick]\nevery = 2\nopenings = 2\nmcts_sims = 5\n')
    evoplay = str(Path(sys.executable).with_name("evoplay"))
    made = subprocess.run([evoplay, "evolve", "hx.toml", "--out", "run", "--workers", "1", "-q"], cwd=here,
                          capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr
    there = tmp_path / "second"
    shutil.move(here, there)  # the run and its game file, to another folder
    ref = "hexapawn.py:Hexapawn"
    for argv, expect in ((["export", "run", "--out", "c.json", "--game", ref], "c.json: champion of trial 0 of run"),
                         (["match", "run", "random", "--game", ref, "--games", "2", "--json"], '"a": "run"'),
                         (["report", "run", "--game", ref], "champions against random and mcts")):
        done = subprocess.run([evoplay, *argv], cwd=there, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0 and expect in done.stdout, (argv, done.stderr)
    refused = subprocess.run([evoplay, "export", "run", "--out", "d.json"], cwd=there, capture_output=True, text=True, timeout=300)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert ("whose file is no longer there (a run or player file never loads code by itself): add --game "
            "NEW/PLACE/hexapawn.py:Hexapawn, the file at its new place") in refused.stderr
    # --resume with the config moved beside it: the checkpoints were written under the game's old place
    # ("belongs to another config" before); the summary then names the game's new place, the numbers unchanged
    before = json.loads((there / "run" / "summary.json").read_text())
    resumed = subprocess.run([evoplay, "evolve", "hx.toml", "--out", "run", "--workers", "1", "-q", "--resume"],
                             cwd=there, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    after = json.loads((there / "run" / "summary.json").read_text())
    assert after.pop("game") == f"{there}/hexapawn.py:Hexapawn" and before.pop("game") == f"{here}/hexapawn.py:Hexapawn"
    assert after == before
