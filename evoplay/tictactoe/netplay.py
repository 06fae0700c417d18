"""Members of one batched player against each other: both seats of every pairing in one batch.

A batched player (say, a population of networks) answers ``choose(codes, u, rows)`` for
games where member ``rows[g]`` is to move in game ``g``. ``play_pairs`` plays pairing
``k`` twice, ``a[k]`` as X against ``b[k]`` and ``b[k]`` as X against ``a[k]``, all games
in one call of the engine, so each ply asks the player once for every game.
"""

from __future__ import annotations

import numpy as np

from evoplay.tictactoe import engine


def play_pairs(player, a, b, u: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Outcomes of ``a[k]`` (X) vs ``b[k]`` (O) and of ``b[k]`` (X) vs ``a[k]`` (O) for every pairing ``k``.

    ``u`` holds the uniforms of the ``2 * len(a)`` games, (2 * len(a), 9): rows ``0..n-1``
    for ``a`` moving first, ``n..2n-1`` for ``b`` moving first; zeros when omitted (a
    deterministic player ignores them). Returns two arrays of outcome codes (board's
    X_WIN, O_WIN, DRAW), ``a`` first and ``b`` first.
    """
    a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    n = len(a)
    if len(b) != n:
        raise ValueError(f"pairings need as many second members as first ({len(b)} != {n})")
    u = np.zeros((2 * n, 9)) if u is None else np.asarray(u)
    if u.shape != (2 * n, 9):
        raise ValueError(f"uniforms must be ({2 * n}, 9), got {u.shape}")
    result = engine.play(player, player, u, x_rows=np.concatenate([a, b]), o_rows=np.concatenate([b, a]))
    return result[:n], result[n:]
