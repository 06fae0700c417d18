"""Players: table invariants, the rules of each built-in player, spec strings."""

import numpy as np
import pytest

from evoplay.tictactoe import board
from evoplay.tictactoe import players
from evoplay.errors import SpecError

BUILT_IN = [
    "random",
    "first-open",
    "logic",
    "logic:eps=0",
    "logic:eps=0,develop=other",
    "minimax",
    "minimax:tiebreak=first",
    "softmax",
    "softmax:t=0.5,model_t=0.1",
]
DECIDE = board.DECISION_CODES


def mover_wins(codes):
    """Boolean (n, 9): squares where the side to move completes a line now."""
    kids = board.CHILD[codes]
    win = np.where(board.TO_MOVE[codes] == board.X, board.X_WIN, board.O_WIN)[:, None]
    return board.LEGAL[codes] & (board.OUTCOME[np.maximum(kids, 0)] == win)


def opponent_wins(codes):
    """Boolean (n, 9): empty squares where the other side would complete a line."""
    other = (3 - board.TO_MOVE[codes]).astype(np.int64)
    kids = codes[:, None] + other[:, None] * board.POW3[None, :]
    win = np.where(other == board.X, board.X_WIN, board.O_WIN)[:, None]
    return board.LEGAL[codes] & (board.OUTCOME[np.where(board.LEGAL[codes], kids, 0)] == win)


@pytest.mark.parametrize("spec", BUILT_IN)
def test_distribution_invariants(spec):
    probs = players.make_player(spec).probs(DECIDE)
    assert (probs >= 0).all()
    np.testing.assert_allclose(probs.sum(1), 1.0, atol=1e-12)
    assert (probs[~board.LEGAL[DECIDE]] == 0).all()  # no mass on occupied squares


@pytest.mark.parametrize("spec", BUILT_IN)
def test_sampled_moves_have_mass(spec):
    player = players.make_player(spec)
    rng = np.random.default_rng(1)
    codes = np.repeat(DECIDE, 3)
    u = np.concatenate([rng.random(len(DECIDE)), np.zeros(len(DECIDE)), np.full(len(DECIDE), 1 - 1e-16)])
    moves = player.sample(codes, u)
    assert (player.probs(codes)[np.arange(len(codes)), moves] > 0).all()


def test_empty_board_is_a_draw():
    assert players.MINIMAX_SCORES[0] == 0


def test_softmax_check_position():
    code = board.parse("X X . / O O . / X O .")
    assert board.TO_MOVE[code] == board.X
    assert players.softmax_values(0.2, 1.0)[code] == pytest.approx(0.9813, abs=5e-5)
    probs = players.make_player("softmax:t=0.2,model_t=1.0").probs([code])[0]
    assert np.flatnonzero(probs).tolist() == [2, 5, 8]
    assert np.round(100 * probs[[2, 5, 8]], 2).tolist() == [97.46, 2.52, 0.02]


def test_logic_never_misses_a_win_or_a_block():
    for develop in ("own", "other"):
        probs = players.make_player(f"logic:eps=0,develop={develop}").probs(DECIDE)
        win, threat = mover_wins(DECIDE), opponent_wins(DECIDE)
        can_win = win.any(1)
        must_block = ~can_win & threat.any(1)
        assert can_win.sum() > 0 and must_block.sum() > 0
        np.testing.assert_allclose((probs * win)[can_win].sum(1), 1.0)
        np.testing.assert_allclose((probs * threat)[must_block].sum(1), 1.0)


def test_logic_hand_drawn_rules():
    logic = players.make_player("logic:eps=0")
    # Rule 1 beats rule 2: O can win at 5 rather than block X's row at 2.
    code = board.parse("X X . / O O . / X . .")
    assert logic.probs([code])[0].tolist() == [0, 0, 0, 0, 0, 1, 0, 0, 0]
    # Rule 2: X must block O's column at 7.
    code = board.parse("X O . / . O . / . . X")
    assert logic.probs([code])[0].tolist() == [0, 0, 0, 0, 0, 0, 0, 1, 0]


