"""The API of the game board page, written once for every game of ``evoplay.games``.

A game in progress travels as its start (the game's initial position unless ``start``
names another, e.g. a PDN FEN for checkers) and the list of moves played since, in the
game's notation (``"11-15"``, ``"22x15"``; a tic-tac-toe square ``"4"``). The server
replays them, so every move is checked and the draw rules (no-progress count,
repetition) see the whole game. What differs between games (how players are named, how
a position is drawn and read, the facts only a game can give: tic-tac-toe's exact ones
live in ``evoplay.web.tictactoe``) is what each game declares (``evoplay.web.pages.page``
draws it); the rest, the one board page included, is shared.
"""

from __future__ import annotations

import inspect
import threading
from collections import OrderedDict
from collections.abc import Mapping
from types import MappingProxyType

import numpy as np

from evoplay.arena.alphabeta import AlphaBetaPlayer
from evoplay.arena.players import SearchPlayer, quoted
from evoplay.errors import EvoplayError
from evoplay.arena.game import capability, game_ref
from evoplay.games import BUILTIN_GAMES, GameError, is_code_ref, resolve_data_game, resolve_game
from evoplay.arena.search import move_scores, principal_variation
from evoplay.web.archive import elite_player, elites_play, is_elite_spec
from evoplay.web.pages import Page, page, searching
from evoplay.web.tictactoe import PANEL
from evoplay.web.roots import ApiError, Roots

HUMAN = "human"
MAX_MOVES = 1000
MAX_TEXT = 200
#: Longest player spec accepted (a path to a player file may be long).
MAX_SPEC = 1000
#: Deepest search in Python (the generic search) one request may run: an analysis the page
#: asks for, or a move of a player that searches with it (Connect Four's network: 2 s at 6
#: plies, 12 s at 8).
MAX_ANALYSIS_DEPTH = 6
#: Most simulations an ``mcts`` player may spend on one request (ten times the default
#: opponent's; a checkers move at this bound takes tens of seconds): a spec asking for more
#: is refused, so that no request goes on long after its client gave up.
MAX_SIMS = 10_000


#: Labels of the players every game has, as the page's menus show them (a game labels its own
#: players: its ``player_labels``); any other player is shown by its name.
COMMON_LABELS = MappingProxyType({
    "mcts": "mcts (Monte Carlo tree search)",
    "alpha-beta": "alpha-beta (search to a depth)",
})
#: Players built from specs or files that one server keeps (a softmax table is 1.4 MB, and a
#: slider asks for many), and elites of MAP-Elites runs.
KEPT_PLAYERS = 32
KEPT_ELITES = 16


class _Recent:
    """A small thread-safe map that keeps the ``size`` entries used last (one server's own)."""

    def __init__(self, size: int):
        self._size, self._items, self._lock = size, OrderedDict(), threading.Lock()

    def get(self, key, make):
        """The value kept for ``key``, else ``make()``'s, kept (built outside the lock)."""
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        value = make()
        with self._lock:
            self._items[key] = value
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return value


