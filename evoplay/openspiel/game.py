"""An OpenSpiel game behind evoplay's game interface (``evoplay.arena.game.Game``): the
``OpenSpielGame`` adapter, ``load`` that makes one from a checked game string
(``evoplay.openspiel.loading``), and ``bench_moves`` that measures the adapter against pyspiel.

States and moves. A state is a ``pyspiel.State``, never mutated by the adapter: ``apply``
returns ``state.child(move)``. A move is an OpenSpiel action (an int), listed in
``legal_actions()`` order. Moves are written ``action_to_string``; ``parse_move`` reads that
text (exact, else case-insensitive when that picks one move), or the action's number.

Sides. Side 0 is the side that moves first. That is OpenSpiel's player 0 in every eligible
game but chess, antichess and crazyhouse, whose player 0 is Black: there side 0 is White
(OpenSpiel's player 1). ``to_move`` follows ``current_player`` exactly, with that
relabelling: the adapter never assumes that sides alternate, and games where one side makes
several actions in a row (a multi-jump in checkers is one action per jump, an amazon's move
is three actions, an extra turn in mancala or dots and boxes, a board choice in ultimate
tic-tac-toe) keep the same side to move until OpenSpiel's current player changes. A finished
game has no current player; ``to_move`` then says the side that did not make the last
action (the side that would move next were turns to alternate), and ``result`` is the final
score of that side: the sign of its return minus the other's, so +1 won, 0 drawn, -1 lost.

Keys. ``key(state)`` is ``(to_move, finished, digest)`` where the digest (BLAKE2b, 16
bytes) covers the position and the legal actions: the position is OpenSpiel's observation
tensor of player 0 (which, in these perfect-information games, shows the whole board), but
for chess, antichess and crazyhouse the FEN without its move counters (their tensors and
their ``str`` hold the fifty-move count and the repetition count), for shogi the SFEN
without its move number, and for dots and boxes and hex their ``str``: dots and boxes' tensor
also says who drew each line, and hex's marks the stones joined to an edge in an order that
depends on the move order once a side has won (no future depends on either); their ``str``
shows the lines and each box's owner, the stones. The legal actions separate states that share a board but not a
future: a checkers multi-jump in progress (only the jumping piece may go on), an amazon
picked up but not yet moved, a go ko. Equal positions reached by different move orders get
equal keys (transpositions join) while no counter differs: checked by tests/game_conformance.py
on random games of every eligible game, where the two orders draw the same ``str`` (never
the case in havannah and Y, whose ``str`` marks the last stone, nor in hive, whose ``str`` is
its move list: there transpositions go unchecked).
``str(state)`` holds the history or move counters in go and cursor go (``history.size()``),
mancala (move number), nine men's morris (turn number), hive (the move list) and the chess
family (FEN counters); none of them enters the key.

``apply`` of an illegal action raises OpenSpiel's SpielError (a RuntimeError) and OpenSpiel
prints it: pass only ``legal_moves``.

Views and boards. ``views(states)`` is the observation tensor of the side to move, made
egocentric where the family's planes allow, then the side to move; ``board_shape``,
``cells(state)``, ``owners(state)``, ``piece_symbols`` and ``coordinates`` draw the board for
the web, and ``move_squares(state, move)`` lets a person play by clicks on it.
``evoplay.openspiel.layouts`` says how each family lays them out and writes its squares.
"""

from __future__ import annotations

import functools
import hashlib
import random
import time

import numpy as np

from evoplay.errors import EvoplayError
from evoplay.openspiel.layouts import (CHESS, NO_MOVE_SQUARES, NOTATION, PLANE_COUNT, PLANES, SIDE_NAMES, STR_POSITIONS,
                                       SYMBOLS, coordinates, fen_cells, squares_named)
from evoplay.openspiel.loading import PREFIX, canonical_text, load_checked


def load(text: str) -> "OpenSpielGame":
    """The OpenSpiel game written ``text`` (OpenSpiel's game string, ``openspiel:`` optional),
    checked and tried before it is returned (see ``evoplay.openspiel.loading.load_checked``)."""
    return OpenSpielGame(load_checked(text))


