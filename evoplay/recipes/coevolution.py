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

With ``coevolution.hall_of_fame = m`` (after Rosin and Belew), the best network by points
of every generation enters an archive, and each generation every network also plays
``m`` archive members drawn from the PAIRING stream (both seats): the population keeps
meeting the lines that beat it before. The archive holds only networks the population
made; still no hand-made opponent.

Every generation also logs the yardstick (``evoplay.recipes.fogel.exact_yardstick``) of the best
network by points: selection never sees it. A trial's champion is the final parent with
the most points in a round robin among the final parents (both seats, every pair).

With ``coevolution.explore = eps``, in the games that score a network its opponent
(another member) explores: each of its moves is a uniformly random legal move with
probability ``eps``, so the network meets lines its peers would not play; the network
itself plays as it is. Each pairing is then played ``coevolution.games`` times from each
seat with the generation's EVALUATE stream; ``eps = 0`` (the default) is Blondie24's
deterministic play. ``coevolution.exact = true`` replaces the sampled games by the exact
expected points against each exploring opponent (``exact_outcomes.population_outcomes``
with the opponent's move distribution computed on the boards reached).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from evoplay.errors import ConfigError
from evoplay.framework import config
from evoplay.framework.recipe import Context, Recipe
from evoplay.networks.arithmetic import weighted_rows
from evoplay.recipes.fogel import exact_yardstick
from evoplay.recipes.exact_fitness import exploring_network
from evoplay.recipes.exact_outcomes import population_outcomes
from evoplay.recipes.fogel.nets import NetBatch, file_parts, stack
from evoplay.recipes.fogel.operators import game_uniforms, make_toolbox
from evoplay.recipes.fogel.recipe import FogelState, net_from_dict, net_to_dict
from evoplay.recipes.fogel.schema import SCHEMA
from evoplay.recipes.selfadaptive import MUTATION_SCHEMA, SelfAdaptiveRecipe
from evoplay.tictactoe import board
from evoplay.tictactoe.netplay import Exploring, play_pairs
from evoplay.files.playerfile import player_document

#: Stream purpose of the pairing (after the framework's INIT..VARIATE).
PAIRING = 5

_POINTS = config.in_range(-1e6, 1e6)


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
    win = (as_x == board.X_WIN).sum(1) + (as_o == board.O_WIN).sum(1)
    loss = (as_x == board.O_WIN).sum(1) + (as_o == board.X_WIN).sum(1)
    draw = (as_x == board.DRAW).sum(1) + (as_o == board.DRAW).sum(1)
    p_win, p_draw, p_loss = points
    return p_win * win + p_draw * draw + p_loss * loss, np.stack([win, loss, draw], axis=1)


def coevolve_chunk(args):
    """``toolbox.map`` unit of work: (w1, w2, first, opponents, points, explore, games, key[, exact]) -> (points, wld).

    ``w1``, ``w2`` are the whole pool's stacked weights (any member may be an opponent);
    ``opponents`` (n, k) those of members ``first..first+n-1``. Each pairing is played
    ``games`` times from each seat. With ``explore > 0`` every move of the opponent is
    random with that probability (the member under evaluation plays as it is), and
    member ``i`` owns draws ``i * k * games * 2 * 9`` onwards of the generation's
    EVALUATE stream (``key`` = (seed, trial, generation)): its games as X first, then as
    O; the result does not depend on how the pool is cut into chunks. With ``exact`` the
    points are the exact expected points against each exploring opponent (no games).
    """
    with np.errstate(over="ignore"):  # a logistic unit of a huge sum saturates to 0 or 1, as it should
        return _coevolve(*args)


def _coevolve(w1, w2, first, opp, points, explore, games, key, exact=False):
    n, k = opp.shape
    player = NetBatch(w1, w2)
    if exact:  # expected points against each opponent exploring
        me, them = np.repeat(np.arange(first, first + n), k), opp.ravel()
        probs = exploring_network(player, them, explore)
        as_x = population_outcomes(player, len(me), probs, board.X, rows=me).reshape(n, k, 3)
        as_o = population_outcomes(player, len(me), probs, board.O, rows=me).reshape(n, k, 3)
        win = as_x[..., 0].sum(1) + as_o[..., 2].sum(1)
        draw = as_x[..., 1].sum(1) + as_o[..., 1].sum(1)
        loss = as_x[..., 2].sum(1) + as_o[..., 0].sum(1)
        return weighted_rows(np.stack([win, draw, loss], axis=1), points), np.stack([win, loss, draw], axis=1)
    me = np.repeat(np.arange(first, first + n), k * games)
    them = np.repeat(opp.ravel(), games)
    if explore > 0:
        u = game_uniforms(key, first, first + n, 2 * k * games).reshape(n, 2, k * games, 9)
        u = np.concatenate([u[:, 0].reshape(-1, 9), u[:, 1].reshape(-1, 9)])
        # the opponent explores (rows n_pool + j); the network under evaluation plays as it is
        as_x, as_o = play_pairs(Exploring(player, explore, members=len(w1)), me, them + len(w1), u)
    else:
        as_x, as_o = play_pairs(player, me, them)
    return points_of(as_x.reshape(n, k * games), as_o.reshape(n, k * games), points)


def round_robin(w1, w2, points=(1.0, 0.0, -2.0)) -> np.ndarray:
    """Points of every network in games against every other, both seats, no exploration."""
    n = len(w1)
    opp = np.array([[j for j in range(n) if j != i] for i in range(n)], dtype=np.int64).reshape(n, n - 1)
    return coevolve_chunk((w1, w2, 0, opp, points, 0.0, 1, None))[0]


SCHEMA_COEVOLUTION = {
    "population": SCHEMA["population"],
    "mutation": MUTATION_SCHEMA,
    "coevolution": {
        "opponents": (int, 5, config.in_range(1, 10_000)),
        "games": (int, 1, config.in_range(1, 10_000)),
        "explore": (float, 0.0, (lambda v: 0.0 <= v < 1.0, "in [0, 1)")),
        "hall_of_fame": (int, 0, config.in_range(0, 10_000)),
        "exact": (object, False, config.BOOLEAN),
        "points_win": (float, 1.0, _POINTS),
        "points_draw": (float, 0.0, _POINTS),
        "points_loss": (float, -2.0, _POINTS),
    },
    "selection": SCHEMA["selection"],
}


@dataclass
class CoState(FogelState):
    """A co-evolution trial between generations: Fogel's state and the hall-of-fame archive."""

    archive: list = field(default_factory=list)


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
        self.archive = []  # the archive of the trial being stepped
        self.register_mutation()

    @classmethod
    def check(cls, cfg: dict):
        super().check(cfg)
        pop = cfg["population"]
        if cfg["coevolution"]["opponents"] >= 2 * pop["parents"]:
            raise ConfigError("config key 'coevolution.opponents' must be below the pool size (2 x population.parents)")
        if cfg["coevolution"]["games"] > 1 and (cfg["coevolution"]["explore"] == 0 or cfg["coevolution"]["exact"]):
            raise ConfigError("config key 'coevolution.games' above 1 needs 'coevolution.explore' > 0 and sampled games (games without exploration repeat exactly; exact points need no games)")

    def ship(self) -> dict:
        return {}

    def games_per_generation(self) -> int:
        co = self.cfg["coevolution"]
        return 2 * self.cfg["population"]["parents"] * co["opponents"] * 2 * co["games"]

    def run_facts(self) -> dict:
        c = self.cfg
        return {"games_played": c[""]["trials"] * c[""]["generations"] * self.games_per_generation()}

    def generation_work(self) -> float:
        return float(self.games_per_generation())

    def pairing(self, n: int, archive: int, ctx: Context) -> tuple[np.ndarray, np.ndarray]:
        """The generation's opponents of every pool member and the hall-of-fame members drawn.

        A pure function of the generation's PAIRING stream and the archive's size: first
        ``opponents`` distinct others per member, then ``hall_of_fame`` distinct archive
        entries (all of them while the archive is smaller) that every member plays.
        """
        rng = ctx.stream(PAIRING)
        opp = draw_opponents(n, self.cfg["coevolution"]["opponents"], rng)
        m = min(self.cfg["coevolution"]["hall_of_fame"], archive)
        return opp, np.sort(rng.choice(archive, size=m, replace=False)) if m else np.zeros(0, dtype=np.int64)

    def evaluate(self, pool, ctx: Context):
        """Points and (win, loss, draw) of every pool member; the hall of fame is the trial's archive (``step`` sets it)."""
        archive = self.archive
        _, w1, w2 = stack(pool)
        opp, fame = self.pairing(len(pool), len(archive), ctx)
        if fame.size:  # hall-of-fame members join the batch after the pool; everyone plays them all
            _, a1, a2 = stack([archive[i] for i in fame])
            w1, w2 = np.concatenate([w1, a1]), np.concatenate([w2, a2])
            opp = np.concatenate([opp, np.broadcast_to(len(pool) + np.arange(fame.size), (len(pool), fame.size))], axis=1)
        co = self.cfg["coevolution"]
        jobs = [(w1, w2, a, opp[a:b], self.points, co["explore"], co["games"], ctx.streams.key, co["exact"]) for a, b in ctx.bounds(len(pool))]
        parts = list(self.toolbox.map(self.toolbox.evaluate, jobs))
        return np.concatenate([p for p, _ in parts]), np.concatenate([w for _, w in parts])

    def step(self, st, ctx: Context) -> dict:
        self.archive = st.archive
        record = super().step(st, ctx)
        if self.cfg["coevolution"]["hall_of_fame"]:
            st.archive.append(st.champion)
        return record

    def start(self, ctx: Context):
        st = super().start(ctx)
        return CoState(st.parents, st.next_id, st.hof, st.champion, [])

    def to_data(self, st) -> dict:
        return {**super().to_data(st), "archive": [net_to_dict(n) for n in st.archive]}

    def from_data(self, d: dict):
        st = super().from_data(d)
        return CoState(st.parents, st.next_id, st.hof, st.champion, [net_from_dict(n, self.hmax) for n in d["archive"]])

    def expected_payoff(self, player) -> float:
        raise NotImplementedError("co-evolution has no configured opponent; see the yardstick")

    def payoff_scale(self) -> float:
        """Points stay points: there is no games-per-evaluation to rescale by."""
        return 1.0

    def champion_analysis(self, champion: dict) -> dict:
        """A champion's yardstick for study tables: ``expected_payoff`` is per 32 games against ``logic`` as X."""
        from evoplay.recipes.fogel.nets import net_from_file

        y = exact_yardstick.facts(net_from_file(champion["architecture"], champion["weights"], self.hmax))
        return {
            "expected_payoff": y["champion_logic32"],
            "unbeatable_as_x": y["champion_unbeatable_as_x"],
            "unbeatable_as_o": y["champion_unbeatable_as_o"],
            "hidden": int(champion["architecture"]["hidden"]),
        }

    def finish(self, st, trial: int, logbook: list[dict]):
        _, w1, w2 = stack(st.parents)
        rr = round_robin(w1, w2, self.points)
        best = int(np.argmax(rr))
        champ = st.parents[best]
        yard = exact_yardstick.facts(champ)
        arch, weights = file_parts(champ)
        provenance = {
            **self.provenance(champ, trial, logbook),
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
