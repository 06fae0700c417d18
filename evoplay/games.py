"""The game interface every game implements, and the one place a game reference is resolved.

Two-player, perfect-information, deterministic games, written as pure functions over an
immutable state (as pgx and OpenSpiel games are). Scores are from the view of the side to
move: +1 won, 0 drawn, -1 lost. Search, players and matches are written once against this
protocol; each game package holds only what is particular to it.
"""

from __future__ import annotations

import importlib
from typing import Hashable, Protocol, Sequence

import numpy as np

from evoplay.errors import EvoplayError


class Game(Protocol):
    """What search, players and matches need of a game."""

    name: str
    #: Names of the side moving first and the side moving second.
    side_names: tuple[str, str]

    def initial(self): ...

    def to_move(self, state) -> int:
        """0 when the side moving first is to move, 1 for the other side."""

    def legal_moves(self, state) -> list:
        """Legal moves of an unfinished state, in a fixed, documented order."""

    def apply(self, state, move):
        """The state after ``move``, one of ``legal_moves(state)``; ``state`` is unchanged."""

    def result(self, state) -> int | None:
        """None while the game is on, else the final score of the side to move."""

    def is_capture(self, state, move) -> bool:
        """Whether a move is noisy (searched first, and by quiescence search)."""

    def key(self, state) -> Hashable:
        """Canonical encoding of the position (equal positions, equal keys)."""

    def views(self, states: Sequence) -> np.ndarray:
        """Batched inputs of each state from the side to move's view: ``(n, width)``, one
        width for every state of a game. The built-in games give int8 boards, own pieces
        positive, the other side's negative, 0 empty (kings +-2); an OpenSpiel game its
        observation tensor as the mover sees it, flattened, and a column for the side to move."""

    def move_text(self, state, move) -> str: ...

    def parse_move(self, state, text: str):
        """The legal move written ``text``; ValueError naming the problem otherwise."""

    def render(self, state, numbers: bool = False) -> str: ...


class BaseGame:
    """Defaults for the parts of the protocol a simple game need not write: no captures,
    moves written as ``str(move)`` and read back by matching those texts, ``str(state)``
    as the rendering. Subclass it and write the seven rules (``initial`` .. ``views``)."""

    side_names = ("first", "second")

    def is_capture(self, state, move) -> bool:
        return False

    def move_text(self, state, move) -> str:
        return str(move)

    def parse_move(self, state, text: str):
        text = str(text).strip()
        for move in self.legal_moves(state):
            if self.move_text(state, move) == text:
                return move
        raise ValueError(f"{text!r} is not a legal move here")

    def render(self, state, numbers: bool = False) -> str:
        return str(state)


#: Built-in games: name -> "module:attribute" of the game object (imported when first asked for).
BUILTIN_GAMES = {
    "tictactoe": "evoplay.tictactoe.game:TICTACTOE",
    "checkers": "evoplay.checkers.domain:CHECKERS",
}
#: Installed packages offer games under this entry-point group (name = "package.module:OBJ").
ENTRY_POINT_GROUP = "evoplay.games"
OPENSPIEL_PREFIX = "openspiel:"
#: What every game must have (``BaseGame`` gives the last four their defaults).
REQUIRED = ("initial", "to_move", "legal_moves", "apply", "result", "key", "views",
            "is_capture", "move_text", "parse_move", "render")

_RESOLVED: dict[str, object] = {}


class GameError(EvoplayError):
    """A game reference that names no game, or an object that is not one."""


def resolve_game(ref) -> Game:
    """The game a reference names, the same object for the same reference in one process.

    A reference is a built-in name (``tictactoe``, ``checkers``), ``openspiel:NAME`` with
    OpenSpiel's own parameters (``openspiel:breakthrough(rows=6,columns=6)``), user code
    (``package.module:OBJ`` or ``path/to/file.py:OBJ``: an instance, or a class made with
    no arguments), or the name of an installed package's entry point in the group
    ``evoplay.games``. The game's ``ref`` (``game_ref``) rebuilds it anywhere: a file path
    is made absolute, and Ray workers get user files' sources through ``evoplay.usercode``.
    """
    if not isinstance(ref, str):
        if all(hasattr(ref, name) for name in REQUIRED):
            return ref
        raise GameError(f"a game reference must be text, got {type(ref).__name__}")
    text = ref
    if text in _RESOLVED:
        return _RESOLVED[text]
    check_text(text)
    game, canonical = _load(text)
    _check(game, text)
    if not isinstance(getattr(game, "name", None), str):
        game.name = canonical
    if getattr(game, "side_names", None) is None:
        game.side_names = ("first", "second")
    if not isinstance(getattr(game, "ref", None), str):
        try:
            game.ref = canonical
        except AttributeError:
            raise GameError(f"game {text!r}: cannot set its 'ref' attribute (give the object a 'ref')") from None
    _RESOLVED[text] = _RESOLVED[game.ref] = game
    return game


