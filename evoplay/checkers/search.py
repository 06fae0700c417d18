"""Compiled alpha-beta for checkers (numba), with piece difference or a Blondie24 network at the leaves.

The same search as ``evoplay.arena.search.search`` with ``piece_difference(king)`` or the
network's ``Evaluator`` (same terminal scores, draw rules, quiescence and tie rule, so the
same value and move; tests compare them), specialised to the bitboards: a few million
leaves a second rather than tens of thousands. Moves are tried best-first from a small
table of the previous iteration's best moves.

The leaf evaluator is a kind (``MATERIAL`` or ``NETWORK``) and a network in its prepared
form (``evoplay.networks.evalnet.prepare``: either topology; kings weigh
``king`` in both), so one kernel serves both and numba's on-disk cache holds it. A
network's inputs are the board from the side to move's view (White's view turns the
board: input ``i`` is square ``32 - i``). Its first layer is kept incrementally, NNUE-style:
the sums of both views are kept per ply of the search path, and a move adds and removes
only the squares it changes (from, to, the captured pieces, a crowning), as exact
integers on the units' grids (``evoplay.networks.arithmetic``); a leaf then runs the rest of the
network (``network_tail``). A full evaluation (``network_value``, the batched ``forward``)
sums the same integers, so a leaf's value is the same bits either way. A network with a
non-finite first-layer term has no exact sums: its leaves are evaluated in full.

A node at the horizon asks only whether the side to move can move or capture
(``engine.mobility``, a few bitboard shifts) instead of listing its moves. Every array
the search uses is allocated once per search and indexed by ply (no views in the loop:
numba counts references to views with atomic operations). A leaf whose value is NaN
cannot happen (a network's NaN output is 0.0), and a node's first searched move is its
best until one beats it, so a node always has a best move.

TDLeaf's principal line (``principal_line``) is the move of a search of depth d, then of
depth d - 1 from the position it leads to, ... down to 1: those searches run one after
another in one compiled call (``_line``), each with the quiet plies and history
``rules.apply`` would give its position, so the line is the same moves as the searches
called one by one from Python.
"""

from __future__ import annotations

import numba
import numpy as np

from evoplay.checkers import engine
from evoplay.checkers import rules
from evoplay.networks.arithmetic import JIT
from evoplay.networks.kernels import network_tail, network_value, piece_difference
from evoplay.networks.evalnet import n_weights, prepare
from evoplay.arena.search import MAX_QUIESCENCE, WIN, SearchResult

TABLE_BITS = 14  # the most: a search of depth d uses 2**min(TABLE_BITS, d + 6) slots, allocated anew each time
MATERIAL, NETWORK = 0, 1  # the leaf evaluator's kind
_NO_NETWORK = prepare(np.zeros(n_weights((32, 1, 1))), (32, 1, 1), 1.0)  # a material search's (unused) network


@numba.njit(**JIT)
def _popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@numba.njit(**JIT)
def _material(b, w, k, t, king):
    own, other = (b, w) if t == engine.BLACK else (w, b)
    men = _popcount(own & ~k) - _popcount(other & ~k)
    kings = _popcount(own & k) - _popcount(other & k)
    return men + king * kings


@numba.njit(**JIT, inline="always")
def _input(view, sq):
    """The network's input index of square ``sq`` seen by ``view`` (White's view turns the board)."""
    return sq if view == engine.BLACK else 31 - sq


@numba.njit(**JIT, inline="always")
def _row(colour, king, view):
    """The row of the first layer's table of a piece of ``colour`` seen by ``view``."""
    return (0 if colour == view else 2) + (1 if king else 0)


@numba.njit(**JIT)
def _fill(accs, p, b, w, k, q, qbias):
    """The first layer's sums of a position from both views (``accs[p, view]``), square by square."""
    for view in range(2):
        for j in range(accs.shape[2]):
            accs[p, view, j] = qbias[j]
        for sq in range(32):
            bit = np.int64(1) << sq
            if (b | w) & bit:
                r = _row(engine.BLACK if b & bit else engine.WHITE, k & bit != 0, view)
                i = _input(view, sq)
                for j in range(accs.shape[2]):
                    accs[p, view, j] += q[r, i, j]


