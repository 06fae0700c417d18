"""Players made of an evaluation network and alpha-beta search, and the games they play.

A player searches to ``depth`` plies with the network at the leaves and exact scores at
finished games (``evoplay.arena.search``), in the fastest exact form its game offers: a game
with a ``search_table`` (tic-tac-toe) computes the move on every position at once; a game
with a ``network_search`` (checkers' compiled search) searches with the network itself;
any other game runs the generic search with the network's batched ``Evaluator``. All
three give the generic search's move (tests compare them). A game whose views hold kings
as +-2 (``king_inputs``) has them read as +-K, K evolved; elsewhere a view's values enter
as they are.
"""

from __future__ import annotations

import numpy as np

from evoplay.arena.game import capability
from evoplay.arena.match import play_game
from evoplay.arena.specs import make_player
from evoplay.games import resolve_game
from evoplay.networks.evalnet import Evaluator, prepare
from evoplay.arena.players import SearchPlayer

#: K's stand-in where a game has no kings: views' values enter unchanged (2 reads as 2).
NO_KINGS = 2.0


def ttt_move_table(evaluate, depth: int) -> np.ndarray:
    """The search player's move on every tic-tac-toe board code (the game's ``search_table``)."""
    return resolve_game("tictactoe").search_table(evaluate, depth)


class TableMover:
    """A deterministic tic-tac-toe player given by its move on every board code."""

    deterministic = True

    def __init__(self, moves: np.ndarray, spec: str = "blondie24"):
        self.moves, self.spec = moves, spec

    def distribution(self, state) -> list:
        return [(int(self.moves[state]), 1.0)]

    def choose(self, state, rng=None):
        return int(self.moves[state])


class CompiledNetPlayer:
    """A network searching ``depth`` plies with its game's compiled ``network_search``."""

    deterministic = True

    def __init__(self, game, genome, sizes, king: float, depth: int, quiescence: bool = False, spec: str = "blondie24"):
        self.game = game
        self.genome = np.ascontiguousarray(genome, dtype=np.float64)
        self.sizes, self.king, self.depth, self.quiescence, self.spec = tuple(sizes), float(king), depth, quiescence, spec
        self.network = prepare(self.genome, self.sizes, self.king)  # once: every search of this player uses it

    def best(self, state):
        return self.game.network_search(state, self.depth, self.network, self.sizes, self.king, self.quiescence)

    @property
    def evaluate(self) -> Evaluator:
        """Its network as the generic search reads one (what the board page analyses with)."""
        return Evaluator(self.genome, self.sizes, self.king)

    def distribution(self, state) -> list:
        return [(self.best(state).move, 1.0)]

    def choose(self, state, rng=None):
        return self.best(state).move


def net_player(game, genome, sizes, king: float, depth: int, quiescence: bool = False, spec: str = "blondie24"):
    """The player of a network searching ``depth`` plies, in the fastest exact form ``game`` offers."""
    game = resolve_game(game)
    king = float(king) if capability(game, "king_inputs") else NO_KINGS
    table = capability(game, "search_table")
    if table is not None:  # a game without captures: quiescence changes nothing
        return TableMover(table(Evaluator(genome, sizes, king), depth), spec)
    if capability(game, "network_search") is not None:
        return CompiledNetPlayer(game, genome, sizes, king, depth, quiescence, spec)
    return SearchPlayer(game, Evaluator(genome, sizes, king), depth, spec, quiescence)


def play(game, first, second, state, max_plies: int, rng=None) -> tuple[int, int]:
    """(score of the side to move at ``state``: +1, 0, -1; plies) of a game, ``first`` playing
    that side, drawn after ``max_plies`` plies (or the game's own limit:
    ``evoplay.arena.match.play_game``); ``rng`` for players that draw their moves (None where
    both are deterministic)."""
    mover = game.to_move(state)
    players = (first, second) if mover == 0 else (second, first)
    score, plies, _ = play_game(game, *players, state, rng, max_plies=max_plies)
    return (score if mover == 0 else -score), plies


def play_chunk(args):
    """``toolbox.map`` unit of work: (game, genomes, kings, sizes, depth, quiescence, pairs, max_plies
    [, openings [, specs, seeds]]) -> (n, 2) int array of (score of the first player, plies) per pair
    ``(first, second)``. ``specs``: the indexes of ``genomes`` that stand for players given by a
    spec (anchors: ``make_player``), ``seeds``: each game's seed for their random draws.

    The first player is the side that moves first in the game; a game with an opening
    (a list of moves, one per pair) starts after them, and its plies count them; the side
    to move after the opening is read off ``to_move`` (a side may have moved twice).
    Only the networks the chunk's pairs name are turned into players.
    """
    ref, genomes, kings, sizes, depth, quiescence, pairs, max_plies, *rest = args
    openings = rest[0] if rest and rest[0] is not None else [()] * len(pairs)
    specs, seeds = rest[1:3] if len(rest) == 3 else ({}, None)
    game = resolve_game(ref)
    players = {}

    def player(i):
        if i not in players:
            players[i] = (make_player(game, specs[i]) if i in specs
                          else net_player(game, genomes[i], sizes, kings[i], depth, quiescence))
        return players[i]

    out = np.zeros((len(pairs), 2), dtype=np.int64)
    for g, ((a, b), opening) in enumerate(zip(pairs, openings)):
        state = game.initial()
        for move in opening:
            state = game.apply(state, move)
        k = len(opening)
        side = game.to_move(state)  # the pair's first network plays the side that moved first
        first, second = (player(int(a)), player(int(b))) if side == 0 else (player(int(b)), player(int(a)))
        rng = None if seeds is None else np.random.default_rng(int(seeds[g]))
        score, plies = play(game, first, second, state, max_plies - k, rng)
        out[g] = (score if side == 0 else -score, plies + k)
    return out
