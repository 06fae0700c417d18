"""Evaluation networks (Blondie24's) as one flat genome, evaluated by fixed-order compiled kernels.

Shared by the Blondie24 recipe, which evolves them, and a game's compiled search, which
evaluates them at its leaves (checkers'): a game package never imports a recipe.

Two topologies, both with tanh on every hidden unit and on the output, a piece-difference
input wired straight to the output, and a board seen by the side to move (``Game.views``:
own pieces positive) entering as men +-1 and kings +-K, K evolved with the weights:

- **1999** (Chellapilla and Fogel, IEEE TNN 10(6)): dense layers ``sizes = (inputs,
  hidden..., 1)``; checkers (32, 40, 10, 1) has 1,742 weights, as the paper counts them.
  The genome holds, per layer, each unit's incoming weights (a (fan_out, fan_in) matrix
  row by row), then the layer's biases; last, the piece-difference weight.
- **2001** (Chellapilla and Fogel, IEEE TEC 5(4), "Evolving an expert checkers playing
  program without using human expertise"): a spatial layer of 91 tanh units, one per
  square sub-region of the 8x8 board (36 of 3x3, 25 of 4x4, 16 of 5x5, 9 of 6x6, 4 of 7x7
  and the whole board), each reading the playable squares inside its region (a 3x3 region
  holds 4 or 5 of them); then 40 and 10 tanh units, the first of them reading the 91
  spatial units (not the board), and the output. Written ``sizes = (32, -91, 40, 10, 1)``
  (``SPATIAL_SIZES``: the negative entry marks the spatial layer). The genome: each region's
  weights on its squares (regions in ``regions()``'s order, squares ascending: 854), the 91
  regions' biases, then the dense layers (91, 40, 10, 1) laid out as above and the
  piece-difference weight last: 945 + 3,680 + 410 + 11 + 1 = 5,047. The paper's count is
  5,046, the same network without the piece-difference weight (as
  github.com/brendanbabb/blondie24-reborn's reimplementation counts it: 945 + 3,680 + 410
  + 11); K is evolved beside the genome in both.

Every value goes through ``evoplay.networks.kernels.network_value`` (batched here by ``forward``)
or, in the compiled checkers search, through the same kernels from first-layer sums kept
along the search path: the first layer is summed exactly (integers on each unit's grid,
see ``evoplay.networks.arithmetic``), the other layers in a fixed order (bias first, then the inputs
in order), no BLAS and no fast-math, so a score is the same bits on every CPU, in any
batch, and in the search.
"""

from __future__ import annotations

import functools

import numba
import numpy as np

from evoplay.errors import EvoplayError
from evoplay.networks.arithmetic import JIT, lanes
from evoplay.networks.kernels import dense_tables, first_layer_tables, network_value

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


#: Region sizes of the 2001 spatial layer and how many of each fit on the 8x8 board.
REGION_SIZES = (3, 4, 5, 6, 7, 8)
SPATIAL_UNITS = sum((9 - n) ** 2 for n in REGION_SIZES)  # 91
#: The 2001 network: 32 squares, 91 spatial units, 40 and 10 hidden units, one output.
SPATIAL_SIZES = (32, -SPATIAL_UNITS, 40, 10, 1)
#: The paper's weight count of the 2001 network (ours adds the piece-difference weight).
PAPER_SPATIAL_WEIGHTS = 5046


def is_spatial(sizes) -> bool:
    return len(sizes) > 2 and int(sizes[1]) < 0


