"""Compiled kernels of Fogel's networks: outputs and moves of (network, board) pairs.

A pair's hidden sums run over the board's occupied squares in ascending order (inputs are
+1 or -1 there, 0 elsewhere), each output's sum over the hidden units in order with the
bias last, through the fixed ``exp`` of ``evoplay.networks.arithmetic``: the same bits on every CPU
and in every batch. ``w1s`` rows are ``18 * net + square`` (+ 9 for an opponent's mark),
``w2t`` rows ``9 * net + square`` with the bias in the last column; ``h[net]`` hidden
units are read (those after them have only zero weights). The helpers a move calls are
compiled inline (``inline="always"``): a call to a compiled function counts references
on every array it passes, which cost a third of a move.
"""

from __future__ import annotations

import numba
import numpy as np

from evoplay.framework.compiled_streams import jumps, next64, output_at, pcg64, standard_normal, uniform
from evoplay.framework.streams import EVALUATE, MUTATE, SELECT
from evoplay.networks.arithmetic import JIT, fused_rows, lanes, sigmoid, sigmoid_lanes
from evoplay.tictactoe.board import DRAW, O_WIN, X_WIN


@numba.njit(**JIT, inline="always")
def _hidden(w1s, b1, units, r, c, k, occupied, hid):
    """Hidden units of network ``r`` on board ``c`` (``k`` marks) into ``hid``: sums over the occupied squares in order.

    Square by square over all units at once (each unit's sum still adds the squares in
    ascending order, from 0.0, then the bias), so the compiler may do the units in SIMD
    lanes, and so may ``sigmoid_lanes``; ``hid`` holds ``lanes(units)`` values.
    """
    for u in range(units):
        hid[u] = 0.0
    for q in range(k):
        row = occupied[c, q] + 18 * r
        for u in range(units):
            hid[u] += w1s[row, u]
    for u in range(units):
        hid[u] += b1[r, u]
    sigmoid_lanes(hid, units)


@numba.njit(**JIT, inline="always")
def _outputs(w1s, b1, w2t, h, r, c, occupied, free, n_marks, hid, y):
    """Outputs of network ``r`` on board ``c`` into ``y[j]`` for its ``j``-th empty square; returns their count."""
    k = n_marks[c]
    units = h[r]
    bias = w2t.shape[1] - 1
    _hidden(w1s, b1, units, r, c, k, occupied, hid)
    for j in range(9 - k):
        row = free[c, j] + 9 * r
        s = 0.0
        for u in range(units):
            s += w2t[row, u] * hid[u]
        y[j] = sigmoid(s + w2t[row, bias])
    return 9 - k


@numba.njit(**JIT)
def net_outputs(w1s, b1, w2t, h, rows, codes, occupied, free, n_marks):
    """(pairs, 9) outputs by square of networks ``rows`` on boards ``codes`` (NaN on occupied squares)."""
    out = np.full((len(rows), 9), np.nan)
    hid = np.empty(lanes(b1.shape[1]))
    y = np.empty(9)
    for i in range(len(rows)):
        m = _outputs(w1s, b1, w2t, h, rows[i], codes[i], occupied, free, n_marks, hid, y)
        for j in range(m):
            out[i, free[codes[i], j]] = y[j]
    return out


