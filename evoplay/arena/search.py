"""Negamax alpha-beta search over any game of the interface, with batched leaf evaluation.

The evaluator is a callable taking a ``(n, squares)`` array of boards seen by their side
to move (``Game.views``) and returning ``n`` scores for that side, so a neural evaluator is
one matrix product per batch: a node one ply above the horizon evaluates all its quiet
children in one call. Finished games score beyond any evaluation, ``WIN - ply`` for a win,
so faster wins and slower losses are preferred. Moves are searched captures first, and
the best move found at a position in the previous iteration of iterative deepening first
of all. Among moves of equal value the first in the game's legal order is chosen, so the
result is the one plain minimax gives, whatever the search order.

A side may move several times in a row (a multi-jump split into single jumps, an extra
turn in mancala): a child's value counts for the mover with the sign ``to_move`` gives,
negated only when the side to move changes, and its window is the parent's, mirrored only
then.
"""

from __future__ import annotations

import math
from typing import Callable, NamedTuple

import numpy as np

#: Score of a won game at the root; evaluations must stay well inside (-WIN/2, WIN/2).
WIN = 1e6
#: Most plies of capture sequences quiescence search follows beyond the horizon.
MAX_QUIESCENCE = 12

Evaluator = Callable[[np.ndarray], np.ndarray]


class SearchResult(NamedTuple):
    value: float
    move: object
    leaves: int  # positions handed to the evaluator (all iterations)
    nodes: int  # positions expanded (all iterations)


def terminal_score(result: int, ply: int) -> float:
    return 0.0 if result == 0 else result * (WIN - ply)


