"""What the board page shows of each game (``WebGame``): the page drawn from what the game
declares (``any_game_page``: its board, square names, position text, labels and analysis
player), which checkers and every other game play on; tic-tac-toe's own page, with its exact
facts (``BUILTIN_PAGES``); a package's own game's page through the entry-point group
``evoplay.board_pages``."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Callable, Mapping

from evoplay.arena.game import capability, game_ref
from evoplay.games import resolve_game


@dataclass(frozen=True)
class WebGame:
    """What the board page needs that differs between games."""

    builtin: Callable  # a built-in player's spec -> player of the arena interface
    from_file: Callable  # a real file or run directory path -> player
    registry: dict  # name -> (factory, schema), for the page's menu
    cells: Callable  # state -> rows of cells {"square": str | None, "piece": str}
    parse_start: Callable  # text -> state (ValueError naming the problem)
    start_text: Callable  # state -> text parse_start reads back
    default_players: tuple  # the two sides' specs when the page opens
    analyst: str | None = None  # the search player the page offers for analysis, None: no search player
    sliders: dict = field(default_factory=dict)  # built-in name -> {param: slider}, drawn by the page
    from_elite: Callable | None = None  # (archive network, spec) -> player: MAP-Elites elites play this game
    facts: Callable | None = None  # (state, [(spec, player)] x2, body, get) -> exact facts of the position
    fact_fields: tuple = ()  # request fields ``facts`` reads
    move_path: Callable | None = None  # (state, move) -> the squares clicked for it; None: the move's own parts
    coordinates: dict | None = None  # {"rows": [...], "columns": [...]}: labels drawn beside the board
    labels: Mapping = field(default_factory=dict)  # built-in name -> its label in the page's menus
    look: str | None = None  # how the page draws the board: None, squares with pieces on them; "marks",
    # squares apart, each taking a mark, shaded by the facts' probability of a move there
    human_model: str | None = None  # with ``facts``: the player standing in for a human side unless the page names another
    fact_values: Mapping | None = None  # with ``facts``: {"field", "label"} of the values per square the page may ask for

    def squares(self, state, move) -> list[str]:
        """The squares a move is clicked on, from-square first: ``move_path`` where the page has
        one, else the move's own parts (a checkers move's squares, a tic-tac-toe square)."""
        if self.move_path is not None:
            return self.move_path(state, move)
        return [str(s) for s in move] if isinstance(move, tuple) else [str(move)]


# ---------------------------------------------------------------- tic-tac-toe


def tictactoe_board() -> WebGame:
    """Tic-tac-toe's board page: exact facts of the position, temperature sliders, elites."""
    from evoplay.tictactoe.players import REGISTRY
    from evoplay.web import tictactoe as web_tictactoe

    return WebGame(web_tictactoe.builtin, web_tictactoe.from_file, REGISTRY, web_tictactoe.cells, web_tictactoe.parse_start, web_tictactoe.board_text,
                   default_players=web_tictactoe.DEFAULT_PLAYERS, sliders=web_tictactoe.SLIDERS, from_elite=web_tictactoe.from_elite,
                   facts=web_tictactoe.facts, fact_fields=web_tictactoe.FACT_FIELDS, labels=web_tictactoe.LABELS,
                   look="marks", human_model=web_tictactoe.HUMAN_MODEL, fact_values=web_tictactoe.FACT_VALUES)


# ---------------------------------------------------------------- any other game


def searching(player):
    """(evaluator, depth, quiescence) of a player that searches with an evaluator of its own
    (``alpha-beta``, a network searching in Python), None for one that does not."""
    evaluate = getattr(player, "evaluate", None)
    return None if evaluate is None else (evaluate, player.depth, getattr(player, "quiescence", False))


#: evoplay's own game pages richer than the board drawn from a game's features (tic-tac-toe's
#: exact facts): a plain table, so the import graph sees them; a package adds a page for its game through the
#: entry-point group ``evoplay.board_pages`` (``evoplay.web.boards.PAGE_GROUP``).
BUILTIN_PAGES = MappingProxyType({"tictactoe": tictactoe_board})


def any_game_page(game) -> WebGame:
    """The board page of a game from what it offers (``evoplay.arena.game.FEATURES``): a grid of
    its ``board_shape`` with the texts of ``cells(state)`` where it has both, else its ``render``
    text (``describe``); each side's pieces in its own colour where it declares ``owners``
    (``piece_symbols`` written on them), its ``coordinates`` beside the board, its
    ``square_names`` in the cells' corners; moves played by clicks on their ``move_squares``, or
    from the list of legal moves; a start read by its ``parse_position``; the players every game
    has, its own (labelled by its ``player_labels``), and its player files; any player that
    searches with an evaluation of its own for analysis, the game's ``analyst`` offered."""
    from evoplay.arena.specs import make_player, registry

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

    def build(spec):
        return make_player(game, spec)

    return WebGame(build, build, registry(game), cells, parse_start, writes,
                   default_players=("human", capability(game, "default_opponent")), move_path=move_path,
                   coordinates=_coordinates(capability(game, "coordinates"), rows, cols) if drawn else None,
                   analyst=capability(game, "analyst"), labels=MappingProxyType(dict(capability(game, "player_labels"))))


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