@numba.njit(**JIT, inline="always")
def _move(w1s, b1, w2t, h, r, c, occupied, free, n_marks, hid, z):
    """Network ``r``'s move on board ``c``: the empty square with the highest output (ties: the lowest).

    The same move as the argmax over ``_outputs``, with fewer sigmoids: the output sums
    ``z`` are compared first, and only the sums that could round to the largest output
    pass through the sigmoid (those within 1e-6 relative of the largest, or above 8,
    where the sigmoid's rounding can tie different sums; elsewhere its slope keeps
    outputs of such different sums apart by far more than their rounding error).
    Non-finite sums or a largest sum below -700 take the sigmoid of every output.
    """
    k = n_marks[c]
    units = h[r]
    bias = w2t.shape[1] - 1
    _hidden(w1s, b1, units, r, c, k, occupied, hid)
    m = 9 - k
    top = 0
    finite = True
    for j in range(m):
        row = free[c, j] + 9 * r
        s = 0.0
        for u in range(units):
            s += w2t[row, u] * hid[u]
        z[j] = s + w2t[row, bias]
        finite = finite and abs(z[j]) < np.inf
        if z[j] > z[top]:
            top = j
    zmax = z[top]
    if not finite or zmax < -700.0:
        best = 0
        y_best = sigmoid(z[0])
        for j in range(1, m):
            y = sigmoid(z[j])
            if y > y_best:
                best, y_best = j, y
        return free[c, best]
    near = zmax - 1e-6 * max(1.0, abs(zmax))
    y_top = -1.0  # sigmoid(zmax), once a square needs it
    for j in range(top):  # an earlier square whose output rounds to the same value wins the tie
        if z[j] >= near or z[j] >= 8.0:
            if y_top < 0.0:
                y_top = sigmoid(zmax)
            if sigmoid(z[j]) == y_top:
                return free[c, j]
    return free[c, top]


@numba.njit(**JIT)
def net_moves(w1s, b1, w2t, h, rows, codes, occupied, free, n_marks):
    """Moves of networks ``rows`` on boards ``codes`` (``_move``)."""
    out = np.empty(len(rows), dtype=np.int64)
    hid = np.empty(lanes(b1.shape[1]))
    z = np.empty(9)
    for i in range(len(rows)):
        out[i] = _move(w1s, b1, w2t, h, rows[i], codes[i], occupied, free, n_marks, hid, z)
    return out


#: Slots of a network's move memo (an open-addressing table of board codes and moves; a power of two).
MEMO_SLOTS = 128


def new_memo(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Empty move memos of ``n`` networks: (board codes, -1 where free; moves)."""
    return np.full((n, MEMO_SLOTS), -1, dtype=np.int16), np.zeros((n, MEMO_SLOTS), dtype=np.int8)


@numba.njit(**JIT)
def play_vs_table(w1s, b1, w2t, h, x_rows, u, pcg, jump_table, keep, alias, o_base, memo_codes, memo_moves, child, outcome, n_legal, first_legal, occupied, free, n_marks):
    """Outcomes of games of networks ``x_rows[g]`` (X) against a table player (O), one game at a time.

    O samples from flattened Walker alias tables exactly as ``players.sample_moves``: with
    uniform ``u[g, ply]``, slot ``floor(9u)`` of row ``o_base[g] + board``. When ``pcg`` is
    a compiled stream (``compiled_streams.pcg64``; else it is empty), ``u[g, ply]`` is not read but
    made: the stream's uniform number ``9g + ply``, reached by ``jump_table``
    (``compiled_streams.jumps``), none being made for X's plies or after a game's end. X's move on a
    board with one legal move is that move, else the network's (``_move``), looked up
    first in the network's memo row (``memo_codes``/``memo_moves``, updated in place; a
    network's moves depend on nothing but its weights, so a memo may be carried from
    generation to generation with the network). The same games, moves and outcomes as
    ``engine.play`` with ``NetBatch`` and the table player.
    """
    mask = memo_codes.shape[1] - 1  # the slots are a power of two
    hid = np.empty(lanes(b1.shape[1]))
    z = np.empty(9)
    result = np.empty(len(x_rows), dtype=np.int8)
    for g in range(len(x_rows)):
        r = x_rows[g]
        code = 0
        for ply in range(9):
            if ply % 2 == 0:
                if n_legal[code] > 1:
                    at = (code * 40503) & mask
                    for _ in range(mask + 1):
                        if memo_codes[r, at] == code or memo_codes[r, at] < 0:
                            break
                        at = (at + 1) & mask
                    if memo_codes[r, at] == code:
                        move = memo_moves[r, at]
                    else:
                        move = _move(w1s, b1, w2t, h, r, code, occupied, free, n_marks, hid, z)
                        if memo_codes[r, at] < 0:  # a full memo keeps what it has
                            memo_codes[r, at] = code
                            memo_moves[r, at] = move
                else:
                    move = first_legal[code]
            else:
                scaled = (uniform(output_at(pcg, jump_table, 9 * g + ply)) if len(pcg) else u[g, ply]) * 9.0
                slot = min(int(scaled), 8)
                at = (o_base[g] + code) * 9 + slot
                move = slot if scaled - slot < keep[at] else alias[at]
            code = child[code, move]
            if outcome[code] != 0:
                break
        result[g] = outcome[code]
    return result


@numba.njit(**JIT)
def prepare(w1, w2):
    """The kernels' layout of stacked padded weights: (w1s, b1, w2t, h); see ``NetBatch``."""
    n, _, hmax = w1.shape
    w1s = np.empty((n * 18, hmax))
    b1 = np.empty((n, hmax))
    w2t = np.empty((n * 9, hmax + 1))
    h = np.zeros(n, dtype=np.int64)
    for r in range(n):
        for q in range(9):
            for u in range(hmax):
                w1s[18 * r + q, u] = w1[r, q, u]
                w1s[18 * r + 9 + q, u] = -w1[r, q, u]
        for u in range(hmax):
            b1[r, u] = w1[r, 9, u]
        for q in range(9):
            for u in range(hmax + 1):
                w2t[9 * r + q, u] = w2[r, u, q]
        for u in range(hmax):  # units past the last one with a nonzero weight add exactly nothing
            for q in range(10):
                if w1[r, q, u] != 0.0:
                    h[r] = u + 1
            for q in range(9):
                if w2[r, u, q] != 0.0:
                    h[r] = u + 1
    return w1s, b1, w2t, h


