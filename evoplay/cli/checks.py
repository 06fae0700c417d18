"""Checks the commands make before any work: numbers in range, output locations writable.

Bad input is refused with one line (``EvoplayError`` or a click usage error, exit 2),
before a command trains, plays or reads anything big; a write that still fails (a disk
filling up meanwhile) is reported the same way by ``writing``.
"""

from __future__ import annotations

import contextlib
import errno
import math
import os
import stat
from pathlib import Path

import click

from evoplay.errors import EvoplayError
from evoplay.files.paths import check_path, path_problem, probe_writable
from evoplay.files.plainnum import parse_float, parse_int
from evoplay.arena.players import quoted as shorten

#: Free bytes an output location needs at least (a curve or a player file is well below).
MIN_FREE_BYTES = 4 << 20


class BoundedInt(click.ParamType):
    """An integer in ``lo..hi``, written as a plain ASCII decimal (``evoplay.files.plainnum``: no
    blanks, ``+`` or ``_``); the message quotes at most a short prefix of the input."""

    name = "integer"

    def __init__(self, lo: int, hi: int | None = None):
        self.lo, self.hi = lo, hi

    def _range(self) -> str:
        hi = self.hi
        if hi is None:
            return f">= {self.lo}"
        return f"{self.lo}..{hi:,}" if hi >= 10**6 else f"{self.lo}..{hi}"

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            try:  # a '-' only where negatives make sense: '-0' is no seed
                number = parse_int(str(value), negative=self.lo < 0)
            except ValueError:
                self.fail(f"{shorten(value)} is not an integer {self._range()}", param, ctx)
        if number < self.lo or (self.hi is not None and number > self.hi):
            self.fail(f"{shorten(value)} is not in {self._range()}", param, ctx)
        return number


class FiniteFloat(click.ParamType):
    """A finite number in ``[lo, hi]``, a plain ASCII decimal (NaN and infinities are refused)."""

    name = "number"

    def __init__(self, lo: float, hi: float):
        self.lo, self.hi = lo, hi

    def convert(self, value, param, ctx):
        try:
            number = parse_float(value)
        except ValueError:
            self.fail(f"{shorten(value)} is not a number", param, ctx)
        if not math.isfinite(number) or not self.lo <= number <= self.hi:
            self.fail(f"{shorten(value)} is not a finite number in [{self.lo:g}, {self.hi:g}]", param, ctx)
        return number


class PathArg(click.Path):
    """A ``click.Path`` that first refuses what no file system can hold (``evoplay.files.paths``)."""

    def convert(self, value, param, ctx):
        problem = path_problem(os.fspath(value))
        if problem is not None:
            self.fail(f"{shorten(value)} {problem}", param, ctx)
        return super().convert(value, param, ctx)


def _existing_ancestor(path: Path) -> Path:
    p = path.parent
    while not p.exists() and p != p.parent:
        p = p.parent
    return p


def check_output(path, what: str = "--out", suffixes=None, need_bytes: int = MIN_FREE_BYTES) -> Path:
    """The output ``path``, refused now (one line) if the command could not write it later.

    Refused: an extension outside ``suffixes``; a directory, a device such as /dev/null or
    anything else that is not a regular file; a parent that is not a directory or cannot
    be written to (a probe file is created and removed); less than ``need_bytes`` free.
    """
    path = check_path(path, what)
    where = f"{what} {path}"
    if suffixes is not None and path.suffix.lower() not in suffixes:
        raise EvoplayError(f"{where}: the file name must end in {', '.join(suffixes)}")
    if os.path.lexists(path):
        try:
            mode = os.stat(path).st_mode
        except OSError as e:
            raise EvoplayError(f"{where}: {e.strerror}") from None
        if stat.S_ISDIR(mode):
            raise EvoplayError(f"{where} is a directory; name a file")
        if not stat.S_ISREG(mode):
            raise EvoplayError(f"{where} is not a regular file (a device or a pipe); name a file")
    base = _existing_ancestor(path)
    if not base.is_dir():
        raise EvoplayError(f"{where}: {base} is not a directory")
    try:
        probe_writable(base)
    except OSError as e:
        raise EvoplayError(f"{where}: cannot write in {base}: {e.strerror}") from None
    try:
        vfs = os.statvfs(base)
    except OSError:
        return path
    free = vfs.f_bavail * vfs.f_frsize
    if free < need_bytes:
        raise EvoplayError(f"{where}: only {free} bytes free on its disk, {need_bytes} needed")
    return path


@contextlib.contextmanager
def writing(path):
    """Turn a failed write of ``path`` (disk full, permissions) into a one-line error."""
    try:
        yield
    except OSError as e:
        reason = e.strerror or str(e)
        if e.errno == errno.ENOSPC:
            reason = "no space left on the disk"
        raise EvoplayError(f"cannot write {path}: {reason}") from None


#: What ``--game REF`` says on every command that plays, or reads player files or runs.
GAME_WORDS = ("The game: tictactoe, checkers, openspiel:NAME(params), package.module:OBJ or path/to/file.py:OBJ. A game "
              "file of your own is named at its current place, also for a run or player file moved with it (a player "
              "file or run never loads code by itself)")


def game_option(default: str = "the game the player files or runs name, else tictactoe", multiple: bool = False):
    """The ``--game REF`` option, in the same words on every command (``GAME_WORDS``): one
    game (``game_name``), or with ``multiple`` every game named (``games``, for ``serve``)."""
    return click.option("--game", "games" if multiple else "game_name", multiple=multiple, default=() if multiple else None,
                        metavar="REF", help=f"{GAME_WORDS} [default: {default}].")


def name_game(game_name: str | None):
    """The game of ``--game`` (None where not given), resolved first, so that the runs and
    player files read next find it: a game file of the user's own, maybe at its new place
    (``evoplay.games.resolve_data_game``); a command checks it against what they recorded."""
    if game_name is None:
        return None
    from evoplay.games import resolve_game

    return resolve_game(game_name)
