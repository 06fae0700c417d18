"""Co-evolution on the road to Blondie24: networks scored by games against each other.

No hand-made opponent is used for selection. Each generation, every network of the pool
(N parents and their N children) draws ``coevolution.opponents`` distinct other members
of the pool from the generation's PAIRING stream and plays each of them twice, once as X
and once as O (the network's input is own/other, so one network plays either seat).
Its fitness is the sum of its points over those games from a configurable table
(Blondie24: win +1, draw 0, loss -2). The pairing is drawn on the driver, a pure
function of (seed, trial, generation); the games go through ``toolbox.map`` in chunks of
networks, every pairing's both seats in one batch of the engine (``netplay.play_pairs``).
Selection is Fogel's (a point per rival beaten on fitness), mutation self-adaptive by
default (``mutation.self_adaptive``).

Every generation also logs the yardstick (``evoplay.recipes.yardstick``) of the best
network by points: selection never sees it. A trial's champion is the final parent with
the most points in a round robin among the final parents (both seats, every pair).
"""

from __future__ import annotations

import numpy as np

from evoplay.errors import ConfigError
from evoplay.framework import config as C
from evoplay.framework.recipe import Context, Recipe
from evoplay.recipes import yardstick
from evoplay.recipes.fogel.nets import NetBatch, file_parts, stack
from evoplay.recipes.fogel.recipe import SCHEMA, make_toolbox
from evoplay.recipes.selfadaptive import MUTATION_SCHEMA, SelfAdaptiveRecipe
from evoplay.tictactoe import board as B
from evoplay.tictactoe.netplay import play_pairs
from evoplay.tictactoe.playerfile import player_document

#: Stream purpose of the pairing (after the framework's INIT..VARIATE).
PAIRING = 5

_POINTS = C._range(-1e6, 1e6)


def draw_opponents(n: int, k: int, rng: np.random.Generator) -> np.ndarray:
    """(n, k): for every member ``i`` of ``0..n-1``, ``k`` distinct others, in draw order.

    Floyd's sampling of ``k`` distinct numbers of ``0..n-2`` for all rows at once (column
    ``c`` draws from ``0..j``, ``j = n - 1 - k + c``, and takes ``j`` when the draw is
    taken already), then numbers at or above ``i`` shift up one to skip ``i``.
    """
    top = np.arange(n - 1 - k, n - 1)
    picks = rng.integers(0, top + 1, size=(n, k))
    for c in range(1, k):
        taken = (picks[:, :c] == picks[:, c, None]).any(1)
        picks[taken, c] = top[c]
    return picks + (picks >= np.arange(n)[:, None])


def points_of(as_x: np.ndarray, as_o: np.ndarray, points=(1.0, 0.0, -2.0)):
    """Points and (win, loss, draw) counts per row of outcome codes with the row's member as X and as O."""
    win = (as_x == B.X_WIN).sum(1) + (as_o == B.O_WIN).sum(1)
    loss = (as_x == B.O_WIN).sum(1) + (as_o == B.X_WIN).sum(1)
    draw = (as_x == B.DRAW).sum(1) + (as_o == B.DRAW).sum(1)
    p_win, p_draw, p_loss = points
    return p_win * win + p_draw * draw + p_loss * loss, np.stack([win, loss, draw], axis=1)


def coevolve_chunk(args):
    """``toolbox.map`` unit of work: (w1, w2, first, opponents of members first.., points) -> (points, wld).

    ``w1``, ``w2`` are the whole pool's stacked weights (any member may be an opponent).
    """
    w1, w2, first, opp, points = args
    n, k = opp.shape
    me = np.repeat(np.arange(first, first + n), k)
    as_x, as_o = play_pairs(NetBatch(w1, w2), me, opp.ravel())
    return points_of(as_x.reshape(n, k), as_o.reshape(n, k), points)


def round_robin(w1, w2, points=(1.0, 0.0, -2.0)) -> np.ndarray:
    """Points of every network in games against every other, both seats."""
    n = len(w1)
    opp = np.array([[j for j in range(n) if j != i] for i in range(n)], dtype=np.int64).reshape(n, n - 1)
    return coevolve_chunk((w1, w2, 0, opp, points))[0]


