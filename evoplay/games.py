"""The game interface every game implements, and the registry of games by name.

Two-player, perfect-information, deterministic games, written as pure functions over an
immutable state (as pgx and OpenSpiel games are). Scores are from the view of the side to
move: +1 won, 0 drawn, -1 lost. Search, players and matches are written once against this
protocol; each game package holds only what is particular to it.
"""

from __future__ import annotations

import importlib
from typing import Hashable, Protocol, Sequence

import numpy as np

from evoplay.errors import EvoplayError


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
        """Batched board of each state from the side to move's view: ``(n, squares)`` int8,
        own pieces positive, the other side's negative, 0 empty."""

    def move_text(self, state, move) -> str: ...

    def parse_move(self, state, text: str):
        """The legal move written ``text``; ValueError naming the problem otherwise."""

    def render(self, state, numbers: bool = False) -> str: ...


#: name -> "module:attribute" of the game object (imported when first asked for).
GAMES = {
    "tictactoe": "evoplay.tictactoe.game:TICTACTOE",
    "checkers": "evoplay.checkers.game:CHECKERS",
}


def get_game(name: str) -> Game:
    """The game registered as ``name``."""
    if name not in GAMES:
        raise EvoplayError(f"unknown game {name!r} (known: {', '.join(GAMES)})")
    module, _, attr = GAMES[name].partition(":")
    return getattr(importlib.import_module(module), attr)


def play_out(game: Game, state, rng: np.random.Generator, max_plies: int = 10_000) -> list:
    """The states of a uniformly random game from ``state`` to its end (for tests and openings)."""
    states = [state]
    while game.result(state) is None and len(states) <= max_plies:
        moves = game.legal_moves(state)
        state = game.apply(state, moves[rng.integers(len(moves))])
        states.append(state)
    return states
