"""Compiled alpha-beta for checkers (numba), with piece difference or a Blondie24 network at the leaves.

The same search as ``evoplay.search.search`` with ``piece_difference(king)`` or the
network's ``Evaluator`` (same terminal scores, draw rules, quiescence and tie rule, so the
same value and move; tests compare them), specialised to the bitboards: a few million
leaves a second rather than tens of thousands. Moves are tried best-first from a small
table of the previous iteration's best moves.

The leaf evaluator is a kind (``MATERIAL`` or ``NETWORK``) and a flat parameter array
(the network's genome and layer sizes; kings weigh ``king`` in both), so one kernel
serves both and numba's on-disk cache holds it. A network leaf reads its inputs straight
off the bitboards from the side to move's view (White's view turns the board: column
``i`` is square ``32 - i``) and goes through ``evoplay.numerics.network_value``, as the
network's batched ``forward`` does, so its value is the same bits.
"""

from __future__ import annotations

import numba
import numpy as np

from evoplay.checkers import engine as E
from evoplay.checkers import rules as R
from evoplay.numerics import JIT, network_value
from evoplay.search import MAX_QUIESCENCE, WIN, SearchResult

TABLE_BITS = 14
_MASK = (1 << TABLE_BITS) - 1  # a small table: allocated anew for every search
MATERIAL, NETWORK = 0, 1  # the leaf evaluator's kind
_NO_NETWORK = (np.zeros(0), np.zeros(1, dtype=np.int64))  # a material search's (unused) genome and sizes


@numba.njit(**JIT)
def _popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@numba.njit(**JIT)
def _material(b, w, k, t, king):
    own, other = (b, w) if t == E.BLACK else (w, b)
    men = _popcount(own & ~k) - _popcount(other & ~k)
    kings = _popcount(own & k) - _popcount(other & k)
    return men + king * kings


@numba.njit(**JIT)
def _leaf(b, w, k, t, ev):
    """The leaf's value for the side to move under the evaluator ``ev`` (see ``_search``)."""
    kind, king, genome, sizes, a, scratch = ev
    if kind == MATERIAL:
        return _material(b, w, k, t, king)
    own, other = (b, w) if t == E.BLACK else (w, b)
    for i in range(32):
        sq = i if t == E.BLACK else 31 - i
        bit = np.int64(1) << sq
        x = 0.0
        if own & bit:
            x = king if k & bit else 1.0
        elif other & bit:
            x = -king if k & bit else -1.0
        a[i] = x
    return network_value(a, genome, sizes, scratch)


@numba.njit(**JIT)
def _slot(b, w, k, t):
    h = (b * 0x9E3779B1) ^ (w * 0x85EBCA77) ^ (k * 0xC2B2AE3D) ^ t
    return (h ^ (h >> 29)) & _MASK


@numba.njit(**JIT)
def _enter(lvl, nodes, hist, paths, plen, caps, order, table, stats, ev, quiescence, quiet_limit):
    """Open the node at ``lvl``: its value if it is a leaf (and True), else set up its moves."""
    b, w, k, t = nodes[lvl, 0], nodes[lvl, 1], nodes[lvl, 2], nodes[lvl, 3]
    quiet, start, top, depth = nodes[lvl, 4], nodes[lvl, 5], nodes[lvl, 6], nodes[lvl, 7]
    n = E.generate(b, w, k, t, paths[lvl], plen[lvl], caps[lvl])
    if n == 0:
        return -(WIN - lvl), True
    if quiet >= quiet_limit:
        return 0.0, True
    seen = 0
    for i in range(start, top):
        if hist[i, 0] == b and hist[i, 1] == w and hist[i, 2] == k and hist[i, 3] == t:
            seen += 1
    if seen >= 2:
        return 0.0, True
    if depth <= 0 and not (quiescence and caps[lvl, 0] != 0 and depth > -MAX_QUIESCENCE):
        stats[0] += 1
        return _leaf(b, w, k, t, ev), True
    stats[1] += 1
    nodes[lvl, 8], nodes[lvl, 9], nodes[lvl, 10] = n, 0, -1  # moves, next, best index
    for i in range(n):
        order[lvl, i] = i
    slot = _slot(b, w, k, t)
    if table[slot, 0] == b and table[slot, 1] == w and table[slot, 2] == k and table[slot, 3] == t:
        for i in range(n):
            if paths[lvl, i, 0] == table[slot, 4] and paths[lvl, i, plen[lvl, i] - 1] == table[slot, 5] and caps[lvl, i] == table[slot, 6]:
                for j in range(i, 0, -1):
                    order[lvl, j] = order[lvl, j - 1]
                order[lvl, 0] = i
                break
    return 0.0, False


