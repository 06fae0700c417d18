"""The command line under test: ``evoplay`` run in this process, what a refusal must look
like, and the scratch material the command-line tests damage.

A refusal is exit code 2 and exactly one line ``evoplay: error: ...`` on stderr, nothing on
stdout and no traceback (``problem``); ``refused`` runs a command here and asserts it.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import sys
from pathlib import Path

import pytest

from evoplay.cli import main

ROOT = Path(__file__).resolve().parents[2]
#: The installed ``evoplay`` command, for the tests about a process of its own.
EVOPLAY = Path(sys.executable).with_name("evoplay")


# ---------------------------------------------------------------- material


class FuzzEnv:
    """A scratch folder, valid player documents and a tiny valid run to damage."""

    def __init__(self, root: Path, wide: bool = False):
        self.root = root
        self.n = 0
        self.wide = wide  # the slow run: generators that cost a process per case draw from all their cases
        self.docs = {
            "fogel-net": json.loads((ROOT / "results/fogel1993/trials/trial_00/champion.json").read_text()),
            "value-net": json.loads((ROOT / "results/baselines/value-net.json").read_text()),
            "ga-value-net": json.loads((ROOT / "results/baselines/ga-value-net.json").read_text()),
        }
        self.run = self.make_run(root / "tiny-run")
        self.regular = root / "regular.txt"
        self.regular.write_text("a file, not a folder\n")

    def fresh(self, suffix: str = "") -> Path:
        """A new path in the scratch folder (nothing there yet)."""
        self.n += 1
        return self.root / f"case{self.n:06d}{suffix}"

    def make_run(self, root: Path, trials: int = 2, gens: int = 5) -> Path:
        for t in range(trials):
            d = root / "trials" / f"trial_{t:02d}"
            d.mkdir(parents=True)
            rows = ["gen,max,mean,min,mean_h,h_hist"]
            rows += [f"{g},{-50 + 5 * g + t},{-90 + g},{-200},5.0,1 1 1 1 1 1 1 1 1 1" for g in range(1, gens + 1)]
            (d / "logbook.csv").write_text("\n".join(rows) + "\n")
            (d / "champion.json").write_text(json.dumps(self.docs["fogel-net"], indent=1))
        summary = {"name": "tiny", "seed": 7, "trials": trials, "generations": gens, "best_trial": 1}
        (root / "summary.json").write_text(json.dumps(summary))
        return root


@pytest.fixture
def env(tmp_path, monkeypatch):
    """A ``FuzzEnv`` in the test's own folder, which is also the working directory.

    A fixture: a test file takes it with ``from support.cli import env``."""
    monkeypatch.chdir(tmp_path)
    return FuzzEnv(tmp_path)


# ---------------------------------------------------------------- running a command here


class TookTooLong(Exception):
    """A case still running after CASE_SECONDS: it was not refused before the work."""


#: A refusal comes before any work; a case running longer was accepted by mistake (a guard
#: against a hang, not a speed check).
CASE_SECONDS = 20


def _alarm(signum, frame):
    raise TookTooLong(f"still running after {CASE_SECONDS} s")


class Exited(Exception):
    """``os._exit`` called by a command that ran to its end (evolve leaves that way)."""


def _no_exit(code):
    raise Exited(f"the command ran and left with os._exit({code})")


def run_in_process(argv, stdin: str | None = None) -> tuple[object, str, str]:
    """(exit code, stdout, stderr) of ``evoplay ARGV`` run here, reading ``stdin`` (default: nothing)."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(CASE_SECONDS)
    from evoplay.framework import distributed, driver

    # An accepted evolve must not end the test run, nor kill this process's Ray for the next case.
    real_exit, os._exit = os._exit, _no_exit
    real_stop, driver.stop_now = driver.stop_now, lambda: None
    real_stdin, sys.stdin = sys.stdin, io.StringIO(stdin or "")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(list(argv))
            except SystemExit as e:
                code = e.code
    finally:
        sys.stdin = real_stdin
        os._exit, driver.stop_now = real_exit, real_stop
        distributed.shutdown_ray()
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return code, out.getvalue(), err.getvalue()


# ---------------------------------------------------------------- what a refusal is


def problem(code, out, err) -> str | None:
    """What is wrong with a refusal (None when it is one line and exit 2)."""
    lines = err.splitlines()
    if code != 2:
        return f"exit code {code!r}"
    if "Traceback" in err or "Traceback" in out:
        return "traceback"
    if len(lines) != 1 or not lines[0].startswith("evoplay: error: "):
        return f"stderr is not one error line: {err[:300]!r}"
    if len(lines[0]) > 600:
        return f"error line of {len(lines[0])} characters"
    if out:
        return f"stdout not empty: {out[:200]!r}"
    return None


def refused(argv, *words, stdin=None) -> str:
    """Run ``evoplay ARGV`` here (``run_in_process``, reading ``stdin``) and assert that it was
    refused: exit code 2, exactly one line ``evoplay: error: ...`` on stderr holding each of
    ``words``, no traceback, and nothing on stdout, except from ``game``, which shows its
    board and prompts before it gives up. Returns stderr."""
    code, out, err = run_in_process(argv, stdin=stdin)
    talks = argv[0] == "game"
    found = problem(code, "" if talks else out, err)
    assert found is None, (found, argv, code, out[-2000:], err)
    assert "Traceback" not in out, out[-2000:]
    for w in words:
        assert w in err, (w, err)
    return err