@numba.njit(**JIT)
def rival_scores(picks, top, payoffs):
    """Fogel's tournament: rivals of each network from Floyd's draws ``picks``, and its score against them.

    Row ``i`` of ``picks`` holds draws of 0..top[c] by column; a draw already taken in the
    row becomes ``top[c]`` (Floyd's sampling without replacement), and numbers from ``i``
    on skip ``i`` itself. A network scores a point per rival with a lower payoff.
    """
    n, rivals = picks.shape
    opp = np.empty((n, rivals), dtype=np.int64)
    scores = np.zeros(n, dtype=np.int64)
    for i in range(n):
        for c in range(rivals):
            v = picks[i, c]
            for d in range(c):
                if opp[i, d] == v:
                    v = top[c]
                    break
            opp[i, c] = v
        for c in range(rivals):
            o = opp[i, c] + (1 if opp[i, c] >= i else 0)
            opp[i, c] = o
            if payoffs[o] < payoffs[i]:
                scores[i] += 1
    return opp, scores


_LOW32 = np.uint64(0xFFFFFFFF)


@numba.njit(**JIT)
def tournament_draws(pcg, top, rows):
    """``integers(0, top + 1, size=(rows, len(top)))`` then ``random(rows)`` of the stream ``pcg`` (``compiled_streams.pcg64``), as numpy draws them.

    numpy (an array ``high`` of int64, in the 32-bit range) draws each bounded integer by
    Lemire's method from 32-bit words: the low half of a 64-bit output, then its high half;
    a range of one value draws nothing. The uniforms after them take whole outputs, 53 bits
    each, leaving a half-used output aside.
    """
    cols = len(top)
    picks = np.zeros((rows, cols), dtype=np.int64)
    ties = np.empty(rows)
    half, word = False, np.uint64(0)
    for i in range(rows):
        for c in range(cols):
            rng = np.uint64(top[c])
            if rng == 0:
                continue
            excl = rng + np.uint64(1)
            threshold = (_LOW32 - rng) % excl
            while True:
                if half:
                    x = word >> np.uint64(32)
                    half = False
                else:
                    word = next64(pcg)
                    x = word & _LOW32
                    half = True
                m = x * excl
                if (m & _LOW32) >= threshold:  # numpy's test ``leftover < excl`` first only saves this one
                    break
            picks[i, c] = np.int64(m >> np.uint64(32))
    for i in range(rows):
        ties[i] = uniform(next64(pcg))
    return picks, ties


