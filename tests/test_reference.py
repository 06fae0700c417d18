"""The per-game Python reference (kept for the benchmark) agrees with the batched engine."""

import random

import numpy as np

from evoplay.tictactoe import board
from evoplay.tictactoe import exact
from evoplay.recipes.fogel.nets import init_population, net_player
from evoplay.tictactoe.players import make_player
from evoplay.recipes.fogel.reference import _logic_move, _net_move, evaluate_generation, from_fogel_net

X_BOARDS = board.DECISION_CODES[board.TO_MOVE[board.DECISION_CODES] == board.X]


def test_reference_network_moves_equal_the_batched_network_table():
    for net in init_population(4, np.random.default_rng(0)):
        table = net_player(net).table
        ref = from_fogel_net(net)
        for code in X_BOARDS[::7]:
            assert table[code, _net_move(ref, board.decode(code).tolist(), 1)] == 1


def test_reference_logic_samples_match_the_logic_table():
    logic = make_player("logic")
    rng = random.Random(1)
    for text in ("X.. / .O. / ..X", "XX. / .O. / ...", "X.. / ... / ...", "XO. / .X. / ..."):
        code = board.parse(text)
        n = 20_000
        counts = np.bincount([_logic_move(board.decode(code).tolist(), int(board.TO_MOVE[code]), rng) for _ in range(n)], minlength=9)
        p = logic.table[code]
        half = 3.29 * np.sqrt(p * (1 - p) / n) + 1e-12
        assert (np.abs(counts / n - p) <= half).all(), (text, counts / n, p)


def test_reference_payoff_agrees_with_the_exact_expectation():
    net = init_population(1, np.random.default_rng(2))[0]
    expected = exact.expected_payoff(net_player(net), make_player("logic"))
    payoffs = evaluate_generation([from_fogel_net(net)], games=4000, seed=3)
    mean = payoffs[0] / 4000
    o = exact.outcome(net_player(net), make_player("logic"))
    sd = np.sqrt(o.x_win + 100 * o.o_win - expected**2)
    assert abs(mean - expected) <= 3.29 * sd / np.sqrt(4000)
