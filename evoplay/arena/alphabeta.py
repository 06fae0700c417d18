"""``alpha-beta:depth=D``: a search player for every game, as OpenSpiel's ``minimax`` and
``alpha_beta_search`` are.

It searches ``depth`` plies with the game's declared heuristic (``heuristic``: the side to
move's score of a batch of views) at unfinished leaves, or 0 there where the game declares
none; with ``depth=full`` (or ``0``) it solves the game from the position to its end (small games only:
a game whose tree is too big is refused when the player is made, ``evoplay.arena.effort``,
and a position with more than ``MAX_SOLVED`` distinct positions below it when it moves; so
is a depth whose smallest alpha-beta tree no machine searches in a day). Finished
games score beyond any evaluation (``WIN - ply``: faster wins, slower losses). Every legal
move is valued exactly, and among the moves of the best value the player picks uniformly
with the generator a match gives it, so a game with no heuristic is not played in legal
order, and a seeded match repeats; its move distribution is that uniform choice.
"""

from __future__ import annotations

import math

import numpy as np

from evoplay.arena import effort
from evoplay.arena.game import capability, game_ref, ply_limit
from evoplay.arena.players import format_spec, in_range
from evoplay.arena.search import WIN, move_scores, terminal_score
from evoplay.errors import EvoplayError, SpecError
from evoplay.files.plainnum import parse_int

#: Deepest search by depth; ``depth=full`` solves to the end.
MAX_DEPTH = 64
#: Most distinct positions a solve may visit before it is refused (tic-tac-toe has 5,478).
MAX_SOLVED = 2_000_000

#: The depth that asks for a solve to the end of the game: a word, not a number (``0``, which
#: specs took first, is read the same; a made player writes ``full``).
FULL = "full"


def plies_or_full(text: str) -> int:
    """A depth as a spec writes it: plies as a plain decimal, or ``full`` (0 in the player)."""
    return 0 if text == FULL else parse_int(text)


plies_or_full.words = "a number of plies or 'full'"  # what a spec's message says it must be


def _depth_check():
    check = in_range("alpha-beta depth", 0, MAX_DEPTH)
    check.allowed = f"in [1, {MAX_DEPTH}], or {FULL} (to the end of the game)"  # what `evoplay players` says
    return check


SCHEMA = {"depth": (plies_or_full, _depth_check())}


def depth_text(depth: int):
    """The depth as a spec writes it: its plies, or ``full``."""
    return FULL if depth == 0 else depth


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
    """Exact values of positions (for the side to move), to the end of the game, memoised by key.

    Depth first with a stack of its own, not recursion: a game's lines may be longer than
    Python's recursion limit. A position met again on the line that leads to it (a game
    whose positions repeat) has no value independent of the line, and is refused.
    """

    def __init__(self, game, max_positions: int = MAX_SOLVED):
        self.game, self.max_positions = game, max_positions
        self.values: dict = {}

    def value(self, state) -> float:
        result = self.game.result(state)
        if result is not None:
            return terminal_score(result, 0)
        key = self.game.key(state)
        if key not in self.values:
            self._solve(state, key)
        return self.values[key]

    def _frame(self, state, key, line: set) -> list:
        """A position opened on the stack: [state, key, its moves to go, best value so far, sign of the child open]."""
        if len(self.values) + len(line) >= self.max_positions:
            raise EvoplayError(f"alpha-beta:depth=full solves small games only: more than {self.max_positions:,} "
                               "positions below this one (give a depth)")
        line.add(key)
        return [state, key, iter(self.game.legal_moves(state)), -math.inf, 0.0]

    def _solve(self, state, key) -> None:
        g, line = self.game, set()
        stack = [self._frame(state, key, line)]
        while stack:
            frame = stack[-1]
            opened = False
            for move in frame[2]:
                kid = g.apply(frame[0], move)
                sign = 1.0 if g.to_move(kid) == g.to_move(frame[0]) else -1.0
                result = g.result(kid)
                if result is not None:
                    frame[3] = max(frame[3], further(sign * terminal_score(result, 0)))
                    continue
                kid_key = g.key(kid)
                if kid_key in self.values:
                    frame[3] = max(frame[3], further(sign * self.values[kid_key]))
                    continue
                if kid_key in line:
                    raise EvoplayError(f"alpha-beta:depth=full solves games whose positions never repeat; {game_ref(g)} "
                                       "came back to a position on the line leading to it (give a depth)")
                frame[4] = sign
                stack.append(self._frame(kid, kid_key, line))
                opened = True
                break
            if opened:
                continue
            stack.pop()
            line.discard(frame[1])
            self.values[frame[1]] = frame[3]
            if stack:
                parent = stack[-1]
                parent[3] = max(parent[3], further(parent[4] * frame[3]))

    def child_value(self, state, move) -> float:
        """The value of ``move`` for the side to move at ``state``."""
        kid = self.game.apply(state, move)
        sign = 1.0 if self.game.to_move(kid) == self.game.to_move(state) else -1.0
        return further(sign * self.value(kid))

    def move_values(self, state) -> list[tuple]:
        return [(move, self.child_value(state, move)) for move in self.game.legal_moves(state)]


#: Depth from which a search's size is estimated before it is accepted (below it, the minimal
#: tree stays under ``effort.MAX_SEARCH_POSITIONS`` for up to 1,000 moves a position).
ESTIMATED_FROM = 8


def effort_refusal(game, depth: int) -> str | None:
    """Why ``alpha-beta:depth=depth`` could not finish a move of ``game`` (``evoplay.arena.effort``), or None."""
    if depth == 0:
        return effort.solve_refusal(game, game.initial(), MAX_SOLVED, ply_limit(game))
    if depth >= ESTIMATED_FROM:
        return effort.search_refusal(game, game.initial(), depth)
    return None


class AlphaBetaPlayer:
    """The best moves by alpha-beta to ``depth`` plies, the game's heuristic at unfinished leaves
    (0 where it declares none), ties drawn at random; ``depth=full`` solves a small game to its end.

    ``alpha-beta:depth=D`` on every game (the module doc has the details)."""

    deterministic = False

    def __init__(self, game, depth: int = 4):
        self.game, self.depth = game, depth
        self.heuristic = self.evaluate = capability(game, "heuristic") or null_heuristic  # ``evaluate``: what a search player's is
        self.quiescence = False
        self.spec = format_spec("alpha-beta", {"depth": depth_text(depth)})
        refusal = effort_refusal(game, depth)  # depth 0: full
        if refusal is not None:
            raise SpecError(f"{self.spec} on {game_ref(game)}: {refusal}")
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
