"""evoplay report / baselines / resign: analyses of runs and players, and player-file care."""

from __future__ import annotations

import click

from evoplay import baselines as _baselines
from evoplay.cli import cli
from evoplay.cli.checks import check_output


@cli.command()
@click.argument("run_dir", type=click.Path(file_okay=False))
def report(run_dir):
    """Exact analysis of a finished run's champions (writes analysis.md and analysis.json in RUN_DIR)."""
    from evoplay.cli import runfiles
    from evoplay.recipes.fogel.report import analyze_run, summary_lines

    summary = runfiles.read_summary(run_dir)
    for t in range(summary["trials"]):
        runfiles.champion_file(run_dir, summary, t)
    for name in ("analysis.md", "analysis.json"):
        check_output(runfiles.RunDir(run_dir).root / name, what="report")
    recipe = runfiles.run_recipe(run_dir)
    with runfiles.writing(run_dir):
        result = analyze_run(run_dir, summary)
        extra = recipe.report(run_dir) if recipe is not None else []
    click.echo("\n".join(summary_lines(run_dir, result) + extra))


@cli.command()
@_baselines.options
def baselines(out, seed, value_games, retrain):
    """Train (or load) the baseline players and write their exact tournament to OUT."""
    command = _baselines.command_line(out, seed, value_games, retrain)
    paths = _baselines.build(out, seed, value_games, retrain, command)
    click.echo("wrote " + ", ".join(map(str, paths)))


@cli.command()
@click.argument("player_file", type=click.Path(dir_okay=False))
def resign(player_file):
    """Sign an edited PLAYER_FILE again, so that match, analyze and game accept it.

    Player files carry the sha256 of their contents and are refused when it does not
    match. After editing one on purpose, this checks everything else (format, kind,
    weight shapes, finite numbers) and stores the new sha256.
    """
    from evoplay.tictactoe.playerfile import resign as resign_file

    old, new = resign_file(player_file)
    if old == new:
        click.echo(f"{player_file}: signature already matches its contents; unchanged")
    else:
        click.echo(f"{player_file}: re-signed (sha256 {old[:12]}... -> {new[:12]}...)")
