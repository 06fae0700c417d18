"""A user recipe in its own file: Fogel's networks with a fitness of the user's choosing.

Fogel's networks, mutation and selection, but each network is scored on two fronts: half
its games against ``minimax`` (which cannot be beaten: a draw is the best there is) and
half against ``random`` (which a good player should beat)::

    fitness = draws against minimax + wins against random - 10 x losses (either opponent)

Run it like any recipe (the config names this file; paths are read from the config's
folder, and the file travels to Ray workers with the run)::

    evoplay evolve examples/minimax_fitness.toml --out results/minimax-fitness

Everything but the evaluation is inherited from ``FogelRecipe``; the runner gives it
trials on Ray, checkpoints, ``--resume``, the run directory and the curve unchanged.
"""

import numpy as np

from evoplay.recipes.fogel.nets import NetBatch, stack
from evoplay.recipes.fogel.operators import game_uniforms
from evoplay.recipes.fogel.recipe import FogelRecipe
from evoplay.tictactoe import board
from evoplay.tictactoe import engine
from evoplay.tictactoe.players import make_player


def score_chunk(job):
    """Fitness and (win, loss, draw) of a chunk of networks: one ``toolbox.map`` item.

    Games use the chunk's own rows of the generation's uniforms (``game_uniforms``), so
    the result is the same however the population is split.
    """
    w1, w2, (key, first, last, games) = job
    u = game_uniforms(key, first, last, games)
    n, half = last - first, games // 2
    x_rows = np.repeat(np.arange(n), half)
    result = {}
    for name, cols in (("minimax", slice(0, half)), ("random", slice(half, 2 * half))):
        flat = u[:, cols].reshape(n * half, 9)
        result[name] = engine.play(NetBatch(w1, w2), make_player(name), flat, x_rows=x_rows).reshape(n, half)
    draws_mm = (result["minimax"] == board.DRAW).sum(1)
    wins_rnd = (result["random"] == board.X_WIN).sum(1)
    losses = sum((r == board.O_WIN).sum(1) for r in result.values())
    wins = sum((r == board.X_WIN).sum(1) for r in result.values())
    draws = sum((r == board.DRAW).sum(1) for r in result.values())
    return draws_mm + wins_rnd - 10.0 * losses, np.stack([wins, losses, draws], axis=1)


class MinimaxFitness(FogelRecipe):
    """Fogel networks scored by draws against minimax and wins against random."""

    name = "minimax-fitness"
    default_name = "minimax-fitness"
    fitness_name = "score"  # its own words, not Fogel's payoff: the console, curve and summary say "max score"
    fitness_unit = "draws vs minimax + wins vs random - 10 x losses"

    def evaluate(self, pool, ctx):
        games = self.cfg["evaluation"]["games"]
        _, w1, w2 = stack(pool)
        jobs = [(w1[a:b], w2[a:b], (ctx.streams.key, a, b, games)) for a, b in ctx.bounds(len(pool))]
        parts = list(self.toolbox.map(score_chunk, jobs))
        return np.concatenate([p for p, _ in parts]).astype(float), np.concatenate([w for _, w in parts])

    def expected_payoff(self, player) -> float:
        """The champion's exact expected fitness per game pair: P(draw vs minimax) + P(win vs random) - 10 P(loss)."""
        from evoplay.tictactoe import exact

        mm, rnd = exact.outcome(player, make_player("minimax")), exact.outcome(player, make_player("random"))
        return (mm.draw + rnd.x_win - 10.0 * (mm.o_win + rnd.o_win)) / 2
