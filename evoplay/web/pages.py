"""What the one board page shows of a game (``Page``), drawn from what the game declares
(``page``: its board, square names, position text, players' labels and sliders, analysis
player; ``evoplay.arena.game.FEATURES``), and the analysis panel a page may add beside the
board (``Panel``: tic-tac-toe's exact facts, ``evoplay.web.tictactoe``). No game declares a
page: checkers, tic-tac-toe, OpenSpiel's games and a user's all play on this one."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Callable, Mapping

from evoplay.arena.game import capability, game_ref


@dataclass(frozen=True)
class Panel:
    """What a page shows beside the board that only a game's whole tree can give (tic-tac-toe's
    exact facts): ``facts(state, [(spec, player or None)] x2, body, get)`` -> the facts of the
    position for the two sides (None where a side gives nothing exact), ``fields`` the request
    fields it reads, ``human_model`` the player standing in for a human side unless the page
    names another, ``values`` {"field", "label"} of the values per square the page may ask for."""

    facts: Callable
    fields: tuple
    human_model: str
    values: Mapping | None = None


@dataclass(frozen=True)
class Page:
    """What the board page draws of one game, made from the game's declarations (``page``)."""

    build: Callable  # a built-in player's spec, or a real file or run directory path -> player
    registry: dict  # name -> (factory, schema), for the page's menu
    cells: Callable  # state -> rows of cells {"square": str | None, "num", "piece", "owner", "label"}
    parse_start: Callable  # text -> state (ValueError naming the problem)
    start_text: Callable  # state -> text parse_start reads back
    default_players: tuple  # the two sides' specs when the page opens
    analyst: str | None = None  # the search player the page offers for analysis, None: no search player
    sliders: Mapping = field(default_factory=dict)  # built-in name -> {param: slider}, drawn by the page
    move_path: Callable | None = None  # (state, move) -> the squares clicked for it
    coordinates: dict | None = None  # {"rows": [...], "columns": [...]}: labels drawn beside the board
    labels: Mapping = field(default_factory=dict)  # built-in name -> its label in the page's menus
    look: str | None = None  # how the page draws the board (the game's ``look``)
    panel: Panel | None = None  # the analysis panel beside the board, None: none

    def squares(self, state, move) -> list[str]:
        """The squares a move is clicked on, from-square first ([] where the game declares none)."""
        return [] if self.move_path is None else self.move_path(state, move)


def searching(player):
    """(evaluator, depth, quiescence) of a player that searches with an evaluator of its own
    (``alpha-beta``, piece difference, a network), None for one that does not."""
    evaluate = getattr(player, "evaluate", None)
    return None if evaluate is None else (evaluate, player.depth, getattr(player, "quiescence", False))


def page(game, panel: Panel | None = None) -> Page:
    """The board page of a game from what it offers (``evoplay.arena.game.FEATURES``): a grid of
    its ``board_shape`` with the texts of ``cells(state)`` where it has both, else its ``render``
    text (``describe``); each side's pieces in its own colour where it declares ``owners``
    (``piece_symbols`` written on them), its ``coordinates`` beside the board, its
    ``square_names`` in the cells' corners; moves played by clicks on their ``move_squares``, or
    from the list of legal moves; a start read by its ``parse_position``; the players every game
    has, its own (labelled by its ``player_labels``), and its player files; any player that
    searches with an evaluation of its own for analysis, the game's ``analyst`` offered."""
    from evoplay.arena.players import build as build_spec
    from evoplay.arena.specs import is_path, make_player, registry

    shape, texts = capability(game, "board_shape"), capability(game, "cells")
    owners, symbols = capability(game, "owners"), dict(capability(game, "piece_symbols") or {})
    squares = capability(game, "move_squares")
    drawn = bool(shape) and texts is not None
    rows, cols = shape if drawn else (0, 0)
    declared = capability(game, "square_names")
    named = _names(declared, rows * cols) if drawn and declared is not None else None

    def cells(state):
        """The board's rows of squares; [] where the game is drawn as its text."""
        flat = list(texts(state)) if drawn else []
        if not flat or len(flat) != rows * cols:
            return []
        whose = _owners(owners(state), len(flat)) if owners is not None else [None] * len(flat)
        squares_drawn = [_cell(str(i) if named is None else named[i], named is not None, str(flat[i]), whose[i], symbols)
                         for i in range(len(flat))]
        return [squares_drawn[r * cols : (r + 1) * cols] for r in range(rows)]

    def move_path(state, move):
        if squares is None or not drawn:
            return []
        return [str(i) if named is None else named[i] for i in _squares(squares(state, move), rows, cols)]

    reads = capability(game, "parse_position")

    def parse_start(text):
        if reads is None:
            raise ValueError(f"{game_ref(game)} starts from its initial position: send its moves instead")
        return reads(text)

    writes = capability(game, "position_text") or game.render

    names = registry(game)

    def build(spec):
        """A player file or run directory's player (the path is the server's to check), else a
        built-in of the game's table only: a spec sent over the web never names code to import
        (``module:Class``, which the game's own ``make_player`` would read for the command line)."""
        return make_player(game, spec) if is_path(spec) else build_spec(spec, names, game_ref(game))

    opening = capability(game, "board_players") or ("human", capability(game, "default_opponent"))
    if not (isinstance(opening, (tuple, list)) and len(opening) == 2 and all(isinstance(x, str) and x.strip() for x in opening)):
        raise ValueError(f"board_players must be the two sides' player specs, got {opening!r}"[:300])
    if capability(game, "look") not in (None, "marks"):
        raise ValueError(f"look must be None or 'marks', got {capability(game, 'look')!r}"[:300])
    sliders = capability(game, "player_sliders")
    if not (isinstance(sliders, Mapping) and all(isinstance(v, Mapping) and all(isinstance(x, Mapping) for x in v.values())
                                                  for v in sliders.values())):
        raise ValueError(f"player_sliders must map a player's name to {{parameter: slider}}, got {sliders!r}"[:300])
    return Page(build, names, cells, parse_start, writes, tuple(opening), move_path=move_path,
                coordinates=_coordinates(capability(game, "coordinates"), rows, cols) if drawn else None,
                analyst=capability(game, "analyst"), labels=MappingProxyType(dict(capability(game, "player_labels"))),
                sliders=MappingProxyType(dict(sliders)), look=capability(game, "look"),
                panel=panel)


