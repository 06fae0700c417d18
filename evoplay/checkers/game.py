"""Checkers behind the game interface (``evoplay.arena.game.Game``).

What checkers offers beyond the protocol (``evoplay.arena.game.FEATURES``: its players,
the three-move ballots as openings, the compiled network search, its benchmark) is
declared on the class itself; each imports its module when first asked, so the rules
import none of it.

Views turn the board so the side to move always sits on squares 1-12 moving down: square
``s`` of White's view is square ``33 - s`` of the board. Men count 1, kings 2 (an
evaluator picks its own king value).
"""

from __future__ import annotations

import numba
import numpy as np

from evoplay.checkers import rules
from evoplay.networks.arithmetic import JIT  # already loaded with the rules (their move generator is compiled)

_SHIFTS = np.arange(32, dtype=np.uint64)


def _bits(words) -> np.ndarray:
    return ((np.asarray(words, dtype=np.uint64)[:, None] >> _SHIFTS) & np.uint64(1)).astype(np.int8)


def board_views(black, white, kings, turn) -> np.ndarray:
    """``(n, 32)`` int8 boards from the side to move's view, from arrays of bitboards."""
    b, w, k = _bits(black), _bits(white), _bits(kings)
    view = (b - w) * (1 + k)
    white_turn = np.asarray(turn) == rules.WHITE
    view[white_turn] = -view[white_turn, ::-1]
    return view


