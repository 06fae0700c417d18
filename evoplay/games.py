"""The game interface every game implements, and the one place a game reference is resolved.

Two-player, perfect-information, deterministic games, written as pure functions over an
immutable state (as pgx and OpenSpiel games are). Scores are from the view of the side to
move: +1 won, 0 drawn, -1 lost. Search, players and matches are written once against this
protocol; each game package holds only what is particular to it. Every game is bounded:
one still on after ``ply_limit(game)`` plies (its ``max_plies``, else ``DEFAULT_MAX_PLIES``)
is drawn, so no match or evolution waits on a game that never ends.
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
    #: Optional: the most plies of a game; one still on after them is a draw (default
    #: ``DEFAULT_MAX_PLIES``).
    max_plies: int | None

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

#: Most plies of a game that declares no ``max_plies``: five times Blondie24's 200-ply cap
#: and beyond most board games' length (chess averages under 100 moves a side), so it cuts
#: a game that would not end, not a long one; 1,000 random plies take milliseconds.
DEFAULT_MAX_PLIES = 1000

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
    text = ref.strip()
    if text in _RESOLVED:
        return _RESOLVED[text]
    game, canonical = _load(text)
    _check(game, text)
    _label(game, text, canonical)
    from evoplay import gamecheck

    if gamecheck.is_foreign(game):  # user code: a short conformance run before any long work
        gamecheck.check(game)
    _RESOLVED[text] = _RESOLVED[game.ref] = game
    return game


def _label(game, text: str, canonical: str) -> None:
    """Give a game the ``name``, ``side_names`` and ``ref`` it lacks; a game that cannot
    take them (``__slots__`` without them) is refused in one line saying which."""
    missing = {"name": not isinstance(getattr(game, "name", None), str),
               "side_names": getattr(game, "side_names", None) is None,
               "ref": not isinstance(getattr(game, "ref", None), str)}
    values = {"name": canonical, "side_names": ("first", "second"), "ref": canonical}
    for attribute in [a for a, lacking in missing.items() if lacking]:
        try:
            setattr(game, attribute, values[attribute])
        except (AttributeError, TypeError):
            from evoplay.gamecheck import defined_at

            raise GameError(f"game {text!r}: {defined_at(type(game))}: {type(game).__name__} cannot take the attribute "
                            f"{attribute!r} that evoplay gives a game lacking it (its __slots__ leave it out): add "
                            f"{attribute!r} to __slots__, or give the class a {attribute!r}") from None


def ply_limit(game) -> int:
    """The most plies of a game of ``game``: its ``max_plies``, else ``DEFAULT_MAX_PLIES``."""
    return capability(game, "max_plies") or DEFAULT_MAX_PLIES


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
    text = ref.strip() if isinstance(ref, str) else ref
    if isinstance(text, str) and is_code_ref(text) and text not in _RESOLVED:
        raise GameError(f"names the game {text!r}, user code that a data file may not load by itself "
                        "(name the game first, e.g. --game)")
    return resolve_game(text)


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

        game = load(text[len(OPENSPIEL_PREFIX):])
        return game, game.ref
    if usercode.is_ref(text):
        canonical = usercode.absolute_ref(text) if text.partition(":")[0].endswith(".py") else text
        obj = usercode.load(canonical, "game")
        if isinstance(obj, type):
            try:
                obj = obj()
            except usercode.LOADING_FAILURES as e:
                raise GameError(f"game {text!r}: making {obj.__name__}() failed: {usercode.failure(e)}") from None
        return obj, canonical
    entry = _entry_points().get(text)
    if entry is not None:
        try:
            obj = entry.load()
        except usercode.LOADING_FAILURES as e:
            raise GameError(f"game {text!r}: loading entry point {entry.value} failed: {usercode.failure(e)}") from None
        return (obj() if isinstance(obj, type) else obj), text
    known = ", ".join([*BUILTIN_GAMES, *sorted(_entry_points())])
    shown = repr(text) if len(text) <= 60 else f"{text[:60]!r}... ({len(text)} characters)"  # one line, not a page
    raise GameError(f"unknown game {shown} (known: {known}; or openspiel:NAME, package.module:OBJ, path/to/file.py:OBJ)")


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
