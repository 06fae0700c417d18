"""Exact analysis: known probabilities, payoffs, soundness checks, and agreement with sampling."""

import numpy as np
import pytest

from evoplay.tictactoe import board
from evoplay.tictactoe import engine
from evoplay.tictactoe import exact
from evoplay.tictactoe.players import make_player

Z_999 = 3.29  # two-sided 99.9% normal quantile
SAMPLED_PAIRS = [
    ("random", "random"),
    ("logic", "random"),
    ("random", "logic"),
    ("minimax", "logic"),
    ("softmax", "random"),
    ("first-open", "logic"),
    ("logic:develop=other", "softmax:t=0.5"),
]


def test_random_against_random():
    r = make_player("random")
    out = exact.outcome(r, r)
    assert round(out.x_win, 5) == 0.58492
    assert round(out.o_win, 5) == 0.28810
    assert round(out.draw, 5) == 0.12698
    # Exact fractions over the game tree: 737/1260, 363/1260, 160/1260.
    assert out.x_win == pytest.approx(737 / 1260, abs=1e-14)
    assert out.o_win == pytest.approx(363 / 1260, abs=1e-14)


def test_reach_probabilities_conserve_mass():
    mass = exact.reach_probabilities(make_player("logic"), make_player("softmax"))
    assert mass[0] == 1.0
    assert mass[board.OUTCOME != board.ONGOING].sum() == pytest.approx(1.0, abs=1e-12)
    for n in range(10):  # each ply's mass is what was still playing before it
        ongoing_before = mass[(board.N_MARKS == n - 1) & (board.OUTCOME == board.ONGOING)].sum() if n else 1.0
        assert mass[board.N_MARKS == n].sum() == pytest.approx(ongoing_before, abs=1e-12)
    assert (mass[~board.REACHABLE] == 0).all()


def test_deterministic_games():
    first_open, minimax = make_player("first-open"), make_player("minimax")
    # X 0, O 1, X 2, O 3, X 4, O 5, X 6: X completes the 2-4-6 diagonal.
    assert exact.outcome(first_open, first_open) == exact.Outcome(1.0, 0.0, 0.0)
    perfect = exact.outcome(minimax, minimax)
    assert perfect.x_win == perfect.o_win == 0.0
    assert perfect.draw == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("x_spec, o_spec", SAMPLED_PAIRS)
def test_sampling_agrees_with_exact(x_spec, o_spec):
    x, o = make_player(x_spec), make_player(o_spec)
    games = 20_000
    want = exact.outcome(x, o)
    got = engine.match(x, o, games, np.random.default_rng(12345))
    assert sum(got.values()) == games
    for key in ("x_win", "draw", "o_win"):
        p = getattr(want, key)
        half = Z_999 * np.sqrt(p * (1 - p) / games)
        assert abs(got[key] / games - p) <= half, (key, got[key] / games, p)


def test_sampling_detects_a_wrong_distribution():
    # The same check must be able to fail: logic's games are far from random's numbers.
    r, logic = make_player("random"), make_player("logic")
    want = exact.outcome(r, r)
    got = engine.match(logic, r, 20_000, np.random.default_rng(0))
    half = Z_999 * np.sqrt(want.x_win * (1 - want.x_win) / 20_000)
    assert abs(got["x_win"] / 20_000 - want.x_win) > half


def test_minimax_is_unbeatable_and_random_is_not():
    for spec in ("minimax", "minimax:tiebreak=first"):
        assert exact.unbeatable(make_player(spec), as_x=True)
        assert exact.unbeatable(make_player(spec), as_x=False)
    for spec in ("random", "first-open", "logic:eps=0"):
        assert not exact.unbeatable(make_player(spec), as_x=True)
        assert not exact.unbeatable(make_player(spec), as_x=False)


def test_payoffs_against_logic():
    minimax, logic = make_player("minimax"), make_player("logic")
    payoff = exact.expected_payoff(minimax, logic)
    ceiling = exact.best_response_payoff(logic)
    assert payoff == pytest.approx(0.79955614620076, abs=1e-12)
    assert ceiling == pytest.approx(0.93072916666667, abs=1e-12)
    assert ceiling >= payoff
    assert payoff == pytest.approx(exact.outcome(minimax, logic).payoff())


def test_best_response_ceilings():
    minimax, random = make_player("minimax"), make_player("random")
    # Nobody beats minimax: the best any policy can do from either seat is a draw.
    assert exact.best_response_payoff(minimax, first=True) == 0.0
    assert exact.best_response_payoff(minimax, first=False) == 0.0
    # Against random, moving first, a perfect exploiter loses only 1 game in 192 to a draw.
    assert exact.best_response_payoff(random) == pytest.approx(191 / 192, abs=1e-12)
    assert exact.best_response_payoff(random) >= exact.expected_payoff(minimax, random)


def test_minimax_agreement():
    assert exact.minimax_agreement(make_player("minimax")) == 1.0
    assert exact.minimax_agreement(make_player("minimax:tiebreak=first")) == 1.0
    random = make_player("random")
    for mark in (None, board.X, board.O):
        assert 0 < exact.minimax_agreement(random, mark) < 1
    assert exact.minimax_agreement(make_player("softmax:t=0.01")) > exact.minimax_agreement(random)


def test_payoff_table():
    out = exact.Outcome(x_win=0.5, draw=0.3, o_win=0.2)
    assert exact.FOGEL_PAYOFF == (1.0, 0.0, -10.0)
    assert out.payoff() == pytest.approx(0.5 - 2.0)
    assert out.payoff((1.0, 0.5, -1.0)) == pytest.approx(0.5 + 0.15 - 0.2)
