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
shogi (from the SFEN) and xiangqi (from ``str``); ``None`` and ``[]`` otherwise. ``owners``
says whose piece each is (side 0 or 1, None for an empty cell or an amazons arrow);
``coordinates`` and ``move_squares`` (the squares an action names, for clicks) read the
family's notation (``NOTATION``): every family with a board but the chess family, whose SAN
moves do not name their from-square, has its moves clicked.
"""

from __future__ import annotations

import re

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


# How each family's action strings name squares: the board's coordinates, and the squares a
# move touches (``move_squares``, so the board page plays moves by clicks). "file-rank": a
# column letter and a row number counted from the bottom ('a2b3', 'a3xc1'); "file-row": the
# same with rows counted from the top (othello 'd3', hex 'a1', pentago 'a1s' with its
# rotation after the square); "go": go's column letters without 'i', rows from the bottom
# ('B d4', 'W pass'); "pairs-0" and "pairs-1": '(row, column)' from the top counted from 0 or
# 1 (tic-tac-toe 'x(1,2)', xiangqi 'r(0,0)-(1,0)', amazons 'X From (7, 1)'); "comma": gomoku's
# 'row,column' from 0; "column": connect four's column from 0 ('x3'; the disc's square is the
# lowest empty cell there); "sfen": shogi's file digit (9 on the left) and rank letter (a at
# the top), '7g7f', 'P*5e' (a drop names its square only).
NOTATION = {
    "breakthrough": "file-rank", "checkers": "file-rank", "clobber": "file-rank", "lines_of_action": "file-rank",
    "othello": "file-row", "hex": "file-row", "pentago": "file-row", "go": "go",
    "tic_tac_toe": "pairs-0", "mnk": "pairs-0", "xiangqi": "pairs-0", "amazons": "pairs-1",
    "gomoku": "comma", "connect_four": "column", "shogi": "sfen",
    "chess": "file-rank", "antichess": "file-rank", "crazyhouse": "file-rank",
}
# Families whose action strings do not name every square a move touches: coordinates only,
# moves picked from the list (the chess family writes SAN, 'Nf3', without the from-square).
NO_MOVE_SQUARES = CHESS
GO_LETTERS = "abcdefghjklmnopqrstuvwxyz"
LETTERS = "abcdefghijklmnopqrstuvwxyz"

_PATTERNS = {
    "file-rank": re.compile(r"([a-z])(\d+)"),
    "file-row": re.compile(r"([a-z])(\d+)"),
    "go": re.compile(r"\b([a-hj-z])(\d+)\b"),
    "pairs-0": re.compile(r"\((\d+),\s*(\d+)\)"),
    "pairs-1": re.compile(r"\((\d+),\s*(\d+)\)"),
    "comma": re.compile(r"^(\d+),(\d+)$"),
    "column": re.compile(r"(\d+)$"),
    "sfen": re.compile(r"([1-9])([a-i])"),
}


def coordinates(notation: str, rows: int, columns: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(row labels from the top, column labels from the left) in a family's notation."""
    counted = lambda n, base: tuple(str(base + i) for i in range(n))  # noqa: E731
    if notation in ("file-rank", "file-row"):
        ranks = counted(rows, 1)
        return (ranks[::-1] if notation == "file-rank" else ranks), tuple(LETTERS[:columns])
    if notation == "go":
        return counted(rows, 1)[::-1], tuple(GO_LETTERS[:columns])
    if notation in ("pairs-0", "comma"):
        return counted(rows, 0), counted(columns, 0)
    if notation == "pairs-1":
        return counted(rows, 1), counted(columns, 1)
    if notation == "column":
        return ("",) * rows, counted(columns, 0)
    if notation == "sfen":
        return tuple(LETTERS[:rows]), counted(columns, 1)[::-1]
    raise KeyError(notation)


def squares_named(notation: str, text: str, rows: int, columns: int) -> list[tuple]:
    """The (row, column) squares an action string names, in its order, those on the board
    only; for connect four's column a row of None (the adapter finds where the disc lands)."""
    found = []
    for a, b in _PATTERNS[notation].findall(text) if notation != "column" else []:
        if notation in ("file-rank", "file-row", "go"):
            column = (GO_LETTERS if notation == "go" else LETTERS).index(a)
            row = int(b) - 1 if notation == "file-row" else rows - int(b)
        elif notation == "sfen":
            column, row = columns - int(a), LETTERS.index(b)
        else:
            base = 1 if notation == "pairs-1" else 0
            row, column = int(a) - base, int(b) - base
        if 0 <= row < rows and 0 <= column < columns:
            found.append((row, column))
    if notation == "column":
        written = _PATTERNS["column"].search(text)
        if written and int(written.group(1)) < columns:
            found.append((None, int(written.group(1))))
    return found


_CHESS_GLYPHS = {"k": "\u265a", "q": "\u265b", "r": "\u265c", "b": "\u265d", "n": "\u265e", "p": "\u265f\ufe0e"}
# Per family: what the board page writes on a piece of each ``cells`` text (``piece_symbols``);
# other pieces are plain discs in their side's colour.
SYMBOLS = {
    "checkers": {"8": "K", "*": "K"},
    **{name: {c: g for k, g in _CHESS_GLYPHS.items() for c in (k, k.upper())} for name in CHESS},
    "shogi": {p + c: (p + c).upper() for k in "plnsgbrk" for c in (k, k.upper()) for p in ("", "+")},
    "xiangqi": {c: c.upper() for k in "rheagcs" for c in (k, k.upper())},
}