class OpenSpielGame:
    """A loaded ``pyspiel.Game`` behind evoplay's game interface (see the module's docstring)."""

    def __init__(self, game):
        self.game = game
        t = game.get_type()
        self.short_name = t.short_name
        self.text = canonical_text(game)
        self.name = self.ref = PREFIX + self.text
        extra = self.text[len(self.short_name) :]
        self.title = t.long_name + (f" {extra.replace(',', ', ')}" if extra else "")
        start = game.new_initial_state()
        self._first = start.current_player()  # OpenSpiel's player who moves first (side 0)
        if self._first not in (0, 1):
            raise EvoplayError(f"OpenSpiel game {self.text!r} does not start with a player's move")
        self.side_names = SIDE_NAMES.get(self.short_name, ("first", "second"))
        #: OpenSpiel's own bound on a game's length, which its rules keep.
        self.max_plies = game.max_game_length()
        self.tensor_shape = tuple(game.observation_tensor_shape())
        self._tensor_size = int(np.prod(self.tensor_shape))
        #: Width of a row of ``views``: the observation tensor, then the side to move.
        self.view_size = self._tensor_size + 1
        self._captures_marked = self.short_name in CHESS  # SAN writes captures with 'x'
        self._board_spec()

    # ---------------------------------------------------------------- set-up

    def _board_spec(self) -> None:
        """board_shape, and how views and cells read the tensor (see PLANES)."""
        self.board_shape = self.coordinates = None
        self.piece_symbols = SYMBOLS.get(self.short_name, {})
        self._planes = None  # (planes, rows, columns) of the tensor for the plane families
        self._swap = None  # plane order of player 1's egocentric view, and the turn
        params = self.game.get_parameters()
        name, shape = self.short_name, self.tensor_shape
        spec = PLANES.get(name)
        if spec is not None and shape[0] == PLANE_COUNT[name]:
            if len(shape) == 3:
                planes = shape
            elif name == "gomoku" and params.get("dims") == 2:
                planes = (shape[0], params["size"], params["size"])
            else:
                planes = None
            if planes is not None and not (name == "hex" and params.get("plain_obs_tensor")):
                self._planes, self.board_shape = planes, (planes[1], planes[2])
                self._pairs, self._marks = spec["pairs"], spec.get("marks", [])
                self._bottom_first = spec.get("bottom_first", False)
                ego = spec.get("ego", False) or bool(params.get(spec.get("ego_param", ""), False))
                turn = spec.get("turn")
                if not ego and not (turn == "transpose" and planes[1] != planes[2]):
                    order = list(range(planes[0]))
                    for a, b, _, _ in self._pairs:
                        order[a], order[b] = b, a
                    self._swap = (np.array(order), turn)
        elif name in CHESS or name == "shogi":
            self.board_shape = (8, 8) if name in CHESS else (9, 9)
        elif name == "xiangqi":
            self.board_shape = (10, 9)
        self._notation = NOTATION.get(name) if self.board_shape is not None else None
        if self._notation is not None:
            self.coordinates = coordinates(self._notation, *self.board_shape)

    # ---------------------------------------------------------------- the interface

    def initial(self):
        return self.game.new_initial_state()

    def to_move(self, state) -> int:
        player = state.current_player()
        if player < 0:  # finished: the side that did not make the last action
            history = state.full_history()
            return (history[-1].player ^ self._first ^ 1) if history else 0
        return player ^ self._first

    def _player(self, state) -> int:
        """OpenSpiel's player of the side ``to_move`` says."""
        return self.to_move(state) ^ self._first

    def legal_moves(self, state) -> list[int]:
        return state.legal_actions()

    def apply(self, state, move):
        return state.child(move)

    def result(self, state) -> int | None:
        if not state.is_terminal():
            return None
        p = self._player(state)
        returns = state.returns()
        diff = returns[p] - returns[1 - p]
        return (diff > 0) - (diff < 0)

    def random_playout(self, state, rng, plies: int) -> tuple[float, float]:
        """``evoplay.arena.mcts.playout``'s random game with its draws, on one copy stepped in place
        (``apply_action``) instead of a new state a ply (``child``): about twice as fast."""
        state = state.clone()
        for _ in range(plies):
            if state.is_terminal():
                r = self.result(state)
                return (r, -r) if self.to_move(state) == 0 else (-r, r)
            moves = state.legal_actions()
            state.apply_action(moves[rng.integers(len(moves))])
        return (0.0, 0.0)

    def is_capture(self, state, move) -> bool:
        """Chess family: whether the move's SAN has 'x'; False in other games."""
        return self._captures_marked and "x" in state.action_to_string(state.current_player(), move)

    def _position(self, state) -> bytes:
        if self.short_name in CHESS:
            return " ".join(str(state).split()[:4]).encode()
        if self.short_name == "shogi":
            return " ".join(str(state).split()[:-1]).encode()
        if self.short_name in STR_POSITIONS:
            return str(state).encode()
        return np.asarray(state.observation_tensor(0), dtype=np.float32).tobytes()

    def key(self, state) -> tuple:
        digest = hashlib.blake2b(self._position(state), digest_size=16)
        digest.update(np.asarray(state.legal_actions(), dtype=np.int64).tobytes())
        finished = state.is_terminal()
        if finished:
            digest.update(np.asarray(state.returns(), dtype=np.float64).tobytes())
        return (self.to_move(state), finished, digest.digest())

    def _tensor_view(self, state, side: int) -> np.ndarray:
        player = side ^ self._first
        t = np.asarray(state.observation_tensor(player), dtype=np.float32)
        if self._swap is not None and player == 1:
            order, turn = self._swap
            t = t.reshape(self._planes)[order]
            if turn == "rot180":
                t = t[:, ::-1, ::-1]
            elif turn == "transpose":
                t = t.transpose(0, 2, 1)
            t = t.reshape(-1)
        return t

    def views(self, states) -> np.ndarray:
        """``(n, view_size)`` float32: each state's observation tensor from the side to move's
        view (egocentric where the module's docstring says), then the side to move."""
        out = np.empty((len(states), self.view_size), dtype=np.float32)
        for i, state in enumerate(states):
            side = self.to_move(state)
            out[i, :-1] = self._tensor_view(state, side)
            out[i, -1] = side
        return out

    def move_text(self, state, move) -> str:
        return state.action_to_string(state.current_player(), move)

    def parse_move(self, state, text: str) -> int:
        """The legal action written ``text`` (as ``move_text`` writes it, or its number)."""
        written = str(text).strip()
        if not written:
            raise ValueError("no move given")
        legal = state.legal_actions()
        if not legal:
            raise ValueError("the game is over: no move is legal")
        player = state.current_player()
        texts = {state.action_to_string(player, a): a for a in legal}
        if written in texts:
            return texts[written]
        folded = [a for t, a in texts.items() if t.lower() == written.lower()]
        if len(folded) == 1:
            return folded[0]
        if written.lstrip("-").isdigit() and int(written) in legal:
            return int(written)
        sample = ", ".join(list(texts)[:12]) + (", ..." if len(texts) > 12 else "")
        raise ValueError(f"{written!r} is not a legal move here (legal: {sample})")

    def render(self, state, numbers: bool = False) -> str:
        """OpenSpiel's ``str(state)`` (``numbers`` is ignored)."""
        return str(state).rstrip("\n")

    # ---------------------------------------------------------------- optional capabilities

    def bench_moves(self, seconds: float = 2.0) -> dict:
        """Random-playout moves per second through this adapter and through pyspiel itself
        (``evoplay bench --game openspiel:NAME``)."""
        return bench_moves(self, seconds)

    def cells(self, state) -> list[str]:
        """One text per square of ``board_shape``, row-major from the top ('' empty); []
        for a game without ``board_shape``."""
        return self._board(state)[0]

    def owners(self, state) -> list:
        """Whose piece is on each square of ``cells``: 0 the side moving first, 1 the other,
        None empty or neutral (an amazons arrow); [] for a game without ``board_shape``."""
        return self._board(state)[1]

    def _board(self, state) -> tuple[list, list]:
        """(cells, owners): from player 0's tensor planes (each pair's first plane is OpenSpiel's
        player 0's), else from the FEN, SFEN or ``str``, where a capital letter is the side
        moving first's piece (White's in chess, Sente's in shogi, the first mover's in xiangqi)."""
        if self.board_shape is None:
            return [], []
        if self._planes is not None:
            t = np.asarray(state.observation_tensor(0), dtype=np.float32).reshape(self._planes[0], -1)
            out, owner = [""] * t.shape[1], [None] * t.shape[1]
            side_of = (self._first, 1 - self._first)  # OpenSpiel's player p is side p ^ first
            drawn = [(a, s, side_of[0]) for a, _, s, _ in self._pairs] + [(b, s, side_of[1]) for _, b, _, s in self._pairs]
            for plane, text, side in drawn + [(plane, text, None) for plane, text in self._marks]:
                for i in np.flatnonzero(t[plane] > 0):
                    out[i], owner[i] = text, side
            if self._bottom_first:
                w = self.board_shape[1]
                rows = range(self.board_shape[0] - 1, -1, -1)
                out = [c for r in rows for c in out[r * w : (r + 1) * w]]
                owner = [c for r in rows for c in owner[r * w : (r + 1) * w]]
            return out, owner
        text = str(state)
        if self.short_name in CHESS:
            out = fen_cells(text.split()[0].split("[")[0], 8)
        elif self.short_name == "shogi":
            out = fen_cells(text.split()[0], 9)
        else:
            rows = [line.strip() for line in text.splitlines() if line.strip()][: self.board_shape[0]]
            out = ["" if c == "." else c for row in rows for c in row[: self.board_shape[1]]]
        return out, [None if not c else 0 if c[-1].isupper() else 1 for c in out]

    def move_squares(self, state, move) -> list[tuple]:
        """The squares (row, column) an action names, from-square first, read from its action
        string (``evoplay.openspiel.layouts.NOTATION``); [] where the family's strings name no
        squares or not all of them (the chess family's SAN), and for a pass."""
        if self._notation is None or self.short_name in NO_MOVE_SQUARES:
            return []
        rows, columns = self.board_shape
        named = squares_named(self._notation, self.move_text(state, move), rows, columns)
        if named and named[0][0] is None:  # connect four: the disc lands on the column's lowest empty cell
            column, cells = named[0][1], self.cells(state)
            empty = [r for r in range(rows) if not cells[r * columns + column]]
            return [(empty[-1], column)] if empty else []
        return named

    @functools.cached_property
    def work_per_game(self) -> float:
        """Mean plies of four uniformly random games (seeded; each capped at 2,000 plies)."""
        rng = random.Random(0)
        plies = 0
        for _ in range(4):
            state = self.game.new_initial_state()
            n = 0
            while not state.is_terminal() and n < 2000:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
                n += 1
            plies += n
        return plies / 4

    def __repr__(self) -> str:
        return f"<OpenSpielGame {self.name}>"


