"""Fogel's (1993) evolutionary programming as a recipe: its state, one generation, a trial's end.

A generation mutates every parent into one child, evaluates the 2N networks and keeps
the N best by tournament score, through the DEAP toolbox's operators (``operators.py``;
the config's sections are in ``schema.py``). While the toolbox holds the recipe's own
operators, evaluation is one chunk and the opponent plays from tables, a generation is
one compiled call fed by the same draws (``compiled.py``): the same numbers, without a
Python object per network. A trial's state between generations is plain data
(``to_data``/``from_data``: every field checked when a checkpoint is read back), and its
end is the champion's player file with its exact expected payoff.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

import numpy as np
from deap import tools

from evoplay.errors import ConfigError, EvoplayError
from evoplay.files.playerfile import player_document
from evoplay.framework.recipe import Context, Recipe
from evoplay.framework.streams import INIT, MUTATE, SELECT
from evoplay.recipes.fogel import compiled, kernels
from evoplay.recipes.fogel.detail import Generation, format_generation
from evoplay.recipes.fogel.nets import FogelNet, Population, file_parts, net_player, stack
from evoplay.recipes.fogel.operators import MixedOpponent, make_toolbox, opponent_games, opponent_player
from evoplay.recipes.fogel.schema import SCHEMA, player_files
from evoplay.tictactoe import exact
from evoplay.tictactoe.players import TablePlayer, provide_files


# ---------------------------------------------------------------- state as data


def net_to_dict(net: FogelNet) -> dict:
    return {
        "h": net.h,
        "id": net.ident,
        "parent": net.parent,
        "fitness": list(net.fitness.values),
        "w1": net.w1.tolist(),
        "w2": net.w2.tolist(),
    }


def _whole(d: dict, key: str) -> int:
    v = d[key]
    if not isinstance(v, int) or isinstance(v, bool):
        raise ValueError(f"{key!r} is not an integer: {str(v)[:40]}")
    return v


def net_from_dict(d: dict, hmax: int) -> FogelNet:
    """A network from checkpoint data, every field, shape and value checked."""
    try:
        if not isinstance(d, dict):
            raise TypeError(f"a network is a table, not {type(d).__name__}")
        h = _whole(d, "h")
        w1 = np.array(d["w1"], dtype=np.float64)
        w2 = np.array(d["w2"], dtype=np.float64)
        net = FogelNet(h, w1, w2, _whole(d, "id"), _whole(d, "parent"))
        fitness = d["fitness"]
        if not isinstance(fitness, list) or len(fitness) != 1 or isinstance(fitness[0], bool):
            raise ValueError("'fitness' is not a list of one number")
        fitness = (float(fitness[0]),)
    except (KeyError, TypeError, ValueError) as e:
        raise EvoplayError(f"a network in the checkpoint is malformed ({type(e).__name__}: {str(e)[:120]})") from None
    if not 1 <= h <= hmax or w1.shape != (10, hmax) or w2.shape != (hmax + 1, 9):
        raise EvoplayError(f"a network in the checkpoint has the wrong shape (H={h}, w1 {w1.shape}, w2 {w2.shape})")
    if not (np.isfinite(w1).all() and np.isfinite(w2).all() and np.isfinite(fitness).all()):
        raise EvoplayError("a network in the checkpoint has a non-finite weight or fitness")
    net.fitness.values = fitness
    return net


def new_logbook() -> tools.Logbook:
    lb = tools.Logbook()
    lb.header = ["gen", "max", "mean", "min", "mean_h"]
    return lb


@dataclass
class FogelState:
    """A trial between generations: the parents, the next network id, the hall of fame, the last champion."""

    parents: list
    next_id: int
    hof: tools.HallOfFame = field(default_factory=lambda: tools.HallOfFame(1))
    champion: FogelNet | None = None


# ---------------------------------------------------------------- the recipe


class FogelRecipe(Recipe):
    """Fogel's evolutionary programming of tic-tac-toe networks (the reference recipe)."""

    name = "fogel"
    default_name = "fogel1993"
    fitness_name = "payoff"
    schema = SCHEMA
    _map = map  # the map registered in the toolbox (make_toolbox's default)
    _own = None  # the operators FogelRecipe.__init__ registered (a subclass that skips it runs the general path)

    def __init__(self, cfg: dict):
        super().__init__(cfg)
        ev = cfg["evaluation"]
        self.seed = cfg[""]["seed"]
        self.opponent = ev["opponent"]
        self._opponent_key = json.dumps(self.opponent)  # opponent_player's cache key
        self.payoff = (ev["payoff_win"], ev["payoff_draw"], ev["payoff_loss"])
        self.hmax = cfg["population"]["hidden_max"]
        self.toolbox = make_toolbox(cfg)
        #: The operators registered here: while they are the toolbox's, a generation may run compiled.
        self._own = {k: getattr(self.toolbox, k) for k in ("mutate", "evaluate", "select", "map")}
        #: Callables given each Generation event (benchmarks, tests).
        self.hooks = []
        #: The last generation's seconds by part (``compiled.Outcome.seconds``), for benchmarks.
        self.seconds = {}

    @classmethod
    def check(cls, cfg: dict):
        pop = cfg["population"]
        if pop["hidden_min"] > pop["hidden_max"]:
            raise ConfigError("config key 'population.hidden_min' must not exceed 'population.hidden_max'")
        if cfg["selection"]["rivals"] >= 2 * pop["parents"]:
            raise ConfigError("config key 'selection.rivals' must be below the pool size (2 x population.parents)")

    def ship(self) -> dict:
        return {"player_files": player_files(self.cfg)}

    @classmethod
    def receive(cls, data: dict):
        provide_files(data.get("player_files", {}))

    def run_facts(self) -> dict:
        c = self.cfg
        return {"games_played": c[""]["trials"] * c[""]["generations"] * 2 * c["population"]["parents"] * c["evaluation"]["games"]}

    def generation_work(self) -> float:
        return 2 * self.cfg["population"]["parents"] * self.cfg["evaluation"]["games"]

    # -- a trial
    def start(self, ctx: Context) -> FogelState:
        return FogelState(self.toolbox.population(ctx.stream(INIT)), self.cfg["population"]["parents"])

    def evaluate(self, pool, ctx: Context):
        """Payoffs and (win, loss, draw) of every network, through ``toolbox.map`` in chunks."""
        games = self.cfg["evaluation"]["games"]
        _, w1, w2 = stack(pool)
        memo = None
        if isinstance(pool, Population):  # memos travel with the population; a plain list plays without
            if pool.memo is None:
                pool.memo = kernels.new_memo(len(pool))
            memo = pool.memo
        bounds = ctx.bounds(len(pool))
        jobs = [(w1[a:b], w2[a:b], (ctx.streams.key, a, b, games), self.opponent, self.payoff) for a, b in bounds]
        if memo is not None:
            jobs = [job + (tuple(m[a:b] for m in memo),) for job, (a, b) in zip(jobs, bounds)]
        parts = list(self.toolbox.map(self.toolbox.evaluate, jobs))
        return np.concatenate([p for p, _ in parts]), np.concatenate([w for _, w in parts])

    def step(self, st: FogelState, ctx: Context) -> dict:
        if ctx.map is not self._map:  # toolbox.map is the seam; the runner's map rarely changes
            self.toolbox.register("map", ctx.map)
            self._map = ctx.map
            if self._own is not None:
                self._own["map"] = self.toolbox.map
        whole_pool = bool(self.hooks) or ctx.detail is not None
        table = self._compiled_opponent(st, ctx)
        if table is not None:
            out = compiled.generation(st.parents, ctx, self.toolbox, self.cfg["evaluation"]["games"], *table,
                                      self.payoff, st.next_id, whole_pool)
        else:
            out = self._general_generation(st, ctx)
        record = {"gen": ctx.generation, **(out.summary or {
            "max": float(out.payoffs.max()),
            "mean": float(out.payoffs.mean()),
            "min": float(out.payoffs.min()),
            "mean_h": float(out.hs.mean()),
            "h_hist": np.bincount(out.hs, minlength=self.hmax + 1)[1:].tolist(),
        })}
        self.seconds = out.seconds
        st.hof.update([out.best])
        st.champion = out.best
        st.next_id += len(out.payoffs) - len(st.parents)  # one child per parent
        st.parents = out.survivors
        if whole_pool:
            event = Generation(ctx.generation, out.pool, out.payoffs, out.wld, out.scores, out.rivals, out.selected, record, out.seconds)
            if ctx.detail is not None:
                ctx.detail.append(format_generation(event))
            for hook in self.hooks:
                hook(event)
        return record

    def _compiled_opponent(self, st: FogelState, ctx: Context):
        """(table player, per-game rows) when this generation may run compiled (``compiled.generation``), else None.

        It may when the recipe's own operators are in the toolbox and its own evaluation in
        the class (a user who swaps one gets the general path, which calls it), the
        parents are a stacked Population with memos, evaluation is one chunk and the
        opponent plays from tables.
        """
        if self._own is None or type(self).evaluate is not FogelRecipe.evaluate:
            return None
        if any(getattr(self.toolbox, k) is not v for k, v in self._own.items()):
            return None
        parents = st.parents
        if not isinstance(parents, Population) or parents.arrays is None or parents.memo is None:
            return None
        if ctx.chunks > 1 and len(ctx.bounds(2 * len(parents))) > 1:
            return None
        o_player, per_game = opponent_player(self._opponent_key, self.cfg["evaluation"]["games"])
        return (o_player, per_game) if isinstance(o_player, (TablePlayer, MixedOpponent)) else None

    def _general_generation(self, st: FogelState, ctx: Context) -> compiled.Outcome:
        """A generation through the toolbox's operators, whatever they are (``toolbox.map`` evaluates in chunks)."""
        parents = st.parents
        t0 = time.perf_counter()
        children = self.toolbox.mutate(parents, ctx.stream(MUTATE), ident0=st.next_id)
        pool = parents + children
        t1 = time.perf_counter()
        payoffs, wld = self.evaluate(pool, ctx)
        t2 = time.perf_counter()
        selected, scores, rivals = self.toolbox.select(payoffs, len(parents), ctx.stream(SELECT))
        best = int(np.argmax(payoffs))
        for i in (*selected.tolist(), best):  # the networks that live on carry their fitness (the event has all payoffs)
            pool[i].fitness.values = (float(payoffs[i]),)
        t3 = time.perf_counter()
        seconds = {"mutation": t1 - t0, "evaluation": t2 - t1, "selection": t3 - t2, "total": time.perf_counter() - t0}
        return compiled.Outcome(pool, payoffs, wld, scores, rivals, selected, pool[best], np.array([n.h for n in pool]),
                                pool.pick(selected), seconds)

    # -- plain data
    def to_data(self, st: FogelState) -> dict:
        return {
            "next_id": st.next_id,
            "parents": [net_to_dict(n) for n in st.parents],
            "hof": [net_to_dict(n) for n in st.hof],
            "champion": net_to_dict(st.champion) if st.champion is not None else None,
        }

    def from_data(self, d: dict) -> FogelState:
        """The state of a checkpoint (generation 1 or later), every part checked."""
        if not isinstance(d, dict) or set(d) != {"next_id", "parents", "hof", "champion"}:
            raise EvoplayError("the checkpoint's state does not hold exactly next_id, parents, hof and champion")
        n = self.cfg["population"]["parents"]
        if not isinstance(d["parents"], list) or len(d["parents"]) != n:
            raise EvoplayError(f"the checkpoint's parents are not a list of {n} networks (the config's population)")
        if not isinstance(d["hof"], list) or len(d["hof"]) != 1 or not isinstance(d["champion"], dict):
            raise EvoplayError("the checkpoint's hall of fame and champion are not one network each")
        try:
            next_id = _whole(d, "next_id")
        except ValueError as e:
            raise EvoplayError(f"the checkpoint's state: {e}") from None
        if not n <= next_id <= n * (self.cfg[""]["generations"] + 1):
            raise EvoplayError(f"the checkpoint's next_id {str(next_id)[:30]} is not what {n} parents make in the run's generations")
        hof = tools.HallOfFame(1)
        hof.insert(net_from_dict(d["hof"][0], self.hmax))
        parents = Population.of([net_from_dict(x, self.hmax) for x in d["parents"]])  # stacked once, not in every generation
        champion = net_from_dict(d["champion"], self.hmax)
        ids = [p.ident for p in parents]
        for net in (*parents, hof[0], champion):
            if not (0 <= net.ident < next_id and -1 <= net.parent < next_id):
                raise EvoplayError(f"the checkpoint holds a network id ({net.ident}, parent {net.parent}) outside 0..{next_id - 1}")
        if len(set(ids)) != len(ids):
            raise EvoplayError("the checkpoint's parents do not have distinct ids")
        return FogelState(parents, next_id, hof, champion)

    # -- the end of a trial
    def expected_payoff(self, player) -> float:
        """Exact expected payoff per game against the configured (mix of) opponent(s)."""
        players, per_game = opponent_games(self.opponent, self.cfg["evaluation"]["games"])
        weights = np.ones(1) if per_game is None else np.bincount(per_game) / len(per_game)
        return float(sum(w * exact.expected_payoff(player, p, self.payoff) for w, p in zip(weights, players)))

    def provenance(self, champ: FogelNet, trial: int, logbook: list[dict]) -> dict:
        """Where a champion comes from: the head of its player file's provenance."""
        return {"config": self.cfg[""]["name"], "seed": self.seed, "trial": trial,
                "generation": logbook[-1]["gen"], "network_id": champ.ident}

    def finish(self, st: FogelState, trial: int, logbook: list[dict]) -> tuple[dict, dict]:
        champ = st.champion
        expected = self.expected_payoff(net_player(champ))
        arch, weights = file_parts(champ)
        provenance = {
            **self.provenance(champ, trial, logbook),
            "payoff": champ.fitness.values[0],
            "games": self.cfg["evaluation"]["games"],
            "expected_payoff_per_game": expected,
        }
        facts = {
            "champion_id": champ.ident,
            "champion_hidden": champ.h,
            "champion_payoff": champ.fitness.values[0],
            "champion_expected_payoff_per_game": expected,
            "hall_of_fame_payoff": st.hof[0].fitness.values[0],
            "final_max": logbook[-1]["max"],
            "final_mean": logbook[-1]["mean"],
            "final_mean_h": logbook[-1]["mean_h"],
        }
        return player_document("fogel-net", arch, weights, provenance), facts

    def payoff_scale(self) -> float:
        """Payoffs per 32 games (Fogel's evaluation), whatever the number of games played."""
        return 32 / self.cfg["evaluation"]["games"]

    def champion_analysis(self, champion: dict) -> dict:
        """Exact facts about a champion: expected payoff per 32 games against the evaluation
        opponent, whether any line of play beats it as X, its hidden units."""
        from evoplay.files.playerfile import build_player

        player = build_player(champion, "champion")
        return {
            "expected_payoff": 32 * self.expected_payoff(player),
            "unbeatable_as_x": bool(exact.unbeatable(player, as_x=True)),
            "hidden": int(champion["architecture"]["hidden"]),
        }

    def score(self, facts: dict) -> float:
        """What ranks the trials' champions: the exact expected payoff per game."""
        return facts["champion_expected_payoff_per_game"]

    def duel(self, first: dict, second: dict, openings: int, seed: int) -> dict:
        """Two champions of this run against each other, for a league (``evoplay.recipes.duel``)."""
        from evoplay.recipes.duel import duel

        return duel(self.game, first, second, openings, seed)
