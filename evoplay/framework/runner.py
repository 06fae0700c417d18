"""An evolution run: trials advance in checkpointed segments that run as Ray tasks.

The driver owns every file: each segment task returns the trial's state as plain data,
the driver writes it as the trial's checkpoint and submits that trial's next segment
(trials never wait for each other). A killed worker costs one segment (Ray retries it);
a killed driver resumes from the checkpoints. Because a trial is a pure function of
(config, trial), the result is the same whatever ran where.
"""

from __future__ import annotations

import resource
import shutil
import time

from evoplay import __version__
from evoplay.framework import distributed
from evoplay.atomic import write_text
from evoplay.framework.config import load, to_toml
from evoplay.errors import EvoplayError
from evoplay.recipes.fogel.recipe import FogelEvolution
from evoplay.tictactoe.playerfile import read_document
from evoplay.tictactoe.players import provide_files
from evoplay.framework.rundir import RunDir, state_from_dict, state_to_dict
from evoplay.framework.summary import finish_run


def player_files(cfg: dict) -> dict:
    """Checked documents of the player files the config names as opponents, by path."""
    opponent = cfg["evaluation"]["opponent"]
    specs = [opponent] if isinstance(opponent, str) else [o["player"] for o in opponent]
    return {s: read_document(s) for s in specs if s.endswith(".json") or "/" in s}


def run_segment(cfg: dict, trial: int, state: dict | None, until: int, chunks: int, log_detail: bool, files: dict):
    """Advance one trial to generation ``until``; return (state, detail log text).

    Runs on a Ray worker, which gets the opponents' player files from the driver
    (``files``), so nodes need no copy of them. With ``chunks > 1`` the population's
    evaluation is split into that many Ray tasks through ``toolbox.map``.
    """
    provide_files(files)
    map_fn = distributed.RayMap(chunk_size=1, inline_first=True) if chunks > 1 else map
    if state is None:
        evo = FogelEvolution.start(cfg, trial, map_fn=map_fn, chunks=chunks)
    else:
        evo = FogelEvolution(cfg, state_from_dict(state), map_fn=map_fn, chunks=chunks)
    detail = []
    if log_detail:
        from evoplay.recipes.fogel.detail import format_generation

        evo.hooks.append(lambda ev: detail.append(format_generation(ev)))
    evo.run(until)
    return state_to_dict(evo.state), "".join(detail)


def plan_chunks(cfg: dict, cpus: int, trials_left: int) -> int:
    """Evaluation chunks per generation: split only when trials alone cannot fill the CPUs.

    A chunk must carry far more work than it costs to ship (a Fogel generation of 3,200
    games takes about 2 ms), so each gets at least 20,000 games; config
    ``run.eval_chunks`` overrides.
    """
    if cfg["run"]["eval_chunks"]:
        return cfg["run"]["eval_chunks"]
    if trials_left >= cpus:
        return 1
    games = 2 * cfg["population"]["parents"] * cfg["evaluation"]["games"]
    return int(max(1, min(cpus, games // 20_000)))


def _prepare(rd: RunDir, cfg: dict, resume: bool) -> dict:
    """States to start from, per trial (None: fresh); a resume must use the stored config."""
    if resume:
        if not rd.config.is_file():
            raise EvoplayError(f"nothing to resume in {rd.root} (no config.toml)")
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
    if progress is not None:
        progress.reset(total=len(states) * gens)
        progress.update(sum(s["generation"] for s in states.values() if s))
    todo = [t for t, s in states.items() if s is None or s["generation"] < gens]
    chunks = plan_chunks(cfg, int(info["cpus"]), len(todo))
    files = player_files(cfg)

    def segment(t):
        """The job advancing trial ``t`` to its next checkpoint."""
        g = states[t]["generation"] if states[t] else 0
        return (cfg, t, states[t], min(gens, (g // every + 1) * every), chunks, log_detail, files)

    def landed(i, result):
        """Checkpoint a finished segment; return the trial's next segment, if any."""
        t = todo[i]
        state, detail = result
        start = states[t]["generation"] if states[t] else 0
        if detail:
            write_text(rd.detail_part(t, start + 1, state["generation"]), detail)
        rd.write_checkpoint(state)
        states[t] = state
        if progress is not None:
            progress.update(state["generation"] - start)
            finished = sum(s is not None and s["generation"] >= gens for s in states.values())
            progress.set_postfix_str(f"trial {t} at gen {state['generation']}, {finished}/{len(states)} trials done")
        return segment(t) if state["generation"] < gens else None

    distributed.run_chains(run_segment, [segment(t) for t in todo], landed)
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
