"""Arithmetic that gives the same bits on every CPU.

numpy hands a matrix product to the BLAS kernel the machine picks (OpenBLAS chooses by
CPU, and its kernels sum in different orders, with or without fused multiply-adds), and
``np.exp`` on an AVX-512 machine is numpy's own vector routine while elsewhere it is the C
library's, which itself has FMA and non-FMA variants. Each is fine alone; together they
make a fitness differ in its last digit from one machine to the next, and a 1-ulp
difference can flip a tie in selection. So every number that reaches a fitness, a
logbook or a selection goes through the compiled kernels here: plain loops in a fixed
order, compiled without fast-math (LLVM neither reassociates nor fuses them), an ``exp``
made of additions and multiplications only (fdlibm's algorithm), and fused multiply-adds
only where asked for, through LLVM's ``fma``, which rounds once on every machine.

Each kernel has a plain-Python twin in the tests that must give the same bits.
"""

from __future__ import annotations

import math

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

#: Compile options of every kernel: cached on disk, no fast-math (the default, said aloud).
JIT = dict(cache=True, nogil=True, fastmath=False, error_model="numpy")


@intrinsic
def _fma(typingctx, a, b, c):
    """``a * b + c`` rounded once (LLVM's fma: the instruction, or libm's exact fallback)."""
    sig = types.float64(types.float64, types.float64, types.float64)

    def codegen(context, builder, signature, args):
        double = ir.DoubleType()
        fnty = ir.FunctionType(double, [double, double, double])
        fn = builder.module.declare_intrinsic("llvm.fma", [double], fnty)
        return builder.call(fn, args)

    return sig, codegen


@intrinsic
def _pow2(typingctx, k):
    """2.0 ** k for an integer -1022 <= k <= 1023, made from its bits (biased exponent, zero mantissa): exact."""
    sig = types.float64(types.int64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        bits = builder.shl(builder.add(args[0], ir.Constant(i64, 1023)), ir.Constant(i64, 52))
        return builder.bitcast(bits, ir.DoubleType())

    return sig, codegen


@numba.njit(**JIT)
def fma(a, b, c):
    """``a * b + c`` with a single rounding."""
    return _fma(a, b, c)


_LN2_HI = 6.93147180369123816490e-01  # ln 2 split so that k * _LN2_HI is exact
_LN2_LO = 1.90821492927058770002e-10
_INV_LN2 = 1.44269504088896338700e00
_P1 = 1.66666666666666019037e-01
_P2 = -2.77777777770155933842e-03
_P3 = 6.61375632143793436117e-05
_P4 = -1.65339022054652515390e-06
_P5 = 4.13813679705723846039e-08
_HALF_LN2 = 0.34657359027997264
_THREE_HALF_LN2 = 1.0397207708399179
_EXP_MAX = 7.09782712893383973096e02
_EXP_MIN = -7.45133219101941108420e02
_TINY = 3.725290298461914e-09  # 2**-28: below it e**x rounds to 1 + x


@numba.njit(**JIT)
def exp(x):
    """e**x by fdlibm's algorithm (error below 1 ulp): the same bits on every machine."""
    if x != x:
        return x
    if x > _EXP_MAX:
        return math.inf
    if x < _EXP_MIN:
        return 0.0
    ax = abs(x)
    k = 0
    hi = 0.0
    lo = 0.0
    if ax > _HALF_LN2:
        if ax < _THREE_HALF_LN2:
            if x >= 0.0:
                hi, lo, k = x - _LN2_HI, _LN2_LO, 1
            else:
                hi, lo, k = x + _LN2_HI, -_LN2_LO, -1
        else:
            k = int(_INV_LN2 * x + (0.5 if x >= 0.0 else -0.5))
            t = float(k)
            hi = x - t * _LN2_HI
            lo = t * _LN2_LO
        x = hi - lo
    elif ax < _TINY:
        return 1.0 + x
    t = x * x
    c = x - t * (_P1 + t * (_P2 + t * (_P3 + t * (_P4 + t * _P5))))
    if k == 0:
        return 1.0 - ((x * c) / (c - 2.0) - x)
    y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi)  # e**(hi - lo), within [0.70, 1.42]
    if -1021 <= k <= 1023:  # y * 2**k is then a normal number (or overflows, as ldexp does): exact, ldexp's bits
        return y * _pow2(k)
    return math.ldexp(y, k)


