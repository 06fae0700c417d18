"""The run directory: resolved config, logbooks, champions, summary, curve, checkpoints.

Every file is written atomically. Checkpoints are JSON (floats round-trip exactly), one
per trial, replaced as the trial advances; a resumed run reads them back.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np
from deap import tools

from evoplay.atomic import write_text
from evoplay.errors import EvoplayError
from evoplay.recipes.fogel.recipe import TrialState, new_logbook
from evoplay.recipes.fogel.nets import FogelNet, Population

LOG_FIELDS = ["gen", "max", "mean", "min", "mean_h", "h_hist"]


def net_to_dict(net: FogelNet) -> dict:
    return {
        "h": net.h,
        "id": net.ident,
        "parent": net.parent,
        "fitness": list(net.fitness.values),
        "w1": net.w1.tolist(),
        "w2": net.w2.tolist(),
    }


def net_from_dict(d: dict) -> FogelNet:
    net = FogelNet(d["h"], np.array(d["w1"], dtype=np.float64), np.array(d["w2"], dtype=np.float64), d["id"], d["parent"])
    if d["fitness"]:
        net.fitness.values = tuple(d["fitness"])
    return net


def state_to_dict(st: TrialState) -> dict:
    return {
        "trial": st.trial,
        "generation": st.generation,
        "next_id": st.next_id,
        "parents": [net_to_dict(n) for n in st.parents],
        "logbook": [dict(r) for r in st.logbook],
        "hof": [net_to_dict(n) for n in st.hof],
        "champion": net_to_dict(st.champion) if st.champion is not None else None,
    }


def state_from_dict(d: dict) -> TrialState:
    lb = new_logbook()
    for rec in d["logbook"]:
        lb.record(**rec)
    hof = tools.HallOfFame(1)
    for n in d["hof"]:
        hof.insert(net_from_dict(n))
    champ = net_from_dict(d["champion"]) if d["champion"] else None
    parents = Population([net_from_dict(n) for n in d["parents"]])
    return TrialState(d["trial"], d["generation"], parents, d["next_id"], lb, hof, champ)


class RunDir:
    """Paths and atomic writers of one run directory."""

    def __init__(self, root):
        self.root = Path(root)

    config = property(lambda self: self.root / "config.toml")
    summary = property(lambda self: self.root / "summary.json")
    environment = property(lambda self: self.root / "environment.json")
    checkpoints = property(lambda self: self.root / "checkpoints")

    def trial_dir(self, trial: int) -> Path:
        return self.root / "trials" / f"trial_{trial:02d}"

    def logbook(self, trial: int) -> Path:
        return self.trial_dir(trial) / "logbook.csv"

    def champion(self, trial: int) -> Path:
        return self.trial_dir(trial) / "champion.json"

    def detail(self, trial: int) -> Path:
        return self.trial_dir(trial) / "detail.log"

    def detail_part(self, trial: int, first: int, last: int) -> Path:
        """The detail log of generations ``first..last`` (joined into detail.log at the end)."""
        return self.trial_dir(trial) / "detail" / f"{first:06d}-{last:06d}.log"

    def join_detail(self, trial: int):
        parts = sorted((self.trial_dir(trial) / "detail").glob("*.log"))
        if parts:
            write_text(self.detail(trial), "".join(p.read_text() for p in parts))
            for p in parts:
                p.unlink()
            parts[0].parent.rmdir()

    def checkpoint(self, trial: int) -> Path:
        return self.checkpoints / f"trial_{trial:02d}.json"

    def write_checkpoint(self, state: dict):
        write_text(self.checkpoint(state["trial"]), json.dumps(state, separators=(",", ":")))

    def read_checkpoint(self, trial: int) -> dict | None:
        path = self.checkpoint(trial)
        if not path.exists():
            return None
        try:
            return json.loads(path.read_text())
        except json.JSONDecodeError as e:
            raise EvoplayError(f"checkpoint {path} is corrupt: {e}") from None

    def write_logbook(self, trial: int, rows: list[dict]):
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(LOG_FIELDS)
        for r in rows:
            w.writerow([r["gen"], r["max"], r["mean"], r["min"], r["mean_h"], " ".join(map(str, r["h_hist"]))])
        write_text(self.logbook(trial), buf.getvalue())

    def read_logbook(self, trial: int) -> dict:
        """Columns of a trial's logbook as arrays (``h_hist`` as a 2-D array)."""
        path = self.logbook(trial)
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        out = {k: np.array([float(r[k]) for r in rows]) for k in ("gen", "max", "mean", "min", "mean_h")}
        out["h_hist"] = np.array([[int(x) for x in r["h_hist"].split()] for r in rows])
        return out

    def write_json(self, path: Path, obj):
        write_text(path, json.dumps(obj, indent=1, sort_keys=False) + "\n")

    def read_summary(self) -> dict:
        if not self.summary.is_file():
            raise EvoplayError(f"{self.root} is not a finished run directory (no summary.json)")
        return json.loads(self.summary.read_text())
