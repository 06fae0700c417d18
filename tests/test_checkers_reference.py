"""The checkers engine against an independent implementation: pydraughts' English variant.

Move lists are compared as jump paths (every square a move visits) on positions reached by
seeded random play, and perft counts by walking pydraughts' own move tree.
"""

import numpy as np
import pytest
from draughts import Board

from evoplay.checkers import engine
from evoplay.checkers import rules


def reference_moves(state) -> list[tuple]:
    board = Board(variant="english", fen=rules.to_fen(state))
    return sorted(tuple(m.steps_move) for m in board.legal_moves())


def random_play_positions(n: int, seed: int):
    """``n`` positions of seeded random games (a new game whenever one ends)."""
    rng = np.random.default_rng(seed)
    state = rules.initial()
    for _ in range(n):
        if rules.result(state) is not None:
            state = rules.initial()
        yield state
        moves = rules.legal_moves(state)
        state = rules.apply(state, moves[rng.integers(len(moves))])


def compare_on_random_play(n: int, seed: int):
    kinds = {"multi_jump": 0, "crowning": 0, "king_moves": 0}
    for state in random_play_positions(n, seed):
        ours = rules.legal_moves(state)
        assert ours == sorted(ours)
        assert ours == reference_moves(state), rules.to_fen(state)
        king = [bool(state.kings >> (m[0] - 1) & 1) for m in ours]
        kinds["multi_jump"] += any(len(m) > 2 for m in ours)
        kinds["crowning"] += any(not k and engine.CROWN[state.turn] >> (m[-1] - 1) & 1 for m, k in zip(ours, king))
        kinds["king_moves"] += any(king)
    return kinds


def test_move_lists_match_pydraughts_on_random_play():
    kinds = compare_on_random_play(1_000, seed=0)
    assert kinds["multi_jump"] > 0 and kinds["crowning"] > 0 and kinds["king_moves"] > 0


@pytest.mark.slow
def test_move_lists_match_pydraughts_on_12000_positions():
    kinds = compare_on_random_play(12_000, seed=1)
    assert kinds["multi_jump"] > 50 and kinds["crowning"] > 50 and kinds["king_moves"] > 1000


def reference_perft(board: Board, depth: int) -> int:
    moves = board.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += reference_perft(board, depth - 1)
        board.pop()
    return total


@pytest.mark.parametrize("depth", [1, 2, 3, pytest.param(6, marks=pytest.mark.slow)])
def test_perft_matches_pydraughts(depth):
    assert reference_perft(Board(variant="english"), depth) == engine.perft(*engine.START, depth)
