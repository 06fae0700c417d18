"""Tic-tac-toe rules as pure functions over a compact board, and the tables built on them.

A board is a base-3 code: square ``s`` (0..8, row-major) holds digit ``board // 3**s % 3``
with 0 empty, 1 X, 2 O. Every table here is indexed by code (0..3**9-1), so the batched
engine and the exact analysis read the same facts and cannot disagree.
"""

from __future__ import annotations

import numpy as np

EMPTY, X, O = 0, 1, 2
N_SQUARES = 9
N_CODES = 3**N_SQUARES
POW3 = 3 ** np.arange(N_SQUARES, dtype=np.int64)
LINES = np.array(
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]],
    dtype=np.int64,
)

# Outcome codes used by every table: the game is still on, or it ended this way.
ONGOING, X_WIN, O_WIN, DRAW = 0, 1, 2, 3


def encode(squares) -> int:
    """Code of a board given as nine marks (0 empty, 1 X, 2 O)."""
    return int(np.dot(np.asarray(squares, dtype=np.int64), POW3))


def decode(code: int) -> np.ndarray:
    """The nine marks of a board code."""
    return (int(code) // POW3) % 3


def parse(text: str) -> int:
    """Code of a board drawn as text, e.g. ``"XX. / OO. / XO."`` (``.`` or ``-`` empty)."""
    marks = [c for c in text.upper() if c in "XO.-_"]
    if len(marks) != N_SQUARES:
        raise ValueError(f"a board needs 9 squares, got {len(marks)} in {text!r}")
    return encode([{"X": X, "O": O}.get(c, EMPTY) for c in marks])


def render(code: int, numbers: bool = False) -> str:
    """The board as three lines; empty squares show their number when ``numbers``."""
    marks = decode(code)
    cells = [
        "X" if m == X else "O" if m == O else (str(s) if numbers else ".")
        for s, m in enumerate(marks)
    ]
    return "\n".join(" ".join(cells[r * 3 : r * 3 + 3]) for r in range(3))


def _build_tables():
    codes = np.arange(N_CODES, dtype=np.int64)
    marks = (codes[:, None] // POW3[None, :]) % 3  # (N_CODES, 9)
    n_x = (marks == X).sum(1)
    n_o = (marks == O).sum(1)
    line_marks = marks[:, LINES]  # (N_CODES, 8, 3)
    x_line = (line_marks == X).all(2).any(1)
    o_line = (line_marks == O).all(2).any(1)
    full = (marks != EMPTY).all(1)
    outcome = np.full(N_CODES, ONGOING, dtype=np.int8)
    outcome[full] = DRAW
    outcome[o_line] = O_WIN
    outcome[x_line] = X_WIN
    # X moves first, so X is to move when the counts are equal.
    to_move = np.where(n_x == n_o, X, O).astype(np.int8)
    legal = (marks == EMPTY) & (outcome == ONGOING)[:, None]
    child = codes[:, None] + to_move[:, None].astype(np.int64) * POW3[None, :]
    child = np.where(legal, child, -1)
    return marks.astype(np.int8), (n_x + n_o).astype(np.int8), outcome, to_move, legal, child


MARKS, N_MARKS, OUTCOME, TO_MOVE, LEGAL, CHILD = _build_tables()
#: Number of legal moves, and the lowest legal square (-1 if none), of every board.
N_LEGAL = LEGAL.sum(1).astype(np.int8)
FIRST_LEGAL = np.where(N_LEGAL > 0, np.argmax(LEGAL, axis=1), -1)
for _t in (MARKS, N_MARKS, OUTCOME, TO_MOVE, LEGAL, CHILD, N_LEGAL, FIRST_LEGAL):
    _t.setflags(write=False)


def _reachable():
    seen = np.zeros(N_CODES, dtype=bool)
    frontier = np.array([0], dtype=np.int64)
    seen[0] = True
    layers = [frontier]
    while frontier.size:
        kids = CHILD[frontier][LEGAL[frontier]]
        kids = np.unique(kids)
        kids = kids[~seen[kids]]
        seen[kids] = True
        frontier = kids
        if kids.size:
            layers.append(kids)
    return seen, layers


REACHABLE, LAYERS = _reachable()
REACHABLE.setflags(write=False)
#: Every reachable board, empty board included, in order of the number of marks.
REACHABLE_CODES = np.concatenate(LAYERS)
#: Reachable boards where the game is still on (someone is to move).
DECISION_CODES = REACHABLE_CODES[OUTCOME[REACHABLE_CODES] == ONGOING]


def winner(code: int) -> int:
    """Outcome of a board: ONGOING, X_WIN, O_WIN or DRAW."""
    return int(OUTCOME[code])


def legal_moves(code: int) -> list[int]:
    """Empty squares of an unfinished board."""
    return [int(s) for s in np.flatnonzero(LEGAL[code])]


def play(code: int, square: int) -> int:
    """The board after the side to move marks ``square``."""
    nxt = int(CHILD[code, square])
    if nxt < 0:
        raise ValueError(f"square {square} is not a legal move on this board")
    return nxt


def perspective(codes, mark) -> np.ndarray:
    """Board inputs seen by ``mark`` (1 or 2): own marks +1, opponent's -1, empty 0.

    ``codes`` and ``mark`` broadcast; the result has a trailing axis of nine squares.
    """
    marks = MARKS[np.asarray(codes)]
    mark = np.asarray(mark)[..., None]
    return np.where(marks == EMPTY, 0, np.where(marks == mark, 1, -1)).astype(np.float64)
