"""Compiled checkers move generation over three 32-bit bitboards (numba, cached, no build step).

Bit ``i`` is square ``i + 1`` in the standard numbering: Black's men start on 1-12 at the
top and move down (to higher numbers), White's on 21-32 move up. A position is
``(black, white, kings, turn)`` with ``turn`` 0 for Black to move, 1 for White.

Moves come out as jump paths of square indices (0-based), listed in lexicographic order of
their paths: pieces in ascending order, directions in the order of their target squares,
a depth-first walk of every multi-jump. Captures are forced; a man that reaches the far
row is crowned and its move ends there.
"""

from __future__ import annotations

import numba
import numpy as np

from evoplay.networks.arithmetic import JIT

#: Most moves of one position and most squares of one move's path: generous bounds (the
#: most legal moves known in a checkers position is well under 100; a path visits at
#: most 13 squares, one per captured piece plus the start).
MAX_MOVES = 256
MAX_PATH = 16
BLACK, WHITE = 0, 1


def _tables():
    row = np.arange(32) // 4
    col = 2 * (np.arange(32) % 4) + (row % 2 == 0)
    where = {(int(r), int(c)): s for s, (r, c) in enumerate(zip(row, col))}
    step = np.full((32, 4), -1, dtype=np.int64)
    jump = np.full((32, 4), -1, dtype=np.int64)
    # Directions 0..3: up-left, up-right, down-left, down-right (ascending target squares).
    for s in range(32):
        for d, (dr, dc) in enumerate(((-1, -1), (-1, 1), (1, -1), (1, 1))):
            step[s, d] = where.get((int(row[s]) + dr, int(col[s]) + dc), -1)
            jump[s, d] = where.get((int(row[s]) + 2 * dr, int(col[s]) + 2 * dc), -1)
    return row, col, step, jump


ROW, COL, STEP, JUMP = _tables()


def _shifts():
    """Per direction, the two (mask, shift) pairs that step every square of a bitboard at once:
    the squares whose neighbour in that direction is ``s + shift`` (it depends on the row's parity)."""
    mask = np.zeros((4, 2), dtype=np.int64)
    shift = np.zeros((4, 2), dtype=np.int64)
    for d in range(4):
        deltas = sorted({int(STEP[s, d]) - s for s in range(32) if STEP[s, d] >= 0})
        assert len(deltas) == 2
        for k, delta in enumerate(deltas):
            shift[d, k] = delta
            mask[d, k] = sum(1 << s for s in range(32) if STEP[s, d] >= 0 and STEP[s, d] - s == delta)
    return mask, shift


DIR_MASK, DIR_SHIFT = _shifts()
#: Squares where each side's men are crowned: Black on 29-32, White on 1-4.
CROWN = np.array([0xF0000000, 0x0000000F], dtype=np.int64)
#: Directions a man of each side may move and capture in (kings use all four).
MAN_DIRS = np.array([[2, 3], [0, 1]], dtype=np.int64)
START = (0x00000FFF, 0xFFF00000, 0, BLACK)
for _t in (ROW, COL, STEP, JUMP, CROWN, MAN_DIRS, DIR_MASK, DIR_SHIFT):
    _t.setflags(write=False)


@numba.njit(**JIT)
def _allowed(d, king, turn):
    return king or (d >= 2 if turn == BLACK else d < 2)


@numba.njit(**JIT, inline="always")
def _jumps(own, other, kings, turn, s, paths, plen, caps, p, n, stack_sq, stack_dir, stack_cap, stack_ext):
    """Every jump path of the piece on ``s``, appended to ply ``p``'s moves from row ``n``; the new count."""
    king = (kings >> s) & 1 == 1
    occupied = (own | other) & ~(np.int64(1) << s)  # the mover's square is free again
    top = 0
    stack_sq[0], stack_dir[0], stack_cap[0], stack_ext[0] = s, 0, 0, False
    while top >= 0:
        d = stack_dir[top]
        if d == 4:
            if top > 0 and not stack_ext[top]:
                if n >= MAX_MOVES:
                    raise ValueError("too many moves for the move buffer")
                for k in range(top + 1):
                    paths[p, n, k] = stack_sq[k]
                plen[p, n] = top + 1
                caps[p, n] = stack_cap[top]
                n += 1
            top -= 1
            continue
        stack_dir[top] = d + 1
        if not _allowed(d, king, turn):
            continue
        sq = stack_sq[top]
        over, land = STEP[sq, d], JUMP[sq, d]
        if land < 0:
            continue
        bit = np.int64(1) << over
        if other & bit == 0 or stack_cap[top] & bit != 0 or (occupied >> land) & 1 == 1:
            continue
        stack_ext[top] = True
        top += 1
        stack_sq[top], stack_cap[top], stack_ext[top] = land, stack_cap[top - 1] | bit, False
        crowned = not king and (CROWN[turn] >> land) & 1 == 1
        stack_dir[top] = 4 if crowned else 0
    return n


@numba.njit(**JIT, inline="always")
def _step(x, d):
    """The squares one step in direction ``d`` from the squares of ``x`` (off the board: gone)."""
    out = np.int64(0)
    for k in range(2):
        sh = DIR_SHIFT[d, k]
        y = x & DIR_MASK[d, k]
        out |= (y << sh) if sh > 0 else (y >> -sh)
    return out


