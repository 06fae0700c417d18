"""A user-defined player: win if it can, block if it must, else centre, corner, edge.

Name it wherever a player spec goes, e.g.::

    evoplay match examples/center_first.py:CenterFirst logic --exact
    evoplay analyze examples/center_first.py:CenterFirst:corner_weight=1

or as the fitness opponent of an evolution (``examples/vs_center_first.toml``). The class
gives its move distribution for a batch of boards; evoplay asks it once for every board
and plays it like a built-in player (sampling, fitness evaluation, exact analysis).
"""

import numpy as np

from evoplay.tictactoe import board

CORNERS, EDGES = [0, 2, 6, 8], [1, 3, 5, 7]


def completing(marks, mark):
    """(n, 9) booleans: empty squares that would complete a line of three ``mark``s."""
    out = np.zeros(marks.shape, dtype=bool)
    for line in board.LINES:
        cells = marks[:, line]
        ready = ((cells == mark).sum(1) == 2) & ((cells == board.EMPTY).sum(1) == 1)
        for s in line:
            out[:, s] |= ready & (marks[:, s] == board.EMPTY)
    return out


class CenterFirst:
    """Win, block, then the centre, then a corner (``corner_weight`` times likelier than an edge)."""

    def __init__(self, corner_weight: float = 1e6):
        if not corner_weight > 0:
            raise ValueError(f"corner_weight must be > 0, got {corner_weight}")
        self.corner_weight = float(corner_weight)

    def probs(self, codes):
        """Move distribution of the side to move on each board (rows of 9, zero on taken squares)."""
        marks = board.MARKS[codes]
        me = board.TO_MOVE[codes][:, None]
        empty = marks == board.EMPTY
        prefer = np.ones(9)
        prefer[CORNERS] = self.corner_weight
        prefer[4] = self.corner_weight**2
        w = np.where(empty, prefer, 0.0)
        for urgent in (completing(marks, 3 - me), completing(marks, me)):  # block, then (overriding) win
            has = urgent.any(1)
            w[has] = urgent[has].astype(float)
        return w / w.sum(1, keepdims=True)
