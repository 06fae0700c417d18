"""Exact outcomes of a population of Fogel networks against players with known move distributions.

Fogel's networks are deterministic, so a game against a player with a known move
distribution is a tree whose branches are only the opponent's choices.
``population_outcomes`` walks that tree for a whole population at once: the frontier is
a set of (network, board, probability) triples, one ply per step; on a network's turn
NetBatch computes the moves of all (network, board) pairs of the frontier in one call, on
the opponent's turn every pair fans out over the opponent's distribution; equal
(network, board) pairs are merged. Exact fitness, co-evolution and the yardstick use it.
"""

from __future__ import annotations

import numpy as np

from evoplay.recipes.fogel.nets import NetBatch
from evoplay.tictactoe import board


def _merge(r: np.ndarray, c: np.ndarray, m: np.ndarray):
    """Equal (network, board) pairs added up: (networks, boards, probabilities), sorted by pair."""
    key = r * board.N_CODES + c
    uniq, inverse = np.unique(key, return_inverse=True)
    return uniq // board.N_CODES, uniq % board.N_CODES, np.bincount(inverse, weights=m, minlength=len(uniq))


def population_outcomes(batch: NetBatch, n: int, table, net_mark: int = board.X, rows=None) -> np.ndarray:
    """Exact (X win, draw, O win) probabilities of ``n`` games of networks of ``batch`` against an opponent.

    Game ``g`` is played by network ``rows[g]`` (``g`` itself by default) as ``net_mark``
    (X moves first). ``table`` is the opponent's move distribution on every board,
    (N_CODES, 9), or a function ``(games, boards) -> (len(boards), 9)`` distributions of
    the opponent of those games on those boards (say, another network). Returns (n, 3).
    """
    with np.errstate(over="ignore"):  # a logistic unit of a huge sum saturates to 0 or 1, as it should
        return _outcomes(batch, n, table, net_mark, rows)


def _outcomes(batch, n, table, net_mark, rows):
    rows = np.arange(n) if rows is None else np.asarray(rows, dtype=np.int64)
    probs = table if callable(table) else (lambda g, c: table[c])
    out = np.zeros((n, 3))
    g, c, m = np.arange(n), np.zeros(n, dtype=np.int64), np.ones(n)
    for _ in range(9):
        if g.size == 0:
            break
        if board.TO_MOVE[c[0]] == net_mark:  # all frontier boards have the same number of marks
            c = board.CHILD[c, batch.moves(rows[g], c)]
        else:
            p = probs(g, c)
            at, sq = np.nonzero(p)
            g, c, m = g[at], board.CHILD[c[at], sq], m[at] * p[at, sq]
        g, c, m = _merge(g, c, m)  # equal (game, board) pairs: two boards can lead to one
        result = board.OUTCOME[c]
        for col, code in enumerate((board.X_WIN, board.DRAW, board.O_WIN)):
            done = result == code
            if done.any():
                out[:, col] += np.bincount(g[done], weights=m[done], minlength=n)
        on = result == board.ONGOING
        g, c, m = g[on], c[on], m[on]
    return out
