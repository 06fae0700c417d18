"""Studies: many variants of a recipe, each with its trials, compared with confidence.

A study file names a base config and its variants (a list of named overrides and/or a
grid over config keys). Every variant is an ordinary run directory under the study's
folder; all (variant, trial) chains go into one Ray task pool (``runner.run_pool``), so
the CPUs stay busy with no barrier between variants, and ``--resume`` finishes a killed
study with identical bytes. The comparison (``study.json``, ``study.md``, ``study.png``
and ``.svg``) puts each variant beside the baseline variant: the final mean max fitness
with its 95% interval, the champions' exact analysis (run as Ray tasks through the
recipe's ``champion_analysis``), and a permutation test over trials, Holm-corrected,
with Cliff's delta and a verdict in words (made by ``study_report.py``; this module reads
study files and runs them). ``study.json`` holds results only; wall times go to
``study-environment.json`` and ``study.md``.

A study file::

    name = "ablation"
    base = "fogel1993.toml"            # read from the study file's folder
    baseline = "paper"                 # default: the first variant
    trials = 20                        # optional: override every variant
    generations = 800

    [[variants]]
    name = "paper"

    [[variants]]
    name = "no architecture mutation"
    mutation.p_arch = 0.0

    [grid]                             # every combination becomes a variant
    "evaluation.games" = [8, 128]

A variant may name a whole config file instead of starting from the base (``config =
"diversity.toml"``, read from the study file's folder): its recipe and every section are
that file's, then the study's ``trials``/``generations``/``seed`` and the variant's own
keys apply as for any variant. So variants of different recipes, or of one recipe with
sections the base has not, are compared alike. A study whose variants name no config is
read exactly as before.

A variant may also take a finished run directory as its trials (``run =
"../results/diversity"``, from the study file's folder) instead of running them: only
when the run's stored config has the variant's config digest and the run is finished
(summary.json, trials and generations as configured). That is sound because a run is a
function of its config: the same config gives the same bytes with any number of workers,
on any CPU and across resumes, so the run's logbooks and champions are the ones the study
would write (given code that computes as the code that made the run did: the digest
covers the config, not the program). The study reads that folder (logbooks, champions, summary) and writes
nothing into it; study.json names it.
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import json
import os
import re
import time
import tomllib
from pathlib import Path

from evoplay.context import finished_run
from evoplay.files.atomic import write_text
from evoplay.errors import ConfigError, EvoplayError
from evoplay.framework import config as configs
from evoplay.framework import distributed
from evoplay.framework.rundir import RunDir, make_folders, read_run_file, remove_empty
from evoplay.framework.runner import RunJob, _prepare, finish_jobs, make_recipe, run_pool
from evoplay.framework.study_report import LEAGUE_FILE, LEAGUE_LABEL, compare, markdown, plot_study, read_league, read_max_curves, study_words
from evoplay.files.paths import read_regular, probe_writable

STUDY_KEYS = {"name", "base", "baseline", "trials", "generations", "seed", "variants", "grid"}
MARKER = ".evoplay-study"


def slug(name: str) -> str:
    """A variant's folder name: its name in lower case, runs of other characters as '-'."""
    s = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return s[:80] or "variant"


def _raw_of(cfg: dict) -> dict:
    raw = {k: copy.deepcopy(v) for k, v in cfg.items() if k}
    raw.update(copy.deepcopy(cfg[""]))
    return raw


def _merge(raw: dict, overrides: dict, where: str) -> dict:
    out = copy.deepcopy(raw)
    for key, value in overrides.items():
        parts = key.split(".") if isinstance(key, str) else [key]
        if isinstance(value, dict):
            for sub, v in value.items():
                out = _merge(out, {f"{key}.{sub}": v}, where)
            continue
        node = out
        for p in parts[:-1]:
            if not isinstance(node.get(p, {}), dict):
                raise ConfigError(f"{where}: '{key}' is not a config key")
            node = node.setdefault(p, {})
        node[parts[-1]] = value
    return out


