"""Hexapawn (Martin Gardner, 1962), written against evoplay's documented game interface only.

Three pawns a side on a 3x3 board: the first side's on the bottom row moving up, the
second side's on the top row moving down. A pawn steps straight forward onto an empty
square or captures diagonally forward. A side wins by reaching the far row, by capturing
every enemy pawn, or when the side to move has no move. With perfect play the second side
wins.

    evoplay match alpha-beta:depth=full random --game examples/games/hexapawn.py:Hexapawn
"""

import numpy as np

from evoplay.games import BaseGame

FILES = "abc"


class Hexapawn(BaseGame):
    title = "Hexapawn"
    side_names = ("White", "Black")
    board_shape = (3, 3)
    #: The board page's labels: rows 3 (top) to 1, columns a-c, as ``move_text`` writes squares.
    coordinates = (("3", "2", "1"), tuple(FILES))
    default_opponent = "alpha-beta:depth=full"

    def initial(self):
        # cells row by row from the top: -1 the second side's pawns, +1 the first side's
        return ((-1, -1, -1, 0, 0, 0, 1, 1, 1), 0)

    def to_move(self, state):
        return state[1]

    def _pawns(self, state):
        board, side = state
        mine = 1 if side == 0 else -1
        return board, mine, -3 if side == 0 else 3  # a step forward in cells

    def legal_moves(self, state):
        if self._over(state) is not None:
            return []
        return self._moves(state)

    def _moves(self, state):
        board, mine, step = self._pawns(state)
        moves = []
        for at, piece in enumerate(board):
            if piece != mine:
                continue
            ahead = at + step
            if 0 <= ahead < 9:
                if board[ahead] == 0:
                    moves.append((at, ahead))
                for dc in (-1, 1):
                    col = ahead % 3 + dc
                    if 0 <= col < 3 and board[ahead - ahead % 3 + col] == -mine:
                        moves.append((at, ahead - ahead % 3 + col))
        return moves

    def apply(self, state, move):
        board, side = state
        cells = list(board)
        cells[move[1]], cells[move[0]] = cells[move[0]], 0
        return (tuple(cells), 1 - side)

    def _over(self, state):
        """-1 when the side to move has lost, None while the game is on."""
        board, side = state
        if 1 in board[0:3] or -1 in board[6:9]:  # someone reached the far row: the side that just moved
            return -1
        if 1 not in board or -1 not in board:
            return -1
        return None

    def result(self, state):
        over = self._over(state)
        if over is not None:
            return over
        return -1 if not self._moves(state) else None

    def key(self, state):
        return state

    def views(self, states):
        out = []
        for board, side in states:
            cells = np.array(board, dtype=np.int8)
            out.append(cells if side == 0 else -cells[::-1])
        return np.array(out, dtype=np.int8).reshape(len(states), 9)

    def move_text(self, state, move):
        return f"{self.square(move[0])}-{self.square(move[1])}"

    def square(self, cell):
        return f"{FILES[cell % 3]}{3 - cell // 3}"

    def render(self, state, numbers=False):
        marks = {1: "W", -1: "B", 0: "."}
        board = state[0]
        return "\n".join("".join(marks[board[r * 3 + c]] for c in range(3)) for r in range(3))

    def cells(self, state):
        return [{1: "W", -1: "B", 0: ""}[v] for v in state[0]]

    def owners(self, state):
        """Whose pawn is on each cell: 0 White's (the side moving first), 1 Black's, None empty."""
        return [{1: 0, -1: 1, 0: None}[v] for v in state[0]]

    def move_squares(self, state, move):
        """The cells a move touches, from-square first: the board page plays it by two clicks."""
        return list(move)
