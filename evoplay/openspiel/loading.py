"""Reading and checking an OpenSpiel game string before evoplay plays its game: the
parameters given, the game's eligibility and a trial of it, apart from the adapter
(``evoplay.openspiel.game``) that plays the game once it passes.

``load(text)`` (in ``evoplay.openspiel.game``) takes OpenSpiel's own game string
(``connect_four``, ``breakthrough(rows=6,columns=6)``, with or without the ``openspiel:``
prefix) and returns an ``OpenSpielGame`` when ``load_checked(text)`` here finds the game
sequential, deterministic, of perfect information, zero-sum (or constant-sum: only the
difference of the two returns is read), for exactly two players, and with an observation
tensor; otherwise it raises ``EvoplayError`` naming each property that fails.
``eligible_games()`` lists the registered games that load so with their default parameters.
``load_checked`` also tries the game (``evoplay.openspiel.probe``: its size bounded, its
first moves played) and refuses one that OpenSpiel accepts but cannot play; a game given
parameters that differ from its defaults is tried first in a child process (``_tried``),
since some crash the process or take minutes to load. A parameter given twice is refused
(OpenSpiel would keep the last).

Loading silences the process's stdout and stderr (file descriptors 1 and 2) for the
moment ``pyspiel.load_game`` runs: OpenSpiel's C++ prints every exception it raises, and
quoridor's warning, there.

Names. A game is named ``openspiel:`` + its short name, followed by the parameters given
that differ from their defaults, sorted, in OpenSpiel's syntax (``canonical_text``):
``openspiel:connect_four``, ``openspiel:breakthrough(columns=6,rows=6)``. The name loads
the same game again (``load(game.name)``) and is also ``game.ref``.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import os
import re
import signal
import subprocess
import sys

from evoplay.errors import EvoplayError
from evoplay.openspiel import probe

PREFIX = "openspiel:"
#: Seconds a child process has to load a game given parameters and play its first moves.
CHECK_SECONDS = 10

_INSTALL = "pip install open_spiel, or the extra evoplay[openspiel]"


def _pyspiel():
    # An optional extra (evoplay[openspiel]), not a dependency: imported by name when a game
    # is loaded, so that evoplay installs, imports and runs without it.
    try:
        pyspiel = importlib.import_module("pyspiel")
    except ImportError as e:
        raise EvoplayError(f"OpenSpiel games need open_spiel, which is not installed ({_INSTALL}): {e}") from None
    return pyspiel


@contextlib.contextmanager
def _quiet():
    """Silence the process's stdout and stderr: OpenSpiel's C++ prints each exception it
    raises (and some warnings) there before Python sees them."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    saved = [os.dup(1), os.dup(2)]
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        os.close(null)
        yield
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(saved[0])
        os.close(saved[1])


def _one_line(error: BaseException | str) -> str:
    """The first line of an error (or of a text), at most 300 characters, without the folders
    of a C++ source file it names."""
    text = " ".join(str(error).split("\n", 1)[0].split()) or type(error).__name__
    text = re.sub(r"^\S*/(?=\w+\.cc:\d+ )", "", text)
    if text.startswith("Unknown parameter") and "Available parameters are:" in text:
        head, _, names = text.partition("Available parameters are:")
        text = head + "available parameters: " + (names.strip() or "none")
    return text[:300]


def _ineligible(game) -> list[str]:
    """What keeps a loaded pyspiel game out: one phrase per failing property."""
    pyspiel = _pyspiel()
    T = pyspiel.GameType
    t = game.get_type()
    problems = []
    if t.dynamics != T.Dynamics.SEQUENTIAL:
        problems.append(f"moves are not sequential (dynamics {t.dynamics.name})")
    if t.chance_mode != T.ChanceMode.DETERMINISTIC:
        problems.append(f"it has chance events (chance mode {t.chance_mode.name}, not DETERMINISTIC)")
    if t.information != T.Information.PERFECT_INFORMATION:
        problems.append(f"information is not perfect ({t.information.name})")
    if t.utility not in (T.Utility.ZERO_SUM, T.Utility.CONSTANT_SUM):
        problems.append(f"it is not zero-sum (utility {t.utility.name})")
    if game.num_players() != 2:
        problems.append(f"it has {game.num_players()} players, not 2")
    if not t.provides_observation_tensor:
        problems.append("it has no observation tensor")
    return problems


def _items(text: str) -> list[str]:
    """The parameters written in a game string ``name(a=1,b=x(c=2))``, as written: ``a=1``, ``b=x(c=2)``."""
    inner = text[text.find("(") + 1 : text.rfind(")")] if "(" in text else ""
    items, depth, start = [], 0, 0
    for i, ch in enumerate(inner + ","):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            items.append(inner[start:i])
            start = i + 1
    return items


def _given_parameters(text: str) -> list[str]:
    """Names of the parameters written in a game string ``name(a=1,b=x(c=2))``."""
    return [item.split("=", 1)[0].strip() for item in _items(text) if "=" in item]


def _format(value) -> str:
    if isinstance(value, bool):
        return "True" if value else "False"
    return repr(value) if isinstance(value, float) else str(value)


def canonical_text(game) -> str:
    """OpenSpiel's game string of ``game`` with only the parameters given that differ from
    their defaults, sorted: ``connect_four``, ``breakthrough(columns=6,rows=6)``."""
    t = game.get_type()
    params, spec = game.get_parameters(), t.parameter_specification
    kept = sorted(k for k in _given_parameters(str(game)) if k in params and (k not in spec or params[k] != spec[k]))
    if not kept:
        return t.short_name
    return f"{t.short_name}({','.join(f'{k}={_format(params[k])}' for k in kept)})"


