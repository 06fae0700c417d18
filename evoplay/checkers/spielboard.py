"""Checkers positions and moves as OpenSpiel's: the bridge the ``openspiel-mcts`` player plays
through (``evoplay.checkers.spielmcts``).

OpenSpiel's ``checkers`` draws its board with row 0 at the top (rank 8) and numbers an
action ``((row * 8 + column) * 4 + direction) * 2 + jump``, directions 0 up-left, 1
up-right, 2 down-right, 3 down-left. Its player 0 ('o' men, '8' kings) starts on rows 5-7
and moves first: evoplay's Black. The board is evoplay's turned half a turn: square ``n``
of the standard numbering is OpenSpiel's dark square ``32 - n`` counted row by row from the
top left (square 1 is g1, 4 is a1, 29 is h8, 32 is b8). A move is one action per step or
jump: after a jump that can go on, the same player moves again, so ``9x18x27`` is two actions.

OpenSpiel's checkers reads no position: no string or FEN starts a state, and
``SetCustomBoard``, which its own tests use, is not in the Python bindings. A state is made
as its ``DeserializeState`` makes one, by applying a list of actions to the initial state
without checking them, and OpenSpiel applies any such action that moves a piece onto an
empty square (a step) or over a piece onto one (a jump, taking the piece over), whoever
owns it and whichever way it goes. ``setup`` plans such a list for a position: jumps take
off the pieces the position lacks (``remove``), then a compiled search moves the rest to
their squares (``evoplay.checkers.spielsearch``). The player to move after the list is
planned too: a step or a jump passes the turn, except a jump whose piece, the mover's,
can jump on. OpenSpiel also counts the plies since a capture (its game is drawn at 40), so
the list ends with a jump where it can: the translated state then counts 0, as after a
capture, and its draw is 40 plies away. The counts of the list's other endings are kept
(``Board.quiet``): a position with all 24 pieces counts its men's steps from the start.
The state is checked against the position before it is used (``drawing``).
"""

from __future__ import annotations

import functools
import itertools

from evoplay.checkers import rules
from evoplay.checkers import spielsearch
from evoplay.errors import EvoplayError

DARK = tuple((r, c) for r in range(8) for c in range(8) if (r + c) % 2)
INDEX = {rc: i for i, rc in enumerate(DARK)}
DIRECTIONS = ((-1, -1), (-1, 1), (1, 1), (1, -1))
NEXT = tuple(tuple(INDEX.get((r + dr, c + dc), -1) for dr, dc in DIRECTIONS) for r, c in DARK)
LEAP = tuple(tuple(INDEX.get((r + 2 * dr, c + 2 * dc), -1) for dr, dc in DIRECTIONS) for r, c in DARK)
ROW = tuple(r for r, _ in DARK)
#: OpenSpiel's pieces: its player 0's man and king, then player 1's.
SIDE = {"o": 0, "8": 0, "+": 1, "*": 1}
MAN, KING = "o+", "8*"
CROWN_ROW = (0, 7)
#: Directions a man captures in: player 0 up, player 1 down.
MAN_DIRECTIONS = ((0, 1), (2, 3))
START = "".join("+" if r < 3 else "o" if r > 4 else "." for r, _ in DARK)
#: OpenSpiel's checkers: a game is drawn after this many plies without a capture.
QUIET_DRAW = 40


# ---------------------------------------------------------------- positions and moves


def cells(state: rules.State) -> str:
    """The position's 32 dark squares in OpenSpiel's order, drawn as OpenSpiel draws them."""
    out = ["."] * 32
    for bit in range(32):
        king = state.kings >> bit & 1
        if state.black >> bit & 1:
            out[31 - bit] = KING[0] if king else MAN[0]
        elif state.white >> bit & 1:
            out[31 - bit] = KING[1] if king else MAN[1]
    return "".join(out)


def drawing(board: str) -> str:
    """``State.to_string()`` of an OpenSpiel checkers state with this board."""
    rows = [str(8 - r) + "".join(board[INDEX[r, c]] if (r + c) % 2 else "." for c in range(8)) for r in range(8)]
    return "\n".join(rows) + "\n abcdefgh\n"