def _flat(overrides: dict, prefix: str = "") -> dict:
    out = {}
    for k, v in overrides.items():
        if isinstance(v, dict):
            out.update(_flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def load_study(path, trials=None, generations=None) -> dict:
    """Read and check a study file: every variant's config resolved, before any work starts."""
    try:
        path = configs.find(path)
    except ConfigError:
        raise ConfigError(f"study file not found: {path}") from None
    data = read_regular(path, "study file", configs.MAX_CONFIG_BYTES, ConfigError)  # a study is a config's size
    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError, ValueError) as e:
        raise ConfigError(f"study file {path} is not valid TOML: {str(e)[:200]}") from None
    unknown = sorted(set(doc) - STUDY_KEYS)
    if unknown:
        raise ConfigError(f"unknown study key '{unknown[0]}' in {path} (allowed: {', '.join(sorted(STUDY_KEYS))})")
    if not isinstance(doc.get("base"), str):
        raise ConfigError(f"study key 'base' (the base config file) is missing in {path}")

    def starting_point(config_file: str) -> dict:
        """A config file's raw keys with the study's and the command line's run sizes applied."""
        raw = _raw_of(configs.load(path.parent / config_file))
        for key in ("trials", "generations", "seed"):
            if key in doc:
                raw[key] = doc[key]
        if trials is not None:
            raw["trials"] = trials
        if generations is not None:
            raw["generations"] = generations
        return raw

    raw = starting_point(doc["base"])

    variants = []
    listed = doc.get("variants", [])
    if not isinstance(listed, list) or not all(isinstance(v, dict) for v in listed):
        raise ConfigError("study key 'variants' must be a list of tables ([[variants]])")
    for i, v in enumerate(listed):
        name = v.get("name")
        if not isinstance(name, str) or not name.strip():
            raise ConfigError(f"study variant {i + 1} has no name")
        variants.append((name, {k: x for k, x in v.items() if k != "name"}))
    grid = doc.get("grid", {})
    if not isinstance(grid, dict):
        raise ConfigError("study key 'grid' must be a table of config keys to lists of values")
    grid = _flat(grid)
    for key, values in grid.items():
        if not isinstance(values, list) or not values:
            raise ConfigError(f"study grid key '{key}' has no values (give a non-empty list)")
    if grid:
        keys = sorted(grid)
        for combo in itertools.product(*(grid[k] for k in keys)):
            name = ", ".join(f"{k.split('.')[-1]} = {v}" for k, v in zip(keys, combo))
            variants.append((name, dict(zip(keys, combo))))
    if not variants:
        raise ConfigError(f"study {path} has no variants (give [[variants]] or a non-empty [grid])")
    names = [n for n, _ in variants]
    dup = {n for n in names if names.count(n) > 1} | {slug(n) for n in names if [slug(m) for m in names].count(slug(n)) > 1}
    if dup:
        raise ConfigError(f"study variant names must differ (in folder form too): {sorted(dup)[0]!r}")
    resolved = []
    for name, overrides in variants:
        where = f"study variant {name!r}"
        own = overrides.pop("config", None)
        done = overrides.pop("run", None)
        if done is not None and not (isinstance(done, str) and done.strip()):
            raise ConfigError(f"{where}: 'run' must name a finished run directory, got {done!r}")
        if own is not None and not (isinstance(own, str) and own.strip()):
            raise ConfigError(f"{where}: 'config' must name a config file, got {own!r}")
        # a variant that takes a finished run's trials runs nothing: the anchor files its
        # config names are not opened (a run copied from another machine is still compared)
        with finished_run() if done is not None else contextlib.nullcontext():
            try:
                start = raw if own is None else starting_point(own)
            except ConfigError as e:
                raise ConfigError(f"{where}: {e}") from None
            merged = _merge(start, overrides, where)
            merged["name"] = slug(name)
            try:
                cfg = configs.resolve(merged, base=path.parent / Path(own or doc["base"]).parent)
            except ConfigError as e:
                raise ConfigError(f"{where}: {e}") from None
        entry = {"name": name, "dir": slug(name), "overrides": _flat(overrides), "config": cfg}
        if own is not None:
            entry["config_file"] = own
        if done is not None:
            entry["run"] = done
            entry["run_dir"] = _finished_run(path.parent / done, cfg, where)
        resolved.append(entry)
    baseline = doc.get("baseline", names[0])
    if baseline not in names:
        raise ConfigError(f"study key 'baseline': no variant is named {baseline!r}")
    return {"name": doc.get("name", path.stem), "base": doc["base"], "baseline": baseline, "variants": resolved}


