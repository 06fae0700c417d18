"""Checkers' own players by spec: ``piece-difference:depth=d,king=k``, and ``openspiel-mcts``
(OpenSpiel's C++ MCTSBot through pyspiel, an optional extra: ``evoplay.checkers.spielmcts``);
``random``, ``mcts`` and ``alpha-beta`` are every game's.

The piece-difference evaluator (Blondie24's baseline) counts material from the side to
move's view: men 1, kings ``king``. The player searches with the compiled checkers
search, which gives the generic search's value and move with this evaluator.
"""

from __future__ import annotations

import functools

import numpy as np

from evoplay.arena.players import format_spec, in_range
from evoplay.checkers import search as compiled
from evoplay.checkers import spielmcts

MAX_DEPTH = 12


def piece_difference(king: float = 1.5):
    """Evaluator: own men minus the other's, plus ``king`` times own kings minus the other's."""

    def evaluate(views: np.ndarray) -> np.ndarray:
        v = np.asarray(views)
        men = (v == 1).sum(1) - (v == -1).sum(1)
        kings = (v == 2).sum(1) - (v == -2).sum(1)
        return men + king * kings

    return evaluate


class PieceDifferencePlayer:
    """Alpha-beta to ``depth`` on material; the first best move in legal order."""

    deterministic = True
    quiescence = False

    def __init__(self, game, depth: int, king: float):
        self.game, self.depth, self.king = game, depth, king
        self.spec = format_spec("piece-difference", {"depth": depth, "king": float(king)})

    @property
    def evaluate(self):
        """Its evaluation as the generic search reads one (what the board page analyses with)."""
        return piece_difference(self.king)

    def best(self, state):
        return compiled.search(state, self.depth, self.king, quiet_limit=self.game.quiet_limit)

    def distribution(self, state) -> list:
        return [(self.best(state).move, 1.0)]

    def choose(self, state, rng):
        return self.best(state).move


def make_piece_difference(game, depth: int = 4, king: float = 1.5):
    """Alpha-beta to ``depth`` plies on material (men 1, kings ``king``); the first best move in legal order."""
    return PieceDifferencePlayer(game, depth, king)


#: ``piece-difference``'s parameters: {param: (type, check)}.
SCHEMA = {"depth": (int, in_range("piece-difference depth", 1, MAX_DEPTH)),
          "king": (float, in_range("piece-difference king", 0.0, 100.0))}


def registry(game) -> dict:
    """Checkers' own player specs for ``game`` (the checkers game object): name -> (factory, schema)."""
    return {"piece-difference": (functools.partial(make_piece_difference, game), SCHEMA),
            spielmcts.NAME: spielmcts.registry_entry(game)}
