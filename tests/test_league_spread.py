"""`benchmarks/league_spread.py`: how far a league's networks differ, and how much of it a few games see."""

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("league_spread", ROOT / "benchmarks" / "league_spread.py")
league_spread = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(league_spread)


def row(win, draw, loss, points=(1.0, 0.0, -2.0)):
    return {"win": win, "draw": draw, "loss": loss, "points": win * points[0] + draw * points[1] + loss * points[2]}


def test_the_spread_of_a_hand_made_table():
    """A: 3 won, 1 drawn (0.75 a game); B: 1 drawn, 3 lost (-1.5). Pooled: 3 won, 2 drawn, 3 lost
    of 8, so a game's points have mean -3/8 and variance 15/8 - 9/64 = 111/64; the means'
    variance is 2 x 1.125^2 = 81/32, of which 111/256 is chance over 4 games: 537/256 is real.
    A 5-game score: (537/256) / (537/256 + 111/320)."""
    got = league_spread.spread([row(3, 1, 0), row(0, 1, 3)], (1.0, 0.0, -2.0), ks=(5, 20))
    true = 537 / 256
    assert got["networks"] == 2 and got["games"] == 4 and got["draws"] == pytest.approx(2 / 8)
    assert got["game_var"] == pytest.approx(111 / 64) and got["observed_sd"] == pytest.approx((81 / 32) ** 0.5)
    assert got["true_sd"] == pytest.approx(true ** 0.5)
    assert got["reliability_5"] == pytest.approx(true / (true + 111 / 320))
    assert got["reliability_20"] == pytest.approx(true / (true + 111 / 1280))


def test_networks_that_differ_less_than_chance_have_no_real_spread():
    got = league_spread.spread([row(2, 2, 1), row(1, 2, 2), row(2, 1, 2)], (1.0, 0.0, -2.0))
    assert got["observed_sd"] > 0 and got["true_sd"] == 0.0 and got["reliability_5"] == 0.0


def test_a_committed_runs_last_parents_and_its_starting_networks():
    """results/blondie24-2001: the last parents' league read from the checkpoint, the starting
    networks' from starting-league.json; the starting networks differ far more."""
    run = ROOT / "results" / "blondie24-2001"
    [(label, last, points)] = league_spread.tables(run)
    [(start_label, first, same)] = league_spread.tables(run / "starting-league.json")
    assert (label, start_label) == ("blondie24-2001 trial 0", "blondie24-2001/starting-league trial 0")
    assert points == same == (1.0, 0.0, -2.0)
    assert len(last) == len(first) == 15
    end, start = league_spread.spread(last, points), league_spread.spread(first, points)
    assert end["games"] == start["games"] == 224
    assert start["true_sd"] > 10 * end["true_sd"] and start["reliability_5"] > 0.5 > 0.05 > end["reliability_5"]
    summary = json.loads((run / "summary.json").read_text())
    assert summary["per_trial"][0]["league"]["table"] == last


def test_the_2001_notes_figures_are_the_scripts():
    """docs/results/notes/blondie24-2001.md quotes the script on both committed 2001 runs."""
    page = " ".join((ROOT / "docs" / "results" / "notes" / "blondie24-2001.md").read_text().split())
    for run in ("blondie24-2001", "blondie24-2001-seed2002"):
        [(_, last, points)] = league_spread.tables(ROOT / "results" / run)
        [(_, first, _)] = league_spread.tables(ROOT / "results" / run / "starting-league.json")
        end, start = league_spread.spread(last, points, (5, 20)), league_spread.spread(first, points, (5, 20))
        assert f"{start['true_sd']:.3f}" in page and f"{round(100 * start['reliability_5'])}%" in page
        assert f"{end['true_sd']:.3f}" in page and round(100 * end["reliability_5"]) <= 1  # "under 1%", "1%"
        assert end["reliability_20"] < 0.05
