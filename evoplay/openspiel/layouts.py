"""How OpenSpiel lays out each family's observation tensor and board, and what its sides
are called: the tables (and the FEN reader) the adapter (``evoplay.openspiel.game``) draws its
views, keys and cells from, kept apart from the code that plays.

Views. ``views(states)`` is an ``(n, size + 1)`` float32 array: the flattened observation
tensor of the OpenSpiel player to move (``observation_tensor(player)``), then one column
holding the side to move (0. or 1.). OpenSpiel lays its tensors out per game, mostly as
planes of the board (``observation_tensor_shape()`` is ``(planes, rows, columns)``):

- absolute planes, the same for both players, one plane per kind of cell: tic-tac-toe
  ``[empty, o, x]``, connect four ``[x, o, empty]``, m,n,k ``[empty, o, x]``, gomoku
  ``[black, white, player 0 to move]`` (flat, ``size**2`` a plane), breakthrough
  ``[black, white, empty]``, checkers ``[o men, o kings, + men, + kings, empty]``, lines of
  action ``[x, o, empty]``, amazons ``[empty, O, X, arrows]``, go
  ``[black, white, empty, white to play]``, hex ``[white won, white west, white east,
  white, empty, black, black south, black north, black won]``. For these the adapter makes
  the view egocentric: when OpenSpiel's player 1 is to move, each of its planes trades places
  with player 0's, and where the two sides start on different edges the board is turned so
  the side to move always starts where player 0 does (half a turn in breakthrough, checkers
  and amazons; transposed in lines of action and square hex). A network then reads "own
  pieces, other pieces, ..." whoever is to move. Rows run from the top of the board as
  ``str`` draws it, but from the bottom in connect four, go and lines of action.
- planes already from the observer's view (``observation_tensor(p)`` differs by ``p``):
  othello ``[empty, own, other]``, clobber, havannah, pentago and Y ``[own, other, empty]``,
  hive (per bug and colour), and connect four or checkers loaded with their egocentric
  parameter: kept as they are.
- other layouts are given as OpenSpiel makes them, with the side-to-move column: the chess
  family (piece planes in Black/White pairs King, Queen, Rook, Bishop, Knight, Pawn, then
  empty, repetitions, side to move, the fifty-move count, castling rights; crazyhouse adds
  pockets), shogi and xiangqi (piece planes per side, side to move), nine men's morris,
  dots and boxes, quoridor (pawns, walls, walls left), twixt, cursor go, chinese checkers,
  mancala and oware (seed counts; oware's as fractions of all seeds), nim (one-hot piles),
  ultimate tic-tac-toe.

Boards for the web. ``board_shape`` is ``(rows, columns)`` and ``cells(state)`` one short
text per square (row-major, top row first, ``''`` empty) for the games above with board
planes (from player 0's tensor), othello, clobber, pentago, the chess family (from the FEN),
shogi (from the SFEN) and xiangqi (from ``str``); ``None`` and ``[]`` otherwise.
"""

from __future__ import annotations

# Per game: names of the sides in the order they move (side 0 first).
SIDE_NAMES = {
    "chess": ("White", "Black"),
    "antichess": ("White", "Black"),
    "crazyhouse": ("White", "Black"),
    "go": ("Black", "White"),
    "cursor_go": ("Black", "White"),
    "othello": ("Black", "White"),
    "breakthrough": ("Black", "White"),
    "shogi": ("Sente", "Gote"),
    "tic_tac_toe": ("X", "O"),
    "connect_four": ("X", "O"),
}
CHESS = {"chess", "antichess", "crazyhouse"}
# Games whose key reads the position from ``str(state)``, not from the observation tensor.
STR_POSITIONS = {"dots_and_boxes", "hex"}

# Board planes of player 0's observation tensor: (player 0's plane, player 1's plane, their
# texts on the board); "ego": the tensor is already from the observer's view; "turn": how the
# board turns for player 1's egocentric view; "marks": planes of neutral things;
# "bottom_first": the tensor's first row is the board's bottom row as ``str`` draws it.
PLANES = {
    "tic_tac_toe": dict(pairs=[(2, 1, "x", "o")]),
    "connect_four": dict(pairs=[(0, 1, "x", "o")], ego_param="egocentric_obs_tensor", bottom_first=True),
    "mnk": dict(pairs=[(2, 1, "x", "o")]),
    "gomoku": dict(pairs=[(0, 1, "b", "w")]),
    "breakthrough": dict(pairs=[(0, 1, "b", "w")], turn="rot180"),
    "checkers": dict(pairs=[(0, 2, "o", "+"), (1, 3, "8", "*")], turn="rot180", ego_param="egocentric"),
    "lines_of_action": dict(pairs=[(0, 1, "x", "o")], turn="transpose", bottom_first=True),
    "amazons": dict(pairs=[(2, 1, "X", "O")], marks=[(3, "#")], turn="rot180"),
    "go": dict(pairs=[(0, 1, "X", "O")], bottom_first=True),
    "hex": dict(pairs=[(8, 0, "x", "o"), (7, 1, "x", "o"), (6, 2, "x", "o"), (5, 3, "x", "o")], turn="transpose"),
    "othello": dict(pairs=[(1, 2, "x", "o")], ego=True),
    "clobber": dict(pairs=[(0, 1, "o", "x")], ego=True),
    "pentago": dict(pairs=[(0, 1, "O", "@")], ego=True),
}
# Planes whose count each family's spec is written for.
PLANE_COUNT = {"tic_tac_toe": 3, "connect_four": 3, "mnk": 3, "gomoku": 3, "breakthrough": 3, "checkers": 5,
               "lines_of_action": 3, "amazons": 4, "go": 4, "hex": 9, "othello": 3, "clobber": 3, "pentago": 3}


def fen_cells(board: str, size: int) -> list[str]:
    """Squares of a FEN or SFEN board field, row-major from the top (a '+' joins the piece)."""
    out: list[str] = []
    for rank in board.split("/")[:size]:
        row: list[str] = []
        promoted = ""
        for c in rank:
            if c.isdigit():
                row.extend([""] * int(c))
            elif c == "+":
                promoted = "+"
            else:
                row.append(promoted + c)
                promoted = ""
        out.extend((row + [""] * size)[:size])
    return out