@numba.njit(**JIT, inline="always")
def _update(accs, p, c, k, t, frm, to, cap, q):
    """The first-layer sums of ply ``c`` from ply ``p``'s, for the move ``frm``-``to`` capturing
    ``cap`` (the parent's kings ``k``, side ``t``): only the squares the move changes."""
    was_king = k & (np.int64(1) << frm) != 0
    king_after = was_king or engine.CROWN[t] & (np.int64(1) << to) != 0
    n = accs.shape[2]
    for view in range(2):
        r0, i0 = _row(t, was_king, view), _input(view, frm)
        r1, i1 = _row(t, king_after, view), _input(view, to)
        for j in range(n):
            accs[c, view, j] = accs[p, view, j] - q[r0, i0, j] + q[r1, i1, j]
        x = cap
        while x:
            sq = _popcount((x & -x) - 1)
            x &= x - 1
            r, i = _row(1 - t, k & (np.int64(1) << sq) != 0, view), _input(view, sq)
            for j in range(n):
                accs[c, view, j] -= q[r, i, j]


@numba.njit(**JIT)
def _full_leaf(b, w, k, t, net, codes, acc, floats, a, scratch):
    """A network leaf evaluated in full (networks without exact first-layer sums)."""
    own, other = (b, w) if t == engine.BLACK else (w, b)
    for i in range(32):
        bit = np.int64(1) << _input(t, i)
        c = 0
        if own & bit:
            c = 2 if k & bit else 1
        elif other & bit:
            c = -2 if k & bit else -1
        codes[i] = c
    return network_value(codes, net, acc, floats, a, scratch)


@numba.njit(**JIT)
def _slot(b, w, k, t, mask):
    h = (b * 0x9E3779B1) ^ (w * 0x85EBCA77) ^ (k * 0xC2B2AE3D) ^ t
    return (h ^ (h >> 29)) & mask


