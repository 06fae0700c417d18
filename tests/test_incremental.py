"""The compiled checkers search's incremental (NNUE-style) first layer, the 2001 spatial network,
and a search that cannot crash on any network.

The search keeps each first-layer unit's sum along its path and adds only the squares a
move changes; a full evaluation sums the same integers (``evoplay.networks.arithmetic``), so every
leaf's value is the very bits of ``forward``'s, and the search's value and move are plain
minimax's (the generic search with the network's ``Evaluator``).
"""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numba
import numpy as np
import pytest
from support.games import random_positions

from evoplay.networks import arithmetic, kernels
from evoplay.checkers import rules
from evoplay.checkers.game import CHECKERS
from evoplay.checkers.search import incremental_leaves
from evoplay.checkers.search import search as compiled_search
from evoplay.networks.evalnet import (PAPER_SPATIAL_WEIGHTS, SPATIAL_SIZES, SPATIAL_UNITS, Evaluator, forward,
                                               n_weights, prepare, regions, spatial_connections)
from evoplay.arena.search import search

DENSE = (32, 40, 10, 1)


def genome_of(sizes, seed, scale=0.5):
    return np.random.default_rng(seed).uniform(-scale, scale, n_weights(sizes))


# ---------------------------------------------------------------- tanh in lanes


@numba.njit
def _tanh_lanes_of(x):
    a = np.empty(arithmetic.lanes(len(x)))
    a[: len(x)] = x
    arithmetic.tanh_lanes(a, len(x))
    return a[: len(x)]


def test_tanh_in_lanes_is_tanhs_bits_on_every_branch():
    g = np.random.default_rng(4)
    near = []
    for v in (arithmetic._HALF_LN2 / 2, arithmetic._THREE_HALF_LN2 / 2, arithmetic._TINY / 2, 20.0, 350.0, 1.0, 0.0):  # exp's branches at 2|z|
        x = float(v)
        for _ in range(30):
            x = np.nextafter(x, -1.0)
        for _ in range(60):
            near += [x, -x]
            x = np.nextafter(x, 1e9)
    rows = [g.normal(0, s, (200, 9)) for s in (1e-9, 0.2, 1.0, 4.0, 40.0, 400.0)] + [np.array(near).reshape(-1, 4)]
    for block in rows:
        for row in block:
            for n in (len(row), 3):
                x = row[:n]
                assert _tanh_lanes_of(x).tolist() == [arithmetic.tanh(float(v)) for v in x]
    odd = _tanh_lanes_of(np.array([0.5, math.inf, -math.inf, 1e300, -0.0, math.nan]))
    assert odd[:5].tolist() == [arithmetic.tanh(0.5), 1.0, -1.0, 1.0, 0.0] and math.isnan(odd[5])


# ---------------------------------------------------------------- the first layer's sums


@pytest.mark.parametrize("sizes", [DENSE, SPATIAL_SIZES])
def test_every_leaf_of_the_incremental_first_layer_is_the_full_evaluations_bits(sizes):
    """Along every line 3 plies deep from random positions (captures, multi-jumps, crownings
    and kings among them), the value from the kept sums is forward's, bit for bit."""
    genome, king = genome_of(sizes, 3), 1.7
    net = prepare(genome, sizes, king)
    assert net[2]  # exact sums
    seen = 0
    for state in random_positions(CHECKERS, 12, seed=5):
        out, values = np.empty((30_000, 4), dtype=np.int64), np.empty(30_000)
        m = incremental_leaves(state.black, state.white, state.kings, state.turn, 3, net, out, values)
        assert 0 < m < len(out)
        states = [rules.State(*map(int, row)) for row in out[:m]]
        assert forward(CHECKERS.views(states), genome, sizes, king).tolist() == values[:m].tolist()
        seen += m
    assert seen > 1000


