"""Blondie24's evaluation network as one flat genome, evaluated by a fixed-order compiled kernel.

Layers ``sizes = (inputs, hidden..., 1)``, tanh on every hidden unit and on the output,
and a piece-difference input (the sum of the inputs) wired straight to the output. A
board seen by the side to move (``Game.views``: own pieces positive) enters as men +-1
and kings +-K, K evolved with the weights. The genome is one float64 vector: per layer
each unit's incoming weights (a (fan_out, fan_in) matrix row by row), then the layer's
biases; last, the
piece-difference weight. Checkers (32, 40, 10, 1) has 1,742 weights, as in Chellapilla
and Fogel (1999).

Every leaf value goes through ``forward``: plain loops summed in a fixed order (bias
first, then the inputs in order), no BLAS and no fast-math, so a score is the same bits
on every CPU and in any batch.
"""

from __future__ import annotations

import numba
import numpy as np

from evoplay.numerics import JIT, tanh


def n_weights(sizes) -> int:
    """Weights and biases of the layers, plus the piece-difference weight."""
    sizes = list(sizes)
    return sum(a * b + b for a, b in zip(sizes[:-1], sizes[1:])) + 1


@numba.njit(**JIT)
def value(a, genome, sizes, b):
    """The network's output for the inputs in ``a[:sizes[0]]`` (men +-1, kings +-K); ``a`` and
    ``b`` are scratch rows at least as long as the widest layer (``a`` is overwritten)."""
    pd = 0.0
    for i in range(sizes[0]):
        pd += a[i]
    pos = 0
    for layer in range(len(sizes) - 1):
        fan_in, fan_out = sizes[layer], sizes[layer + 1]
        bias = pos + fan_in * fan_out
        last = layer == len(sizes) - 2
        for j in range(fan_out):
            s = genome[bias + j]
            row = pos + j * fan_in
            for i in range(fan_in):
                s += a[i] * genome[row + i]
            if last:
                s += pd * genome[len(genome) - 1]
            b[j] = tanh(s)
        pos = bias + fan_out
        for j in range(fan_out):
            a[j] = b[j]
    return a[0]


@numba.njit(**JIT)
def _forward(views, genome, sizes, king, out):
    widest = 0
    for s in sizes:
        widest = max(widest, s)
    a = np.empty(widest)
    b = np.empty(widest)
    for r in range(views.shape[0]):
        for i in range(views.shape[1]):
            v = views[r, i]
            a[i] = king if v == 2 else (-king if v == -2 else float(v))
        out[r] = value(a, genome, sizes, b)


def forward(views, genome, sizes, king: float) -> np.ndarray:
    """Scores in (-1, 1) of ``(n, inputs)`` boards (int8 views) for the side to move."""
    views = np.ascontiguousarray(views, dtype=np.int8)
    out = np.empty(len(views))
    _forward(views, np.ascontiguousarray(genome, dtype=np.float64), np.asarray(sizes, dtype=np.int64), float(king), out)
    return out


class Evaluator:
    """A network as the search's evaluator: a callable on a batch of views."""

    def __init__(self, genome, sizes, king: float):
        self.genome = np.ascontiguousarray(genome, dtype=np.float64)
        self.sizes = np.asarray(sizes, dtype=np.int64)
        self.king = float(king)

    def __call__(self, views) -> np.ndarray:
        return forward(views, self.genome, self.sizes, self.king)
