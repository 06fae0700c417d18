"""How much work a search asks for, estimated before it starts: a request that no machine
could finish (solving checkers, alpha-beta 64 plies deep) is refused in one line, not
started and left to run without end.

Both estimates come from random games (Knuth's estimator, 1975): along a uniformly random
line from the position, the product of the branching factors met so far is an unbiased
estimate of the number of lines of play of that length, and their sum an unbiased estimate
of the size of the game tree. The lines are drawn from a fixed seed, so one position gets
one answer: the same request is refused, or accepted, every time.

- Solving to the end (``alpha-beta:depth=0``) visits each distinct position once. The tree
  counts a position once per line reaching it, so it overstates the positions, by about 100
  times for tic-tac-toe (549,946 nodes, 5,478 positions): a tree over ``TREE_PER_POSITION``
  times the solver's bound is refused outright, and the solver's own bound (its count of
  positions) stops the rest.
- Alpha-beta to depth ``d`` searches at least the minimal tree of Knuth and Moore, with the
  best move always first: ``b^ceil(d/2) + b^floor(d/2) - 1`` positions for branching ``b``
  (here the geometric mean of the branching met on the random lines); a search whose
  minimal tree is over ``MAX_SEARCH_POSITIONS`` is refused.
"""

from __future__ import annotations

import math

import numpy as np

#: Random lines an estimate follows (fixed seed: one position, one answer).
PROBES = 32
SEED = 1975
#: Most plies of a line followed for the branching factor (its opening and middle game).
BRANCHING_PLIES = 60
#: The tree of a game ``depth=0`` may solve is at most this many times the solver's bound on
#: positions (tic-tac-toe's is about 100 times its positions).
TREE_PER_POSITION = 1000
#: Most positions of the minimal alpha-beta tree a search may ask for: at ten million
#: positions a second, more than a day of search for one move.
MAX_SEARCH_POSITIONS = 10**12


def _lines(game, state, plies: int):
    """Per random line from ``state``: the branching factors met, at most ``plies`` of them."""
    rng = np.random.default_rng(SEED)
    for _ in range(PROBES):
        factors, s = [], state
        while game.result(s) is None and len(factors) < plies:
            moves = game.legal_moves(s)
            factors.append(len(moves))
            s = game.apply(s, moves[int(rng.integers(len(moves)))])
        yield factors


def tree_size(game, state, cap: float, plies: int) -> float:
    """Knuth's estimate of the positions of the game tree below ``state`` (lines cut after
    ``plies`` plies), or ``cap`` as soon as the estimate is sure to exceed it."""
    total = 0.0
    for factors in _lines(game, state, plies):
        nodes, product = 1.0, 1.0
        for b in factors:
            product *= b
            nodes += product
            if nodes >= cap * PROBES:  # this line alone puts the mean over the cap
                return cap
        total += nodes
    return min(total / PROBES, cap)


def branching(game, state) -> float:
    """The geometric mean of the branching factors on random lines from ``state`` (1 where
    none was met: the game is over, or every line is forced)."""
    logs = [math.log(b) for factors in _lines(game, state, BRANCHING_PLIES) for b in factors]
    return math.exp(sum(logs) / len(logs)) if logs else 1.0


def minimal_tree(b: float, depth: int) -> float:
    """Positions of Knuth and Moore's minimal alpha-beta tree of uniform branching ``b``."""
    return b ** math.ceil(depth / 2) + b ** (depth // 2) - 1


def solve_refusal(game, state, max_positions: int, plies: int) -> str | None:
    """Why solving ``game`` from ``state`` cannot finish within ``max_positions`` positions,
    or None where it may (the solver's own count then bounds it)."""
    cap = float(TREE_PER_POSITION) * max_positions
    size = tree_size(game, state, cap, plies)
    if size < cap:
        return None
    return (f"the game tree below this position has more than {cap:.0e} positions (Knuth's estimate from "
            f"{PROBES} random games), too big to solve within {max_positions:,} positions")


def search_refusal(game, state, depth: int) -> str | None:
    """Why an alpha-beta search of ``depth`` plies from ``state`` cannot finish, or None."""
    b = branching(game, state)
    size = minimal_tree(b, depth)
    if size <= MAX_SEARCH_POSITIONS:
        return None
    most = max(d for d in range(1, depth) if minimal_tree(b, d) <= MAX_SEARCH_POSITIONS) if b > 1 else depth
    return (f"{depth} plies search at least {size:.1e} positions a move (the minimal alpha-beta tree at about "
            f"{b:.1f} moves a position), more than the {MAX_SEARCH_POSITIONS:.0e} any machine searches in a day: "
            f"give a depth of at most {most}")
