"""Game material: positions from random games, hand-made tic-tac-toe networks."""

from __future__ import annotations

import numpy as np

from evoplay.arena.game import play_out

#: The most hidden units of a Fogel network (the 10 of Fogel 1993).
HMAX = 10


def random_positions(game, n, seed):
    """``n`` positions of ``game``, each drawn from a random game played out from the start
    (never its final position)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        states = play_out(game, game.initial(), rng)[:-1]
        out.append(states[rng.integers(len(states))])
    return out


def preference_net(order, h=1):
    """A hand-made Fogel network (``HMAX`` hidden units, ``h`` of them in use) that plays the
    first empty square of ``order``: output biases only."""
    from evoplay.recipes.fogel.nets import FogelNet

    w1, w2 = np.zeros((10, HMAX)), np.zeros((HMAX + 1, 9))
    for rank, sq in enumerate(order):
        w2[-1, sq] = 4.0 - 0.5 * rank  # outputs sigmoid(bias): strictly decreasing along ``order``
    return FogelNet(h, w1, w2)
