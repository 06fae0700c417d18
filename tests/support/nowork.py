"""Checks, without a clock, that a command refused before its work.

Each one watches the work itself rather than how long the command took, so it fails on a
machine of any speed when a command does the work first and refuses after:

- ``never_called``: the call that is the work (training, loading a game) is replaced by one
  that records it and raises ``Forbidden``.
- ``forbid_ray``: the same for ``ray.init``, through which every start or join of Ray goes
  (evoplay's ``init_ray``, and Ray's own start on first use of its API).
- ``EVOPLAY_WITHOUT_RAY``: ``evoplay`` in a process of its own whose ``ray.init`` ends it.
- ``opened``: every file opened by name in this process, to check that one never was.
- ``run_reading``: a process run on a file as its input, and how much of it it read.
"""

from __future__ import annotations

import builtins
import io
import os
import subprocess
import sys
import tempfile


class Forbidden(BaseException):
    """A call a test forbade was made. A BaseException, so that no ``except Exception`` of the
    code under test can turn it into an ordinary refusal."""


def never_called(monkeypatch, owner, name: str) -> list:
    """Replace ``owner.name`` (for the test) by a function that records its arguments and
    raises ``Forbidden``; return the record, which must stay empty."""
    calls = []
    where = f"{getattr(owner, '__name__', type(owner).__name__)}.{name}"

    def forbidden(*args, **kwargs):
        calls.append((args, kwargs))
        raise Forbidden(f"{where} was called: the work began before the refusal")

    monkeypatch.setattr(owner, name, forbidden)
    return calls


def forbid_ray(monkeypatch) -> list:
    """``never_called`` of ``ray.init``: no Ray session may start or be joined in this process.

    Asserts first that none is open, since ``init_ray`` would reuse an open one without
    calling ``ray.init``."""
    import ray

    assert not ray.is_initialized(), "a Ray session is open in this process: a command would use it without ray.init"
    return never_called(monkeypatch, ray, "init")


_WITHOUT_RAY = """
import os, sys
import ray

def forbidden(*args, **kwargs):
    os.write(2, b"ray.init was called: Ray started before the refusal\\n")
    os._exit(97)

ray.init = forbidden
from evoplay.cli import main
main()
"""

#: ``evoplay`` (followed by its arguments) in a process of its own, as the installed command
#: runs it, but whose ``ray.init`` ends the process at once with exit code 97 and a line
#: saying so: a command that starts or joins Ray before it refuses fails a refusal's checks.
EVOPLAY_WITHOUT_RAY = [sys.executable, "-c", _WITHOUT_RAY]


def opened(monkeypatch) -> list[str]:
    """Record from now on (for the test) the real path of every file this process opens by
    name: ``open``, ``io.open`` (pathlib's) and ``os.open``. Returns the record."""
    seen = []

    def recording(real):
        def opening(file, *args, **kwargs):
            if isinstance(file, (str, bytes, os.PathLike)):
                seen.append(os.path.realpath(os.fsdecode(file)))
            return real(file, *args, **kwargs)

        return opening

    monkeypatch.setattr(builtins, "open", recording(builtins.open))
    monkeypatch.setattr(io, "open", recording(io.open))
    monkeypatch.setattr(os, "open", recording(os.open))
    return seen


def run_reading(argv, data: bytes, **kwargs) -> tuple[subprocess.CompletedProcess, int]:
    """``subprocess.run(argv)`` with a file holding ``data`` as its standard input (output
    captured as bytes); returns the process and how many bytes of the input it read: the
    offset it left in the file, which a process that reads to the end leaves at ``len(data)``."""
    with tempfile.TemporaryFile() as f:
        f.write(data)
        f.seek(0)
        proc = subprocess.run(argv, stdin=f, capture_output=True, **kwargs)
        return proc, os.lseek(f.fileno(), 0, os.SEEK_CUR)
