"""Behaviour descriptors of Fogel's networks, read exactly from their deterministic moves.

A descriptor maps a network to one of a few categories by the move it makes on a fixed
board: its opening as X (corner, edge or centre), its reply as O to a centre opening
(corner or edge), its reply as O to the corner opening at square 0 (centre, adjacent
edge, adjacent corner, far edge or opposite corner: the classes of the board's
symmetries that fix square 0). ``DESCRIPTORS`` is the registry configs name them from.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from evoplay.recipes.fogel.nets import NetBatch
from evoplay.tictactoe import board as ttt_board

#: Square classes: corner 0, edge 1, centre 2.
SQUARE_CLASS = np.array([0, 1, 0, 1, 2, 1, 0, 1, 0])
#: O's reply to X in square 0: centre 0, adjacent edge 1, adjacent corner 2, far edge 3, opposite corner 4.
CORNER_REPLY_CLASS = np.array([-1, 1, 2, 1, 0, 3, 2, 3, 4])


@dataclass(frozen=True)
class Descriptor:
    """One behaviour dimension: the board the network moves on and the category of each square."""

    name: str
    board: int
    classes: np.ndarray  # square -> category (-1: cannot happen on ``board``)
    labels: tuple[str, ...]

    def of_moves(self, moves: np.ndarray) -> np.ndarray:
        return self.classes[moves]


DESCRIPTORS = {
    d.name: d
    for d in (
        Descriptor("opening", ttt_board.encode([0] * 9), SQUARE_CLASS, ("corner", "edge", "centre")),
        Descriptor("opening_square", ttt_board.encode([0] * 9), np.arange(9), tuple(f"square {s}" for s in range(9))),
        Descriptor("reply_centre", ttt_board.parse("... .X. ..."), np.array([0, 1, 0, 1, -1, 1, 0, 1, 0]), ("corner", "edge")),
        Descriptor("reply_corner", ttt_board.parse("X.. ... ..."), CORNER_REPLY_CLASS,
                   ("centre", "adjacent edge", "adjacent corner", "far edge", "opposite corner")),
    )
}


def describe(w1: np.ndarray, w2: np.ndarray, names) -> np.ndarray:
    """Categories (n, len(names)) of stacked networks, one column per descriptor of ``names``."""
    n = len(w1)
    batch = NetBatch(w1, w2)
    rows = np.arange(n, dtype=np.int64)
    out = np.empty((n, len(names)), dtype=np.int64)
    for j, name in enumerate(names):
        d = DESCRIPTORS[name]
        out[:, j] = d.of_moves(batch.moves(rows, np.full(n, d.board, dtype=np.int64)))
    return out


def shape(names) -> tuple[int, ...]:
    """Categories per descriptor: the archive's grid."""
    return tuple(len(DESCRIPTORS[n].labels) for n in names)


def cell_labels(names, cell: tuple[int, ...]) -> str:
    """A cell in words: ``opening corner, reply_centre edge``."""
    return ", ".join(f"{n} {DESCRIPTORS[n].labels[c]}" for n, c in zip(names, cell))
