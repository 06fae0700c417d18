"""A Blondie24 run's cost per generation here and projected on a cluster:
`.venv/bin/python benchmarks/project_blondie24.py [CONFIG] [--generations N] [--json]`.

CONFIG (default ``configs/blondie24-2001.toml``) runs ``N`` generations (default 4) in this
process, one game per ``toolbox.map`` job, each job timed (CPU seconds of this process,
``time.process_time``, and wall seconds): the generation's games (``play_chunk``) and, at
generation 1, the yardstick's games against piece difference (``checkers_chunk``). The run
is the config's own (the same games a run plays, any split giving the same results).

The projection for ``P`` cores follows the runner: a generation's games are cut into
``run.plan_chunks`` consecutive chunks (at most ``P``, one per 20,000 units of work: 150
for 150 checkers games), each a Ray task; the generation ends when its slowest chunk does.
So a generation's wall on ``P`` cores is its slowest chunk (each game's measured CPU
seconds, summed per chunk) plus the scheduling: a Ray task's dispatch and result
(``--task-ms``, default 3 ms, serial on the driver for ``chunks / P`` rounds) and the
driver's own share of a generation (mutation, pairing, selection: measured here as the
generation's CPU seconds beyond its games). Below it, however many cores: the longest game
of the generation. Figures are per generation, averaged over the generations run, and for
a whole run (``generations`` of the config) with its yardstick games (every
``yardstick.every`` generations) and the last parents' league (``champion.rule =
"league"``: 105 pairs x 2 ``champion.ballots`` games, priced at the mean game) added.
A loaded machine slows every figure alike; the load average is printed beside them.

``--timeline G`` measures the task overhead instead of assuming it: G more generations run
through the runner's Ray map on embedded Ray (``--workers``, default all CPUs), one game per
task as on a cluster of 150 cores or more, and Ray's own timeline (``ray.timeline()``) gives
every task's start and end on its worker. A worker's gap between the end of one task and
the start of its next, within a generation, is what a task costs beyond its game (dispatch,
arguments, result); the median gap replaces ``--task-ms`` in the projection, and the
figures (task gaps, tasks' execution times against the games' CPU times, each generation's
wall against its busiest worker) are printed beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

from evoplay.framework import config as configs
from evoplay.framework.recipe import Context
from evoplay.framework.runner import plan_chunks
from evoplay.framework.streams import Streams
from evoplay.framework.trial import TrialRun
from evoplay.recipes.blondie24 import yardstick
from evoplay.recipes.blondie24.recipe import Blondie24Recipe

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORES = (2, 16, 64, 256)


class TimingMap:
    """``map`` that times every job (CPU and wall seconds), by the function's name."""

    def __init__(self):
        self.jobs = []

    def __call__(self, fn, jobs):
        out = []
        for job in jobs:
            c, w = time.process_time(), time.perf_counter()
            out.append(fn(job))
            self.jobs.append((fn.__name__, time.process_time() - c, time.perf_counter() - w))
        return out


def measure(cfg: dict, generations: int) -> dict:
    """Per generation: each game's CPU and wall seconds, the generation's CPU and wall seconds; the yardstick's games."""
    cfg = json.loads(json.dumps(cfg))
    cfg[""]["generations"] = max(cfg[""]["generations"], generations + 1)  # the league is not reached
    recipe = Blondie24Recipe(cfg)
    timing = TimingMap()
    run = TrialRun(recipe, 0, map_fn=timing, chunks=recipe.games_per_generation())
    gens = []
    for _ in range(generations):
        timing.jobs.clear()
        c, w = time.process_time(), time.perf_counter()
        record = run.step()
        cpu, wall = time.process_time() - c, time.perf_counter() - w
        games = [(c_, w_) for name, c_, w_ in timing.jobs if name != "checkers_chunk"]  # toolbox.evaluate: play_chunk
        yard = [(c_, w_) for name, c_, w_ in timing.jobs if name == "checkers_chunk"]
        gens.append({"gen": record["gen"], "cpu": cpu, "wall": wall, "mean_plies": record["mean_plies"],
                     "games_cpu": [g[0] for g in games], "games_wall": [g[1] for g in games],
                     "yard_cpu": [y[0] for y in yard], "yard_games": yardstick.n_games(recipe) if yard else 0,
                     "load": os.getloadavg()[0]})
    return {"recipe": recipe, "gens": gens}


