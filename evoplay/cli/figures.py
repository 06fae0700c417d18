"""evoplay figures: reproduce the figures of published programs (``evoplay.published``)."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from evoplay.cli.group import cli
from evoplay.cli.checks import BoundedInt, PathArg

FIGURES = ("gibson", "value-net-tutorial", "keras-outcome-net")
#: The names of an earlier release, still accepted (with a notice) for this one.
RENAMED = {"valuenet-settings": "value-net-tutorial", "seed003": "keras-outcome-net"}

#: Options that only one figure set takes.
ONLY = {
    "games": ("gibson", "value-net-tutorial"),
    "seed": ("gibson",),
    "seeds": ("value-net-tutorial", "keras-outcome-net"),
    "workers": ("value-net-tutorial",),
    "address": ("value-net-tutorial",),
    "retrain": ("keras-outcome-net",),
    "outcome_net": ("keras-outcome-net",),
}


class FigureName(click.Choice):
    """One of ``FIGURES``; an old name is taken as its new one, with a one-line notice on stderr."""

    def __init__(self):
        super().__init__(FIGURES)

    def convert(self, value, param, ctx):
        if value in RENAMED:
            click.echo(f"evoplay: note: '{value}' is now called '{RENAMED[value]}' "
                       "(the old name is accepted for this release)", err=True)
            value = RENAMED[value]
        return super().convert(value, param, ctx)


@cli.command()
@click.argument("name", metavar="NAME", type=FigureName())
@click.option("--out", type=PathArg(file_okay=False), default=None,
              help="Folder to write (default results/NAME).")
@click.option("--games", type=BoundedInt(1, 10**9), default=None,
              help="gibson: sampled games per point (1000); value-net-tutorial: training games per run (150000).")
@click.option("--seed", type=BoundedInt(0, 2**64 - 1), default=None,
              help="gibson: the random seed of the sampled games (0).")
@click.option("--seeds", type=BoundedInt(1, 100), default=None,
              help="How many random seeds to train with, 0..N-1: value-net-tutorial, per setting (2); "
                   "keras-outcome-net, one net per random seed (1: seed 0's is the committed model, the others "
                   "show training noise).")
@click.option("--workers", type=BoundedInt(1, 4096), default=None,
              help="value-net-tutorial: CPUs of embedded Ray (default: all cores).")
@click.option("--address", default=None, help="value-net-tutorial: run on this Ray cluster (or set RAY_ADDRESS).")
@click.option("--retrain", is_flag=True, default=None,
              help="keras-outcome-net: train the faithful net even if OUT holds one (takes minutes).")
@click.option("--outcome-net", "outcome_net", type=PathArg(dir_okay=False), default=None,
              help="keras-outcome-net: evoplay's outcome-net player file to compare (results/baselines/outcome-net.json).")
@click.option("--progress/--no-progress", default=True, show_default=True, help="Progress on stderr.")
def figures(name, out, progress, **opts):
    """Reproduce a published tic-tac-toe program's figures: gibson, value-net-tutorial or keras-outcome-net.

    gibson: Gibson's softmax-minimax page, win probabilities and first-move scores
    against O's temperature, exact and sampled. value-net-tutorial: a value-net
    tutorial's training settings on Ray, curves and exact strength. keras-outcome-net:
    a faithful model of a published Keras outcome-net program, its exact results beside
    the published ones. (valuenet-settings and seed003, the names of an earlier release,
    are still accepted.)
    """
    for opt, value in opts.items():
        if value is not None and name not in ONLY[opt]:
            flag = "--" + opt.replace("_", "-")
            raise click.UsageError(f"{flag} applies to {' and '.join(ONLY[opt])} only")
    out = Path(out or f"results/{name}")
    if name == "gibson":
        _gibson(out, opts["games"], opts["seed"], progress)
    elif name == "value-net-tutorial":
        _value_net_tutorial(out, opts, progress)
    else:
        _keras_outcome_net(out, bool(opts["retrain"]), opts["outcome_net"], opts["seeds"], progress)


def _gibson(out, games, seed, progress):
    from evoplay.published import gibson

    games = games or gibson.GAMES
    seed = gibson.SEED if seed is None else seed
    command = shlex.join(["evoplay", "figures", "gibson", "--out", str(out), "--games", str(games), "--seed", str(seed)])
    data = gibson.compute(games=games, seed=seed)
    gibson.write_results(out, data, command)
    chk = data["check_position"]
    click.echo(f"gibson: wrote {out}/win_probabilities.png, first_move_scores.png, gibson.json, table.md")
    click.echo(f"  check position value {chk['value']:.4f}; moves 2/5/8: "
               + " / ".join(f"{chk['move_percent'][s]:.2f}%" for s in "258"))


def _value_net_tutorial(out, opts, progress):
    from evoplay.published import value_net_tutorial

    games = opts["games"] or value_net_tutorial.GAMES
    if games < value_net_tutorial.value_net.BLOCK:
        raise click.UsageError(f"--games must be at least {value_net_tutorial.value_net.BLOCK} for value-net-tutorial (one point of the curve)")
    seeds = tuple(range(opts["seeds"] or len(value_net_tutorial.SEEDS)))
    study = value_net_tutorial.main_command(out, games, seeds, workers=opts["workers"], address=opts["address"], progress=progress)
    click.echo(f"value-net-tutorial: wrote {out}/curves.png, table.md, study.json and {len(study['runs'])} player files")
    for r in study["runs"]:
        e = r["exact"]
        click.echo(f"  {r['setting']:>15} seed {r['seed']}: exact good/100 {r['exact_good_per_100'][-1]:5.1f}; "
                   f"vs random as X {100 * e['random']['as_x']['win']:.1f}% win, "
                   f"vs logic as X {100 * e['logic']['as_x']['loss']:.1f}% loss")


def _keras_outcome_net(out, retrain, outcome_net, seeds, progress):
    from evoplay.published import keras_outcome_net
    from evoplay.published import keras_outcome_net_report

    outcome_net = outcome_net or "results/baselines/outcome-net.json"
    argv = ["evoplay", "figures", "keras-outcome-net", "--out", str(out)] + (["--seeds", str(seeds)] if seeds else [])
    for seed in range(seeds or 1):
        path = out / keras_outcome_net.player_file(seed)
        if retrain or not path.is_file():
            keras_outcome_net.train_player(out, seed=seed, progress=progress, command=shlex.join([*argv, "--retrain"]))
            click.echo(f"keras-outcome-net: trained {path}")
    report = keras_outcome_net_report.write_results(out, out / keras_outcome_net.PLAYER_FILE, outcome_net)
    click.echo(f"keras-outcome-net: wrote {out}/results.json and table.md")
    for v in report["variants"]:
        x, o = v["as_x"], v["as_o"]
        click.echo(f"  {v['name']}: as X {100 * x['win']:.1f}/{100 * x['draw']:.1f}/{100 * x['loss']:.1f}, "
                   f"as O {100 * o['win']:.1f}/{100 * o['draw']:.1f}/{100 * o['loss']:.1f} (win/draw/loss %)")
