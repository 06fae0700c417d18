"""Compiled best-first search that moves checkers pieces to a given board by single steps, for
``evoplay.checkers.spielboard`` (which sets OpenSpiel's checkers to an evoplay position).

A board is 32 codes over the dark squares in OpenSpiel's order (row by row from the top
left): 0 empty, 1 and 2 an 'o' man and king (OpenSpiel's player 0, evoplay's Black), 3 and
4 a '+' man and king. A step takes any piece one square diagonally, any way, onto an empty
square, as OpenSpiel applies an action without checking it; a man that steps onto the far
row of its side (row 0 for 'o', row 7 for '+') is crowned, so a man that must stay one
never enters it. The search is weighted A* (``g + weight * h``): ``h`` is the cost of the
cheapest pairing of each side's pieces with the target's (Hungarian method; a man to a man
by steps that keep off its crowning row, a man to a king through it, a king to a king),
computed exactly at each board taken from the queue and adjusted by one piece's change for
its children. Ties go to the board queued first, so a search repeats exactly.
"""

from __future__ import annotations

import numba
import numpy as np

from evoplay.networks.arithmetic import JIT

#: A cost no pairing reaches: the piece cannot become the target's.
FAR = 1 << 20
#: A board's piece codes, by OpenSpiel's drawing of them.
CODES = {".": 0, "o": 1, "8": 2, "+": 3, "*": 4}


def _tables():
    dark = [(r, c) for r in range(8) for c in range(8) if (r + c) % 2]
    index = {rc: i for i, rc in enumerate(dark)}
    # OpenSpiel's directions: 0 up-left, 1 up-right, 2 down-right, 3 down-left.
    steps = np.array([[index.get((r + dr, c + dc), -1) for dr, dc in ((-1, -1), (-1, 1), (1, 1), (1, -1))]
                      for r, c in dark], dtype=np.int64)
    rows = np.array([r for r, _ in dark], dtype=np.int64)

    def distances(avoid):
        """Steps between squares, never entering row ``avoid`` (-1: none)."""
        out = np.full((32, 32), FAR, dtype=np.int64)
        for s in range(32):
            if rows[s] == avoid:
                continue
            out[s, s] = 0
            queue = [s]
            for x in queue:
                for y in steps[x]:
                    if y >= 0 and rows[y] != avoid and out[s, y] == FAR:
                        out[s, y] = out[s, x] + 1
                        queue.append(int(y))
        return out

    anyway = distances(-1)
    men = np.stack([distances(0), distances(7)])
    promote = np.full((2, 32, 32), FAR, dtype=np.int64)
    for side, crown in ((0, 0), (1, 7)):
        for q in np.flatnonzero(rows == crown):
            entry = np.min([men[side, :, n] + 1 for n in steps[q] if n >= 0], axis=0)
            promote[side] = np.minimum(promote[side], entry[:, None] + anyway[q][None, :])
        promote[side][rows == crown] = FAR  # no man stands on its crowning row
    promote = np.minimum(promote, FAR)
    return steps, rows, anyway, men, promote


NEXT, ROW, ANY, MAN, PROMOTE = _tables()
#: Random keys of (square, code) for the boards already queued (Zobrist hashing).
ZOBRIST = np.random.default_rng(20_260_101).integers(1, 2**62, size=(32, 5), dtype=np.int64)
ZOBRIST[:, 0] = 0
for _table in (NEXT, ROW, ANY, MAN, PROMOTE, ZOBRIST):
    _table.setflags(write=False)


@numba.njit(**JIT)
def _cost(piece, square, want, target):
    """Steps for ``piece`` on ``square`` to become ``want`` on ``target`` (FAR: never)."""
    side = (piece - 1) // 2
    if (want - 1) // 2 != side:
        return FAR
    if want == 1 + 2 * side:
        return MAN[side, square, target] if piece == want else FAR
    return ANY[square, target] if piece == 2 + 2 * side else PROMOTE[side, square, target]


@numba.njit(**JIT)
def _crowned(piece, square):
    if piece == 1 and ROW[square] == 0:
        return 2
    if piece == 3 and ROW[square] == 7:
        return 4
    return piece


