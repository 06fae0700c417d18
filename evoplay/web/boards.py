"""The API of the game board page, written once for every game of ``evoplay.games``.

A game in progress travels as its start (the game's initial position unless ``start``
names another, e.g. a PDN FEN for checkers) and the list of moves played since, in the
game's notation (``"11-15"``, ``"22x15"``; a tic-tac-toe square ``"4"``). The server
replays them, so every move is checked and the draw rules (no-progress count,
repetition) see the whole game. What differs between games (how players are named, how
a position is drawn and read) is in a small ``WebGame`` per game; the rest is shared.
"""

from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass
from typing import Callable

import numpy as np

from evoplay.errors import EvoplayError
from evoplay.games import GAMES, get_game
from evoplay.search import move_scores, principal_variation
from evoplay.web.api import check_fields
from evoplay.web.roots import ApiError, Roots

HUMAN = "human"
MAX_MOVES = 1000
MAX_TEXT = 200
#: Deepest analysis the page may ask for (the generic search, in Python).
MAX_ANALYSIS_DEPTH = 6


@dataclass(frozen=True)
class WebGame:
    """What the board page needs that differs between games."""

    make_player: Callable  # spec or real file path -> player of the arena interface
    registry: dict  # name -> (factory, schema), for the page's menu
    cells: Callable  # state -> rows of cells {"square": str | None, "piece": str}
    parse_start: Callable  # text -> state (ValueError naming the problem)
    start_text: Callable  # state -> text parse_start reads back
    search_parts: Callable  # player -> (evaluator, depth, quiescence) or None


# ---------------------------------------------------------------- checkers


def _checkers() -> WebGame:
    from evoplay.checkers import players as P
    from evoplay.checkers import rules as R
    from evoplay.recipes.blondie24.network import Evaluator
    from evoplay.recipes.blondie24.play import CheckersNetPlayer

    def cells(state):
        rows = []
        for r in range(8):
            row = []
            for c in range(8):
                if (r + c) % 2 == 0:
                    row.append({"square": None, "piece": ""})
                    continue
                s = 4 * r + c // 2
                piece = ""
                if state.black >> s & 1 or state.white >> s & 1:
                    piece = R.SYMBOLS[R.BLACK if state.black >> s & 1 else R.WHITE, bool(state.kings >> s & 1)]
                row.append({"square": str(s + 1), "piece": piece, "king": bool(state.kings >> s & 1)})
            rows.append(row)
        return rows

    def search_parts(player):
        if isinstance(player, P.PieceDifferencePlayer):
            return P.piece_difference(player.king), player.depth, False
        if isinstance(player, CheckersNetPlayer):
            return Evaluator(player.genome, player.sizes, player.king), player.depth, player.quiescence
        return None

    return WebGame(P.make_player, P.REGISTRY, cells, R.from_fen, R.to_fen, search_parts)


# ---------------------------------------------------------------- tic-tac-toe


class _Batched:
    """A tic-tac-toe player (batched over board codes) as a player of the arena interface."""

    def __init__(self, player):
        self.player, self.spec = player, getattr(player, "spec", "")

    def choose(self, state, rng):
        return int(self.player.choose(np.array([state]), rng.random(1))[0])


def _tictactoe() -> WebGame:
    from evoplay.tictactoe import board as B
    from evoplay.tictactoe.playerfile import load_player
    from evoplay.tictactoe.players import REGISTRY, make_player

    def make(spec):
        spec = str(spec).strip()
        return _Batched(load_player(spec) if spec.endswith(".json") else make_player(spec))

    def cells(state):
        marks = B.decode(state)
        return [[{"square": str(3 * r + c), "piece": ".XO"[marks[3 * r + c]].strip(".")} for c in range(3)]
                for r in range(3)]

    def parse_start(text):
        code = B.parse(text)
        if not B.REACHABLE[code]:
            raise ValueError(f"board {text!r} cannot arise in a game")
        return code

    def start_text(state):
        return "".join(".XO"[m] for m in B.decode(state))

    return WebGame(make, REGISTRY, cells, parse_start, start_text, lambda player: None)


