"""Random streams keyed by (trial, generation, purpose), never by worker or arrival order.

Every draw of a run comes from ``numpy.random.SeedSequence(seed, spawn_key=(trial,
generation, purpose))``, so a trial is a pure function of (config, trial) wherever and
however often its pieces run. A stream can be entered ``skip`` draws on (PCG64's
``advance``): a chunk of a population draws exactly its own rows of a generation's block.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# Conventional purposes (the last element of every spawn key); recipes may add their own.
INIT, MUTATE, EVALUATE, SELECT, VARIATE = 0, 1, 2, 3, 4


def stream(seed: int, trial: int, generation: int, purpose: int, skip: int = 0) -> np.random.Generator:
    """The random stream of one purpose in one generation of one trial, ``skip`` draws on.

    >>> stream(1993, 0, 1, MUTATE).random() == stream(1993, 0, 1, MUTATE).random()
    True
    """
    bits = np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(trial, generation, purpose)))
    return np.random.Generator(bits.advance(skip) if skip else bits)


@dataclass(frozen=True)
class Streams:
    """The streams of one generation of one trial: ``streams(purpose, skip=0)``."""

    seed: int
    trial: int
    generation: int

    def __call__(self, purpose: int, skip: int = 0) -> np.random.Generator:
        return stream(self.seed, self.trial, self.generation, purpose, skip)

    @property
    def key(self) -> tuple[int, int, int]:
        """(seed, trial, generation): enough for a worker to rebuild any of these streams."""
        return (self.seed, self.trial, self.generation)
