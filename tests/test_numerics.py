"""Fixed-order arithmetic: the compiled kernels equal their plain-Python twins bit for bit."""

import math
import os
import subprocess
import sys

import numba
import numpy as np
import pytest

import numerics_twin as twin
from evoplay.networks import arithmetic


def sample(seed=0, n=4000):
    g = np.random.default_rng(seed)
    edges = [0.0, -0.0, 1e-300, -1e-20, 2.0**-28, -(2.0**-29), arithmetic._HALF_LN2, np.nextafter(arithmetic._HALF_LN2, 1), arithmetic._THREE_HALF_LN2,
             -arithmetic._THREE_HALF_LN2, 709.0, 709.78, -744.0, -745.2, 710.0, 800.0, -800.0, 1.0, -1.0]
    return np.concatenate([edges, g.normal(0, 3, n), g.uniform(-745, 709, n)])


def test_exp_is_the_bits_of_its_twin_and_within_one_ulp_of_the_c_library():
    x = sample()
    ours = arithmetic.exp_array(x)
    assert [float(v) for v in ours] == [twin.exp(float(v)) for v in x]
    finite = (x < 709) & (x > -708)
    ref = np.array([math.exp(v) for v in x[finite]])
    assert (np.abs(ours[finite] - ref) <= np.spacing(ref)).all()
    assert arithmetic.exp(800.0) == math.inf and arithmetic.exp(-800.0) == 0.0 and arithmetic.exp(0.0) == 1.0 and math.isnan(arithmetic.exp(math.nan))


def test_exp_scaled_by_its_exponent_bits_is_ldexps_result_at_every_boundary():
    """exp scales by 2**k made from bits for -1021 <= k <= 1023 and calls ldexp beyond; the twin always calls ldexp."""
    g = np.random.default_rng(4)
    ln2 = math.log(2.0)
    centres = [k * ln2 for k in (-1075, -1074, -1023, -1022, -1021, -1020, -2, -1, 1, 2, 1022, 1023)]
    x = np.concatenate([c + g.uniform(-0.75, 0.75, 400) for c in centres] + [[709.78, arithmetic._EXP_MAX, arithmetic._EXP_MIN, -708.4, -707.7]])
    ours = arithmetic.exp_array(x)
    assert [float(v) for v in ours] == [twin.exp(float(v)) for v in x]
    assert (ours[x < -708.4] < 2.0**-1022).any() and (ours[x < -708.4] > 0).any()  # subnormal results were met
    assert np.isfinite(ours[x <= arithmetic._EXP_MAX]).all() and ours.max() > 2.0**1023


def test_log_is_the_bits_of_its_twin_and_within_one_ulp_of_the_c_library():
    x = np.concatenate([[1.0, 2.0, 0.5, 5e-324, 1e-310, 1e308, math.e], np.exp(np.random.default_rng(1).uniform(-700, 700, 6000))])
    ours = arithmetic.log_array(x)
    assert [float(v) for v in ours] == [twin.log(float(v)) for v in x]
    ref = np.array([math.log(v) for v in x])
    assert (np.abs(ours - ref) <= np.spacing(np.abs(ref))).all() and arithmetic.log(1.0) == 0.0
    assert arithmetic.log(0.0) == -math.inf and math.isnan(arithmetic.log(-1.0))


def test_tanh_and_sigmoid_limits_and_symmetry():
    z = np.array([-1000.0, -20.0, -1.0, 0.0, 1.0, 20.0, 1000.0])
    t = arithmetic.tanh_array(z)
    assert t[0] == -1.0 and t[-1] == 1.0 and t[3] == 0.0 and np.array_equal(t, -t[::-1])
    assert np.allclose(t, np.tanh(z), rtol=0, atol=2e-16)
    assert arithmetic.sigmoid(1000.0) == 1.0 and arithmetic.sigmoid(-1000.0) == 0.0 and arithmetic.sigmoid(0.0) == 0.5


def test_fused_rows_round_once_per_step_in_column_order():
    g = np.random.default_rng(2)
    values, table = g.normal(size=(500, 3)), np.array([1.0, 0.3, -10.7])
    want = [twin.fma(r[2], table[2], twin.fma(r[1], table[1], r[0] * table[0])) for r in values]
    assert arithmetic.weighted_rows(values, table).tolist() == want
    # a case where one rounding and two differ: 0.1 * 10 - 1 is 5.55e-17 exactly rounded, 0 in two steps
    assert arithmetic.fma(0.1, 10.0, -1.0) == twin.fma(0.1, 10.0, -1.0) != 0.1 * 10.0 - 1.0


def test_matmul_sums_in_order_and_plain_rows_round_every_product():
    g = np.random.default_rng(3)
    a, b = g.normal(size=(6, 5)), g.normal(size=(5, 4))
    want = [[sum((a[i, q] * b[q, j] for q in range(5)), 0.0) for j in range(4)] for i in range(6)]
    assert arithmetic.matmul(a, b).tolist() == want
    assert arithmetic.matmul(a[0], b).tolist() == want[0] and arithmetic.matmul(a, b[:, 1]).tolist() == [w[1] for w in want]
    with pytest.raises(ValueError, match="do not align"):
        arithmetic.matmul(a, a)
    p = g.random((50, 3))
    assert arithmetic.plain_rows(p, (1.0, 0.0, -10.0)).tolist() == [(r[0] * 1.0 + r[1] * 0.0) + r[2] * -10.0 for r in p]


@numba.njit
def _sigmoid_lanes_of(x):
    a = np.empty(arithmetic.lanes(len(x)))
    a[: len(x)] = x
    arithmetic.sigmoid_lanes(a, len(x))
    return a[: len(x)]


def test_sigmoid_in_lanes_is_sigmoids_bits_in_range_and_out_of_it():
    """The branch-free lanes give ``sigmoid``'s bits wherever they run, and the rest runs value by value."""
    g = np.random.default_rng(5)
    ln2 = math.log(2.0)
    near = []
    for v in (arithmetic._HALF_LN2, arithmetic._THREE_HALF_LN2, arithmetic._TINY, 700.0, 2.5 * ln2, 1.0):  # each branch's boundary, both sides
        x = float(v)
        for _ in range(40):
            x = np.nextafter(x, 0.0)
        for _ in range(80):
            near += [x, -x]
            x = np.nextafter(x, 1e9)
    rows = [g.normal(0, s, (300, 9)) for s in (0.2, 1.0, 4.0, 40.0, 300.0)] + [np.array(near).reshape(-1, 8)]
    met = 0
    for block in rows:
        for row in block:
            for n in (len(row), 3):  # a full row and a short one (padding in the lanes)
                x = row[:n]
                met += bool(((np.abs(x) >= arithmetic._TINY) & (np.abs(x) <= 700.0)).all())
                assert _sigmoid_lanes_of(x).tolist() == [arithmetic.sigmoid(float(v)) for v in x]
    assert met > 2000  # most rows took the lanes
    odd = np.array([0.0, -0.0, 1e-300, 701.0, -710.0, 800.0, math.inf, -math.inf, 0.3])  # each sends its row value by value
    for v in odd:
        x = np.array([0.5, v, -2.0])
        got = _sigmoid_lanes_of(x)
        want = [arithmetic.sigmoid(float(w)) for w in x]
        assert got[[0, 2]].tolist() == [want[0], want[2]] and (got[1] == want[1])
    assert math.isnan(_sigmoid_lanes_of(np.array([1.0, math.nan]))[1])
