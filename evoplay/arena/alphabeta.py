"""``alpha-beta:depth=D``: a search player for every game, as OpenSpiel's ``minimax`` and
``alpha_beta_search`` are.

It searches ``depth`` plies with the game's declared heuristic (``heuristic``: the side to
move's score of a batch of views) at unfinished leaves, or 0 there where the game declares
none; with ``depth=0`` it solves the game from the position to its end (small games only:
a position with more than ``MAX_SOLVED`` distinct positions below it is refused). Finished
games score beyond any evaluation (``WIN - ply``: faster wins, slower losses). Every legal
move is valued exactly, and among the moves of the best value the player picks uniformly
with the generator a match gives it, so a game with no heuristic is not played in legal
order, and a seeded match repeats; its move distribution is that uniform choice.
"""

from __future__ import annotations

import math

import numpy as np

from evoplay.arena.game import capability
from evoplay.arena.players import format_spec, in_range
from evoplay.arena.search import WIN, move_scores, terminal_score
from evoplay.errors import EvoplayError

#: Deepest search by depth; ``depth=0`` solves to the end.
MAX_DEPTH = 64
#: Most distinct positions a solve may visit before it is refused (tic-tac-toe has 5,478).
MAX_SOLVED = 2_000_000

SCHEMA = {"depth": (int, in_range("alpha-beta depth", 0, MAX_DEPTH))}


def null_heuristic(views: np.ndarray) -> np.ndarray:
    """0 at every unfinished leaf: a search that knows only the rules."""
    return np.zeros(len(views))


def further(value: float) -> float:
    """A child's value seen one ply higher: a win or a loss one ply farther away."""
    if value > WIN / 2:
        return value - 1
    if value < -WIN / 2:
        return value + 1
    return value


class Solver:
    """Exact values of positions (for the side to move), to the end of the game, memoised by key."""

    def __init__(self, game, max_positions: int = MAX_SOLVED):
        self.game, self.max_positions = game, max_positions
        self.values: dict = {}

    def value(self, state) -> float:
        result = self.game.result(state)
        if result is not None:
            return terminal_score(result, 0)
        key = self.game.key(state)
        if key in self.values:
            return self.values[key]
        if len(self.values) >= self.max_positions:
            raise EvoplayError(f"alpha-beta:depth=0 solves small games only: more than {self.max_positions:,} "
                               "positions below this one (give a depth)")
        best = -math.inf
        for move in self.game.legal_moves(state):
            best = max(best, self.child_value(state, move))
        self.values[key] = best
        return best

    def child_value(self, state, move) -> float:
        """The value of ``move`` for the side to move at ``state``."""
        kid = self.game.apply(state, move)
        sign = 1.0 if self.game.to_move(kid) == self.game.to_move(state) else -1.0
        return further(sign * self.value(kid))

    def move_values(self, state) -> list[tuple]:
        return [(move, self.child_value(state, move)) for move in self.game.legal_moves(state)]


class AlphaBetaPlayer:
    """The best moves by alpha-beta to ``depth`` plies, the game's heuristic at unfinished leaves
    (0 where it declares none), ties drawn at random; ``depth=0`` solves a small game to its end.

    ``alpha-beta:depth=D`` on every game (the module doc has the details)."""

    deterministic = False

    def __init__(self, game, depth: int = 4):
        self.game, self.depth = game, depth
        self.heuristic = capability(game, "heuristic") or null_heuristic
        self.spec = format_spec("alpha-beta", {"depth": depth})
        self._solver = Solver(game) if depth == 0 else None

    def move_values(self, state) -> list[tuple]:
        """Each legal move with its value for the side to move (exact at ``depth``, or solved)."""
        if self._solver is not None:
            return self._solver.move_values(state)
        return move_scores(self.game, state, self.depth, self.heuristic)

    def best_moves(self, state) -> list:
        scored = self.move_values(state)
        top = max(v for _, v in scored)
        return [m for m, v in scored if v == top]

    def distribution(self, state) -> list:
        best = self.best_moves(state)
        return [(m, 1.0 / len(best)) for m in best]

    def choose(self, state, rng):
        best = self.best_moves(state)
        return best[0] if len(best) == 1 else best[int(rng.integers(len(best)))]