@numba.njit(**JIT)
def _child(lvl, i, nodes, hist, paths, plen, caps):
    """Write the child of move ``i`` of the node at ``lvl`` into ``lvl + 1``."""
    b, w, k, t = nodes[lvl, 0], nodes[lvl, 1], nodes[lvl, 2], nodes[lvl, 3]
    quiet, start, top = nodes[lvl, 4], nodes[lvl, 5], nodes[lvl, 6]
    frm, to, cap = paths[lvl, i, 0], paths[lvl, i, plen[lvl, i] - 1], caps[lvl, i]
    c = lvl + 1
    nodes[c, 0], nodes[c, 1], nodes[c, 2], nodes[c, 3] = E.apply(b, w, k, t, frm, to, cap)
    if cap != 0 or (k >> frm) & 1 == 0:  # irreversible: nothing before it can repeat
        nodes[c, 4], nodes[c, 5], nodes[c, 6] = 0, top, top
    else:
        hist[top, 0], hist[top, 1], hist[top, 2], hist[top, 3] = b, w, k, t
        nodes[c, 4], nodes[c, 5], nodes[c, 6] = quiet + 1, start, top + 1
    nodes[c, 7] = nodes[lvl, 7] - 1


@numba.njit(**JIT)
def _negamax(base, alpha, beta, ev, quiescence, quiet_limit, nodes, bounds, hist, paths, plen, caps, order, table, stats):
    """Fail-soft negamax value of the node written at ``base``, on an explicit stack: a
    recursive kernel crashes when loaded from numba's cache (numba issue 6061)."""
    bounds[base, 0], bounds[base, 1] = alpha, beta
    lvl = base
    value, leaf = _enter(lvl, nodes, hist, paths, plen, caps, order, table, stats, ev, quiescence, quiet_limit)
    if leaf:
        return value
    bounds[base, 2] = -np.inf
    while True:
        n, nxt = nodes[lvl, 8], nodes[lvl, 9]
        if nxt < n and bounds[lvl, 2] < bounds[lvl, 1]:
            i = order[lvl, nxt]
            nodes[lvl, 9] = nxt + 1
            nodes[lvl, 11] = i
            _child(lvl, i, nodes, hist, paths, plen, caps)
            c = lvl + 1
            bounds[c, 0], bounds[c, 1] = -bounds[lvl, 1], -max(bounds[lvl, 0], bounds[lvl, 2])
            value, leaf = _enter(c, nodes, hist, paths, plen, caps, order, table, stats, ev, quiescence, quiet_limit)
            if not leaf:
                bounds[c, 2] = -np.inf
                lvl = c
                continue
        else:  # the node is done: record its best move, hand its value to the parent
            best_i = nodes[lvl, 10]
            slot = _slot(nodes[lvl, 0], nodes[lvl, 1], nodes[lvl, 2], nodes[lvl, 3])
            table[slot, 0], table[slot, 1], table[slot, 2], table[slot, 3] = nodes[lvl, 0], nodes[lvl, 1], nodes[lvl, 2], nodes[lvl, 3]
            table[slot, 4], table[slot, 5], table[slot, 6] = paths[lvl, best_i, 0], paths[lvl, best_i, plen[lvl, best_i] - 1], caps[lvl, best_i]
            value = bounds[lvl, 2]
            if lvl == base:
                return value
            lvl -= 1
        v = -value
        if v > bounds[lvl, 2]:
            bounds[lvl, 2] = v
            nodes[lvl, 10] = nodes[lvl, 11]


