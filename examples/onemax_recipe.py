"""A user recipe that is not Fogel's, in its own words: OneMax as an evoplay recipe.

Bit strings, two-point crossover, bit flips and tournament selection (DEAP's OneMax,
with every draw from the generation's streams); the fitness of a string is its number
of ones, counted through ``ctx.map`` in chunks. The recipe names its fitness
(``fitness_name``, ``fitness_unit``), so the console, the curve, the run summary
(``mean_max_ones``) and study tables speak of ones, not of Fogel's payoff::

    evoplay evolve examples/onemax_recipe.toml --out results/onemax
"""

import numpy as np

from evoplay import Recipe
from evoplay.framework.config import in_range
from evoplay.framework.streams import INIT, MUTATE, SELECT, VARIATE


def eval_ones(bits: np.ndarray) -> np.ndarray:
    """Ones per string of a chunk: one ``ctx.map`` item."""
    return bits.sum(axis=1, dtype=np.int64)


def sel_tournament(fitness: np.ndarray, size: int, rng: np.random.Generator) -> np.ndarray:
    """Indices of ``len(fitness)`` winners of tournaments of ``size`` (ties: the first drawn)."""
    rivals = rng.integers(0, len(fitness), (len(fitness), size))
    return rivals[np.arange(len(fitness)), np.argmax(fitness[rivals], axis=1)]


def cx_two_point(bits: np.ndarray, p: float, rng: np.random.Generator) -> np.ndarray:
    """Pairs (0, 1), (2, 3), ... swap the bits between two cut points with probability ``p``."""
    out = bits.copy()
    n, length = bits.shape
    cuts = np.sort(rng.integers(0, length + 1, (n // 2, 2)), axis=1)
    mate = rng.random(n // 2) < p
    cols = np.arange(length)
    for k in np.flatnonzero(mate):
        seg = (cols >= cuts[k, 0]) & (cols < cuts[k, 1])
        out[2 * k, seg], out[2 * k + 1, seg] = bits[2 * k + 1, seg], bits[2 * k, seg]
    return out


def mut_flip(bits: np.ndarray, p: float, rng: np.random.Generator) -> np.ndarray:
    """Every bit flipped with probability ``p``."""
    return bits ^ (rng.random(bits.shape) < p).astype(bits.dtype)


class OneMax(Recipe):
    """Maximise the number of ones in a bit string."""

    default_name = "onemax"
    fitness_name = "ones"
    fitness_unit = "bits set"
    schema = {
        "onemax": {
            "bits": (int, 100, in_range(2, 100_000)),
            "population": (int, 60, in_range(2, 100_000)),
            "p_cross": (float, 0.5, in_range(0.0, 1.0)),
            "p_flip": (float, 0.01, in_range(0.0, 1.0)),
            "tournament": (int, 3, in_range(1, 100)),
        }
    }

    def __init__(self, cfg):
        super().__init__(cfg)
        self.s = cfg["onemax"]

    def evaluate(self, bits, ctx) -> np.ndarray:
        return np.concatenate(list(ctx.map(eval_ones, [bits[a:b] for a, b in ctx.bounds(len(bits))])))

    def start(self, ctx):
        bits = ctx.stream(INIT).integers(0, 2, (self.s["population"], self.s["bits"]), dtype=np.int8)
        return {"bits": bits, "ones": self.evaluate(bits, ctx)}

    def step(self, state, ctx) -> dict:
        parents = state["bits"][sel_tournament(state["ones"], self.s["tournament"], ctx.stream(SELECT))]
        children = mut_flip(cx_two_point(parents, self.s["p_cross"], ctx.stream(VARIATE)), self.s["p_flip"], ctx.stream(MUTATE))
        state["bits"], state["ones"] = children, self.evaluate(children, ctx)
        ones = state["ones"]
        return {"gen": ctx.generation, "max": int(ones.max()), "mean": float(ones.mean()), "min": int(ones.min())}

    def to_data(self, state) -> dict:
        return {"bits": ["".join(map(str, row)) for row in state["bits"].tolist()], "ones": state["ones"].tolist()}

    def from_data(self, data):
        bits = np.array([[int(c) for c in row] for row in data["bits"]], dtype=np.int8)
        return {"bits": bits, "ones": np.asarray(data["ones"], dtype=np.int64)}

    def finish(self, state, trial, logbook):
        best = int(np.argmax(state["ones"]))
        champion = {"bits": "".join(map(str, state["bits"][best].tolist())), "ones": int(state["ones"][best])}
        return champion, {"final_max": logbook[-1]["max"], "score": champion["ones"]}
