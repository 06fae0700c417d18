"""The one place a game reference is resolved, and the game interface users write against.

``resolve_game`` turns a reference (a built-in name, ``openspiel:NAME(params)``, user code,
an installed entry point) into a game object; ``Game`` and ``BaseGame`` (defined in
``evoplay.arena.game``, with everything search and matches ask of a game) are re-exported
here as the public face for a user's own game.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from evoplay import context
from evoplay.context import reading_data
from evoplay.arena.game import REQUIRED, BaseGame, Game, Labelled, game_ref
from evoplay.errors import EvoplayError, GameError

__all__ = ["Game", "BaseGame", "GameError", "resolve_game", "resolve_data_game", "is_code_ref", "game_digest",
           "reading_data"]


#: Built-in games: name -> "module:attribute" of the game object (imported when first asked for).
BUILTIN_GAMES = {
    "tictactoe": "evoplay.tictactoe.game:TICTACTOE",
    "checkers": "evoplay.checkers.game:CHECKERS",
}
#: Installed packages offer games under this entry-point group (name = "package.module:OBJ").
ENTRY_POINT_GROUP = "evoplay.games"
OPENSPIEL_PREFIX = "openspiel:"


def resolve_game(ref) -> Game:
    """The game a reference names, the same object for the same reference in one process.

    A reference is a built-in name (``tictactoe``, ``checkers``), ``openspiel:NAME`` with
    OpenSpiel's own parameters (``openspiel:breakthrough(rows=6,columns=6)``), user code
    (``package.module:OBJ`` or ``path/to/file.py:OBJ``: an instance, or a class made with
    no arguments), or the name of an installed package's entry point in the group
    ``evoplay.games``. The game's ``ref`` (``game_ref``) rebuilds it anywhere: a file path
    is made absolute, and Ray workers get user files' sources through ``evoplay.files.usercode``.
    """
    if not isinstance(ref, str):
        if all(hasattr(ref, name) for name in REQUIRED):
            return ref
        raise GameError(f"a game reference must be text, got {type(ref).__name__}")
    text = ref
    resolved = context.current().games
    if text in resolved:
        return resolved[text]
    check_text(text)
    if context.current().reading_data and is_code_ref(text):  # a run's stored config: the game must have been named
        return resolve_data_game(text)
    moved = _stand_in(text) if is_code_ref(text) and not Path(text.rpartition(":")[0]).exists() else None
    if moved is not None:  # a run's config naming its game file where it was before the run moved
        return moved
    game, canonical = _load(text)
    _check(game, text)
    game = _label(game, text, canonical)
    from evoplay.arena import gamecheck

    if gamecheck.is_foreign(game):  # user code: a short conformance run before any long work
        gamecheck.check(game)
    resolved[text] = resolved[game.ref] = game
    return game


def _label(game, text: str, canonical: str):
    """The game with the ``name``, ``side_names`` and ``ref`` evoplay gives a game lacking
    them: the game itself where it has all three, else a ``Labelled`` game around it (the
    user's object is not written to; a class with ``__slots__`` plays as well)."""
    given = {"name": canonical, "side_names": ("first", "second"), "ref": canonical}
    lacking = {"name": not isinstance(getattr(game, "name", None), str),
               "side_names": getattr(game, "side_names", None) is None,
               "ref": not isinstance(getattr(game, "ref", None), str)}
    missing = {a: given[a] for a, lacks in lacking.items() if lacks}
    return Labelled(game, **missing) if missing else game


def is_code_ref(text: str) -> bool:
    """Whether a game reference names code to load (``module:OBJ``, ``file.py:OBJ``), not a
    built-in, an OpenSpiel game or an entry point."""
    from evoplay.files import usercode

    text = text.strip()
    return not text.startswith(OPENSPIEL_PREFIX) and text not in BUILTIN_GAMES and usercode.is_ref(text)


def resolve_data_game(ref: str, sha256: str | None = None) -> Game:
    """The game a data file (a player file, a checkpoint, a run's summary) names, without
    running new code: a built-in, an OpenSpiel game or an installed entry point, or user code
    only when this process has already resolved that reference (named by a config or
    ``--game``). ``sha256``, the digest of the game file the data file recorded
    (``game_digest``), is compared with the file's now: a file changed since is said in one
    warning line on stderr (``check_digest``), and the game is used as it is now."""
    if isinstance(ref, str) and is_code_ref(ref) and ref not in context.current().games:
        named = _stand_in(ref, sha256)
        if named is None:
            raise GameError(unnamed_game(ref, sha256))
    else:
        named = resolve_game(ref)
    check_digest(named, ref, sha256)
    return named


def game_digest(game) -> str | None:
    """The sha256 (hex) of the bytes of a user's game file, as this process loaded it: what
    a run's summary and its player files record (``game_sha256``) of a game of the user's
    own, to tell whether the file changed since. None for a built-in, an OpenSpiel game or
    an installed package's."""
    from evoplay.files import usercode

    ref = game_ref(game) if not isinstance(game, str) else game
    return usercode.source_digest(ref) if is_code_ref(ref) else None


def check_digest(game, ref: str, sha256: str | None) -> None:
    """Warn in one line on stderr, once per process, when the game file a data file recorded
    (``sha256`` of ``ref``'s file) differs from ``game``'s file now; nothing to check when
    no digest was recorded (a file written before digests were, or not a user's game).

    A warning, not a refusal: a changed file is often harmless (a comment, a rendering, a
    fix to a method the network never needed), a network whose inputs no longer fit the
    game's views is refused by its loader anyway, and a refusal would lock a user out of
    their own results until they restored the old bytes."""
    warned = context.current().warned
    if not sha256 or (ref, sha256) in warned:
        return
    now = game_digest(game)
    if now is None or now == sha256:
        return
    warned.add((ref, sha256))
    import sys

    print(f"evoplay: warning: the game file {game_ref(game).rpartition(':')[0]} has changed since a run or player file "
          f"recorded it (sha256 {sha256[:12]}... then, {now[:12]}... now): what they say of the game may no longer hold",
          file=sys.stderr)


def _stand_in(ref: str, sha256: str | None = None):
    """The game this process resolved (named with ``--game``) that stands for ``ref``, a game
    file a run directory or player file recorded, moved since with it (to another folder or
    machine, maybe renamed): the named game whose file has the digest recorded (``sha256``),
    the same bytes. Without a recorded digest (files from before digests were), a file of the
    same name holding an object of the same name. None if none: a file of the same names but
    other bytes is another game, not this one changed."""
    path, _, obj = ref.rpartition(":")
    if not path.endswith(".py"):
        return None
    if sha256:
        same = [game for key, game in context.current().games.items() if is_code_ref(key) and key.rpartition(":")[2] == obj
                and game_digest(key) == sha256]
    else:
        same = [game for key, game in context.current().games.items()
                if key.endswith(".py:" + obj) and Path(key.rpartition(":")[0]).name == Path(path).name]
    return same[0] if same else None


def unnamed_game(ref: str, sha256: str | None = None) -> str:
    """The one message for a data file (a run, a player file) whose game of the user's own was
    not named, or not as the file recorded it: what to add, with the text to type."""
    path, _, obj = ref.rpartition(":")
    rule = "a run or player file never loads code by itself"
    here = Path(path).is_file()
    add = f"add --game {ref}" if here else f"add --game NEW/PLACE/{Path(path).name}:{obj}, the file at its new place"
    named = [key for key in context.current().games if is_code_ref(key) and key.rpartition(":")[2] == obj and key != ref]
    if sha256 and named:
        return (f"names the game {ref} (sha256 {sha256[:12]}...){'' if here else ', whose file is no longer there'}, "
                f"and --game {named[0]} is a file of other bytes, another game ({rule}): {add}")
    if not here:
        return f"names the game {ref}, whose file is no longer there ({rule}): {add}"
    return f"names the game {ref}, user code ({rule}): {add}"


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
    from evoplay.files import usercode

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