def test_the_first_layers_sum_does_not_depend_on_the_order_of_the_squares():
    """The exact sum: a board and the same pieces listed in any order give the same bits,
    where a float sum in order would not."""
    sizes = (32, 6, 1)
    genome = genome_of(sizes, 8, scale=1.0)
    genome[:192] *= 10.0 ** np.random.default_rng(9).integers(-8, 8, 192)  # weights of very different sizes
    net = prepare(genome, sizes, 1.3)
    acc, floats, a, b = np.empty((1, 1, 8), dtype=np.int64), np.empty(8), np.empty(8), np.empty(8)
    codes = np.zeros(32, dtype=np.int8)
    codes[[0, 5, 9, 17, 30]] = [1, -2, 2, -1, 1]
    want = kernels.network_value(codes, net, acc, floats, a, b)
    q, qbias = net[5], net[6]
    rows = [(kernels.code_row(int(c)), i) for i, c in enumerate(codes) if c]
    sums = set()
    for seed in range(6):
        s = qbias[:6].copy()
        for p in np.random.default_rng(seed).permutation(len(rows)):
            s += q[rows[p][0], rows[p][1], :6]
        sums.add(tuple(s.tolist()))
    assert len(sums) == 1
    assert kernels.network_value(codes, net, acc, floats, a, b) == want


@pytest.mark.parametrize("sizes, depths", [(DENSE, (1, 2, 3, 4)), (SPATIAL_SIZES, (1, 2, 3, 4))])
def test_compiled_search_is_plain_minimaxs_value_and_move_with_either_network(sizes, depths):
    genome, king = genome_of(sizes, 21, scale=0.3), 1.4
    evaluate = Evaluator(genome, sizes, king)
    for state in random_positions(CHECKERS, 8, seed=22):
        for depth in depths:
            want = search(CHECKERS, state, depth, evaluate)
            got = compiled_search(state, depth, king, network=(genome, sizes))
            assert (got.value, got.move) == (want.value, want.move), (sizes, depth, rules.to_fen(state))


# ---------------------------------------------------------------- the 2001 network


def test_the_spatial_network_has_the_papers_weights_and_its_regions():
    assert SPATIAL_UNITS == 91 and len(regions()) == 91
    sizes = [n for n, *_ in regions()]
    assert [sizes.count(n) for n in (3, 4, 5, 6, 7, 8)] == [36, 25, 16, 9, 4, 1]
    assert spatial_connections() == 854  # 18x5 + 18x4, 25x8, 8x13 + 8x12, 9x18, 2x25 + 2x24, 32
    # spatial weights and biases, 91 -> 40, 40 -> 10, 10 -> 1 with biases: the paper's 5,046; ours adds the
    # piece-difference weight (K is evolved beside the genome, as in the 1999 network's 1,742)
    assert 854 + 91 + (91 * 40 + 40) + (40 * 10 + 10) + (10 + 1) == PAPER_SPATIAL_WEIGHTS == 5046
    assert n_weights(SPATIAL_SIZES) == PAPER_SPATIAL_WEIGHTS + 1 == 5047


BOARD = """
   1   2   3   4
 5   6   7   8
   9  10  11  12
13  14  15  16
  17  18  19  20
21  22  23  24
  25  26  27  28
29  30  31  32
"""


