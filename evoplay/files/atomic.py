"""Atomic file writes: a temporary file in the same folder, then a rename."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from evoplay.errors import EvoplayError


_UMASK = os.umask(0)
os.umask(_UMASK)


def write_bytes(path, data: bytes) -> Path:
    """Write ``data`` to ``path`` so that a crash leaves either the old file or the new one."""
    path = Path(path)
    if (path.exists() or path.is_symlink()) and not path.is_file():
        # A rename would replace a device, a folder or a dangling link (as root, even /dev/null).
        raise EvoplayError(f"cannot write {path}: it exists and is not a regular file")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as e:
        raise EvoplayError(f"cannot write {path}: {e.strerror or e}") from None
    try:
        os.fchmod(fd, 0o666 & ~_UMASK)  # mkstemp makes owner-only files; use the usual mode
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as e:
        if os.path.exists(tmp):
            os.unlink(tmp)
        if isinstance(e, OSError):  # a full disk, a folder turned read-only, a file in the way
            raise EvoplayError(f"cannot write {path}: {e.strerror or e}") from None
        raise
    return path


def write_text(path, text: str) -> Path:
    """Atomic text write (UTF-8)."""
    return write_bytes(path, text.encode("utf-8"))