class Games:
    """The games one server plays: the built-in ones and those it was given (``evoplay serve
    --game REF``), each by the name a request uses, the first the board page's default.

    Made once per server (``make_app``), from the references it was started with, and never
    changed: a request never names a game the server was not given. It keeps the board pages
    it has built (``page``). A game given is resolved now (one-line EvoplayError for a bad
    reference) and its first page drawn (``_first_page``), so that a game whose code fails
    there is refused before the server listens. Its URL name: the game's ``name`` where it is
    a plain word, else ``game-N``."""

    def __init__(self, refs=()):
        refs = list(refs)
        served: dict[str, str] = {}
        #: URL name -> reference of each game given beyond the built-in ones (read-only).
        self.served = MappingProxyType(served)
        self._pages = _Recent(len(BUILTIN_GAMES) + len(refs))  # every game's page, built on first use
        for i, ref in enumerate(refs):
            game = resolve_game(ref)
            name = game_ref(game)
            if name in BUILTIN_GAMES:
                continue
            # the first of its reference, its name and (a class of a user's file) its class's name that reads as a URL word
            words = (name, str(getattr(game, "name", "")), name.rpartition(":")[2].lower() if is_code_ref(name) else "")
            slug = next((w for w in words if w and all(ch.isalnum() or ch in "_-:.(),=" for ch in w)
                         and w not in served and w not in BUILTIN_GAMES), f"game-{i + 1}")
            served[slug] = name
            self._first_page(slug, ref)

    @property
    def names(self) -> list[str]:
        """The URL names of the games played, the default first."""
        return [*BUILTIN_GAMES, *self.served]

    @property
    def default(self) -> str:
        """The game the board page opens on when its address names none."""
        return self.names[0]

    def _first_page(self, name: str, ref: str):
        """Draw a served game's first page (its initial position, side to move, legal moves
        and board); a failure there is a one-line GameError."""
        try:
            game, adapter = self.named(name)
            state = game.initial()
            describe(game, adapter, state, [], None, state, None)
        except EvoplayError:
            raise
        except Exception as e:
            problem = " ".join(f"{type(e).__name__}: {e}".split())[:300]
            raise GameError(f"game {ref.strip()[:100]!r} cannot be served: drawing its initial position failed: {problem}") from None

    def resolve(self, name: str):
        return resolve_game(self.served.get(name, name))

    def page(self, name: str) -> Page:
        """The board page of a game, drawn from what the game declares (``evoplay.web.pages.page``),
        with its analysis panel where ``PANELS`` has one."""

        def build():
            game = self.resolve(name)
            return page(game, PANELS.get(game_ref(game)))

        return self._pages.get(name, build)

    def named(self, name: str):
        """The game (as the page names it) and its board page; 404 for a game this server does not play."""
        if name not in BUILTIN_GAMES and name not in self.served:
            raise ApiError(404, f"unknown game {name[:100]!r} (known: {', '.join(self.names)})")
        return _Named(self.resolve(name), name), self.page(name)

    def listing(self) -> dict:
        """The games the board page plays, with their titles and sides, and the default one."""
        return {"games": [{"name": name, "title": str(capability(self.resolve(name), "title") or name),
                           "sides": list(self.resolve(name).side_names)} for name in self.names],
                "default": self.default}

    def run_game(self, ref: str, sha256: str | None) -> tuple[str | None, str | None]:
        """(URL name, None) of the game this server plays for a run's recorded game, or (None,
        why not): a user's game not named (``--game``) is not loaded, by the rule every command
        follows (``evoplay.games.resolve_data_game``), and its message says what to add."""
        try:
            game = resolve_data_game(ref, sha256)
        except GameError as e:
            return None, str(e)
        name = game_ref(game)
        if name in BUILTIN_GAMES:
            return name, None
        served = [slug for slug, served_ref in self.served.items() if served_ref == name]
        return (served[0], None) if served else (None, f"names the game {ref}, which this server does not play: add --game {ref}")


def serve_games(refs) -> Games:
    """The games a server plays beyond the built-in ones (``Games``; one-line EvoplayError for
    a bad reference or a game whose first page cannot be drawn)."""
    return Games(refs)


def run_games_to_serve(recorded) -> list[str]:
    """The games of runs (``recorded``: (reference, digest) pairs) a server plays without being
    told: built-in and OpenSpiel games, which load no user code; a user's game only by --game."""
    return [ref for ref, _ in recorded if not is_code_ref(ref) and ref not in BUILTIN_GAMES]


#: The analysis panels beside a game's board, by game reference: tic-tac-toe's exact facts
#: (``evoplay.web.tictactoe``). A plain table: the games themselves know nothing of the web.
PANELS = MappingProxyType({"tictactoe": PANEL})


class _Named:
    """A game as the page names it: its URL name, everything else the game's own."""

    def __init__(self, game, name: str):
        self._game, self.name = game, name

    def __getattr__(self, attr):
        return getattr(self._game, attr)


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


# ---------------------------------------------------------------- positions and moves


def _text(value, what: str, limit: int = MAX_TEXT) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ApiError(400, f"{what} must be a non-empty string, got {value!r}"[:300])
    if len(value.strip()) > limit:
        raise ApiError(400, f"{what} is longer than {limit} characters")
    return value.strip()


def replay(game, adapter: Page, body: dict):
    """The state after ``body["moves"]``, the moves in canonical notation, the start state, and
    the last move with the state it was played in (None before the first)."""
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
    played, first, last = [], state, None
    for i, text in enumerate(moves):
        before = state
        state, move = play(game, state, text, f"move {i + 1}")
        played.append(game.move_text(before, move))
        last = (before, move)
    return state, played, first, last


