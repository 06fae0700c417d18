"""A generation's event, and the detailed generation log (Fogel's style) written from it:
every network, its games and its selection."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class Generation:
    """What one generation did: the event that the detail log and the benchmarks receive."""

    generation: int
    pool: list
    payoffs: np.ndarray
    wld: np.ndarray
    scores: np.ndarray
    rivals: np.ndarray
    selected: np.ndarray
    record: dict
    seconds: dict = field(default_factory=dict)


def _ids(pool, idx):
    return ",".join(str(pool[i].ident) for i in idx) or "-"


def format_generation(ev: Generation) -> str:
    """One block of text per generation: id, role, H, weights, payoff (W:L:T), score, star."""
    pool = ev.pool
    ids = {n.ident for n in pool[: len(pool) // 2]}
    chosen = set(ev.selected.tolist())
    lines = [f"generation {ev.generation}: max {ev.record['max']:g} mean {ev.record['mean']:g} min {ev.record['min']:g}"]
    for i, net in enumerate(pool):
        w = net.weights()
        role = "parent" if net.ident in ids else f"child of {net.parent}"
        rivals = ev.rivals[i]
        beat = rivals[ev.payoffs[rivals] < ev.payoffs[i]]
        lost = rivals[ev.payoffs[rivals] > ev.payoffs[i]]
        tied = rivals[ev.payoffs[rivals] == ev.payoffs[i]]
        win, loss, draw = ev.wld[i]
        lines.append(
            f"  {net.ident:>7} {role:<16} H={net.h:<2} w[min {w.min():+.3f} mean {np.mean(w):+.3f} max {w.max():+.3f}]"
            f" payoff {ev.payoffs[i]:+g} ({win}:{loss}:{draw}) score {ev.scores[i]:>2}"
            f" beat [{_ids(pool, beat)}] lost to [{_ids(pool, lost)}] tied [{_ids(pool, tied)}]"
            f"{' *' if i in chosen else ''}"
        )
    return "\n".join(lines) + "\n"
