"""Checkers players by spec: ``random``, ``piece-difference:depth=d,king=k``.

The piece-difference evaluator (Blondie24's baseline) counts material from the side to
move's view: men 1, kings ``king``. The player searches with the compiled checkers
search, which gives the generic search's value and move with this evaluator.
"""

from __future__ import annotations

import numpy as np

from evoplay.arena import specs
from evoplay.arena.players import RandomPlayer, format_spec, in_range
from evoplay.checkers import search as compiled
from evoplay.checkers.game import CHECKERS
from evoplay.errors import SpecError

MAX_DEPTH = 12


def piece_difference(king: float = 1.5):
    """Evaluator: own men minus the other's, plus ``king`` times own kings minus the other's."""

    def evaluate(views: np.ndarray) -> np.ndarray:
        v = np.asarray(views)
        men = (v == 1).sum(1) - (v == -1).sum(1)
        kings = (v == 2).sum(1) - (v == -2).sum(1)
        return men + king * kings

    return evaluate


def make_random():
    return RandomPlayer(CHECKERS)


class PieceDifferencePlayer:
    """Alpha-beta to ``depth`` on material; the first best move in legal order."""

    deterministic = True

    def __init__(self, depth: int, king: float):
        self.game, self.depth, self.king = CHECKERS, depth, king
        self.spec = format_spec("piece-difference", {"depth": depth, "king": float(king)})

    def best(self, state):
        return compiled.search(state, self.depth, self.king, quiet_limit=self.game.quiet_limit)

    def distribution(self, state) -> list:
        return [(self.best(state).move, 1.0)]

    def choose(self, state, rng):
        return self.best(state).move


def make_piece_difference(depth: int = 4, king: float = 1.5):
    return PieceDifferencePlayer(depth, king)


#: name -> (factory, {param: (type, check)})
REGISTRY = {
    "random": (make_random, {}),
    "piece-difference": (
        make_piece_difference,
        {"depth": (int, in_range("piece-difference depth", 1, MAX_DEPTH)),
         "king": (float, in_range("piece-difference king", 0.0, 100.0))},
    ),
}


def make_player(spec: str):
    """The checkers player named by ``spec``: every game's (``random``, ``mcts``), checkers' own,
    or a checkers player file or run directory (``evoplay.arena.specs``)."""
    return specs.make_player(CHECKERS, spec)
