"""Blondie24's evaluation network as one flat genome, evaluated by a fixed-order compiled kernel.

Layers ``sizes = (inputs, hidden..., 1)``, tanh on every hidden unit and on the output,
and a piece-difference input (the sum of the inputs) wired straight to the output. A
board seen by the side to move (``Game.views``: own pieces positive) enters as men +-1
and kings +-K, K evolved with the weights. The genome is one float64 vector: per layer
each unit's incoming weights (a (fan_out, fan_in) matrix row by row), then the layer's
biases; last, the
piece-difference weight. Checkers (32, 40, 10, 1) has 1,742 weights, as in Chellapilla
and Fogel (1999).

Every leaf value goes through ``evoplay.numerics.network_value`` (batched here by
``forward``; the compiled checkers search calls it at its leaves): plain loops summed in a fixed order (bias
first, then the inputs in order), no BLAS and no fast-math, so a score is the same bits
on every CPU and in any batch.
"""

from __future__ import annotations

import numba
import numpy as np

from evoplay.numerics import JIT, network_value


#: Largest magnitude of a weight, a bias or the piece-difference weight that a network may
#: hold (player files and checkpoints are checked on load, ``evoplay resign`` too). A unit
#: sums at most 1 + 256 + 32,000 terms of at most 1e100 times 1,000 (a hidden layer's 256
#: inputs, a king value of at most 1,000, the piece difference of 32 kings), 3.3e107 in
#: all, far below the largest float (1.8e308): every sum, hence every evaluation, is a
#: finite number. Weights beyond it (1e308, say) overflow to infinities whose difference
#: is NaN, and no move is best.
MAX_WEIGHT = 1e100


def check_genome(genome, what: str):
    """None if every weight of ``genome`` lies within +-``MAX_WEIGHT``, else one line saying
    which does not (``what`` names the genome)."""
    genome = np.asarray(genome, dtype=np.float64)
    if genome.size and not np.abs(genome).max() <= MAX_WEIGHT:
        i = int(np.argmax(~(np.abs(genome) <= MAX_WEIGHT)))
        return f"{what} {i} is {genome[i]:.4g}, beyond the +-{MAX_WEIGHT:.0e} a network's weight may hold"
    return None


def n_weights(sizes) -> int:
    """Weights and biases of the layers, plus the piece-difference weight."""
    sizes = list(sizes)
    return sum(a * b + b for a, b in zip(sizes[:-1], sizes[1:])) + 1


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
        out[r] = network_value(a, genome, sizes, b)


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