@numba.njit(**JIT)
def mutate_into(h, w1, w2, n1, n2, change, grow, victim, p_arch, lo, hi, hp, w1p, w2p):
    """``nets.mut_population`` from its draws: parents in rows ``0..n-1`` of the pool arrays, children after them.

    ``n1``, ``n2`` are the normal draws (already scaled by sigma) for every padded weight,
    ``change``, ``grow``, ``victim`` the three uniforms per parent. Each weight is
    ``w + noise * mask`` with a mask of 1.0 or 0.0, the very operations numpy does there;
    a deleted unit's slot takes the last active unit's weights, whose slot becomes padding.
    """
    n, n_in, hmax = w1.shape
    outs = w2.shape[2]
    for i in range(n):
        hp[i] = h[i]
        w1p[i] = w1[i]
        w2p[i] = w2[i]
        c = n + i
        units = h[i]
        for q in range(n_in):
            for j in range(hmax):
                w1p[c, q, j] = w1[i, q, j] + n1[i, q, j] * (1.0 if j < units else 0.0)
        for j in range(hmax + 1):
            mask = 1.0 if (j < units or j == hmax) else 0.0
            for q in range(outs):
                w2p[c, j, q] = w2[i, j, q] + n2[i, j, q] * mask
        hp[c] = units
        if change[i] < p_arch:
            if grow[i] < 0.5:
                if units < hi:
                    hp[c] = units + 1
            elif units > lo:
                last, gone = units - 1, int(victim[i] * units)
                for q in range(n_in):
                    w1p[c, q, gone] = w1p[c, q, last]
                    w1p[c, q, last] = 0.0
                for q in range(outs):
                    w2p[c, gone, q] = w2p[c, last, q]
                    w2p[c, last, q] = 0.0
                hp[c] = units - 1


@numba.njit(**JIT)
def mutation_draws(pcg, sigma, w1, w2):
    """The draws of ``nets.mut_population`` on the stream ``pcg`` (``compiled_streams.pcg64``), in its order, as numpy makes them.

    Normals for every padded weight of ``w1`` then of ``w2`` (``normal(0.0, sigma)``,
    which is ``0.0 + sigma * z``), then three uniforms per parent (architecture change,
    grow or shrink, victim). Tests compare them with numpy's.
    """
    n = w1.shape[0]
    n1 = np.empty(w1.shape)
    n2 = np.empty(w2.shape)
    f1, f2 = n1.reshape(n1.size), n2.reshape(n2.size)
    for i in range(f1.size):
        f1[i] = 0.0 + sigma * standard_normal(pcg)
    for i in range(f2.size):
        f2[i] = 0.0 + sigma * standard_normal(pcg)
    change, grow, victim = np.empty(n), np.empty(n), np.empty(n)
    for d in (change, grow, victim):
        for i in range(n):
            d[i] = uniform(next64(pcg))
    return n1, n2, change, grow, victim


@numba.njit(**JIT)
def survivors(scores, ties, n):
    """Positions of the ``n`` networks with the highest scores, ties by ``ties`` then position, ascending.

    ``np.sort(np.lexsort((ties, -scores))[:n])``, as ``sel_tournament_score`` selects:
    two stable sorts, the last by the first key.
    """
    order = np.argsort(ties, kind="mergesort")
    order = order[np.argsort(-scores[order], kind="mergesort")]
    return np.sort(order[:n])


