"""A user's game held to the game protocol (``evoplay.arena.game.Game``), with one line for a break.

evoplay's own games are tested; a game from user code (a file, a module, an installed
entry point) is not, so ``check`` gives it a short seeded conformance run when it is
resolved, before any long work: its ``max_plies`` and its methods' signatures, a few
random playouts checking ``to_move``, ``result``, ``legal_moves``, ``apply`` and ``key`` at
every position, then ``views``' shapes over the positions seen. What that run misses is caught at the move where it happens: the one game
loop (``evoplay.arena.match.play_game``) hands an exception to ``fault``, which names the
break. Every refusal is one ``GameError`` line naming the file, the line and the method,
and the position as the game renders it.
"""

from __future__ import annotations

import inspect
import numbers
import time
import traceback

import numpy as np

from evoplay.arena.game import DEFAULT_MAX_PLIES, capability, game_ref, unwrapped
from evoplay.errors import GameError
from evoplay.files.usercode import is_user_file, raised

#: The conformance run: random playouts, the most plies of each, the seed of their moves.
PLAYOUTS, PLAYOUT_PLIES, SEED = 4, 100, 0
#: Its time bound in seconds (a slow game is checked on fewer positions, not waited for).
SECONDS = 1.0
#: The largest ``max_plies`` a game may declare: a million plies of random play take
#: seconds, so a game that never ends still gives a match in bounded time.
MOST_PLIES = 1_000_000
#: Most positions whose views are compared one by one.
VIEW_STATES = 16
#: Longest piece of a user's text (an exception's message, a position) in a message.
SHOWN = 120
#: What a user's method may raise that becomes one line (Ctrl-C stays an interruption).
RAISED = (Exception, SystemExit)


def is_foreign(game) -> bool:
    """Whether ``game`` comes from outside evoplay (user code, an installed package)."""
    return type(unwrapped(game)).__module__.split(".")[0] != "evoplay"


def check(game) -> None:
    """Refuse, in one line, a game that breaks the protocol on ``PLAYOUTS`` seeded random
    playouts of at most ``PLAYOUT_PLIES`` plies each (within about ``SECONDS``), or whose
    ``views`` change shape between the positions seen, or whose ``max_plies`` is no count."""
    _check_max_plies(game)
    _check_signatures(game)
    rng = np.random.default_rng(SEED)
    started = time.perf_counter()
    seen = []
    for _ in range(PLAYOUTS):
        state = call(game, "initial")
        for plies in range(PLAYOUT_PLIES):
            seen.append(state)
            moves = legal_or_none(game, state, plies)
            if moves is None:
                if plies == 0:
                    raise broken(game, "result", "says the game is over at its initial position", state, 0)
                break
            key = call(game, "key", state, plies=plies)
            child = call(game, "apply", state, moves[int(rng.integers(len(moves)))], plies=plies)
            if call(game, "key", state, plies=plies) != key:
                raise broken(game, "apply", "changed the position it was given (it must return a new one)", state, plies)
            state = child
        if time.perf_counter() - started > SECONDS:
            break
    _check_views(game, seen)


def legal_or_none(game, state, plies: int | None = None):
    """The legal moves of ``state`` while the game is on, None once it is over; a GameError
    where ``to_move``, ``result``, ``key`` or ``legal_moves`` breaks the protocol there."""
    side = call(game, "to_move", state, plies=plies)
    if not _one_of(side, (0, 1)):
        raise broken(game, "to_move", f"returned {_short(repr(side))}, not 0 or 1", state, plies)
    result = call(game, "result", state, plies=plies)
    if result is not None and not _one_of(result, (-1, 0, 1)):
        raise broken(game, "result", f"returned {_short(repr(result))}, not None, -1, 0 or 1", state, plies)
    try:
        hash(call(game, "key", state, plies=plies))
    except TypeError:
        raise broken(game, "key", "returned a value that cannot be hashed", state, plies) from None
    if result is not None:
        return None
    moves = call(game, "legal_moves", state, plies=plies)
    try:
        count = len(moves)
        if count:
            moves[0]
    except (TypeError, KeyError, IndexError):
        raise broken(game, "legal_moves", f"returned a {type(moves).__name__}, not a list", state, plies) from None
    if not count:
        raise broken(game, "legal_moves", "returned no move while result is None (the game is on)", state, plies)
    return moves


def fault(game, state, plies: int, error: BaseException) -> GameError | None:
    """The one line for ``error``, raised while a user's game was played at ``state``: the
    protocol break found there, else the line of the user's code it came from; None where
    the game is evoplay's own or the error did not come from the game (a bug to show)."""
    if not is_foreign(game):
        return None
    try:
        legal_or_none(game, state, plies)
    except GameError as found:
        return found
    frame = _user_frame(error)
    if frame is None:
        return None
    return _refusal(game, f"{frame.filename}:{frame.lineno}", f"{frame.name}: {_short(raised(error))}", state, plies, "failed")


