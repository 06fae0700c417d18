"""The game interface every game implements: the protocol, its defaults, and the helpers that
search, players and matches use on any game.

Two-player, perfect-information, deterministic games, written as pure functions over an
immutable state (as pgx and OpenSpiel games are). Scores are from the view of the side to
move: +1 won, 0 drawn, -1 lost. Search, players and matches are written once against this
protocol; each game package holds only what is particular to it.
"""

from __future__ import annotations

from typing import Hashable, Protocol, Sequence

import numpy as np


class Game(Protocol):
    """What search, players and matches need of a game."""

    name: str
    #: Names of the side moving first and the side moving second.
    side_names: tuple[str, str]

    def initial(self): ...

    def to_move(self, state) -> int:
        """0 when the side moving first is to move, 1 for the other side."""

    def legal_moves(self, state) -> list:
        """Legal moves of an unfinished state, in a fixed, documented order."""

    def apply(self, state, move):
        """The state after ``move``, one of ``legal_moves(state)``; ``state`` is unchanged."""

    def result(self, state) -> int | None:
        """None while the game is on, else the final score of the side to move."""

    def is_capture(self, state, move) -> bool:
        """Whether a move is noisy (searched first, and by quiescence search)."""

    def key(self, state) -> Hashable:
        """Canonical encoding of the position (equal positions, equal keys)."""

    def views(self, states: Sequence) -> np.ndarray:
        """Batched inputs of each state from the side to move's view: ``(n, width)``, one
        width for every state of a game. The built-in games give int8 boards, own pieces
        positive, the other side's negative, 0 empty (kings +-2); an OpenSpiel game its
        observation tensor as the mover sees it, flattened, and a column for the side to move."""

    def move_text(self, state, move) -> str: ...

    def parse_move(self, state, text: str):
        """The legal move written ``text``; ValueError naming the problem otherwise."""

    def render(self, state, numbers: bool = False) -> str: ...


class BaseGame:
    """Defaults for the parts of the protocol a simple game need not write: no captures,
    moves written as ``str(move)`` and read back by matching those texts, ``str(state)``
    as the rendering. Subclass it and write the seven rules (``initial`` .. ``views``)."""

    side_names = ("first", "second")

    def is_capture(self, state, move) -> bool:
        return False

    def move_text(self, state, move) -> str:
        return str(move)

    def parse_move(self, state, text: str):
        text = str(text).strip()
        for move in self.legal_moves(state):
            if self.move_text(state, move) == text:
                return move
        raise ValueError(f"{text!r} is not a legal move here")

    def render(self, state, numbers: bool = False) -> str:
        return str(state)


#: What every game must have (``BaseGame`` gives the last four their defaults).
REQUIRED = ("initial", "to_move", "legal_moves", "apply", "result", "key", "views",
            "is_capture", "move_text", "parse_move", "render")


def game_ref(game) -> str:
    """The reference that rebuilds ``game`` (on any node): its ``ref``, else its ``name``."""
    return getattr(game, "ref", None) or game.name


def capability(game, name: str, default=None):
    """An optional part of a game (title, board_shape, players, ...), or ``default``."""
    return getattr(game, name, default)


def play_out(game: Game, state, rng: np.random.Generator, max_plies: int = 10_000) -> list:
    """The states of a uniformly random game from ``state`` to its end (for tests and openings)."""
    states = [state]
    while game.result(state) is None and len(states) <= max_plies:
        moves = game.legal_moves(state)
        state = game.apply(state, moves[rng.integers(len(moves))])
        states.append(state)
    return states
