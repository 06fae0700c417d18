"""Baselines: an exact tournament of the built-in and the trained players.

Run::

    evoplay baselines [--out results/baselines] [--seed 0] [--value-games 500000] [--retrain]

(the command and its checks are in ``evoplay.cli.report``; this module is what it runs).

It trains value-net, outcome-net and ga-value-net with their default settings (or loads
``OUT/<kind>.json`` when present, unless ``--retrain``), saving each player file with its
training plot, then computes every ordered pairing of random, first-open, logic, minimax,
softmax and the three trained players exactly (no sampling), and writes
``OUT/tournament.md`` (tables from both seats), ``OUT/tournament.json`` and
``OUT/tournament.png`` (heat maps).
"""

from __future__ import annotations

import importlib
import json
import shlex
import sys
import time
from pathlib import Path

import click
import numpy as np

from evoplay.tictactoe import exact
from evoplay.files.atomic import write_text
from evoplay.tictactoe.players import make_player
from evoplay.arena.match import round_robin
from evoplay.games import resolve_game
from evoplay.tictactoe.trained.common import save_figure, write

DEFAULT_OUT = "results/baselines"
BUILTIN = ["random", "first-open", "logic", "minimax", "softmax"]
#: The trained players: kind -> the module that trains it (``train``, ``plot``, ``DEFAULT_GAMES``
#: or ``DEFAULTS``, ``player_from_file``).
TRAINERS = {
    "value-net": "evoplay.tictactoe.trained.value_net",
    "outcome-net": "evoplay.tictactoe.trained.outcome_net",
    "ga-value-net": "evoplay.recipes.ga_value_net",
}
TRAINED = list(TRAINERS)


def trainer(kind: str):
    """The module that trains ``kind`` (one of ``TRAINERS``)."""
    return importlib.import_module(TRAINERS[kind])


def train_or_load(kind: str, out: Path, seed: int, settings: dict, retrain: bool, command: str) -> Path:
    """The player file of ``kind`` in ``out``: trained now unless it is there already."""
    path = out / f"{kind}.json"
    if path.is_file() and not retrain:
        make_player(str(path))  # fails loudly on a bad file
        return path
    t0 = time.perf_counter()
    click.echo(f"training {kind} {settings} ...", err=True)
    trained = trainer(kind).train(seed=seed, progress=True, **settings)
    seconds = time.perf_counter() - t0
    full = trained.metrics.get("settings", settings)
    prov = {"command": command, "seed": seed, "games": full.get("games"), "settings": full,
            "train_seconds": round(seconds, 1)}
    write(trained, path, prov, trainer(kind).plot)
    return path


def outcome_cells(rows, names):
    """(X name, O name) -> exact result of that pairing."""
    by_spec = {(r["x"], r["o"]): r for r in rows}
    return {(a, b): by_spec[(sa, sb)] for a, sa in names.items() for b, sb in names.items()}


def summarize(names: dict, cells: dict) -> dict:
    """Per player: mean score (win - loss) over all opponents and both seats, and more."""
    logic = make_player("logic")
    out = {}
    for name, spec in names.items():
        p = make_player(spec)
        as_x = [cells[(name, o)]["x_win"] - cells[(name, o)]["o_win"] for o in names]
        as_o = [cells[(o, name)]["o_win"] - cells[(o, name)]["x_win"] for o in names]
        out[name] = {
            "mean_score_as_x": float(np.mean(as_x)),
            "mean_score_as_o": float(np.mean(as_o)),
            "fogel_payoff_vs_logic": exact.expected_payoff(p, logic),
            "unbeatable_as_x": exact.unbeatable(p, as_x=True),
            "unbeatable_as_o": exact.unbeatable(p, as_x=False),
            "minimax_agreement": exact.minimax_agreement(p),
        }
    return out


def wdl(cell: dict, win: str, loss: str) -> str:
    """Win / draw / loss percentages of one pairing from one side."""
    return " / ".join(f"{100 * cell[k]:.1f}" for k in (win, "draw", loss))


