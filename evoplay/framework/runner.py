"""A run of any recipe: trials advance in checkpointed segments that run as Ray tasks.

The driver owns every file: each segment task returns the trial's state as plain data,
the driver writes it as the trial's checkpoint (and the logbook so far, so ``tail -f``
and ``evoplay plot`` follow a running run) and submits that trial's next segment (trials
never wait for each other). A killed worker costs one segment (Ray retries it); a killed
driver resumes from the checkpoints. Because a trial is a pure function of (config,
trial), the result is the same whatever ran where. The recipe and any user code it names
travel to the workers as data (config, shipped sources, shipped files), never as paths
a worker would have to find.
"""

from __future__ import annotations

import logging
import resource
import time

from evoplay import __version__, usercode
from evoplay.atomic import write_text
from evoplay.errors import EvoplayError
from evoplay.framework import distributed
from evoplay.framework.config import differences, load, recipe_class, to_toml
from evoplay.framework.recipe import Recipe
from evoplay.framework.rundir import RunDir, digest
from evoplay.framework.trial import TrialRun
from evoplay.framework.summary import finish_run

log = logging.getLogger("evoplay.runner")


def make_recipe(cfg: dict) -> Recipe:
    """The recipe object of a resolved config."""
    return recipe_class(cfg[""]["recipe"])(cfg)


def run_segment(cfg: dict, trial: int, data: dict | None, until: int, chunks: int, log_detail: bool, shipment: dict):
    """Advance one trial to generation ``until``; return (trial data, detail log text).

    Runs on a Ray worker. ``shipment`` carries the user code the config names and what
    the recipe's ``ship()`` sent (say, player files), so nodes need no copy of either.
    With ``chunks > 1`` the recipe's evaluation is split into Ray tasks through its map.
    """
    usercode.provide(shipment.get("code", {}))
    cls = recipe_class(cfg[""]["recipe"])
    cls.receive(shipment.get("recipe", {}))
    recipe = cls(cfg)
    map_fn = distributed.RayMap(chunk_size=1, inline_first=True) if chunks > 1 else map
    detail = [] if log_detail else None
    run = TrialRun(recipe, trial, data, map_fn=map_fn, chunks=chunks, detail=detail).run(until)
    return run.to_data(), "".join(detail or [])


