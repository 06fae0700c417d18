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

import contextvars
import logging
import resource
import threading
import time

from evoplay import __version__, context
from evoplay.files import usercode
from evoplay.files.atomic import write_text
from evoplay.errors import EvoplayError
from evoplay.framework import distributed, driver, league
from evoplay.framework.config import differences, load, recipe_class, to_toml
from evoplay.framework.recipe import FitnessWords, Recipe
from evoplay.framework.rundir import RunDir
from evoplay.framework.trial import TrialRun
from evoplay.framework.summary import finish_run, max_curves

log = logging.getLogger("evoplay.runner")


def make_recipe(cfg: dict) -> Recipe:
    """The recipe object of a resolved config."""
    return recipe_class(cfg[""]["recipe"])(cfg)


def run_segment(cfg: dict, trial: int, data: dict | None, until: int, chunks: int, log_detail: bool, shipment: dict):
    """Advance one trial to generation ``until``; return (trial data, detail log text, (wall seconds,
    CPU seconds of this worker process and of the chunk tasks it sent to others)).

    Runs on a Ray worker. ``shipment`` carries the user code the config names and what
    the recipe's ``ship()`` sent (say, player files), so nodes need no copy of either.
    With ``chunks > 1`` the recipe's evaluation is split into Ray tasks through its map.
    """
    with context.use():
        recipe = recipe_here(cfg, shipment)
        map_fn = distributed.RayMap(chunk_size=1, inline_first=True) if chunks > 1 else map
        detail = [] if log_detail else None
        t0, cpu0 = time.perf_counter(), time.process_time()
        run = TrialRun(recipe, trial, data, map_fn=map_fn, chunks=chunks, detail=detail).run(until)
        cpu = time.process_time() - cpu0 + getattr(map_fn, "task_cpu_seconds", 0.0)  # its chunks' workers' too
        return run.to_data(), "".join(detail or []), (time.perf_counter() - t0, cpu)


def recipe_here(cfg: dict, shipment: dict) -> Recipe:
    """The config's recipe on a Ray worker (a segment's, a trial's end's, a league duel's), with
    the user code and the recipe's files it was shipped, in the task's context (each task makes
    its own: ``evoplay.context``)."""
    usercode.provide(shipment.get("code", {}))
    cls = recipe_class(cfg[""]["recipe"])
    cls.receive(shipment.get("recipe", {}))
    return cls(cfg)


def finish_trial(cfg: dict, trial: int, data: dict, shipment: dict) -> tuple[dict, dict]:
    """A finished trial's end as its recipe concludes it, on a Ray worker: (champion document, facts)."""
    with context.use():
        return TrialRun(recipe_here(cfg, shipment), trial, data).finish()


def duel_task(cfg: dict, shipment: dict, first: dict, second: dict) -> dict:
    """One duel of a run's league of champions (``evoplay.framework.league``), on a Ray worker."""
    with context.use():
        return recipe_here(cfg, shipment).duel(first, second, cfg["run"]["league_openings"], league.seed(cfg))


class Background:
    """``fn(*args)`` on a thread of this process, in the caller's context (``evoplay.context``);
    ``result()`` waits for it and re-raises what it raised."""

    def __init__(self, name: str, fn, *args):
        self._value = self._error = None
        self._thread = threading.Thread(target=contextvars.copy_context().run, args=(self._run, fn, args), name=name,
                                        daemon=True)
        self._thread.start()

    def _run(self, fn, args):
        try:
            self._value = fn(*args)
        except BaseException as e:  # handed to the caller of result()
            self._error = e

    def wait(self):
        """Wait for it, whatever it gives."""
        self._thread.join()

    def result(self):
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value


def _warm_plotting():
    """Import and warm the plotting code (a failure is left for the drawing itself to meet and report)."""
    try:
        from evoplay.framework.plotting import warm

        warm()
    except Exception:  # drawing the curve meets it again, and reports it
        pass


def prepare_plotting() -> Background:
    """Import and warm the plotting code on a thread: the caller is about to wait for Ray tasks."""
    return Background("prepare plotting", _warm_plotting)