def play(game, state, text, what: str):
    """The state after the move written ``text``, and the move; 400 if illegal, or if not
    written as plain text (``move_text_problem``)."""
    sent = text
    text = _text(text, what)
    if game.result(state) is not None:
        raise ApiError(400, f"{what} {text}: the game is over")
    problem = move_text_problem(sent)
    legal = _legal_texts(game, state) if problem is not None else []
    if problem is not None and sent not in legal:
        example = f"; send it as the game writes it, e.g. {legal[0]!r}" if legal else ""
        raise ApiError(400, f"{what} {quoted(sent)}: {problem}{example}")
    try:
        move = game.parse_move(state, sent)
    except ValueError as e:
        raise ApiError(400, f"{what}: {e}") from None
    return game.apply(state, move), move


def move_text_problem(text: str) -> str | None:
    """What keeps ``text`` from being a move as a request must write it, None if nothing.

    A game's parser (and Python's ``int`` and ``\\d`` in it) reads more than the move: blanks
    and line breaks around it (``'1\\n'``) and any script's digits (``'４'``, ``'١'``), so that
    a move would be read that is not the one sent. A move is sent in printable ASCII with
    nothing around it, as the command line reads its numbers (``evoplay.files.plainnum``);
    the exact text a game writes for a legal move is read whatever its characters (``play``).
    """
    if text != text.strip():
        return "a move has no blanks or line breaks around it"
    odd = next((ch for ch in text if not (ch.isascii() and ch.isprintable())), None)
    if odd is not None:
        kind = "a digit" if odd.isdigit() else "a control character" if odd.isascii() else "a character"
        return (f"a move is written in plain ASCII (digits 0-9), not with {kind} such as "
                f"{odd!r} (U+{ord(odd):04X})")
    return None


def _legal_texts(game, state) -> list[str]:
    """The texts the game writes for the legal moves in ``state``."""
    return [game.move_text(state, m) for m in game.legal_moves(state)]


def describe(game, adapter: Page, state, played: list, start, first, last) -> dict:
    """What the page draws: the board with its coordinates, whose turn, the legal moves with
    the squares each is clicked on, the last move's squares and the result."""
    r = game.result(state)
    result = "ongoing" if r is None else "draw" if r == 0 else "win"
    winner = game.side_names[1 - game.to_move(state)] if result == "win" else None  # the side to move lost
    legal = game.legal_moves(state) if r is None else []
    cells = adapter.cells(state)
    return {
        "game": game.name,
        "start": start,
        "position": adapter.start_text(state),
        "moves": played,
        "cells": cells,
        **({} if cells else {"text": game.render(state)}),  # a game with no grid: its own text
        "coordinates": adapter.coordinates if cells else None,
        "last": [] if last is None or not cells else adapter.squares(*last),
        "to_move": game.side_names[game.to_move(state)] if r is None else None,
        "start_to_move": game.side_names[game.to_move(first)],
        "sides": list(game.side_names),
        "result": result,
        "winner": winner,
        "legal": [{"text": game.move_text(state, m), "path": adapter.squares(state, m),
                   "capture": bool(game.is_capture(state, m))} for m in legal],
    }


# ---------------------------------------------------------------- players


