"""Board rules and tables: known counts of tic-tac-toe and hand-drawn positions."""

import numpy as np
import pytest

from evoplay.tictactoe import board as B


def count_games():
    """Distinct complete games by outcome, counting move sequences layer by layer over CHILD."""
    paths = np.zeros(B.N_CODES, dtype=np.int64)
    paths[0] = 1
    for n in range(9):
        layer = np.flatnonzero((B.N_MARKS == n) & (paths > 0) & (B.OUTCOME == B.ONGOING))
        legal = B.LEGAL[layer]
        np.add.at(paths, B.CHILD[layer][legal], np.repeat(paths[layer], legal.sum(1)))
    return {k: int(paths[B.OUTCOME == k].sum()) for k in (B.X_WIN, B.O_WIN, B.DRAW)}


def test_reachable_positions():
    assert B.REACHABLE.sum() == 5478
    assert len(B.REACHABLE_CODES) == 5478
    assert B.REACHABLE_CODES[0] == 0
    assert len(np.unique(B.REACHABLE_CODES)) == 5478


def test_complete_games():
    games = count_games()
    assert games == {B.X_WIN: 131_184, B.O_WIN: 77_904, B.DRAW: 46_080}
    assert sum(games.values()) == 255_168


def test_decision_codes_are_reachable_and_unfinished():
    assert B.REACHABLE[B.DECISION_CODES].all()
    assert (B.OUTCOME[B.DECISION_CODES] == B.ONGOING).all()
    assert B.LEGAL[B.DECISION_CODES].any(1).all()


@pytest.mark.parametrize(
    "drawing, result",
    [
        ("X X X / O O . / . . .", B.X_WIN),
        ("X X . / O O O / X . .", B.O_WIN),
        ("O X X / . O X / . . O", B.O_WIN),  # diagonal
        ("X O O / . X . / O . X", B.X_WIN),  # diagonal
        ("X O X / O X O / O X X", B.X_WIN),  # full board, won on the last move
        ("X O X / X O O / O X X", B.DRAW),
        ("X X . / O O . / X O .", B.ONGOING),
        (". . . / . . . / . . .", B.ONGOING),
    ],
)
def test_hand_drawn_outcomes(drawing, result):
    assert B.winner(B.parse(drawing)) == result


def test_parse_render_round_trip():
    code = B.parse("X X . / O O . / X O .")
    assert B.decode(code).tolist() == [1, 1, 0, 2, 2, 0, 1, 2, 0]
    assert B.render(code) == "X X .\nO O .\nX O ."
    assert B.render(code, numbers=True) == "X X 2\nO O 5\nX O 8"
    assert B.parse(B.render(code)) == code
    with pytest.raises(ValueError, match="9 squares"):
        B.parse("X X /")


def test_moves_and_side_to_move():
    code = B.parse("X X . / O O . / X O .")
    assert B.TO_MOVE[code] == B.X
    assert B.legal_moves(code) == [2, 5, 8]
    assert B.winner(B.play(code, 2)) == B.X_WIN
    after = B.play(B.parse("X . . / . . . / . . ."), 4)
    assert B.render(after) == "X . .\n. O .\n. . ."
    with pytest.raises(ValueError):
        B.play(code, 0)
    assert not B.LEGAL[B.parse("X X X / O O . / . . .")].any()  # finished: no moves


def test_child_table_marks_one_square():
    codes = B.DECISION_CODES
    for s in range(9):
        ok = B.LEGAL[codes, s]
        kids = B.CHILD[codes[ok], s]
        assert (B.N_MARKS[kids] == B.N_MARKS[codes[ok]] + 1).all()
        assert (B.MARKS[kids, s] == B.TO_MOVE[codes[ok]]).all()
    assert (B.CHILD[~B.LEGAL] == -1).all()


def test_perspective():
    code = B.parse("X O . / . . . / . . .")
    assert B.perspective(code, B.X).tolist() == [1, -1, 0, 0, 0, 0, 0, 0, 0]
    assert B.perspective(code, B.O).tolist() == [-1, 1, 0, 0, 0, 0, 0, 0, 0]