def plan_chunks(cfg: dict, cpus: int, trials_left: int, work: float | None = None) -> int:
    """Evaluation chunks per generation: split only when trials alone cannot fill the CPUs.

    A chunk must carry far more work than it costs to ship (a Fogel generation of 3,200
    games takes about 2 ms), so each gets at least 20,000 games (``work`` is a
    generation's games, when the recipe says); config ``run.eval_chunks`` overrides.
    """
    if cfg["run"]["eval_chunks"]:
        return cfg["run"]["eval_chunks"]
    if trials_left >= cpus or not work:
        return 1
    return int(max(1, min(cpus, work // 20_000)))


def _prepare(rd: RunDir, cfg: dict, resume: bool, overwrite: bool) -> dict | None:
    """Check the run directory before any work; return the states to resume from (None: fresh)."""
    if not resume:
        rd.check_fresh(overwrite)
        return None
    if not rd.config.is_file():
        raise EvoplayError(f"nothing to resume in {rd.root} (no config.toml)")
    if not rd.is_run():
        raise EvoplayError(f"{rd.root} is not an evoplay run directory (no {rd.marker.name})")
    stored = load(rd.config)
    if cfg is not None and stored != cfg:
        keys = ", ".join(differences(stored, cfg)) or "recipe"
        raise EvoplayError(f"--resume: the config differs from the one stored in {rd.config} (keys: {keys})")
    key = digest(stored)
    return {t: rd.read_checkpoint(t, key) for t in range(stored[""]["trials"])}


def check_run_dir(cfg: dict | None, out, resume=False, overwrite=False):
    """Refuse, with one line, a run directory this run must not write (the checks ``evolve`` starts with)."""
    _prepare(RunDir(out), cfg, resume, overwrite)


def evolve(cfg: dict | None, out, address=None, workers=None, resume=False, overwrite=False, log_detail=False, progress=None) -> dict:
    """Run (or resume) a recipe's evolution into run directory ``out``; return the summary.

    ``cfg`` is a resolved config (``config.load``/``config.resolve``); with ``resume`` it
    may be None (the stored one is used) and must otherwise equal the stored one. Every
    check of the run directory happens before Ray starts.
    """
    rd = RunDir(out)
    states = _prepare(rd, cfg, resume, overwrite)
    if resume:
        cfg = load(rd.config)
    rd.claim()
    try:
        states = _prepare(rd, cfg, resume, overwrite)  # again, under the lock: no other run got in between
        rd.mark()
        return _evolve_claimed(rd, cfg, address, workers, resume, log_detail, progress, states)
    finally:
        rd.release()


def _evolve_claimed(rd, cfg, address, workers, resume, log_detail, progress, states) -> dict:
    """The body of ``evolve`` once the run directory is checked and locked."""
    recipe = make_recipe(cfg)
    shipment = {"code": usercode.shipment(), "recipe": recipe.ship()}
    t0 = time.time()
    info = distributed.init_ray(address=address, workers=workers)
    t_ray = time.time() - t0
    if states is None:  # a fresh run clears the directory only once Ray is up
        rd.clear()
        write_text(rd.config, to_toml(cfg))
        states = {t: None for t in range(cfg[""]["trials"])}
    config_key = digest(cfg)
    gens = cfg[""]["generations"]
    every = cfg["run"]["checkpoint_every"]
    if progress is not None:
        progress.reset(total=len(states) * gens)
        progress.update(sum(s["generation"] for s in states.values() if s))
    todo = [t for t, s in states.items() if s is None or s["generation"] < gens]
    chunks = plan_chunks(cfg, int(info["cpus"]), len(todo), recipe.generation_work())
    log.info("run %s: recipe %s, %d trials to go on %s CPUs, %d evaluation chunk(s)", rd.root, cfg[""]["recipe"], len(todo), info["cpus"], chunks)

    def segment(t):
        """The job advancing trial ``t`` to its next checkpoint."""
        g = states[t]["generation"] if states[t] else 0
        return (cfg, t, states[t], min(gens, (g // every + 1) * every), chunks, log_detail, shipment)

    def landed(i, data):
        """Checkpoint a finished segment; return the trial's next segment, if any."""
        t = todo[i]
        detail = data[1]
        data = data[0]
        start = states[t]["generation"] if states[t] else 0
        if detail:
            write_text(rd.detail_part(t, start + 1, data["generation"]), detail)
        rd.write_logbook(t, data["logbook"])  # first: a checkpoint never runs ahead of its logbook
        rd.write_checkpoint(data, config_key)
        states[t] = data
        finished = sum(s is not None and s["generation"] >= gens for s in states.values())
        log.info("trial %d at generation %d (%d/%d trials done)", t, data["generation"], finished, len(states))
        if progress is not None:
            progress.update(data["generation"] - start)
            progress.set_postfix_str(f"trial {t} at gen {data['generation']}, {finished}/{len(states)} trials done")
        return segment(t) if data["generation"] < gens else None

    distributed.run_chains(run_segment, [segment(t) for t in todo], landed)
    t_evolve = time.time() - t0 - t_ray
    trials = {t: TrialRun(recipe, t, s) for t, s in states.items()}
    summary = finish_run(rd, cfg, recipe, trials)
    env = {
        "evoplay_version": __version__,
        "seed": cfg[""]["seed"],
        "recipe": cfg[""]["recipe"],
        "ray": info,
        "resumed": bool(resume),
        "driver_peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "seconds": {"ray_start": round(t_ray, 3), "evolve": round(t_evolve, 3), "total": round(time.time() - t0, 3)},
    }
    rd.write_json(rd.environment, env)
    log.info("run %s finished: summary %s", rd.root, rd.summary)
    return summary


def _config(config) -> dict:
    """A resolved config from a path, a raw dict (as read from TOML) or a resolved config."""
    from pathlib import Path

    from evoplay.framework.config import resolve

    if isinstance(config, (str, Path)):
        return load(config)
    if isinstance(config, dict) and "" in config and "run" in config:
        return resolve({**{k: v for k, v in config.items() if k}, **config[""]})
    if isinstance(config, dict):
        return resolve(config)
    raise EvoplayError(f"a config is a TOML path or a dict, not {type(config).__name__}")


def run(config, out, *, address=None, workers=None, overwrite=False, log_detail=False, progress=None) -> dict:
    """Run a recipe into the run directory ``out``; return its summary.

    ``config`` is a TOML path or a dict of config keys (``{"recipe": "my.py:MyRecipe",
    "trials": 4, ...}``). Ray starts embedded unless ``address`` (or ``RAY_ADDRESS``)
    names a cluster; ``workers`` caps embedded Ray's CPUs. An existing run in ``out`` is
    refused unless ``overwrite``; a folder that is not a run directory is never touched.
    """
    return evolve(_config(config), out, address=address, workers=workers, overwrite=overwrite,
                  log_detail=log_detail, progress=progress)


def resume(out, *, address=None, workers=None, log_detail=False, progress=None) -> dict:
    """Finish an interrupted run from its checkpoints: the result is that of an uninterrupted run."""
    return evolve(None, out, address=address, workers=workers, resume=True, log_detail=log_detail, progress=progress)
