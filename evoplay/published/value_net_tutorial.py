"""A value-net tutorial's training settings, compared by their learning curves.

``evoplay figures value-net-tutorial`` runs it (the name of an earlier release:
``valuenet-settings``).

The tutorial's comparison varies one setting of the value net at a time (learning rate
0.0125 to 0.1, where 0.1 fails; no self-play games; self-play games only; an empty square
as 0 instead of 0.01; a tenth input for the side to move) and compares the curves of good
games per 100. Here each setting is trained, per seed, as one Ray task (a pure function
of the setting, the seed and the number of games), and every run reports:

- the sampled curve: good games per 100-game block of the games it played (a draw in
  net-vs-net, a win against random), as the value net always records it;
- the exact curve: every ``EXACT_EVERY`` games, the expected good games per 100 of the
  standard three-game cycle, computed exactly (``value_net.exact_good_per_100``). The
  sampled curve of "self-play only" counts only self-play draws and that of "no self-play"
  only wins against random; the exact curve measures the same thing for every setting;
- the final net's exact win / draw / loss against ``random`` and ``logic`` from both seats.

The trained nets are saved as player files beside the study, so every exact figure can be
re-derived from them.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import numpy as np

from evoplay.files.atomic import write_text
from evoplay.published.common import pyplot, save_figure, wdl, write_json
from evoplay.tictactoe.trained import value_net

GAMES = 150_000
SEEDS = (0, 1)
EXACT_EVERY = 1000
SMOOTH = 50  # blocks per point of the smoothed sampled curve
EXACT_MEAN = 10  # exact checkpoints per running mean in the figure

#: name -> (label, value_net.train keyword arguments); each differs from the default in one thing.
SETTINGS = {
    "default": ("lr 0.025 (default)", {}),
    "lr-0.0125": ("lr 0.0125", {"lr": 0.0125}),
    "lr-0.05": ("lr 0.05", {"lr": 0.05}),
    "lr-0.1": ("lr 0.1", {"lr": 0.1}),
    "no-self-play": ("no self-play games", {"cycle": ("net-vs-random", "random-vs-net")}),
    "self-play-only": ("self-play games only", {"cycle": ("net-vs-net",)}),
    "empty-0": ("empty square 0", {"empty": 0.0}),
    "side-input": ("tenth input: side to move", {"side_input": True}),
}

OPPONENTS = ("random", "logic")


def run_one(name: str, seed: int, games: int, exact_every: int = EXACT_EVERY) -> dict:
    """Train one setting with one seed; everything the study reports about it (pure)."""
    import time

    _, kwargs = SETTINGS[name]
    t0 = time.perf_counter()
    trained = value_net.train(games=games, seed=seed, exact_every=exact_every, **kwargs)
    seconds = time.perf_counter() - t0
    return {
        "setting": name,
        "seed": seed,
        "settings": trained.metrics["settings"],
        "architecture": trained.architecture,
        "weights": {k: np.asarray(v).tolist() for k, v in trained.weights.items()},
        "good_per_100": trained.history["good_per_100"],
        "exact_good_per_100": trained.history["exact_good_per_100"],
        "good_per_100_last_10_blocks": trained.metrics["good_per_100_last_10_blocks"],
        "exact": {k: trained.metrics["exact"][k] for k in OPPONENTS},
        "train_seconds": round(seconds, 1),
    }


def run_study(games: int = GAMES, seeds=SEEDS, names=tuple(SETTINGS), map_tasks=None, exact_every: int = EXACT_EVERY,
              on_result=None) -> list[dict]:
    """Every (setting, seed) run, in the order of ``names`` then ``seeds``.

    ``map_tasks(fn, args_list, on_result)`` runs the tasks (e.g. ``distributed.run_tasks``);
    without it they run here, one after another.
    """
    args = [(name, seed, games, exact_every) for name in names for seed in seeds]
    if map_tasks is None:
        out = []
        for i, a in enumerate(args):
            out.append(run_one(*a))
            if on_result:
                on_result(i, out[-1])
        return out
    return map_tasks(run_one, args, on_result)


def write_results(runs: list[dict], out, command: str, environment: dict | None = None) -> dict:
    """Player files, study.json, table.md and the curve figures in ``out``."""
    from evoplay.files.playerfile import save_player

    out = Path(out)
    for r in runs:
        prov = {"command": command, "setting": r["setting"], "seed": r["seed"], "settings": r["settings"],
                "exact": r["exact"]}
        r["player_file"] = f"players/{r['setting']}-seed{r['seed']}.json"
        save_player(out / r["player_file"], "value-net", r["architecture"], r["weights"], prov)
    study = {
        "command": command,
        "games": runs[0]["settings"]["games"] if runs else None,
        "seeds": sorted({r["seed"] for r in runs}),
        "exact_every": runs[0]["settings"]["exact_every"] if runs else None,
        "settings": {n: {"label": SETTINGS[n][0], "kwargs": {k: list(v) if isinstance(v, tuple) else v
                                                              for k, v in SETTINGS[n][1].items()}}
                     for n in dict.fromkeys(r["setting"] for r in runs)},
        "environment": environment or {},
        "runs": [{k: v for k, v in r.items() if k not in ("weights", "architecture")} for r in runs],
    }
    write_json(out / "study.json", study)
    write_text(out / "table.md", table(runs))
    plot_curves(runs, out / "curves")
    return study


def by_setting(runs):
    groups: dict[str, list[dict]] = {}
    for r in runs:
        groups.setdefault(r["setting"], []).append(r)
    return groups


def table(runs: list[dict]) -> str:
    """One row per run: final curves and the exact strength against random and logic."""
    lines = [
        "| setting | seed | good/100, last 1,000 games (sampled) | good/100, exact, end | "
        "vs random as X | vs random as O | vs logic as X | vs logic as O |",
        "|---|---:|---:|---:|---|---|---|---|",
    ]
    for name, group in by_setting(runs).items():
        for r in group:
            e = r["exact"]
            lines.append(
                f"| {SETTINGS[name][0]} | {r['seed']} | {r['good_per_100_last_10_blocks']:.1f} | "
                f"{r['exact_good_per_100'][-1]:.1f} | {wdl(e['random']['as_x'])} | {wdl(e['random']['as_o'])} | "
                f"{wdl(e['logic']['as_x'])} | {wdl(e['logic']['as_o'])} |"
            )
    return "\n".join(lines) + "\n\nCells: exact win / draw / loss % of the trained net.\n"


def plot_curves(runs: list[dict], path) -> None:
    """Overlaid curves, one line per setting (mean over its seeds).

    Left: the exact curve (comparable across settings), as a running mean of ``EXACT_MEAN``
    checkpoints; a greedy net's exact strength jumps whenever one of its moves flips.
    Right: the sampled curve of the games each setting played, in means of ``SMOOTH`` blocks.
    """
    plt = pyplot()
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 5.2), sharey=True)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for k, (name, group) in enumerate(by_setting(runs).items()):
        color = colors[k % len(colors)]
        style = "--" if k >= len(colors) else "-"
        step = group[0]["settings"].get("exact_every", EXACT_EVERY)
        exact = np.mean([r["exact_good_per_100"] for r in group], axis=0)
        w = min(EXACT_MEAN, len(exact))
        if w:
            ax1.plot((np.arange(w - 1, len(exact)) + 1) * step, np.convolve(exact, np.ones(w) / w, "valid"),
                     style, color=color, lw=1.4, label=SETTINGS[name][0])
        blocks = np.mean([r["good_per_100"] for r in group], axis=0)
        per = max(1, min(SMOOTH, len(blocks)))  # short runs: fewer blocks per point
        n = len(blocks) // per * per
        ax2.plot((np.arange(n // per) + 1) * per * 100, blocks[:n].reshape(-1, per).mean(1), style,
                 color=color, lw=1.4, label=SETTINGS[name][0])
    seeds = len({r["seed"] for r in runs})
    ax1.set_title(f"exact good games per 100, standard cycle\n(running mean of {EXACT_MEAN} checkpoints)", fontsize=10)
    ax2.set_title(f"sampled good games per 100 of the games played\n(means of {per} blocks of 100)", fontsize=10)
    for ax in (ax1, ax2):
        ax.set_xlabel("training games")
        ax.grid(alpha=0.3)
        ax.set_ylim(0, 100)
    ax1.set_ylabel(f"good games per 100 (mean of {seeds} seed{'s' if seeds > 1 else ''})")
    ax2.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=9)
    save_figure(fig, path)


def main_command(out, games: int, seeds, workers=None, address=None, progress=True) -> dict:
    """Run the study on Ray (embedded, or the cluster at ``address``) and write its files."""
    import sys
    import time

    from evoplay.framework import distributed

    argv = ["evoplay", "figures", "value-net-tutorial", "--out", str(out), "--games", str(games),
            "--seeds", str(len(seeds))]
    if workers:
        argv += ["--workers", str(workers)]
    command = shlex.join(argv)
    t0 = time.perf_counter()
    total = len(SETTINGS) * len(seeds)

    def landed(i, r):
        if progress:
            print(f"  [{i + 1}/{total}] {r['setting']} seed {r['seed']}: exact good/100 "
                  f"{r['exact_good_per_100'][-1]:.1f} ({r['train_seconds']:.0f} s)", file=sys.stderr, flush=True)

    with distributed.ray_session(address=address, workers=workers) as cluster:
        runs = run_study(games, seeds, map_tasks=distributed.run_tasks, exact_every=min(EXACT_EVERY, games),
                         on_result=landed)
    env = {"ray_version": cluster["ray_version"], "cpus": cluster["cpus"],
           "wall_seconds": round(time.perf_counter() - t0, 1)}
    return write_results(runs, out, command, env)