@numba.njit(**JIT)
def _views(keys, out):
    """``board_views`` of rows (black, white, kings, turn) of ``keys`` into ``out``, square by square:
    one compiled call where the arrays' dozen take tens of microseconds (TDLeaf views one leaf a ply)."""
    for r in range(keys.shape[0]):
        b, w, k, white = keys[r, 0], keys[r, 1], keys[r, 2], keys[r, 3] == rules.WHITE
        for s in range(32):
            v = (((b >> s) & 1) - ((w >> s) & 1)) * (1 + ((k >> s) & 1))
            if white:
                out[r, 31 - s] = -v
            else:
                out[r, s] = v


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
    #: The board page: the 32 dark squares numbered as the moves name them, kings marked, a
    #: position written as a PDN FEN, piece difference as the analysis player.
    square_names = tuple(str(4 * r + c // 2 + 1) if (r + c) % 2 else "" for r in range(8) for c in range(8))
    piece_symbols = {"B": "K", "W": "K"}
    player_labels = {"piece-difference": "piece-difference (material count)"}
    analyst = "piece-difference:depth=4"

    def __init__(self, quiet_limit: int = rules.QUIET_LIMIT):
        self.quiet_limit = quiet_limit
        self.name = "checkers" if quiet_limit == rules.QUIET_LIMIT else f"checkers:quiet={quiet_limit}"
        #: The rules end every game before this: fewer than ``quiet_limit`` plies pass between
        #: two that make progress, and there are at most 2 x 12 x 7 man steps and 24 captures.
        self.max_plies = (2 * 12 * 7 + 24 + 1) * quiet_limit

    def initial(self) -> rules.State:
        return rules.initial()

    def to_move(self, state) -> int:
        return state.turn

    def legal_moves(self, state) -> list[tuple]:
        return rules.legal_moves(state)

    def apply(self, state, move) -> rules.State:
        return rules.apply(state, move)

    def result(self, state) -> int | None:
        return rules.result(state, self.quiet_limit)

    def is_capture(self, state, move) -> bool:
        return rules.is_capture(move)

    def key(self, state) -> tuple:
        return state.key

    def views(self, states) -> np.ndarray:
        """``board_views`` of the states (one compiled call)."""
        keys = np.array([s.key for s in states], dtype=np.int64).reshape(-1, 4)
        out = np.empty((len(keys), 32), dtype=np.int8)
        _views(keys, out)
        return out

    def move_text(self, state, move) -> str:
        return rules.move_text(move)

    def parse_move(self, state, text: str) -> tuple:
        return rules.parse_move(state, text)

    def render(self, state, numbers: bool = False) -> str:
        return rules.render(state, numbers)

    @property
    def players(self) -> dict:
        """Its own player specs (``piece-difference``) beside every game's."""
        from evoplay.checkers.players import registry

        return registry(self)

    def heuristic(self, views):
        """Piece difference from the side to move's view, kings 1.5 (``alpha-beta``'s leaves)."""
        from evoplay.checkers.players import piece_difference

        return piece_difference(1.5)(views)

    def openings(self) -> list:
        """The 157 three-move ballots' positions, in order (matches start from them)."""
        from evoplay.checkers.openings import ballots

        return [s for _, s in ballots()]

    def network_search(self, state, depth: int, genome, sizes, king: float, quiescence: bool = False):
        """The compiled alpha-beta with a Blondie24 network at the leaves: the generic search's value and move.
        ``genome`` is the network's weights, or the network prepared once for many searches
        (``evoplay.networks.evalnet.prepare(genome, sizes, king)``)."""
        from evoplay.checkers.search import search

        return search(state, depth, king, quiescence, self.quiet_limit,
                      network=genome if isinstance(genome, tuple) else (genome, sizes))

    def network_line(self, state, depth: int, genome, sizes, king: float, quiescence: bool = False):
        """(moves, the state they lead to) of ``network_search`` at depths ``depth``, ``depth - 1``,
        ... 1, each from the state the line's moves so far lead to, stopping where the game ends:
        TDLeaf's principal variation in one compiled call (``evoplay.checkers.search.principal_line``).
        Arguments as ``network_search``'s."""
        from evoplay.checkers.search import principal_line

        return principal_line(state, depth, king, quiescence, self.quiet_limit,
                              network=genome if isinstance(genome, tuple) else (genome, sizes))

    def warm_up(self) -> None:
        """Compile (or load from numba's cache) the engine's and the search's kernels and,
        where open_spiel is installed, the search that sets positions up for ``openspiel-mcts``."""
        import importlib.util

        from evoplay.checkers import engine, search

        engine.perft(*engine.START, 2)
        search.search(rules.initial(), 2)
        if importlib.util.find_spec("pyspiel") is not None:  # an optional extra
            from evoplay.checkers import spielboard

            spielboard.setup(spielboard.cells(rules.initial()), rules.BLACK)

    def bench_figures(self, quick: bool = False, progress=None) -> dict:
        """perft, leaves per second, seconds per game (``evoplay bench --game checkers``)."""
        from evoplay.checkers.bench import figures

        return figures(self, quick=quick) if progress is None else figures(self, quick=quick, progress=progress)

    def bench_text(self, result: dict) -> list[str]:
        """The lines ``evoplay bench --game checkers`` prints for ``bench_figures``."""
        from evoplay.checkers.bench import figures_text

        return figures_text(result)

    def cells(self, state) -> list[str]:
        """One text per square of the 8x8 board, row by row from Black's side ('' where empty
        or light): 'b', 'w' for men, 'B', 'W' for kings."""
        out = []
        for r in range(8):
            for c in range(8):
                s = 4 * r + c // 2
                dark = (r + c) % 2 == 1
                on = dark and (state.black >> s & 1 or state.white >> s & 1)
                out.append(rules.SYMBOLS[rules.BLACK if state.black >> s & 1 else rules.WHITE, bool(state.kings >> s & 1)] if on else "")
        return out

    def move_squares(self, state, move) -> list[int]:
        """The cells of the squares a move passes through (its squares are numbered 1-32)."""
        return [(n - 1) // 4 * 8 + 2 * ((n - 1) % 4) + (1 - (n - 1) // 4 % 2) for n in move]

    def position_text(self, state) -> str:
        return rules.to_fen(state)

    def parse_position(self, text: str):
        return rules.from_fen(text)

    def owners(self, state) -> list:
        """Whose piece is on each square of ``cells``: 0 Black's (men and kings), 1 White's, None empty."""
        return [None if not text else 0 if text.lower() == "b" else 1 for text in self.cells(state)]


CHECKERS = Checkers()
