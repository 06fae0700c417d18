"""Seconds a checkers move: `.venv/bin/python benchmarks/bench_openspiel_mcts.py [--sims N] [--positions K] [--json]`.

OpenSpiel's C++ MCTSBot through pyspiel (``openspiel-mcts:sims=N``) beside evoplay's own
Python UCT (``mcts:sims=N``), both with one random rollout a simulation and c = 2, on the
same positions: every fifth of seeded random games (``evoplay.checkers.bench.random_play_states``)
with more than one legal move. Per player the mean and the largest seconds a move, wall
clock and this process's CPU time; for openspiel-mcts also the share spent setting the
position up in OpenSpiel (``evoplay.checkers.spielboard.setup``, its plans not cached).
Needs open_spiel.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from evoplay.arena import specs
from evoplay.checkers import rules, spielboard
from evoplay.checkers.bench import random_play_states
from evoplay.checkers.game import CHECKERS


def positions(count: int) -> list:
    states = [s for s in random_play_states(20 * count)[::5] if rules.result(s) is None and len(rules.legal_moves(s)) > 1]
    return states[:count]


def seconds_a_move(spec: str, states: list) -> dict:
    player = specs.make_player(CHECKERS, spec)
    player.choose(states[0], np.random.default_rng(0))  # compiled code loaded, pyspiel warm
    spielboard.setup.cache_clear()
    walls, cpus = [], []
    for i, state in enumerate(states):
        rng = np.random.default_rng(i)
        wall, cpu = time.perf_counter(), time.process_time()
        player.choose(state, rng)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return {"spec": player.spec, "moves": len(states), "wall_mean": float(np.mean(walls)), "wall_max": max(walls),
            "cpu_mean": float(np.mean(cpus)), "cpu_max": max(cpus)}


def setup_seconds(states: list) -> dict:
    spielboard.setup.cache_clear()
    cpus = []
    for state in states:
        cpu = time.process_time()
        spielboard.setup(spielboard.cells(state), state.turn)
        cpus.append(time.process_time() - cpu)
    return {"cpu_mean": float(np.mean(cpus)), "cpu_max": max(cpus)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sims", type=int, default=1000)
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    states = positions(args.positions)
    result = {"positions": len(states),
              "openspiel": seconds_a_move(f"openspiel-mcts:sims={args.sims}", states),
              "evoplay": seconds_a_move(f"mcts:sims={args.sims}", states),
              "setup": setup_seconds(states)}
    if args.json:
        print(json.dumps(result, indent=1))
        return
    for key in ("openspiel", "evoplay"):
        r = result[key]
        print(f"{r['spec']}: {r['cpu_mean']:.3f} s CPU a move (largest {r['cpu_max']:.3f}), "
              f"{r['wall_mean']:.3f} s wall, over {r['moves']} positions")
    print(f"of which setting the position up in OpenSpiel: {result['setup']['cpu_mean'] * 1000:.1f} ms CPU a move "
          f"(largest {result['setup']['cpu_max'] * 1000:.1f} ms)")
    ratio = result["evoplay"]["cpu_mean"] / result["openspiel"]["cpu_mean"]
    print(f"evoplay's Python mcts takes {ratio:.1f} times as long a move")


if __name__ == "__main__":
    main()
