"""Checkers (English draughts) rules as pure functions over a compact state, and its notation.

A state is the position (three 32-bit bitboards: black, white, kings, and the side to
move) plus what the draw rules need: the plies since the last capture or man move, and
the positions seen since then (only those can repeat). A move is its path of squares in
the standard numbering 1-32, e.g. ``(11, 15)``, ``(22, 15)`` or ``(9, 18, 27)``, written
``11-15``, ``22x15`` and ``9x18x27``. Positions read and write PDN FEN, e.g.
``B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

from evoplay.checkers import engine

BLACK, WHITE = engine.BLACK, engine.WHITE
#: Plies without a capture or a man move after which the game is drawn (50 moves each).
QUIET_LIMIT = 100
SIDE_NAMES = {BLACK: "Black", WHITE: "White"}


class State(NamedTuple):
    """A position and its draw bookkeeping; ``history`` holds earlier positions' keys."""

    black: int
    white: int
    kings: int
    turn: int
    quiet: int = 0
    history: tuple = ()

    @property
    def key(self) -> tuple:
        """The position alone: what repetition compares."""
        return (self.black, self.white, self.kings, self.turn)


def initial() -> State:
    return State(*engine.START)


# Squares jumped over between two squares of a path: (a, b) -> bit, 0-based squares.
_OVER = {
    (s, int(engine.JUMP[s, d])): 1 << int(engine.STEP[s, d]) for s in range(32) for d in range(4) if engine.JUMP[s, d] >= 0
}


def legal_moves(state: State) -> list[tuple]:
    """Every legal move as a path of squares 1-32, in lexicographic order (captures forced)."""
    paths = np.empty((engine.MAX_MOVES, engine.MAX_PATH), dtype=np.int64)
    plen = np.empty(engine.MAX_MOVES, dtype=np.int64)
    n = engine.generate(state.black, state.white, state.kings, state.turn, paths, plen, np.empty(engine.MAX_MOVES, dtype=np.int64))
    return [tuple(int(s) + 1 for s in paths[i, : plen[i]]) for i in range(n)]


def is_capture(move: tuple) -> bool:
    return abs(move[1] - move[0]) > 5


def captured(move: tuple) -> int:
    """Bits of the pieces a move jumps over."""
    bits = 0
    for a, b in zip(move, move[1:]):
        bits |= _OVER.get((a - 1, b - 1), 0)
    return bits


def apply(state: State, move: tuple) -> State:
    """The state after ``move`` (one of ``legal_moves(state)``)."""
    frm, to = move[0] - 1, move[-1] - 1
    cap = captured(move)
    was_man = not (state.kings >> frm) & 1
    b, w, k, t = engine.apply(state.black, state.white, state.kings, state.turn, frm, to, cap)
    if cap or was_man:
        return State(int(b), int(w), int(k), int(t))
    return State(int(b), int(w), int(k), int(t), state.quiet + 1, state.history + (state.key,))


def result(state: State, quiet_limit: int = QUIET_LIMIT) -> int | None:
    """None while the game is on; else the score of the side to move: -1 lost, 0 drawn.

    A side with no legal move loses; then the no-progress count and threefold repetition
    draw.
    """
    if engine.count_moves(state.black, state.white, state.kings, state.turn) == 0:
        return -1
    if state.quiet >= quiet_limit or state.history.count(state.key) >= 2:
        return 0
    return None


# ---------------------------------------------------------------- notation


def move_text(move: tuple) -> str:
    return ("x" if is_capture(move) else "-").join(map(str, move))


_MOVE = re.compile(r"^\s*(\d{1,2})(?:\s*([-x])\s*(\d{1,2}))+\s*$", re.IGNORECASE)


def parse_move(state: State, text: str) -> tuple:
    """The legal move written ``text``: full path, or ``from-to``/``fromxto`` when unambiguous."""
    if not _MOVE.match(text or ""):
        raise ValueError(f"{text!r} is not a move (write e.g. 11-15, 22x15 or 9x18x27)")
    squares = tuple(int(s) for s in re.findall(r"\d+", text))
    if not all(1 <= s <= 32 for s in squares):
        raise ValueError(f"{text!r}: squares are numbered 1 to 32")
    moves = legal_moves(state)
    exact = [m for m in moves if m == squares]
    if exact:
        return exact[0]
    ends = [m for m in moves if len(squares) == 2 and (m[0], m[-1]) == squares]
    if len(ends) == 1:
        return ends[0]
    if len(ends) > 1:
        raise ValueError(f"{text!r} is ambiguous: write the whole path ({', '.join(map(move_text, ends))})")
    raise ValueError(f"{text!r} is not a legal move here (legal: {', '.join(map(move_text, moves))})")