def markdown(names: dict, cells: dict, summary: dict, trained_info: dict, command: str) -> str:
    cols = list(names)
    head = "| | " + " | ".join(cols) + " |\n|---|" + "---|" * len(cols) + "\n"
    lines = [
        "# Baselines: exact tournament",
        "",
        f"Produced by `{command}`. Every result is an exact probability (propagated over the",
        "game tree, no sampling), in percent, from the row player's side: win / draw / loss.",
        "",
        "## Row player moves first (X)",
        "",
        head.rstrip("\n"),
    ]
    for a in cols:
        lines.append(f"| **{a}** | " + " | ".join(wdl(cells[(a, b)], "x_win", "o_win") for b in cols) + " |")
    lines += ["", "## Row player moves second (O)", "", head.rstrip("\n")]
    for a in cols:
        lines.append(f"| **{a}** | " + " | ".join(wdl(cells[(b, a)], "o_win", "x_win") for b in cols) + " |")
    lines += [
        "",
        "## Summary",
        "",
        "Mean score = mean of (win - loss) over all eight opponents; Fogel payoff = expected",
        "payoff per game moving first against `logic` (+1 win, 0 draw, -10 loss);",
        "agreement = share of reachable positions where the move keeps the minimax value.",
        "",
        "| player | spec | mean score as X | mean score as O | Fogel payoff vs logic "
        "| unbeatable as X | unbeatable as O | minimax agreement |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, s in summary.items():
        lines.append(
            f"| {name} | `{names[name]}` | {s['mean_score_as_x']:+.3f} | {s['mean_score_as_o']:+.3f} | "
            f"{s['fogel_payoff_vs_logic']:+.3f} | {'yes' if s['unbeatable_as_x'] else 'no'} | "
            f"{'yes' if s['unbeatable_as_o'] else 'no'} | {s['minimax_agreement']:.3f} |"
        )
    lines += ["", "## How the trained players were made", ""]
    for kind, info in trained_info.items():
        took = f", {info['train_seconds']} s" if info.get("train_seconds") else ""
        lines.append(
            f"- **{kind}** (`{info['file']}`, curve `{info['plot']}`): `{info['command']}`, seed {info['seed']}, "
            f"settings {json.dumps(info['settings'])}{took}. Final metrics: {json.dumps(info['metrics'])}"
        )
    return "\n".join(lines) + "\n"


def heatmap(names: dict, cells: dict, path: Path) -> None:
    """Row player's expected score (win - loss) as X and as O, one panel each."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cols = list(names)
    n = len(cols)
    as_x = np.array([[cells[(a, b)]["x_win"] - cells[(a, b)]["o_win"] for b in cols] for a in cols])
    as_o = np.array([[cells[(b, a)]["o_win"] - cells[(b, a)]["x_win"] for b in cols] for a in cols])
    fig, axes = plt.subplots(1, 2, figsize=(16, 7), gridspec_kw={"wspace": 0.4})
    panels = ((axes[0], as_x, "row player moves first (X)"), (axes[1], as_o, "row player moves second (O)"))
    for ax, data, title in panels:
        im = ax.imshow(data, cmap="RdBu", vmin=-1, vmax=1)
        ax.set_xticks(range(n), cols, rotation=45, ha="right")
        ax.set_yticks(range(n), cols)
        ax.set_xlabel("opponent")
        ax.set_title(f"exact win - loss, {title}")
        for i in range(n):
            for j in range(n):
                ax.text(j, i, f"{data[i, j]:+.2f}", ha="center", va="center", fontsize=7,
                        color="white" if abs(data[i, j]) > 0.6 else "black")
    fig.colorbar(im, ax=axes, shrink=0.8, label="row player's win - loss")
    save_figure(fig, path)


def outputs(out) -> list[Path]:
    """Every file ``build`` writes in ``out`` (the command checks them all before training)."""
    out = Path(out)
    return [out / name for name in ("tournament.md", "tournament.json", "tournament.png", *(f"{k}.json" for k in TRAINED))]


def build(out, seed: int, value_games, retrain: bool, command: str) -> list[Path]:
    """Train or load the trained players, play the exact tournament, write its files to ``out``."""
    out = Path(out)
    settings = {
        "value-net": {"games": value_games or trainer("value-net").DEFAULT_GAMES},
        "outcome-net": {"games": trainer("outcome-net").DEFAULT_GAMES},
        "ga-value-net": {},
    }
    names = {name: make_player(name).spec for name in BUILTIN}
    trained_info = {}
    for kind in TRAINED:
        path = train_or_load(kind, out, seed, settings[kind], retrain, command)
        names[kind] = str(path)
        prov = make_player(str(path)).provenance
        trained_info[kind] = {
            "file": path.name, "plot": prov.get("plot"), "command": prov.get("command"), "seed": prov.get("seed"),
            "settings": prov.get("settings"), "train_seconds": prov.get("train_seconds"),
            "metrics": {k: v for k, v in prov.get("metrics", {}).items() if k not in ("exact", "settings")},
        }
    specs = list(names.values())
    ttt = resolve_game("tictactoe")
    table = round_robin(ttt, [make_player(s) for s in specs], specs, [ttt.initial()], None, 0)
    cells = outcome_cells(table["rows"], names)
    summary = summarize(names, cells)
    write_text(out / "tournament.md", markdown(names, cells, summary, trained_info, command))
    doc = {"command": command, "exact": True, "players": names, "pairings": [
        {"x": a, "o": b, **{k: cells[(a, b)][k] for k in ("x_win", "draw", "o_win", "x_payoff")}}
        for a in names for b in names
    ], "summary": summary, "trained": trained_info}
    write_text(out / "tournament.json", json.dumps(doc, indent=1) + "\n")
    heatmap(names, cells, out / "tournament.png")
    return [out / "tournament.md", out / "tournament.json", out / "tournament.png"]


def command_line(out, seed: int, value_games, retrain: bool) -> str:
    """The ``evoplay baselines`` command that reproduces these settings (defaults left out)."""
    args = ["evoplay", "baselines"]
    if Path(out) != Path(DEFAULT_OUT):
        args += ["--out", str(out)]
    if seed:
        args += ["--seed", str(seed)]
    if value_games:
        args += ["--value-games", str(value_games)]
    if retrain:
        args.append("--retrain")
    return shlex.join(args)


if __name__ == "__main__":  # the command line lives in evoplay.cli; this module is its library
    print("evoplay: error: run `evoplay baselines` (or `python -m evoplay baselines`)", file=sys.stderr)
    sys.exit(2)
