"""What the JSON API computes: checked requests in, plain dicts out.

Positions travel as nine characters, row by row, ``X``, ``O`` or ``.`` for an empty
square (``"X...O...."``). Every defect of a request raises ``ApiError`` with a 4xx status
and one line naming it; nothing here writes anywhere.
"""

from __future__ import annotations

import functools
import math
import os
import threading

import numpy as np

from evoplay.errors import EvoplayError
from evoplay.tictactoe import board as B
from evoplay.tictactoe import exact
from evoplay.tictactoe.playerfile import load_player
from evoplay.tictactoe.players import INTERACTIVE, MINIMAX_SCORES, REGISTRY, Player, parse_spec
from evoplay.web.archive import is_elite_spec
from evoplay.web.roots import ApiError, Roots

MAX_SPEC = 1000
RESULTS = {B.ONGOING: "ongoing", B.X_WIN: "x_win", B.O_WIN: "o_win", B.DRAW: "draw"}
MARK_CHARS = {"X": B.X, "O": B.O, ".": B.EMPTY}
HUMAN = INTERACTIVE[0]


def board_text(code: int) -> str:
    return "".join(".XO"[m] for m in B.decode(code))


def parse_board(value) -> int:
    """The code of a board sent as nine characters of X, O and '.'; 400 if malformed."""
    if not isinstance(value, str):
        raise ApiError(400, f"board must be a string of 9 characters X, O or '.', got {type(value).__name__}")
    if len(value) != B.N_SQUARES:
        raise ApiError(400, f"board must have 9 squares, got {len(value)} characters in {value[:20]!r}")
    bad = sorted({c for c in value if c not in MARK_CHARS})
    if bad:
        raise ApiError(400, f"board {value!r} has characters other than X, O and '.': {''.join(bad)!r}")
    code = B.encode([MARK_CHARS[c] for c in value])
    if not B.REACHABLE[code]:
        n_x, n_o = value.count("X"), value.count("O")
        raise ApiError(400, f"board {value!r} cannot arise in a game (X has {n_x} marks, O {n_o}; X moves first and play stops at a win)")
    return code