class Players:
    """Player specs sent by the page, as players of one game of ``games`` (the server's; the
    built-in games alone when not given): built-ins, files and run directories from inside the
    roots only, and the elites of the server's MAP-Elites runs (``RUN#trial=T,cell=K,elite=J``)
    for the game they play. It keeps the last ``KEPT_PLAYERS`` players built (networks and
    tables are costly to rebuild per request) and ``KEPT_ELITES`` elites."""

    def __init__(self, roots: Roots, archives=None, games: Games | None = None):
        self.roots, self.archives = roots, archives
        self.games = Games() if games is None else games
        self._elites = _Recent(KEPT_ELITES)
        self._built = _Recent(KEPT_PLAYERS)

    def get(self, game, spec, what: str):
        """The player ``spec`` names, None for ``human``; 4xx ApiError naming ``what``."""
        spec = _text(spec, f"{what}: player spec", MAX_SPEC)
        if spec == HUMAN:
            return None
        if self.archives is not None and is_elite_spec(spec):
            return self._elite(game, spec, what)
        if spec.endswith(".json") or "/" in spec:
            try:
                real = self.roots.resolve(spec)
            except ApiError as e:
                raise ApiError(e.status, f"{what}: {e.message}") from None
            try:  # a file, or a run directory where the game's players read one
                stat = real.stat()
            except OSError:
                raise ApiError(404, f"{what}: player file not found: {spec}") from None
            return self._load(game.name, "file", str(real), (stat.st_mtime_ns, stat.st_size), spec, what)
        return self._load(game.name, "builtin", spec, None, spec, what)

    def _elite(self, game, spec: str, what: str):
        plays = elites_play()
        if game_ref(game) != plays:
            raise ApiError(400, f"{what}: {spec[:80]!r} names an elite of a MAP-Elites run; those play {plays}, not {game.name}")
        root, trial, cell, rank, net = self.archives.elite(spec, what)
        key = (game.name, root.real, trial, cell, rank, net.ident)
        return self._elites.get(key, lambda: elite_player(net, spec))

    def _load(self, name, kind, source, stamp, spec, what):
        """A built-in player by its spec, or a file's by its real path (``stamp``: the file's
        mtime and size, so an edited file is read again)."""

        def build():
            return self.games.page(name).build(source)

        try:
            return self._built.get((name, kind, source, stamp), build)
        except EvoplayError as e:  # name the file as the page did, not by its real path
            raise ApiError(400, f"{what}: {str(e).replace(source, spec)}") from None


def within_bounds(player, what: str):
    """``player`` (None: a human), if one of its moves keeps within this server's bounds on a
    request's work; 400 naming the bound otherwise. Checked wherever a player is named to move."""
    sims = getattr(player, "sims", None)  # every player that spends simulations a move says how many: mcts, openspiel-mcts
    if isinstance(sims, int) and sims > MAX_SIMS:
        raise ApiError(400, f"{what}: {player.spec.partition(':')[0]}:sims={sims} is over this server's bound of "
                            f"{MAX_SIMS} simulations per request")
    if isinstance(player, (SearchPlayer, AlphaBetaPlayer)) and player.depth > MAX_ANALYSIS_DEPTH:
        raise ApiError(400, f"{what}: it searches {player.depth} plies in Python, over this server's bound of "
                            f"{MAX_ANALYSIS_DEPTH} plies per request")
    return player


def players(game, adapter: Page, roots: Roots) -> dict:
    """The built-in players of a game with their parameters, each with the label the page's
    menu shows (the game's own, ``COMMON_LABELS``, else its name; and the sliders the page
    draws for some), the player files served, who plays when the page opens, the analysis
    player, how the board is drawn (``look``) and what the page offers beside the exact facts
    where the game has them (``facts``, else None)."""
    listed = [{"name": HUMAN, "params": {}, "label": f"Human ({human_moves(game, adapter)})"}]
    for name, (factory, schema) in adapter.registry.items():
        defaults = {k: p.default for k, p in inspect.signature(factory).parameters.items()}
        entry = {"name": name, "label": adapter.labels.get(name) or COMMON_LABELS.get(name) or name,
                 "params": {k: {"type": t.__name__, "default": defaults[k]} for k, (t, _) in schema.items()}}
        if name in adapter.sliders:
            entry["sliders"] = _plain(adapter.sliders[name])
        listed.append(entry)
    panel = adapter.panel
    facts = None if panel is None else {"human_model": panel.human_model, "values": _plain(panel.values)}
    return {"game": game.name, "sides": list(game.side_names), "builtin": listed, "files": roots.player_files(),
            "defaults": list(adapter.default_players), "analyst": adapter.analyst, "look": adapter.look,
            "facts": facts, "elites": game_ref(game) == elites_play()}


def _plain(value):
    """A page's constant (frozen mappings, tuples) as JSON takes it: dicts and lists."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


def human_moves(game, adapter: Page) -> str:
    """How a person moves on this game's board: by clicks where the board is drawn and a move
    reads as squares (the legal moves of the initial position tell), else from the list."""
    state = game.initial()
    clickable = bool(adapter.cells(state)) and any(adapter.squares(state, m) for m in game.legal_moves(state))
    return "click the board" if clickable else "choose from the legal moves"


def check_seed(seed):
    """A request's ``seed``: None or a non-negative integer; 400 otherwise."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise ApiError(400, f"seed must be a non-negative integer, got {seed!r}")
    return seed


