"""Board rules and tables: known counts of tic-tac-toe and hand-drawn positions."""

import numpy as np
import pytest

from evoplay.tictactoe import board


def count_games():
    """Distinct complete games by outcome, counting move sequences layer by layer over CHILD."""
    paths = np.zeros(board.N_CODES, dtype=np.int64)
    paths[0] = 1
    for n in range(9):
        layer = np.flatnonzero((board.N_MARKS == n) & (paths > 0) & (board.OUTCOME == board.ONGOING))
        legal = board.LEGAL[layer]
        np.add.at(paths, board.CHILD[layer][legal], np.repeat(paths[layer], legal.sum(1)))
    return {k: int(paths[board.OUTCOME == k].sum()) for k in (board.X_WIN, board.O_WIN, board.DRAW)}


def test_reachable_positions():
    assert board.REACHABLE.sum() == 5478
    assert len(board.REACHABLE_CODES) == 5478
    assert board.REACHABLE_CODES[0] == 0
    assert len(np.unique(board.REACHABLE_CODES)) == 5478


def test_complete_games():
    games = count_games()
    assert games == {board.X_WIN: 131_184, board.O_WIN: 77_904, board.DRAW: 46_080}
    assert sum(games.values()) == 255_168


def test_decision_codes_are_reachable_and_unfinished():
    assert board.REACHABLE[board.DECISION_CODES].all()
    assert (board.OUTCOME[board.DECISION_CODES] == board.ONGOING).all()
    assert board.LEGAL[board.DECISION_CODES].any(1).all()


@pytest.mark.parametrize(
    "drawing, result",
    [
        ("X X X / O O . / . . .", board.X_WIN),
        ("X X . / O O O / X . .", board.O_WIN),
        ("O X X / . O X / . . O", board.O_WIN),  # diagonal
        ("X O O / . X . / O . X", board.X_WIN),  # diagonal
        ("X O X / O X O / O X X", board.X_WIN),  # full board, won on the last move
        ("X O X / X O O / O X X", board.DRAW),
        ("X X . / O O . / X O .", board.ONGOING),
        (". . . / . . . / . . .", board.ONGOING),
    ],
)
def test_hand_drawn_outcomes(drawing, result):
    assert board.winner(board.parse(drawing)) == result


def test_parse_render_round_trip():
    code = board.parse("X X . / O O . / X O .")
    assert board.decode(code).tolist() == [1, 1, 0, 2, 2, 0, 1, 2, 0]
    assert board.render(code) == "X X .\nO O .\nX O ."
    assert board.render(code, numbers=True) == "X X 2\nO O 5\nX O 8"
    assert board.parse(board.render(code)) == code
    with pytest.raises(ValueError, match="9 squares"):
        board.parse("X X /")


def test_moves_and_side_to_move():
    code = board.parse("X X . / O O . / X O .")
    assert board.TO_MOVE[code] == board.X
    assert board.legal_moves(code) == [2, 5, 8]
    assert board.winner(board.play(code, 2)) == board.X_WIN
    after = board.play(board.parse("X . . / . . . / . . ."), 4)
    assert board.render(after) == "X . .\n. O .\n. . ."
    with pytest.raises(ValueError):
        board.play(code, 0)
    assert not board.LEGAL[board.parse("X X X / O O . / . . .")].any()  # finished: no moves


def test_child_table_marks_one_square():
    codes = board.DECISION_CODES
    for s in range(9):
        ok = board.LEGAL[codes, s]
        kids = board.CHILD[codes[ok], s]
        assert (board.N_MARKS[kids] == board.N_MARKS[codes[ok]] + 1).all()
        assert (board.MARKS[kids, s] == board.TO_MOVE[codes[ok]]).all()
    assert (board.CHILD[~board.LEGAL] == -1).all()


def test_perspective():
    code = board.parse("X O . / . . . / . . .")
    assert board.perspective(code, board.X).tolist() == [1, -1, 0, 0, 0, 0, 0, 0, 0]
    assert board.perspective(code, board.O).tolist() == [-1, 1, 0, 0, 0, 0, 0, 0, 0]