SCHEMA_COEVOLUTION = {
    "population": SCHEMA["population"],
    "mutation": MUTATION_SCHEMA,
    "coevolution": {
        "opponents": (int, 5, C._range(1, 10_000)),
        "points_win": (float, 1.0, _POINTS),
        "points_draw": (float, 0.0, _POINTS),
        "points_loss": (float, -2.0, _POINTS),
    },
    "selection": SCHEMA["selection"],
}


class CoevolutionRecipe(SelfAdaptiveRecipe):
    """Fogel's networks evolved by games against each other; no hand-made opponent selects."""

    name = "coevolution"
    default_name = "coevolution"
    schema = SCHEMA_COEVOLUTION

    def __init__(self, cfg: dict):
        Recipe.__init__(self, cfg)
        co = cfg["coevolution"]
        self.seed = cfg[""]["seed"]
        self.points = (co["points_win"], co["points_draw"], co["points_loss"])
        self.hmax = cfg["population"]["hidden_max"]
        self.toolbox = make_toolbox(cfg)
        self.toolbox.register("evaluate", coevolve_chunk)
        self.hooks = []
        self.register_mutation()

    @classmethod
    def check(cls, cfg: dict):
        pop = cfg["population"]
        if pop["hidden_min"] > pop["hidden_max"]:
            raise ConfigError("config key 'population.hidden_min' must not exceed 'population.hidden_max'")
        if cfg["selection"]["rivals"] >= 2 * pop["parents"]:
            raise ConfigError("config key 'selection.rivals' must be below the pool size (2 x population.parents)")
        if cfg["coevolution"]["opponents"] >= 2 * pop["parents"]:
            raise ConfigError("config key 'coevolution.opponents' must be below the pool size (2 x population.parents)")

    def ship(self) -> dict:
        return {}

    def games_per_generation(self) -> int:
        return 2 * self.cfg["population"]["parents"] * self.cfg["coevolution"]["opponents"] * 2

    def run_facts(self) -> dict:
        c = self.cfg
        return {"games_played": c[""]["trials"] * c[""]["generations"] * self.games_per_generation()}

    def generation_work(self) -> float:
        return float(self.games_per_generation())

    def pairing(self, n: int, ctx: Context) -> np.ndarray:
        """The generation's opponents of every pool member: a pure function of its PAIRING stream."""
        return draw_opponents(n, self.cfg["coevolution"]["opponents"], ctx.stream(PAIRING))

    def evaluate(self, pool, ctx: Context):
        _, w1, w2 = stack(pool)
        opp = self.pairing(len(pool), ctx)
        jobs = [(w1, w2, a, opp[a:b], self.points) for a, b in ctx.bounds(len(pool))]
        parts = list(self.toolbox.map(self.toolbox.evaluate, jobs))
        return np.concatenate([p for p, _ in parts]), np.concatenate([w for _, w in parts])

    def expected_payoff(self, player) -> float:
        raise NotImplementedError("co-evolution has no configured opponent; see the yardstick")

    def finish(self, st, trial: int, logbook: list[dict]):
        _, w1, w2 = stack(st.parents)
        rr = round_robin(w1, w2, self.points)
        best = int(np.argmax(rr))
        champ = st.parents[best]
        yard = yardstick.facts(champ)
        arch, weights = file_parts(champ)
        provenance = {
            "config": self.cfg[""]["name"],
            "seed": self.seed,
            "trial": trial,
            "generation": logbook[-1]["gen"],
            "network_id": champ.ident,
            "round_robin_points": float(rr[best]),
            "round_robin_opponents": len(st.parents) - 1,
            "expected_payoff_32_vs_logic": yard["champion_logic32"],
        }
        facts = {
            "champion_id": champ.ident,
            "champion_hidden": champ.h,
            "champion_round_robin_points": float(rr[best]),
            **yard,
            "final_max": logbook[-1]["max"],
            "final_mean": logbook[-1]["mean"],
            "final_mean_h": logbook[-1]["mean_h"],
        }
        return player_document("fogel-net", arch, weights, provenance), facts

    def score(self, facts: dict) -> float:
        """Champions ranked (for the run's best trial only) by their exact payoff per 32 games against ``logic``."""
        return facts["champion_logic32"]