def choose(player, state, seed):
    """The move ``player`` makes (sampled with ``seed``: the same seed, the same move)."""
    return player.choose(state, np.random.default_rng(seed))


# ---------------------------------------------------------------- requests


def state_of(games: Games, name: str, body) -> dict:
    game, adapter = games.named(name)
    check_fields(body, (), ("start", "moves"))
    state, played, first, last = replay(game, adapter, body)
    return describe(game, adapter, state, played, body.get("start"), first, last)


def human_move(games: Games, name: str, body) -> dict:
    game, adapter = games.named(name)
    check_fields(body, ("move",), ("start", "moves"))
    before, played, first, _ = replay(game, adapter, body)
    state, move = play(game, before, body["move"], "move")
    text = game.move_text(before, move)
    return describe(game, adapter, state, played + [text], body.get("start"), first, (before, move)) | {"move": text}


def computer_move(book: Players, name: str, body) -> dict:
    game, adapter = book.games.named(name)
    check_fields(body, ("player",), ("start", "moves", "seed"))
    state, played, first, _ = replay(game, adapter, body)
    if game.result(state) is not None:
        raise ApiError(400, "the game is over: no more moves")
    player = within_bounds(book.get(game, body["player"], "player"), "player")
    if player is None:
        raise ApiError(400, "player: 'human' moves by clicking, not by computer")
    move = choose(player, state, check_seed(body.get("seed")))
    text = game.move_text(state, move)
    after = game.apply(state, move)
    return describe(game, adapter, after, played + [text], body.get("start"), first, (state, move)) | {"move": text}


def analysis(book: Players, name: str, body) -> dict:
    """What the page shows beside the board, for the position after ``moves``:

    - always the position as ``state`` describes it;
    - with ``players`` (the two sides' specs, in side order), both players checked, and
      the game's exact facts where it has them (tic-tac-toe: the mover's probability of
      each square, the exact outcome between the two, ``minimax`` values on request, a
      human side modelled by ``human_model``), else ``facts`` is None;
    - with ``player``, a search player's principal variation and every legal move's score
      for the side to move (its evaluator; its depth unless ``depth`` is sent).
    """
    game, adapter = book.games.named(name)
    fields = () if adapter.panel is None else adapter.panel.fields
    check_fields(body, (), ("start", "moves", "players", "player", "depth") + fields)
    if "player" not in body and "players" not in body:
        raise ApiError(400, "missing field 'player' (a search player) or 'players' (the two sides)")
    state, played, first, last = replay(game, adapter, body)
    answer = describe(game, adapter, state, played, body.get("start"), first, last)
    if "players" in body:
        sides = _sides(book, game, body["players"])
        get = lambda spec, what: book.get(game, spec, what)  # noqa: E731
        answer["facts"] = None if adapter.panel is None else adapter.panel.facts(state, sides, body, get)
    elif any(k in body for k in fields):
        raise ApiError(400, f"{', '.join(fields)} go with 'players'")
    if "player" in body:
        answer |= _search(book, game, adapter, state, body)
    return answer


def _sides(book: Players, game, specs) -> list:
    """[(spec, player or None)] for the two sides, each checked and named by its side."""
    if not isinstance(specs, list) or len(specs) != 2:
        raise ApiError(400, f"players must be a list of two player specs ({' and '.join(game.side_names)})")
    return [(str(spec).strip(), within_bounds(book.get(game, spec, f"{side} player"), f"{side} player"))
            for spec, side in zip(specs, game.side_names)]


def _search(book: Players, game, adapter: Page, state, body) -> dict:
    if game.result(state) is not None:
        raise ApiError(400, "the game is over: nothing to analyse")
    spec = body["player"]
    player = book.get(game, spec, "player")
    parts = None if player is None else searching(player)
    if parts is None:
        raise ApiError(400, f"player {str(spec).strip()} does not search: analysis needs a search player "
                            f"({f'{adapter.analyst} or a network file' if adapter.analyst else f'{game.name} has none'})")
    evaluate, depth, quiescence = parts
    if depth == 0 and "depth" not in body:
        raise ApiError(400, f"player {str(spec).strip()} solves to the end of the game, which analysis does not: "
                            f"send a depth 1-{MAX_ANALYSIS_DEPTH} to analyse with its evaluation")
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
