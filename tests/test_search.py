"""Alpha-beta search against plain minimax on random positions of both games, and hand-drawn positions."""

import math

import numpy as np
import pytest

from evoplay.checkers import rules
from evoplay.checkers.game import CHECKERS
from evoplay.arena.search import MAX_QUIESCENCE, WIN, search, terminal_score
from evoplay.tictactoe import board
from evoplay.tictactoe.game import TICTACTOE
from evoplay.tictactoe.players import MINIMAX_SCORES

from support.games import random_positions


def linear_evaluator(width: int, seed: int):
    """A fixed random linear function of the view, summed in square order (the same bits in
    any batch): ties are rare, values repeatable."""
    w = np.random.default_rng(seed).normal(size=width)

    def evaluate(views):
        total = np.zeros(len(views))
        for j in range(width):
            total += views[:, j] * w[j]
        return total

    return evaluate


def null(views):
    return np.zeros(len(views))


def minimax(game, state, depth, evaluate, quiescence=False, ply=0):
    """Plain minimax with the same horizon rules (quiescence on captures, stand pat) as the search."""
    r = game.result(state)
    if r is not None:
        return terminal_score(r, ply), None
    moves = game.legal_moves(state)
    noisy = any(game.is_capture(state, m) for m in moves)
    if depth <= 0 and not (quiescence and noisy and depth > -MAX_QUIESCENCE):
        return float(evaluate(game.views([state]))[0]), None
    best, best_move = -math.inf, None
    if depth <= 0:
        captures = [m for m in moves if game.is_capture(state, m)]
        if len(captures) < len(moves):
            best = float(evaluate(game.views([state]))[0])
        moves = captures
    for m in moves:
        v = -minimax(game, game.apply(state, m), depth - 1, evaluate, quiescence, ply + 1)[0]
        if v > best:
            best, best_move = v, m
    return best, best_move


@pytest.mark.parametrize("game, width, depths", [(TICTACTOE, 9, (1, 2, 3, 4)), (CHECKERS, 32, (1, 2, 3))])
@pytest.mark.parametrize("quiescence", [False, True])
@pytest.mark.parametrize("kind", ["linear", "null"])  # null: every move ties, the tie rule decides
def test_alpha_beta_equals_minimax(game, width, depths, quiescence, kind):
    evaluate = linear_evaluator(width, seed=1) if kind == "linear" else null
    for i, state in enumerate(random_positions(game, 12, seed=2)):
        for depth in depths:
            expected = minimax(game, state, depth, evaluate, quiescence)
            got = search(game, state, depth, evaluate, quiescence)
            assert (got.value, got.move) == expected, (i, depth, game.render(state))


@pytest.mark.slow
@pytest.mark.parametrize("quiescence", [False, True])
def test_alpha_beta_equals_minimax_checkers_depth_4(quiescence):
    evaluate = linear_evaluator(32, seed=3)
    for state in random_positions(CHECKERS, 12, seed=4):
        got = search(CHECKERS, state, 4, evaluate, quiescence)
        assert (got.value, got.move) == minimax(CHECKERS, state, 4, evaluate, quiescence)


def test_alpha_beta_prunes():
    state = rules.initial()
    evaluate = linear_evaluator(32, seed=5)
    full = [0]

    def counting(views):
        full[0] += len(views)
        return evaluate(views)

    minimax(CHECKERS, state, 5, counting)
    assert full[0] == 7361  # perft(5)
    assert search(CHECKERS, state, 5, evaluate).leaves < full[0] / 2


def test_tictactoe_finds_the_win_and_the_block():
    assert search(TICTACTOE, board.parse("XX. / OO. / XO."), 3, null)[:2] == (WIN - 1, 2)  # X wins at 2
    assert search(TICTACTOE, board.parse("X.. / OO. / X.X"), 1, null)[:2] == (WIN - 1, 5)  # O wins at 5
    assert search(TICTACTOE, board.parse("X.. / OO. / X.."), 2, null)[:2] == (0.0, 5)  # X blocks at 5


def test_exact_values_with_faster_wins_on_tictactoe():
    """Full-depth search scores equal the solved table's, which prefers faster wins."""
    positions = board.DECISION_CODES[board.N_MARKS[board.DECISION_CODES] >= 3]
    for code in np.random.default_rng(6).choice(positions, 150, replace=False):
        table = MINIMAX_SCORES[code] * (1 if board.TO_MOVE[code] == board.X else -1)
        plies_to_end = 10 - abs(table) - board.N_MARKS[code]
        expected = 0.0 if table == 0 else np.sign(table) * (WIN - plies_to_end)
        assert search(TICTACTOE, int(code), 9 - int(board.N_MARKS[code]), null).value == expected


FORCED_WIN = """
   .   .   .   .
 .   .   .   .
   b   .   .   .
 .   w   .   .
   .   .   .   .
 .   .   w   .
   .   .   .   .
 .   .   .   .
"""


def test_the_multi_jump_that_wins_at_once():
    state = rules.parse_board(FORCED_WIN)
    result = search(CHECKERS, state, 3, null)
    assert result.move == (9, 18, 27) and result.value == WIN - 1


CROWN_AND_WIN = """
   .   .   .   .
 .   .   .   .
   .   .   .   .
 .   .   .   .
   .   .   .   .
 .   b   .   w
   .   .   .   .
 .   .   .   .
"""


def piece_difference(views):
    return views.astype(np.float64).sum(1)


def test_a_crowning_within_the_horizon_counts():
    state = rules.parse_board(CROWN_AND_WIN)
    # Either step crowns on the next move: a king counts 2, so Black ends 1 up.
    assert search(CHECKERS, state, 3, piece_difference)[:2] == (1.0, (22, 25))
    assert search(CHECKERS, state, 2, piece_difference)[:2] == (0.0, (22, 25))


def test_bad_arguments():
    with pytest.raises(ValueError, match="depth"):
        search(TICTACTOE, 0, 0, null)
    with pytest.raises(ValueError, match="over"):
        search(TICTACTOE, board.parse("XXX / OO. / ..."), 2, null)
    with pytest.raises(ValueError, match="finite"):
        search(TICTACTOE, 0, 1, lambda v: np.full(len(v), np.inf))
