"""The compiled kernels of Blondie24's evaluation networks: exact first-layer sums, dense
tanh layers, the piece difference wired to the output (the same bits on every CPU, built
on ``evoplay.networks.arithmetic``)."""

from __future__ import annotations

import math

import numba
import numpy as np

from evoplay.networks.arithmetic import JIT, tanh, tanh_lanes


# ---------------------------------------------------------------- Blondie24 evaluation networks
#
# A network is a first layer of units that each read some of the inputs (all of them in the
# 1999 network, one square region of the board in the 2001 one), then dense tanh layers, and
# the piece difference wired to the output. ``evoplay.networks.evalnet`` lays the
# genome out and builds the prepared form these kernels take (``net``, a tuple):
#
#   (genome, king, exact, first, first_bias, q, qbias, scale, rest, W, B, pd_weight)
#
# ``first[j, i]`` is the genome index of unit j's weight on input i (-1: not read),
# ``first_bias[j]`` its bias's; ``rest`` the sizes of the dense layers after the first
# (units, hidden..., 1), ``W[layer, i, j]`` their weights (input i to unit j) and
# ``B[layer, j]`` their biases, padded with zeros, so the loops run along the outputs
# (LLVM's vectoriser) and still add each unit's terms in input order.
#
# The first layer's sums are EXACT: unit j's terms (its bias; +-w for men, +-fl(K w) for
# kings) are put on the unit's grid 2**(E_j - S), E_j the exponent bounding every possible
# term of the unit and S = 62 - bitlength(inputs), rounded to the nearest integer there
# (``q``, ``qbias``: a term above 2**(E_j - 3) is exact, the rest within half a grid step),
# and added as 64-bit integers, which cannot overflow and do not depend on the order. The
# sum is then one conversion to float and one exact scaling (``scale[j]``). So a search that
# keeps the sums along its path and adds only the squares a move changes gets the very bits
# of a full evaluation. A unit with a non-finite possible term (a non-finite weight, or K
# times a weight overflowing) makes the whole network inexact: its first layer is then
# summed in floating point, the bias first and the occupied inputs in order.
#
# The piece difference is (own men - other men) + K (own kings - other kings), one rounding.
# Hidden units are summed bias first, then the inputs in order; then tanh (``tanh_lanes``).
# The output's sum adds the piece difference times its weight last. A NaN output is 0.0 (a
# search always has a finite value to compare).


@numba.njit(**JIT, inline="always")
def code_row(c):
    """The row of ``q`` of an input code: own man (1), own king (2), the other side's man (-1), king (-2)."""
    return 0 if c == 1 else (1 if c == 2 else (2 if c == -1 else 3))


@numba.njit(**JIT)
def _bitlength(n):
    b = 0
    while n:
        n >>= 1
        b += 1
    return b


@numba.njit(**JIT)
def _grid_round(t, inv):
    """The term ``t`` on a grid of step 1/inv: the nearest integer to t * inv (ties to even)."""
    return np.int64(np.rint(t * inv))


@numba.njit(**JIT)
def first_layer_tables(genome, king, first, first_bias, q, qbias, scale):
    """Fill ``q`` (4, inputs, units), ``qbias`` and ``scale`` (units); False if some term is not finite."""
    units, inputs = first.shape
    shift = 62 - _bitlength(inputs)
    q[:] = 0
    qbias[:] = 0
    scale[:] = 0.0
    exact = True
    for j in range(units):
        top = abs(genome[first_bias[j]])
        ok = math.isfinite(top)
        for i in range(inputs):
            g = first[j, i]
            if g >= 0:
                w = genome[g]
                kw = king * w
                ok = ok and math.isfinite(w) and math.isfinite(kw)
                top = max(top, abs(w), abs(kw))
        if not ok or not math.isfinite(top):
            exact = False
            continue
        e = max(math.frexp(top)[1], -960) if top > 0.0 else 0  # every term is below 2**e
        inv = math.ldexp(1.0, shift - e)
        scale[j] = math.ldexp(1.0, e - shift)
        qbias[j] = _grid_round(genome[first_bias[j]], inv)
        for i in range(inputs):
            g = first[j, i]
            if g >= 0:
                w = genome[g]
                q[0, i, j] = _grid_round(w, inv)
                q[1, i, j] = _grid_round(king * w, inv)
                q[2, i, j] = -q[0, i, j]
                q[3, i, j] = -q[1, i, j]
    return exact