def test_logic_develop_own_and_other():
    code = board.parse("X . . / . O . / . . .")  # X to move, no threats
    own = players.make_player("logic:eps=0,develop=own").probs([code])[0]
    other = players.make_player("logic:eps=0,develop=other").probs([code])[0]
    # Own lines with one X and two empties: row 0 (1, 2) and column 0 (3, 6).
    np.testing.assert_allclose(own, np.isin(np.arange(9), [1, 2, 3, 6]) / 4)
    # O's lines with one O and two empties: row 1, column 1, anti-diagonal.
    np.testing.assert_allclose(other, np.isin(np.arange(9), [1, 2, 3, 5, 6, 7]) / 6)
    full_own = players.logic_rule_table("own")[DECIDE]
    full_other = players.logic_rule_table("other")[DECIDE]
    assert not np.allclose(full_own, full_other)


def test_logic_eps_mixes_in_random_moves():
    probs = players.make_player("logic:eps=0.1").probs(DECIDE)
    rules = players.make_player("logic:eps=0").probs(DECIDE)
    uniform = players.make_player("random").probs(DECIDE)
    np.testing.assert_allclose(probs, 0.1 * uniform + 0.9 * rules)


def test_first_open_takes_the_lowest_empty_square():
    player = players.make_player("first-open")
    assert player.deterministic
    lowest = np.argmax(board.LEGAL[DECIDE], axis=1)
    assert (np.argmax(player.probs(DECIDE), axis=1) == lowest).all()
    assert player.probs([board.parse("X O X / . . . / . . .")])[0, 3] == 1


def test_minimax_tiebreak_first_is_deterministic():
    first = players.make_player("minimax:tiebreak=first")
    assert first.deterministic
    best = players.minimax_best_moves()[DECIDE]
    moves = np.argmax(first.probs(DECIDE), axis=1)
    assert (moves == np.argmax(best, axis=1)).all()
    u = np.random.default_rng(0).random((2, len(DECIDE)))
    assert (first.sample(DECIDE, u[0]) == first.sample(DECIDE, u[1])).all()


def test_minimax_random_tiebreak_is_uniform_over_best():
    player = players.make_player("minimax")
    assert not player.deterministic
    np.testing.assert_allclose(player.probs([0])[0], np.full(9, 1 / 9))  # every opening draws


def test_minimax_prefers_the_faster_win():
    code = board.parse("X O O / X . . / . . .")  # X wins now at 6, or later via 4
    optimal = players.minimax_optimal_moves()[code]
    assert optimal[6] and optimal[4]
    assert players.make_player("minimax").probs([code])[0].tolist() == [0, 0, 0, 0, 0, 0, 1, 0, 0]


def test_minimax_prefers_the_slower_loss():
    # O to move is lost whatever it does; blocking at 8 loses later than anything else.
    code = board.parse("X O . / . X . / . . .")
    assert players.MINIMAX_SCORES[code] > 0
    assert players.MINIMAX_SCORES[board.CHILD[code, 8]] < players.MINIMAX_SCORES[board.CHILD[code, 2]]
    assert players.make_player("minimax").probs([code])[0].tolist() == [0, 0, 0, 0, 0, 0, 0, 0, 1]


@pytest.mark.parametrize(
    "spec, message",
    [
        ("foo", "unknown player 'foo'"),
        ("logic:eps=2", "eps must be in [0, 1]"),
        ("softmax:t=-1", "t must be in [0.001, 1000]"),
        ("softmax:t=1e-320", "t must be in [0.001, 1000]"),
        ("softmax:model_t=1e9", "model_t must be in [0.001, 1000]"),
        ("softmax:t=abc", "must be a number"),
        ("logic:colour=red", "unknown parameter 'colour'"),
        ("minimax:tiebreak", "not key=value"),
        ("human", "only in `evoplay game`"),
        ("", "empty"),
    ],
)
def test_bad_specs(spec, message):
    with pytest.raises(SpecError) as err:
        players.make_player(spec)
    assert message in str(err.value)


def test_specs_are_canonical():
    assert players.make_player("logic").spec == players.make_player("logic:develop=own,eps=0.1").spec
    assert players.make_player("softmax:t=0.2").spec == "softmax:t=0.2,model_t=1"
