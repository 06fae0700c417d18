"""A search player's move on every tic-tac-toe board at once (the game's search accelerator).

``move_table`` evaluates every reachable board in one batch and backs the values up
``depth`` plies by the generic search's negamax rule (terminal children ``+-(WIN - ply)``,
the first best square in order), so it is ``evoplay.arena.search.search``'s move on every board
(a test compares them) at a small fraction of the cost.
"""

from __future__ import annotations

import numpy as np

from evoplay.arena.search import WIN
from evoplay.tictactoe import board

_TABLES = None


def _tables():
    """Reachable boards: their views, which are finished and how, and each unfinished one's children."""
    global _TABLES
    if _TABLES is None:
        codes = board.REACHABLE_CODES
        index = np.full(board.N_CODES, -1, dtype=np.int64)
        index[codes] = np.arange(len(codes))
        ongoing = board.OUTCOME[codes] == board.ONGOING
        decision = np.flatnonzero(ongoing)
        legal = board.LEGAL[codes[decision]]
        kids = np.where(legal, index[np.where(legal, board.CHILD[codes[decision]], 0)], 0)
        # the result of a finished board for the side to move: 0 drawn, -1 lost (the last mover made the line)
        result = np.where(board.OUTCOME[codes] == board.DRAW, 0.0, -1.0)
        views = board.perspective(codes[decision], board.TO_MOVE[codes[decision]]).astype(np.int8)  # TicTacToe.views
        _TABLES = (codes, ~ongoing, result, decision, legal, kids, views)
    return _TABLES


def move_table(evaluate, depth: int) -> np.ndarray:
    """The move (square) of the search player on every board code, -1 where no move is made."""
    codes, finished, result, decision, legal, kids, views = _tables()
    value = np.zeros(len(codes))  # each board's value at the depth remaining below; first the leaf values
    value[decision] = evaluate(views)
    for k in range(1, depth + 1):
        ply = depth - k + 1  # the ply of the children, counted from the root
        child = np.where(finished, -(result * (WIN - ply)), -value)  # a board's value for the side that moved into it
        scores = np.where(legal, child[kids], -np.inf)
        if k == depth:
            moves = np.full(board.N_CODES, -1, dtype=np.int64)
            moves[codes[decision]] = np.argmax(scores, axis=1)
            return moves
        value = np.zeros(len(codes))
        value[decision] = scores.max(axis=1)
    raise AssertionError("unreachable")