@numba.njit(**JIT)
def _hungarian(cost, n, rows):
    """The cheapest assignment of the ``n`` x ``n`` corner of ``cost``: ``rows[i]``, row i's column; its total."""
    inf = np.int64(1) << 60
    u = np.zeros(n + 1, dtype=np.int64)
    v = np.zeros(n + 1, dtype=np.int64)
    owner = np.zeros(n + 1, dtype=np.int64)
    way = np.zeros(n + 1, dtype=np.int64)
    low = np.empty(n + 1, dtype=np.int64)
    used = np.empty(n + 1, dtype=np.bool_)
    for i in range(1, n + 1):
        owner[0] = i
        j0 = 0
        low[:] = inf
        used[:] = False
        while True:
            used[j0] = True
            i0, delta, j1 = owner[j0], inf, 0
            for j in range(1, n + 1):
                if not used[j]:
                    reduced = cost[i0 - 1, j - 1] - u[i0] - v[j]
                    if reduced < low[j]:
                        low[j], way[j] = reduced, j0
                    if low[j] < delta:
                        delta, j1 = low[j], j
            for j in range(n + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    low[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    total = 0
    for j in range(1, n + 1):
        rows[owner[j] - 1] = j - 1
        total += cost[owner[j] - 1, j - 1]
    return total


@numba.njit(**JIT)
def pairing(board, target, assign):
    """The cheapest pairing's cost (FAR or more: none; the sides' piece counts differ), with
    ``assign[s]`` the target square of the piece on ``s``."""
    total = 0
    mine = np.empty(32, dtype=np.int64)
    goal = np.empty(32, dtype=np.int64)
    cost = np.empty((12, 12), dtype=np.int64)
    rows = np.empty(12, dtype=np.int64)
    for side in range(2):
        n = 0
        k = 0
        for s in range(32):
            if board[s] != 0 and (board[s] - 1) // 2 == side:
                mine[n] = s
                n += 1
            if target[s] != 0 and (target[s] - 1) // 2 == side:
                goal[k] = s
                k += 1
        if n != k or n > 12:
            return FAR
        for i in range(n):
            for j in range(n):
                cost[i, j] = _cost(board[mine[i]], mine[i], target[goal[j]], goal[j])
        part = _hungarian(cost, n, rows)
        if part >= FAR:
            return FAR
        total += part
        for i in range(n):
            assign[mine[i]] = goal[rows[i]]
    return total


@numba.njit(**JIT)
def _before(queue, a, b):
    """Whether queue entry ``a`` comes out before ``b``: lower g + weight * h, then lower h, then queued first."""
    for k in range(3):
        if queue[a, k] != queue[b, k]:
            return queue[a, k] < queue[b, k]
    return False


@numba.njit(**JIT)
def _push(queue, size, f, h, node):
    queue[size, 0], queue[size, 1], queue[size, 2] = f, h, node
    i = size
    while i > 0 and _before(queue, i, (i - 1) // 2):
        parent = (i - 1) // 2
        for k in range(3):
            queue[i, k], queue[parent, k] = queue[parent, k], queue[i, k]
        i = parent
    return size + 1


@numba.njit(**JIT)
def _pop(queue, size):
    """The first node of the binary heap ``queue[:size]``, taken out (the size drops by one)."""
    node = queue[0, 2]
    size -= 1
    for k in range(3):
        queue[0, k] = queue[size, k]
    i = 0
    while True:
        low, left, right = i, 2 * i + 1, 2 * i + 2
        if left < size and _before(queue, left, low):
            low = left
        if right < size and _before(queue, right, low):
            low = right
        if low == i:
            return node
        for k in range(3):
            queue[i, k], queue[low, k] = queue[low, k], queue[i, k]
        i = low


@numba.njit(**JIT)
def _seen(keys, slots, key, node):
    """Whether ``key`` is in the open-addressed table already; if not, it is added for ``node``."""
    mask = len(slots) - 1
    i = key & mask
    while slots[i] >= 0:
        if keys[i] == key:
            return True
        i = (i + 1) & mask
    keys[i], slots[i] = key, node
    return False


@numba.njit(**JIT)
def search(start, target, weight, limit):
    """The steps ``(square, direction)`` from ``start`` to ``target`` (int8 code boards); a
    ``(0, 2)`` array when none is found among ``limit`` boards."""
    boards = np.empty((limit + 1, 32), dtype=np.int8)
    parent = np.empty(limit + 1, dtype=np.int64)
    move = np.empty((limit + 1, 2), dtype=np.int64)
    depth = np.empty(limit + 1, dtype=np.int64)
    hashes = np.empty(limit + 1, dtype=np.int64)
    queue = np.empty((limit + 1, 3), dtype=np.int64)
    capacity = 1
    while capacity < 2 * (limit + 1):
        capacity *= 2
    keys = np.zeros(capacity, dtype=np.int64)
    slots = np.full(capacity, -1, dtype=np.int64)
    assign = np.zeros(32, dtype=np.int64)
    key = np.int64(0)
    for s in range(32):
        boards[0, s] = start[s]
        key ^= ZOBRIST[s, start[s]]
    _seen(keys, slots, key, 0)
    parent[0], depth[0], hashes[0] = -1, 0, key
    h0 = pairing(start, target, assign)
    size = _push(queue, 0, weight * h0, h0, 0)
    count = 1
    while size > 0:
        node = _pop(queue, size)
        size -= 1
        board = boards[node]
        arrived = True
        for s in range(32):
            if board[s] != target[s]:
                arrived = False
                break
        if arrived:
            out = np.empty((depth[node], 2), dtype=np.int64)
            k = depth[node]
            while node != 0:
                k -= 1
                out[k, 0], out[k, 1] = move[node, 0], move[node, 1]
                node = parent[node]
            return out
        h = pairing(board, target, assign)
        if h >= FAR:
            continue
        for s in range(32):
            piece = board[s]
            if piece == 0:
                continue
            goal = assign[s]
            want = target[goal]
            here = _cost(piece, s, want, goal)
            for d in range(4):
                y = NEXT[s, d]
                if y < 0 or board[y] != 0:
                    continue
                after = _crowned(piece, y)
                there = _cost(after, y, want, goal)
                if there >= FAR:
                    continue
                child = hashes[node] ^ ZOBRIST[s, piece] ^ ZOBRIST[y, after]
                if count > limit:
                    return np.empty((0, 2), dtype=np.int64)
                if _seen(keys, slots, child, count):
                    continue
                boards[count] = board
                boards[count, s], boards[count, y] = 0, after
                parent[count], depth[count], hashes[count] = node, depth[node] + 1, child
                move[count, 0], move[count, 1] = s, d
                estimate = h - here + there
                size = _push(queue, size, depth[count] + weight * estimate, estimate, count)
                count += 1
    return np.empty((0, 2), dtype=np.int64)


def codes(cells: str) -> np.ndarray:
    """A board drawn as OpenSpiel draws its squares (``.o8+*``) as the search's codes."""
    return np.array([CODES[x] for x in cells], dtype=np.int8)
