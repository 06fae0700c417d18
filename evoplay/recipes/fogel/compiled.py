"""One Fogel generation in one compiled call, fed by the general path's very draws.

When a trial runs the recipe's own operators (nobody replaced ``mutate``, ``evaluate``,
``select`` or ``map`` in its toolbox), evaluates in one chunk and plays a table opponent,
the recipe's ``step`` comes here: the draws of ``mut_population``, of the games and of
``sel_tournament_score`` are made exactly as there: the same streams and numbers in the
same order, made by the kernel itself on the streams' compiled PCG64 (``compiled_streams.pcg64``:
numpy's normals, uniforms and bounded integers), with only the uniforms a game uses.
``kernels.generation`` turns them into children, games, payoffs and tournament scores
with the same operations. Python objects (``FogelNet``, DEAP fitness) are made only for
the networks that live on (the survivors and the best) and, when a hook or the detail
log asks for the whole pool, for every child. Every number is the general path's; tests
compare their logbooks, states and detail logs.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from evoplay.framework.recipe import Context
from evoplay.recipes.fogel import kernels
from evoplay.recipes.fogel.nets import GAME_TABLES, FogelNet, Population
from evoplay.tictactoe import board


@dataclass
class Outcome:
    """What a generation produced, as the recipe's ``step`` concludes it (either path)."""

    pool: list | None  # every network as an object, when asked for (hooks, detail log)
    payoffs: np.ndarray
    wld: np.ndarray
    scores: np.ndarray
    rivals: np.ndarray
    selected: np.ndarray
    best: FogelNet
    hs: np.ndarray
    survivors: Population
    seconds: dict
    summary: dict | None = None  # the logbook's figures of the pool, when the path made them on the way


def generation(parents: Population, ctx: Context, toolbox, games: int, opponent, per_game, payoff, ident0: int,
               whole_pool: bool) -> Outcome:
    """One generation of ``parents`` (a stacked Population with memos): ``games`` games each against table player ``opponent``.

    ``per_game``: each game's opponent row in a mix (None: one player); ``payoff`` (win,
    draw, loss); children get ids from ``ident0``. Operator parameters are read from the
    toolbox's own registrations, so they are the ones the general path would use.
    """
    mut, sel = toolbox.mutate.keywords, toolbox.select.keywords
    lo, hi = mut["h_range"]
    h, w1, w2 = parents.arrays
    n = len(parents)
    t0 = time.perf_counter()
    key = ctx.streams.key
    top = np.arange(2 * n - 1 - sel["rivals"], 2 * n - 1)  # sel_tournament_score's ranges of Floyd's draws
    o_base = np.zeros(games, dtype=np.int64) if per_game is None else np.asarray(per_game, dtype=np.int64) * board.N_CODES
    win, draw, loss = payoff
    t1 = time.perf_counter()
    hp, w1p, w2p, wld, payoffs, opp, scores, selected, kept, kept_memo, (best, worst, hist) = kernels.generation(
        h, w1, w2, parents.memo[0], parents.memo[1], float(mut["sigma"]), float(mut["p_arch"]), int(lo), int(hi),
        key, games, o_base, opponent.keep, opponent.alias, np.array([win, loss, draw], dtype=np.float64), top, *GAME_TABLES,
    )
    t2 = time.perf_counter()
    chosen, pay, units = selected.tolist(), payoffs.tolist(), hp.tolist()
    m = 2 * n
    summary = {"max": pay[best], "mean": float(np.add.reduce(payoffs) / m), "min": pay[worst],  # payoffs.mean()'s very sum
               "mean_h": sum(units) / m, "h_hist": hist.tolist()[1:]}  # an integer sum, exact: hs.mean()
    wanted = range(n, 2 * n) if whole_pool else [i for i in (*chosen, best) if i >= n]
    children = {i: FogelNet(units[i], w1p[i], w2p[i], ident0 + i - n, parents[i - n].ident) for i in wanted}

    living = [parents[i] if i < n else children[i] for i in (*chosen, best)]
    for net, i in zip(living, (*chosen, best)):  # the networks that live on carry their fitness
        # ``fitness.values = (payoff,)`` as DEAP's setter makes it: FitnessMax's one weight
        # is 1.0, so the weighted values DEAP keeps are the values themselves.
        net.fitness.wvalues = (pay[i],)
    survivors = Population(living[:-1], kept, kept_memo)
    pool = [*parents, *(children[i] for i in range(n, 2 * n))] if whole_pool else None
    t3 = time.perf_counter()
    seconds = {"setup": t1 - t0, "compiled": t2 - t1, "survivors": t3 - t2, "total": t3 - t0}
    return Outcome(pool, payoffs, wld, scores, opp, selected, living[-1], hp, survivors, seconds, summary)