def _finished_run(folder: Path, cfg: dict, where: str) -> Path:
    """A finished run directory made by exactly ``cfg`` (same config digest); ConfigError naming the problem otherwise."""
    from evoplay.framework.rundir import digest

    rd = RunDir(folder)
    if not rd.config.is_file():
        raise ConfigError(f"{where}: run {folder} is no run directory (no config.toml)")
    try:
        with finished_run():
            stored = configs.load(rd.config)
        summary = rd.read_summary()
    except EvoplayError as e:
        raise ConfigError(f"{where}: run {folder}: {e}") from None
    if digest(stored) != digest(cfg):
        keys = ", ".join(configs.differences(stored, cfg)) or "recipe"
        raise ConfigError(f"{where}: run {folder} was made by another config than the variant's (keys: {keys})")
    if summary["trials"] != cfg[""]["trials"] or summary.get("generations") != cfg[""]["generations"]:
        raise ConfigError(f"{where}: run {folder} is not finished as its config says (summary.json)")
    return rd.root


# ---------------------------------------------------------------- running


def check_study_dir(out: Path, resume: bool, overwrite: bool):
    if out.exists() and not out.is_dir():
        raise EvoplayError(f"--out {out} exists and is not a directory")
    has = out.is_dir() and any(out.iterdir())
    if resume:
        if not (out / MARKER).is_file():
            raise EvoplayError(f"nothing to resume in {out} (not an evoplay study directory)")
    elif has and not (out / MARKER).is_file():
        raise EvoplayError(f"{out} is not empty and is not an evoplay study directory: choose another --out")
    elif has and not overwrite:
        raise EvoplayError(f"{out} holds an evoplay study already: --resume continues it, --overwrite replaces it")
    _check_makeable(out)


def _check_makeable(out: Path):
    """Refuse an ``out`` whose nearest existing folder is a file or cannot be written (a
    probe file is made and removed there), before anything is made or written."""
    base = out
    while not (base.exists() or base.is_symlink()) and base != base.parent:
        base = base.parent
    if not base.is_dir():
        raise EvoplayError(f"cannot write to {out}: {base} is not a directory (choose another --out)")
    try:
        probe_writable(base)
    except OSError as e:
        raise EvoplayError(f"cannot write to {out}: {e.strerror or e} (choose another --out)") from None


def _abandon(out: Path, dirs: list[RunDir], made: list[Path], marker_made: bool):
    """Undo what a study made before a refusal, where nothing was written since: its variants'
    claims, its marker and the folders it made (a folder holding anything else stays)."""
    for rd in dirs:
        rd.abandon()
    with contextlib.suppress(OSError):
        if marker_made and os.listdir(out) == [MARKER]:
            (out / MARKER).unlink()
    remove_empty(made)