@numba.njit(**JIT)
def _negamax(base, alpha, beta, kind, king, quiescence, quiet_limit, net, nodes, bounds, hist, paths, plen, caps,
             order, table, killers, stats, ssq, sdir, scap, sext, accs, codes, acc, floats, a, scratch):
    """Fail-soft negamax value of the node written at ``base``, on an explicit stack: a
    recursive kernel crashes when loaded from numba's cache (numba issue 6061).

    Opening a node (``lvl``): a node at the horizon only asks whether the side to move can
    move, and capture, without listing its moves, unless quiescence goes on; a finished
    game or a leaf gives its value at once, else its moves are listed and ordered (the
    table's best move first)."""
    exact, q, scale, rest, W, B, pd_weight = net[2], net[5], net[7], net[8], net[9], net[10], net[11]
    incremental = kind == NETWORK and exact
    mask = len(table) - 1
    bounds[base, 0], bounds[base, 1] = alpha, beta
    lvl = base
    entering = True
    value = 0.0
    while True:
        if entering:  # open the node at lvl: a value (and back to its parent), or its moves
            entering = False
            b, w, k, t = nodes[lvl, 0], nodes[lvl, 1], nodes[lvl, 2], nodes[lvl, 3]
            quiet, start, top, depth = nodes[lvl, 4], nodes[lvl, 5], nodes[lvl, 6], nodes[lvl, 7]
            leaf = True
            n = 0
            if depth <= 0:
                mob = engine.mobility(b, w, k, t)
            else:
                n = engine.generate_at(b, w, k, t, paths, plen, caps, lvl, ssq, sdir, scap, sext)
                mob = 0 if n == 0 else (2 if caps[lvl, 0] != 0 else 1)
            if mob == 0:
                value = -(WIN - lvl)
            elif quiet >= quiet_limit:
                value = 0.0
            else:
                seen = 0
                for i in range(start, top):
                    if hist[i, 0] == b and hist[i, 1] == w and hist[i, 2] == k and hist[i, 3] == t:
                        seen += 1
                if seen >= 2:
                    value = 0.0
                elif depth <= 0 and not (quiescence and mob == 2 and depth > -MAX_QUIESCENCE):
                    stats[0] += 1
                    if kind == MATERIAL:
                        value = _material(b, w, k, t, king)
                    elif incremental:
                        own, other = (b, w) if t == engine.BLACK else (w, b)
                        men = _popcount(own & ~k) - _popcount(other & ~k)
                        kings = _popcount(own & k) - _popcount(other & k)
                        value = network_tail(accs, lvl, t, floats, piece_difference(men, kings, king), exact, scale,
                                             rest, W, B, pd_weight, a, scratch)
                    else:
                        value = _full_leaf(b, w, k, t, net, codes, acc, floats, a, scratch)
                else:
                    leaf = False
                    if depth <= 0:
                        n = engine.generate_at(b, w, k, t, paths, plen, caps, lvl, ssq, sdir, scap, sext)
            if leaf:
                if lvl == base:
                    return value
                lvl -= 1
            else:
                stats[1] += 1
                nodes[lvl, 8], nodes[lvl, 9], nodes[lvl, 10] = n, 0, -1  # moves, next, best index
                bounds[lvl, 2] = -np.inf
                for i in range(n):
                    order[lvl, i] = i
                front = 0
                slot = _slot(b, w, k, t, mask)
                if table[slot, 0] == b and table[slot, 1] == w and table[slot, 2] == k and table[slot, 3] == t:
                    for i in range(n):
                        if (paths[lvl, i, 0] == table[slot, 4] and paths[lvl, i, plen[lvl, i] - 1] == table[slot, 5]
                                and caps[lvl, i] == table[slot, 6]):
                            for j in range(i, 0, -1):
                                order[lvl, j] = order[lvl, j - 1]
                            order[lvl, 0] = i
                            front = 1
                            break
                if caps[lvl, 0] == 0:  # quiet moves: this ply's killers next
                    for kk in range(2):
                        for p in range(front, n):
                            i = order[lvl, p]
                            if paths[lvl, i, 0] == killers[lvl, kk, 0] and paths[lvl, i, 1] == killers[lvl, kk, 1]:
                                for j in range(p, front, -1):
                                    order[lvl, j] = order[lvl, j - 1]
                                order[lvl, front] = i
                                front += 1
                                break
                continue
        else:
            n, nxt = nodes[lvl, 8], nodes[lvl, 9]
            if nxt < n and bounds[lvl, 2] < bounds[lvl, 1]:  # the next move: write its child, open it
                i = order[lvl, nxt]
                nodes[lvl, 9] = nxt + 1
                nodes[lvl, 11] = i
                _child(lvl, i, nodes, hist, paths, plen, caps, incremental, accs, q)
                c = lvl + 1
                bounds[c, 0], bounds[c, 1] = -bounds[lvl, 1], -max(bounds[lvl, 0], bounds[lvl, 2])
                lvl = c
                entering = True
                continue
            # the node is done: record its best move, hand its value to the parent
            best_i = nodes[lvl, 10]
            slot = _slot(nodes[lvl, 0], nodes[lvl, 1], nodes[lvl, 2], nodes[lvl, 3], mask)
            table[slot, 0], table[slot, 1], table[slot, 2], table[slot, 3] = nodes[lvl, 0], nodes[lvl, 1], nodes[lvl, 2], nodes[lvl, 3]
            table[slot, 4], table[slot, 5], table[slot, 6] = paths[lvl, best_i, 0], paths[lvl, best_i, plen[lvl, best_i] - 1], caps[lvl, best_i]
            value = bounds[lvl, 2]
            if lvl == base:
                return value
            lvl -= 1
        v = -value
        if v > bounds[lvl, 2] or nodes[lvl, 10] < 0:  # the first move searched is best until one beats it
            bounds[lvl, 2] = v
            i = nodes[lvl, 11]
            nodes[lvl, 10] = i
            if v >= bounds[lvl, 1] and caps[lvl, i] == 0 and lvl > 0:  # a quiet move that cut: a killer
                frm, to = paths[lvl, i, 0], paths[lvl, i, 1]
                if killers[lvl, 0, 0] != frm or killers[lvl, 0, 1] != to:
                    killers[lvl, 1, 0], killers[lvl, 1, 1] = killers[lvl, 0, 0], killers[lvl, 0, 1]
                    killers[lvl, 0, 0], killers[lvl, 0, 1] = frm, to


@numba.njit(**JIT, inline="always")
def _child(lvl, i, nodes, hist, paths, plen, caps, incremental, accs, q):
    """Write the child of move ``i`` of the node at ``lvl`` into ``lvl + 1`` (and its first-layer sums)."""
    b, w, k, t = nodes[lvl, 0], nodes[lvl, 1], nodes[lvl, 2], nodes[lvl, 3]
    quiet, start, top = nodes[lvl, 4], nodes[lvl, 5], nodes[lvl, 6]
    frm, to, cap = paths[lvl, i, 0], paths[lvl, i, plen[lvl, i] - 1], caps[lvl, i]
    c = lvl + 1
    nodes[c, 0], nodes[c, 1], nodes[c, 2], nodes[c, 3] = engine.apply(b, w, k, t, frm, to, cap)
    if incremental:
        _update(accs, lvl, c, k, t, frm, to, cap, q)
    if cap != 0 or (k >> frm) & 1 == 0:  # irreversible: nothing before it can repeat
        nodes[c, 4], nodes[c, 5], nodes[c, 6] = 0, top, top
    else:
        hist[top, 0], hist[top, 1], hist[top, 2], hist[top, 3] = b, w, k, t
        nodes[c, 4], nodes[c, 5], nodes[c, 6] = quiet + 1, start, top + 1
    nodes[c, 7] = nodes[lvl, 7] - 1


