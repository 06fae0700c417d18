"""Exact fitness: a network's fitness is its exact expected payoff, not a sample of games.

Fogel's networks are deterministic, so a game against a player with a known move
distribution is a tree whose branches are only the opponent's choices;
``evoplay.recipes.exact_outcomes`` walks it for a whole population at once. The
probability that reaches each finished board is the exact win/draw/loss of each network;
its payoff is what ``games`` sampled games would score on average.

``ExactFogelRecipe`` (recipe ``fogel-exact``) is Fogel's recipe with this evaluation,
through ``toolbox.map`` in chunks like the sampled one (``evaluation.mode = "sampled"``
gives Fogel's sampled games back, for comparisons), and the per-generation yardstick of
``evoplay.recipes.fogel.exact_yardstick``.
"""

from __future__ import annotations

import json

import numpy as np

from evoplay import context
from evoplay.framework.recipe import Context
from evoplay.networks.arithmetic import weighted_rows
from evoplay.recipes.fogel import exact_yardstick
from evoplay.recipes.exact_outcomes import population_outcomes
from evoplay.recipes.fogel.nets import NetBatch, stack
from evoplay.recipes.fogel.operators import opponent_games
from evoplay.recipes.fogel.recipe import FogelRecipe
from evoplay.recipes.fogel.schema import SCHEMA
from evoplay.tictactoe import board


def exploring_network(batch: NetBatch, rows: np.ndarray, eps: float):
    """The move distributions of networks ``rows[g]`` of ``batch`` that play a random legal move with probability ``eps``."""
    rows = np.asarray(rows, dtype=np.int64)

    def probs(g, c):
        p = eps * board.LEGAL[c] / board.N_LEGAL[c][:, None]
        p[np.arange(len(c)), batch.moves(rows[g], c)] += 1.0 - eps
        return p

    return probs


def _opponents(key: str, games: int):
    """(tables, weights) of a JSON-encoded opponent config: a mix weighs its players as the games
    split; made once a context (``evoplay.context``)."""
    return context.current().cached(("exact-opponents", key, games), lambda: _opponent_tables(key, games))


def _opponent_tables(key: str, games: int):
    players, per_game = opponent_games(json.loads(key), games)
    weights = np.ones(1) if per_game is None else np.bincount(per_game, minlength=len(players)) / len(per_game)
    return [p.probs(np.arange(board.N_CODES)) for p in players], weights


def exact_weights(w1, w2, opponent, payoff=(1.0, 0.0, -10.0), games: int = 32):
    """Exact expected payoffs over ``games`` games (as X) of stacked networks, and expected (win, loss, draw) counts.

    Against a mix, each player counts with the share of the games it would play.
    """
    n = len(w1)
    tables, weights = _opponents(json.dumps(opponent), games)
    batch = NetBatch(w1, w2)
    probs = sum(w * population_outcomes(batch, n, t, board.X) for w, t in zip(weights, tables))
    win, draw, loss = payoff
    payoffs = games * weighted_rows(probs, (win, draw, loss))
    return payoffs, games * probs[:, [0, 2, 1]]


def exact_chunk(args):
    """``toolbox.map`` unit of work: (w1, w2, opponent, payoff, games) -> (payoffs, expected wld)."""
    return exact_weights(*args)


def _mode(v):
    return v in ("exact", "sampled")


EXACT_SCHEMA = {
    **SCHEMA,
    "evaluation": {**SCHEMA["evaluation"], "mode": (str, "exact", (_mode, "'exact' or 'sampled'"))},
}


class ExactFogelRecipe(FogelRecipe):
    """Fogel's recipe whose fitness is each network's exact expected payoff over ``games`` games."""

    name = "fogel-exact"
    default_name = "fogel-exact"
    schema = EXACT_SCHEMA

    def generation_work(self) -> float:
        if self.cfg["evaluation"]["mode"] == "sampled":
            return super().generation_work()
        # an exact evaluation costs about what twice the sampled games do (benchmarks/bench_beyond.py)
        return 2 * super().generation_work()

    def evaluate(self, pool, ctx: Context):
        if self.cfg["evaluation"]["mode"] == "sampled":
            return super().evaluate(pool, ctx)
        games = self.cfg["evaluation"]["games"]
        _, w1, w2 = stack(pool)
        jobs = [(w1[a:b], w2[a:b], self.opponent, self.payoff, games) for a, b in ctx.bounds(len(pool))]
        parts = list(self.toolbox.map(exact_chunk, jobs))
        return np.concatenate([p for p, _ in parts]), np.concatenate([w for _, w in parts])

    def step(self, st, ctx: Context) -> dict:
        record = super().step(st, ctx)
        record.update(exact_yardstick.record(st.champion))
        return record

    def finish(self, st, trial: int, logbook: list[dict]):
        doc, facts = super().finish(st, trial, logbook)
        facts.update(exact_yardstick.facts(st.champion))
        return doc, facts
