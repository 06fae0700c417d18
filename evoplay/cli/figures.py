"""evoplay figures: reproduce the published figures of the seed sources (``evoplay.seeds``)."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from evoplay.cli.group import cli
from evoplay.cli.checks import BoundedInt, PathArg

FIGURES = ("gibson", "valuenet-settings", "seed003")

#: Options that only one figure set takes.
ONLY = {
    "games": ("gibson", "valuenet-settings"),
    "seed": ("gibson",),
    "seeds": ("valuenet-settings", "seed003"),
    "workers": ("valuenet-settings",),
    "address": ("valuenet-settings",),
    "retrain": ("seed003",),
    "outcome_net": ("seed003",),
}


@cli.command()
@click.argument("name", metavar="NAME", type=click.Choice(FIGURES))
@click.option("--out", type=PathArg(file_okay=False), default=None,
              help="Folder to write (default results/NAME).")
@click.option("--games", type=BoundedInt(1, 10**9), default=None,
              help="gibson: sampled games per point (1000); valuenet-settings: training games per run (150000).")
@click.option("--seed", type=BoundedInt(0, 2**64 - 1), default=None, help="gibson: seed of the sampled games (0).")
@click.option("--seeds", type=BoundedInt(1, 100), default=None,
              help="valuenet-settings: training seeds per setting, 0..N-1 (2); seed003: nets to train, "
                   "seeds 0..N-1 (1; the others show training noise).")
@click.option("--workers", type=BoundedInt(1, 4096), default=None,
              help="valuenet-settings: CPUs of embedded Ray (default: all cores).")
@click.option("--address", default=None, help="valuenet-settings: run on this Ray cluster (or set RAY_ADDRESS).")
@click.option("--retrain", is_flag=True, default=None,
              help="seed003: train the faithful net even if OUT holds one (takes minutes).")
@click.option("--outcome-net", "outcome_net", type=PathArg(dir_okay=False), default=None,
              help="seed003: evoplay's outcome-net player file to compare (results/baselines/outcome-net.json).")
@click.option("--progress/--no-progress", default=True, show_default=True, help="Progress on stderr.")
def figures(name, out, progress, **opts):
    """Reproduce a seed's figures: gibson, valuenet-settings or seed003.

    gibson: softmax-minimax win probabilities and first-move scores against O's
    temperature, exact and sampled. valuenet-settings: the value net's training settings
    on Ray, curves and exact strength. seed003: a faithful model of a published
    outcome-net program, its exact results beside the published ones.
    """
    for opt, value in opts.items():
        if value is not None and name not in ONLY[opt]:
            flag = "--" + opt.replace("_", "-")
            raise click.UsageError(f"{flag} applies to {' and '.join(ONLY[opt])} only")
    out = Path(out or f"results/{name}")
    if name == "gibson":
        _gibson(out, opts["games"], opts["seed"], progress)
    elif name == "valuenet-settings":
        _valuenet(out, opts, progress)
    else:
        _seed003(out, bool(opts["retrain"]), opts["outcome_net"], opts["seeds"], progress)


def _gibson(out, games, seed, progress):
    from evoplay.seeds import gibson as G

    games = games or G.GAMES
    seed = G.SEED if seed is None else seed
    command = shlex.join(["evoplay", "figures", "gibson", "--out", str(out), "--games", str(games), "--seed", str(seed)])
    data = G.compute(games=games, seed=seed)
    G.write_results(out, data, command)
    chk = data["check_position"]
    click.echo(f"gibson: wrote {out}/win_probabilities.png, first_move_scores.png, gibson.json, table.md")
    click.echo(f"  check position value {chk['value']:.4f}; moves 2/5/8: "
               + " / ".join(f"{chk['move_percent'][s]:.2f}%" for s in "258"))


def _valuenet(out, opts, progress):
    from evoplay.seeds import valuenet_settings as S

    games = opts["games"] or S.GAMES
    if games < S.V.BLOCK:
        raise click.UsageError(f"--games must be at least {S.V.BLOCK} for valuenet-settings (one point of the curve)")
    seeds = tuple(range(opts["seeds"] or len(S.SEEDS)))
    study = S.main_command(out, games, seeds, workers=opts["workers"], address=opts["address"], progress=progress)
    click.echo(f"valuenet-settings: wrote {out}/curves.png, table.md, study.json and {len(study['runs'])} player files")
    for r in study["runs"]:
        e = r["exact"]
        click.echo(f"  {r['setting']:>15} seed {r['seed']}: exact good/100 {r['exact_good_per_100'][-1]:5.1f}; "
                   f"vs random as X {100 * e['random']['as_x']['win']:.1f}% win, "
                   f"vs logic as X {100 * e['logic']['as_x']['loss']:.1f}% loss")


def _seed003(out, retrain, outcome_net, seeds, progress):
    from evoplay.seeds import seed003 as S

    outcome_net = outcome_net or "results/baselines/outcome-net.json"
    argv = ["evoplay", "figures", "seed003", "--out", str(out)] + (["--seeds", str(seeds)] if seeds else [])
    for seed in range(seeds or 1):
        path = out / S.player_file(seed)
        if retrain or not path.is_file():
            S.train_player(out, seed=seed, progress=progress, command=shlex.join([*argv, "--retrain"]))
            click.echo(f"seed003: trained {path}")
    report = S.write_results(out, out / S.PLAYER_FILE, outcome_net)
    click.echo(f"seed003: wrote {out}/results.json and table.md")
    for v in report["variants"]:
        x, o = v["as_x"], v["as_o"]
        click.echo(f"  {v['name']}: as X {100 * x['win']:.1f}/{100 * x['draw']:.1f}/{100 * x['loss']:.1f}, "
                   f"as O {100 * o['win']:.1f}/{100 * o['draw']:.1f}/{100 * o['loss']:.1f} (win/draw/loss %)")