def timeline(cfg: dict, generations: int, workers: int | None) -> dict:
    """``generations`` generations (after generation 1, whose yardstick is skipped) through the runner's
    Ray map, one game per task, read back from ``ray.timeline()``: per-worker gaps between consecutive
    tasks within a generation, tasks' execution seconds, and each generation's wall on the driver."""
    import ray

    from evoplay.framework.distributed import RayMap, init_ray, shutdown_ray

    cfg = json.loads(json.dumps(cfg))
    cfg[""]["generations"] = max(cfg[""]["generations"], generations + 2)
    cfg["yardstick"]["every"] = 10**6  # only generation 1 measures; it is run before the timed ones
    recipe = Blondie24Recipe(cfg)
    init_ray(None, workers)
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        run = TrialRun(recipe, 0, map_fn=RayMap(chunk_size=1), chunks=recipe.games_per_generation())
        run.step()
        spans = []
        for _ in range(generations):
            t0 = time.time()
            run.step()
            spans.append((t0, time.time()))
        time.sleep(2.0)  # task events reach the GCS in batches
        events = ray.timeline()
    finally:
        shutdown_ray()
    tasks = sorted((e for e in events if str(e.get("cat", "")).startswith("task::") and e.get("ph") == "X"),
                   key=lambda e: (e["tid"], e["ts"]))
    gaps, execute, busiest = [], [], []
    for a, b in spans:
        inside = [e for e in tasks if a * 1e6 <= e["ts"] and e["ts"] + e["dur"] <= b * 1e6]
        execute += [e["dur"] / 1e6 for e in inside]
        per_worker = {}
        for e in inside:
            per_worker.setdefault(e["tid"], []).append(e)
        busiest.append(max(sum(e["dur"] for e in es) for es in per_worker.values()) / 1e6)
        for es in per_worker.values():
            gaps += [(n["ts"] - (p["ts"] + p["dur"])) / 1e6 for p, n in zip(es, es[1:])]
    gaps, execute = np.array(gaps), np.array(execute)
    return {"workers": cpus, "generations": generations, "tasks": int(len(execute)),
            "task_gap_ms": {"median": float(np.median(gaps) * 1e3), "mean": float(gaps.mean() * 1e3),
                            "p95": float(np.percentile(gaps, 95) * 1e3)},
            "task_execute_s": {"mean": float(execute.mean()), "max": float(execute.max())},
            "generation_wall_s": [b - a for a, b in spans], "busiest_worker_s": busiest,
            "load_average": os.getloadavg()[0]}


def generation_wall(game_cpu: list, cores: int, cfg: dict, recipe, driver_s: float, task_s: float) -> float:
    """A generation's projected wall on ``cores`` cores: the runner's chunks of its games, the slowest one,
    the driver's share and the dispatch of ``chunks`` tasks (``chunks / cores`` rounds, at least one)."""
    chunks = plan_chunks(cfg, cores, 1, recipe.generation_work())
    bounds = Context(Streams(0, 0, 1), map, chunks).bounds(len(game_cpu))
    slowest = max(sum(game_cpu[a:b]) for a, b in bounds)
    return slowest + driver_s + task_s * max(1.0, len(bounds) / cores)


