"""Exact against sampled fitness, ms per generation: `.venv/bin/python benchmarks/bench_beyond.py`.

Runs Fogel's recipe (50 parents, 100 networks evaluated per generation, logic as the
opponent) in this process with ``evaluation.mode = "sampled"`` (32 games per network) and
``"exact"`` (the exact expected payoff), and the two co-evolution configurations
(``configs/coevolution.toml``: 5 opponents from both seats, 1,000 games per generation;
``configs/coevolution-hof.toml``: 20 opponents, 2 games per seat, 8,000 games),
alternating blocks of generations so all see the same machine load. Prints the median and mean ms per generation of the evaluation
alone and of the whole generation (mutation, evaluation, selection; the yardstick that
these recipes add is timed apart), and the load average. Options: --generations N
(per mode, default 400), --json.
"""

from __future__ import annotations

import json
import os
import sys
import time

import numpy as np

from evoplay.framework import config as configs
from evoplay.framework.config import recipe_class
from evoplay.framework.trial import TrialRun
from evoplay.recipes.fogel import exact_yardstick


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    gens = int(argv[argv.index("--generations") + 1]) if "--generations" in argv else 400
    block = 50
    runs, times = {}, {}
    setups = {
        "sampled": ("fogel-exact", {"evaluation": {"mode": "sampled"}}),
        "exact": ("fogel-exact", {"evaluation": {"mode": "exact"}}),
        "coevolution": ("coevolution", {}),  # configs/coevolution.toml's settings: 5 opponents, both seats
        "coevolution-hof": ("coevolution", {"coevolution": {"opponents": 10, "games": 2, "explore": 0.1, "hall_of_fame": 10, "points_loss": -10.0}}),
    }
    for mode, (name, extra) in setups.items():
        cfg = configs.resolve({"recipe": name, "name": "bench", "trials": 1, "generations": gens, **extra})
        recipe = recipe_class(name)(cfg)
        times[mode] = {"evaluation": [], "generation": []}
        recipe.hooks.append(lambda ev, m=mode: (times[m]["evaluation"].append(ev.seconds["evaluation"]), times[m]["generation"].append(ev.seconds["total"])))
        runs[mode] = TrialRun(recipe, 0)
    load0 = os.getloadavg()
    done = 0
    while done < gens:
        for mode in setups:
            runs[mode].run(min(done + block, gens))
        done = min(done + block, gens)
    champ = runs["exact"].trial.state.champion
    t = time.perf_counter()
    for _ in range(50):
        exact_yardstick.record(champ)
    yard_ms = (time.perf_counter() - t) / 50 * 1000
    load1 = os.getloadavg()
    result = {
        "generations_per_mode": gens,
        "networks_per_generation": 100,
        "ms_per_generation": {
            m: {k: {"median": 1000 * float(np.median(v)), "mean": 1000 * float(np.mean(v))} for k, v in times[m].items()} for m in times
        },
        "yardstick_ms": yard_ms,
        "load_average_before_after": [round(load0[0], 2), round(load1[0], 2)],
        "cpus": os.cpu_count(),
    }
    if "--json" in argv:
        print(json.dumps(result, indent=1))
        return 0
    print(f"{gens} generations per mode, 100 networks per generation, load average {load0[0]:.1f} -> {load1[0]:.1f} on {os.cpu_count()} CPUs")
    for m, d in result["ms_per_generation"].items():
        print(f"  {m:15s} evaluation {d['evaluation']['median']:6.1f} ms (mean {d['evaluation']['mean']:6.1f})   whole generation {d['generation']['median']:6.1f} ms (mean {d['generation']['mean']:6.1f})")
    print(f"  yardstick of one network (5 exact analyses): {yard_ms:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