def _draw_curve(before: Background, job: "RunJob") -> list:
    """A finished run's curve files from its trials' max curves, once ``before`` (plotting work of this process) is done."""
    from evoplay.framework.plotting import plot_curves, run_label

    before.result()
    maxes = max_curves(job.logbooks())
    label = run_label(job.cfg[""], job.rd.root, len(maxes))  # the summary's name and seed are the config's
    return plot_curves([(label, maxes)], [job.rd.root / "curve.png", job.rd.root / "curve.svg"], job.words)


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


def _resumable(rd: RunDir):
    """The cheap checks of a resume: a run directory with its stored config."""
    if not rd.config.is_file():
        raise EvoplayError(f"nothing to resume in {rd.root} (no config.toml)")
    if not rd.is_run():
        raise EvoplayError(f"{rd.root} is not an evoplay run directory (no {rd.marker.name})")


def _prepare(rd: RunDir, cfg: dict | None, resume: bool, overwrite: bool) -> tuple[dict | None, dict | None]:
    """Check the run directory before any work; return (config, states to resume from; None: fresh)."""
    if not resume:
        rd.check_fresh(overwrite)
        return cfg, None
    _resumable(rd)
    stored = load(rd.config)
    if cfg is not None and stored != cfg:
        keys = ", ".join(differences(stored, cfg)) or "recipe"
        raise EvoplayError(f"--resume: the config differs from the one stored in {rd.config} (keys: {keys})")
    key = rd.config_key(stored)
    states = {t: rd.read_checkpoint(t, key) for t in range(stored[""]["trials"])}
    recipe = make_recipe(stored)
    for t, data in states.items():  # the recipe's state too, here rather than on a worker
        if data is not None:
            try:
                TrialRun(recipe, t, data)
            except EvoplayError as e:
                raise EvoplayError(f"checkpoint {rd.checkpoint(t)}: {e}") from None
            if data["generation"] > stored[""]["generations"]:
                raise EvoplayError(f"checkpoint {rd.checkpoint(t)} is at generation {data['generation']}, "
                                   f"beyond the run's {stored['']['generations']}")
    rd.check_outputs(stored[""]["trials"])  # every check before the first write
    return stored, states


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
    if resume:  # the cheap checks before the lock file is made
        _resumable(rd)
    else:
        rd.check_fresh(overwrite)
    rd.claim()
    try:
        cfg, states = _prepare(rd, cfg, resume, overwrite)  # in full under the lock: no other run got in between
        return _evolve_claimed(rd, cfg, address, workers, resume, log_detail, progress, states)
    except BaseException:
        rd.abandon()  # a refusal (a bad --address, a recipe the game cannot serve) leaves no folder it made
        raise
    finally:
        rd.release()


def _evolve_claimed(rd, cfg, address, workers, resume, log_detail, progress, states) -> dict:
    """The body of ``evolve`` once the run directory is checked and locked."""
    job = RunJob(rd, cfg, states, resume=resume, log_detail=log_detail)
    t0 = time.time()
    info = distributed.init_ray(address=address, workers=workers)
    t_ray = time.time() - t0
    rd.mark()  # only now: a Ray that fails to start leaves no run behind to refuse
    run_pool([job], info, progress)
    return job.finish(info, t_ray, time.time() - t0 - t_ray)


