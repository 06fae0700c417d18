"""The random streams of ``streams.stream``, compiled: for kernels that draw inside.

``streams.stream`` builds a SeedSequence, a PCG64 and a Generator for every stream, about
12 µs, and every draw is a call into numpy; a Fogel generation takes three streams and
tens of thousands of draws. Here a stream is a small array (``pcg64``): numpy's
SeedSequence hashing (entropy words, pool mixing, ``generate_state``) and PCG64's
seeding, compiled, give the very state numpy starts from, and compiled functions take
numpy's draws from it: raw outputs, uniforms, normals (numpy's ziggurat), at the next
position or (by jumps) at any later one. Tests compare states and draws with numpy's.
"""

from __future__ import annotations

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic
from numba.np.random._constants import fi_double, ki_double, wi_double, ziggurat_nor_inv_r, ziggurat_nor_r

from evoplay.networks.arithmetic import JIT

_M32 = 0xFFFFFFFF
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875  # numpy's SeedSequence constants
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715
_POOL = 4
_PCG_MULT = (2549297995355413924 << 64) + 4865540595714422341  # PCG64's 128-bit multiplier
_M128 = (1 << 128) - 1


@numba.njit(**JIT)
def _put_words(x, out, n):
    """Append ``x``'s 32-bit words to ``out`` from ``n`` on, least significant first (0 is one word)."""
    if x == 0:
        out[n] = 0
        return n + 1
    while x > 0:
        out[n] = x & _M32
        x >>= 32
        n += 1
    return n