@numba.njit(**JIT)
def generation(h, w1, w2, memo_codes, memo_moves, sigma, p_arch, lo, hi,
               key, games, o_base_game, keep, alias, table, top,
               child, outcome, n_legal, first_legal, occupied, free, n_marks):
    """One Fogel generation of ``n`` parents from its draws, in one call: children, games, payoffs, tournament, survivors.

    The same numbers as the general path (``mut_population``, ``eval_weights``,
    ``rival_scores``, ``sel_tournament_score``) fed by the same draws, made from the
    streams of ``key``, which is (seed, trial, generation): mutation (``mutation_draws``,
    then ``mutate_into``), the pool's ``games`` games each against a table player
    (``play_vs_table``; parents with their memos, children with empty ones; game ``g`` of
    every network against opponent row ``o_base_game[g]``), payoffs as ``weighted_rows``
    of (wins, losses, draws) and ``table``, each network's rivals and score
    (``tournament_draws``), and the survivors (``survivors``). Returns the pool's (h, w1,
    w2), (win, loss, draw) counts, payoffs, rivals, scores, the survivors' positions and
    their (h, w1, w2) and memos, and (the position of the first highest payoff, of a lowest
    one, the count of networks by hidden units).
    """
    n = len(h)
    m = 2 * n
    hmax = w1.shape[2]
    seed, trial, gen = key
    hp = np.empty(m, dtype=np.int64)
    w1p = np.empty((m, w1.shape[1], hmax))
    w2p = np.empty((m, hmax + 1, w2.shape[2]))
    n1, n2, change, grow, victim = mutation_draws(pcg64(seed, trial, gen, MUTATE), sigma, w1, w2)
    mutate_into(h, w1, w2, n1, n2, change, grow, victim, p_arch, lo, hi, hp, w1p, w2p)
    slots = memo_codes.shape[1]
    codes = np.full((m, slots), -1, dtype=np.int16)
    moves = np.zeros((m, slots), dtype=np.int8)
    codes[:n] = memo_codes
    moves[:n] = memo_moves
    w1s, b1, w2t, units = prepare(w1p, w2p)
    x_rows = np.empty(m * games, dtype=np.int64)
    o_base = np.empty(m * games, dtype=np.int64)
    for r in range(m):
        for g in range(games):
            x_rows[r * games + g] = r
            o_base[r * games + g] = o_base_game[g]
    evaluate = pcg64(seed, trial, gen, EVALUATE)
    result = play_vs_table(w1s, b1, w2t, units, x_rows, np.empty((0, 9)), evaluate, jumps(evaluate), keep, alias, o_base,
                           codes, moves, child, outcome, n_legal, first_legal, occupied, free, n_marks)
    wld = np.zeros((m, 3), dtype=np.int64)
    for g in range(m * games):
        o = result[g]
        if o == X_WIN:
            wld[g // games, 0] += 1
        elif o == O_WIN:
            wld[g // games, 1] += 1
        elif o == DRAW:
            wld[g // games, 2] += 1
    payoffs = fused_rows(wld.astype(np.float64), table)
    picks, ties = tournament_draws(pcg64(seed, trial, gen, SELECT), top, m)
    opp, scores = rival_scores(picks, top, payoffs)
    sel = survivors(scores, ties, n)
    best, worst = 0, 0  # the first of the highest payoffs (np.argmax), the lowest
    hist = np.zeros(hmax + 1, dtype=np.int64)  # networks by hidden units
    for r in range(m):
        if payoffs[r] > payoffs[best]:
            best = r
        if payoffs[r] < payoffs[worst]:
            worst = r
        hist[hp[r]] += 1
    return (hp, w1p, w2p, wld, payoffs, opp, scores, sel,
            (hp[sel], w1p[sel], w2p[sel]), (codes[sel], moves[sel]), (best, worst, hist))
