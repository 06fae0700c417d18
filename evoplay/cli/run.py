"""evoplay evolve / plot / export: evolution runs, their curves and their champions."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from evoplay.cli.group import cli
from evoplay.cli.checks import BoundedInt, PathArg, game_option, name_game


@cli.command()
@click.argument("config_file", metavar="CONFIG", type=PathArg(dir_okay=False))
@click.option("--trials", type=BoundedInt(1, 10_000), help="Override the number of trials.")
@click.option("--generations", type=BoundedInt(1, 1_000_000), help="Override the number of generations.")
@click.option("--seed", type=BoundedInt(0, 2**63 - 1), help="Override the run seed.")
@click.option("--out", type=PathArg(), help="Run directory (default results/NAME).")
@click.option("--address", envvar="RAY_ADDRESS", help="Join this Ray cluster (default: embedded local Ray).")
@click.option("--workers", type=BoundedInt(1, 4096), help="CPUs of local Ray to use (default: all).")
@click.option("--resume", is_flag=True, help="Continue an interrupted run from its checkpoints.")
@click.option("--overwrite", is_flag=True, help="Replace an earlier run in the run directory.")
@click.option("--log-detail", is_flag=True, help="Write the detailed per-network generation log.")
@click.option("-v", "--verbose", count=True, help="Log what the run does (-vv: debug).")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar, warnings and errors only.")
def evolve(config_file, trials, generations, seed, out, address, workers, resume, overwrite, log_detail, verbose, quiet):
    """Evolve the recipe CONFIG names on Ray: a TOML file, or the name of a config that comes
    with evoplay (fogel1993, blondie24, quick, ...: the files of its configs/ folder)."""
    from tqdm import tqdm

    from evoplay.framework import config, runner
    from evoplay.framework.recipe import FitnessWords

    if resume and overwrite:
        raise click.UsageError("--resume and --overwrite exclude each other")
    setup_logging(verbose, quiet)
    cfg = config.override(config.load(config_file), trials=trials, generations=generations, seed=seed)
    out = Path(out or Path("results") / cfg[""]["name"])
    runner.check_run_dir(cfg, out, resume=resume, overwrite=overwrite)  # one line, before anything starts
    try:
        with tqdm(total=0, unit="gen", desc=cfg[""]["name"], disable=quiet or verbose > 0, leave=False) as bar:
            summary = runner.evolve(cfg, out, address=address, workers=workers, resume=resume, overwrite=overwrite,
                                    log_detail=log_detail, progress=bar)
    except (KeyboardInterrupt, click.exceptions.Abort):
        click.echo(f"evoplay: interrupted; the checkpoints in {out} continue with --resume", err=True)
        _leave(130)
    words = FitnessWords.of(config.recipe_class(cfg[""]["recipe"]))
    m = summary[words.summary_key]
    click.echo(f"run {out}: {summary['trials']} trials x {summary['generations']} generations, seed {summary['seed']}")
    click.echo(f"mean max {words.with_unit}: first generation {m['first']:g}, last {m['last']:g}, last 10 {m['last10']:.2f}")
    rule = summary.get("champion_rule")
    chosen = f", chosen by a league of {len(rule['table'])} trials' champions" if rule and rule["table"] else ""
    click.echo(f"curve: {out / 'curve.png'}  champion: {out / 'champion.json'} (trial {summary['best_trial']}{chosen})")
    _leave(0)


def setup_logging(verbose: int, quiet: bool):
    """Python logging on stderr: warnings by default, -v info, -vv debug, -q errors only."""
    import logging

    level = logging.ERROR if quiet else (logging.WARNING, logging.INFO, logging.DEBUG)[min(verbose, 2)]
    logging.basicConfig(level=level, format="%(asctime)s %(name)s: %(message)s", datefmt="%H:%M:%S")
    logging.getLogger("evoplay").setLevel(level)


def _leave(code: int):
    """Exit now, as a killed driver would, every file being written and closed.

    A cluster forgets a finished driver, and embedded Ray's processes are this process's
    descendants, stopped here at once (``driver.stop_now``): the graceful Ray shutdown
    at exit takes over a second, and with tasks in flight (Ctrl-C) it would only add Ray's
    own log lines.
    """
    from evoplay.framework import driver

    sys.stdout.flush()
    sys.stderr.flush()
    driver.stop_now()
    os._exit(code)


@cli.command()
@click.argument("run_dirs", nargs=-1, required=True, metavar="RUN_DIR [RUN_DIR ...]", type=PathArg(file_okay=False))
@click.option("--out", type=PathArg(dir_okay=False),
              help="Output image: .png, .pdf or .svg, written in that format (default curve.png here).")
@click.option("--x", "x", type=click.Choice(["generation", "games", "cpu"]), default="generation", show_default=True,
              help="Against what: the generation, the games a trial played (a finished run), or a trial's "
              "worker-CPU seconds (costs.json).")
@game_option()
def plot(run_dirs, out, x, game_name):
    """Plot the mean max-fitness curve of one or more runs (overlaid), finished or still running."""
    from evoplay.cli import runfiles

    runfiles.echo_paths(runfiles.plot(run_dirs, out, name_game(game_name), x))


@cli.command("diff")
@click.argument("run_dir", type=PathArg(file_okay=False, exists=True))
@click.argument("reference", type=PathArg(file_okay=False, exists=True))
def diff_runs(run_dir, reference):
    """Whether RUN_DIR holds the same results as REFERENCE, byte for byte: every file but the
    machine's own (environment.json, costs.json, checkpoints). Prints "identical" (exit 0)
    or the files that differ (exit 1), as diff does; `make run` ends with it."""
    from evoplay.framework.rundir import MACHINE_FILES, result_differences

    differ = result_differences(run_dir, reference)
    if not differ:
        click.echo(f"{run_dir}: identical to {reference} (every file but {', '.join(MACHINE_FILES[:2])} and checkpoints)")
        return
    click.echo(f"{run_dir} differs from {reference} in {len(differ)} file{'s' if len(differ) > 1 else ''}:")
    click.echo("\n".join(f"  {name}" for name in differ))
    sys.exit(1)


@cli.command()
@click.argument("run_dir", type=PathArg(file_okay=False))
@click.option("--trial", type=BoundedInt(0, 9999), help="Which trial's champion (default: the best).")
@click.option("--out", type=PathArg(dir_okay=False), help="Player file to write (default champion.json here).")
@game_option()
def export(run_dir, trial, out, game_name):
    """Export a champion network as a player file: a player for match, tournament, analyze,
    game and serve, of the run's game."""
    from evoplay.cli import runfiles

    click.echo(runfiles.export(run_dir, trial, out, name_game(game_name)))