def load_checked(text: str):
    """The ``pyspiel.Game`` written ``text`` (OpenSpiel's game string, ``openspiel:`` optional),
    checked and tried before it is returned (``evoplay.openspiel.probe``): given parameters that differ
    from its defaults, first in a child process (see ``_tried``), then here in any case."""
    pyspiel = _pyspiel()
    text = str(text).strip()
    if text.startswith(PREFIX):
        text = text[len(PREFIX) :].strip()
    short = text.split("(", 1)[0].strip()
    if not short:
        raise EvoplayError("no OpenSpiel game named (write e.g. openspiel:connect_four)")
    if short not in pyspiel.registered_names():
        raise EvoplayError(
            f"unknown OpenSpiel game {short!r} (evoplay.openspiel.eligible_games() lists those evoplay can play)"
        )
    changed = _changed(short, _parameters(text))
    if changed:
        _refuse_unless_ok(text, changed, _tried(text))  # before pyspiel can crash or stall this process
    try:
        with _quiet():
            game = pyspiel.load_game(text)
    except Exception as e:  # pyspiel.SpielError (a RuntimeError), and a few wrappers' IndexError
        raise EvoplayError(f"OpenSpiel game {text!r}: {_one_line(e)}") from None
    problems = _ineligible(game)
    if problems:
        raise EvoplayError(f"OpenSpiel game {text!r} cannot be played here: {'; '.join(problems)}")
    try:
        with _quiet():
            found = probe.problem(game)
    except Exception as e:
        found = _one_line(e)
    _refuse_unless_ok(text, changed, found or "ok")
    return game



def _parameters(text: str) -> dict:
    """The parameters written in the game string ``text``, as pyspiel reads them; refused
    when one is given twice (pyspiel would keep the last) or text follows the closing bracket
    (pyspiel would ignore it)."""
    names = _given_parameters(text)
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise EvoplayError(f"OpenSpiel game {text!r}: parameter {twice[0]!r} given twice")
    try:
        with _quiet():
            params = _pyspiel().game_parameters_from_string(text)
    except Exception as e:  # pyspiel.SpielError: a missing bracket, an integer beyond 64 bits
        items = [item for item in _items(text) if item] if _closing(text) >= 0 else []
        given = f" with {', '.join(items)}" if items else ""
        raise EvoplayError(f"OpenSpiel game {text!r} refused{given}: {_one_line(e)}") from None
    if "(" in text and _closing(text) != len(text) - 1:
        raise EvoplayError(f"OpenSpiel game {text!r}: text after its closing bracket")
    params.pop("name", None)
    return params


def _closing(text: str) -> int:
    """Index of the bracket that closes the first '(' of ``text`` (-1 when none does)."""
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if ch == ")" and depth == 0:
            return i
    return -1


def _changed(short: str, params: dict) -> dict:
    """The parameters of ``params`` that differ from game ``short``'s defaults, in value or type."""
    spec = _defaults()[short]
    return {k: v for k, v in params.items() if k not in spec or type(v) is not type(spec[k]) or v != spec[k]}


@functools.cache
def _defaults() -> dict:
    """Short name -> the default parameters of every registered OpenSpiel game."""
    return {t.short_name: t.parameter_specification for t in _pyspiel().registered_games()}


@functools.cache
def _tried(text: str) -> str:
    """``ok``, or what is wrong with the OpenSpiel game ``text``: found by ``probe`` in a child
    process of at most ``probe.MEMORY`` bytes and ``CHECK_SECONDS`` seconds, so that no crash
    of OpenSpiel (``connect_four(rows=0)`` is a segmentation fault) and no game too large to
    load ends or stalls this process. Once per game string in a process (about 0.1 s)."""
    command = [sys.executable, "-P", probe.__file__, text]  # -P: no folder of the user's on sys.path
    try:
        done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=CHECK_SECONDS)
    except subprocess.TimeoutExpired:
        return f"too large: not loaded and tried within {CHECK_SECONDS} s"
    except OSError as e:
        return f"no process could be started to try it: {e}"
    if done.returncode < 0:
        return f"OpenSpiel crashed trying it ({signal.Signals(-done.returncode).name})"
    lines = done.stdout.strip().splitlines()
    if done.returncode or not lines:
        return f"the process trying it failed (exit code {done.returncode})"
    return lines[-1]


def _refuse_unless_ok(text: str, changed: dict, verdict: str) -> None:
    """Raise EvoplayError naming the parameters given and the verdict, unless it is ``ok``."""
    if verdict == "ok":
        return
    given = f" with {', '.join(f'{k}={_format(v)}' for k, v in sorted(changed.items()))}" if changed else ""
    raise EvoplayError(f"OpenSpiel game {text!r} refused{given}: {_one_line(verdict)}")


@functools.cache
def _eligible() -> tuple[str, ...]:
    pyspiel = _pyspiel()
    names = []
    for name in pyspiel.registered_names():
        try:
            with _quiet():
                game = pyspiel.load_game(name)
        except Exception:  # games that need parameters (wrappers, files)
            continue
        if not _ineligible(game):
            names.append(name)
    return tuple(sorted(names))


def eligible_games() -> list[str]:
    """Short names of the registered OpenSpiel games that load with their default
    parameters and that evoplay can play (see ``load_checked``)."""
    return list(_eligible())
