"""Plain-Python twins of the compiled kernels of ``evoplay.networks.arithmetic``: the same steps on Python floats.

Python floats are IEEE doubles and CPython neither fuses nor reorders operations, so the
twin and the kernel must agree bit for bit; a fused multiply-add is spelled out exactly
with fractions.
"""

from __future__ import annotations

import math
from fractions import Fraction

from evoplay.networks import arithmetic


def exp(x: float) -> float:
    if x != x:
        return x
    if x > arithmetic._EXP_MAX:
        return math.inf
    if x < arithmetic._EXP_MIN:
        return 0.0
    ax, k, hi, lo = abs(x), 0, 0.0, 0.0
    if ax > arithmetic._HALF_LN2:
        if ax < arithmetic._THREE_HALF_LN2:
            hi, lo, k = (x - arithmetic._LN2_HI, arithmetic._LN2_LO, 1) if x >= 0.0 else (x + arithmetic._LN2_HI, -arithmetic._LN2_LO, -1)
        else:
            k = int(arithmetic._INV_LN2 * x + (0.5 if x >= 0.0 else -0.5))
            hi = x - float(k) * arithmetic._LN2_HI
            lo = float(k) * arithmetic._LN2_LO
        x = hi - lo
    elif ax < 2.0**-28:
        return 1.0 + x
    t = x * x
    c = x - t * (arithmetic._P1 + t * (arithmetic._P2 + t * (arithmetic._P3 + t * (arithmetic._P4 + t * arithmetic._P5))))
    if k == 0:
        return 1.0 - ((x * c) / (c - 2.0) - x)
    return math.ldexp(1.0 - ((lo - (x * c) / (2.0 - c)) - hi), k)


def log(x: float) -> float:
    if x != x or x < 0.0:
        return math.nan
    if x == 0.0:
        return -math.inf
    if x == math.inf:
        return x
    m, e = math.frexp(x)
    if m < arithmetic._SQRT_HALF:
        m, e = m * 2.0, e - 1
    f = m - 1.0
    dk = float(e)
    s = f / (2.0 + f)
    z = s * s
    w = z * z
    r = z * (arithmetic._LG1 + w * (arithmetic._LG3 + w * (arithmetic._LG5 + w * arithmetic._LG7))) + w * (arithmetic._LG2 + w * (arithmetic._LG4 + w * arithmetic._LG6))
    hfsq = 0.5 * f * f
    return dk * arithmetic._LN2_HI - ((hfsq - (s * (hfsq + r) + dk * arithmetic._LN2_LO)) - f)


def fma(a: float, b: float, c: float) -> float:
    """``a * b + c`` exactly, rounded once (Fraction to float rounds to nearest, ties to even)."""
    return float(Fraction(a) * Fraction(b) + Fraction(c))
