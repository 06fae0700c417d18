"""``evoplay`` in a process of its own, and the files of a run directory to compare."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The environment of a command run in a process of its own: no cluster address, no usage stats.
ENV = {**{k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}, "RAY_USAGE_STATS_ENABLED": "0"}
#: Files of a run that differ from run to run (timings and hosts), and the lock file, whose presence only counts.
MACHINE_FILES = frozenset({"environment.json", "costs.json", ".lock"})


def evoplay_process(*args, check=True, cwd=ROOT, env=ENV, timeout=300) -> subprocess.CompletedProcess:
    """``python -m evoplay ARGS...`` in a process of its own (output captured as text); with
    ``check``, an AssertionError showing the end of stderr unless it exits 0."""
    out = subprocess.run([sys.executable, "-m", "evoplay", *map(str, args)], capture_output=True, text=True,
                         cwd=cwd, env=env, timeout=timeout)
    if check and out.returncode != 0:
        raise AssertionError(f"evoplay {args} exited {out.returncode}: {out.stderr[-3000:]}")
    return out


def tree(folder: Path, skip=MACHINE_FILES) -> dict:
    """Every file below ``folder`` (a run directory, a study's) by its relative path, with its
    bytes, but those named in ``skip``."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name not in skip}


def td_leaf_first_steps(run: Path, steps: int = 2) -> tuple[list, list]:
    """A committed ``td-leaf`` run's trial 0 made again for ``steps`` generations with its
    yardstick cut to one opening (training never sees it): (the step sizes made, the
    logbook's), to compare bit for bit."""
    import csv

    from evoplay.framework.config import load
    from evoplay.framework.trial import TrialRun
    from evoplay.recipes.td_leaf.recipe import TDLeafRecipe

    cfg = load(run / "config.toml")
    cfg["yardstick"]["openings"] = 1
    made = TrialRun(TDLeafRecipe(cfg), 0).run(steps).logbook
    with (run / "trials" / "trial_00" / "logbook.csv").open() as f:
        committed = [float(row["step_size"]) for row in csv.DictReader(f)][:steps]
    return [row["step_size"] for row in made], committed