def run_study(study: dict, out, address=None, workers=None, resume=False, overwrite=False, progress=None) -> dict:
    """Run (or resume) every variant in one Ray task pool, then compare them; return study.json's content."""
    out = Path(out)
    check_study_dir(out, resume, overwrite)
    ran = [v for v in study["variants"] if "run_dir" not in v]  # the others' trials are finished runs
    dirs = [RunDir(out / v["dir"]) for v in ran]
    if resume:  # what `evoplay report` wrote into the runs, read now: a damaged file is refused before any work
        for v in study["variants"]:
            root = Path(v["run_dir"]) if "run_dir" in v else out / v["dir"]
            if root.is_dir():
                make_recipe(v["config"]).reported_measures(root)
        read_league(out, [])
    states = []
    for rd, v in zip(dirs, ran):
        if resume and rd.config.is_file():
            states.append(_prepare(rd, v["config"], True, False)[1])
        else:
            rd.check_fresh(overwrite=True) if rd.root.exists() else None
            states.append(None)
    made, marker_made = make_folders(out), not (out / MARKER).exists()
    if overwrite and not resume:  # the study replaced is replaced with its league
        with contextlib.suppress(FileNotFoundError):
            (out / LEAGUE_FILE).unlink()
    write_text(out / MARKER, json.dumps({"format": "evoplay-study", "version": 1}) + "\n")
    try:
        for rd in dirs:
            rd.claim()
        t0 = time.time()
        info = distributed.init_ray(address=address, workers=workers)
        t_ray = time.time() - t0
        for rd in dirs:
            rd.mark()
        jobs = [RunJob(rd, v["config"], s, resume=resume) for rd, v, s in zip(dirs, ran, states)]
        run_pool(jobs, info, progress)
        t_pool = time.time() - t0 - t_ray
        finished = iter(finish_jobs(jobs, info, t_ray, t_pool))
        summaries = [RunDir(v["run_dir"]).read_summary() if "run_dir" in v else next(finished) for v in study["variants"]]
        every = [RunDir(v["run_dir"]) if "run_dir" in v else RunDir(out / v["dir"]) for v in study["variants"]]
        analyses = analyze_champions([(v["config"], rd, s["trials"]) for v, rd, s in zip(study["variants"], every, summaries)])
    except BaseException:
        _abandon(out, dirs, made, marker_made)  # a refusal (a bad --address) leaves no folder it made
        raise
    finally:
        for rd in dirs:
            rd.release()
    words = study_words(study)
    curves = [read_max_curves(rd, s["trials"]) for rd, s in zip(every, summaries)]  # for the comparison and the plot
    reported = [make_recipe(v["config"]).reported_measures(rd.root) for v, rd in zip(study["variants"], every)]
    league = read_league(out, [rd.root.name for rd in every], [s["trials"] for s in summaries])
    for r, scores in zip(reported, league or []):
        r["league"] = {"label": LEAGUE_LABEL, "per_trial": scores}
    result = compare(study, summaries, analyses, curves, words, reported)
    write_text(out / "study.json", json.dumps(result, indent=1, allow_nan=False) + "\n")
    env = {"ray": info, "seconds": {"ray_start": round(t_ray, 3), "pool": round(t_pool, 3)},
           "task_seconds": {v["name"]: _task_seconds(rd, j) for v, rd, j in zip(ran, dirs, jobs)},
           "cpu_seconds_per_generation": {v["name"]: _cpu_per_generation(rd) for v, rd in zip(study["variants"], every)}}
    write_text(out / "study-environment.json", json.dumps(env, indent=1) + "\n")
    write_text(out / "study.md", markdown(result, env, words))
    plot_study(result, curves, out / "study.png", words)
    return result


def _task_seconds(rd: RunDir, job: RunJob) -> float:
    """A variant's task seconds over every launch of the study (the run directory's ``costs.json``,
    which ``--resume`` adds to), not this launch's alone: a resumed study ran only what was left."""
    costs = rd.read_costs().values()
    return round(sum(c["seconds"] for c in costs), 3) if costs else round(job.task_seconds, 3)


def _cpu_per_generation(rd: RunDir) -> float | None:
    """A variant's worker CPU seconds a generation over every launch of the study (the run
    directory's ``costs.json``); None where nothing recorded it (a run made elsewhere)."""
    costs = rd.read_costs().values()
    generations = sum(c["generations"] for c in costs)
    return round(sum(c["cpu_seconds"] for c in costs) / generations, 3) if generations else None


def _analyze(cfg: dict, champions: list[dict]) -> list[dict]:
    """One variant's champions analysed by its recipe (a Ray task)."""
    recipe = make_recipe(cfg)
    return [recipe.champion_analysis(c) for c in champions]


def analyze_champions(variants: list[tuple]) -> list[list[dict]]:
    """Every variant's champions (``(config, run dir, trials)`` each) analysed by its recipe, one Ray task per variant."""
    args = []
    for cfg, rd, trials in variants:
        champions = [read_run_file(rd.champion(t)) for t in range(trials)]
        args.append((cfg, champions))
    return distributed.run_tasks(_analyze, args)