class RunJob:
    """One run directory in a pool of runs: its config, recipe, trial states and files.

    A run (``evolve``) is a pool of one job; a study is a pool of many, whose trials share
    one Ray task pool with no barrier between runs.
    """

    def __init__(self, rd: RunDir, cfg: dict, states: dict | None, resume=False, log_detail=False):
        self.rd, self.cfg, self.states = rd, cfg, states
        self.resume, self.log_detail = resume, log_detail
        self.recipe = make_recipe(cfg)
        self.words = FitnessWords.of(self.recipe)
        self.config_key = None  # once the config is stored (begin)
        self.gens = cfg[""]["generations"]
        self.every = cfg["run"]["checkpoint_every"]
        self.task_seconds = 0.0
        self.chunks = 1
        self.shipment = None
        self.drawing = None  # the curve being drawn (once the trials are done)

    def begin(self):
        """A fresh run clears what an earlier one wrote (``--overwrite``) and writes its config."""
        if self.states is None:
            self.rd.clear(self.recipe.report_files)
            write_text(self.rd.config, to_toml(self.cfg))
            self.states = {t: None for t in range(self.cfg[""]["trials"])}
        self.config_key = self.rd.config_key(self.cfg)
        self.costs = self.rd.read_costs(self.states) if self.resume else {}
        self.shipment = {"code": usercode.shipment(), "recipe": self.recipe.ship()}

    def done_generations(self) -> int:
        return sum(s["generation"] for s in self.states.values() if s)

    def best_max(self) -> float:
        """The highest ``max`` any trial's logbook has reached so far (for the progress bar)."""
        return max((r["max"] for s in self.states.values() if s for r in s["logbook"]), default=float("nan"))

    def todo(self) -> list[int]:
        return [t for t, s in self.states.items() if s is None or s["generation"] < self.gens]

    def segments_left(self) -> int:
        """Segments still to land, those running included."""
        done = [self.states[t]["generation"] if self.states[t] else 0 for t in self.todo()]
        return sum(-(-(self.gens - g // self.every * self.every) // self.every) for g in done)

    def segment(self, t: int) -> tuple:
        """The job advancing trial ``t`` to its next checkpoint."""
        g = self.states[t]["generation"] if self.states[t] else 0
        until = min(self.gens, (g // self.every + 1) * self.every)
        return (self.cfg, t, self.states[t], until, self.chunks, self.log_detail, self.shipment)

    def land(self, t: int, result) -> tuple | None:
        """Checkpoint a finished segment; return the trial's next segment, if any."""
        data, detail, (seconds, cpu) = result
        rd = self.rd
        start = self.states[t]["generation"] if self.states[t] else 0
        last = {"generations": data["generation"] - start, "seconds": seconds, "cpu_seconds": cpu}
        done = self.costs.get(t, {"generations": 0, "seconds": 0.0, "cpu_seconds": 0.0})
        self.costs[t] = {**{k: done[k] + v for k, v in last.items()}, "generation": data["generation"], "last": last}
        if detail:
            write_text(rd.detail_part(t, start + 1, data["generation"]), detail)
        rd.write_logbook(t, data["logbook"])  # first: a checkpoint never runs ahead of its logbook
        rd.write_costs(self.costs)  # before the checkpoint: a --resume takes back a segment that did not land
        rd.write_checkpoint(data, self.config_key)
        if start == 0:
            notice = self.recipe.notice(data["logbook"])
            if notice:
                log.warning("%s: trial %d: %s", rd.root, t, notice)
        self.states[t] = data
        self.task_seconds += seconds
        finished = sum(s is not None and s["generation"] >= self.gens for s in self.states.values())
        log.info("%s: trial %d at generation %d (%d/%d trials done)", rd.root, t, data["generation"], finished, len(self.states))
        return self.segment(t) if data["generation"] < self.gens else None

    def finish(self, info: dict, t_ray: float, t_evolve: float) -> dict:
        """Logbooks, champions, summary, curve and environment of the finished run (``finish_jobs``)."""
        return finish_jobs([self], info, t_ray, t_evolve)[0]

    def logbooks(self) -> dict:
        """Each trial's logbook (list of rows) as it landed, by trial."""
        return {t: self.states[t]["logbook"] for t in sorted(self.states)}

    def conclude(self, ends: dict, table: list, info: dict, t_ray: float, t_evolve: float) -> dict:
        """Write what the finished run's trials concluded (``ends``: their ``TrialRun.finish``; ``table``:
        their champions' league, if its rule played one): the files and the summary."""
        summary = finish_run(self.rd, self.cfg, self.recipe, self.logbooks(), ends, table)
        env = {
            "evoplay_version": __version__,
            "seed": self.cfg[""]["seed"],
            "recipe": self.cfg[""]["recipe"],
            "ray": info,
            "resumed": bool(self.resume),
            "driver_peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            "seconds": {"ray_start": round(t_ray, 3), "evolve": round(t_evolve, 3), "total": round(t_ray + t_evolve, 3),
                        "tasks": round(self.task_seconds, 3)},
        }
        self.rd.write_json(self.rd.environment, env)
        log.info("run %s finished: summary %s", self.rd.root, self.rd.summary)
        return summary


def _wait_for(pieces: list[Background]):
    for piece in pieces:
        piece.wait()


def finish_jobs(jobs: list[RunJob], info: dict, t_ray: float, t_evolve: float) -> list[dict]:
    """Logbooks, champions, summaries, curves and environments of finished runs; their summaries.

    Every trial's end (``recipe.finish``: a Fogel champion's exact analysis, say) runs as a
    Ray task, all side by side, then every duel of the runs' leagues of champions (where
    ``run.champion`` plays one), while a thread of this process draws the curves the pool
    has not drawn yet (``RunJob.drawing``: a run's curve is drawn once its trials are done).
    """
    drawn = [job.drawing for job in jobs if job.drawing is not None]
    before = Background("the pool's curves", _wait_for, drawn) if drawn else None  # matplotlib is one thread's at a time
    for job in jobs:
        if job.drawing is None:  # a resumed run whose trials were all done
            before = job.drawing = Background("draw curve", _draw_curve, before or prepare_plotting(), job)
    trials = [(job, t) for job in jobs for t in sorted(job.states)]
    ends = distributed.run_tasks(finish_trial, [(job.cfg, t, job.states[t], job.shipment) for job, t in trials])
    by_job = {id(job): {} for job in jobs}
    for (job, t), end in zip(trials, ends):
        by_job[id(job)][t] = end
    tables = league.play([(job.cfg, job.recipe, job.shipment, by_job[id(job)]) for job in jobs], duel_task)
    for job in jobs:
        job.drawing.result()  # after the last one, matplotlib's global state is this thread's again
    return [job.conclude(by_job[id(job)], table, info, t_ray, t_evolve) for job, table in zip(jobs, tables)]


def run_pool(jobs: list[RunJob], info: dict, progress=None):
    """Advance every trial of every job to its last generation, as chains in one Ray task pool."""
    for job in jobs:
        job.begin()
    # Trial by trial across the runs (a study's trial 0 of every variant first), at most two
    # chains a CPU under way: on a few CPUs whole trials land early and in this order.
    order = sorted((t, j) for j, job in enumerate(jobs) for t in job.todo())
    chains = [(jobs[j], t) for t, j in order]
    for job in jobs:
        job.chunks = plan_chunks(job.cfg, int(info["cpus"]), len(chains), job.recipe.generation_work())
    log.info("%d run(s), %d trials to go on %s CPUs", len(jobs), len(chains), info["cpus"])
    if progress is not None:
        progress.reset(total=sum(len(j.states) * j.gens for j in jobs))
        progress.update(sum(j.done_generations() for j in jobs))

    start = driver.working_dir()
    driver.stay_in(start)

    plotting = None  # this process's plotting work, one piece after another: preparing, then each run's curve

    def landed(i, result):
        nonlocal plotting
        driver.stay_in(start)
        job, t = chains[i]
        before = job.done_generations()
        following = job.land(t, result)
        if plotting is None and sum(j.segments_left() for j in jobs) <= 2 * int(info["cpus"]):
            plotting = prepare_plotting()  # the last rounds of segments leave a core to spare now and then
        if not job.todo():  # a run whose trials are all done has its curve drawn while the others go on
            plotting = job.drawing = Background("draw curve", _draw_curve, plotting or prepare_plotting(), job)
        if progress is not None:
            progress.update(job.done_generations() - before)
            left = sum(len(j.todo()) for j in jobs)
            progress.set_postfix_str(f"{len(chains) - left}/{len(chains)} trials done, best max {job.words.name} {job.best_max():g}")
        return following

    try:
        distributed.run_chains(run_segment, [job.segment(t) for job, t in chains], landed, window=2 * int(info["cpus"]))
    except BaseException:
        if plotting is not None:
            plotting.wait()  # a curve being written is finished rather than cut off by the process's exit
        raise
    driver.stay_in(start)


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
