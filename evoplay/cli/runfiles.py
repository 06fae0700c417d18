"""The files of finished runs, read with every defect named: ``plot``, ``export``, ``report``.

A damaged run directory (a missing or truncated summary.json, a logbook with a bad
number, a champion that is not a player file) is refused with one line naming the file
and the problem, before anything is written. Outputs are checked before any work.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import click
import numpy as np

from evoplay.cli.checks import check_output, shorten, writing
from evoplay.errors import EvoplayError
from evoplay.framework.recipe import FitnessWords
from evoplay.framework.rundir import RunDir
from evoplay.files.playerfile import read_json

#: Largest summary.json or logbook read (the 20 x 800 reference run has 31 kB and 60 kB).
MAX_RUN_FILE_BYTES = 64 << 20
#: The summary fields the commands rely on, with their types.
SUMMARY_FIELDS = {"name": str, "seed": int, "trials": int, "best_trial": int}


def _run_dir(root) -> RunDir:
    rd = RunDir(root)
    if not rd.root.exists():
        raise EvoplayError(f"run directory {rd.root} does not exist")
    if not rd.root.is_dir():
        raise EvoplayError(f"{rd.root} is not a run directory (it is a file)")
    return rd


def read_summary(root) -> dict:
    """A finished run's summary.json, its fields checked."""
    rd = _run_dir(root)
    if not rd.summary.exists():
        raise EvoplayError(f"{rd.root} is not a finished run directory (no summary.json)")
    summary = read_json(rd.summary, "run summary", MAX_RUN_FILE_BYTES, EvoplayError)
    if not isinstance(summary, dict):
        raise EvoplayError(f"run summary {rd.summary} is not a JSON object")
    for key, kind in SUMMARY_FIELDS.items():
        value = summary.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise EvoplayError(f"run summary {rd.summary}: {key!r} is missing or not a {kind.__name__}")
    if not 1 <= summary["trials"] <= 10_000:
        raise EvoplayError(f"run summary {rd.summary}: 'trials' must be in 1..10000, got {summary['trials']}")
    if not 0 <= summary["best_trial"] < summary["trials"]:
        raise EvoplayError(f"run summary {rd.summary}: 'best_trial' {summary['best_trial']} is not a trial of the run")
    return summary


def read_max_curve(rd: RunDir, trial: int) -> np.ndarray:
    """The ``max`` column of one trial's logbook, every row checked."""
    path = rd.logbook(trial)
    if not path.is_file():
        raise EvoplayError(f"logbook {path} is missing")
    if path.stat().st_size > MAX_RUN_FILE_BYTES:
        raise EvoplayError(f"logbook {path} is larger than {MAX_RUN_FILE_BYTES} bytes")
    try:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            if reader.fieldnames is None or "max" not in reader.fieldnames:
                raise EvoplayError(f"logbook {path} has no 'max' column")
            values = []
            for row in reader:
                text = row.get("max")
                try:
                    value = float(text)
                except (TypeError, ValueError):
                    raise EvoplayError(
                        f"logbook {path} line {reader.line_num}: 'max' is not a number ({shorten(text)})"
                    ) from None
                if not math.isfinite(value):
                    raise EvoplayError(f"logbook {path} line {reader.line_num}: 'max' is not finite ({text})")
                values.append(value)
    except UnicodeDecodeError as e:
        raise EvoplayError(f"logbook {path} is not UTF-8 text: {e.reason}") from None
    except csv.Error as e:
        raise EvoplayError(f"logbook {path} is not valid CSV: {e}") from None
    if not values:
        raise EvoplayError(f"logbook {path} has no generations")
    return np.array(values)


