"""Checkers behind the game interface (``evoplay.games.Game``).

Views turn the board so the side to move always sits on squares 1-12 moving down: square
``s`` of White's view is square ``33 - s`` of the board. Men count 1, kings 2 (an
evaluator picks its own king value).
"""

from __future__ import annotations

import numpy as np

from evoplay.checkers import rules as R

_SHIFTS = np.arange(32, dtype=np.uint64)


def _bits(words) -> np.ndarray:
    return ((np.asarray(words, dtype=np.uint64)[:, None] >> _SHIFTS) & np.uint64(1)).astype(np.int8)


def board_views(black, white, kings, turn) -> np.ndarray:
    """``(n, 32)`` int8 boards from the side to move's view, from arrays of bitboards."""
    b, w, k = _bits(black), _bits(white), _bits(kings)
    view = (b - w) * (1 + k)
    white_turn = np.asarray(turn) == R.WHITE
    view[white_turn] = -view[white_turn, ::-1]
    return view


class Checkers:
    """English draughts; ``quiet_limit`` plies without a capture or man move draw."""

    side_names = ("Black", "White")
    title = "Checkers"
    board_shape = (8, 8)
    #: Views hold kings as +-2: a Blondie24 network reads them as +-K, K evolved.
    king_inputs = True
    #: Work of one game at depth 4, in Fogel-game equivalents (the runner's chunking unit).
    work_per_game = 20_000
    #: Players are judged against piece-difference over the three-move ballots.
    yardstick = "piece-difference"
    #: ``evoplay game``'s computer player when --vs is not given.
    default_opponent = "piece-difference"

    @property
    def players(self) -> dict:
        """Checkers' own player specs (``piece-difference``), beside every game's."""
        from evoplay.checkers.players import REGISTRY

        return REGISTRY

    def __init__(self, quiet_limit: int = R.QUIET_LIMIT):
        self.quiet_limit = quiet_limit
        self.name = "checkers" if quiet_limit == R.QUIET_LIMIT else f"checkers:quiet={quiet_limit}"

    def initial(self) -> R.State:
        return R.initial()

    def to_move(self, state) -> int:
        return state.turn

    def legal_moves(self, state) -> list[tuple]:
        return R.legal_moves(state)

    def apply(self, state, move) -> R.State:
        return R.apply(state, move)

    def result(self, state) -> int | None:
        return R.result(state, self.quiet_limit)

    def is_capture(self, state, move) -> bool:
        return R.is_capture(move)

    def key(self, state) -> tuple:
        return state.key

    def views(self, states) -> np.ndarray:
        cols = np.array([s.key for s in states], dtype=np.uint64).reshape(-1, 4)
        return board_views(cols[:, 0], cols[:, 1], cols[:, 2], cols[:, 3].astype(np.int64))

    def move_text(self, state, move) -> str:
        return R.move_text(move)

    def parse_move(self, state, text: str) -> tuple:
        return R.parse_move(state, text)

    def render(self, state, numbers: bool = False) -> str:
        return R.render(state, numbers)

    def network_search(self, state, depth: int, genome, sizes, king: float, quiescence: bool = False):
        """The compiled alpha-beta with a Blondie24 network at the leaves (``checkers.search``):
        the generic search's value and move, many times faster."""
        from evoplay.checkers.search import search

        return search(state, depth, king, quiescence, self.quiet_limit, network=(genome, sizes))

    def bench_figures(self, quick: bool = False, progress=None) -> dict:
        """perft, search leaves per second and seconds per game (``evoplay bench --game checkers``)."""
        from evoplay.checkers.bench import figures

        return figures(quick=quick, progress=progress)

    def openings(self) -> list:
        """The 157 three-move ballots' positions, in order (matches start from them)."""
        from evoplay.checkers.openings import ballots

        return [s for _, s in ballots()]


CHECKERS = Checkers()
