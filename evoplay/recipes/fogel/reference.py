"""A straightforward per-game Python implementation of one Fogel evaluation, for comparison.

This is how the experiment is usually written: one game at a time, one move at a time,
the network's forward pass and the rule-based opponent's rules evaluated on a Python
list board. It is kept only so the benchmark can measure the batched engine against it
side by side; nothing else uses it.
"""

from __future__ import annotations

import math
import random

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def _winner(board):
    for a, b, c in LINES:
        if board[a] and board[a] == board[b] == board[c]:
            return board[a]
    return 0


def _net_move(net, board, me):
    """Fogel's network: inputs own +1 / other -1 / empty 0, logistic units, best empty output."""
    h, w1, w2 = net
    x = [0.0 if v == 0 else (1.0 if v == me else -1.0) for v in board] + [1.0]
    hidden = []
    for j in range(h):
        z = sum(x[i] * w1[i][j] for i in range(10))
        hidden.append(1.0 / (1.0 + math.exp(-z)))
    best, best_out = -1, -math.inf
    for s in range(9):
        if board[s] == 0:
            y = w2[-1][s] + sum(hidden[j] * w2[j][s] for j in range(h))
            out = 1.0 / (1.0 + math.exp(-y))
            if out > best_out:
                best, best_out = s, out
    return best


def _logic_move(board, me, rng, eps=0.1):
    """Fogel's rule-based opponent: random with probability eps, else win, block, develop, any."""
    empty = [s for s in range(9) if board[s] == 0]
    if rng.random() < eps:
        return rng.choice(empty)
    other = 3 - me
    for who in (me, other):
        squares = sorted({s for line in LINES for s in line if board[s] == 0 and sum(board[t] == who for t in line) == 2})
        if squares:
            return rng.choice(squares)
    develop = sorted(
        {s for line in LINES if sum(board[t] == me for t in line) == 1 and sum(board[t] == 0 for t in line) == 2 for s in line if board[s] == 0}
    )
    return rng.choice(develop or empty)


def play_game(net, rng) -> int:
    """One game, the network as X: +1 win, 0 draw, -1 loss."""
    board = [0] * 9
    for ply in range(9):
        me = 1 if ply % 2 == 0 else 2
        square = _net_move(net, board, me) if me == 1 else _logic_move(board, me, rng)
        board[square] = me
        w = _winner(board)
        if w:
            return 1 if w == 1 else -1
    return 0


def evaluate_generation(nets, games=32, seed=0, payoff=(1.0, 0.0, -10.0)):
    """Total Fogel payoff of each network over ``games`` games against logic (eps 0.1)."""
    rng = random.Random(seed)
    table = {1: payoff[0], 0: payoff[1], -1: payoff[2]}
    return [sum(table[play_game(net, rng)] for _ in range(games)) for net in nets]


def from_fogel_net(net):
    """(h, w1, w2) as nested lists, from an evoplay FogelNet."""
    return net.h, net.w1.tolist(), net.w2.tolist()
