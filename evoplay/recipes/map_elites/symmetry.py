"""The board's eight symmetries acting on Fogel's networks: every network opening in the same corner.

A network's inputs and outputs are one per square, so permuting them by a symmetry ``g``
of the board (rows 0..8 of ``w1``, columns of ``w2``, and their step sizes alike) gives
a network that plays on ``g(board)`` what the original plays on ``board``, mapped by
``g`` (up to exact ties between outputs, which the lowest square breaks). Against an
opponent that treats the board's symmetries alike (``logic``, ``random``, ``minimax``:
their rules are line by line, their ties uniform) its exact fitness is the same. Moving
every network to the canonical square of its opening (corner 0, edge 1, centre 4) makes
the four corner openings, and the four edge ones, a single behaviour whose networks share
one opening and can compete and breed on the same subtree.
"""

from __future__ import annotations

import numpy as np

from evoplay.recipes.fogel.nets import NetBatch, stack
from evoplay.tictactoe import board


def _symmetries() -> np.ndarray:
    """(8, 9): ``G[k, s]`` is the square that symmetry ``k`` sends square ``s`` to (identity first)."""
    r, c = np.divmod(np.arange(9), 3)
    maps = []
    for turns in range(4):
        for mirror in (False, True):
            rr, cc = r, (2 - c if mirror else c)
            for _ in range(turns):  # a quarter turn clockwise: (r, c) -> (c, 2 - r)
                rr, cc = cc, 2 - rr
            maps.append(3 * rr + cc)
    return np.array(maps)


SYMMETRIES = _symmetries()
#: The canonical square of each opening class: corner 0, edge 1, centre 4.
CANONICAL = np.array([0, 1, 0, 1, 4, 1, 0, 1, 0])
#: For each opening square, the first symmetry that sends it to its canonical square.
TO_CANONICAL = np.array([int(np.flatnonzero(SYMMETRIES[:, s] == CANONICAL[s])[0]) for s in range(9)])


def permute(w1: np.ndarray, w2: np.ndarray, g: np.ndarray):
    """A network's (or step sizes') padded arrays under the square permutation ``g``: input row ``s`` to ``g[s]``, output column ``s`` to ``g[s]``."""
    n1, n2 = w1.copy(), np.empty_like(w2)
    n1[g] = w1[:9]
    n2[:, g] = w2
    return n1, n2


def canonical(nets: list) -> list:
    """Self-adaptive networks moved by the symmetry that takes each one's opening square to its canonical square (same objects when already there)."""
    from evoplay.recipes.selfadaptive import SANet

    _, w1, w2 = stack(nets)
    openings = NetBatch(w1, w2).moves(np.arange(len(nets), dtype=np.int64), np.zeros(len(nets), dtype=np.int64))
    out = []
    for net, sq in zip(nets, openings.tolist()):
        if sq == CANONICAL[sq]:
            out.append(net)
            continue
        g = SYMMETRIES[TO_CANONICAL[sq]]
        (a1, a2), (b1, b2) = permute(net.w1, net.w2, g), permute(net.s1, net.s2, g)
        out.append(SANet(net.h, a1, a2, b1, b2, net.ident, net.parent))
    return out


def board_image(code: int, g: np.ndarray) -> int:
    """The code of board ``code`` under the square permutation ``g``."""
    marks = board.decode(code)
    image = np.empty(9, dtype=np.int64)
    image[g] = marks
    return board.encode(image)
