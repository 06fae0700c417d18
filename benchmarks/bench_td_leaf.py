"""TDLeaf(lambda)'s cost on checkers: `.venv/bin/python benchmarks/bench_td_leaf.py [--games N] [--json]`.

In this process (one core, no Ray): CPU seconds per self-play game of the 1999 network
(32-40-10-1, K 2) at depth 4 from 0-2 random plies (``learning.self_play``, what a
``td-leaf`` generation plays, seeds 0..N-1, the network drawn as a run's first one), and
the share of that CPU inside the compiled kernels, measured by timing each call of them
(``time.process_time`` before and after, each timing call about 2 microseconds): the
search (``checkers.search._line``, the principal line's searches of falling depth, the
network at their leaves), the network's value and gradient at each line's leaf
(``learning.value_and_gradient``, the numba kernel and its Python wrapper), and the update
(``learning.update``: the traces times the gradients, summed). Beside it, evolution's CPU
seconds per game and per ply at the same setting: a generation of ``configs/blondie24.toml``
(30 networks x 5 games) after one warm-up generation, divided by its 150 games (a ply of
evolution is one depth-4 search; of TDLeaf, the searches of depth 4, 3, 2 and 1 along the
line, and games of random networks run longer). CPU seconds
of this process, so a shared machine gives per-core figures; the load is printed with them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))


def self_play_figures(games: int) -> dict:
    from evoplay.checkers import search
    from evoplay.checkers.game import CHECKERS
    from evoplay.networks.evalnet import n_weights
    from evoplay.recipes.td_leaf import learning

    sizes = (32, 40, 10, 1)
    net = learning.Net(np.random.default_rng(0).uniform(-0.2, 0.2, n_weights(sizes)), sizes, 2.0)
    learning.self_play(CHECKERS, net, 4, np.random.default_rng(10**6), 2, 0.0, 20)  # compile, load caches
    spent = {"search": 0.0, "value and gradient": 0.0, "update": 0.0}

    def timed(fn, name):
        def call(*args, **kwargs):
            t = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[name] += time.process_time() - t
        return call

    saved = search._line, learning.value_and_gradient
    search._line = timed(search._line, "search")
    learning.value_and_gradient = timed(learning.value_and_gradient, "value and gradient")
    update = timed(learning.update, "update")
    plies = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    try:
        for s in range(games):
            played = learning.self_play(CHECKERS, net, 4, np.random.default_rng(s), 2, 0.0, 200)
            update(played, 0.7, len(net.genome))
            plies += played.plies
    finally:
        search._line, learning.value_and_gradient = saved
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return {"games": games, "plies": plies, "cpu_seconds": cpu, "wall_seconds": wall,
            "cpu_seconds_per_game": cpu / games, "games_per_cpu_second": games / cpu,
            "shares": {k: v / cpu for k, v in spent.items()},
            "in_search_and_network": (spent["search"] + spent["value and gradient"]) / cpu}


def evolution_figures(generations: int) -> dict:
    from bench_blondie24 import generation_seconds
    from evoplay.framework import config

    cfg = config.load(os.path.join(ROOT, "configs", "blondie24.toml"))
    per = generation_seconds(cfg, generations)
    return {"generations": generations, **per, "cpu_seconds_per_game": per["cpu_s_per_gen"] / 150}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--generations", type=int, default=2, help="evolution's generations timed")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    out = {"load": os.getloadavg()[0], "td_leaf": self_play_figures(args.games),
           "evolution": evolution_figures(args.generations)}
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    td, ev = out["td_leaf"], out["evolution"]
    print(f"load average {out['load']:.1f}")
    print(f"td-leaf self-play, checkers depth 4: {td['cpu_seconds_per_game']:.4f} CPU s a game "
          f"({td['games_per_cpu_second']:.1f} games a CPU second, {td['plies']} plies in {td['games']} games)")
    print("  shares of its CPU: " + ", ".join(f"{k} {100 * v:.1f}%" for k, v in td["shares"].items())
          + f"; search and network together {100 * td['in_search_and_network']:.1f}%")
    print(f"  {1000 * td['cpu_seconds'] / td['plies']:.3f} CPU ms a ply (a ply: the principal line's searches of depth 4 to 1)")
    print(f"evolution, a generation of configs/blondie24.toml: {ev['cpu_seconds_per_game']:.4f} CPU s a game, "
          f"{1000 * ev['cpu_seconds_per_game'] / ev['mean_plies']:.3f} CPU ms a ply ({ev['mean_plies']:.0f} plies a game)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
