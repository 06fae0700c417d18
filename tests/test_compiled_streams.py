"""``compiled_streams.pcg64`` is ``streams.stream``'s PCG64: the same state, hence the same draws, for any key."""

from __future__ import annotations

import numpy as np

from evoplay.framework import compiled_streams
from evoplay.framework.streams import MUTATE, stream

# Keys whose words cross every boundary of numpy's entropy assembly: zeros (one word each),
# a seed of one and of two 32-bit words (padded to the pool of 4, or not), spawn-key parts
# of one and two words (more entropy than the pool: the late-mixing loop).
EDGES = [(0, 0, 0, 0), (1993, 0, 1, MUTATE), (2**32 - 1, 2**32 - 1, 2**32 - 1, 3), (2**32, 0, 0, 0),
         (2**63 - 1, 2**32, 2**40 + 3, 7), (5, 2**33, 0, 2**32 + 1), (1, 2, 3, 4)]


def _keys():
    rng = np.random.default_rng(20)
    wide = [tuple(int(x) for x in rng.integers(0, 2**63 - 1, 4)) for _ in range(150)]
    small = [tuple(int(x) for x in rng.integers(0, 1000, 4)) for _ in range(150)]
    return EDGES + wide + small


def test_the_state_is_numpys_for_many_keys():
    def state(k):
        words = [int(x) for x in compiled_streams.pcg64(*k)]
        return {"state": (words[0] << 64) | words[1], "inc": (words[2] << 64) | words[3]}

    wrong = [k for k in _keys() if state(k) != stream(*k).bit_generator.state["state"]]
    assert wrong == []


def test_the_seed_words_are_numpys_generate_state():
    for k in EDGES:
        ss = np.random.SeedSequence(k[0], spawn_key=k[1:])
        assert compiled_streams.seed_words(*k).tolist() == ss.generate_state(4, np.uint64).tolist()


def test_the_compiled_pcg64_makes_numpys_outputs_and_uniforms_in_order_and_by_jumps():
    rng = np.random.default_rng(7)
    for k in EDGES + _keys()[-40:]:
        raw = stream(*k).bit_generator.random_raw(400)
        pcg = compiled_streams.pcg64(*k)
        assert [int(compiled_streams.next64(pcg)) for _ in range(200)] == raw[:200].tolist()
        pcg = compiled_streams.pcg64(*k)
        table = compiled_streams.jumps(pcg)
        at = np.sort(rng.choice(400, 60, replace=False))  # gaps of 1 to JUMPS and beyond
        assert [int(compiled_streams.output_at(pcg, table, int(q))) for q in at] == raw[at].tolist()
        assert [compiled_streams.uniform(x) for x in raw[:50]] == stream(*k).random(50).tolist()