def action(square: int, direction: int, jump: bool) -> int:
    """OpenSpiel's action taking the piece on dark ``square`` one way, a step or a jump."""
    r, c = DARK[square]
    return ((r * 8 + c) * 4 + direction) * 2 + int(jump)


def decode(number: int) -> tuple[int, int, bool, int]:
    """(square, direction, jump, landing square) of OpenSpiel's action ``number``."""
    r, c, direction, jump = number // 64, number // 8 % 8, number // 2 % 4, number % 2
    dr, dc = DIRECTIONS[direction]
    return INDEX[r, c], direction, bool(jump), INDEX[r + dr * (1 + jump), c + dc * (1 + jump)]


def move_actions(move: tuple) -> list[int]:
    """OpenSpiel's actions of an evoplay move (a path of squares 1-32), one per step or jump."""
    out = []
    for a, b in zip(move, move[1:]):
        here, there = 32 - a, 32 - b
        jump = rules.is_capture((a, b))
        direction = (LEAP if jump else NEXT)[here].index(there)
        out.append(action(here, direction, jump))
    return out


def move_of(actions: list[int]) -> tuple:
    """The evoplay move (a path of squares 1-32) that OpenSpiel's actions of one turn make."""
    squares = [decode(actions[0])[0]] + [decode(a)[3] for a in actions]
    return tuple(32 - s for s in squares)


# ---------------------------------------------------------------- the board a list of actions builds


class Board:
    """A board, the unchecked actions that built it from the start, whose turn it is and
    OpenSpiel's count of plies since a capture, all as OpenSpiel keeps them."""

    def __init__(self, board: str = START):
        self.cells = list(board)
        self.actions: list[int] = []
        self.player = 0
        self.quiet = 0

    def step(self, s: int, direction: int):
        y = NEXT[s][direction]
        self.cells[y], self.cells[s] = crowned(self.cells[s], y), "."
        self.actions.append(action(s, direction, False))
        self.player, self.quiet = 1 - self.player, self.quiet + 1

    def jump(self, s: int, direction: int):
        piece, y = self.cells[s], LEAP[s][direction]
        self.cells[y], self.cells[NEXT[s][direction]], self.cells[s] = crowned(piece, y), ".", "."
        self.actions.append(action(s, direction, True))
        self.quiet = 0
        if not (SIDE[piece] == self.player and crowned(piece, y) == piece and can_capture(self.cells, y)):
            self.player = 1 - self.player


def crowned(piece: str, square: int) -> str:
    side = SIDE[piece]
    return KING[side] if piece == MAN[side] and ROW[square] == CROWN_ROW[side] else piece


def can_capture(board, s: int) -> bool:
    """Whether the piece on ``s`` has a capture by the rules (a man forwards only)."""
    side = SIDE[board[s]]
    for direction in (MAN_DIRECTIONS[side] if board[s] == MAN[side] else range(4)):
        over, y = NEXT[s][direction], LEAP[s][direction]
        if y >= 0 and board[y] == "." and board[over] != "." and SIDE[board[over]] != side:
            return True
    return False


def path(board, s: int, y: int, avoid: int) -> list[int] | None:
    """The directions of a shortest way for the piece on ``s`` to ``y`` over empty squares,
    a man never entering its crowning row (none through ``avoid``), or None."""
    back = {s: None}
    queue = [s]
    for here in queue:
        if here == y:
            out = []
            while back[here] is not None:
                here, direction = back[here]
                out.append(direction)
            return out[::-1]
        for direction in range(4):
            there = NEXT[here][direction]
            if there < 0 or there == avoid or board[there] != "." or there in back or crowned(board[s], there) != board[s]:
                continue
            back[there] = (here, direction)
            queue.append(there)
    return None


def _spare(board, goal: str, side: int) -> tuple[int, int]:
    """(men, pieces) of ``side`` on ``board`` beyond what ``goal`` needs: men for its men, pieces for all."""
    men, kings = board.count(MAN[side]), board.count(KING[side])
    want_men, want_kings = goal.count(MAN[side]), goal.count(KING[side])
    return men - want_men, men + kings - want_men - want_kings


