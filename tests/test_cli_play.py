"""The match, tournament and analyze commands: JSON contracts, exactness, and bad input."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from support.web import fogel_file
from evoplay.tictactoe import exact
from evoplay.cli import cli
from evoplay.files.playerfile import save_player
from evoplay.tictactoe.players import make_player
from evoplay.arena.match import round_robin
from evoplay.games import resolve_game
from evoplay.framework.stats import wilson_interval

EVOPLAY = str(Path(sys.executable).with_name("evoplay"))


def run_json(*args):
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_match_json_schema():
    doc = run_json("match", "random", "logic", "--games", "500", "--seed", "3")
    assert set(doc) == {"game", "a", "b", "exact", "openings", "results"}  # every game's match says the same
    assert doc["a"] == "random" and doc["b"] == "logic" and doc["exact"] is False
    assert doc["game"] == "tictactoe" and doc["openings"] == 1  # tic-tac-toe's games start from the empty board
    assert [r["first"] for r in doc["results"]] == ["a", "b"]  # --seats both by default
    for r in doc["results"]:
        assert set(r) == {"first", "games", "a_win", "draw", "b_win", "a_payoff"}
        assert r["games"] == 500
        assert all(isinstance(r[k], float) for k in ("a_win", "draw", "b_win"))
        assert r["a_win"] + r["draw"] + r["b_win"] == pytest.approx(1.0)
        assert all(round(r[k] * 500, 9) == int(round(r[k] * 500)) for k in ("a_win", "draw", "b_win"))
    a_first, b_first = doc["results"]
    assert a_first["a_payoff"] == pytest.approx(a_first["a_win"] - 10 * a_first["b_win"])
    assert b_first["a_payoff"] is None


def test_match_exact_equals_exact_outcome():
    doc = run_json("match", "softmax:t=0.5", "logic", "--exact")
    assert doc["exact"] is True and doc["a"] == "softmax:t=0.5"
    a, b = make_player("softmax:t=0.5"), make_player("logic")
    a_first, b_first = doc["results"]
    want = exact.outcome(a, b)
    assert (a_first["a_win"], a_first["draw"], a_first["b_win"]) == (want.x_win, want.draw, want.o_win)
    assert a_first["games"] is None
    assert a_first["a_payoff"] == pytest.approx(exact.expected_payoff(a, b), abs=1e-12)
    want = exact.outcome(b, a)
    assert (b_first["b_win"], b_first["draw"], b_first["a_win"]) == (want.x_win, want.draw, want.o_win)


def test_match_seats_and_seeds():
    both = run_json("match", "random", "logic", "--games", "300", "--seed", "7")["results"]
    a_only = run_json("match", "random", "logic", "--games", "300", "--seed", "7", "--seats", "a-first")
    b_only = run_json("match", "random", "logic", "--games", "300", "--seed", "7", "--seats", "b-first")
    assert a_only["results"] == both[:1] and b_only["results"] == both[1:]
    other = run_json("match", "random", "logic", "--games", "300", "--seed", "8")["results"]
    assert other != both


def test_match_human_output():
    result = CliRunner().invoke(cli, ["match", "random", "random", "--games", "1000", "--seats", "a-first"])
    assert result.exit_code == 0
    assert "A = random" in result.output and "95% interval" in result.output
    doc = run_json("match", "random", "random", "--games", "1000", "--seats", "a-first")
    wins = round(doc["results"][0]["a_win"] * 1000)
    lo, hi = wilson_interval(wins, 1000)
    assert f"{wins}" in result.output and f"[{100 * lo:.1f}%, {100 * hi:.1f}%]" in result.output


def test_wilson_interval():
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0


def test_tournament_json_is_exact_round_robin():
    doc = run_json("tournament", "random", "minimax", "first-open", "--exact")
    assert doc["players"] == ["random", "minimax", "first-open"] and doc["exact"] is True
    assert [(r["x"], r["o"]) for r in doc["rows"]] == [
        (x, o) for x in doc["players"] for o in doc["players"]
    ]
    for r in doc["rows"]:
        want = exact.outcome(make_player(r["x"]), make_player(r["o"]))
        assert (r["x_win"], r["draw"], r["o_win"]) == (want.x_win, want.draw, want.o_win)
        assert r["x_payoff"] == pytest.approx(want.payoff())


def test_round_robin_sampled_is_seeded():
    ttt = resolve_game("tictactoe")

    def table(seed):
        specs = ["random", "logic"]
        return round_robin(ttt, [make_player(s) for s in specs], specs, [ttt.initial()], 200, seed)

    one = table(5)
    assert one == table(5)
    assert one != table(6)
    assert len(one["rows"]) == 4 and all(r["games"] == 200 for r in one["rows"])
    assert one["seed"] == 5 and one["exact"] is False


def test_tournament_human_output():
    result = CliRunner().invoke(cli, ["tournament", "minimax", "first-open", "--exact"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert "Row player as X (moves first) against column player as O:" in lines
    assert "Row player as O against column player as X:" in lines
    # minimax as X always beats first-open; first-open as O always loses to minimax.
    assert any(line.startswith("minimax") and "100.0/0.0/0.0" in line for line in lines)
    assert any(line.startswith("first-open") and "0.0/0.0/100.0" in line for line in lines)


def test_analyze_json():
    doc = run_json("analyze", "minimax")
    assert doc == {
        "player": "minimax",
        "opponent": "logic",
        "expected_payoff": pytest.approx(0.79955614620076, abs=1e-12),
        "best_response_payoff": pytest.approx(0.93072916666667, abs=1e-12),
        "unbeatable_as_x": True,
        "unbeatable_as_o": True,
        "minimax_agreement": 1.0,
    }
    doc = run_json("analyze", "random", "--opponent", "minimax")
    assert doc["opponent"] == "minimax" and doc["best_response_payoff"] == 0.0
    assert doc["unbeatable_as_x"] is False and 0 < doc["minimax_agreement"] < 1


def test_analyze_human_output():
    result = CliRunner().invoke(cli, ["analyze", "minimax"])
    assert result.exit_code == 0
    assert "unbeatable as X: yes; as O: yes" in result.output
    assert "X to move 100.0%, O to move 100.0%" in result.output


def test_player_file_plays(tmp_path):
    pytest.importorskip("evoplay.recipes.fogel.nets")
    path = fogel_file(tmp_path / "net.json", hidden=2, scale=0.5)
    doc = run_json("match", str(path), "random", "--exact", "--seats", "a-first")
    assert doc["a"] == str(path)
    assert sum(doc["results"][0][k] for k in ("a_win", "draw", "b_win")) == pytest.approx(1.0)


# ---------------------------------------------------------------- bad input, real process


def run_evoplay(*args):
    return subprocess.run([EVOPLAY, *args], capture_output=True, text=True, timeout=60)


def assert_usage_error(proc, *words):
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    for word in words:
        assert word in lines[0]


@pytest.mark.parametrize(
    "args, words",
    [
        (["match", "foo", "random"], ["unknown player 'foo'"]),
        (["match", "logic:eps=2", "random"], ["eps", "[0, 1]"]),
        (["match", "random", "softmax:t=-1"], ["softmax t", "[0.001, 1000]"]),
        (["analyze", "softmax:t=1e-320"], ["softmax t", "[0.001, 1000]"]),
        (["match", "human", "random"], ["human"]),
        (["match", "random", "random", "--games", "0"], ["--games"]),
        (["match", "random", "random", "--games", "-5"], ["--games"]),
        (["match", "random", "random", "--seats", "x-first"], ["--seats"]),
        (["tournament", "random", "bogus"], ["bogus"]),
        (["tournament", "random", "--games", "0"], ["--games"]),
        (["analyze", "random", "--opponent", "logic:develop=sideways"], ["develop"]),
        (["match", "no/such/player.json", "random"], ["not found", "no/such/player.json"]),
    ],
)
def test_bad_input_exits_2_with_one_line(args, words):
    assert_usage_error(run_evoplay(*args), *words)


def test_malformed_player_file(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "evoplay-player", "version": 1, ')
    assert_usage_error(run_evoplay("match", str(bad), "random"), "not valid JSON", str(bad))
    alien = tmp_path / "alien.json"
    alien.write_text('{"hello": "world"}')
    assert_usage_error(run_evoplay("analyze", str(alien)), "format")


def test_tampered_player_file(tmp_path):
    path = fogel_file(tmp_path / "net.json", hidden=2, scale=0.5)
    doc = json.loads(path.read_text())
    doc["weights"]["output_bias"][3] += 0.25
    path.write_text(json.dumps(doc, indent=1))
    assert_usage_error(run_evoplay("match", str(path), "random"), "modified", str(path))


def test_player_file_with_wrong_shapes(tmp_path):
    pytest.importorskip("evoplay.recipes.fogel.nets")
    path = tmp_path / "short.json"
    weights = {
        "hidden_weights": np.zeros((9, 3)),  # hidden is 2
        "hidden_bias": np.zeros(2),
        "output_weights": np.zeros((2, 9)),
        "output_bias": np.zeros(9),
    }
    save_player(path, "fogel-net", {"inputs": 9, "hidden": 2, "outputs": 9}, weights, {})
    assert_usage_error(run_evoplay("match", str(path), "random"), "hidden_weights", "shape")


def test_analyze_decides_exact_or_sampled_by_the_players_not_by_the_game():
    """`evoplay analyze mcts:sims=20` on tic-tac-toe was refused ("unknown player 'mcts': not a
    tictactoe player") though `match` plays it: analyze took the exact path for the game. Now
    players with move tables get the exact facts, any other pairing sampled games, as on any
    game, and --openings goes with the sampled analysis only."""
    sampled = run_json("analyze", "mcts:sims=20", "--openings", "3", "--seed", "1")
    assert sampled["game"] == "tictactoe" and sampled["openings"] == 3
    assert [r["opponent"] for r in sampled["opponents"]] == ["random", "mcts:sims=100"]
    assert all(r["win"] + r["draw"] + r["loss"] == 6 for r in sampled["opponents"])
    mixed = run_json("analyze", "logic", "--opponent", "alpha-beta:depth=2", "--openings", "2")
    assert [r["opponent"] for r in mixed["opponents"]] == ["alpha-beta:depth=2"]
    exact = run_json("analyze", "logic", "--opponent", "minimax")
    assert set(exact) == {"player", "opponent", "expected_payoff", "best_response_payoff", "unbeatable_as_x",
                          "unbeatable_as_o", "minimax_agreement"}
    from support.cli import refused

    refused(["analyze", "logic", "--openings", "3"], "--openings is for a sampled analysis")
