"""The streams of ``streams.stream``, made by re-seeding a kept Generator: for hot loops.

``streams.stream`` builds a SeedSequence, a PCG64 and a Generator for every stream, about
12 µs; a Fogel generation takes three. ``stream`` here keeps one Generator per purpose
(per thread) and sets its bit generator to the state ``streams.stream`` starts from,
computed by a compiled copy of numpy's SeedSequence hashing (entropy words, pool mixing,
``generate_state``) and of PCG64's seeding: about 4 µs. The Generator is the same object
at the next call of the same purpose, re-seeded: its draws are taken before that call,
never kept. Tests compare states and draws with numpy's for many keys.
"""

from __future__ import annotations

import threading

import numba
import numpy as np

from evoplay.numerics import JIT

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


def pcg64_state(seed: int, trial: int, generation: int, purpose: int) -> dict:
    """The state of ``PCG64(SeedSequence(seed, spawn_key=(trial, generation, purpose)))``, as ``bits.state`` takes it."""
    w = [int(x) for x in seed_words(seed, trial, generation, purpose)]
    initstate, initseq = (w[0] << 64) | w[1], (w[2] << 64) | w[3]
    inc = ((initseq << 1) | 1) & _M128
    state = inc  # from state 0, one step: 0 * mult + inc; then initstate is added and one more step taken
    state = (((state + initstate) & _M128) * _PCG_MULT + inc) & _M128
    return {"bit_generator": "PCG64", "state": {"state": state, "inc": inc}, "has_uint32": 0, "uinteger": 0}


_kept = threading.local()


def stream(seed: int, trial: int, generation: int, purpose: int) -> np.random.Generator:
    """``streams.stream(seed, trial, generation, purpose)``'s Generator, re-seeded in place (see the module)."""
    gens = getattr(_kept, "gens", None)
    if gens is None:
        gens = _kept.gens = {}
    gen = gens.get(purpose)
    if gen is None:
        gen = gens[purpose] = np.random.Generator(np.random.PCG64(0))
    gen.bit_generator.state = pcg64_state(seed, trial, generation, purpose)
    return gen