def test_regions_read_the_playable_squares_inside_them_on_a_hand_drawn_board():
    """Squares 1-32 as drawn above, Black's side at the top: row 0's dark squares in columns
    1, 3, 5, 7, row 1's in columns 0, 2, 4, 6, and so on. A region (size, top row, left
    column) reads the numbered squares inside it, read off the drawing by hand."""
    lines = [line for line in BOARD.splitlines() if line.strip()]
    drawn = {int(tok): (r, len(line[: line.index(tok)]) // 2)
             for r, line in enumerate(lines) for tok in line.split()}
    assert [drawn[s] for s in (1, 5, 10, 32)] == [(0, 1), (1, 0), (2, 3), (7, 6)]
    place = {(n, r, c): tuple(s + 1 for s in sq) for n, r, c, sq in regions()}
    assert place[3, 0, 0] == (1, 5, 6, 9)  # a light corner: 4 squares
    assert place[3, 0, 1] == (1, 2, 6, 9, 10)  # a dark corner: 5
    assert place[3, 5, 5] == (24, 27, 28, 32)
    assert place[4, 0, 0] == (1, 2, 5, 6, 9, 10, 13, 14)
    assert place[6, 2, 2] == (10, 11, 12, 14, 15, 16, 18, 19, 20, 22, 23, 24, 26, 27, 28, 30, 31, 32)
    assert len(place[7, 0, 1]) == 25 and len(place[7, 1, 1]) == 24
    assert place[8, 0, 0] == tuple(range(1, 33))
    for (n, r, c), squares in place.items():  # every region, against the drawing
        assert squares == tuple(s for s in range(1, 33) if r <= drawn[s][0] < r + n and c <= drawn[s][1] < c + n)



def test_checkers_lays_its_inputs_out_as_the_spatial_network_reads_them():
    """The network knows no game: its board (``SQUARE_ROWS``, ``SQUARE_COLS``) is its own, and
    checkers' engine must place its 32 squares on the same rows and columns."""
    from evoplay.checkers import engine
    from evoplay.networks.evalnet import SQUARE_COLS, SQUARE_ROWS

    assert tuple(int(r) for r in engine.ROW) == SQUARE_ROWS
    assert tuple(int(c) for c in engine.COL) == SQUARE_COLS

# ---------------------------------------------------------------- never a crash


CRASH = """
import math, numpy as np, sys
sys.path.insert(0, "tests")
from support.games import random_positions
from evoplay.checkers import rules
from evoplay.checkers.game import CHECKERS
from evoplay.checkers.search import search
from evoplay.networks.evalnet import SPATIAL_SIZES, n_weights
states = [rules.initial(), rules.from_fen("W:WK10,K11,27:B2,K19,K20")] + random_positions(CHECKERS, 6, seed=3)
for sizes in ((32, 40, 10, 1), SPATIAL_SIZES):
    n = n_weights(sizes)
    nan = np.full(n, 0.1); nan[::7] = math.nan
    for genome in (np.full(n, 1e308), -np.full(n, 1e308), nan, np.full(n, math.inf)):
        for state in states:
            for depth in (1, 2, 4):
                for q in (False, True):
                    r = search(state, depth, 2.0, q, network=(genome, sizes))
                    assert r.move in rules.legal_moves(state) and math.isfinite(r.value), (r, sizes)
print("ok")
"""


def test_a_network_of_huge_or_nan_weights_searches_to_a_legal_move_without_crashing():
    """1e308 weights overflow (K w is infinite, sums of infinities NaN); NaN weights make NaN
    values: the search still answers a legal move (a NaN output is 0.0). In a child process,
    so that a crash fails this test instead of killing pytest."""
    run = subprocess.run([sys.executable, "-c", CRASH], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0 and run.stdout.strip() == "ok", (run.returncode, run.stderr[-2000:])


def test_a_run_with_the_spatial_network_evolves_its_5047_weights_and_is_the_same_in_chunks():
    from evoplay.framework import config
    from evoplay.framework.trial import TrialRun
    from evoplay.recipes.blondie24.recipe import Blondie24Recipe
    from test_blondie24 import TINY

    cfg = config.load(TINY)
    cfg["network"]["spatial"], cfg["network"]["hidden"] = True, [40, 10]
    recipe = Blondie24Recipe(cfg)
    assert recipe.sizes == SPATIAL_SIZES and recipe.n_weights == 5047
    one, three = (TrialRun(Blondie24Recipe(cfg), 0, chunks=c).run(2) for c in (1, 3))
    assert json.dumps(one.to_data()) == json.dumps(three.to_data())
    parents = one.trial.state.parents
    assert len(parents) == 3 and all(len(p.genome) == 5047 for p in parents)