class _Search:
    def __init__(self, game, evaluate: Evaluator, quiescence: bool):
        self.game, self.evaluate_fn, self.quiescence = game, evaluate, quiescence
        self.best_moves: dict = {}
        self.leaves = self.nodes = 0

    def evaluate(self, states) -> np.ndarray:
        scores = np.asarray(self.evaluate_fn(self.game.views(states)), dtype=np.float64).reshape(-1)
        if scores.shape != (len(states),) or not np.all(np.abs(scores) < WIN / 2):
            raise ValueError(f"an evaluator must return {len(states)} finite scores within ±{WIN / 2:g}")
        self.leaves += len(states)
        return scores

    def noisy(self, state) -> bool:
        return any(self.game.is_capture(state, m) for m in self.game.legal_moves(state))

    def expands(self, state, depth: int) -> bool:
        """Whether an unfinished state at ``depth`` is searched rather than evaluated."""
        return depth > 0 or (self.quiescence and depth > -MAX_QUIESCENCE and self.noisy(state))

    def ordered(self, state, moves: list) -> list:
        g = self.game
        seq = [m for m in moves if g.is_capture(state, m)] + [m for m in moves if not g.is_capture(state, m)]
        first = self.best_moves.get(g.key(state))
        if first is not None and first in seq:
            seq.remove(first)
            seq.insert(0, first)
        return seq

    def child_value(self, kid, sign: int, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The searched value of ``kid`` for the side that moved into it (``sign`` -1 when the
        side to move changed, +1 when that side moves again)."""
        if sign < 0:
            return -self.value(kid, depth, -beta, -alpha, ply)
        return self.value(kid, depth, alpha, beta, ply)

    def children(self, state, moves, depth: int, ply: int) -> list:
        """Per move: the child, its value for the mover when known without search, and the
        sign a child's value takes for the mover."""
        g = self.game
        mover = g.to_move(state)
        kids = [g.apply(state, m) for m in moves]
        signs = [-1 if g.to_move(kid) != mover else 1 for kid in kids]
        known: list = [None] * len(kids)
        quiet = []
        for i, kid in enumerate(kids):
            r = g.result(kid)
            if r is not None:
                known[i] = signs[i] * terminal_score(r, ply + 1)
            elif not self.expands(kid, depth - 1):
                quiet.append(i)
        if quiet:
            for i, score in zip(quiet, self.evaluate([kids[i] for i in quiet])):
                known[i] = signs[i] * score
        return list(zip(kids, known, signs))

    def value(self, state, depth: int, alpha: float, beta: float, ply: int) -> float:
        """Fail-soft negamax value of an unfinished state that ``expands``."""
        g = self.game
        self.nodes += 1
        moves = g.legal_moves(state)
        best, best_move = -math.inf, None
        if depth <= 0:  # quiescence: captures only, standing pat when other moves exist
            captures = [m for m in moves if g.is_capture(state, m)]
            if len(captures) < len(moves):
                best = self.evaluate([state])[0]
                if best >= beta:
                    return best
            moves = captures
        moves = self.ordered(state, moves)
        for move, (kid, v, sign) in zip(moves, self.children(state, moves, depth, ply)):
            if v is None:
                v = self.child_value(kid, sign, depth - 1, max(alpha, best), beta, ply + 1)
            if v > best:
                best, best_move = v, move
                if best >= beta:
                    break
        if best_move is not None:
            self.best_moves[g.key(state)] = best_move
        return best

    def root(self, state, depth: int) -> tuple:
        """Exact value and the first move in legal order that attains it."""
        g = self.game
        legal = g.legal_moves(state)
        index = {m: i for i, m in enumerate(legal)}
        moves = self.ordered(state, legal)
        best, best_move = -math.inf, None
        for move, (kid, v, sign) in zip(moves, self.children(state, moves, depth, 0)):
            if v is None:
                # A move before the best one in legal order wins a tie: open the window a hair.
                alpha = best if best_move is None or index[move] > index[best_move] else math.nextafter(best, -math.inf)
                v = self.child_value(kid, sign, depth - 1, alpha, math.inf, 1)
            if v > best or (v == best and index[move] < index[best_move]):
                best, best_move = v, move
        self.best_moves[g.key(state)] = best_move
        return best, best_move


def search(game, state, depth: int, evaluate: Evaluator, quiescence: bool = False) -> SearchResult:
    """Alpha-beta to ``depth`` plies (iterative deepening from 1) from an unfinished state."""
    if depth < 1:
        raise ValueError(f"search depth must be at least 1, got {depth}")
    if game.result(state) is not None:
        raise ValueError("the game is over: there is no move to search")
    s = _Search(game, evaluate, quiescence)
    for d in range(1, depth + 1):
        value, move = s.root(state, d)
    return SearchResult(float(value) + 0.0, move, s.leaves, s.nodes)  # + 0.0: no -0.0


def move_scores(game, state, depth: int, evaluate: Evaluator, quiescence: bool = False) -> list[tuple]:
    """Each legal move (in legal order) with its exact value for the side to move at ``depth``.

    Every move is searched with a full window, so each score is the minimax value of that
    move, not just a bound: what a person asking "how good is each move?" wants to see.
    """
    if depth < 1:
        raise ValueError(f"search depth must be at least 1, got {depth}")
    if game.result(state) is not None:
        raise ValueError("the game is over: there is no move to score")
    s = _Search(game, evaluate, quiescence)
    moves = game.legal_moves(state)
    scored = []
    for move, (kid, v, sign) in zip(moves, s.children(state, moves, depth, 0)):
        if v is None:
            v = s.child_value(kid, sign, depth - 1, -math.inf, math.inf, 1)
        scored.append((move, float(v) + 0.0))
    return scored


def principal_variation(game, state, depth: int, evaluate: Evaluator, quiescence: bool = False) -> list:
    """The moves minimax expects from ``state`` to the horizon: the search's move, then the
    search's move ``depth - 1`` plies deep from the position it leads to, and so on.

    Terminal scores shift by the same ply at every node below, so each step's choice (the
    first best move in legal order) is the one the root search made along this line.
    """
    if depth < 1:
        raise ValueError(f"search depth must be at least 1, got {depth}")
    line = []
    for d in range(depth, 0, -1):
        if game.result(state) is not None:
            break
        move = search(game, state, d, evaluate, quiescence).move
        line.append(move)
        state = game.apply(state, move)
    return line
