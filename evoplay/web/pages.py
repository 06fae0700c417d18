"""What the board page shows of each game (``WebGame``): tic-tac-toe's and checkers' own pages
(named by the entry-point group ``evoplay.board_pages``), and the page of any other game,
drawn from what the game offers (``any_game_page``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

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
    search_parts: Callable  # player -> (evaluator, depth, quiescence) or None
    default_players: tuple  # the two sides' specs when the page opens
    analyst: str | None = None  # the search player the page offers for analysis, None: no search player
    sliders: dict = field(default_factory=dict)  # built-in name -> {param: slider}, drawn by the page
    from_elite: Callable | None = None  # (archive network, spec) -> player: MAP-Elites elites play this game
    facts: Callable | None = None  # (state, [(spec, player)] x2, body, get) -> exact facts of the position
    fact_fields: tuple = ()  # request fields ``facts`` reads


# ---------------------------------------------------------------- checkers


def checkers_board() -> WebGame:
    """Checkers' board page: FEN starts, its players and files, the search's analysis."""
    from evoplay.arena.specs import make_player, registry
    from evoplay.checkers import players as checkers_players
    from evoplay.checkers import rules
    from evoplay.networks.evalnet import Evaluator
    from evoplay.recipes.blondie24.play import CompiledNetPlayer

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
                    piece = rules.SYMBOLS[rules.BLACK if state.black >> s & 1 else rules.WHITE, bool(state.kings >> s & 1)]
                row.append({"square": str(s + 1), "piece": piece, "king": bool(state.kings >> s & 1)})
            rows.append(row)
        return rows

    def search_parts(player):
        if isinstance(player, checkers_players.PieceDifferencePlayer):
            return checkers_players.piece_difference(player.king), player.depth, False
        if isinstance(player, CompiledNetPlayer):
            return Evaluator(player.genome, player.sizes, player.king), player.depth, player.quiescence
        return None

    game = resolve_game("checkers")

    def build(spec):
        return make_player(game, spec)

    return WebGame(build, build, registry(game), cells, rules.from_fen, rules.to_fen, search_parts,
                   default_players=("human", "piece-difference"), analyst="piece-difference:depth=4")


# ---------------------------------------------------------------- tic-tac-toe


def tictactoe_board() -> WebGame:
    """Tic-tac-toe's board page: exact facts of the position, temperature sliders, elites."""
    from evoplay.tictactoe.players import REGISTRY
    from evoplay.web import tictactoe as web_tictactoe

    return WebGame(web_tictactoe.builtin, web_tictactoe.from_file, REGISTRY, web_tictactoe.cells, web_tictactoe.parse_start, web_tictactoe.board_text, lambda player: None,
                   default_players=web_tictactoe.DEFAULT_PLAYERS, sliders=web_tictactoe.SLIDERS, from_elite=web_tictactoe.from_elite,
                   facts=web_tictactoe.facts, fact_fields=web_tictactoe.FACT_FIELDS)


# ---------------------------------------------------------------- any other game


def any_game_page(game) -> WebGame:
    """The board page of a game from what it offers: a grid of its ``board_shape`` with the
    texts of ``cells(state)`` where it has both, else its ``render`` text (``describe``);
    moves picked from the list of legal moves; the players every game has, its own, and
    its player files; a network player's search for analysis."""
    from evoplay.arena.specs import make_player, registry

    shape, texts = capability(game, "board_shape"), capability(game, "cells")

    def cells(state):
        if not shape or texts is None:
            return []
        flat = list(texts(state))
        rows, cols = shape
        if len(flat) != rows * cols:
            return []
        return [[{"square": str(r * cols + c), "num": "", "piece": "text" if flat[r * cols + c] else "",
                  "label": str(flat[r * cols + c])[:4]} for c in range(cols)] for r in range(rows)]

    def parse_start(text):
        raise ValueError(f"{game_ref(game)} starts from its initial position: send its moves instead")

    def search_parts(player):
        evaluate = getattr(player, "evaluate", None)
        return None if evaluate is None else (evaluate, player.depth, getattr(player, "quiescence", False))

    def build(spec):
        return make_player(game, spec)

    names = registry(game)
    return WebGame(build, build, names, cells, parse_start, lambda state: game.render(state), search_parts,
                   default_players=("human", capability(game, "default_opponent")))
