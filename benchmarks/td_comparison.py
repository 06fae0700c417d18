"""Evolution and TDLeaf(lambda) at equal CPU: strength against piece difference over training
CPU seconds, every method on one plot (the figures of docs/results/td-leaf-1999.md and td-leaf-2001.md).

Each method is a run directory (or a study variant's) of the same network, search and
yardstick: the yardstick rows of its trials' logbooks (the training network's mean score
against piece difference at depth 4 over the 314 ballot games, measured every few
generations: for evolution the generation's best network, for TDLeaf the one network) are
put at the trial's CPU seconds so far, its ``costs.json`` CPU spread evenly over its
generations. A method's line is the mean over its trials at each measured generation, its
band the 95% t-interval of that mean across trials (each trial's own 314-game interval is
not drawn; a method of fewer than three trials is drawn trial by trial instead, each
measurement with its own 95% interval over its games, as a t-interval of two values spans
most of the plot). The judged players (``report --depths 4``: each trial's champion or final
network, 314 games) are the markers at the end, mean with its interval across trials. The
plot shows scores from -0.5 to +0.5: the bands of the first generations (random networks,
three trials) run off it.

The JSON (``--json``) also holds each method's judged scores at every depth ``report
--depths`` measured (``duels.json``) and, for every method after the first, two-sided
permutation tests of its trials' judged scores against the first method's at each depth
(``evoplay.framework.stats.permutation_test``, Holm-adjusted over the methods), as a
study's variants are tested against its baseline. With ``--league FILE`` (``evoplay
tournament ... --json`` of every method's trials' players, ``trials/trial_k/champion.json``)
each player's league score (``evoplay.framework.study_report.read_league``: win 1, draw 0,
loss -1 a game against every other player, from both seats) is tested the same way, and
the league's winner is named: the comparison's best player by the rule written before it
was played (ties to the method earlier in ``--prefer``, then the lower trial). With
``--whole-league`` the league may hold players of no method (other runs' champions): every
player's score is listed (``league``) and the winner is the best of all of them, a tie going
to the player the tournament lists first (list them in the rule's order).

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


def measured_rows(run: Path) -> dict[str, list[dict]]:
    """trial name -> its logbook rows (as read) of the generations that measured the yardstick."""
    out = {}
    for log in sorted(run.glob("trials/trial_*/logbook.csv")):
        with log.open() as f:
            out[log.parent.name] = [r for r in csv.DictReader(f) if int(r["yard_gen"]) == int(r["gen"])]
    return out


def trial_rows(run: Path) -> dict[str, list[tuple[int, float]]]:
    """trial name -> [(generation, yard_score)] of the generations that measured it."""
    return {t: [(int(r["gen"]), float(r["yard_score"])) for r in rows] for t, rows in measured_rows(run).items()}


def cpu_per_generation(run: Path) -> dict[str, float]:
    costs = json.loads((run / "costs.json").read_text())
    return {t: c["cpu_seconds"] / c["generations"] for t, c in costs.items()}


def judged(run: Path) -> list[float]:
    """Each trial's judged player against piece difference at depth 4 (``summary.json``)."""
    summary = json.loads((run / "summary.json").read_text())
    return [float(t["champion_score"]) for t in summary["per_trial"] if "champion_score" in t]


def judged_depths(run: Path) -> dict[str, list[float]]:
    """Each trial's judged scores (``duels.json`` of ``report --depths --versus``), in trial
    order: against piece difference searching depth d as ``"d"``, against another player (a
    ``--versus`` player file or run directory) as ``"vs-NAME"``, its file or folder name."""
    doc = json.loads((run / "duels.json").read_text())
    out: dict[str, list[float]] = {}
    for trial in sorted(doc["trials"], key=lambda t: t["trial"]):
        for d in trial["duels"]:
            if d["opponent"].startswith("piece-difference:") and d["depth"] == d["opponent_depth"]:
                key = str(d["depth"])
            elif d["opponent"].startswith("piece-difference:"):
                continue
            else:
                key = "vs-" + Path(d["opponent"]).name
            out.setdefault(key, []).append(float(d["score"]))
    return out


def tests(data: dict, seed: int = 0) -> dict:
    """Each method after the first against the first, per judged depth: the difference of the
    means, the permutation p and its Holm adjustment over the methods."""
    from evoplay.framework.stats import holm, permutation_test

    labels = list(data)
    base, out = data[labels[0]]["judged"], {}
    for depth in base:
        rows = [(label, data[label]["judged"].get(depth)) for label in labels[1:]]
        rows = [(label, scores) for label, scores in rows if scores]
        ps = [permutation_test(scores, base[depth], np.random.default_rng(seed)) for _, scores in rows]
        out[depth] = [{"method": label, "versus": labels[0], "difference": float(np.mean(s) - np.mean(base[depth])),
                            "p": p, "p_holm": q} for (label, s), p, q in zip(rows, ps, holm(ps))]
    return out


def league_scores(path: Path, data: dict) -> dict:
    """Each method's trials' league scores, by ``read_league`` of the tournament file ``path``."""
    from evoplay.framework.study_report import read_league

    link = path.parent / "league.json"
    runs = [Path(d["run"]).name for d in data.values()]
    if path.resolve() != link.resolve():
        raise SystemExit(f"--league: the tournament file must be named league.json, got {path}")
    scores = read_league(path.parent, runs, [d["trials"] for d in data.values()])
    if scores is None:
        raise SystemExit(f"--league: {path} lacks a player of these methods' trials")
    return dict(zip(data, scores))


