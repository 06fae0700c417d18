"""How far a Blondie24 population's networks differ in strength, and how much of that a few
games see: `.venv/bin/python benchmarks/league_spread.py SOURCE... [--games 5,10,20] [--json]`.

A SOURCE is a run directory whose checkpoints hold the last parents' league
(``champion.rule = "league"``, played at the run's last generation), a study folder (each
of its variants), or the JSON that ``benchmarks/starting_league.py`` writes (the league of
each trial's starting networks). For each league table, a round robin in which every
network played every other over the same ballots from both colours:

- ``draws``: the share of its games drawn;
- ``game_var``: the variance of one game's points (the points table over the pooled wins,
  draws and losses);
- ``observed_sd``: the spread (standard deviation) of the networks' mean points a game;
- ``true_sd``: that spread less what ``games`` games a network add by chance
  (``observed_sd^2 - game_var / games``, 0 if negative): how far the networks really differ;
- ``reliability_K``: the share of the variance of a K-game score that is that real
  difference, ``true_sd^2 / (true_sd^2 + game_var / K)``: for K = 5, how much of what
  separates the networks in one generation's evaluation (5 games each) is strength rather
  than luck.

The games are treated as independent draws of a network's points (a pair's games over
different ballots are different games), and a generation's games (from the start position,
against opponents drawn at random) as drawn like the league's: an estimate, not an exact
figure.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np


def spread(table: list[dict], points: tuple[float, float, float], ks=(5,)) -> dict:
    """The figures above for one league ``table`` (rows of win, draw, loss, points)."""
    n = np.array([r["win"] + r["draw"] + r["loss"] for r in table], dtype=float)
    means = np.array([r["points"] for r in table], dtype=float) / n
    w, d, lo = (sum(r[k] for r in table) for k in ("win", "draw", "loss"))
    total = w + d + lo
    mean = (w * points[0] + d * points[1] + lo * points[2]) / total
    game_var = (w * points[0] ** 2 + d * points[1] ** 2 + lo * points[2] ** 2) / total - mean**2
    observed = float(means.var(ddof=1))
    true = max(observed - game_var / float(n.mean()), 0.0)
    return {"networks": len(table), "games": int(round(n.mean())), "draws": d / total, "game_var": game_var,
            "observed_sd": observed**0.5, "true_sd": true**0.5,
            **{f"reliability_{k}": true / (true + game_var / k) if true + game_var > 0 else 0.0 for k in ks}}


def tables(source: Path) -> list[tuple[str, list[dict], tuple]]:
    """(label, table, points table) of every league SOURCE holds."""
    if source.is_file():
        doc = json.loads(source.read_text())
        return [(f"{source.parent.name}/{source.stem} trial {t['trial']}", t["table"], tuple(doc["points"]))
                for t in doc["trials"]]
    if (source / "checkpoints").is_dir():
        from evoplay.framework import config
        from evoplay.framework.rundir import RunDir

        rd = RunDir(source)
        cfg = config.load(rd.config)
        e = cfg["evaluation"]
        points = (e["points_win"], e["points_draw"], e["points_loss"])
        out = []
        for t in range(cfg[""]["trials"]):
            data = rd.read_checkpoint(t, rd.config_key(cfg)) if rd.checkpoint(t).exists() else None
            league = data and data["state"].get("league")
            if league:
                out.append((f"{source.name} trial {t}", league["table"], points))
        return out
    return [row for sub in sorted(p for p in source.iterdir() if (p / "checkpoints").is_dir()) for row in tables(sub)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", nargs="+", type=Path)
    parser.add_argument("--games", default="5,10,20", help="comma-separated K of reliability_K (default 5,10,20)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    ks = tuple(int(k) for k in args.games.split(","))
    rows = [{"league": label, **spread(table, points, ks)} for s in args.sources for label, table, points in tables(s)]
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print("| league | games a network | drawn | true sd | " + " | ".join(f"reliability, {k} games" for k in ks) + " |")
    print("|---|---:|---:|---:|" + "---:|" * len(ks))
    for r in rows:
        print(f"| {r['league']} | {r['games']} | {r['draws']:.2f} | {r['true_sd']:.3f} | "
              + " | ".join(f"{r[f'reliability_{k}']:.2f}" for k in ks) + " |")


if __name__ == "__main__":
    main()
