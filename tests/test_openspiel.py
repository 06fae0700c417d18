"""The OpenSpiel adapter (evoplay.openspiel): OpenSpiel's games behind evoplay's game interface,
checked against evoplay's own tic-tac-toe and checkers, and for conformance game by game."""

import re
import time
from collections import deque

import numpy as np
import pytest

pytest.importorskip("pyspiel")

from evoplay.checkers import engine as E  # noqa: E402
from evoplay.errors import EvoplayError  # noqa: E402
from evoplay.openspiel import bench_moves, eligible_games, load  # noqa: E402
from evoplay.tictactoe import board as B  # noqa: E402
from evoplay.tictactoe.game import TICTACTOE  # noqa: E402
from game_conformance import conformance  # noqa: E402

#: The registered games that load with default parameters and pass the adapter (open_spiel 2.0.2).
ELIGIBLE = [
    "amazons", "antichess", "breakthrough", "checkers", "chess", "chinese_checkers", "clobber",
    "connect_four", "crazyhouse", "cursor_go", "dots_and_boxes", "go", "gomoku", "havannah", "hex",
    "hive", "lines_of_action", "mancala", "mnk", "nim", "nine_mens_morris", "othello", "oware",
    "pentago", "quoridor", "shogi", "tic_tac_toe", "twixt", "ultimate_tic_tac_toe", "xiangqi", "y",
]  # fmt: skip


# ---------------------------------------------------------------- tic-tac-toe, both ways


def negamax(game, state, memo) -> int:
    """Exact value for the side to move, over the interface, not assuming alternation."""
    k = game.key(state)
    if k not in memo:
        r = game.result(state)
        if r is not None:
            memo[k] = r
        else:
            side = game.to_move(state)
            values = []
            for m in game.legal_moves(state):
                child = game.apply(state, m)
                v = negamax(game, child, memo)
                values.append(v if game.to_move(child) == side else -v)
            memo[k] = max(values)
    return memo[k]


def reachable(game):
    """Every state reachable from the start, one per key (BFS)."""
    start = game.initial()
    seen = {game.key(start): start}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if game.result(state) is not None:
            continue
        for m in game.legal_moves(state):
            child = game.apply(state, m)
            if game.key(child) not in seen:
                seen[game.key(child)] = child
                queue.append(child)
    return list(seen.values())


def spiel_board(state) -> tuple:
    """Marks 0 empty, 1 X, 2 O of OpenSpiel's tic-tac-toe, read from its text, row-major."""
    text = "".join(c for c in str(state) if c in "xo.")
    assert len(text) == 9
    return tuple({"x": B.X, "o": B.O, ".": B.EMPTY}[c] for c in text)


def spiel_square(game, state, action) -> int:
    """The square of an OpenSpiel tic-tac-toe action, read from its text ``x(row,col)``."""
    r, c = map(int, re.fullmatch(r"[xo]\((\d),(\d)\)", game.move_text(state, action)).groups())
    return 3 * r + c


def test_tictactoe_agrees_with_evoplays_on_every_reachable_position():
    spiel = load("tic_tac_toe")
    ours = {tuple(int(m) for m in B.decode(s)): s for s in reachable(TICTACTOE)}
    theirs = {spiel_board(s): s for s in reachable(spiel)}
    assert len(ours) == len(theirs) == 5478 and set(ours) == set(theirs)
    memo_ours, memo_theirs = {}, {}
    boards = sorted(ours)
    views = spiel.views([theirs[b] for b in boards])
    own_minus_other = views[:, 18:27] - views[:, 9:18]  # egocentric planes [empty, other, own]
    assert (own_minus_other == TICTACTOE.views([ours[b] for b in boards])).all()
    for i, board in enumerate(boards):
        a, b = ours[board], theirs[board]
        assert spiel.to_move(b) == TICTACTOE.to_move(a) == views[i, -1]
        assert spiel.result(b) == TICTACTOE.result(a), board
        if TICTACTOE.result(a) is None:
            assert sorted(spiel_square(spiel, b, m) for m in spiel.legal_moves(b)) == TICTACTOE.legal_moves(a)
        assert negamax(spiel, b, memo_theirs) == negamax(TICTACTOE, a, memo_ours), board
    assert negamax(spiel, spiel.initial(), memo_theirs) == 0