def _jump_ok(board, s: int, direction: int, goal: str) -> bool:
    """Whether a jump leaves enough pieces of each kind for ``goal`` (a man crowned on landing is one man fewer)."""
    over, y = NEXT[s][direction], LEAP[s][direction]
    if y < 0 or board[y] != "." or board[s] == "." or board[over] == ".":
        return False
    men, pieces = _spare(board, goal, SIDE[board[over]])
    if pieces < 1 or (board[over] in MAN and men < 1):
        return False
    if crowned(board[s], y) != board[s]:
        men = _spare(board, goal, SIDE[board[s]])[0] - (board[over] == board[s])
        return men >= 1
    return True


def _turns(board: Board, s: int, direction: int) -> int:
    """What a jump adds, mod 2, to (jumps over an even row) minus (jumps that keep the turn):
    with the rows of all pieces, that sum settles whose turn it is (see ``remove``)."""
    piece, over, y = board.cells[s], NEXT[s][direction], LEAP[s][direction]
    after = list(board.cells)
    after[y], after[over], after[s] = crowned(piece, y), ".", "."
    keeps = SIDE[piece] == board.player and crowned(piece, y) == piece and can_capture(after, y)
    return (ROW[over] % 2 == 0) ^ keeps


def _damage(board, s: int, direction: int, goal: str) -> tuple:
    """How much of ``goal`` a jump undoes (pieces taken off or moved from their squares): less is better."""
    over, y = NEXT[s][direction], LEAP[s][direction]
    return (2 * (goal[over] == board[over]) + (goal[s] == board[s]) - (goal[y] == crowned(board[s], y)), s, direction)


def remove(board: Board, goal: str, turns: int | None = None, limit: int = 200) -> bool:
    """Jumps, and steps that make them, until each side has ``goal``'s number of pieces (of
    the kinds it can make ``goal``'s from); whether that was done. Every step turns the
    parity of the sum of all pieces' rows and passes the turn, and a jump passes it unless
    it can go on, so where ``turns`` is given the jumps' ``_turns`` are made to sum to it
    (mod 2): the last jump is chosen for it."""
    total = 0
    for _ in range(limit):
        left = sum(_spare(board.cells, goal, side)[1] for side in (0, 1))
        if left == 0:
            return turns is None or total % 2 == turns
        want = None if turns is None or left > 1 else (turns - total) % 2
        jumps = [(s, d) for s in range(32) for d in range(4) if _jump_ok(board.cells, s, d, goal)
                 and (want is None or _turns(board, s, d) == want)]
        if jumps:
            best = min(jumps, key=lambda sd: _damage(board.cells, sd[0], sd[1], goal))
            total += _turns(board, *best)
            board.jump(*best)
        elif not _prepare(board, goal, want):
            return False
    return False


def _prepare(board: Board, goal: str, want: int | None) -> bool:
    """Bring the nearest piece beside one that can go, with the square beyond it empty (for a
    jump whose ``_turns`` is ``want``, where given); where there is none, step a piece that
    can go off the edge (nothing jumps a piece on an edge) or onto the other rows' parity."""
    cells = board.cells
    best = None
    for over in range(32):
        if cells[over] == "." or _spare(cells, goal, SIDE[cells[over]])[1] < 1:
            continue
        for d in range(4):
            start, y = NEXT[over][(d + 2) % 4], NEXT[over][d]
            if start < 0 or y < 0 or cells[y] != "." or cells[start] != ".":
                continue
            for s in range(32):
                if cells[s] == "." or s == over or (best is not None and spielsearch.ANY[s, start] >= len(best[0])):
                    continue
                way = path(cells, s, start, avoid=y)
                if way is None:
                    continue
                trial = Board("".join(cells))
                trial.cells[s], trial.cells[start], trial.player = ".", cells[s], (board.player + len(way)) % 2
                if _jump_ok(trial.cells, start, d, goal) and (want is None or _turns(trial, start, d) == want):
                    best = (way, s)
    if best is not None:
        way, s = best
        for d in way:
            board.step(s, d)
            s = NEXT[s][d]
        return True
    for s in range(32):
        if cells[s] == "." or _spare(cells, goal, SIDE[cells[s]])[1] < 1:
            continue
        for d in range(4):
            y = NEXT[s][d]
            if y >= 0 and cells[y] == "." and crowned(cells[s], y) == cells[s] and -1 not in NEXT[y]:
                board.step(s, d)
                return True
    return False