def _squares(bits: int) -> list[int]:
    return [s + 1 for s in range(32) if bits >> s & 1]


def to_fen(state: State) -> str:
    """PDN FEN of the position: side to move, White's pieces, Black's (kings with ``K``)."""

    def side(letter, bits):
        return letter + ",".join(("K" if state.kings >> (s - 1) & 1 else "") + str(s) for s in _squares(bits))

    return f"{'BW'[state.turn]}:{side('W', state.white)}:{side('B', state.black)}"


def from_fen(text: str) -> State:
    """The position of a PDN FEN (``B:W18,K30:B1,2``; ranges ``1-12`` allowed; no draw history)."""
    fields = [f.strip() for f in str(text).strip().rstrip(".").split(":")]
    if len(fields) != 3 or fields[0].upper() not in ("B", "W"):
        raise ValueError(f"{text!r} is not a position (PDN FEN, e.g. B:W21,22:B1,2)")
    bits = {"B": 0, "W": 0}
    kings = 0
    for field in fields[1:]:
        colour, body = field[:1].upper(), field[1:]
        if colour not in bits or bits[colour]:
            raise ValueError(f"{text!r}: expected one W field and one B field")
        for item in filter(None, (i.strip() for i in body.split(","))):
            king = item[:1].upper() == "K"
            m = re.fullmatch(r"(\d{1,2})(?:-(\d{1,2}))?", item[1:] if king else item)
            if not m:
                raise ValueError(f"{text!r}: {item!r} is not a square")
            lo, hi = int(m[1]), int(m[2] or m[1])
            if not 1 <= lo <= hi <= 32:
                raise ValueError(f"{text!r}: {item!r} is not a square 1-32")
            for s in range(lo, hi + 1):
                bit = 1 << (s - 1)
                if (bits["B"] | bits["W"]) & bit:
                    raise ValueError(f"{text!r}: square {s} is given twice")
                bits[colour] |= bit
                kings |= bit if king else 0
    return State(bits["B"], bits["W"], kings, BLACK if fields[0].upper() == "B" else WHITE)


# ---------------------------------------------------------------- boards as text

SYMBOLS = {(BLACK, False): "b", (BLACK, True): "B", (WHITE, False): "w", (WHITE, True): "W"}


def render(state: State, numbers: bool = False) -> str:
    """Eight lines, Black at the top; dark squares show a piece, ``.`` (or their number)."""
    lines = []
    for r in range(8):
        cells = []
        for c in range(8):
            if (r + c) % 2 == 0:
                cells.append("  ")
                continue
            s = 4 * r + c // 2
            if state.black >> s & 1 or state.white >> s & 1:
                cells.append(" " + SYMBOLS[BLACK if state.black >> s & 1 else WHITE, bool(state.kings >> s & 1)])
            else:
                cells.append(f"{s + 1:>2}" if numbers else " .")
        lines.append("".join(cells).rstrip())
    return "\n".join(lines)


def parse_board(text: str, turn: int = BLACK) -> State:
    """A position drawn as ``render`` draws it: eight rows of four dark squares (b, B, w, W, .)."""
    rows = [re.sub(r"\s", "", line) for line in text.strip("\n").splitlines() if line.strip()]
    if len(rows) != 8 or any(len(r) != 4 for r in rows):
        raise ValueError("a board needs 8 rows of 4 dark squares (b B w W .)")
    black = white = kings = 0
    for s, ch in enumerate("".join(rows)):
        if ch not in "bBwW.":
            raise ValueError(f"unknown square symbol {ch!r} (b B w W .)")
        bit = 1 << s
        black |= bit if ch in "bB" else 0
        white |= bit if ch in "wW" else 0
        kings |= bit if ch in "BW" else 0
    return State(black, white, kings, turn)