def parse_square(value, code: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(400, f"square must be an integer 0-8, got {value!r}")
    if not 0 <= value < B.N_SQUARES:
        raise ApiError(400, f"there is no square {value}: squares are 0-8")
    if B.winner(code) != B.ONGOING:
        raise ApiError(400, f"the game is over ({RESULTS[B.winner(code)].replace('_', ' ')}): no more moves")
    if not B.LEGAL[code, value]:
        raise ApiError(400, f"square {value} is taken")
    return value


def check_fields(body, required: tuple, optional: tuple = ()) -> dict:
    if not isinstance(body, dict):
        raise ApiError(400, "request body must be a JSON object")
    missing = [k for k in required if k not in body]
    if missing:
        raise ApiError(400, f"missing field {missing[0]!r}")
    unknown = sorted(set(body) - set(required) - set(optional))
    if unknown:
        raise ApiError(400, f"unknown field {unknown[0]!r} (fields: {', '.join(required + optional)})")
    return body


@functools.lru_cache(maxsize=32)
def _builtin(name: str, params: tuple) -> Player:
    factory, _ = REGISTRY[name]
    return factory(**dict(params))


class PlayerBook:
    """Player specs sent by the page, turned into players; files only from inside the roots.

    Built-in players and player files are kept in small caches (softmax tables are 1.4 MB
    each, and a slider can ask for many).
    """

    def __init__(self, roots: Roots, archives=None):
        self.roots = roots
        self.archives = archives
        self._files: dict = {}
        self._lock = threading.Lock()

    def get(self, spec, what: str) -> Player | None:
        """The player named by ``spec``, None for ``human``; 4xx ApiError naming ``what``."""
        if not isinstance(spec, str) or not spec.strip():
            raise ApiError(400, f"{what}: player spec must be a non-empty string")
        spec = spec.strip()
        if len(spec) > MAX_SPEC:
            raise ApiError(400, f"{what}: player spec is longer than {MAX_SPEC} characters")
        if spec == HUMAN:
            return None
        if self.archives is not None and is_elite_spec(spec):
            return self._elite(spec, what)
        if spec.endswith(".json") or "/" in spec or os.sep in spec:
            return self._file(spec, what)
        try:
            name, params = parse_spec(spec)
        except EvoplayError as e:
            raise ApiError(400, f"{what}: {e}") from None
        return _builtin(name, tuple(sorted(params.items())))

    def _elite(self, spec: str, what: str) -> Player:
        """An elite of a MAP-Elites run's archive (``RUN#trial=T,cell=K,elite=J``), as a table player."""
        from evoplay.recipes.fogel.nets import net_player

        root, trial, cell, rank, net = self.archives.elite(spec, what)
        key = ("elite", root.real, trial, cell, rank, net.ident)
        with self._lock:
            player = self._files.get(key)
        if player is None:
            player = net_player(net, spec)
            with self._lock:
                if len(self._files) >= 16:
                    self._files.pop(next(iter(self._files)))
                self._files[key] = player
        return player

    def _file(self, spec: str, what: str) -> Player:
        try:
            real = self.roots.resolve(spec)
        except ApiError as e:
            raise ApiError(e.status, f"{what}: {e.message}") from None
        try:
            stat = real.stat()
        except OSError:
            raise ApiError(404, f"{what}: player file not found: {spec}") from None
        key = (real, stat.st_mtime_ns, stat.st_size)
        with self._lock:
            player = self._files.get(key)
        if player is None:
            try:
                player = load_player(real)
            except EvoplayError as e:  # name the file as the page did, not by its real path
                raise ApiError(400, f"{what}: {str(e).replace(str(real), spec)}") from None
            with self._lock:
                if len(self._files) >= 16:
                    self._files.pop(next(iter(self._files)))
                self._files[key] = player
        return player


def _finite(probs: np.ndarray, spec: str) -> np.ndarray:
    if not np.isfinite(probs).all():
        raise ApiError(422, f"player {spec} gives non-finite move probabilities on this board")
    return probs


def minimax_values(code: int) -> list:
    """Per square: the minimax result of playing there, for the side to move.

    ``score`` is the minimax score from the mover's view (``10 - marks`` at the end of a
    won game, 0 for a draw), ``result`` win/draw/loss, ``plies`` the moves left to the end
    of the game under perfect play, this one included. None for squares not playable.
    """
    sign = 1.0 if B.TO_MOVE[code] == B.X else -1.0
    values = []
    for s in range(B.N_SQUARES):
        child = int(B.CHILD[code, s])
        if child < 0:
            values.append(None)
            continue
        score = sign * float(MINIMAX_SCORES[child])
        end_marks = 9 if score == 0 else 10 - abs(score)
        result = "win" if score > 0 else "loss" if score < 0 else "draw"
        values.append({"score": score, "result": result, "plies": int(end_marks - B.N_MARKS[code])})
    return values


def winning_line(code: int) -> list | None:
    marks = B.decode(code)
    for line in B.LINES:
        a, b, c = marks[line]
        if a != B.EMPTY and a == b == c:
            return [int(s) for s in line]
    return None


def analyze(book: PlayerBook, body) -> dict:
    """What evoplay knows about a position for the two chosen players."""
    check_fields(body, ("board", "x", "o"), ("human_model", "minimax"))
    code = parse_board(body["board"])
    x, o = book.get(body["x"], "X player"), book.get(body["o"], "O player")
    model_spec = body.get("human_model", "random")
    model = book.get(model_spec, "human model")
    if model is None:
        raise ApiError(400, "human model: must be a computer player, not 'human'")
    want_minimax = body.get("minimax", False)
    if not isinstance(want_minimax, bool):
        raise ApiError(400, f"minimax must be true or false, got {want_minimax!r}")
    result = B.winner(code)
    ongoing = result == B.ONGOING
    x_moves = bool(B.TO_MOVE[code] == B.X)
    mover, mover_spec = (x, body["x"]) if x_moves else (o, body["o"])
    probs = None
    if ongoing and mover is not None:
        probs = _finite(mover.probs(np.array([code]))[0], mover_spec).tolist()
    outcome = exact.outcome(x if x is not None else model, o if o is not None else model, code)
    values = [outcome.x_win, outcome.draw, outcome.o_win]
    if not all(math.isfinite(v) for v in values):
        raise ApiError(422, "these players give non-finite outcome probabilities")
    return {
        "board": board_text(code),
        "result": RESULTS[result],
        "to_move": ("X" if x_moves else "O") if ongoing else None,
        "line": winning_line(code),
        "legal": B.legal_moves(code),
        "probs": probs,
        "exact": {
            "x_win": outcome.x_win,
            "draw": outcome.draw,
            "o_win": outcome.o_win,
            "x_modelled": x is None,
            "o_modelled": o is None,
            "human_model": model_spec.strip(),
        },
        "minimax": minimax_values(code) if want_minimax and ongoing else None,
    }


def human_move(body) -> dict:
    """A square chosen on the page, checked against the board."""
    check_fields(body, ("board", "square"))
    code = parse_board(body["board"])
    square = parse_square(body["square"], code)
    return {"board": board_text(B.play(code, square)), "square": square}


def computer_move(book: PlayerBook, body) -> dict:
    """The move a computer player makes on the board (sampled; ``seed`` repeats it)."""
    check_fields(body, ("board", "player"), ("seed",))
    code = parse_board(body["board"])
    if B.winner(code) != B.ONGOING:
        raise ApiError(400, f"the game is over ({RESULTS[B.winner(code)].replace('_', ' ')}): no more moves")
    player = book.get(body["player"], "player")
    if player is None:
        raise ApiError(400, "player: 'human' moves by clicking a square, not by computer")
    seed = body.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise ApiError(400, f"seed must be a non-negative integer, got {seed!r}")
    _finite(player.probs(np.array([code]))[0], body["player"])
    u = np.random.default_rng(seed).random(1)
    square = int(player.choose(np.array([code]), u)[0])
    return {"board": board_text(B.play(code, square)), "square": square}
