"""Members of one batched player against each other: both seats of every pairing in one batch.

A batched player (say, a population of networks) answers ``sample(codes, u, rows)`` for
games where member ``rows[g]`` is to move in game ``g``. ``play_pairs`` plays pairing
``k`` twice, ``a[k]`` as X against ``b[k]`` and ``b[k]`` as X against ``a[k]``, all games
in one call of the engine, so each ply asks the player once for every game.
"""

from __future__ import annotations

import numpy as np

from evoplay.tictactoe import board
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


class Exploring:
    """A batched player whose members may explore: a uniformly random legal move with probability ``eps``.

    With ``members = n``, rows ``0..n-1`` are the player's members as they are and rows
    ``n..2n-1`` their exploring copies (row ``n + i`` is member ``i`` exploring), so one
    batch can hold both; ``members = 0`` makes every row explore. An exploring move's
    uniform ``u`` decides: below ``eps`` it picks legal square number
    ``floor(u / eps * legal moves)``; otherwise the member moves with the uniform rescaled
    to ``(u - eps) / (1 - eps)``. A member as it is gets its uniform unchanged.
    """

    def __init__(self, player, eps: float, members: int = 0):
        if not 0.0 <= eps < 1.0:
            raise ValueError(f"eps must be in [0, 1), got {eps}")
        self.player, self.eps, self.members = player, float(eps), int(members)
        self.deterministic = eps == 0 and getattr(player, "deterministic", False)

    def sample(self, codes, u, rows=None):
        codes, u = np.asarray(codes), np.asarray(u, dtype=np.float64)
        explores = np.ones(len(codes), dtype=bool) if rows is None or self.members == 0 else rows >= self.members
        if rows is not None and self.members:
            rows = np.where(explores, rows - self.members, rows)
        moves = np.empty(len(codes), dtype=np.int64)
        wild = explores & (u < self.eps)
        if wild.any():
            c = codes[wild]
            pick = np.minimum((u[wild] / self.eps * board.N_LEGAL[c]).astype(np.int64), board.N_LEGAL[c] - 1)
            moves[wild] = np.argmax(np.cumsum(board.LEGAL[c], axis=1) > pick[:, None], axis=1)
        tame = ~wild
        if tame.any():
            v = np.where(explores, (u - self.eps) / (1.0 - self.eps), u)[tame]
            moves[tame] = self.player.sample(codes[tame], v) if rows is None else self.player.sample(codes[tame], v, rows[tame])
        return moves
