"""The compiled floor of a Fogel generation: a minimal compiled evaluation of the same population.

What a generation cannot do without: play every network's games against the opponent's
move tables in compiled code. One loop per game; a network's move is the argmax of a
plain forward pass (all nine inputs, every hidden unit, every output through the
sigmoid, the project's fixed ``exp``), remembered per board while the network's own games last; the opponent samples
its Walker alias table. No Python per game, no DEAP, no mutation or selection: the
benchmark reports a real generation's time beside this one's on the same networks and
the same games.
"""

from __future__ import annotations

import numba
import numpy as np

from evoplay.networks.arithmetic import sigmoid
from evoplay.recipes.fogel.nets import INPUTS, stack
from evoplay.tictactoe import board


@numba.njit(cache=True)
def _play(w1, w2, hs, games, u, keep, alias, inputs, child, outcome, n_legal, first_legal):
    n = w1.shape[0]
    memo = np.full(len(outcome), -1, dtype=np.int64)
    result = np.empty((n, games), dtype=np.int8)
    for r in range(n):
        memo[:] = -1
        h = hs[r]
        for g in range(games):
            code = 0
            for ply in range(9):
                if ply % 2 == 0:
                    if n_legal[code] == 1:
                        move = first_legal[code]
                    elif memo[code] >= 0:
                        move = memo[code]
                    else:
                        hid = np.empty(h)
                        for j in range(h):
                            z = 0.0
                            for i in range(10):
                                z += inputs[code, i] * w1[r, i, j]
                            hid[j] = sigmoid(z)
                        best, y_best = -1, -1.0
                        for sq in range(9):
                            if inputs[code, sq] == 0.0:
                                z = w2[r, w2.shape[1] - 1, sq]
                                for j in range(h):
                                    z += w2[r, j, sq] * hid[j]
                                y = sigmoid(z)
                                if y > y_best:
                                    best, y_best = sq, y
                        memo[code] = move = best
                else:
                    scaled = u[r, g, ply] * 9.0
                    slot = min(int(scaled), 8)
                    at = code * 9 + slot
                    move = slot if scaled - slot < keep[at] else alias[at]
                code = child[code, move]
                if outcome[code] != 0:
                    break
            result[r, g] = outcome[code]
    return result


def floor_outcomes(pool, u: np.ndarray, opponent) -> np.ndarray:
    """(networks, games) outcomes of ``pool`` (as X) against table player ``opponent`` with uniforms ``u``."""
    h, w1, w2 = stack(pool)
    return _play(np.ascontiguousarray(w1), np.ascontiguousarray(w2), np.asarray(h, dtype=np.int64), u.shape[1],
                 np.ascontiguousarray(u), opponent.keep, opponent.alias, INPUTS, board.CHILD, board.OUTCOME, board.N_LEGAL, board.FIRST_LEGAL)