get_game = resolve_game


def is_code_ref(text: str) -> bool:
    """Whether a game reference names code to load (``module:OBJ``, ``file.py:OBJ``), not a
    built-in, an OpenSpiel game or an entry point."""
    from evoplay import usercode

    text = text.strip()
    return not text.startswith(OPENSPIEL_PREFIX) and text not in BUILTIN_GAMES and usercode.is_ref(text)


def resolve_data_game(ref: str) -> Game:
    """The game a data file (a player file, a checkpoint) names, without running new code:
    a built-in, an OpenSpiel game or an installed entry point, or user code only when this
    process has already resolved that reference (named by a config or ``--game``)."""
    if isinstance(ref, str) and is_code_ref(ref) and ref not in _RESOLVED:
        raise GameError(f"names the game {ref!r}, user code that a data file may not load by itself "
                        "(name the game first, e.g. --game)")
    return resolve_game(ref)


def check_text(text: str) -> None:
    """Refuse a reference with whitespace around it or a character that prints nothing (a
    newline, a tab, a control character): the game it names is not what it says."""
    if text != text.strip() or not text.isprintable():
        raise GameError(f"game reference {_shown(text)} has whitespace around it or a character that is not printable")


def _shown(text: str) -> str:
    """``text`` quoted on one line, cut to 60 characters (an error line, not a page)."""
    return repr(text) if len(text) <= 60 else f"{text[:60]!r}... ({len(text)} characters)"


def _load(text: str):
    """(game object, canonical reference) for a reference's text."""
    from evoplay import usercode

    if not text:
        raise GameError("empty game reference")
    if text in BUILTIN_GAMES:
        module, _, attr = BUILTIN_GAMES[text].partition(":")
        return getattr(importlib.import_module(module), attr), text
    if text.startswith(OPENSPIEL_PREFIX):
        from evoplay.openspiel.game import load

        try:
            game = load(text[len(OPENSPIEL_PREFIX):])
        except EvoplayError as e:  # a GameError, so that a player file naming it says which file
            raise GameError(str(e)) from None
        return game, game.ref
    if usercode.is_ref(text):
        canonical = usercode.absolute_ref(text) if text.partition(":")[0].endswith(".py") else text
        obj = usercode.load(canonical, "game")
        if isinstance(obj, type):
            try:
                obj = obj()
            except Exception as e:
                raise GameError(f"game {text!r}: making {obj.__name__}() failed: {type(e).__name__}: {e}") from None
        return obj, canonical
    entry = _entry_points().get(text)
    if entry is not None:
        try:
            obj = entry.load()
        except Exception as e:
            raise GameError(f"game {text!r}: loading entry point {entry.value} failed: {type(e).__name__}: {e}") from None
        return (obj() if isinstance(obj, type) else obj), text
    known = ", ".join([*BUILTIN_GAMES, *sorted(_entry_points())])
    raise GameError(f"unknown game {_shown(text)} (known: {known}; or openspiel:NAME, package.module:OBJ, path/to/file.py:OBJ)")


def _entry_points() -> dict:
    from importlib.metadata import entry_points

    return {e.name: e for e in entry_points(group=ENTRY_POINT_GROUP)}


def _check(game, text: str):
    missing = [name for name in REQUIRED if not callable(getattr(game, name, None))]
    if missing:
        raise GameError(f"game {text!r} is not a game: {type(game).__name__} has no {', '.join(missing)} "
                        "(see evoplay.games.Game; evoplay.games.BaseGame gives defaults)")
    names = getattr(game, "side_names", ("first", "second"))
    if not (isinstance(names, (tuple, list)) and len(names) == 2 and all(isinstance(n, str) for n in names)):
        raise GameError(f"game {text!r}: side_names must be two strings")


def game_ref(game) -> str:
    """The reference that rebuilds ``game`` (on any node): its ``ref``, else its ``name``."""
    return getattr(game, "ref", None) or game.name


def capability(game, name: str, default=None):
    """An optional part of a game (title, board_shape, players, ...), or ``default``."""
    return getattr(game, name, default)


def play_out(game: Game, state, rng: np.random.Generator, max_plies: int = 10_000) -> list:
    """The states of a uniformly random game from ``state`` to its end (for tests and openings)."""
    states = [state]
    while game.result(state) is None and len(states) <= max_plies:
        moves = game.legal_moves(state)
        state = game.apply(state, moves[rng.integers(len(moves))])
        states.append(state)
    return states