def _cell(name: str, numbered: bool, text: str, owner, symbols: dict) -> dict:
    """One square as the page draws it: a side's piece (``owner`` 0 or 1, with its symbol),
    a text of its own (a game that declares no owners, a neutral mark), or empty; ``name``:
    how moves name it ('' for a cell no piece stands on: no square), written in its corner
    where the game names its squares (``numbered``)."""
    square, num = (name or None), (name if numbered else "")
    if owner is not None:
        return {"square": square, "num": num, "piece": f"side{owner}", "owner": owner, "label": str(symbols.get(text, ""))[:4]}
    return {"square": square, "num": num, "piece": "text" if text else "", "owner": None, "label": text[:4]}


def _names(given, count: int) -> list[str]:
    """A game's ``square_names``, checked: ``count`` short texts, each named once ('' aside)."""
    names = [str(n)[:8] for n in given]
    taken = [n for n in names if n]
    if len(names) != count or len(set(taken)) != len(taken):
        raise ValueError(f"square_names must give {count} names, each other than the rest ('' for no square); got {names[:12]!r}"[:300])
    return names


def _owners(given, count: int) -> list:
    """A game's ``owners(state)``, checked: ``count`` entries, each 0, 1 or None."""
    whose = list(given)
    if len(whose) != count or any(o is not None and (isinstance(o, bool) or o not in (0, 1)) for o in whose):
        raise ValueError(f"owners(state) must give {count} entries, each 0, 1 or None; got {whose[:12]!r}"[:300])
    return [None if o is None else int(o) for o in whose]


def _squares(given, rows: int, cols: int) -> list[int]:
    """A game's ``move_squares(state, move)`` as cell indices, checked to lie on the board."""
    found = []
    for square in given:
        try:
            if isinstance(square, (tuple, list)):
                row, col = (operator.index(x) for x in square)
                index = row * cols + col if 0 <= row < rows and 0 <= col < cols else -1
            else:
                index = -1 if isinstance(square, bool) else operator.index(square)
        except (TypeError, ValueError):
            index = -1
        if not 0 <= index < rows * cols:
            raise ValueError(f"move_squares gave {square!r}: not a cell index 0-{rows * cols - 1} "
                             f"or a (row, column) pair of the {rows}x{cols} board"[:300])
        found.append(index)
    return found


def _coordinates(given, rows: int, cols: int) -> dict | None:
    """A game's ``coordinates`` as the page draws them; None where it declares none."""
    if given is None:
        return None
    try:
        row_labels, col_labels = ([str(x)[:4] for x in labels] for labels in given)
    except (TypeError, ValueError):
        row_labels = col_labels = None
    if row_labels is None or len(row_labels) != rows or len(col_labels) != cols:
        raise ValueError(f"coordinates must be ({rows} row labels, {cols} column labels), got {given!r}"[:300])
    return {"rows": row_labels, "columns": col_labels}
