"""evoplay report / baselines / resign: analyses of runs and players, and player-file care."""

from __future__ import annotations

import os

import click

from evoplay.published import baselines as _baselines
from evoplay.cli.group import cli
from evoplay.arena.game import capability
from evoplay.cli.checks import BoundedInt, PathArg, check_output, game_option, name_game
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
@game_option()
def report(run_dir, league, depths, versus, address, workers, game_name):
    """Analyse a finished run's champions: writes analysis.md and analysis.json in RUN_DIR.

    Tic-tac-toe champions are analysed exactly; checkers champions are reported from the
    yardstick games the run played, and with --league from the league of its last parents;
    any other game's champions against random and mcts from both seats (the games the run
    recorded, else played now), with 95% intervals of the mean score inside [-1, 1].
    """
    named = name_game(game_name)
    from evoplay.cli import runfiles
    from evoplay.recipes.fogel.report import analyze_run, summary_lines

    summary = runfiles.read_summary(run_dir)
    for t in range(summary["trials"]):
        runfiles.champion_file(run_dir, summary, t)
    depths = _depths(depths)
    duels = bool(depths or versus)
    for name in ("analysis.md", "analysis.json") + (("league.json",) if league else ()) + (("duels.json",) if duels else ()):
        check_output(runfiles.RunDir(run_dir).root / name, what="report")
    try:
        recipe, trouble = runfiles.load_recipe(run_dir), None  # the stored config loads the game it names
    except EvoplayError as e:
        recipe, trouble = None, e
    game = runfiles.run_game(run_dir, summary, named)  # a user's game not named is refused here in one line, before any work
    if trouble is not None:
        runfiles.config_warning(run_dir, trouble)
    work = []
    if league:
        from evoplay.recipes.blondie24.league import check as check_league, run_league

        _checkers_run(recipe, run_dir, "--league")
        check_league(recipe, run_dir, league)  # a league that cannot be played is refused before Ray starts
        work.append(lambda: run_league(recipe, run_dir, league))
    if duels:
        from evoplay.recipes.blondie24.duels import check as check_duels, run_duels

        judged = _checkers_run(recipe, run_dir, "--depths and --versus", trained=True)
        check_duels(judged, run_dir, depths, versus)  # likewise
        work.append(lambda: run_duels(judged, run_dir, depths, versus))
    if work:
        _on_ray(recipe, run_dir, address, workers, work)
    with runfiles.writing(run_dir):
        if capability(game, "exact"):  # the one feature that says a game is analysed exactly (match, tournament, analyze)
            lines = summary_lines(run_dir, analyze_run(run_dir, summary)) + (recipe.report(run_dir) if recipe is not None else [])
        else:  # the recipe's own report (checkers: piece difference), else the yardstick table played now
            analysis = runfiles.RunDir(run_dir).root / "analysis.json"
            before = _stamp(analysis)
            lines = recipe.report(run_dir) if recipe is not None else []
            if _stamp(analysis) == before:  # the recipe wrote no analysis: the table, played now
                lines += _played_table(run_dir, summary, game)
    click.echo("\n".join(lines))


def _stamp(path):
    """(inode, modification time) of a file, None if absent: whether a report wrote it anew (an atomic write renames a new file)."""
    try:
        found = path.stat()
    except FileNotFoundError:
        return None
    return found.st_ino, found.st_mtime_ns


def _played_table(run_dir, summary: dict, game) -> list[str]:
    """The yardstick table of a run whose recipe recorded no games of its champions against
    random and mcts: each champion plays them now, from the run's seed (the same openings
    for every champion); written as analysis.md and analysis.json."""
    from evoplay.arena.specs import make_player
    from evoplay.cli import runfiles
    from evoplay.recipes import yardstick_table as table

    rows = {}
    for t in range(summary["trials"]):
        champion = make_player(game, str(runfiles.champion_file(run_dir, summary, t)))
        rows[t] = [table.play(game, champion, opponent, table.OPENINGS, table.RANDOM_PLIES, summary["seed"])
                   for opponent in table.opponents()]
    how = {"source": "played", "openings": table.OPENINGS, "random_plies": table.RANDOM_PLIES}
    return table.summary_lines(run_dir, table.analyze_run(run_dir, summary, game, rows, how))


def _checkers_run(recipe, run_dir, options: str, trained: bool = False):
    """The recipe as Blondie24's judging reads it (a ``td-leaf`` run's too, with ``trained``: its
    champions are the same networks), checked to be a checkers run judged against piece difference."""
    from evoplay.recipes.blondie24 import yardstick

    kinds = ("blondie24", "td-leaf") if trained else ("blondie24",)
    judged = recipe.judged() if recipe is not None and recipe.name in kinds else None
    if judged is None or yardstick.kind(judged) != "piece-difference":
        runs = "Blondie24 and TDLeaf checkers runs" if trained else "Blondie24 checkers runs"
        raise EvoplayError(f"{options} {'are' if ' and ' in options else 'is'} for {runs} (judged against "
                           f"piece difference); {run_dir} is not one")
    return judged


def _on_ray(recipe, run_dir, address, workers, work):
    """``report --league/--depths/--versus``, checked already: their games on Ray, one task per job."""
    from evoplay.cli import runfiles
    from evoplay.framework.distributed import RayMap, ray_session

    with ray_session(address, workers):
        recipe.toolbox.register("map", RayMap(chunk_size=1))
        with runfiles.writing(run_dir):
            for job in work:
                job()


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


def _check_file_game(player_file, named) -> None:
    """Refuse in one line a ``--game`` that is not the game the player file plays (after the
    file's own checks, so that a defect of the file is what is said first)."""
    from evoplay.arena.game import game_ref
    from evoplay.files.playerfile import LEGACY_GAME, build_player, read_envelope
    from evoplay.games import GameError

    own = getattr(build_player(read_envelope(player_file), player_file), "game", None)
    ref = game_ref(own) if own is not None else LEGACY_GAME
    if ref != game_ref(named):
        raise GameError(f"--game {game_ref(named)}: player file {player_file} plays {ref}, not this game "
                        "(drop --game, or name the file's game)")


@cli.command()
@click.argument("player_file", type=PathArg(dir_okay=False))
@game_option()
def resign(player_file, game_name):
    """Sign an edited PLAYER_FILE again, so that match, analyze and game accept it.

    Player files carry the sha256 of their contents and are refused when it does not
    match. After editing one on purpose, this checks everything else (format, kind,
    weight shapes, finite numbers) and stores the new sha256.
    """
    from evoplay.files.playerfile import resign as resign_file

    named = name_game(game_name)
    if named is not None:
        _check_file_game(player_file, named)
    old, new = resign_file(player_file)
    if old == new:
        click.echo(f"{player_file}: signature already matches its contents; unchanged")
    else:
        click.echo(f"{player_file}: re-signed (sha256 {old[:12]}... -> {new[:12]}...)")
