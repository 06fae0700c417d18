"""The evoplay benchmark: `make bench` (or `.venv/bin/python benchmarks/bench_fogel.py`).

Prints, measured here and now:
- games per second per core against `logic` (whole generations), and ms per generation
  by part (the compiled generation's draws, compiled call and survivors; the general
  path's mutation, evaluation and selection beside it), beside the compiled floor
  (`floor.py`: a minimal compiled evaluation of the same networks' games) and their ratio;
- the per-game Python reference implementation of one Fogel generation, side by side,
  and the speed-up;
- how evaluation time grows with population size and games per network;
- Ray scaling from 1 to 2 workers, trial-level and evaluation-level;
- the full Fogel experiment end to end (20 trials x 800 generations, Ray start-up
  included), its wall clock and the driver's peak resident memory.

Options: --json (one JSON object), --no-full (skip the full run).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def full_run() -> dict:
    """Run `evoplay evolve configs/fogel1993.toml` in a fresh process and time it."""
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "evoplay", "evolve", "configs/fogel1993.toml", "--out", tmp, "--quiet"],
                       cwd=ROOT, check=True, env={**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}, stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - t
        env = json.loads((Path(tmp) / "environment.json").read_text())
        summary = json.loads((Path(tmp) / "summary.json").read_text())
    return {
        "wall_s": round(wall, 2),
        "ray_start_s": env["seconds"]["ray_start"],
        "evolve_s": env["seconds"]["evolve"],
        "driver_peak_rss_mib": env["driver_peak_rss_mib"],
        "games": summary["games_played"],
        "cpus": env["ray"]["cpus"],
    }


def floor_figures(generations: int = 200) -> dict:
    """The compiled floor on a warm trial's pool (same networks, same games) beside that trial's generations."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from floor import floor_outcomes

    from evoplay.recipes.fogel import bench
    from evoplay.framework import config
    from evoplay.recipes.fogel import operators

    cfg = config.defaults()
    evo = bench.warm_trial(cfg, generations)
    split = bench.generation_split(cfg, evo, generations)
    pool = bench._pool(evo)
    games = cfg["evaluation"]["games"]
    u = operators.game_uniforms((0, 0, 0), 0, len(pool), games)
    opponent, _ = operators.opponent_player(json.dumps(cfg["evaluation"]["opponent"]), games)
    floor_ms = 1e3 * bench._timed(lambda: floor_outcomes(pool, u, opponent), 50)
    return {"floor_ms": floor_ms, "generation_ms": split["total_ms"], "ratio": split["total_ms"] / floor_ms}


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    from evoplay.recipes.fogel import bench

    result = bench.engine_figures()
    result["floor"] = floor_figures()
    result["ray_scaling_s"] = bench.ray_scaling()
    if "--no-full" not in argv:
        result["full_run"] = full_run()
    if "--json" in argv:
        print(json.dumps(result, indent=1))
        return 0
    g, ref = result["generation"], result["reference"]
    print(f"engine: {result['games_per_second_per_core']:,.0f} games/s per core against logic in a run "
          f"({result['games_per_second_per_core_engine_alone']:,.0f} for the engine alone)")
    print(f"generation: {g['total_ms']:.2f} ms = {bench.parts_text(g).replace(', ', ' + ')} + bookkeeping"
          " (compiled: the random numbers, mutation, games, payoffs, tournament, selection's order;"
          " survivors: the surviving networks' objects and the logbook's figures; setup: the operators' arguments)")
    gg = result["generation_general_path"]
    print(f"general path (an operator swapped, same numbers): {gg['total_ms']:.2f} ms = {bench.parts_text(gg).replace(', ', ' + ')}"
          " + bookkeeping")
    fl = result["floor"]
    print(f"compiled floor (floor.py, same networks and games): {fl['floor_ms']:.2f} ms; a whole generation"
          f" {fl['generation_ms']:.2f} ms = {fl['ratio']:.2f} x the floor")
    print(f"per-game Python reference, one generation's evaluation: {ref['reference_ms']:.0f} ms vs {ref['engine_ms']:.2f} ms"
          f" (x{ref['speedup']:.0f})")
    sc = result["scaling_evaluation_ms"]
    print("evaluation ms (engine alone) vs parents (32 games):", ", ".join(f"{k}: {v:.2f}" for k, v in sc["parents"].items()))
    print("evaluation ms vs games per network (50 parents):", ", ".join(f"{k}: {v:.2f}" for k, v in sc["games"].items()))
    for level, r in result["ray_scaling_s"].items():
        if level != "setup":
            print(f"Ray {level}: 1 worker {r[1]:.2f} s, 2 workers {r[2]:.2f} s (x{r['speedup']:.2f}); {result['ray_scaling_s']['setup'][level]}")
    if "full_run" in result:
        f = result["full_run"]
        print(f"full Fogel experiment ({f['games']:,} games) on {f['cpus']} CPUs: {f['wall_s']:.1f} s wall"
              f" (Ray start {f['ray_start_s']:.1f} s, evolution {f['evolve_s']:.1f} s); driver peak RSS {f['driver_peak_rss_mib']:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