@numba.njit(**JIT)
def _search(b, w, k, t, quiet, history, depth, kind, king, net, quiescence, quiet_limit, move):
    """Value, index of the chosen move in legal order, leaves and nodes (all iterations); the
    chosen move's path (squares 0-31, then -1) in ``move``."""
    plies = depth + MAX_QUIESCENCE + 2
    wide = len(net[6])
    incremental = kind == NETWORK and net[2]
    accs = np.empty((plies, 2, wide if incremental else 0), dtype=np.int64)  # the path's first-layer sums
    if incremental:
        _fill(accs, 0, b, w, k, net[5], net[6])
    codes = np.empty(32, dtype=np.int8)
    acc = np.empty((1, 1, wide), dtype=np.int64)
    floats, a, scratch = np.empty(wide), np.empty(wide), np.empty(wide)
    hist = np.zeros((len(history) + plies, 4), dtype=np.int64)
    hist[: len(history)] = history
    # Per ply: b, w, k, turn, quiet, history start and top, depth, moves, next, best, current.
    nodes = np.zeros((plies, 12), dtype=np.int64)
    bounds = np.zeros((plies, 3))  # alpha, beta, best value
    paths = np.empty((plies, engine.MAX_MOVES, engine.MAX_PATH), dtype=np.int64)
    plen = np.empty((plies, engine.MAX_MOVES), dtype=np.int64)
    caps = np.empty((plies, engine.MAX_MOVES), dtype=np.int64)
    order = np.empty((plies, engine.MAX_MOVES), dtype=np.int64)
    table = np.full((1 << min(TABLE_BITS, depth + 6), 7), -1, dtype=np.int64)
    killers = np.full((plies, 2, 2), -1, dtype=np.int64)  # per ply, two quiet moves (from, to) that cut
    stats = np.zeros(2, dtype=np.int64)
    ssq, sdir = np.empty(engine.MAX_PATH, dtype=np.int64), np.empty(engine.MAX_PATH, dtype=np.int64)
    scap, sext = np.empty(engine.MAX_PATH, dtype=np.int64), np.empty(engine.MAX_PATH, dtype=np.int64)
    nodes[0, 0], nodes[0, 1], nodes[0, 2], nodes[0, 3] = b, w, k, t
    nodes[0, 4], nodes[0, 5], nodes[0, 6] = quiet, 0, len(history)
    n = engine.generate_at(b, w, k, t, paths, plen, caps, 0, ssq, sdir, scap, sext)
    best, best_i = -np.inf, -1
    previous = -1
    for d in range(1, depth + 1):
        nodes[0, 7] = d
        best, best_i = -np.inf, -1
        for j in range(n):
            i = previous if j == 0 and previous >= 0 else (j - 1 if previous >= 0 and j <= previous else j)
            _child(0, i, nodes, hist, paths, plen, caps, incremental, accs, net[5])
            # A move before the best one in legal order wins a tie: open the window a hair.
            alpha = best if best_i < 0 or i > best_i else np.nextafter(best, -np.inf)
            v = -_negamax(1, -np.inf, -alpha, kind, king, quiescence, quiet_limit, net, nodes, bounds, hist, paths,
                          plen, caps, order, table, killers, stats, ssq, sdir, scap, sext, accs, codes, acc, floats, a,
                          scratch)
            if v > best or (v == best and i < best_i) or best_i < 0:
                best, best_i = v, i
        previous = best_i
    move[:] = -1
    for j in range(plen[0, best_i]):
        move[j] = paths[0, best_i, j]
    return best, best_i, stats[0], stats[1]


