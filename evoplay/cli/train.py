"""evoplay train: the gradient- and GA-trained baseline players."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import click

from evoplay.errors import EvoplayError, SpecError
from evoplay.cli.group import cli
from evoplay.cli.checks import BoundedInt, FiniteFloat, PathArg, check_output, writing
from evoplay.cli.play import SEED_TYPE
from evoplay.tictactoe.players import make_player

#: Options that only one kind takes.
KIND_OPTIONS = {
    "explore": "value-net",
    "epochs": "outcome-net",
    "generations": "ga-value-net",
    "population": "ga-value-net",
    "hidden": "ga-value-net",
    "opponent": "ga-value-net",
    "address": "ga-value-net",
    "workers": "ga-value-net",
}


def player_option_check(option: str, spec: str):
    """Build the player of an option now, so that a bad spec is refused before any work."""
    try:
        make_player(spec)
    except SpecError as e:
        raise SpecError(f"{option}: {e}") from None


@cli.command()
@click.argument("kind", metavar="KIND", type=click.Choice(["value-net", "outcome-net", "ga-value-net"]))
@click.option("--games", type=BoundedInt(1, 10**9), default=None,
              help="value-net: training games (500000); outcome-net: random games in the data set "
                   "(10000); ga-value-net: games per fitness evaluation (100).")
@click.option("--seed", type=SEED_TYPE, default=0, show_default=True, help="Run seed.")
@click.option("--out", type=PathArg(dir_okay=False), default=None,
              help="Player file to write, ending in .json (default KIND.json); the training plot goes beside it (.png).")
@click.option("--explore", type=FiniteFloat(0.0, 1.0), default=None,
              help="value-net: chance of a random move in net-vs-net games (0.03).")
@click.option("--epochs", type=BoundedInt(1, 10**6), default=None, help="outcome-net: epochs (100).")
@click.option("--generations", type=BoundedInt(1, 10**7), default=None, help="ga-value-net: generations (200).")
@click.option("--population", type=BoundedInt(2, 10**6), default=None, help="ga-value-net: population size (50).")
@click.option("--hidden", type=BoundedInt(1, 64), default=None, help="ga-value-net: hidden units (9).")
@click.option("--opponent", default=None, help="ga-value-net: fitness opponent, any player spec (logic).")
@click.option("--address", default=None,
              help="ga-value-net: evaluate on this Ray cluster (or set RAY_ADDRESS).")
@click.option("--workers", type=BoundedInt(1, 4096), default=None,
              help="ga-value-net: evaluate on embedded Ray with this many workers.")
@click.option("--progress/--no-progress", default=True, show_default=True, help="Progress bar on stderr.")
def train(kind, games, seed, out, progress, **opts):
    """Train a tic-tac-toe baseline player (value-net, outcome-net or ga-value-net) and save it.

    ga-value-net evaluates in this process unless --address, --workers or RAY_ADDRESS
    asks for Ray: a whole generation costs milliseconds, less than Ray's start-up.

    The gradient players of every game, evaluation networks trained by TDLeaf(lambda)
    self-play, train as a recipe, with its trials, checkpoints and curves: evoplay evolve
    CONFIG with recipe = "td-leaf" (configs/td-leaf-ttt.toml).
    """
    from evoplay.published.baselines import trainer
    from evoplay.tictactoe.trained.common import write

    for name, value in opts.items():
        if value is not None and KIND_OPTIONS[name] != kind:
            raise click.UsageError(f"--{name} applies to {KIND_OPTIONS[name]} only")
    out = out or f"{kind}.json"
    # Refused now, not after minutes of training: the player file and its plot beside it.
    check_output(out, suffixes=(".json",))
    check_output(Path(out).with_suffix(".png"), what="--out's plot")
    if opts.get("opponent") is not None:
        player_option_check("--opponent", opts["opponent"])
    command = shlex.join(["evoplay", "train", *_argv(kind, games, seed, out, opts)])
    given = {k: v for k, v in opts.items() if v is not None}
    games = games or _default_games(kind)
    if kind == "ga-value-net":
        result = _train_ga(seed, games, progress, given)
    else:
        result = trainer(kind).train(games=games, seed=seed, progress=progress, **given)
    settings = result.metrics.get("settings", given)
    provenance = {"command": command, "seed": seed, "games": games, "settings": settings}
    with writing(out):
        path, plot = write(result, out, provenance, trainer(kind).plot)
    click.echo(f"{kind}: wrote {path} and {plot}")
    click.echo(_summary(result.metrics))


def _train_ga(seed, games, progress, given):
    from evoplay.recipes import ga_value_net

    address, workers = given.pop("address", None), given.pop("workers", None)
    settings = dict(given, games=games)
    if not (address or workers or os.environ.get("RAY_ADDRESS")):
        return ga_value_net.train(seed=seed, progress=progress, **settings)
    try:
        from evoplay.framework import distributed
    except ImportError:
        raise EvoplayError("--address/--workers need evoplay.distributed (Ray), which is not available") from None
    with distributed.ray_session(address=address, workers=workers):
        return ga_value_net.train(seed=seed, map_fn=distributed.RayMap(), progress=progress, **settings)


def _default_games(kind):
    from evoplay.published.baselines import trainer

    m = trainer(kind)
    return m.DEFAULTS["games"] if kind == "ga-value-net" else m.DEFAULT_GAMES


def _argv(kind, games, seed, out, opts):
    args = [kind, "--seed", str(seed), "--out", out]
    if games:
        args += ["--games", str(games)]
    for name, value in opts.items():
        if value is not None:
            args += [f"--{name}", str(value)]
    return args


def _summary(metrics: dict) -> str:
    """One line per opponent: exact win/draw/loss percentages from both seats."""
    lines = []
    for k, v in metrics.items():
        if k not in ("exact", "settings", "label_share"):
            lines.append(f"  {k}: {v:.4g}" if isinstance(v, float) else f"  {k}: {v}")
    for opp, seats in metrics.get("exact", {}).items():
        cells = [
            f"as {seat[-1].upper()} {r['win']:.1%} win {r['draw']:.1%} draw {r['loss']:.1%} loss"
            for seat, r in seats.items()
        ]
        lines.append(f"  exact vs {opp}: " + "; ".join(cells))
    return "\n".join(lines)