def project(cfg: dict, measured: dict, task_ms: float) -> dict:
    recipe, gens = measured["recipe"], measured["gens"]
    plain = [g for g in gens if not g["yard_cpu"]] or gens  # generations without the yardstick
    per_game = np.concatenate([g["games_cpu"] for g in plain])
    driver = float(np.mean([max(0.0, g["cpu"] - sum(g["games_cpu"]) - sum(g["yard_cpu"])) for g in plain]))
    yard = next((g for g in gens if g["yard_cpu"]), None)
    yard_cpu = sum(yard["yard_cpu"]) if yard else 0.0
    total_gens = cfg[""]["generations"]
    measuring = sum(1 for g in range(1, total_gens + 1) if yardstick.measuring(recipe, g))
    earlier = max(0, measuring - 1)
    league_games = 0
    if cfg["champion"]["rule"] == "league":
        n = cfg["population"]["parents"]
        league_games = n * (n - 1) // 2 * 2 * cfg["champion"]["ballots"]
    out = {"config": cfg[""]["name"], "generations_measured": [g["gen"] for g in gens],
           "games_per_generation": len(per_game) // len(plain),
           "cpu_s_per_generation": float(np.mean([sum(g["games_cpu"]) + driver for g in plain])),
           "wall_s_per_generation_one_core": float(np.mean([g["wall"] for g in plain])),
           "game_cpu_s": {"mean": float(per_game.mean()), "median": float(np.median(per_game)),
                          "p95": float(np.percentile(per_game, 95)), "max": float(per_game.max())},
           "longest_game_s_mean_per_generation": float(np.mean([max(g["games_cpu"]) for g in plain])),
           "driver_cpu_s_per_generation": driver, "mean_plies": float(np.mean([g["mean_plies"] for g in plain])),
           "yardstick_cpu_s": yard_cpu, "yardstick_measurements": measuring, "earlier_champions": earlier,
           "league_games": league_games, "load_average": float(np.mean([g["load"] for g in gens])),
           "task_ms": task_ms, "cores": {},
           "measured": [{k: v for k, v in g.items()} for g in gens]}
    yard_games_cpu = (yard_cpu / yard["yard_games"]) if yard else 0.0
    # the yardstick's games and the final games (versus earlier, league) spread over the cores like a generation's
    extra_cpu = yard_games_cpu * yardstick.n_games(recipe) * (measuring + earlier) + per_game.mean() * league_games
    for cores in CORES:
        walls = [generation_wall(g["games_cpu"], cores, cfg, recipe, driver, task_ms / 1000) for g in plain]
        gen_wall = float(np.mean(walls))
        run_wall = gen_wall * total_gens + extra_cpu / min(cores, 150)
        out["cores"][str(cores)] = {"generation_wall_s": gen_wall, "run_wall_h": run_wall / 3600,
                                    "speedup_vs_one_core": float(np.mean([sum(g["games_cpu"]) + driver for g in plain]) / gen_wall)}
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("config", nargs="?", default=os.path.join(ROOT, "configs", "blondie24-2001.toml"))
    ap.add_argument("--generations", type=int, default=4, help="generations to measure (generation 1 has the yardstick)")
    ap.add_argument("--task-ms", type=float, default=3.0, help="a Ray task's dispatch and result, milliseconds")
    ap.add_argument("--timeline", type=int, default=0, metavar="G",
                    help="measure the task overhead on embedded Ray over G generations (Ray's timeline) and project with it")
    ap.add_argument("--workers", type=int, default=None, help="--timeline: CPUs of embedded Ray (default all)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    cfg = configs.load(args.config)
    measured = measure(cfg, args.generations)
    ray_figures = timeline(cfg, args.timeline, args.workers) if args.timeline else None
    result = project(cfg, measured, ray_figures["task_gap_ms"]["median"] if ray_figures else args.task_ms)
    if ray_figures:
        result["timeline"] = ray_figures
    if args.json:
        print(json.dumps(result, indent=1))
        return
    g = result["game_cpu_s"]
    print(f"{result['config']}: generations {result['generations_measured']} on one core of this machine "
          f"(load {result['load_average']:.1f}), {result['games_per_generation']} games a generation, "
          f"{result['mean_plies']:.0f} plies a game on average")
    print(f"  CPU s a generation {result['cpu_s_per_generation']:.2f} (driver {result['driver_cpu_s_per_generation']:.3f}), "
          f"wall {result['wall_s_per_generation_one_core']:.2f}; a game: mean {g['mean']:.3f}, median {g['median']:.3f}, "
          f"p95 {g['p95']:.3f}, max {g['max']:.3f} CPU s; the longest game of a generation {result['longest_game_s_mean_per_generation']:.3f} s")
    print(f"  yardstick ({result['yardstick_measurements']} measurements, {result['earlier_champions']} earlier champions): "
          f"{result['yardstick_cpu_s']:.1f} CPU s a measurement; the league: {result['league_games']} games")
    if ray_figures:
        t = ray_figures
        print(f"  Ray's timeline, {t['tasks']} one-game tasks over {t['generations']} generations on {t['workers']} workers "
              f"(load {t['load_average']:.1f}): a worker's gap between tasks median {t['task_gap_ms']['median']:.2f} ms "
              f"(mean {t['task_gap_ms']['mean']:.2f}, p95 {t['task_gap_ms']['p95']:.2f}); a task executes "
              f"{t['task_execute_s']['mean']:.3f} s on average; generation wall "
              f"{np.mean(t['generation_wall_s']):.2f} s against its busiest worker's {np.mean(t['busiest_worker_s']):.2f} s")
    print(f"  projection with a task overhead of {result['task_ms']:.2f} ms"
          f"{' (measured)' if ray_figures else ' (assumed, --task-ms)'}:")
    for cores, p in result["cores"].items():
        print(f"  {cores:>3} cores: {p['generation_wall_s']:.3f} s a generation (x{p['speedup_vs_one_core']:.1f}), "
              f"the run {p['run_wall_h']:.2f} h")


if __name__ == "__main__":
    sys.exit(main())
