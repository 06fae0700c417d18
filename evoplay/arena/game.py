"""The game interface every game implements: the protocol, its defaults, and the helpers that
search, players and matches use on any game.

Two-player, perfect-information, deterministic games, written as pure functions over an
immutable state (as pgx and OpenSpiel games are). Scores are from the view of the side to
move: +1 won, 0 drawn, -1 lost. Search, players and matches are written once against this
protocol; each game package holds only what is particular to it.
"""

from __future__ import annotations

from typing import Hashable, NamedTuple, Protocol, Sequence

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


class Labelled:
    """A user's game with the ``name``, ``side_names`` or ``ref`` it lacks, as evoplay names
    it, the user's object left as it is: every other attribute is the game's own (its
    methods bound to the user's object)."""

    def __init__(self, game, **given):
        self.__dict__.update(given, _game=game)

    def __getattr__(self, attr):
        game = self.__dict__.get("_game")
        if game is None or attr.startswith("__"):  # unpickling, copying: not the game's
            raise AttributeError(attr)
        return getattr(game, attr)


def unwrapped(game):
    """The user's own game object behind a ``Labelled`` one (``game`` itself otherwise)."""
    return game.__dict__["_game"] if isinstance(game, Labelled) else game


class Feature(NamedTuple):
    """One thing a game may offer beyond the rules: its value when the game does not say."""

    default: object
    doc: str


# Everything a game may offer beyond the rules, declared once with its default, in the parts
# of OpenSpiel's ``GameType``/``GameInfo``: a game offers one by having an attribute of that
# name (a value, or a method where the doc says "(...) ->"); code asks ``capability(game,
# NAME)``, which refuses a name not declared here.

#: The facts a game declares as data: what it is called, how long it lasts, how matches are played.
FACTS = {
    "title": Feature(None, "the name people know the game by (default: its reference)"),
    "view_size": Feature(None, "the width of a state's row of ``views``, where the game declares it"),
    "max_plies": Feature(None, "the most plies of a game; one still on after them is a draw "
                               "(default: DEFAULT_MAX_PLIES)"),
    "exact": Feature(False, "whether ``pair_result`` computes matches exactly (``match --exact``)"),
    "match_games": Feature(20, "games per pairing of a sampled match when --games is not given"),
    "default_opponent": Feature("mcts:sims=1000", "the computer player ``evoplay game`` and the board page offer"),
    "openings": Feature(None, "() -> the positions matches start from, in order (a set of ballots: opening moves drawn in advance)"),
    "king_inputs": Feature(False, "whether views hold kings as +-2, read by a network as +-K"),
}


#: How the one board page and the terminal draw a position and take a move by clicks.
BOARD = {
    "board_shape": Feature(None, "(rows, columns) of the board the game is drawn on, or None"),
    "cells": Feature(None, "(state) -> one short text per cell of ``board_shape``, row by row ('' empty)"),
    "owners": Feature(None, "(state) -> whose piece is on each cell of ``board_shape``, row by row: 0 the side "
                            "moving first, 1 the other side, None an empty or neutral cell (the board page "
                            "draws each side's pieces in its own colour; without it, the ``cells`` texts)"),
    "piece_symbols": Feature({}, "{text of ``cells``: symbol} written on a side's piece (a king's 'K', a chess "
                                 "glyph); a piece whose text is not listed is a plain disc in its side's colour"),
    "coordinates": Feature(None, "(row labels from the top row down, column labels from the left) in the "
                                 "game's own notation, drawn beside the board"),
    "move_squares": Feature(None, "(state, move) -> the cells a move touches, from-square first, as indices "
                                  "row * columns + column or (row, column) pairs; [] for a move on no square "
                                  "(a pass): the board page plays a move by clicks on its squares"),
    "move_prompt": Feature(None, "what a person at the terminal is asked for (default: an example move)"),
    "square_names": Feature(None, "the name of each cell of ``board_shape``, row by row, as the game's moves name it "
                                  "('' for a cell no piece stands on, drawn plain and never clicked): the board page "
                                  "writes it in the cell's corner and clicks cells by it (default: none written, the "
                                  "cells clicked by index)"),
    "position_text": Feature(None, "(state) -> the position as a text ``parse_position`` reads back (a FEN, "
                                   "say): the board page shows it and may start from it (default: the ``render`` text)"),
    "parse_position": Feature(None, "(text) -> the state ``position_text`` wrote; ValueError naming the problem "
                                    "(default: games start from their initial position only)"),
    "look": Feature(None, "how the board page draws the board: None, a grid of squares with pieces on them; "
                          "'marks', squares apart, each taking a side's mark (its ``piece_symbols``), shaded by "
                          "the probability of a move there where the page has the exact facts"),
}