@numba.njit(**JIT)
def incremental_leaves(b, w, k, t, depth, net, out, values):
    """Every position ``depth`` plies below (b, w, k, t) along every line (or where the game
    ends before), and the value the search's incremental first layer gives it: rows (black,
    white, kings, turn) of ``out`` and ``values``; their count. Tests hold each value against
    a full evaluation."""
    wide = len(net[6])
    exact, q, scale, rest, W, B, pd_weight, king = net[2], net[5], net[7], net[8], net[9], net[10], net[11], net[1]
    accs = np.empty((depth + 1, 2, wide), dtype=np.int64)
    _fill(accs, 0, b, w, k, q, net[6])
    paths = np.empty((depth + 1, engine.MAX_MOVES, engine.MAX_PATH), dtype=np.int64)
    plen = np.empty((depth + 1, engine.MAX_MOVES), dtype=np.int64)
    caps = np.empty((depth + 1, engine.MAX_MOVES), dtype=np.int64)
    pos = np.empty((depth + 1, 4), dtype=np.int64)
    count = np.zeros(depth + 1, dtype=np.int64)
    index = np.zeros(depth + 1, dtype=np.int64)
    ssq, sdir = np.empty(engine.MAX_PATH, dtype=np.int64), np.empty(engine.MAX_PATH, dtype=np.int64)
    scap, sext = np.empty(engine.MAX_PATH, dtype=np.int64), np.empty(engine.MAX_PATH, dtype=np.int64)
    floats, a, scratch = np.empty(wide), np.empty(wide), np.empty(wide)
    pos[0, 0], pos[0, 1], pos[0, 2], pos[0, 3] = b, w, k, t
    m = 0
    level = 0
    count[0] = engine.generate_at(b, w, k, t, paths, plen, caps, 0, ssq, sdir, scap, sext)
    while level >= 0 and m < len(out):
        if level == depth or count[level] == 0:
            pb, pw, pk, pt = pos[level, 0], pos[level, 1], pos[level, 2], pos[level, 3]
            own, other = (pb, pw) if pt == engine.BLACK else (pw, pb)
            men = _popcount(own & ~pk) - _popcount(other & ~pk)
            kings = _popcount(own & pk) - _popcount(other & pk)
            v = network_tail(accs, level, pt, floats, piece_difference(men, kings, king), exact, scale, rest, W, B,
                             pd_weight, a, scratch)
            out[m, 0], out[m, 1], out[m, 2], out[m, 3] = pb, pw, pk, pt
            values[m] = v
            m += 1
            level -= 1
            continue
        i = index[level]
        if i == count[level]:
            index[level] = 0
            level -= 1
            continue
        index[level] = i + 1
        frm, to, cap = paths[level, i, 0], paths[level, i, plen[level, i] - 1], caps[level, i]
        nb, nw, nk, nt = engine.apply(pos[level, 0], pos[level, 1], pos[level, 2], pos[level, 3], frm, to, cap)
        _update(accs, level, level + 1, pos[level, 2], pos[level, 3], frm, to, cap, q)
        level += 1
        pos[level, 0], pos[level, 1], pos[level, 2], pos[level, 3] = nb, nw, nk, nt
        index[level] = 0
        count[level] = engine.generate_at(nb, nw, nk, nt, paths, plen, caps, level, ssq, sdir, scap, sext) if level < depth else 0
    return m


@numba.njit(**JIT)
def _line(b, w, k, t, quiet, history, depth, kind, king, net, quiescence, quiet_limit, moves, keys, leaf):
    """The principal line as searches of falling depth find it: the move of a search of
    ``depth`` from (b, w, k, t), then of ``depth - 1`` from the position it leads to, ... down
    to 1, stopping where the game ends (no move, the quiet limit, a third repetition, as
    ``rules.result``). Each search is ``_search`` from its position with the draw bookkeeping
    ``rules.apply`` gives it (quiet plies, the positions since the last capture or man move), so
    the line is the same moves as those searches called one by one. Rows of ``moves``: the
    paths (squares 0-31, then -1); rows of ``keys``: the line's positions before each move (b,
    w, k, t); ``leaf``: the last position and its quiet plies. The count of moves."""
    hist = np.empty((len(history) + depth, 4), dtype=np.int64)
    top = len(history)
    hist[:top] = history
    move = np.empty(engine.MAX_PATH, dtype=np.int64)
    n = 0
    for d in range(depth, 0, -1):
        if engine.count_moves(b, w, k, t) == 0 or quiet >= quiet_limit:
            break
        seen = 0
        for i in range(top):
            if hist[i, 0] == b and hist[i, 1] == w and hist[i, 2] == k and hist[i, 3] == t:
                seen += 1
        if seen >= 2:
            break
        _search(b, w, k, t, quiet, hist[:top], d, kind, king, net, quiescence, quiet_limit, move)
        length, cap = 0, np.int64(0)
        for j in range(engine.MAX_PATH):
            moves[n, j] = move[j]
            if move[j] >= 0:
                length = j + 1
        for j in range(length - 1):  # the pieces jumped over (``rules.captured``)
            for dd in range(4):
                if engine.JUMP[move[j], dd] == move[j + 1]:
                    cap |= np.int64(1) << engine.STEP[move[j], dd]
        keys[n, 0], keys[n, 1], keys[n, 2], keys[n, 3] = b, w, k, t
        frm, to = move[0], move[length - 1]
        man = (k >> frm) & 1 == 0
        nb, nw, nk, nt = engine.apply(b, w, k, t, frm, to, cap)
        if cap != 0 or man:  # irreversible: no earlier position can repeat
            quiet, top = 0, 0
        else:
            hist[top, 0], hist[top, 1], hist[top, 2], hist[top, 3] = b, w, k, t
            quiet, top = quiet + 1, top + 1
        b, w, k, t = nb, nw, nk, nt
        n += 1
    leaf[0], leaf[1], leaf[2], leaf[3], leaf[4] = b, w, k, t, quiet
    return n


