"""The one check every path a user names goes through: in a config, a player spec or an argument.

A path no file system can hold (a NUL byte, a character the file-system encoding cannot
write, a name or a path longer than the system allows) is refused here with one line,
before ``open``, ``stat`` or ``realpath`` would turn it into a ``ValueError`` traceback.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from evoplay.errors import EvoplayError

#: Longest file name and longest path, in bytes (the POSIX values on Linux and macOS).
NAME_MAX = 255
PATH_MAX = 4096


def _shown(text: str, limit: int = 60) -> str:
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text)} characters)"


def path_problem(text: str) -> str | None:
    """Why ``text`` can name no file, or None when it can."""
    if "\0" in text:
        return "holds a NUL byte, which no file name can"
    try:
        raw = os.fsencode(text)
    except UnicodeEncodeError as e:
        return f"holds {text[e.start]!r}, which the file-system encoding ({e.encoding}) cannot write"
    if len(raw) >= PATH_MAX:
        return f"is {len(raw)} bytes long; paths stop at {PATH_MAX - 1}"
    if any(len(part) > NAME_MAX for part in raw.split(b"/")):
        return f"has a name longer than {NAME_MAX} bytes"
    return None


def check_path(path, what: str = "path", error: type[EvoplayError] = EvoplayError) -> Path:
    """``path`` as a Path, or ``error`` saying in one line why no file system can hold it."""
    text = os.fspath(path)
    problem = path_problem(text)
    if problem is not None:
        raise error(f"{what} {_shown(text)} {problem}")
    return Path(text)


def read_regular(path, what: str, max_bytes: int, error: type[EvoplayError] = EvoplayError) -> bytes:
    """The bytes of the regular file ``path`` (symlinks followed), read with a bound; one
    line of ``error`` naming ``what`` for a path that is missing, a dangling link, not a
    regular file (a device such as ``/dev/zero`` reports size 0 and never ends; a FIFO
    blocks), or larger than ``max_bytes`` (refused before it is read)."""
    path = check_path(path, what, error)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        dangling = os.path.islink(path)
        raise error(f"{what} {path} is a symbolic link to nothing" if dangling else f"{what} not found: {path}") from None
    except OSError as e:
        raise error(f"{what} {path}: {e.strerror or e}") from None
    if not stat.S_ISREG(st.st_mode):
        kind = "a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        raise error(f"{what} {path} is {kind}")
    if st.st_size > max_bytes:
        raise error(f"{what} {path} is {st.st_size} bytes, more than the {max_bytes} allowed")
    try:
        with open(path, "rb") as f:
            data = f.read(max_bytes + 1)
    except OSError as e:
        raise error(f"{what} {path}: {e.strerror or e}") from None
    if len(data) > max_bytes:
        raise error(f"{what} {path} is more than the {max_bytes} bytes allowed")
    return data


def probe_writable(folder) -> None:
    """Make and remove a file in ``folder``: OSError if nothing can be written there."""
    fd, probe = tempfile.mkstemp(dir=folder, prefix=".evoplay-probe-")
    os.close(fd)
    os.unlink(probe)
