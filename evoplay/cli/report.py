"""evoplay report / baselines / resign: analyses of runs and players, and player-file care."""

from __future__ import annotations

import os

import click

from evoplay import baselines as _baselines
from evoplay.cli.group import cli
from evoplay.cli.checks import BoundedInt, PathArg, check_output
from evoplay.errors import EvoplayError


@cli.command()
@click.argument("run_dir", type=PathArg(file_okay=False))
@click.option("--league", type=BoundedInt(1, 10_000), default=None, metavar="N",
              help="Checkers runs: the last parents play a round robin over N ballots from both colours; "
                   "its winner is written to league-champions/ and measured against piece difference (on Ray).")
@click.option("--address", envvar="RAY_ADDRESS", help="--league: join this Ray cluster (default: embedded local Ray).")
@click.option("--workers", type=BoundedInt(1, 4096), help="--league: CPUs of local Ray to use (default: all).")
def report(run_dir, league, address, workers):
    """Exact analysis of a finished run's champions (writes analysis.md and analysis.json in RUN_DIR).

    Champions of a game that cannot be analysed exactly (checkers) are reported from the
    yardstick games the run played, and with --league from the league of its last parents.
    """
    from evoplay.cli import runfiles
    from evoplay.recipes.fogel.report import analyze_run, summary_lines

    summary = runfiles.read_summary(run_dir)
    for t in range(summary["trials"]):
        runfiles.champion_file(run_dir, summary, t)
    for name in ("analysis.md", "analysis.json") + (("league.json",) if league else ()):
        check_output(runfiles.RunDir(run_dir).root / name, what="report")
    recipe = runfiles.run_recipe(run_dir)
    if league:
        _play_league(recipe, run_dir, league, address, workers)
    with runfiles.writing(run_dir):
        if recipe is not None and not _exact(recipe):  # no exact analysis: the recipe reports its games
            lines = recipe.report(run_dir)
        else:
            lines = summary_lines(run_dir, analyze_run(run_dir, summary)) + (recipe.report(run_dir) if recipe is not None else [])
    click.echo("\n".join(lines))


def _play_league(recipe, run_dir, openings: int, address, workers):
    """``report --league``: checked first (a checkers run with its last checkpoints), then played on Ray."""
    from evoplay.cli import runfiles
    from evoplay.framework.distributed import RayMap, init_ray, shutdown_ray
    from evoplay.recipes.blondie24.league import check, run_league

    from evoplay.recipes.blondie24 import yardstick

    if recipe is None or recipe.name != "blondie24" or yardstick.kind(recipe) != "piece-difference":
        raise EvoplayError(f"--league is for Blondie24 checkers runs (judged against piece difference); {run_dir} is not one")
    check(recipe, run_dir, openings)  # a league that cannot be played is refused before Ray starts
    init_ray(address, workers)
    try:
        recipe.toolbox.register("map", RayMap(chunk_size=1))
        with runfiles.writing(run_dir):
            run_league(recipe, run_dir, openings)
    finally:
        shutdown_ray()


@cli.command()
@click.option("--out", type=PathArg(file_okay=False), default=_baselines.DEFAULT_OUT, show_default=True,
              help="Folder of the player files and the tournament.")
@click.option("--seed", type=BoundedInt(0, 2**32 - 1), default=0, show_default=True, help="Seed of the training runs.")
@click.option("--value-games", type=BoundedInt(1, 10**9), default=None, help="value-net training games (500000).")
@click.option("--retrain", is_flag=True, help="Train again even when a player file is there.")
def baselines(out, seed, value_games, retrain):
    """Train (or load) the baseline players and write their exact tournament to OUT."""
    if os.path.exists(out) and not os.path.isdir(out):
        raise EvoplayError(f"--out {out} is not a directory")
    for path in _baselines.outputs(out):  # refused now, not after an hour of training
        check_output(path)
    command = _baselines.command_line(out, seed, value_games, retrain)
    paths = _baselines.build(out, seed, value_games, retrain, command)
    click.echo("wrote " + ", ".join(map(str, paths)))


@cli.command()
@click.argument("player_file", type=PathArg(dir_okay=False))
def resign(player_file):
    """Sign an edited PLAYER_FILE again, so that match, analyze and game accept it.

    Player files carry the sha256 of their contents and are refused when it does not
    match. After editing one on purpose, this checks everything else (format, kind,
    weight shapes, finite numbers) and stores the new sha256.
    """
    from evoplay.playerfile import resign as resign_file

    old, new = resign_file(player_file)
    if old == new:
        click.echo(f"{player_file}: signature already matches its contents; unchanged")
    else:
        click.echo(f"{player_file}: re-signed (sha256 {old[:12]}... -> {new[:12]}...)")


def _exact(recipe) -> bool:
    """Whether a run's game analyses its champions exactly (tic-tac-toe)."""
    from evoplay.games import capability, resolve_game

    return capability(resolve_game(getattr(recipe, "game", "tictactoe")), "yardstick", None) == "exact"