_LG1 = 6.666666666666735130e-01
_LG2 = 3.999999999940941908e-01
_LG3 = 2.857142874366239149e-01
_LG4 = 2.222219843214978396e-01
_LG5 = 1.818357216161805012e-01
_LG6 = 1.531383769920937332e-01
_LG7 = 1.479819860511658591e-01
_SQRT_HALF = 0.7071067811865476


@numba.njit(**JIT)
def log(x):
    """Natural logarithm by fdlibm's polynomial (error below 1 ulp): the same bits on every machine."""
    if x != x or x < 0.0:
        return math.nan
    if x == 0.0:
        return -math.inf
    if x == math.inf:
        return x
    m, e = math.frexp(x)  # x = m * 2**e exactly, m in [0.5, 1)
    if m < _SQRT_HALF:
        m *= 2.0
        e -= 1
    f = m - 1.0  # exact; f in [-0.293, 0.414]
    dk = float(e)
    s = f / (2.0 + f)
    z = s * s
    w = z * z
    r = z * (_LG1 + w * (_LG3 + w * (_LG5 + w * _LG7))) + w * (_LG2 + w * (_LG4 + w * _LG6))
    hfsq = 0.5 * f * f
    return dk * _LN2_HI - ((hfsq - (s * (hfsq + r) + dk * _LN2_LO)) - f)


@numba.njit(**JIT)
def sigmoid(z):
    """The logistic function 1 / (1 + e**-z)."""
    return 1.0 / (1.0 + exp(-z))


#: Lanes ``sigmoid_lanes`` works in: scratch rows it is given hold a multiple of this many.
LANES = 8
@numba.njit(**JIT)
def lanes(n):
    """The length of a scratch row for ``n`` values of ``sigmoid_lanes``: ``n`` rounded up to ``LANES``."""
    return (n + LANES - 1) // LANES * LANES


@numba.njit(**JIT, inline="always")
def sigmoid_lanes(a, n):
    """``a[i] = sigmoid(a[i])`` for ``i < n``, in SIMD lanes where that gives ``sigmoid``'s bits.

    Where every ``|a[i]|`` lies in [2**-28, 700] (no NaN, no overflow, ``exp``'s scale 2**k
    a normal number), ``exp``'s branches reduce to one formula whose ``k`` is picked by
    selects (0 up to ln 2 / 2, +-1 up to 3 ln 2 / 2, else rounded ``x / ln 2``: the very
    operations of each branch), and the compiler runs the lanes side by side; ``a`` must
    hold ``lanes(n)`` values (the padding is overwritten). Elsewhere ``sigmoid`` runs value
    by value. Tests check the bits against ``sigmoid`` on every boundary.
    """
    fits = True
    for i in range(n):
        fits = fits and _TINY <= abs(a[i]) <= 700.0
    if not fits:
        for i in range(n):
            a[i] = sigmoid(a[i])
        return
    m = lanes(n)
    for i in range(n, m):
        a[i] = 1.0
    for i in range(m):
        x = -a[i]
        ax = abs(x)
        k = 0 if ax <= _HALF_LN2 else ((1 if x >= 0.0 else -1) if ax < _THREE_HALF_LN2
                                         else int(_INV_LN2 * x + (0.5 if x >= 0.0 else -0.5)))
        t = float(k)
        hi = x - t * _LN2_HI
        lo = t * _LN2_LO
        r = hi - lo
        rr = r * r
        c = r - rr * (_P1 + rr * (_P2 + rr * (_P3 + rr * (_P4 + rr * _P5))))
        a[i] = 1.0 / (1.0 + (1.0 - ((lo - (r * c) / (2.0 - c)) - hi)) * _pow2(k))


@numba.njit(**JIT)
def tanh(z):
    """tanh z = 1 - 2 / (e**2|z| + 1) with z's sign: odd, exactly +-1 for big |z|, absolute error near 1e-16."""
    t = 1.0 - 2.0 / (exp(2.0 * abs(z)) + 1.0)
    return t if z >= 0.0 else -t


