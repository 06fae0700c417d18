"""Throughput of any game through the game interface (``evoplay bench --game REF``)."""

from __future__ import annotations

import time

import numpy as np

from evoplay.arena.game import game_ref


def playout_moves(game, seconds: float = 4.0, seed: int = 0) -> dict:
    """Uniformly random playouts through the game interface for about ``seconds``: moves per second."""
    rng = np.random.default_rng(seed)
    moves = games = 0
    state = game.initial()
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    while time.perf_counter() - t0 < seconds:
        for _ in range(64):
            if game.result(state) is not None:
                state, games = game.initial(), games + 1
            legal = game.legal_moves(state)
            state = game.apply(state, legal[rng.integers(len(legal))])
            moves += 1
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    return {"game": game_ref(game), "seconds": wall, "cpu_seconds": cpu, "adapter_moves_per_s": moves / wall,
            "games": games}