def _plan(goal: str, turns: int | None, limit: int) -> Board | None:
    """Removal, then the compiled search, from the start to ``goal``; None where either fails."""
    board = Board()
    if not remove(board, goal, turns):
        return None
    for weight in (3, 10):
        steps = spielsearch.search(spielsearch.codes(board.cells), spielsearch.codes(goal), weight, limit)
        if len(steps) or "".join(board.cells) == goal:
            for s, d in steps:
                board.step(int(s), int(d))
            return board
    return None


def _rows(board) -> int:
    return sum(ROW[s] for s in range(32) if board[s] != ".")


def _last_jumps(goal: str, player: int):
    """Ways to end on a jump: (the board before it, the ``turns`` its removal needs, the jump),
    for each piece of ``goal`` with two empty squares behind it, the square next to it for a
    spare piece to be jumped, and no capture to go on with if it is the mover's; ``turns``
    None where that board has all 24 pieces (no jump before it)."""
    spare = [side for side in (0, 1) if goal.count(MAN[side]) + goal.count(KING[side]) < 12]
    base = (player + _rows(goal) + _rows(START)) % 2
    for s in range(32):
        piece = goal[s]
        if piece == "." or (SIDE[piece] != player and can_capture(goal, s)):
            continue  # the mover's piece could jump on: OpenSpiel would keep the turn
        for d in range(4):
            over, start = NEXT[s][d], LEAP[s][d]
            if start < 0 or goal[over] != "." or goal[start] != "." or crowned(piece, start) != piece:
                continue
            for side in spare:
                before = list(goal)
                before[s], before[start] = ".", piece
                before[over] = KING[side] if ROW[over] == CROWN_ROW[side] else MAN[side]
                turns = (base + (ROW[over] % 2 == 0)) % 2
                full = before.count(".") == 8
                if not (full and turns):  # with no jump before it, the rows alone settle the turn
                    yield "".join(before), None if full else turns, (start, (d + 2) % 4)


def check(board: str):
    """Refuse (one line) a board no game reaches: more than 12 pieces a side, a man on its crowning row."""
    for side in (0, 1):
        if board.count(MAN[side]) + board.count(KING[side]) > 12:
            raise EvoplayError(f"{'Black' if side == 0 else 'White'} has more than 12 pieces: not a checkers position")
        if any(board[s] == MAN[side] and ROW[s] == CROWN_ROW[side] for s in range(32)):
            raise EvoplayError(f"a {'Black' if side == 0 else 'White'} man stands on its crowning row: not a checkers position")


#: Plans tried for a position before the compiled search is given more boards: the first few
#: ways to end on a jump, then ending on steps.
LAST_JUMPS = 6
#: Boards the search may queue, per try: more only where every plan failed with fewer.
LIMITS = (5_000, 50_000, 300_000)


@functools.lru_cache(maxsize=4096)
def setup(board: str, player: int) -> tuple[tuple[int, ...], int]:
    """The unchecked actions that build ``board`` (``cells``) with ``player`` to move from
    OpenSpiel's initial state, and OpenSpiel's count of plies since a capture after them (0
    where they end on a jump, which they do where they can); the same for the same position."""
    check(board)
    full = board.count(".") == 8
    options = [] if full else list(itertools.islice(_last_jumps(board, player), LAST_JUMPS))
    options.append((board, None if full else (player + _rows(board) + _rows(START)) % 2, None))
    for limit in LIMITS:
        for goal, turns, last in options:
            built = _plan(goal, turns, limit)
            if built is None:
                continue
            if last is not None:
                built.jump(*last)
            if built.player == player and "".join(built.cells) == board and built.quiet < QUIET_DRAW:
                return tuple(built.actions), built.quiet
    raise EvoplayError("no list of OpenSpiel actions was found that sets its checkers to this position")