def per_generation(root, x: str) -> float:
    """A trial's games a generation (``x = "games"``: a finished run's summary) or its
    worker-CPU seconds a generation (``"cpu"``: ``costs.json``, the trials' mean)."""
    if x == "games":
        summary = read_summary(root)
        played = summary.get("games_played")
        if not isinstance(played, int) or isinstance(played, bool) or played <= 0:
            raise EvoplayError(f"run {root}: its summary.json gives no games_played to draw --x games with")
        return played / (summary["trials"] * summary["generations"])
    costs = _run_dir(root).root / "costs.json"
    if not costs.is_file():
        raise EvoplayError(f"run {root} has no costs.json to draw --x cpu with")
    doc = read_json(costs, "run costs", MAX_RUN_FILE_BYTES, EvoplayError)
    try:
        rates = [float(t["cpu_seconds"]) / int(t["generations"]) for t in doc.values()]
    except (AttributeError, KeyError, TypeError, ValueError, ZeroDivisionError):
        raise EvoplayError(f"run costs {costs} is damaged: not the costs.json a run writes") from None
    if not rates or not all(np.isfinite(rates)) or min(rates) < 0:
        raise EvoplayError(f"run costs {costs} is damaged: not the costs.json a run writes")
    return float(np.mean(rates))


def read_curves(root, summary: dict) -> np.ndarray:
    """Max payoff per generation of every trial, shape (trials, generations)."""
    rd = RunDir(root)
    curves = [read_max_curve(rd, t) for t in range(summary["trials"])]
    lengths = {len(c) for c in curves}
    if len(lengths) > 1:
        raise EvoplayError(f"run {rd.root}: the trials' logbooks have different lengths ({sorted(lengths)} generations)")
    return np.array(curves)


def read_unfinished(rd: RunDir) -> tuple[dict, np.ndarray]:
    """(name and seed, curves) of a run still running or interrupted: each trial's logbook
    so far, cut to the generations every trial has reached."""
    from evoplay.framework.config import load
    from evoplay.games import reading_data

    try:
        with reading_data():  # the game it names is loaded only where the user named it (--game)
            cfg = load(rd.config)
    except EvoplayError as e:
        raise EvoplayError(f"run {rd.root} has not finished and its config cannot be read: {e}") from None
    trials = rd.trials_present()
    if not trials:
        raise EvoplayError(f"run {rd.root} has no logbook yet (its first checkpoint has not landed)")
    curves = [read_max_curve(rd, t) for t in trials]
    n = min(len(c) for c in curves)
    info = {"name": f"{cfg['']['name']} (running or interrupted, generation {n})", "seed": cfg[""]["seed"]}
    return info, np.array([c[:n] for c in curves])


def champion_file(root, summary: dict, trial: int) -> Path:
    """The player file of a trial's champion (existence checked; contents by the loader)."""
    if not 0 <= trial < summary["trials"]:
        raise EvoplayError(f"--trial {trial}: the run has trials 0..{summary['trials'] - 1}")
    path = RunDir(root).champion(trial)
    if not path.is_file():
        raise EvoplayError(f"champion file {path} is missing")
    return path


def run_game(run_dir, summary: dict, named=None):
    """The game a finished run played: the one its summary names, else the one its best
    champion's file names (tic-tac-toe for files older than games in files). A user's game
    must have been named (``--game``, at the file's place now); one whose file changed since
    the summary recorded its digest (``game_sha256``) is said on stderr. ``named``, the game
    of ``--game`` where given, must be the run's: refused in one line otherwise."""
    from evoplay.arena.game import game_ref
    from evoplay.files.playerfile import document_game, read_envelope
    from evoplay.games import GameError, resolve_data_game

    ref = summary.get("game")
    if not isinstance(ref, str):
        ref = document_game(read_envelope(champion_file(run_dir, summary, summary["best_trial"])))
    try:
        game = resolve_data_game(ref, summary.get("game_sha256"))
    except GameError as e:
        raise GameError(f"run {RunDir(run_dir).root} {e}") from None
    if named is not None and game_ref(named) != game_ref(game):
        raise GameError(f"--game {game_ref(named)}: run {RunDir(run_dir).root} played {ref}, not this game "
                        f"(drop --game, or name the run's game)")
    return game


def check_game_file(run_dir, named=None) -> None:
    """For ``plot``: refuse (one line) a ``--game`` that is not the game a finished run played,
    and say on stderr (one line) when the game file of the run's own game has changed since
    the run recorded its digest; nothing more (curves are drawn without the game, so a user's
    game not named is no refusal here)."""
    rd = RunDir(run_dir)
    if not rd.summary.is_file():
        return
    try:
        summary = read_summary(run_dir)
    except EvoplayError:
        return  # a damaged run: plot says what it can
    if named is not None or (isinstance(summary.get("game"), str) and summary.get("game_sha256")):
        try:
            run_game(run_dir, summary, named)
        except EvoplayError:
            if named is not None:
                raise