#: The game's own players beside every game's (``evoplay.arena.specs``).
PLAYERS = {
    "players": Feature({}, "its own player specs: name -> (factory(game, params), schema), beside every game's"),
    "make_player": Feature(None, "(spec) -> player: its own way to read every spec (tic-tac-toe's table players)"),
    "heuristic": Feature(None, "(views) -> scores of the side to move: the evaluation ``alpha-beta`` uses "
                               "at unfinished leaves (default: 0 there)"),
    "player_labels": Feature({}, "{its own player's name: the label the board page's menus show for it}"),
    "analyst": Feature(None, "the spec of the search player the board page offers to analyse a position "
                             "(default: none offered)"),
    "board_players": Feature(None, "the two sides' specs when the board page opens (default: 'human' against "
                                   "``default_opponent``)"),
    "player_sliders": Feature({}, "{its own player's name: {parameter: slider}} the board page draws for it; a "
                                  "slider: {'label', 'min', 'max', 'log' (the value is 10 ** position), 'ends': "
                                  "(left word, right word)}"),
}


#: What recipes read of a game: how Blondie24's champions are judged, how a run chunks its games.
RECIPE_HINTS = {
    "yardstick": Feature("baselines", "how champions are judged: 'exact', 'piece-difference' or 'baselines'"),
    "work_per_game": Feature(20_000, "one game's work in Fogel-game units, for the runner's chunking "
                                      "(default: an 8x8 draughts game searched to depth 4)"),
}


#: Faster ways to do what the generic code does (the same results): batched matches, compiled searches, benchmarks.
ACCELERATORS = {
    "pair_result": Feature(None, "(first, second, games, rng, progress) -> a pairing's results in batches; "
                                 "exact with games=None where ``exact``; None for players it cannot batch"),
    "exact_analysis": Feature(None, "(player, opponent) -> analyze's exact facts about player against opponent "
                                    "(a dict); None for players it cannot analyse exactly, which are analysed over "
                                    "sampled games"),
    "search_table": Feature(None, "(evaluate, depth) -> a search player's move on every position at once"),
    "network_search": Feature(None, "(state, depth, genome, sizes, king, quiescence) -> the compiled search "
                                    "with an evaluation network at the leaves (genome: the weights, or the "
                                    "network prepared by ``evoplay.networks.evalnet.prepare`` once for many searches)"),
    "network_line": Feature(None, "(state, depth, genome, sizes, king, quiescence) -> (moves, leaf state): "
                                  "network_search at depths depth..1 along its own line, in one compiled call"),
    "random_playout": Feature(None, "(state, rng, plies) -> what ``evoplay.arena.mcts.playout`` gives: the final "
                                    "scores (side moving first, other side) of a uniformly random game from "
                                    "``state``, each ply's move ``legal_moves[rng.integers(len(moves))]``, a draw "
                                    "once ``plies`` are played; for a game with a faster way to step than ``apply``"),
    "warm_up": Feature(None, "() -> compile (or load from numba's cache) the game's own compiled kernels, "
                             "as make setup does once"),
    "bench_figures": Feature(None, "(quick, progress) -> the game's own benchmark figures (``evoplay bench``)"),
    "bench_text": Feature(None, "(figures) -> the lines ``evoplay bench`` prints for ``bench_figures``"),
    "bench_moves": Feature(None, "(seconds) -> random-playout throughput measured the game's own way"),
}


#: Every declared feature.
FEATURES = {**FACTS, **BOARD, **PLAYERS, **RECIPE_HINTS, **ACCELERATORS}


def capability(game, name: str):
    """What ``game`` offers as the declared feature ``name`` (``FEATURES``), or its default."""
    if name not in FEATURES:
        raise KeyError(f"{name!r} is not a declared game feature (see evoplay.arena.game.FEATURES)")
    return getattr(game, name, FEATURES[name].default)


#: Most plies of a game that declares no ``max_plies``: five times Blondie24's 200-ply cap
#: and beyond most board games' length (chess averages under 100 moves a side), so it cuts
#: a game that would not end, not a long one; 1,000 random plies take milliseconds.
DEFAULT_MAX_PLIES = 1000


def ply_limit(game) -> int:
    """The most plies of a game of ``game``: its ``max_plies``, else ``DEFAULT_MAX_PLIES``;
    a game still on after them is a draw, so nothing waits on a game that never ends."""
    return capability(game, "max_plies") or DEFAULT_MAX_PLIES


def play_out(game: Game, state, rng: np.random.Generator, max_plies: int = 10_000) -> list:
    """The states of a uniformly random game from ``state`` to its end (for tests and openings)."""
    states = [state]
    while game.result(state) is None and len(states) <= max_plies:
        moves = game.legal_moves(state)
        state = game.apply(state, moves[rng.integers(len(moves))])
        states.append(state)
    return states