def _leaf_evaluator(network, king: float):
    """(kind, prepared network, king) of a search's ``network`` argument (see ``search``)."""
    if network is None:
        return MATERIAL, _NO_NETWORK, float(king)
    if len(network) == len(_NO_NETWORK):
        return NETWORK, network, float(network[1])
    return NETWORK, prepare(network[0], network[1], float(king)), float(king)


def search(state: rules.State, depth: int, king: float = 1.5, quiescence: bool = False,
           quiet_limit: int = rules.QUIET_LIMIT, network=None) -> SearchResult:
    """Alpha-beta to ``depth`` plies from an unfinished state, with piece difference at the
    leaves, or with a Blondie24 network given as ``network=(genome, sizes)`` (kings +-king;
    either topology of ``evoplay.networks.evalnet``; prepared for this search alone) or in its
    prepared form (``prepare(genome, sizes, king)``, whose king is then the king: what a player
    searching many times with one network holds)."""
    if depth < 1:
        raise ValueError(f"search depth must be at least 1, got {depth}")
    if rules.result(state, quiet_limit) is not None:
        raise ValueError("the game is over: there is no move to search")
    history = np.array(state.history, dtype=np.int64).reshape(-1, 4)
    kind, net, king = _leaf_evaluator(network, king)
    move = np.empty(engine.MAX_PATH, dtype=np.int64)
    value, index, leaves, nodes = _search(state.black, state.white, state.kings, state.turn, state.quiet, history,
                                          depth, kind, king, net, quiescence, quiet_limit, move)
    path = tuple(int(s) + 1 for s in move if s >= 0)
    return SearchResult(float(value) + 0.0, path, int(leaves), int(nodes))  # no -0.0


def principal_line(state: rules.State, depth: int, king: float = 1.5, quiescence: bool = False,
                   quiet_limit: int = rules.QUIET_LIMIT, network=None) -> tuple[list, rules.State]:
    """(moves, the state they lead to) of searches of falling depth in one call: ``search``'s
    move at ``depth`` from ``state``, then its move at ``depth - 1`` from the state after it
    (``rules.apply``: its quiet plies and history), ... down to depth 1, stopping where the
    game ends (``rules.result``): the same moves and state as those calls one by one (what
    TDLeaf's principal variation is), without a call from Python per search. The arguments
    are ``search``'s; a finished ``state`` has the empty line."""
    if depth < 1:
        raise ValueError(f"search depth must be at least 1, got {depth}")
    history = np.array(state.history, dtype=np.int64).reshape(-1, 4)
    kind, net, king = _leaf_evaluator(network, king)
    moves = np.empty((depth, engine.MAX_PATH), dtype=np.int64)
    keys = np.empty((depth, 4), dtype=np.int64)
    leaf = np.empty(5, dtype=np.int64)
    n = _line(state.black, state.white, state.kings, state.turn, state.quiet, history, depth, kind, king, net,
              quiescence, quiet_limit, moves, keys, leaf)
    line = [tuple(s + 1 for s in path if s >= 0) for path in moves[:n].tolist()]
    b, w, k, t, quiet = leaf.tolist()
    if quiet == state.quiet + n:  # no capture or man move on the line: its positions join the history
        history = state.history + tuple(map(tuple, keys[:n].tolist()))
    else:  # the positions since the line's last capture or man move
        history = tuple(map(tuple, keys[n - quiet:n].tolist()))
    return line, rules.State(b, w, k, t, quiet, history)
