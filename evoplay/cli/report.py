"""evoplay report / baselines / resign: analyses of runs and players, and player-file care."""

from __future__ import annotations

import os

import click

from evoplay.published import baselines as _baselines
from evoplay.cli.group import cli
from evoplay.cli.checks import BoundedInt, PathArg, check_output
from evoplay.errors import EvoplayError
from evoplay.files.plainnum import parse_int


@cli.command()
@click.argument("run_dir", type=PathArg(file_okay=False))
@click.option("--league", type=BoundedInt(1, 10_000), default=None, metavar="N",
              help="Checkers runs: the last parents play a round robin over N ballots from both colours; "
                   "its winner is written to league-champions/ and measured against piece difference (on Ray).")
@click.option("--depths", default=None, metavar="D,D,...",
              help="Checkers runs: the champion against piece difference, both searching each depth, over all the "
                   "ballots from both colours (on Ray; written to duels.json).")
@click.option("--versus", multiple=True, type=PathArg(), metavar="FILE",
              help="Checkers runs: the champion against this Blondie24 checkers network (player file or run "
                   "directory) over all the ballots from both colours (repeatable; on Ray; written to duels.json).")
@click.option("--address", envvar="RAY_ADDRESS", help="--league, --depths, --versus: join this Ray cluster (default: embedded local Ray).")
@click.option("--workers", type=BoundedInt(1, 4096), help="--league, --depths, --versus: CPUs of local Ray to use (default: all).")
@click.option("--game", "game_name", default=None, metavar="REF",
              help="The run's game, where it is a file of your own that moved with the run (path/to/file.py:OBJ at "
              "its new place).")
def report(run_dir, league, depths, versus, address, workers, game_name):
    """Exact analysis of a finished run's champions (writes analysis.md and analysis.json in RUN_DIR).

    Champions of a game that cannot be analysed exactly (checkers) are reported from the
    yardstick games the run played, and with --league from the league of its last parents.
    """
    if game_name is not None:
        from evoplay.games import resolve_game

        resolve_game(game_name)
    from evoplay.cli import runfiles
    from evoplay.recipes.fogel.report import analyze_run, summary_lines

    summary = runfiles.read_summary(run_dir)
    for t in range(summary["trials"]):
        runfiles.champion_file(run_dir, summary, t)
    depths = _depths(depths)
    duels = bool(depths or versus)
    for name in ("analysis.md", "analysis.json") + (("league.json",) if league else ()) + (("duels.json",) if duels else ()):
        check_output(runfiles.RunDir(run_dir).root / name, what="report")
    recipe = runfiles.run_recipe(run_dir)
    work = []
    if league:
        from evoplay.recipes.blondie24.league import check as check_league, run_league

        _checkers_run(recipe, run_dir, "--league")
        check_league(recipe, run_dir, league)  # a league that cannot be played is refused before Ray starts
        work.append(lambda: run_league(recipe, run_dir, league))
    if duels:
        from evoplay.recipes.blondie24.duels import check as check_duels, run_duels

        _checkers_run(recipe, run_dir, "--depths and --versus")
        check_duels(recipe, run_dir, depths, versus)  # likewise
        work.append(lambda: run_duels(recipe, run_dir, depths, versus))
    if work:
        _on_ray(recipe, run_dir, address, workers, work)
    with runfiles.writing(run_dir):
        if recipe is not None and not _exact(recipe):  # no exact analysis: the recipe reports its games
            lines = recipe.report(run_dir)
        else:
            lines = summary_lines(run_dir, analyze_run(run_dir, summary)) + (recipe.report(run_dir) if recipe is not None else [])
    click.echo("\n".join(lines))


def _checkers_run(recipe, run_dir, options: str):
    from evoplay.recipes.blondie24 import yardstick

    if recipe is None or recipe.name != "blondie24" or yardstick.kind(recipe) != "piece-difference":
        raise EvoplayError(f"{options} {'are' if ' and ' in options else 'is'} for Blondie24 checkers runs (judged against "
                           f"piece difference); {run_dir} is not one")


def _on_ray(recipe, run_dir, address, workers, work):
    """``report --league/--depths/--versus``, checked already: their games on Ray, one task per job."""
    from evoplay.cli import runfiles
    from evoplay.framework.distributed import RayMap, init_ray, shutdown_ray

    init_ray(address, workers)
    try:
        recipe.toolbox.register("map", RayMap(chunk_size=1))
        with runfiles.writing(run_dir):
            for job in work:
                job()
    finally:
        shutdown_ray()


def _depths(text) -> list[int]:
    """``--depths 4,6,8`` as a list of depths (checked for range by the duels)."""
    if text is None:
        return []
    try:
        depths = [parse_int(x) for x in text.split(",")]  # plain ASCII decimals: not ' 4', '+4' or '1_2'
    except ValueError:
        raise EvoplayError(f"--depths must be depths separated by commas (e.g. 4,6,8), got {text[:40]!r}") from None
    if len(depths) != len(set(depths)):
        raise EvoplayError(f"--depths names a depth twice: {text[:40]}")
    return depths


@cli.command()
@click.option("--out", type=PathArg(file_okay=False), default=_baselines.DEFAULT_OUT, show_default=True,
              help="Folder of the player files and the tournament.")
@click.option("--seed", type=BoundedInt(0, 2**32 - 1), default=0, show_default=True, help="Seed of the training runs.")
@click.option("--value-games", type=BoundedInt(1, 10**9), default=None, help="value-net training games (500000).")
@click.option("--retrain", is_flag=True, help="Train again even when a player file is there.")
def baselines(out, seed, value_games, retrain):
    """Train (or load) tic-tac-toe's baseline players and write their exact tournament to OUT."""
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
    from evoplay.files.playerfile import resign as resign_file

    old, new = resign_file(player_file)
    if old == new:
        click.echo(f"{player_file}: signature already matches its contents; unchanged")
    else:
        click.echo(f"{player_file}: re-signed (sha256 {old[:12]}... -> {new[:12]}...)")


def _exact(recipe) -> bool:
    """Whether a run's game analyses its champions exactly (tic-tac-toe)."""
    from evoplay.arena.game import capability
    from evoplay.games import resolve_game

    return capability(resolve_game(recipe.game), "yardstick") == "exact"
