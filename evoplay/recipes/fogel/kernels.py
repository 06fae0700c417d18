"""Compiled kernels of Fogel's networks: outputs and moves of (network, board) pairs.

A pair's hidden sums run over the board's occupied squares in ascending order (inputs are
+1 or -1 there, 0 elsewhere), each output's sum over the hidden units in order with the
bias last, through the fixed ``exp`` of ``evoplay.numerics``: the same bits on every CPU
and in every batch. ``w1s`` rows are ``18 * net + square`` (+ 9 for an opponent's mark),
``w2t`` rows ``9 * net + square`` with the bias in the last column; ``h[net]`` hidden
units are read (those after them have only zero weights).
"""

from __future__ import annotations

import numba
import numpy as np

from evoplay.numerics import JIT, sigmoid


@numba.njit(**JIT)
def _outputs(w1s, b1, w2t, h, r, c, occupied, free, n_marks, hid, y):
    """Outputs of network ``r`` on board ``c`` into ``y[j]`` for its ``j``-th empty square; returns their count."""
    k = n_marks[c]
    units = h[r]
    bias = w2t.shape[1] - 1
    for u in range(units):
        z = 0.0
        for q in range(k):
            z += w1s[occupied[c, q] + 18 * r, u]
        hid[u] = sigmoid(z + b1[r, u])
    for j in range(9 - k):
        row = free[c, j] + 9 * r
        s = 0.0
        for u in range(units):
            s += w2t[row, u] * hid[u]
        y[j] = sigmoid(s + w2t[row, bias])
    return 9 - k


@numba.njit(**JIT)
def net_outputs(w1s, b1, w2t, h, rows, codes, occupied, free, n_marks):
    """(pairs, 9) outputs by square of networks ``rows`` on boards ``codes`` (NaN on occupied squares)."""
    out = np.full((len(rows), 9), np.nan)
    hid = np.empty(b1.shape[1])
    y = np.empty(9)
    for i in range(len(rows)):
        m = _outputs(w1s, b1, w2t, h, rows[i], codes[i], occupied, free, n_marks, hid, y)
        for j in range(m):
            out[i, free[codes[i], j]] = y[j]
    return out


@numba.njit(**JIT)
def net_moves(w1s, b1, w2t, h, rows, codes, occupied, free, n_marks):
    """Moves of networks ``rows`` on boards ``codes``: the empty square with the highest output (ties: the lowest)."""
    out = np.empty(len(rows), dtype=np.int64)
    hid = np.empty(b1.shape[1])
    y = np.empty(9)
    for i in range(len(rows)):
        c = codes[i]
        m = _outputs(w1s, b1, w2t, h, rows[i], c, occupied, free, n_marks, hid, y)
        best = 0
        for j in range(1, m):
            if y[j] > y[best]:
                best = j
        out[i] = free[c, best]
    return out


@numba.njit(**JIT)
def play_vs_table(w1s, b1, w2t, h, x_rows, u, keep, alias, o_base, child, outcome, n_legal, first_legal, occupied, free, n_marks):
    """Outcomes of games of networks ``x_rows[g]`` (X) against a table player (O), one game at a time.

    O samples from flattened Walker alias tables exactly as ``players.sample_moves``: with
    uniform ``u[g, ply]``, slot ``floor(9u)`` of row ``o_base[g] + board``. X's move on a
    board with one legal move is that move, else the network's; a network's moves are
    remembered per board while consecutive games are its own. The same games, moves and
    outcomes as ``engine.play`` with ``NetBatch`` and the table player.
    """
    n_codes = len(outcome)
    memo = np.full(n_codes, -1, dtype=np.int64)
    seen = np.empty(n_codes, dtype=np.int64)
    n_seen = 0
    hid = np.empty(b1.shape[1])
    y = np.empty(9)
    result = np.empty(len(x_rows), dtype=np.int8)
    last = -1
    for g in range(len(x_rows)):
        r = x_rows[g]
        if r != last:
            for i in range(n_seen):
                memo[seen[i]] = -1
            n_seen = 0
            last = r
        code = 0
        for ply in range(9):
            if ply % 2 == 0:
                if n_legal[code] > 1:
                    move = memo[code]
                    if move < 0:
                        m = _outputs(w1s, b1, w2t, h, r, code, occupied, free, n_marks, hid, y)
                        best = 0
                        for j in range(1, m):
                            if y[j] > y[best]:
                                best = j
                        move = free[code, best]
                        memo[code] = move
                        seen[n_seen] = code
                        n_seen += 1
                else:
                    move = first_legal[code]
            else:
                scaled = u[g, ply] * 9.0
                slot = min(int(scaled), 8)
                at = (o_base[g] + code) * 9 + slot
                move = slot if scaled - slot < keep[at] else alias[at]
            code = child[code, move]
            if outcome[code] != 0:
                break
        result[g] = outcome[code]
    return result