#: The 2001 network's board: the 32 playable (dark) squares of an 8x8 board, numbered row by
#: row from row 0, which holds inputs 0-3 in columns 1, 3, 5, 7 (row 1: columns 0, 2, 4, 6,
#: and so on). A game whose views feed a spatial network lays its 32 inputs out this way
#: (checkers' standard 1-32 numbering does; its tests check the two agree).
BOARD_SIDE = 8
SQUARE_ROWS = tuple(s // 4 for s in range(32))
SQUARE_COLS = tuple(2 * (s % 4) + (1 if (s // 4) % 2 == 0 else 0) for s in range(32))


@functools.lru_cache(maxsize=None)
def regions() -> tuple:
    """The 91 regions of the spatial layer: (size, top row, left column, squares), squares
    0-based in ascending order, regions by size, then top row, then left column, on the
    board of ``SQUARE_ROWS`` and ``SQUARE_COLS``."""
    out = []
    for n in REGION_SIZES:
        for r in range(BOARD_SIDE + 1 - n):
            for c in range(BOARD_SIDE + 1 - n):
                squares = tuple(s for s in range(32) if r <= SQUARE_ROWS[s] < r + n and c <= SQUARE_COLS[s] < c + n)
                out.append((n, r, c, squares))
    return tuple(out)


def spatial_connections() -> int:
    """Weights from the board to the spatial layer (854)."""
    return sum(len(sq) for *_, sq in regions())


def _dense_weights(sizes) -> int:
    return sum(a * b + b for a, b in zip(sizes[:-1], sizes[1:]))


def n_weights(sizes) -> int:
    """Weights and biases of the layers, plus the piece-difference weight."""
    sizes = [int(s) for s in sizes]
    if is_spatial(sizes):
        return spatial_connections() + SPATIAL_UNITS + _dense_weights([SPATIAL_UNITS, *sizes[2:]]) + 1
    return _dense_weights(sizes) + 1


@functools.lru_cache(maxsize=None)
def topology(sizes: tuple):
    """The first layer's wiring and the dense layers after it: (first, first_bias, rest, rest_pos)
    with ``first[j, i]`` the genome index of unit j's weight on input i (-1: not read)."""
    sizes = tuple(int(s) for s in sizes)
    if is_spatial(sizes):
        if sizes[0] != 32 or -sizes[1] != SPATIAL_UNITS:
            raise ValueError(f"a spatial network reads 32 squares through {SPATIAL_UNITS} regions, got {sizes}")
        first = np.full((SPATIAL_UNITS, 32), -1, dtype=np.int64)
        at = 0
        for j, (*_, squares) in enumerate(regions()):
            for s in squares:
                first[j, s] = at
                at += 1
        first_bias = np.arange(at, at + SPATIAL_UNITS, dtype=np.int64)
        rest = np.array([SPATIAL_UNITS, *sizes[2:]], dtype=np.int64)
        pos = at + SPATIAL_UNITS
    else:
        inputs, units = sizes[0], sizes[1]
        first = np.arange(inputs * units, dtype=np.int64).reshape(units, inputs)
        first_bias = np.arange(inputs * units, inputs * units + units, dtype=np.int64)
        rest = np.array(sizes[1:], dtype=np.int64)
        pos = inputs * units + units
    for t in (first, first_bias, rest):
        t.setflags(write=False)
    return first, first_bias, rest, pos


def prepare(genome, sizes, king: float) -> tuple:
    """The network in the form ``evoplay.networks.kernels.network_value`` takes (see there); the genome is copied."""
    genome = np.array(genome, dtype=np.float64)
    sizes = tuple(int(s) for s in sizes)
    if len(genome) != n_weights(sizes):
        raise ValueError(f"a network of sizes {sizes} has {n_weights(sizes)} weights, got {len(genome)}")
    first, first_bias, rest, pos = topology(sizes)
    units, inputs = first.shape
    wide = lanes(int(max(rest)))
    q = np.empty((4, inputs, wide), dtype=np.int64)
    qbias = np.empty(wide, dtype=np.int64)
    scale = np.empty(wide)
    exact = bool(first_layer_tables(genome, float(king), first, first_bias, q, qbias, scale))
    W = np.empty((len(rest) - 1, int(max(rest[:-1])), wide))
    B = np.empty((len(rest) - 1, wide))
    pd_index = int(dense_tables(genome, rest, pos, W, B))
    assert pd_index == len(genome) - 1
    return (genome, float(king), exact, first, first_bias, q, qbias, scale, rest, W, B, float(genome[pd_index]))


def scratch(net) -> tuple:
    """Scratch rows for ``network_value``: (acc, floats, a, b)."""
    wide = len(net[6])
    return np.empty((1, 1, wide), dtype=np.int64), np.empty(wide), np.empty(wide), np.empty(wide)


@numba.njit(**JIT)
def _forward(views, net, out, acc, floats, a, b):
    for r in range(views.shape[0]):
        out[r] = network_value(views[r], net, acc, floats, a, b)


def as_codes(views) -> np.ndarray:
    """Views as int8 codes where every value is a small integer (boards), else as float64
    (an OpenSpiel observation tensor with fractions, such as chess's move counters), never
    cut short."""
    v = np.asarray(views)
    if v.dtype == np.int8:
        return np.ascontiguousarray(v)
    codes = v.astype(np.int8)
    return np.ascontiguousarray(codes if np.array_equal(codes, v) else v.astype(np.float64))


def forward(views, genome, sizes, king: float) -> np.ndarray:
    """Scores in [-1, 1] of ``(n, inputs)`` boards (int8 views, or any numbers) for the side to move."""
    views = as_codes(views)
    net = prepare(genome, sizes, king)
    out = np.empty(len(views))
    _forward(views, net, out, *scratch(net))
    return out


class Evaluator:
    """A network as the search's evaluator: a callable on a batch of views."""

    def __init__(self, genome, sizes, king: float):
        self.genome = np.ascontiguousarray(genome, dtype=np.float64)
        self.sizes = tuple(int(s) for s in sizes)
        self.king = float(king)
        self.net = prepare(self.genome, self.sizes, self.king)
        self._scratch = scratch(self.net)

    def __call__(self, views) -> np.ndarray:
        views = as_codes(views)
        if views.ndim != 2 or views.shape[1] != self.sizes[0]:  # compiled code reads rows unchecked
            raise EvoplayError(f"a network of {self.sizes[0]} inputs was given views of shape {views.shape}: "
                               "a game's views must give every position one row of that width")
        out = np.empty(len(views))
        _forward(views, self.net, out, *self._scratch)
        return out

