"""Players of any game by spec: the knowledge-free baselines every game has, the game's own.

A spec is ``NAME`` or ``NAME:key=value,...`` read against ``registry(game)``: ``random``,
``mcts`` and ``alpha-beta`` for every game, then whatever the game offers as its ``players`` (a dict
``name -> (factory, {param: (type, check)})``, e.g. checkers' ``piece-difference``); a
path (``.json``, or a run directory) is a player file of that game.
"""

from __future__ import annotations

import functools
import os

from evoplay.arena.alphabeta import SCHEMA as ALPHA_BETA_SCHEMA
from evoplay.arena.alphabeta import AlphaBetaPlayer
from evoplay.arena.mcts import SCHEMA as MCTS_SCHEMA
from evoplay.arena.mcts import MCTSPlayer
from evoplay.arena.players import RandomPlayer, build, with_article
from evoplay.errors import SpecError
from evoplay.arena.game import capability, game_ref


def common(game) -> dict:
    """The players every game has: uniform random, UCT with random playouts, alpha-beta."""
    return {
        "random": (functools.partial(RandomPlayer, game), {}),
        "mcts": (functools.partial(MCTSPlayer, game), MCTS_SCHEMA),
        "alpha-beta": (functools.partial(AlphaBetaPlayer, game), ALPHA_BETA_SCHEMA),
    }


def registry(game) -> dict:
    """Every player spec name of ``game``: the common ones, then the game's own."""
    return common(game) | dict(capability(game, "players"))


def is_path(spec: str) -> bool:
    """Whether a spec names a player file or a run directory rather than a built-in player."""
    s = spec.strip()
    return s.endswith(".json") or "/" in s or os.path.isdir(s)  # False, not OSError, for a name too long


def make_player(game, spec: str):
    """The player of ``game`` named by ``spec``: the one constructor every command, page and
    recipe calls. A game with its own way to read specs (``make_player``: tic-tac-toe's table
    players, its older files, user code) reads them; else ``common_player``."""
    if not isinstance(spec, str) or not spec.strip():
        raise SpecError("empty player spec")
    own = capability(game, "make_player")
    return own(spec) if own is not None else common_player(game, spec)


def common_player(game, spec: str):
    """The player of ``game`` named by ``spec`` as every game reads one (a built-in name with
    parameters, or a path to a player file of that game)."""
    if not isinstance(spec, str) or not spec.strip():
        raise SpecError("empty player spec")
    if is_path(spec):
        from evoplay.files.playerfile import LEGACY_GAME, load_player

        player = load_player(spec.strip())
        own = getattr(player, "game", None)
        if own is None or game_ref(own) != game_ref(game):
            theirs = game_ref(own) if own is not None else LEGACY_GAME
            raise SpecError(f"player file {spec.strip()} plays {theirs}: not {with_article(game_ref(game))} player")
        return player
    return build(spec, registry(game), game_ref(game))