@numba.njit(**JIT)
def dense_tables(genome, rest, pos, W, B):
    """Copy the dense layers' weights (from genome index ``pos``) into ``W`` and ``B`` (zeroed
    first); the piece-difference weight's genome index."""
    W[:] = 0.0
    B[:] = 0.0
    for layer in range(len(rest) - 1):
        fan_in, fan_out = rest[layer], rest[layer + 1]
        for j in range(fan_out):
            for i in range(fan_in):
                W[layer, i, j] = genome[pos + j * fan_in + i]
        pos += fan_in * fan_out
        for j in range(fan_out):
            B[layer, j] = genome[pos + j]
        pos += fan_out
    return pos


@numba.njit(**JIT, inline="always")
def network_tail(accs, p, v, floats, pd, exact, scale, rest, W, B, pd_weight, a, b):
    """The network's output from its first layer's sums: ``accs[p, v]`` (exact networks, on the
    units' grids) or ``floats`` (inexact ones), and the piece difference ``pd``; ``a``, ``b``
    scratch rows of ``lanes`` of the widest layer."""
    units = rest[0]
    if exact:
        for j in range(units):
            a[j] = float(accs[p, v, j]) * scale[j]
    else:
        for j in range(units):
            a[j] = floats[j]
    tanh_lanes(a, units)
    last = len(rest) - 2
    for layer in range(last):
        fan_in, fan_out = rest[layer], rest[layer + 1]
        for j in range(fan_out):
            b[j] = B[layer, j]
        for i in range(fan_in):
            x = a[i]
            for j in range(fan_out):
                b[j] += x * W[layer, i, j]
        tanh_lanes(b, fan_out)
        for j in range(fan_out):
            a[j] = b[j]
    s = B[last, 0]
    for i in range(rest[last]):
        s += a[i] * W[last, i, 0]
    s += pd * pd_weight
    out = tanh(s)
    return out if out == out else 0.0


@numba.njit(**JIT)
def piece_difference(men, kings, king):
    """(own - other men) + K (own - other kings): the network's piece-difference input."""
    return float(men) + king * float(kings)


@numba.njit(**JIT)
def network_value(codes, net, acc, floats, a, b):
    """A Blondie24 network's output for one board seen by the side to move (``codes``, own
    pieces positive: 0 empty, +-1 men, +-2 kings entering as +-K); ``acc`` ((1, 1, n)
    int64), ``floats``, ``a`` and ``b`` are scratch (see ``network_tail``).

    A board with another value (a game whose views count seeds, say) enters as it is, and
    is summed in floating point like an inexact network's: each unit's bias, then its
    inputs in order, the piece difference the inputs' sum in order."""
    genome, king, exact, first, first_bias, q, qbias, scale, rest, W, B, pd_weight = net
    units, inputs = first.shape
    men = 0
    kings = 0
    plain = True
    for i in range(inputs):
        c = codes[i]
        if c == 1 or c == -1:
            men += c
        elif c == 2 or c == -2:
            kings += 1 if c > 0 else -1
        elif c != 0:
            plain = False
    if exact and plain:
        for j in range(units):
            acc[0, 0, j] = qbias[j]
        for i in range(inputs):
            c = codes[i]
            if c != 0:
                r = code_row(c)
                for j in range(units):
                    acc[0, 0, j] += q[r, i, j]
        pd = piece_difference(men, kings, king)
    else:
        for j in range(units):
            s = genome[first_bias[j]]
            for i in range(inputs):
                c = codes[i]
                g = first[j, i]
                if c != 0 and g >= 0:
                    s += _input_value(c, king) * genome[g]
            floats[j] = s
        if plain:
            pd = piece_difference(men, kings, king)
        else:
            pd = 0.0
            for i in range(inputs):
                pd += _input_value(codes[i], king)
    return network_tail(acc, 0, 0, floats, pd, exact and plain, scale, rest, W, B, pd_weight, a, b)


@numba.njit(**JIT, inline="always")
def _input_value(c, king):
    return king if c == 2 else (-king if c == -2 else float(c))