def bench_moves(game, seconds: float = 2.0, seed: int = 0) -> dict:
    """Random-playout moves per second through the adapter (``legal_moves``, ``apply``,
    ``result``) and through raw pyspiel (``legal_actions`` and ``apply_action`` on one state),
    in alternating rounds of the same run; ``game`` is an OpenSpielGame or its text."""
    if not isinstance(game, OpenSpielGame):
        game = load(game)

    def adapter(budget: float, rng: random.Random) -> tuple[int, int, float]:
        moves = games = 0
        state = game.initial()
        t0 = time.perf_counter()
        end = t0 + budget
        while True:
            for _ in range(64):
                if game.result(state) is not None:
                    state, games = game.initial(), games + 1
                moves_here = game.legal_moves(state)
                state = game.apply(state, moves_here[rng.randrange(len(moves_here))])
                moves += 1
            now = time.perf_counter()
            if now >= end:
                return moves, games, now - t0

    def raw(budget: float, rng: random.Random) -> tuple[int, int, float]:
        moves = games = 0
        pg = game.game
        state = pg.new_initial_state()
        t0 = time.perf_counter()
        end = t0 + budget
        while True:
            for _ in range(64):
                if state.is_terminal():
                    state, games = pg.new_initial_state(), games + 1
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
                moves += 1
            now = time.perf_counter()
            if now >= end:
                return moves, games, now - t0

    totals = {"adapter": [0, 0, 0.0], "raw": [0, 0, 0.0]}
    rngs = {"adapter": random.Random(seed), "raw": random.Random(seed)}
    for _ in range(2):
        for label, fn in (("adapter", adapter), ("raw", raw)):
            m, g, dt = fn(seconds / 4, rngs[label])
            totals[label][0] += m
            totals[label][1] += g
            totals[label][2] += dt
    a, r = (totals[k][0] / totals[k][2] for k in ("adapter", "raw"))
    return {
        "game": game.name,
        "seconds": seconds,
        "adapter_moves_per_s": a,
        "raw_moves_per_s": r,
        "adapter_over_raw": a / r,
        "adapter_games": totals["adapter"][1],
        "raw_games": totals["raw"][1],
    }