ADAPTERS = {"checkers": _checkers, "tictactoe": _tictactoe}


@functools.lru_cache(maxsize=None)
def web_game(name: str) -> WebGame:
    return ADAPTERS[name]()


def game_named(name: str):
    """The game and its web adapter; 404 for a game evoplay does not have."""
    if name not in GAMES or name not in ADAPTERS:
        raise ApiError(404, f"unknown game {name!r} (known: {', '.join(g for g in GAMES if g in ADAPTERS)})")
    return get_game(name), web_game(name)


# ---------------------------------------------------------------- positions and moves


def _text(value, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ApiError(400, f"{what} must be a non-empty string, got {value!r}"[:300])
    if len(value) > MAX_TEXT:
        raise ApiError(400, f"{what} is longer than {MAX_TEXT} characters")
    return value.strip()


def replay(game, adapter: WebGame, body: dict):
    """The state after ``body["moves"]``, the moves in canonical notation, and the start state."""
    start = body.get("start")
    if start is None:
        state = game.initial()
    else:
        try:
            state = adapter.parse_start(_text(start, "start"))
        except ValueError as e:
            raise ApiError(400, f"start: {e}") from None
    moves = body.get("moves", [])
    if not isinstance(moves, list):
        raise ApiError(400, f"moves must be a list of moves, got {type(moves).__name__}")
    if len(moves) > MAX_MOVES:
        raise ApiError(400, f"moves: more than {MAX_MOVES} moves")
    played, first = [], state
    for i, text in enumerate(moves):
        state, move = play(game, state, text, f"move {i + 1}")
        played.append(move)
    return state, played, first


def play(game, state, text, what: str):
    """The state after the move written ``text``, and the move's canonical text; 400 if illegal."""
    text = _text(text, what)
    if game.result(state) is not None:
        raise ApiError(400, f"{what} {text}: the game is over")
    try:
        move = game.parse_move(state, text)
    except ValueError as e:
        raise ApiError(400, f"{what}: {e}") from None
    return game.apply(state, move), game.move_text(state, move)


def describe(game, adapter: WebGame, state, played: list, start, first) -> dict:
    """What the page draws: the board, whose turn, the legal moves and the result."""
    r = game.result(state)
    mover = game.side_names[game.to_move(state)]
    if r is None:
        result, winner = "ongoing", None
    elif r == 0:
        result, winner = "draw", None
    else:  # the side to move has lost
        result, winner = "win", game.side_names[1 - game.to_move(state)]
    legal = game.legal_moves(state) if r is None else []
    return {
        "game": game.name,
        "start": start,
        "position": adapter.start_text(state),
        "moves": played,
        "cells": adapter.cells(state),
        "to_move": mover if r is None else None,
        "start_to_move": game.side_names[game.to_move(first)],
        "sides": list(game.side_names),
        "result": result,
        "winner": winner,
        "legal": [{"text": game.move_text(state, m), "path": _path(m), "capture": bool(game.is_capture(state, m))}
                  for m in legal],
    }


def _path(move) -> list[str]:
    return [str(s) for s in move] if isinstance(move, tuple) else [str(move)]


# ---------------------------------------------------------------- players


class Players:
    """Player specs sent by the page, as players of one game; files only from inside the roots."""

    def __init__(self, roots: Roots):
        self.roots = roots

    def get(self, game, spec, what: str):
        """The player ``spec`` names, None for ``human``; 4xx ApiError naming ``what``."""
        spec = _text(spec, f"{what}: player spec")
        if spec == HUMAN:
            return None
        if spec.endswith(".json") or "/" in spec:
            try:
                real = self.roots.resolve(spec)
            except ApiError as e:
                raise ApiError(e.status, f"{what}: {e.message}") from None
            if not real.exists():  # a file, or a run directory where the game's players read one
                raise ApiError(404, f"{what}: player file not found: {spec}")
            stat = real.stat()
            return self._load(game.name, str(real), (stat.st_mtime_ns, stat.st_size), spec, what)
        return self._load(game.name, spec, None, spec, what)

    @staticmethod
    def _load(name, source, stamp, spec, what):
        try:
            return _cached(name, source, stamp)
        except EvoplayError as e:  # name the file as the page did, not by its real path
            raise ApiError(400, f"{what}: {str(e).replace(source, spec)}") from None


@functools.lru_cache(maxsize=32)
def _cached(name, source, stamp):
    """A player by its spec or real file path (``stamp``: the file's mtime and size, so an
    edited file is read again); networks and tables are costly to rebuild per request."""
    return web_game(name).make_player(source)


def players(game, adapter: WebGame, roots: Roots) -> dict:
    """The built-in players of a game with their parameters, and the player files served."""
    listed = [{"name": HUMAN, "params": {}}]
    for name, (factory, schema) in adapter.registry.items():
        defaults = {k: p.default for k, p in inspect.signature(factory).parameters.items()}
        listed.append(
            {"name": name, "params": {k: {"type": t.__name__, "default": defaults[k]} for k, (t, _) in schema.items()}}
        )
    return {"game": game.name, "sides": list(game.side_names), "builtin": listed, "files": roots.player_files()}


# ---------------------------------------------------------------- requests


def state_of(name: str, body) -> dict:
    game, adapter = game_named(name)
    check_fields(body, (), ("start", "moves"))
    state, played, first = replay(game, adapter, body)
    return describe(game, adapter, state, played, body.get("start"), first)


def human_move(name: str, body) -> dict:
    game, adapter = game_named(name)
    check_fields(body, ("move",), ("start", "moves"))
    state, played, first = replay(game, adapter, body)
    state, text = play(game, state, body["move"], "move")
    return describe(game, adapter, state, played + [text], body.get("start"), first) | {"move": text}


def computer_move(book: Players, name: str, body) -> dict:
    game, adapter = game_named(name)
    check_fields(body, ("player",), ("start", "moves", "seed"))
    state, played, first = replay(game, adapter, body)
    if game.result(state) is not None:
        raise ApiError(400, "the game is over: no more moves")
    player = book.get(game, body["player"], "player")
    if player is None:
        raise ApiError(400, "player: 'human' moves by clicking, not by computer")
    seed = body.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise ApiError(400, f"seed must be a non-negative integer, got {seed!r}")
    move = player.choose(state, np.random.default_rng(seed))
    text = game.move_text(state, move)
    return describe(game, adapter, game.apply(state, move), played + [text], body.get("start"), first) | {"move": text}


def analysis(book: Players, name: str, body) -> dict:
    """The search's principal variation and every legal move's score, for the side to move,
    as the chosen search player sees them (its evaluator; its depth unless ``depth`` is sent)."""
    game, adapter = game_named(name)
    check_fields(body, ("player",), ("start", "moves", "depth"))
    state, _, _ = replay(game, adapter, body)
    if game.result(state) is not None:
        raise ApiError(400, "the game is over: nothing to analyse")
    spec = body["player"]
    player = book.get(game, spec, "player")
    parts = None if player is None else adapter.search_parts(player)
    if parts is None:
        raise ApiError(400, f"player {str(spec).strip()} does not search: analysis needs a search player "
                            "(piece-difference or a network file)")
    evaluate, depth, quiescence = parts
    if "depth" in body:
        depth = body["depth"]
        if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_ANALYSIS_DEPTH:
            raise ApiError(400, f"depth must be an integer 1-{MAX_ANALYSIS_DEPTH}, got {depth!r}")
    elif depth > MAX_ANALYSIS_DEPTH:
        raise ApiError(400, f"the player searches {depth} plies; send depth 1-{MAX_ANALYSIS_DEPTH} to analyse here")
    scores = move_scores(game, state, depth, evaluate, quiescence)
    line = principal_variation(game, state, depth, evaluate, quiescence)
    pv, s = [], state
    for move in line:
        pv.append(game.move_text(s, move))
        s = game.apply(s, move)
    return {
        "player": str(spec).strip(),
        "depth": depth,
        "to_move": game.side_names[game.to_move(state)],
        "value": max(v for _, v in scores),
        "pv": pv,
        "scores": [{"move": game.move_text(state, m), "score": v} for m, v in scores],
    }
