"""Alias-table sampling: every table player's draws follow its distribution exactly."""

import numpy as np
import pytest

from evoplay.tictactoe import board
from evoplay.tictactoe.players import alias_tables, make_player, sample_moves

SPECS = ["random", "first-open", "logic", "logic:eps=0.3,develop=other", "minimax", "softmax:t=0.5,model_t=2"]


@pytest.mark.parametrize("spec", SPECS)
def test_alias_tables_carry_exactly_the_distribution(spec):
    p = make_player(spec)
    keep, alias = p.keep.reshape(-1, 9), p.alias.reshape(-1, 9)
    carried = np.zeros((board.N_CODES, 9))
    rows = np.repeat(np.arange(board.N_CODES), 9)
    np.add.at(carried, (rows, np.tile(np.arange(9), board.N_CODES)), keep.ravel() / 9)
    np.add.at(carried, (rows, alias.ravel()), (1 - keep.ravel()) / 9)
    on = board.OUTCOME == board.ONGOING
    assert np.abs(carried[on] - p.table[on]).max() < 1e-14
    assert not ((p.table[on] == 0) & (carried[on] > 0)).any(), "no mass on an impossible move"


def test_a_grid_of_uniforms_reproduces_the_probabilities():
    p = make_player("logic")
    code = board.parse("X.. / .O. / ..X")  # O to move: no win or block; develops 1, 3, 5 or 7
    n = 9 * 4096
    u = (np.arange(n) + 0.5) / n
    moves = sample_moves(p.keep, p.alias, np.full(n, code), u)
    assert np.abs(np.bincount(moves, minlength=9) / n - p.table[code]).max() < 2 / n * 9
    assert set(moves) == set(np.flatnonzero(p.table[code] > 0))


def test_alias_tables_of_a_hand_made_distribution():
    keep, alias = alias_tables(np.array([[0.5, 0.0, 0.25, 0.25, 0, 0, 0, 0, 0]]))
    # Square 1 and squares 4..8 never keep their slot; every alias is a possible square.
    assert (keep[0, [1, 4, 5, 6, 7, 8]] == 0).all()
    assert set(alias[0][keep[0] < 1]) <= {0, 2, 3}
