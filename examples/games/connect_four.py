"""Connect Four as a user's own game: one file, written only against evoplay's game interface.

Name it wherever evoplay takes a game: ``--game examples/games/connect_four.py:ConnectFour``,
or ``[game] name = "examples/games/connect_four.py:ConnectFour"`` in a ``blondie24`` config.
Nothing inside evoplay learns its name; Ray workers on other nodes get this file's source
with the job.

A position is ``(cells, to_move)``: 42 cells row by row from the top (0 empty, 1 the
first player's disc, 2 the second's) and the side to move. A move is a column 0-6; a disc
falls to the lowest empty cell. Four in a row (across, down or diagonal) wins; a full board
is a draw.
"""

from __future__ import annotations

import numpy as np

from evoplay.games import BaseGame

ROWS, COLUMNS = 6, 7
#: Every line of four cells, as index tuples.
LINES = [
    tuple((r + k * dr) * COLUMNS + c + k * dc for k in range(4))
    for r in range(ROWS)
    for c in range(COLUMNS)
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))
    if 0 <= r + 3 * dr < ROWS and 0 <= c + 3 * dc < COLUMNS
]


class ConnectFour(BaseGame):
    """Connect Four on 6 x 7."""

    name = "connect-four"
    title = "Connect Four"
    side_names = ("Red", "Yellow")
    board_shape = (ROWS, COLUMNS)
    #: What the web board draws in a cell: nothing, the first side's disc, the second's.
    pieces = {0: "", 1: "●", 2: "○"}
    #: A game costs about 20 plies of a depth-limited search: a rough unit for chunking work.
    work_per_game = 2_000

    def initial(self):
        return (bytes(ROWS * COLUMNS), 0)

    def to_move(self, state) -> int:
        return state[1]

    def legal_moves(self, state) -> list[int]:
        if self._winner(state[0]) is not None:
            return []
        return [c for c in range(COLUMNS) if state[0][c] == 0]

    def apply(self, state, move):
        cells = bytearray(state[0])
        row = max(r for r in range(ROWS) if cells[r * COLUMNS + move] == 0)
        cells[row * COLUMNS + move] = state[1] + 1
        return (bytes(cells), 1 - state[1])

    def result(self, state):
        """None while the game is on; -1 when the side to move has lost (the last mover made
        four), 0 for a full board."""
        if self._winner(state[0]) is not None:
            return -1
        return 0 if all(state[0][:COLUMNS]) else None

    def key(self, state):
        return state

    def views(self, states) -> np.ndarray:
        """The board from the side to move's view: its discs +1, the other's -1, empty 0."""
        cells = np.frombuffer(b"".join(s[0] for s in states), dtype=np.uint8).reshape(len(states), -1).astype(np.int8)
        own = np.array([s[1] + 1 for s in states], dtype=np.int8)[:, None]
        return np.where(cells == 0, 0, np.where(cells == own, 1, -1)).astype(np.int8)

    def move_text(self, state, move) -> str:
        return str(move + 1)  # columns 1-7 for people

    def parse_move(self, state, text: str) -> int:
        text = str(text).strip()
        if not text.isdigit() or not 1 <= int(text) <= COLUMNS:
            raise ValueError(f"{text!r} is not a column 1-{COLUMNS}")
        if self.result(state) is not None:
            raise ValueError("the game is over")
        if state[0][int(text) - 1]:
            raise ValueError(f"column {text} is full")
        return int(text) - 1

    def render(self, state, numbers: bool = False) -> str:
        marks = ".XO"
        rows = ["".join(marks[state[0][r * COLUMNS + c]] for c in range(COLUMNS)) for r in range(ROWS)]
        return "\n".join(rows + (["1234567"] if numbers else []))

    def cells(self, state) -> list[str]:
        """One text per cell, row by row, for the web board."""
        return [self.pieces[v] for v in state[0]]

    @staticmethod
    def _winner(cells):
        for line in LINES:
            v = cells[line[0]]
            if v and v == cells[line[1]] == cells[line[2]] == cells[line[3]]:
                return v
        return None
