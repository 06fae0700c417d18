"""Shared fixtures: the ``evoplay`` command run in this process, and one embedded Ray session per module.

Starting a Python interpreter, importing evoplay and Ray, and starting an embedded Ray
session (its GCS, raylet, agents and two warmed workers) costs several CPU seconds each
time, most of a small test run's cost on a two-core machine. Where a test is not about
the process boundary (its exit code as the shell sees it, a signal, its environment,
output written by a logging handler or a dying interpreter), it runs the command here
(``evoplay_here``) and, where it only needs a Ray session, shares its module's
(``ray_here``).
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent

#: CPUs of the shared embedded session: the two of the machine ``make test`` is sized for.
SESSION_CPUS = 2

#: The files that take longest (minutes of CPU each: Ray sessions, clusters, whole runs),
#: longest first. ``make test`` hands whole files to two processes in the order below
#: (``--dist loadfile --no-loadscope-reorder``): these first, then the others by their
#: number of tests, most first (xdist's own order), so that no long file starts last
#: while the other process has nothing left to do.
LONGEST_FILES = ("test_docs_pages.py", "test_framework.py", "test_cluster.py", "test_job_submit.py", "test_study.py",
                 "test_committed_results.py", "test_rundir.py")


def pytest_collection_modifyitems(config, items):
    """The longest files first (``LONGEST_FILES``), then files by their number of tests; each file's tests in its order."""
    tests = Counter(item.path for item in items)
    first = {path: place for place, path in enumerate(dict.fromkeys(item.path for item in items))}
    rank = {name: place for place, name in enumerate(LONGEST_FILES)}
    items.sort(key=lambda item: (rank.get(item.path.name, len(rank)), -tests[item.path], first[item.path]))


class _Left(BaseException):
    """A command leaving with ``os._exit`` (evolve does, once every file is written)."""

    def __init__(self, code: int):
        super().__init__(code)
        self.code = code


def _leave(code):
    raise _Left(code)


def run_evoplay_here(*args, cwd=ROOT, check=True, env=None) -> subprocess.CompletedProcess:
    """``evoplay ARGS...`` run in this process, as ``subprocess.run`` would report it.

    The command sees ``cwd`` as its working directory and ``os.environ`` less
    ``RAY_ADDRESS``, with ``env`` (a dict of changes; None as a value removes the name)
    on top. Its ``os._exit`` becomes the return code, and the embedded Ray it leaves
    is not killed with the process's other children (``driver.stop_now``): a Ray session
    open before the command (``ray_here``) stays open and is the one the command uses,
    whatever ``--workers`` says (and is refused here with an address, which it would
    ignore); a session the command started itself ends with it, so a run's ``--workers``
    sizes the session it ran in.
    """
    import ray

    from evoplay.cli import main
    from evoplay.framework import distributed, driver

    args = [str(a) for a in args]
    out, err = io.StringIO(), io.StringIO()
    code = 0
    had_ray = ray.is_initialized()
    changes = {"RAY_ADDRESS": None, **(env or {})}
    if had_ray and (changes["RAY_ADDRESS"] is not None or any(a.startswith("--address") for a in args)):
        raise RuntimeError("a Ray session is open in this process and would be reused whatever the address says: "
                           "run this command in a process of its own")
    saved_env = {name: os.environ.get(name) for name in changes}
    saved_cwd = os.getcwd()
    # The command sets up logging for its process (evolve's -v and -q): put it back after.
    saved_logging = logging.getLogger("evoplay").level, logging.root.level, logging.root.handlers[:]
    real_exit, real_stop, real_stdin = os._exit, driver.stop_now, sys.stdin
    try:
        for name, value in changes.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = str(value)
        os.chdir(cwd)
        os._exit, driver.stop_now, sys.stdin = _leave, (lambda: None), io.StringIO("")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(args)
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            except _Left as e:
                code = e.code
    finally:
        os._exit, driver.stop_now, sys.stdin = real_exit, real_stop, real_stdin
        logging.getLogger("evoplay").setLevel(saved_logging[0])
        logging.root.setLevel(saved_logging[1])
        logging.root.handlers[:] = saved_logging[2]
        os.chdir(saved_cwd)
        for name, value in saved_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        if not had_ray:
            distributed.shutdown_ray()
    result = subprocess.CompletedProcess(["evoplay", *args], code, out.getvalue(), err.getvalue())
    if check and code != 0:
        raise AssertionError(f"evoplay {args} exited {code}: {result.stderr[-3000:]}")
    return result


def evoplay_in_own_session(*args, cwd=ROOT) -> subprocess.CompletedProcess:
    """``run_evoplay_here`` of a command that must size its own Ray session (``--workers``:
    the tests that compare 1 and 2 workers): refused while a session is open in this
    process, which the command would use whatever its ``--workers``; it must succeed."""
    import ray

    if ray.is_initialized():
        raise RuntimeError("a Ray session is open in this process: the command's --workers would not size its own")
    return run_evoplay_here(*args, cwd=cwd, env={"RAY_USAGE_STATS_ENABLED": "0"})


@pytest.fixture(scope="session")
def evoplay_here():
    """``run_evoplay_here``: ``evoplay_here("evolve", cfg, "--out", out)`` runs the command in this process."""
    return run_evoplay_here


@pytest.fixture(scope="module")
def ray_here(request):
    """One embedded Ray session in this process for a module's tests; its description.

    It has the module's ``RAY_HERE_CPUS`` CPUs, else ``SESSION_CPUS``.

    Its workers can import the task functions of tests/raycluster.py by name (they inherit
    the driver's environment, PYTHONPATH included, when the session starts).
    """
    import ray

    from evoplay.framework import distributed

    if ray.is_initialized():  # a session an earlier module left open is not this module's
        distributed.shutdown_ray()
    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TESTS), saved]))
    try:
        info = distributed.init_ray(workers=getattr(request.module, "RAY_HERE_CPUS", SESSION_CPUS))
    finally:
        if saved is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = saved
    yield info
    # The RAY_AUTH_TOKEN init_ray put in os.environ stays: this process's Ray client keeps the
    # token it read first, and a later session must be started with the same one.
    distributed.shutdown_ray()


@pytest.fixture
def no_ray_here():
    """No Ray session open in this process, for a test whose command must start Ray (or refuse to) itself.

    An open session (the module's ``ray_here``) is closed; the module's later commands then
    start sessions of their own.
    """
    from evoplay.framework import distributed

    distributed.shutdown_ray()
