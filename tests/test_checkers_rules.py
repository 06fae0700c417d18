"""Checkers rules and engine: published perft counts, hand-drawn positions, notation, draws."""

import numpy as np
import pytest

from evoplay.checkers import engine
from evoplay.checkers import rules

#: Perft from the initial position (A. Bik's table, confirmed by other engine authors).
PERFT = {1: 7, 2: 49, 3: 302, 4: 1469, 5: 7361, 6: 36768, 7: 179740, 8: 845931, 9: 3963680, 10: 18391564}


@pytest.mark.parametrize("depth", range(1, 10))
def test_perft_from_the_start(depth):
    assert engine.perft(*engine.START, depth) == PERFT[depth]


@pytest.mark.slow
def test_perft_10():
    assert engine.perft(*engine.START, 10) == PERFT[10]


def python_perft(state, depth):
    if depth == 0:
        return 1
    return sum(python_perft(rules.apply(state, m), depth - 1) for m in rules.legal_moves(state))


def test_python_layer_agrees_with_the_compiled_perft():
    assert python_perft(rules.initial(), 5) == PERFT[5]


def test_opening_moves_in_order():
    assert [rules.move_text(m) for m in rules.legal_moves(rules.initial())] == [
        "9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"
    ]


DOUBLE_JUMP = """
   .   .   .   .
 .   .   .   .
   b   .   .   .
 .   w   .   .
   .   .   .   .
 .   .   w   .
   .   .   .   .
 .   .   .   .
"""


def test_a_multi_jump_is_one_move_and_captures_are_forced():
    state = rules.parse_board(DOUBLE_JUMP)
    assert rules.render(state) == DOUBLE_JUMP.strip("\n")
    assert rules.legal_moves(state) == [(9, 18, 27)]
    after = rules.apply(state, (9, 18, 27))
    assert after.white == 0 and after.black == 1 << 26 and after.turn == rules.WHITE
    assert rules.result(after) == -1  # White has nothing left


CROWNING = """
   .   .   .   .
 .   .   .   .
   .   .   .   .
 .   .   .   .
   .   .   .   w
 .   b   .   .
   .   w   w   .
 .   .   .   .
"""


def test_crowning_ends_the_move():
    state = rules.parse_board(CROWNING)
    # As a king on 31 it could go on over 27; a man crowned there must stop.
    assert rules.legal_moves(state) == [(22, 31)]
    after = rules.apply(state, (22, 31))
    assert after.kings == 1 << 30 and after.white & (1 << 25) == 0
    assert rules.move_text((22, 31)) == "22x31"


KING_BACK = """
   .   .   .   .
 .   .   .   .
   .   .   .   .
 .   W   .   .
   .   .   .   .
 .   .   .   .
   .   .   .   .
 .   b   .   .
"""


def test_kings_move_both_ways_and_men_only_forward():
    state = rules.parse_board(KING_BACK, turn=rules.WHITE)
    assert rules.legal_moves(state) == [(14, 9), (14, 10), (14, 17), (14, 18)]
    black = state._replace(turn=rules.BLACK)
    assert rules.legal_moves(black) == []  # a man on the last row is never left uncrowned, but it cannot move back
    assert rules.result(black) == -1


KING_JUMPS_BACK = """
   .   .   .   .
 .   .   .   .
   .   .   .   .
 .   w   .   .
   .   B   .   .
 .   w   w   .
   .   .   .   .
 .   .   .   .
"""


def test_king_captures_backwards_and_distinct_paths_are_distinct_moves():
    state = rules.parse_board(KING_JUMPS_BACK)
    moves = rules.legal_moves(state)
    assert moves == sorted(moves)
    assert (18, 9) in moves and (18, 25) in moves and (18, 27) in moves
    assert all(rules.is_capture(m) for m in moves)


def test_fen_round_trip_and_format():
    start = rules.initial()
    fen = rules.to_fen(start)
    assert fen == "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    assert rules.from_fen(fen) == start
    assert rules.from_fen("B:W21-32:B1-12") == start
    rng = np.random.default_rng(3)
    state = start
    for _ in range(300):
        moves = rules.legal_moves(state)
        if not moves:
            break
        state = rules.apply(state, moves[rng.integers(len(moves))])
        key = rules.from_fen(rules.to_fen(state)).key
        assert key == state.key
    assert rules.from_fen("W:WK3,20:BK30").kings == (1 << 2) | (1 << 29)


@pytest.mark.parametrize("bad", ["", "B:W21", "X:W1:B2", "B:W1,1:B2", "B:W1:B1", "B:W33:B1", "B:Wa:B1"])
def test_malformed_positions_are_refused(bad):
    with pytest.raises(ValueError):
        rules.from_fen(bad)


def test_move_notation():
    start = rules.initial()
    assert rules.parse_move(start, "11-15") == (11, 15)
    assert rules.parse_move(start, " 11 - 15 ") == (11, 15)
    for bad in ("11-14", "15-19", "a-b", "40-44", "", "11"):
        with pytest.raises(ValueError):
            rules.parse_move(start, bad)
    jump = rules.parse_board(DOUBLE_JUMP)
    assert rules.parse_move(jump, "9x27") == (9, 18, 27)
    assert rules.parse_move(jump, "9x18x27") == (9, 18, 27)


AMBIGUOUS = """
   .   .   .   .
 .   .   .   .
   .   .   .   .
 .   .   w   w
   .   B   .   .
 .   .   w   w
   .   .   .   .
 .   .   .   .
"""


def test_a_king_going_round_either_way_is_two_moves_and_from_to_is_ambiguous():
    state = rules.parse_board(AMBIGUOUS)
    loops = [m for m in rules.legal_moves(state) if m[0] == m[-1] == 18]
    assert len(loops) == 2 and len(loops[0]) == 5
    with pytest.raises(ValueError, match="ambiguous"):
        rules.parse_move(state, "18x18")
    assert rules.parse_move(state, rules.move_text(loops[1])) == loops[1]


SHUFFLE = """
   B   .   .   .
 .   .   .   .
   .   .   .   .
 .   .   .   .
   .   .   .   .
 .   .   .   .
   .   .   .   .
 .   .   .   W
"""


def test_threefold_repetition_and_the_quiet_count_draw():
    state = rules.parse_board(SHUFFLE)
    cycle = [(1, 6), (32, 27), (6, 1), (27, 32)]
    seen = []
    for i in range(8):
        assert rules.result(state) is None
        seen.append(state.key)
        state = rules.apply(state, cycle[i % 4])
    # The start position now stands for the third time.
    assert seen.count(state.key) == 2 and rules.result(state) == 0
    assert state.quiet == 8
    assert rules.result(state._replace(history=()), quiet_limit=8) == 0
    assert rules.result(state._replace(history=()), quiet_limit=9) is None


def test_a_man_move_or_capture_resets_the_draw_count():
    state = rules.initial()._replace(quiet=40, history=((1, 2, 3, 0),))
    after = rules.apply(state, (11, 15))
    assert after.quiet == 0 and after.history == ()


def test_views_turn_the_board_for_white():
    from evoplay.checkers.game import CHECKERS

    start = rules.initial()
    white_first = start._replace(turn=rules.WHITE)
    assert (CHECKERS.views([start]) == CHECKERS.views([white_first])).all()
    king = rules.from_fen("W:WK32:B1")
    view = CHECKERS.views([king])[0]
    assert view[0] == 2 and view[31] == -1 and (view[1:31] == 0).all()