def call(game, method: str, *args, plies: int | None = None):
    """``game.method(*args)``, where an exception (or ``sys.exit``) inside it is a GameError
    naming the user's line that raised it (the method's own line if none) and the position."""
    try:
        return getattr(game, method)(*args)
    except RAISED as e:
        frame = _user_frame(e)
        where = f"{frame.filename}:{frame.lineno}" if frame else defined_at(getattr(game, method))
        state = args[0] if args and method != "views" else None
        raise _refusal(game, where, f"{type(unwrapped(game)).__name__}.{method}: {_short(raised(e))}", state, plies, "failed") from None


def broken(game, method: str, what: str, state=None, plies: int | None = None) -> GameError:
    """The line for ``method`` breaking the protocol: where it is written, what it did, where."""
    return _refusal(game, defined_at(getattr(game, method)), f"{type(unwrapped(game)).__name__}.{method} {what}", state, plies)


def defined_at(thing) -> str:
    """``file:line`` where a function or class is written (its name where that is unknown)."""
    try:
        return f"{inspect.getsourcefile(thing)}:{inspect.getsourcelines(thing)[1]}"
    except (OSError, TypeError):
        return _short(repr(thing))


def _refusal(game, where: str, what: str, state, plies, verb: str = "breaks the game protocol") -> GameError:
    at = "" if plies is None else f" after {plies} plies"
    shown = _position(game, state) if state is not None else None
    return GameError(f"game {game_ref(game)} {verb}: {where}: {what}"
                     + (f" (position{at}: {shown})" if shown else f" ({at.strip()})" if at else ""))


def _position(game, state) -> str | None:
    """The position as the game renders it, on one line; None where it cannot render it."""
    try:
        text = game.render(state)
    except RAISED:
        return None
    return _short(" / ".join(str(text).splitlines())) if isinstance(text, str) else None


def _check_max_plies(game) -> None:
    limit = capability(game, "max_plies")
    if limit is not None and not (isinstance(limit, numbers.Integral) and not isinstance(limit, bool)
                                  and 1 <= limit <= MOST_PLIES):
        raise GameError(f"game {game_ref(game)}: max_plies must be a whole number of plies in 1..{MOST_PLIES:,} "
                        f"(or None for the default {DEFAULT_MAX_PLIES:,}), got {_short(repr(limit))}")


#: How evoplay calls each method of a game.
CALLS = {"initial": "", "to_move": "state", "legal_moves": "state", "apply": "state, move", "result": "state",
         "key": "state", "views": "states", "is_capture": "state, move", "move_text": "state, move",
         "parse_move": "state, text", "render": "state, numbers=True"}


def _check_signatures(game) -> None:
    """Every method takes the arguments evoplay passes it (``render(state, numbers=True)``...)."""
    for method, arguments in CALLS.items():
        try:
            signature = inspect.signature(getattr(game, method))
        except (TypeError, ValueError):  # a builtin without a signature: called as it is
            continue
        names = [a for a in arguments.split(", ") if a]
        try:
            signature.bind(*[a for a in names if "=" not in a], **{a.split("=")[0]: True for a in names if "=" in a})
        except TypeError as e:
            raise broken(game, method, f"cannot be called as {method}({arguments}): {e}") from None


def _check_views(game, states: list) -> None:
    """One width for every position: the batch is (positions, width) numbers, and each
    position's own row has that width."""
    batch = _array(game, states)
    if batch.ndim != 2 or batch.shape[0] != len(states) or batch.shape[1] < 1:
        raise broken(game, "views", f"of {len(states)} positions returned shape {batch.shape}, not ({len(states)}, width)")
    width = batch.shape[1]
    declared = capability(game, "view_size")
    if declared is not None and declared != width:
        raise broken(game, "views", f"returned rows of {width} numbers, but view_size is {_short(repr(declared))}")
    step = max(1, len(states) // VIEW_STATES)
    for state in states[::step]:
        one = _array(game, [state])
        if one.shape != (1, width):
            raise broken(game, "views", f"returned {width} numbers a row for the positions seen and shape {one.shape} for "
                         "one of them: a network needs one width at every position", state)


def _array(game, states: list) -> np.ndarray:
    """``views(states)`` as an array of finite numbers, or the line saying why not."""
    try:
        batch = np.asarray(call(game, "views", states))
        ok = np.issubdtype(batch.dtype, np.number) or batch.dtype == bool
    except ValueError:  # rows of different lengths
        raise broken(game, "views", "returned rows of different lengths: a network needs one width at every position") from None
    if not ok:
        raise broken(game, "views", f"returned {batch.dtype} values, not numbers")
    if not np.isfinite(batch).all():
        raise broken(game, "views", "returned a value that is not a finite number")
    return batch


def _one_of(value, allowed: tuple) -> bool:
    return isinstance(value, numbers.Real) and value in allowed


def _user_frame(error: BaseException):
    """The innermost frame of the error's traceback in the user's code, or None."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if is_user_file(f.filename)]
    return frames[-1] if frames else None


def _short(text: str) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= SHOWN else f"{text[:SHOWN]}... ({len(text)} characters)"