def league_winner(league: dict, prefer: list[str]) -> dict:
    """The player with the highest league score; a tie goes to the method earlier in
    ``prefer`` (else in ``league``'s order), then to the lower trial."""
    order = prefer + [label for label in league if label not in prefer]
    best = max(((score, -order.index(label), -t, label, t) for label, scores in league.items()
                for t, score in enumerate(scores)))
    return {"method": best[3], "trial": best[4], "league": best[0]}


def league_table(path: Path) -> list[dict]:
    """Every player of the tournament file ``path``, in its ``players`` order, with its mean
    score a game (win 1, draw 0, loss -1) against every other player, from both seats."""
    doc = json.loads(path.read_text())
    totals = {name: [0.0, 0] for name in doc["players"]}
    for row in doc["rows"]:
        if row["x"] != row["o"]:
            margin = float(row["x_win"]) - float(row["o_win"])
            for name, sign in ((row["x"], 1.0), (row["o"], -1.0)):
                totals[name][0] += sign * margin
                totals[name][1] += 1
    return [{"player": name, "league": total / count} for name, (total, count) in totals.items()]


def whole_league_winner(table: list[dict]) -> dict:
    """The player of the whole league with the highest score; a tie goes to the player listed first."""
    best = max(row["league"] for row in table)
    return next(row for row in table if row["league"] == best)


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
    depths = judged_depths(run) if (run / "duels.json").exists() else {}
    return {"run": str(run), "trials": len(rows), "cpu_seconds_per_trial": total, "curve": points,
            "judged_depth4": {"scores": final, "mean": m, "lo": lo, "hi": hi},
            "judged": depths,
            "judged_intervals": {d: dict(zip(("mean", "lo", "hi"), interval(v))) for d, v in depths.items()}}


#: A method of fewer trials is drawn trial by trial: a t-interval of two values spans most of the plot.
FEW_TRIALS = 3


def draw_each_trial(ax, run: Path, label: str):
    """A method of few trials, trial by trial: each trial's yardstick rows at its CPU so far, with
    each measurement's own 95% interval over its games as a band, and each trial's judged
    player (``duels.json``, piece difference at depth 4) with its interval at the trial's end."""
    cpu = cpu_per_generation(run)
    duels = json.loads((run / "duels.json").read_text())["trials"] if (run / "duels.json").exists() else []
    color = None
    for k, (trial, rows) in enumerate(measured_rows(run).items()):
        per_gen = cpu[trial]
        x = [int(r["gen"]) * per_gen for r in rows]
        line, = ax.plot(x, [float(r["yard_score"]) for r in rows], marker=".", ms=3, lw=1, color=color,
                        ls="-" if k == 0 else "--", label=f"{label}, trial {k}")
        color = line.get_color()
        ax.fill_between(x, [float(r["yard_lo"]) for r in rows], [float(r["yard_hi"]) for r in rows], color=color,
                        alpha=0.08)
        found = [d for t in duels if t["trial"] == k for d in t["duels"]
                 if d["opponent"] == "piece-difference:depth=4" and d["depth"] == 4]
        if found:
            d = found[0]
            end = per_gen * int(rows[-1]["gen"])
            ax.errorbar([end], [d["score"]], yerr=[[d["score"] - d["lo"]], [d["hi"] - d["score"]]], color=color,
                        marker="D", capsize=4)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("methods", nargs="+", help="LABEL=RUN_DIR")
    parser.add_argument("--json")
    parser.add_argument("--league", type=Path, help="the league of every method's players (league.json)")
    parser.add_argument("--prefer", default="", help="LABEL,LABEL,...: the league winner's tie order of methods")
    parser.add_argument("--whole-league", action="store_true",
                        help="the best player is the winner among every player of --league (not only the methods' "
                             "trials); a tie goes to the player the tournament lists first")
    parser.add_argument("--title", default="Checkers, the 1999 network: evolution and TDLeaf(λ) at equal CPU")
    args = parser.parse_args(argv)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = {}
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    for label, run in (m.split("=", 1) for m in args.methods):
        d = data[label] = method_curve(Path(run))
        x = [p["cpu_seconds"] for p in d["curve"]]
        if d["trials"] >= FEW_TRIALS:
            line, = ax.plot(x, [p["mean"] for p in d["curve"]], marker=".", label=f"{label} ({d['trials']} trials)")
            ax.fill_between(x, [p["lo"] for p in d["curve"]], [p["hi"] for p in d["curve"]], color=line.get_color(),
                            alpha=0.2)
            j = d["judged_depth4"]
            if j["mean"] is not None:
                end = float(np.mean(list(d["cpu_seconds_per_trial"].values())))
                ax.errorbar([end], [j["mean"]], yerr=[[j["mean"] - j["lo"]], [j["hi"] - j["mean"]]],
                            color=line.get_color(), marker="D", capsize=4)
        else:
            draw_each_trial(ax, Path(run), label)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_ylim(-0.5, 0.5)  # a band of the first generations, from random networks, runs off it
    ax.set_xlabel("training CPU seconds of a trial")
    ax.set_ylabel("mean score against piece difference, depth 4")
    ax.set_title(args.title)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(args.out, dpi=120, metadata={"Software": None})
    if args.json:
        doc = {"methods": data, "tests": tests(data)}
        if args.league:
            league = league_scores(args.league, data)
            for label, scores in league.items():
                data[label]["judged"]["league"] = scores
                data[label]["judged_intervals"]["league"] = dict(zip(("mean", "lo", "hi"), interval(scores)))
            doc["tests"] = tests(data)
            if args.whole_league:
                doc["league"] = league_table(args.league)
                doc["best"] = whole_league_winner(doc["league"])
            else:
                doc["best"] = league_winner(league, [x for x in args.prefer.split(",") if x])
        Path(args.json).write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
