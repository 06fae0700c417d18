"""The benchmarks measure what they say: the compiled floor plays the very games of a generation."""

import sys
from pathlib import Path

import numpy as np

from evoplay.recipes.fogel import operators
from evoplay.recipes.fogel.nets import init_population, mut_population
from evoplay.tictactoe import board

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from floor import floor_outcomes  # noqa: E402


def test_the_compiled_floor_plays_the_generations_games():
    parents = init_population(50, np.random.default_rng(31))
    pool = parents + mut_population(parents, np.random.default_rng(32), sigma=2.0)
    u = operators.game_uniforms((7, 0, 3), 0, len(pool), 32)
    opponent, _ = operators.opponent_player('"logic:eps=0.2"', 32)
    outcomes = floor_outcomes(pool, u, opponent)
    _, wld = operators.eval_networks(pool, u, "logic:eps=0.2")
    counted = np.stack([(outcomes == board.X_WIN).sum(1), (outcomes == board.O_WIN).sum(1), (outcomes == board.DRAW).sum(1)], axis=1)
    assert np.array_equal(counted, wld)
    assert wld[:, 0].sum() > 0 and wld[:, 1].sum() > 0
