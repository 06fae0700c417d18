"""The batched game engine: thousands of games at once, one numpy step per ply.

Games advance together through the shared board tables; a player is asked for the moves
of all games where it is to move in one call. A batched player (a population of
networks) also receives, per game, the row of the network that plays it.
"""

from __future__ import annotations

import numpy as np

from evoplay.tictactoe import board


def play(x_player, o_player, u: np.ndarray, x_rows=None, o_rows=None) -> np.ndarray:
    """Play ``len(u)`` games, X first; return each game's outcome (X_WIN, O_WIN, DRAW).

    ``u`` holds one uniform number in [0, 1) per game and ply, shape ``(games, 9)``: the
    randomness of game ``g`` is row ``g`` whatever else is in the batch. ``x_rows`` /
    ``o_rows`` name, per game, which member of a batched player plays it.
    """
    n = len(u)
    codes = np.zeros(n, dtype=np.int64)
    active = np.arange(n)
    for ply in range(9):
        if ply % 2 == 0:
            player, rows = x_player, x_rows
        else:
            player, rows = o_player, o_rows
        c = codes[active]
        if rows is None:
            moves = player.sample(c, u[active, ply])
        else:
            moves = player.sample(c, u[active, ply], rows[active])
        c = board.CHILD[c, moves]
        codes[active] = c
        active = active[board.OUTCOME[c] == board.ONGOING]
        if active.size == 0:
            break
    return board.OUTCOME[codes]


def tally(outcomes: np.ndarray) -> dict:
    """Counts of X wins, draws and O wins."""
    return {
        "x_win": int((outcomes == board.X_WIN).sum()),
        "draw": int((outcomes == board.DRAW).sum()),
        "o_win": int((outcomes == board.O_WIN).sum()),
    }


#: Games played per batch of a sampled match: memory stays flat however many are asked.
BATCH = 1 << 16


def match(x_player, o_player, games: int, rng: np.random.Generator, progress=None) -> dict:
    """Sampled match between two (unbatched) players; counts of the three results.

    Games are played ``BATCH`` at a time, each batch drawing the next ``(batch, 9)``
    uniforms from ``rng``. The generator fills arrays in order, so the games (and the
    counts) are the same as if all ``games x 9`` uniforms were drawn in one call, for any
    batch size. ``progress(n)`` is called after each batch with the games it played.
    """
    counts = {"x_win": 0, "draw": 0, "o_win": 0}
    left = games
    while left > 0:
        n = min(left, BATCH)
        for k, v in tally(play(x_player, o_player, rng.random((n, 9)))).items():
            counts[k] += v
        left -= n
        if progress is not None:
            progress(n)
    return counts
