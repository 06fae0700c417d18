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
