"""Blondie24's cost: `.venv/bin/python benchmarks/bench_blondie24.py [--generations N] [--json]`.

In this process (one core, no Ray): the compiled checkers search's leaves per CPU second
at depth 4 from 200 random positions with the 1999 network (32-40-10-1), the 2001 spatial
network and piece difference at the leaves; CPU seconds per generation of the committed
1999 setting (``results/blondie24/config.toml``: 30 networks x 5 games at depth 4), of
tic-tac-toe at depths 1-3 (``configs/blondie24-ttt-d*.toml``) and of checkers at depths 2
and 4 (``configs/blondie24.toml``; the games only: the yardstick is timed apart, it runs
every ``yardstick.every`` generations). Times are CPU seconds of this
process (``time.process_time``), so a shared, busy machine gives per-core figures; the
wall-clock seconds and the load average are printed beside them. The projection for 250
generations at depth 4 divides the CPU time by the cores (the 150 games of a generation
are independent, so they spread over up to 150 cores; the driver's share is negligible).
"""

from __future__ import annotations

import json
import os
import sys
import time

import numpy as np

from evoplay.framework import config
from evoplay.framework.trial import TrialRun
from evoplay.recipes.blondie24.recipe import Blondie24Recipe

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def generation_seconds(cfg: dict, generations: int) -> dict:
    """CPU and wall seconds per generation (the games), after one warm-up generation."""
    recipe = Blondie24Recipe(cfg)
    events = []
    recipe.hooks.append(events.append)
    run = TrialRun(recipe, 0)
    run.step()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    run.run(1 + generations)
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    plies = np.mean([e["record"]["mean_plies"] for e in events[1:]])
    games = np.mean([e["seconds"]["evaluation"] for e in events[1:]])
    return {"cpu_s_per_gen": cpu / generations, "wall_s_per_gen": wall / generations,
            "wall_games_s_per_gen": float(games), "mean_plies": float(plies), "load_average": os.getloadavg()[0]}


def leaves_per_second(sizes=(32, 40, 10, 1), depth: int = 4, positions: int = 200, min_cpu: float = 1.0) -> dict:
    """Leaves per CPU second of the compiled checkers search at ``depth`` from random positions,
    with a network of ``sizes`` at the leaves (its tables made once, as a player does), or
    piece difference for ``sizes=None``; rounds over the positions until ``min_cpu`` seconds."""
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    from test_search import random_positions

    from evoplay.checkers.game import CHECKERS
    from evoplay.checkers.search import search
    from evoplay.networks.evalnet import n_weights, prepare

    net = None if sizes is None else prepare(np.random.default_rng(0).uniform(-0.2, 0.2, n_weights(sizes)), sizes, 2.0)
    states = random_positions(CHECKERS, positions, seed=1)
    search(states[0], 1, 2.0, network=net)  # compile or load from the cache
    cpu0, wall0 = time.process_time(), time.perf_counter()
    leaves = rounds = 0
    while rounds == 0 or time.process_time() - cpu0 < min_cpu:
        leaves += sum(search(s, depth, 2.0, network=net).leaves for s in states)
        rounds += 1
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return {"network": None if sizes is None else list(sizes), "depth": depth, "positions": positions, "rounds": rounds,
            "leaves": leaves, "cpu_s": cpu, "wall_s": wall, "leaves_per_cpu_s": leaves / cpu, "leaves_per_wall_s": leaves / wall}


def committed_generation(generations: int) -> dict:
    """CPU and wall seconds of a generation of the committed 1999 setting (``results/blondie24/config.toml``:
    30 networks x 5 games at depth 4; the games only, the yardstick off)."""
    cfg = config.load(os.path.join(ROOT, "results", "blondie24", "config.toml"))
    cfg["yardstick"]["every"] = 10**6  # the yardstick runs at generation 1 only (the warm-up), on one ballot
    cfg["yardstick"]["openings"] = 1
    cfg[""]["generations"] = 10**6
    return generation_seconds(cfg, generations)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    gens = int(argv[argv.index("--generations") + 1]) if "--generations" in argv else 3
    from evoplay.networks.evalnet import SPATIAL_SIZES

    out = {"load_average": os.getloadavg(),
           "leaves": leaves_per_second(),  # the 1999 network, 32-40-10-1
           "leaves_spatial": leaves_per_second(SPATIAL_SIZES),  # the 2001 network, 32-(91)-40-10-1
           "leaves_piece_difference": leaves_per_second(None)}
    out["generation_1999"] = committed_generation(max(2, gens))
    for d in (1, 2, 3):
        cfg = config.load(os.path.join(ROOT, "configs", f"blondie24-ttt-d{d}.toml"))
        out[f"tictactoe_depth{d}"] = generation_seconds(cfg, 10 * gens)
    for d in (2, 4):
        cfg = config.load(os.path.join(ROOT, "configs", "blondie24.toml"))
        cfg["game"]["depth"] = d
        cfg["yardstick"]["every"] = 10**6  # the games alone: the yardstick runs at generation 1 only (the warm-up),
        cfg["yardstick"]["openings"] = 1  # on one ballot
        cfg[""]["generations"] = 10**6
        out[f"checkers_depth{d}"] = generation_seconds(cfg, gens if d == 2 else max(1, gens // 3))
    per_gen = out["generation_1999"]["cpu_s_per_gen"]
    out["checkers_depth4_250_generations_hours"] = {str(c): 250 * per_gen / c / 3600 for c in (1, 2, 16, 64)}
    out["load_average_after"] = os.getloadavg()
    if "--json" in argv:
        print(json.dumps(out, indent=1))
        return 0
    print(f"load average {out['load_average'][0]:.1f} (after: {out['load_average_after'][0]:.1f})")
    for key, name in (("leaves", "the 1999 network"), ("leaves_spatial", "the 2001 network"),
                      ("leaves_piece_difference", "piece difference")):
        lv = out[key]
        print(f"compiled checkers search, depth {lv['depth']}, {name}: {lv['leaves_per_cpu_s']:,.0f} leaves per CPU second "
              f"({lv['leaves_per_wall_s']:,.0f} per wall second)")
    g = out["generation_1999"]
    print(f"a generation of results/blondie24/config.toml (30 x 5 games, depth 4): {g['cpu_s_per_gen']:.2f} CPU s "
          f"(wall {g['wall_s_per_gen']:.2f} s; mean plies {g['mean_plies']:.1f})")
    for key, v in out.items():
        if key.startswith(("tictactoe", "checkers_depth")) and isinstance(v, dict) and "cpu_s_per_gen" in v:
            print(f"{key}: {v['cpu_s_per_gen']:.3f} CPU s/generation (wall {v['wall_s_per_gen']:.3f} s; mean plies {v['mean_plies']:.1f})")
    print("250 generations at depth 4: " + ", ".join(f"{c} cores {h:.2f} h" for c, h in out["checkers_depth4_250_generations_hours"].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