@numba.njit(**JIT)
def seed_words(seed, trial, generation, purpose):
    """The four 64-bit words ``SeedSequence(seed, spawn_key=(trial, generation, purpose)).generate_state(4, uint64)``."""
    ent = np.zeros(16, dtype=np.uint64)
    n = max(_put_words(seed, ent, 0), _POOL)  # run entropy is padded to the pool size when a spawn key follows
    n = _put_words(trial, ent, n)
    n = _put_words(generation, ent, n)
    n = _put_words(purpose, ent, n)
    pool = np.zeros(_POOL, dtype=np.uint64)
    hc = np.uint64(_INIT_A)
    for i in range(_POOL):  # n >= the pool size
        v = ent[i] ^ hc
        hc = (hc * np.uint64(_MULT_A)) & np.uint64(_M32)
        v = (v * hc) & np.uint64(_M32)
        pool[i] = v ^ (v >> np.uint64(16))
    for s in range(n):
        for d in range(_POOL):
            if s < _POOL and s == d:
                continue
            v = (pool[s] if s < _POOL else ent[s]) ^ hc
            hc = (hc * np.uint64(_MULT_A)) & np.uint64(_M32)
            v = (v * hc) & np.uint64(_M32)
            v ^= v >> np.uint64(16)
            r = (np.uint64(_MIX_L) * pool[d] - np.uint64(_MIX_R) * v) & np.uint64(_M32)
            pool[d] = r ^ (r >> np.uint64(16))
    out = np.zeros(4, dtype=np.uint64)
    hc = np.uint64(_INIT_B)
    for i in range(8):
        v = pool[i % _POOL] ^ hc
        hc = (hc * np.uint64(_MULT_B)) & np.uint64(_M32)
        v = (v * hc) & np.uint64(_M32)
        v ^= v >> np.uint64(16)
        out[i // 2] |= v << np.uint64(32 * (i % 2))
    return out


# ---------------------------------------------------------------- PCG64
#
# A stream's PCG64: ``pcg`` is a uint64 array (state high and low words, increment high and low words, outputs taken), and
# ``jumps(pcg)`` tables the steps of 1..JUMPS outputs at once (PCG64 is a 128-bit linear
# congruential generator: k steps are one multiply-add, by M**k and by inc * (1 + M + ...
# + M**(k-1))), so a kernel may take outputs far apart without stepping through those
# between. An output is numpy's ``random_raw`` (XSL-RR of the state after the step), a
# uniform its ``random()`` (the top 53 bits). Tests compare them with numpy's.

JUMPS = 16


def _words(x: int) -> tuple[int, int]:
    return (x >> 64) & 0xFFFFFFFFFFFFFFFF, x & 0xFFFFFFFFFFFFFFFF


def _jump_constants():
    mult, sums, m, s = [], [], 1, 0
    for _ in range(JUMPS + 1):  # row k: M**k and 1 + M + ... + M**(k-1)
        mult.append(_words(m))
        sums.append(_words(s))
        s = (s + m) & _M128
        m = (m * _PCG_MULT) & _M128
    return np.array(mult, dtype=np.uint64), np.array(sums, dtype=np.uint64)


_MULT_K, _SUM_K = _jump_constants()
_MULT_HI, _MULT_LO = (np.uint64(w) for w in _words(_PCG_MULT))


@intrinsic
def _mulhi(typingctx, a, b):
    """The high 64 bits of the 128-bit product of two uint64."""
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        wide = ir.IntType(128)
        product = builder.mul(builder.zext(args[0], wide), builder.zext(args[1], wide))
        return builder.trunc(builder.lshr(product, ir.Constant(wide, 64)), ir.IntType(64))

    return sig, codegen


@numba.njit(**JIT, inline="always")
def _mul_add(a_hi, a_lo, b_hi, b_lo, c_hi, c_lo):
    """``a * b + c`` modulo 2**128, each a (high, low) pair of uint64."""
    lo = a_lo * b_lo
    hi = _mulhi(a_lo, b_lo) + a_hi * b_lo + a_lo * b_hi
    out_lo = lo + c_lo
    return hi + c_hi + (np.uint64(1) if out_lo < lo else np.uint64(0)), out_lo


@numba.njit(**JIT)
def pcg64(seed, trial, generation, purpose):
    """The compiled PCG64 of ``streams.stream(seed, trial, generation, purpose)``, no output taken yet."""
    w = seed_words(seed, trial, generation, purpose)
    one = np.uint64(1)
    inc_hi, inc_lo = (w[2] << one) | (w[3] >> np.uint64(63)), (w[3] << one) | one
    # numpy's seeding: from state 0 one step (the state becomes inc), initstate added, one more step
    hi, lo = _mul_add(inc_hi, inc_lo, np.uint64(0), one, w[0], w[1])  # inc * 1 + initstate
    hi, lo = _mul_add(hi, lo, _MULT_HI, _MULT_LO, inc_hi, inc_lo)
    return np.array([hi, lo, inc_hi, inc_lo, 0], dtype=np.uint64)


@numba.njit(**JIT)
def jumps(pcg):
    """Table of a stream's jumps: row k is (M**k high, low, inc * (1 + ... + M**(k-1)) high, low)."""
    table = np.empty((JUMPS + 1, 4), dtype=np.uint64)
    for k in range(JUMPS + 1):
        table[k, 0], table[k, 1] = _MULT_K[k, 0], _MULT_K[k, 1]
        table[k, 2], table[k, 3] = _mul_add(pcg[2], pcg[3], _SUM_K[k, 0], _SUM_K[k, 1], np.uint64(0), np.uint64(0))
    return table


@numba.njit(**JIT, inline="always")
def _output(hi, lo):
    x = hi ^ lo
    rot = hi >> np.uint64(58)
    return (x >> rot) | (x << ((np.uint64(64) - rot) & np.uint64(63)))


@numba.njit(**JIT, inline="always")
def next64(pcg):
    """The stream's next output (``random_raw``)."""
    pcg[0], pcg[1] = _mul_add(pcg[0], pcg[1], _MULT_HI, _MULT_LO, pcg[2], pcg[3])
    pcg[4] += np.uint64(1)
    return _output(pcg[0], pcg[1])


@numba.njit(**JIT, inline="always")
def output_at(pcg, table, q):
    """The stream's output number ``q`` (from 0; at least the outputs taken), by jumps of ``table`` (``jumps``)."""
    k = np.uint64(q) + np.uint64(1) - pcg[4]
    while k > np.uint64(0):
        j = min(k, np.uint64(JUMPS))
        pcg[0], pcg[1] = _mul_add(pcg[0], pcg[1], table[j, 0], table[j, 1], table[j, 2], table[j, 3])
        k -= j
    pcg[4] = np.uint64(q) + np.uint64(1)
    return _output(pcg[0], pcg[1])


@numba.njit(**JIT, inline="always")
def uniform(x):
    """numpy's ``random()`` from an output: its top 53 bits times 2**-53."""
    return np.float64(x >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@numba.njit(**JIT, inline="always")
def standard_normal(pcg):
    """numpy's ``standard_normal()`` on the stream: its ziggurat (numpy's tables, as numba's Generator has them)."""
    while True:
        r = next64(pcg)
        idx = np.int64(r & np.uint64(0xFF))
        r >>= np.uint64(8)
        rabs = (r >> np.uint64(1)) & np.uint64(0x000FFFFFFFFFFFFF)
        x = np.float64(rabs) * wi_double[idx]
        if r & np.uint64(1):
            x = -x
        if rabs < ki_double[idx]:
            return x  # 99.3% of the time
        if idx == 0:  # the tail
            while True:
                xx = -ziggurat_nor_inv_r * np.log1p(-uniform(next64(pcg)))
                yy = -np.log1p(-uniform(next64(pcg)))
                if yy + yy > xx * xx:
                    return -(ziggurat_nor_r + xx) if (rabs >> np.uint64(8)) & np.uint64(1) else ziggurat_nor_r + xx
        elif (fi_double[idx - 1] - fi_double[idx]) * uniform(next64(pcg)) + fi_double[idx] < np.exp(-0.5 * x * x):
            return x