def plot(run_dirs, out=None, named=None, x: str = "generation") -> list[Path]:
    """``evoplay plot``: the runs' curves overlaid in one image.

    ``out`` (default ``curve.png`` in the current directory) may end in .png, .pdf or
    .svg and is written in that format only. It may replace a file of an input run only
    when named explicitly with ``--out``. ``x``: the curves against the generation, the
    games a trial played (``games``: a finished run's ``games_played`` over its trials and
    generations) or a trial's worker-CPU seconds (``cpu``: its ``costs.json``, each
    generation the trials' mean).
    """
    from evoplay.framework import plotting

    if out is None:
        out = Path("curve.png")
        for d in run_dirs:
            if out.resolve().is_relative_to(Path(d).resolve()):
                raise EvoplayError(
                    f"the default --out {out} would replace a file of the run {d}; name --out explicitly"
                )
    out = check_output(Path(out), suffixes=tuple(plotting.FORMATS))
    runs, labels = [], []
    for d in run_dirs:
        rd = _run_dir(d)
        if rd.summary.exists() or not rd.is_run():
            summary = read_summary(d)
            curves = read_curves(d, summary)
        else:  # a running or interrupted run: the generations every trial has reached
            summary, curves = read_unfinished(rd)
        runs.append(curves)
        labels.append(plotting.run_label(summary, Path(d), len(curves)))
    scale = None if x == "generation" else [per_generation(d, x) for d in run_dirs]
    labelled = list(zip(plotting.distinct_labels(labels, list(run_dirs)), runs))
    words = FitnessWords.common(plotting.run_words(d) for d in run_dirs)
    for d in run_dirs:  # a --game that is not the run's refused, a game file changed since the run said
        check_game_file(d, named)
    recipes = [run_recipe(d) for d in run_dirs]
    curves = [out if len(run_dirs) == 1 else out.with_name(f"{out.stem}-{k}{out.suffix}") for k in range(len(run_dirs))]
    with writing(out):
        written = plotting.plot_curves(labelled, [out], words, scale, x)
        for d, recipe, curve in zip(run_dirs, recipes, curves):
            if recipe is not None:
                written += recipe.figures(d, curve)
    return written


def run_recipe(root):
    """The recipe object of a run directory's stored config, for its extra figures and reports.

    None when the run has no config (a bare folder of results) or one that no longer loads
    (say, it names a player file since moved), said in one warning line: the curve and
    champions need neither.
    """
    try:
        return load_recipe(root)
    except EvoplayError as e:
        config_warning(root, e)
        return None


def load_recipe(root):
    """The recipe object of a run directory's stored config (None without one); an
    EvoplayError when the config does not load. Loading it resolves the run's game (a
    config may name code: a game file of the user's own, at the place the config names)."""
    from evoplay.framework.config import load, recipe_class

    from evoplay.games import reading_data

    rd = RunDir(root)
    if not rd.config.is_file():
        return None
    with reading_data():  # the game it names is loaded only where the user named it (--game)
        cfg = load(rd.config)
        return recipe_class(cfg[""]["recipe"])(cfg)


def config_warning(root, error: EvoplayError) -> None:
    """One line on stderr: the run's config does not load, so no recipe figures or reports."""
    import logging

    logging.getLogger("evoplay.cli").warning("run %s: its config does not load (%s); no recipe figures or reports",
                                             RunDir(root).root, error)  # a game not named says what to add


def export(run_dir, trial=None, out=None, named=None) -> str:
    """``evoplay export``: copy a trial's champion (default: the best) to a player file;
    ``named``, the game of ``--game``, must be the run's."""
    from evoplay.files.atomic import write_text
    from evoplay.files.playerfile import load_player

    out = check_output(Path(out or "champion.json"), suffixes=(".json",))
    summary = read_summary(run_dir)
    run_game(run_dir, summary, named)
    trial = summary["best_trial"] if trial is None else trial
    src = champion_file(run_dir, summary, trial)
    load_player(src)  # validate before copying
    text = src.read_text()
    with writing(out):
        write_text(out, text)
    return f"{out}: champion of trial {trial} of {run_dir}"


def echo_paths(paths):
    for path in paths:
        click.echo(str(path))
