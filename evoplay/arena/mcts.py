"""Monte-Carlo tree search with random playouts: a baseline that knows only the rules.

UCT as OpenSpiel's ``MCTSBot`` runs it with a ``RandomRolloutEvaluator`` (and as its tests
check it): each simulation walks down the tree by the UCT value
``mean reward + c * sqrt(ln N_parent / N_child)`` (unvisited children first, in an order
shuffled when the node is expanded), expands a node the second time it is reached, plays
one uniformly random game from the leaf, and adds the result to every node on the path
for the side that chose the move into it. With ``solve`` (MCTS-Solver) finished games and
proven subtrees back up their exact outcome. The move is the best child by (proven
outcome, visits, total reward); one simulation, which plays out from the root before the
root is expanded, knows nothing of the moves, so its move is the first of the shuffled
ones: uniformly random. Everything follows ``to_move``, so a side that moves
twice in a row is scored as itself; draws from the injected generator only, so a seeded
match repeats exactly.
"""

from __future__ import annotations

import math

from evoplay.arena.game import capability, ply_limit
from evoplay.arena.players import in_range
from evoplay.errors import SpecError



class _Node:
    __slots__ = ("move", "player", "visits", "reward", "outcome", "children")

    def __init__(self, move, player: int):
        self.move, self.player = move, player  # the move into this node and the side that made it
        self.visits, self.reward = 0, 0.0
        self.outcome = None  # (score of side 0, score of side 1) once proven
        self.children: list = []

    def uct(self, parent_visits: int, c: float) -> float:
        if self.outcome is not None:
            return self.outcome[self.player]
        if self.visits == 0:
            return math.inf
        return self.reward / self.visits + c * math.sqrt(math.log(parent_visits) / self.visits)

    def rank(self):
        return (0 if self.outcome is None else self.outcome[self.player], self.visits, self.reward)


def returns(game, state) -> tuple[float, float]:
    """The final scores of both sides of a finished game (its result is the side to move's)."""
    r = game.result(state)
    return (r, -r) if game.to_move(state) == 0 else (-r, r)


def playout(game, state, rng) -> tuple[float, float]:
    """The scores of one uniformly random game from ``state``: a draw once it has run the
    game's ply limit (``ply_limit``) from here, so a game that never ends costs a bounded playout.
    A game that offers ``random_playout`` (an OpenSpiel game: one copy stepped in place) plays it
    its own way, with the same draws."""
    fast = capability(game, "random_playout")
    if fast is not None:
        return fast(state, rng, ply_limit(game))
    for _ in range(ply_limit(game)):
        if game.result(state) is not None:
            return returns(game, state)
        moves = game.legal_moves(state)
        state = game.apply(state, moves[rng.integers(len(moves))])
    return (0.0, 0.0)


def mcts_move(game, state, rng, sims: int, c: float = 2.0, solve: bool = True):
    """The move UCT chooses from an unfinished ``state`` after ``sims`` simulations."""
    root = _Node(None, game.to_move(state))
    for _ in range(sims):
        path, node, here = [root], root, state
        while game.result(here) is None and node.visits > 0:
            if not node.children:
                _expand(node, game, here, rng)
            node = max(node.children, key=lambda ch: ch.uct(path[-1].visits, c))
            here = game.apply(here, node.move)
            path.append(node)
        if game.result(here) is not None:
            scores = returns(game, here)
            node.outcome = scores
            solved = solve
        else:
            scores = playout(game, here, rng)
            solved = False
        for node in reversed(path):
            node.reward += scores[node.player]
            node.visits += 1
            if solved and node.children:
                solved = _prove(node)
        if root.outcome is not None:
            break
    if not root.children:  # one simulation: it played out from the root and scored no move
        _expand(root, game, state, rng)
    return max(root.children, key=_Node.rank).move


def _expand(node: _Node, game, state, rng):
    """Give ``node`` a child per legal move of ``state``, in a shuffled order (its tie-break)."""
    moves = list(game.legal_moves(state))
    rng.shuffle(moves)
    mover = game.to_move(state)
    node.children = [_Node(m, mover) for m in moves]


def _prove(node: _Node) -> bool:
    """Give ``node`` its children's proven outcome where it follows; whether it did."""
    side = node.children[0].player
    best, all_solved = None, True
    for child in node.children:
        if child.outcome is None:
            all_solved = False
        elif best is None or child.outcome[side] > best.outcome[side]:
            best = child
    if best is not None and (all_solved or best.outcome[side] == 1):
        node.outcome = best.outcome
        return True
    return False


class MCTSPlayer:
    """UCT with random playouts, knowing only the rules: ``sims`` simulations per move, exploration
    constant ``c``, and with ``solve=1`` proven wins and losses backed up (MCTS-Solver).

    ``mcts:sims=N,c=C,solve=0|1`` on every game (the module doc has the details)."""

    deterministic = False

    def __init__(self, game, sims: int = 1000, c: float = 2.0, solve: int = 1):
        self.game, self.sims, self.c, self.solve = game, sims, c, bool(solve)
        self.spec = f"mcts:sims={sims},c={c:g},solve={int(solve)}"

    def distribution(self, state) -> list:
        raise SpecError("mcts samples its moves: it has no move distribution to compute exactly")

    def choose(self, state, rng):
        moves = self.game.legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        return mcts_move(self.game, state, rng, self.sims, self.c, self.solve)


#: The spec's parameters: (type, check).
SCHEMA = {
    "sims": (int, in_range("mcts sims", 1, 1_000_000)),
    "c": (float, in_range("mcts c", 0.0, 100.0)),
    "solve": (int, in_range("mcts solve", 0, 1)),
}
