"""Study throughput: `.venv/bin/python benchmarks/bench_study.py [--json] [--repeats N] [--trials N] [--generations N]`.

Runs one study (4 variants of Fogel's recipe x 4 trials x 400 generations by default; the
ablation study's trials are `--trials 20 --generations 800`) three ways and reports wall
seconds (each study figure the median of N runs, 3 by default, alternating 1 and 2
workers):
- `evoplay study` with 1 worker and with 2 workers (all chains in one Ray task pool);
- the same four variants as four `evoplay evolve` runs one after another (2 workers).
Each figure is one fresh process, Ray start-up included, as a user would run it; beside
the studies' wall time it reports their pool (the part the workers share: every trial's
segments, from the first task to the last, as `study-environment.json` records it), whose
speed-up is the workers' own, apart from Ray's start and the runs' ends.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
VARIANTS = {"paper": "", "no-arch": "[mutation]\np_arch = 0.0\n", "sigma-0.2": "[mutation]\nsigma = 0.2\n",
            "games-8": "[evaluation]\ngames = 8\n"}
TRIALS, GENERATIONS = 4, 400
REPEATS = 3  # each study figure is the median of this many runs: the machine's speed drifts


def option(argv, name: str, default: int) -> int:
    return int(argv[argv.index(name) + 1]) if name in argv else default


def timed(args) -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "evoplay", *args], cwd=ROOT, env=ENV, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    repeats, trials, generations = (option(argv, "--repeats", REPEATS), option(argv, "--trials", TRIALS),
                                    option(argv, "--generations", GENERATIONS))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        study = [f'name = "bench"\nbase = "{ROOT / "configs/fogel1993.toml"}"\ntrials = {trials}\ngenerations = {generations}\n']
        for name, body in VARIANTS.items():
            over = "".join(f"{line}\n" for line in body.splitlines() if "=" in line)
            section = next((line.strip("[]") for line in body.splitlines() if line.startswith("[")), None)
            study.append(f'\n[[variants]]\nname = "{name}"\n' + (
                "".join(f"{section}.{line}\n" for line in over.splitlines()) if section else ""))
        (tmp / "study.toml").write_text("".join(study))
        result = {"setup": f"{len(VARIANTS)} variants x {trials} trials x {generations} generations of Fogel's recipe"}
        result["repeats"] = repeats
        runs = {1: [], 2: []}
        for r in range(repeats):  # alternated: 1 worker, 2 workers, 1 worker, ...
            for n in (1, 2):
                out = tmp / f"s{n}-{r}"
                wall = timed(["study", str(tmp / "study.toml"), "--out", str(out), "--workers", str(n), "-q"])
                env = json.loads((out / "study-environment.json").read_text())
                runs[n].append((wall, env["seconds"]["pool"], env["seconds"]["ray_start"], sum(env["task_seconds"].values())))
        for n, key in ((1, "1_worker"), (2, "2_workers")):
            for i, name in enumerate(("study_{}_s", "pool_{}_s", "ray_start_{}_s", "task_seconds_{}")):
                result[name.format(key)] = statistics.median(run[i] for run in runs[n])
        seq = 0.0
        for name, body in VARIANTS.items():
            cfg = tmp / f"{name}.toml"
            base = (ROOT / "configs/fogel1993.toml").read_text()
            cfg.write_text(base.replace("trials = 20", f"trials = {trials}").replace("generations = 800", f"generations = {generations}"))
            if body:
                section, line = body.splitlines()[0], body.splitlines()[1]
                text = cfg.read_text()
                key = line.split("=")[0].strip()
                lines = text.splitlines()
                start = lines.index(section)
                for i in range(start + 1, len(lines)):
                    if lines[i].split("=")[0].strip() == key:
                        lines[i] = line
                        break
                cfg.write_text("\n".join(lines) + "\n")
            seq += timed(["evolve", str(cfg), "--out", str(tmp / f"e-{name}"), "--workers", "2", "-q"])
        result["evolve_one_after_another_2_workers_s"] = seq
    result["speedup_2_over_1_workers"] = result["study_1_worker_s"] / result["study_2_workers_s"]
    result["pool_speedup_2_over_1_workers"] = result["pool_1_worker_s"] / result["pool_2_workers_s"]
    result["speedup_study_over_sequential"] = seq / result["study_2_workers_s"]
    if "--json" in argv:
        print(json.dumps(result, indent=1))
    else:
        print(f"study ({result['setup']}; medians of {repeats} runs each):")
        print(f"  evoplay study, 1 worker:  {result['study_1_worker_s']:.1f} s")
        print(f"  evoplay study, 2 workers: {result['study_2_workers_s']:.1f} s (x{result['speedup_2_over_1_workers']:.2f})")
        print(f"  of which the pool (every trial's segments): 1 worker {result['pool_1_worker_s']:.1f} s, "
              f"2 workers {result['pool_2_workers_s']:.1f} s (x{result['pool_speedup_2_over_1_workers']:.2f}); "
              f"task seconds {result['task_seconds_1_worker']:.1f} and {result['task_seconds_2_workers']:.1f}; "
              f"Ray start {result['ray_start_1_worker_s']:.1f} and {result['ray_start_2_workers_s']:.1f} s")
        print(f"  the variants as evoplay evolve one after another (2 workers): {seq:.1f} s "
              f"(the study is x{result['speedup_study_over_sequential']:.2f} faster)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
