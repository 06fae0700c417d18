"""A two-generation Blondie24 run completes on every game: the built-in two, the example
user game and every eligible OpenSpiel game (a sample in the default run, all of them
under ``slow``). The network's input size comes from the game's views; the yardstick is
the game's own kind (exact, piece-difference, or random and mcts)."""

import sys
from pathlib import Path

import numpy as np
import pytest

from evoplay.framework import config
from evoplay.framework.trial import TrialRun
from evoplay.games import resolve_game
from evoplay.recipes.blondie24.recipe import Blondie24Recipe

ROOT = Path(__file__).resolve().parents[1]
USER_GAME = f"{ROOT / 'examples' / 'games' / 'connect_four.py'}:ConnectFour"
#: The default run's OpenSpiel sample: a grid game, one whose side moves again (oware's
#: captures do not; mancala's extra turns do), one whose multi-jumps are several actions.
SAMPLE = ["connect_four", "mancala", "checkers", "breakthrough(rows=5,columns=5)", "hex(board_size=5)"]


def tiny(game: str) -> dict:
    return config.resolve({"recipe": "blondie24", "seed": 3, "trials": 1, "generations": 2,
                      "game": {"name": game, "depth": 1, "max_plies": 60},
                      "network": {"hidden": [2]}, "population": {"parents": 2},
                      "evaluation": {"games": 1, "random_plies": 1},
                      "yardstick": {"every": 2, "openings": 1, "mcts_sims": 3}})


def two_generations(game: str):
    cfg = tiny(game)
    recipe = Blondie24Recipe(cfg)
    run = TrialRun(recipe, 0).run(2)
    g = resolve_game(game)
    assert recipe.sizes[0] == g.views([g.initial()]).shape[1]
    assert len(run.logbook) == 2 and np.isfinite(run.logbook[-1]["max"])
    doc, facts = recipe.finish(run.trial.state, 0, run.logbook)
    assert doc["architecture"]["game"] == cfg["game"]["name"]
    again = TrialRun(Blondie24Recipe(cfg), 0).run(2)
    assert again.to_data() == run.to_data()  # the same seed, the same trial
    return run.logbook[-1], facts


@pytest.mark.parametrize("game", ["tictactoe", "checkers", USER_GAME])
def test_built_in_and_user_games(game):
    row, facts = two_generations(game)
    if game == "tictactoe":
        assert "yard_logic32" in row and "champion_logic32" in facts
    elif game == "checkers":
        assert row["yard_games"] > 0
    else:
        assert 0 <= row["yard_random_win"] <= 1 and 0 <= facts["champion_mcts_win"] <= 1


@pytest.mark.parametrize("name", SAMPLE)
def test_openspiel_sample(name):
    pytest.importorskip("pyspiel")
    row, facts = two_generations(f"openspiel:{name}")
    assert row["yard_games"] == 2 and "champion_random_score" in facts


def eligible():
    try:
        from evoplay.openspiel import eligible_games
    except ImportError:
        return []
    try:
        return eligible_games()
    except Exception:
        return []


@pytest.mark.slow
@pytest.mark.parametrize("name", eligible())
def test_every_eligible_openspiel_game(name):
    two_generations(f"openspiel:{name}")


def test_fractional_views_reach_the_network_whole():
    """An OpenSpiel tensor with fractions (chess's move counters) is not cut to integers:
    a network reading only a fractional input sees it."""
    from evoplay.networks.evalnet import Evaluator, n_weights

    views = np.zeros((2, 4))
    views[0, 3], views[1, 3] = 0.25, 0.75
    sizes = (4, 1, 1)
    genome = np.zeros(n_weights(sizes))
    genome[3] = 1.0  # the hidden unit reads input 3
    genome[5] = 1.0  # the output reads the hidden unit
    a, b = Evaluator(genome, sizes, 2.0)(views)
    assert 0 < a < b  # tanh(tanh(0.25) + ...) < tanh(tanh(0.75) + ...): both non-zero
