"""Exact fitness: a network's fitness is its exact expected payoff, not a sample of games.

Fogel's networks are deterministic, so a game against a player with a known move
distribution is a tree whose branches are only the opponent's choices. ``population_outcomes``
walks that tree for a whole population at once: the frontier is a set of (network,
board, probability) triples, one ply per step; on a network's turn NetBatch computes the
moves of all (network, board) pairs of the frontier in one call, on the opponent's turn
every pair fans out over the opponent's distribution; equal (network, board) pairs are
merged. The probability that reaches each finished board is the exact win/draw/loss of
each network; its payoff is what ``games`` sampled games would score on average.

``ExactFogelRecipe`` (recipe ``fogel-exact``) is Fogel's recipe with this evaluation,
through ``toolbox.map`` in chunks like the sampled one (``evaluation.mode = "sampled"``
gives Fogel's sampled games back, for comparisons), and the per-generation yardstick of
``evoplay.recipes.yardstick``.
"""

from __future__ import annotations

import functools
import json

import numpy as np

from evoplay.framework.recipe import Context
from evoplay.numerics import weighted_rows
from evoplay.recipes import yardstick
from evoplay.recipes.fogel.nets import NetBatch, stack
from evoplay.recipes.fogel.recipe import SCHEMA, FogelRecipe, opponent_games
from evoplay.tictactoe import board as B


def _merge(r: np.ndarray, c: np.ndarray, m: np.ndarray):
    """Equal (network, board) pairs added up: (networks, boards, probabilities), sorted by pair."""
    key = r * B.N_CODES + c
    uniq, inverse = np.unique(key, return_inverse=True)
    return uniq // B.N_CODES, uniq % B.N_CODES, np.bincount(inverse, weights=m, minlength=len(uniq))


def population_outcomes(batch: NetBatch, n: int, table, net_mark: int = B.X, rows=None) -> np.ndarray:
    """Exact (X win, draw, O win) probabilities of ``n`` games of networks of ``batch`` against an opponent.

    Game ``g`` is played by network ``rows[g]`` (``g`` itself by default) as ``net_mark``
    (X moves first). ``table`` is the opponent's move distribution on every board,
    (N_CODES, 9), or a function ``(games, boards) -> (len(boards), 9)`` distributions of
    the opponent of those games on those boards (say, another network). Returns (n, 3).
    """
    with np.errstate(over="ignore"):  # a logistic unit of a huge sum saturates to 0 or 1, as it should
        return _outcomes(batch, n, table, net_mark, rows)


def _outcomes(batch, n, table, net_mark, rows):
    rows = np.arange(n) if rows is None else np.asarray(rows, dtype=np.int64)
    probs = table if callable(table) else (lambda g, c: table[c])
    out = np.zeros((n, 3))
    g, c, m = np.arange(n), np.zeros(n, dtype=np.int64), np.ones(n)
    for _ in range(9):
        if g.size == 0:
            break
        if B.TO_MOVE[c[0]] == net_mark:  # all frontier boards have the same number of marks
            c = B.CHILD[c, batch.moves(rows[g], c)]
        else:
            p = probs(g, c)
            at, sq = np.nonzero(p)
            g, c, m = g[at], B.CHILD[c[at], sq], m[at] * p[at, sq]
        g, c, m = _merge(g, c, m)  # equal (game, board) pairs: two boards can lead to one
        result = B.OUTCOME[c]
        for col, code in enumerate((B.X_WIN, B.DRAW, B.O_WIN)):
            done = result == code
            if done.any():
                out[:, col] += np.bincount(g[done], weights=m[done], minlength=n)
        on = result == B.ONGOING
        g, c, m = g[on], c[on], m[on]
    return out


def exploring_network(batch: NetBatch, rows: np.ndarray, eps: float):
    """The move distributions of networks ``rows[g]`` of ``batch`` that play a random legal move with probability ``eps``."""
    rows = np.asarray(rows, dtype=np.int64)

    def probs(g, c):
        p = eps * B.LEGAL[c] / B.N_LEGAL[c][:, None]
        p[np.arange(len(c)), batch.moves(rows[g], c)] += 1.0 - eps
        return p

    return probs


@functools.lru_cache(maxsize=16)
def _opponents(key: str, games: int):
    """(tables, weights) of a JSON-encoded opponent config: a mix weighs its players as the games split."""
    players, per_game = opponent_games(json.loads(key), games)
    weights = np.ones(1) if per_game is None else np.bincount(per_game, minlength=len(players)) / len(per_game)
    return [p.probs(np.arange(B.N_CODES)) for p in players], weights


def exact_weights(w1, w2, opponent, payoff=(1.0, 0.0, -10.0), games: int = 32):
    """Exact expected payoffs over ``games`` games (as X) of stacked networks, and expected (win, loss, draw) counts.

    Against a mix, each player counts with the share of the games it would play.
    """
    n = len(w1)
    tables, weights = _opponents(json.dumps(opponent), games)
    batch = NetBatch(w1, w2)
    probs = sum(w * population_outcomes(batch, n, t, B.X) for w, t in zip(weights, tables))
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
        record.update(yardstick.record(st.champion))
        return record

    def finish(self, st, trial: int, logbook: list[dict]):
        doc, facts = super().finish(st, trial, logbook)
        facts.update(yardstick.facts(st.champion))
        return doc, facts