@numba.njit(**JIT)
def mobility(black, white, kings, turn):
    """2 if the side to move has a capture, 1 if it has only plain moves, 0 if it has no move."""
    own, other = (black, white) if turn == BLACK else (white, black)
    empty = ~(black | white) & 0xFFFFFFFF
    own_kings = own & kings
    plain = np.int64(0)
    for d in range(4):
        movers = own if _allowed(d, False, turn) else own_kings
        if movers == 0:
            continue
        near = _step(movers, d)
        if _step(near & other, d) & empty:
            return 2
        plain |= near & empty
    return 1 if plain else 0


@numba.njit(**JIT)
def generate(black, white, kings, turn, paths, plen, caps):
    """Fill ``paths`` (rows of square indices), ``plen`` and ``caps`` (captured bits); the count."""
    stack = np.empty((4, MAX_PATH), dtype=np.int64)
    return generate_at(black, white, kings, turn, paths.reshape((1,) + paths.shape), plen.reshape((1, plen.size)),
                       caps.reshape((1, caps.size)), 0, stack[0], stack[1], stack[2], stack[3])


@numba.njit(**JIT, inline="always")
def generate_at(black, white, kings, turn, paths, plen, caps, p, stack_sq, stack_dir, stack_cap, stack_ext):
    """``generate`` into ply ``p`` of (plies, MAX_MOVES, ...) arrays, with its jump stack given
    (four MAX_PATH int64 rows): no allocation, no array views."""
    own, other = (black, white) if turn == BLACK else (white, black)
    n = 0
    if mobility(black, white, kings, turn) == 2:
        for s in range(32):
            if (own >> s) & 1:
                n = _jumps(own, other, kings, turn, s, paths, plen, caps, p, n, stack_sq, stack_dir, stack_cap, stack_ext)
        return n
    empty = ~(own | other)
    for s in range(32):
        if (own >> s) & 1 == 0:
            continue
        king = (kings >> s) & 1 == 1
        for d in range(4):
            t = STEP[s, d]
            if t >= 0 and _allowed(d, king, turn) and (empty >> t) & 1:
                paths[p, n, 0], paths[p, n, 1], plen[p, n], caps[p, n] = s, t, 2, 0
                n += 1
    return n


@numba.njit(**JIT)
def apply(black, white, kings, turn, frm, to, cap):
    """The position after the side to move takes its piece from ``frm`` to ``to`` capturing ``cap``."""
    f, t = np.int64(1) << frm, np.int64(1) << to
    was_king = kings & f != 0
    kings = kings & ~f & ~cap
    if was_king or CROWN[turn] & t:
        kings |= t
    if turn == BLACK:
        black, white = (black & ~f) | t, white & ~cap
    else:
        black, white = black & ~cap, (white & ~f) | t
    return black, white, kings, 1 - turn


@numba.njit(**JIT)
def count_moves(black, white, kings, turn):
    """Number of legal moves (0: the side to move has lost)."""
    paths = np.empty((MAX_MOVES, MAX_PATH), dtype=np.int64)
    plen = np.empty(MAX_MOVES, dtype=np.int64)
    caps = np.empty(MAX_MOVES, dtype=np.int64)
    return generate(black, white, kings, turn, paths, plen, caps)


@numba.njit(**JIT)
def perft(black, white, kings, turn, depth):
    """Leaf count of the move tree to ``depth`` plies (bulk-counted at the last ply)."""
    if depth <= 0:
        return np.int64(1)
    paths = np.empty((depth, MAX_MOVES, MAX_PATH), dtype=np.int64)
    plen = np.empty((depth, MAX_MOVES), dtype=np.int64)
    caps = np.empty((depth, MAX_MOVES), dtype=np.int64)
    pos = np.empty((depth, 4), dtype=np.int64)
    count = np.zeros(depth, dtype=np.int64)
    index = np.zeros(depth, dtype=np.int64)
    ssq, sdir = np.empty(MAX_PATH, dtype=np.int64), np.empty(MAX_PATH, dtype=np.int64)
    scap, sext = np.empty(MAX_PATH, dtype=np.int64), np.empty(MAX_PATH, dtype=np.int64)
    pos[0, 0], pos[0, 1], pos[0, 2], pos[0, 3] = black, white, kings, turn
    count[0] = generate_at(black, white, kings, turn, paths, plen, caps, 0, ssq, sdir, scap, sext)
    if depth == 1:
        return count[0]
    total = np.int64(0)
    level = 0
    while level >= 0:
        i = index[level]
        if i == count[level]:
            level -= 1
            continue
        index[level] = i + 1
        b, w, k, t = apply(pos[level, 0], pos[level, 1], pos[level, 2], pos[level, 3],
                           paths[level, i, 0], paths[level, i, plen[level, i] - 1], caps[level, i])
        nxt = level + 1
        pos[nxt, 0], pos[nxt, 1], pos[nxt, 2], pos[nxt, 3] = b, w, k, t
        count[nxt] = generate_at(b, w, k, t, paths, plen, caps, nxt, ssq, sdir, scap, sext)
        if nxt == depth - 1:
            total += count[nxt]
        else:
            index[nxt] = 0
            level = nxt
    return total