@numba.njit(**JIT)
def _search(b, w, k, t, quiet, history, depth, kind, king, genome, sizes, quiescence, quiet_limit):
    """Value, index of the chosen move in legal order, leaves and nodes (all iterations)."""
    plies = depth + MAX_QUIESCENCE + 2
    widest = 0
    for s in sizes:
        widest = max(widest, s)
    ev = (kind, king, genome, sizes, np.empty(widest), np.empty(widest))  # the evaluator and its scratch rows
    hist = np.zeros((len(history) + plies, 4), dtype=np.int64)
    hist[: len(history)] = history
    # Per ply: b, w, k, turn, quiet, history start and top, depth, moves, next, best, current.
    nodes = np.zeros((plies, 12), dtype=np.int64)
    bounds = np.zeros((plies, 3))  # alpha, beta, best value
    paths = np.empty((plies, E.MAX_MOVES, E.MAX_PATH), dtype=np.int64)
    plen = np.empty((plies, E.MAX_MOVES), dtype=np.int64)
    caps = np.empty((plies, E.MAX_MOVES), dtype=np.int64)
    order = np.empty((plies, E.MAX_MOVES), dtype=np.int64)
    table = np.full((1 << TABLE_BITS, 7), -1, dtype=np.int64)
    stats = np.zeros(2, dtype=np.int64)
    nodes[0, 0], nodes[0, 1], nodes[0, 2], nodes[0, 3] = b, w, k, t
    nodes[0, 4], nodes[0, 5], nodes[0, 6] = quiet, 0, len(history)
    n = E.generate(b, w, k, t, paths[0], plen[0], caps[0])
    best, best_i = -np.inf, -1
    previous = -1
    for d in range(1, depth + 1):
        nodes[0, 7] = d
        best, best_i = -np.inf, -1
        for j in range(n):
            i = previous if j == 0 and previous >= 0 else (j - 1 if previous >= 0 and j <= previous else j)
            _child(0, i, nodes, hist, paths, plen, caps)
            # A move before the best one in legal order wins a tie: open the window a hair.
            alpha = best if best_i < 0 or i > best_i else np.nextafter(best, -np.inf)
            v = -_negamax(1, -np.inf, -alpha, ev, quiescence, quiet_limit, nodes, bounds, hist, paths, plen,
                          caps, order, table, stats)
            if v > best or (v == best and i < best_i):
                best, best_i = v, i
        previous = best_i
    return best, best_i, stats[0], stats[1]


def search(state: R.State, depth: int, king: float = 1.5, quiescence: bool = False,
           quiet_limit: int = R.QUIET_LIMIT, network=None) -> SearchResult:
    """Alpha-beta to ``depth`` plies from an unfinished state, with piece difference at the
    leaves, or with a Blondie24 network given as ``network=(genome, sizes)`` (kings +-king)."""
    if depth < 1:
        raise ValueError(f"search depth must be at least 1, got {depth}")
    if R.result(state, quiet_limit) is not None:
        raise ValueError("the game is over: there is no move to search")
    history = np.array(state.history, dtype=np.int64).reshape(-1, 4)
    if network is None:
        kind, (genome, sizes) = MATERIAL, _NO_NETWORK
    else:
        kind, genome, sizes = NETWORK, np.ascontiguousarray(network[0], dtype=np.float64), np.asarray(network[1], dtype=np.int64)
    value, index, leaves, nodes = _search(state.black, state.white, state.kings, state.turn, state.quiet, history,
                                          depth, kind, float(king), genome, sizes, quiescence, quiet_limit)
    return SearchResult(float(value) + 0.0, R.legal_moves(state)[index], int(leaves), int(nodes))  # no -0.0
