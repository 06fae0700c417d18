"""An evolution run: trials advance in checkpointed segments that run as Ray tasks.

The driver owns every file: each segment task returns the trial's state as plain data,
the driver writes it as the trial's checkpoint and submits the next segment. A killed
worker costs one segment (Ray retries it); a killed driver resumes from the checkpoints.
Because a trial is a pure function of (config, trial), the result is the same whatever
ran where.
"""

from __future__ import annotations

import resource
import shutil
import time
from pathlib import Path

import numpy as np

from . import __version__, distributed
from .atomic import write_text
from .config import to_toml
from .errors import EvoplayError
from .evolve import FogelEvolution
from .rundir import RunDir, state_from_dict, state_to_dict
from .summary import finish_run


def run_segment(cfg: dict, trial: int, state: dict | None, until: int, chunks: int, log_detail: bool):
    """Advance one trial to generation ``until``; return (state, detail log text).

    Runs on a Ray worker. With ``chunks > 1`` the population's evaluation is split into
    that many Ray tasks through ``toolbox.map``.
    """
    map_fn = distributed.RayMap(chunk_size=1) if chunks > 1 else map
    if state is None:
        evo = FogelEvolution.start(cfg, trial, map_fn=map_fn, chunks=chunks)
    else:
        evo = FogelEvolution(cfg, state_from_dict(state), map_fn=map_fn, chunks=chunks)
    detail = []
    if log_detail:
        from .detail import format_generation

        evo.hooks.append(lambda ev: detail.append(format_generation(ev)))
    evo.run(until)
    return state_to_dict(evo.state), "".join(detail)


def plan_chunks(cfg: dict, cpus: int, trials_left: int) -> int:
    """Evaluation chunks per generation: split only when trials alone cannot fill the CPUs.

    A chunk should carry well over Ray's per-task overhead (about a millisecond), so it
    needs a few thousand games; config ``run.eval_chunks`` overrides.
    """
    if cfg["run"]["eval_chunks"]:
        return cfg["run"]["eval_chunks"]
    if trials_left >= cpus:
        return 1
    games = 2 * cfg["population"]["parents"] * cfg["evaluation"]["games"]
    return int(max(1, min(cpus, games // 20_000)))


def _prepare(rd: RunDir, cfg: dict, resume: bool) -> dict:
    """States to start from, per trial (None: fresh); on resume the stored config wins."""
    if resume:
        if not rd.config.is_file():
            raise EvoplayError(f"nothing to resume in {rd.root} (no config.toml)")
        from .config import load

        stored = load(rd.config)
        if stored != cfg:
            raise EvoplayError(f"--resume: the config differs from the one stored in {rd.config}")
        return {t: rd.read_checkpoint(t) for t in range(cfg[""]["trials"])}
    for stale in (rd.checkpoints, rd.root / "trials"):
        if stale.exists():
            shutil.rmtree(stale)
    rd.root.mkdir(parents=True, exist_ok=True)
    write_text(rd.config, to_toml(cfg))
    return {t: None for t in range(cfg[""]["trials"])}


def evolve(cfg: dict, out, address=None, workers=None, resume=False, log_detail=False, progress=None) -> dict:
    """Run (or resume) an evolution into run directory ``out``; return the summary."""
    rd = RunDir(out)
    states = _prepare(rd, cfg, resume=True) if resume else None
    t0 = time.time()
    info = distributed.init_ray(address=address, workers=workers)
    if states is None:  # a fresh run clears the directory only once Ray is up
        states = _prepare(rd, cfg, resume=False)
    t_ray = time.time() - t0
    gens = cfg[""]["generations"]
    every = cfg["run"]["checkpoint_every"]
    done_gens = {t: (s["generation"] if s else 0) for t, s in states.items()}
    if progress is not None:
        progress.reset(total=len(states) * gens)
        progress.update(sum(done_gens.values()))
    while True:
        todo = [t for t, s in states.items() if s is None or s["generation"] < gens]
        if not todo:
            break
        chunks = plan_chunks(cfg, int(info["cpus"]), len(todo))
        jobs = []
        for t in todo:
            g = states[t]["generation"] if states[t] else 0
            jobs.append((cfg, t, states[t], min(gens, (g // every + 1) * every), chunks, log_detail))

        def landed(i, result, jobs=jobs):
            t = jobs[i][1]
            state, detail = result
            if detail:
                start = states[t]["generation"] if states[t] else 0
                write_text(rd.detail_part(t, start + 1, state["generation"]), detail)
            rd.write_checkpoint(state)
            if progress is not None:
                progress.update(state["generation"] - (states[t]["generation"] if states[t] else 0))
            states[t] = state
            if progress is not None:
                finished = sum(s is not None and s["generation"] >= gens for s in states.values())
                progress.set_postfix_str(f"trial {t} at gen {state['generation']}, {finished}/{len(states)} trials done")

        distributed.run_tasks(run_segment, jobs, on_result=landed)
    t_evolve = time.time() - t0 - t_ray
    summary = finish_run(rd, cfg, {t: state_from_dict(s) for t, s in states.items()})
    env = {
        "evoplay_version": __version__,
        "seed": cfg[""]["seed"],
        "ray": info,
        "resumed": bool(resume),
        "driver_peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "seconds": {"ray_start": round(t_ray, 3), "evolve": round(t_evolve, 3), "total": round(time.time() - t0, 3)},
    }
    rd.write_json(rd.environment, env)
    return summary
