"""The search's principal variation and per-move scores against plain minimax (no pruning)."""

from __future__ import annotations

import numpy as np
import pytest
from test_search import minimax

from evoplay.checkers import rules
from evoplay.checkers.players import piece_difference
from evoplay.games import resolve_game
from evoplay.arena.search import WIN, move_scores, principal_variation, search


def minimax_line(game, state, depth, evaluate, quiescence=False):
    """(value, line) of plain minimax: its best move at each ply of the line, searched from
    that ply (so terminal scores count plies from the root, as in the root search)."""
    value = minimax(game, state, depth, evaluate, quiescence)[0]
    line = []
    for ply in range(depth):
        if game.result(state) is not None:
            break
        move = minimax(game, state, depth - ply, evaluate, quiescence, ply)[1]
        line.append(move)
        state = game.apply(state, move)
    return value, line


def linear(seed, squares):
    weights = np.random.default_rng(seed).uniform(-1, 1, squares)
    return lambda views: np.asarray(views, dtype=np.float64) @ weights


TTT = resolve_game("tictactoe")
CHECKERS = resolve_game("checkers")
# Hand-drawn endgames: a forced multi-jump, kings, and a crowning race.
ENDGAMES = [
    "B:W18,19,27,K32:B10,14,K1",
    "W:W21,25,K30:B13,17,K5",
    "B:W6,K20,28:B15,23,26",
]


def ttt_positions():
    states, state = [], TTT.initial()
    for move in (4, 0, 8):
        states.append(state)
        state = TTT.apply(state, move)
    return states + [state]


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
@pytest.mark.parametrize("index", range(4))
def test_tictactoe_pv_and_scores_equal_minimax(depth, index):
    state = ttt_positions()[index]
    evaluate = linear(depth * 10 + index, 9)
    value, line = minimax_line(TTT, state, depth, evaluate)
    assert len(line) == depth or TTT.result(TTT.apply(state, line[-1])) is not None
    assert principal_variation(TTT, state, depth, evaluate) == line
    assert search(TTT, state, depth, evaluate).value == pytest.approx(value)
    scores = move_scores(TTT, state, depth, evaluate)
    assert [m for m, _ in scores] == TTT.legal_moves(state)
    for move, score in scores:
        want = minimax(TTT, TTT.apply(state, move), depth - 1, evaluate, ply=1)[0]
        assert score == pytest.approx(-want)
    assert max(s for _, s in scores) == pytest.approx(value)


@pytest.mark.parametrize("fen", ENDGAMES)
@pytest.mark.parametrize("depth", [1, 3, 5])
@pytest.mark.parametrize("quiescence", [False, True])
def test_checkers_pv_and_scores_equal_minimax(fen, depth, quiescence):
    state = rules.from_fen(fen)
    evaluate = piece_difference(1.5)
    value, line = minimax_line(CHECKERS, state, depth, evaluate, quiescence)
    assert principal_variation(CHECKERS, state, depth, evaluate, quiescence) == line
    scores = move_scores(CHECKERS, state, depth, evaluate, quiescence)
    for move, score in scores:
        want = minimax(CHECKERS, CHECKERS.apply(state, move), depth - 1, evaluate, quiescence, ply=1)[0]
        assert score == -want
    assert max(v for _, v in scores) == value
    assert line[0] == search(CHECKERS, state, depth, evaluate).move


def test_pv_stops_at_the_end_of_the_game():
    # Black takes the last White piece: the line ends with the game, after one move.
    state = rules.from_fen("B:W14:B10")
    evaluate = piece_difference(1.5)
    line = principal_variation(CHECKERS, state, 4, evaluate)
    value, want = minimax_line(CHECKERS, state, 4, evaluate)
    assert line == want
    assert value == WIN - len(line)
    scores = dict(move_scores(CHECKERS, state, 4, evaluate))
    assert scores[line[0]] == value


def test_bad_depth_and_finished_game_are_refused():
    evaluate = piece_difference(1.5)
    with pytest.raises(ValueError, match="depth"):
        move_scores(CHECKERS, CHECKERS.initial(), 0, evaluate)
    with pytest.raises(ValueError, match="depth"):
        principal_variation(CHECKERS, CHECKERS.initial(), 0, evaluate)
    with pytest.raises(ValueError, match="over"):
        move_scores(CHECKERS, rules.from_fen("B:W6:B"), 2, evaluate)
