"""Evolution and TDLeaf(lambda) at equal CPU: strength against piece difference over training
CPU seconds, every method on one plot (the figure of docs/results/td-leaf-1999.md).

Each method is a run directory (or a study variant's) of the same network, search and
yardstick: the yardstick rows of its trials' logbooks (the training network's mean score
against piece difference at depth 4 over the 314 ballot games, measured every few
generations: for evolution the generation's best network, for TDLeaf the one network) are
put at the trial's CPU seconds so far, its ``costs.json`` CPU spread evenly over its
generations. A method's line is the mean over its trials at each measured generation, its
band the 95% t-interval of that mean across trials (each trial's own 314-game interval is
not drawn). The judged players (``report --depths 4``: each trial's champion or final
network, 314 games) are the markers at the end, mean with its interval across trials.

    python benchmarks/td_comparison.py OUT.png "evolution=results/blondie24-choices/published" \
        "TDLeaf=results/td-leaf-1999" [--json OUT.json]
"""

from __future__ import annotations

import argparse
import csv
import json
import math
from pathlib import Path

import numpy as np
from scipy import stats


def trial_rows(run: Path) -> dict[str, list[tuple[int, float]]]:
    """trial name -> [(generation, yard_score)] of the generations that measured it."""
    out = {}
    for log in sorted(run.glob("trials/trial_*/logbook.csv")):
        with log.open() as f:
            rows = [(int(r["gen"]), float(r["yard_score"])) for r in csv.DictReader(f) if int(r["yard_gen"]) == int(r["gen"])]
        out[log.parent.name] = rows
    return out


def cpu_per_generation(run: Path) -> dict[str, float]:
    costs = json.loads((run / "costs.json").read_text())
    return {t: c["cpu_seconds"] / c["generations"] for t, c in costs.items()}


def judged(run: Path) -> list[float]:
    """Each trial's judged player against piece difference at depth 4 (``summary.json``)."""
    summary = json.loads((run / "summary.json").read_text())
    return [float(t["champion_score"]) for t in summary["per_trial"] if "champion_score" in t]


def interval(values) -> tuple[float, float, float]:
    v = np.asarray(values, dtype=float)
    m = float(v.mean())
    if len(v) < 2:
        return m, m, m
    h = float(stats.t.ppf(0.975, len(v) - 1) * v.std(ddof=1) / math.sqrt(len(v)))
    return m, m - h, m + h


def method_curve(run: Path) -> dict:
    rows, cpu = trial_rows(run), cpu_per_generation(run)
    gens = sorted(set.intersection(*(set(g for g, _ in r) for r in rows.values())))
    by = {t: dict(r) for t, r in rows.items()}
    points = []
    for g in gens:
        m, lo, hi = interval([by[t][g] for t in rows])
        points.append({"gen": g, "cpu_seconds": g * float(np.mean([cpu[t] for t in rows])), "mean": m, "lo": lo, "hi": hi})
    final = judged(run)
    total = {t: cpu[t] * max(g for g, _ in rows[t]) for t in rows}
    m, lo, hi = interval(final) if final else (None, None, None)
    return {"run": str(run), "trials": len(rows), "cpu_seconds_per_trial": total, "curve": points,
            "judged_depth4": {"scores": final, "mean": m, "lo": lo, "hi": hi}}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("methods", nargs="+", help="LABEL=RUN_DIR")
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = {}
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    for label, run in (m.split("=", 1) for m in args.methods):
        d = data[label] = method_curve(Path(run))
        x = [p["cpu_seconds"] for p in d["curve"]]
        line, = ax.plot(x, [p["mean"] for p in d["curve"]], marker=".", label=f"{label} ({d['trials']} trials)")
        ax.fill_between(x, [p["lo"] for p in d["curve"]], [p["hi"] for p in d["curve"]], color=line.get_color(), alpha=0.2)
        j = d["judged_depth4"]
        if j["mean"] is not None:
            end = float(np.mean(list(d["cpu_seconds_per_trial"].values())))
            ax.errorbar([end], [j["mean"]], yerr=[[j["mean"] - j["lo"]], [j["hi"] - j["mean"]]], color=line.get_color(),
                        marker="D", capsize=4)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("training CPU seconds of a trial")
    ax.set_ylabel("mean score against piece difference, depth 4")
    ax.set_title("Checkers, the 1999 network: evolution and TDLeaf(λ) at equal CPU")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(args.out, dpi=120, metadata={"Software": None})
    if args.json:
        Path(args.json).write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    main()
