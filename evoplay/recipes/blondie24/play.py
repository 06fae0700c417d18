"""Players made of an evaluation network and alpha-beta search, and the games they play.

A player searches to ``depth`` plies with the network at the leaves and exact scores at
finished games (``evoplay.search``). On checkers it is the compiled search
(``evoplay.checkers.search``), which gives the same move several times faster. On tic-tac-toe
the whole policy is computed at once:
``ttt_move_table`` evaluates every board in one batch and backs the values up ``depth``
plies by the same negamax rule, so it is the search's move on every board (a test
compares them) at a small fraction of the cost; matches and the exact yardstick use it.
"""

from __future__ import annotations

import numpy as np

from evoplay.games import get_game
from evoplay.recipes.blondie24.network import Evaluator
from evoplay.search import WIN, search
from evoplay.tictactoe import board as B

_TTT = None


def _ttt_tables():
    """Reachable boards: their views, which are finished and how, and each unfinished one's children."""
    global _TTT
    if _TTT is None:
        codes = B.REACHABLE_CODES
        index = np.full(B.N_CODES, -1, dtype=np.int64)
        index[codes] = np.arange(len(codes))
        ongoing = B.OUTCOME[codes] == B.ONGOING
        decision = np.flatnonzero(ongoing)
        legal = B.LEGAL[codes[decision]]
        kids = np.where(legal, index[np.where(legal, B.CHILD[codes[decision]], 0)], 0)
        # the result of a finished board for the side to move: 0 drawn, -1 lost (the last mover made the line)
        result = np.where(B.OUTCOME[codes] == B.DRAW, 0.0, -1.0)
        views = get_game("tictactoe").views(codes[decision])
        _TTT = (codes, ~ongoing, result, decision, legal, kids, views)
    return _TTT


def ttt_move_table(evaluate, depth: int) -> np.ndarray:
    """The move (square) of the search player on every board code, -1 where no move is made.

    Negamax over all reachable boards ``depth`` plies deep, terminal children scoring
    ``+-(WIN - ply)``: the first square in order that attains the best value, as ``search``.
    """
    codes, finished, result, decision, legal, kids, views = _ttt_tables()
    value = np.zeros(len(codes))  # each board's value at the depth remaining below; first the leaf values
    value[decision] = evaluate(views)
    for k in range(1, depth + 1):
        ply = depth - k + 1  # the ply of the children, counted from the root
        child = np.where(finished, -(result * (WIN - ply)), -value)  # a board's value for the side that moved into it
        scores = np.where(legal, child[kids], -np.inf)
        if k == depth:
            moves = np.full(B.N_CODES, -1, dtype=np.int64)
            moves[codes[decision]] = np.argmax(scores, axis=1)
            return moves
        value = np.zeros(len(codes))
        value[decision] = scores.max(axis=1)
    raise AssertionError("unreachable")


class TableMover:
    """A deterministic tic-tac-toe player given by its move on every board code."""

    deterministic = True

    def __init__(self, moves: np.ndarray, spec: str = "blondie24"):
        self.moves, self.spec = moves, spec

    def distribution(self, state) -> list:
        return [(int(self.moves[state]), 1.0)]

    def choose(self, state, rng=None):
        return int(self.moves[state])


class NetSearchPlayer:
    """Alpha-beta to ``depth`` with a network at the leaves: the first best move in legal order."""

    deterministic = True

    def __init__(self, game, evaluate, depth: int, spec: str = "blondie24", quiescence: bool = False):
        self.game, self.evaluate, self.depth, self.spec, self.quiescence = game, evaluate, depth, spec, quiescence

    def best(self, state):
        return search(self.game, state, self.depth, self.evaluate, self.quiescence)

    def distribution(self, state) -> list:
        return [(self.best(state).move, 1.0)]

    def choose(self, state, rng=None):
        return self.best(state).move


class CheckersNetPlayer:
    """A checkers network searching ``depth`` plies with the compiled search (``evoplay.checkers.search``):
    the generic search's move, several times faster."""

    deterministic = True

    def __init__(self, genome, sizes, king: float, depth: int, quiescence: bool = False, spec: str = "blondie24"):
        self.game = get_game("checkers")
        self.genome = np.ascontiguousarray(genome, dtype=np.float64)
        self.sizes, self.king, self.depth, self.quiescence, self.spec = tuple(sizes), float(king), depth, quiescence, spec

    def best(self, state):
        from evoplay.checkers.search import search

        return search(state, self.depth, self.king, self.quiescence, self.game.quiet_limit, network=(self.genome, self.sizes))

    def distribution(self, state) -> list:
        return [(self.best(state).move, 1.0)]

    def choose(self, state, rng=None):
        return self.best(state).move


def net_player(game_name: str, genome, sizes, king: float, depth: int, quiescence: bool = False, spec: str = "blondie24"):
    """The game-interface player of a network searching ``depth`` plies (the fastest exact form for the game)."""
    if game_name == "tictactoe":
        return TableMover(ttt_move_table(Evaluator(genome, sizes, king), depth), spec)
    if game_name == "checkers":
        return CheckersNetPlayer(genome, sizes, king, depth, quiescence, spec)
    return NetSearchPlayer(get_game(game_name), Evaluator(genome, sizes, king), depth, spec, quiescence)


def play(game, first, second, state, max_plies: int) -> tuple[int, int]:
    """(score of the side moving first: +1, 0, -1; plies) of a game between deterministic
    players, drawn after ``max_plies`` plies."""
    mover = game.to_move(state)
    plies = 0
    while (r := game.result(state)) is None:
        if plies >= max_plies:
            return 0, plies
        player = first if game.to_move(state) == mover else second
        state = game.apply(state, player.choose(state, None))
        plies += 1
    return (r if game.to_move(state) == mover else -r), plies


def play_chunk(args):
    """``toolbox.map`` unit of work: (game, genomes, kings, sizes, depth, quiescence, pairs, max_plies
    [, openings]) -> (n, 2) int array of (score of the first player, plies) per pair ``(first, second)``.

    The first player is the side that moves first in the game; a game with an opening
    (a list of moves, one per pair) starts after them, and its plies count them.
    Only the networks the chunk's pairs name are turned into players.
    """
    game_name, genomes, kings, sizes, depth, quiescence, pairs, max_plies, *rest = args
    openings = rest[0] if rest and rest[0] is not None else [()] * len(pairs)
    game = get_game(game_name)
    players = {}

    def player(i):
        if i not in players:
            players[i] = net_player(game_name, genomes[i], sizes, kings[i], depth, quiescence)
        return players[i]

    out = np.zeros((len(pairs), 2), dtype=np.int64)
    for g, ((a, b), opening) in enumerate(zip(pairs, openings)):
        state = game.initial()
        for move in opening:
            state = game.apply(state, move)
        k = len(opening)
        first, second = (player(int(a)), player(int(b))) if k % 2 == 0 else (player(int(b)), player(int(a)))
        score, plies = play(game, first, second, state, max_plies - k)
        out[g] = (score if k % 2 == 0 else -score, plies + k)
    return out