@numba.njit(**JIT, inline="always")
def tanh_lanes(a, n):
    """``a[i] = tanh(a[i])`` for ``i < n``, in SIMD lanes, with ``tanh``'s bits.

    tanh z is 1 - 2 / (e**x + 1) with x = 2|z| and z's sign. Where no value is NaN, ``exp``'s
    branches reduce to one formula whose ``k`` is picked by selects (as in
    ``sigmoid_lanes``), with x clamped to 40 (beyond it tanh is exactly 1 either way) and
    ``exp``'s 1 + x below 2**-28 selected too; a NaN sends the row value by value. ``a``
    holds ``lanes(n)`` values (the padding is overwritten). Tests check the bits against
    ``tanh`` on every boundary.
    """
    fits = True
    for i in range(n):
        fits = fits and a[i] == a[i]
    if not fits:
        for i in range(n):
            a[i] = tanh(a[i])
        return
    m = lanes(n)
    for i in range(n, m):
        a[i] = 0.0
    for i in range(m):
        z = a[i]
        x = min(2.0 * abs(z), 40.0)
        k = 0 if x <= _HALF_LN2 else (1 if x < _THREE_HALF_LN2 else int(_INV_LN2 * x + 0.5))
        t = float(k)
        hi = x - t * _LN2_HI
        lo = t * _LN2_LO
        r = hi - lo
        rr = r * r
        c = r - rr * (_P1 + rr * (_P2 + rr * (_P3 + rr * (_P4 + rr * _P5))))
        e = (1.0 - ((lo - (r * c) / (2.0 - c)) - hi)) * _pow2(k)
        e = 1.0 + x if x < _TINY else e
        u = 1.0 - 2.0 / (e + 1.0)
        a[i] = u if z >= 0.0 else -u


@numba.njit(**JIT)
def _map_exp(x, out):
    for i in range(x.size):
        out[i] = exp(x[i])


@numba.njit(**JIT)
def _map_log(x, out):
    for i in range(x.size):
        out[i] = log(x[i])


@numba.njit(**JIT)
def _map_tanh(x, out):
    for i in range(x.size):
        out[i] = tanh(x[i])


def _elementwise(kernel, x):
    x = np.asarray(x, dtype=np.float64)
    flat = np.ascontiguousarray(x).ravel()
    out = np.empty_like(flat)
    kernel(flat, out)
    return out.reshape(x.shape) if x.ndim else float(out[0])


def exp_array(x):
    """``exp`` of every element (an array of the same shape; a float for a scalar)."""
    return _elementwise(_map_exp, x)


def log_array(x):
    """``log`` of every element."""
    return _elementwise(_map_log, x)


def tanh_array(x):
    """``tanh`` of every element."""
    return _elementwise(_map_tanh, x)


@numba.njit(**JIT)
def _matmul(a, b, out):
    n, k = a.shape
    m = b.shape[1]
    for i in range(n):
        for j in range(m):
            s = 0.0
            for q in range(k):
                s += a[i, q] * b[q, j]
            out[i, j] = s


def matmul(a, b) -> np.ndarray:
    """``a @ b`` for 1-d or 2-d arrays, each element summed over ``k`` in order from zero (no BLAS)."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    a2 = np.ascontiguousarray(a.reshape(1, -1) if a.ndim == 1 else a)
    b2 = np.ascontiguousarray(b.reshape(-1, 1) if b.ndim == 1 else b)
    if a2.shape[1] != b2.shape[0]:
        raise ValueError(f"matmul: shapes {a.shape} and {b.shape} do not align")
    out = np.empty((a2.shape[0], b2.shape[1]))
    _matmul(a2, b2, out)
    if a.ndim == 1 and b.ndim == 1:
        return out[0, 0]
    if a.ndim == 1:
        return out[0]
    if b.ndim == 1:
        return out[:, 0]
    return out


@numba.njit(**JIT)
def fused_rows(values, table):
    """Per row of ``values`` (n, k): v0*t0, then fused multiply-adds of the rest, in column order.

    This is the order OpenBLAS's AVX2 matrix-vector kernel used for the committed results.
    """
    n, k = values.shape
    out = np.empty(n)
    for i in range(n):
        acc = values[i, 0] * table[0]
        for j in range(1, k):
            acc = _fma(values[i, j], table[j], acc)
        out[i] = acc
    return out


def weighted_rows(values, table) -> np.ndarray:
    """``values @ table`` for (n, k) values and k weights, fused in a fixed order (``fused_rows``)."""
    values = np.ascontiguousarray(values, dtype=np.float64)
    return fused_rows(values, np.ascontiguousarray(table, dtype=np.float64))


def plain_rows(values, table) -> np.ndarray:
    """``values @ table`` summed left to right with every product rounded (no fused steps)."""
    values = np.asarray(values, dtype=np.float64)
    out = values[..., 0] * table[0]
    for j in range(1, len(table)):
        out = out + values[..., j] * table[j]
    return out
