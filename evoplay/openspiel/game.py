"""An OpenSpiel game behind evoplay's game interface (``evoplay.arena.game.Game``).

``load(text)`` takes OpenSpiel's own game string (``connect_four``,
``breakthrough(rows=6,columns=6)``, with or without the ``openspiel:`` prefix) and returns
an :class:`OpenSpielGame` when the game is sequential, deterministic, of perfect
information, zero-sum (or constant-sum: only the difference of the two returns is read),
for exactly two players, and has an observation tensor; otherwise it raises
``EvoplayError`` naming each property that fails. ``eligible_games()`` lists the
registered games that load so with their default parameters. ``load`` also tries the game
(``evoplay.openspiel.probe``: its size bounded, its first moves played) and refuses one
that OpenSpiel accepts but cannot play; a game given parameters that differ from its
defaults is tried first in a child process (``_tried``), since some crash the process or take
minutes to load. A parameter given twice is refused (OpenSpiel would keep the last).

Loading silences the process's stdout and stderr (file descriptors 1 and 2) for the
moment ``pyspiel.load_game`` runs: OpenSpiel's C++ prints every exception it raises, and
quoridor's warning, there. ``apply`` of an illegal action raises OpenSpiel's SpielError (a
RuntimeError) and OpenSpiel prints it: pass only ``legal_moves``.

Names. A game is named ``openspiel:`` + its short name, followed by the parameters given
that differ from their defaults, sorted, in OpenSpiel's syntax:
``openspiel:connect_four``, ``openspiel:breakthrough(columns=6,rows=6)``. The name loads
the same game again (``load(game.name)``) and is also ``game.ref``.

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

Views. ``views(states)`` is an ``(n, size + 1)`` float32 array: the flattened observation
tensor of the OpenSpiel player to move (``observation_tensor(player)``), then one column
holding the side to move (0. or 1.). OpenSpiel lays its tensors out per game, mostly as
planes of the board (``observation_tensor_shape()`` is ``(planes, rows, columns)``):

- absolute planes, the same for both players, one plane per kind of cell: tic-tac-toe
  ``[empty, o, x]``, connect four ``[x, o, empty]``, m,n,k ``[empty, o, x]``, gomoku
  ``[black, white, player 0 to move]`` (flat, ``size**2`` a plane), breakthrough
  ``[black, white, empty]``, checkers ``[o men, o kings, + men, + kings, empty]``, lines of
  action ``[x, o, empty]``, amazons ``[empty, O, X, arrows]``, go
  ``[black, white, empty, white to play]``, hex ``[white won, white west, white east,
  white, empty, black, black south, black north, black won]``. For these the adapter makes
  the view egocentric: when OpenSpiel's player 1 is to move, each of its planes trades places
  with player 0's, and where the two sides start on different edges the board is turned so
  the side to move always starts where player 0 does (half a turn in breakthrough, checkers
  and amazons; transposed in lines of action and square hex). A network then reads "own
  pieces, other pieces, ..." whoever is to move. Rows run from the top of the board as
  ``str`` draws it, but from the bottom in connect four, go and lines of action.
- planes already from the observer's view (``observation_tensor(p)`` differs by ``p``):
  othello ``[empty, own, other]``, clobber, havannah, pentago and Y ``[own, other, empty]``,
  hive (per bug and colour), and connect four or checkers loaded with their egocentric
  parameter: kept as they are.
- other layouts are given as OpenSpiel makes them, with the side-to-move column: the chess
  family (piece planes in Black/White pairs King, Queen, Rook, Bishop, Knight, Pawn, then
  empty, repetitions, side to move, the fifty-move count, castling rights; crazyhouse adds
  pockets), shogi and xiangqi (piece planes per side, side to move), nine men's morris,
  dots and boxes, quoridor (pawns, walls, walls left), twixt, cursor go, chinese checkers,
  mancala and oware (seed counts; oware's as fractions of all seeds), nim (one-hot piles),
  ultimate tic-tac-toe.

Boards for the web. ``board_shape`` is ``(rows, columns)`` and ``cells(state)`` one short
text per square (row-major, top row first, ``''`` empty) for the games above with board
planes (from player 0's tensor), othello, clobber, pentago, the chess family (from the FEN),
shogi (from the SFEN) and xiangqi (from ``str``); ``None`` and ``[]`` otherwise.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import os
import random
import re
import signal
import subprocess
import sys
import time

import numpy as np

from evoplay.errors import EvoplayError
from evoplay.openspiel import probe

PREFIX = "openspiel:"
#: Seconds a child process has to load a game given parameters and play its first moves.
CHECK_SECONDS = 10

_INSTALL = "pip install open_spiel, or the extra evoplay[openspiel]"

# Per game: names of the sides in the order they move (side 0 first).
_SIDE_NAMES = {
    "chess": ("White", "Black"),
    "antichess": ("White", "Black"),
    "crazyhouse": ("White", "Black"),
    "go": ("Black", "White"),
    "cursor_go": ("Black", "White"),
    "othello": ("Black", "White"),
    "breakthrough": ("Black", "White"),
    "shogi": ("Sente", "Gote"),
    "tic_tac_toe": ("X", "O"),
    "connect_four": ("X", "O"),
}
_CHESS = {"chess", "antichess", "crazyhouse"}
# Games whose key reads the position from ``str(state)``, not from the observation tensor.
_STR_POSITIONS = {"dots_and_boxes", "hex"}

# Board planes of player 0's observation tensor: (player 0's plane, player 1's plane, their
# texts on the board); "ego": the tensor is already from the observer's view; "turn": how the
# board turns for player 1's egocentric view; "marks": planes of neutral things;
# "bottom_first": the tensor's first row is the board's bottom row as ``str`` draws it.
_PLANES = {
    "tic_tac_toe": dict(pairs=[(2, 1, "x", "o")]),
    "connect_four": dict(pairs=[(0, 1, "x", "o")], ego_param="egocentric_obs_tensor", bottom_first=True),
    "mnk": dict(pairs=[(2, 1, "x", "o")]),
    "gomoku": dict(pairs=[(0, 1, "b", "w")]),
    "breakthrough": dict(pairs=[(0, 1, "b", "w")], turn="rot180"),
    "checkers": dict(pairs=[(0, 2, "o", "+"), (1, 3, "8", "*")], turn="rot180", ego_param="egocentric"),
    "lines_of_action": dict(pairs=[(0, 1, "x", "o")], turn="transpose", bottom_first=True),
    "amazons": dict(pairs=[(2, 1, "X", "O")], marks=[(3, "#")], turn="rot180"),
    "go": dict(pairs=[(0, 1, "X", "O")], bottom_first=True),
    "hex": dict(pairs=[(8, 0, "x", "o"), (7, 1, "x", "o"), (6, 2, "x", "o"), (5, 3, "x", "o")], turn="transpose"),
    "othello": dict(pairs=[(1, 2, "x", "o")], ego=True),
    "clobber": dict(pairs=[(0, 1, "o", "x")], ego=True),
    "pentago": dict(pairs=[(0, 1, "O", "@")], ego=True),
}
# Planes whose count each family's spec is written for.
_PLANE_COUNT = {"tic_tac_toe": 3, "connect_four": 3, "mnk": 3, "gomoku": 3, "breakthrough": 3, "checkers": 5,
                "lines_of_action": 3, "amazons": 4, "go": 4, "hex": 9, "othello": 3, "clobber": 3, "pentago": 3}


def _pyspiel():
    # An optional extra (evoplay[openspiel]), not a dependency: imported by name when a game
    # is loaded, so that evoplay installs, imports and runs without it.
    try:
        pyspiel = importlib.import_module("pyspiel")
    except ImportError as e:
        raise EvoplayError(f"OpenSpiel games need open_spiel, which is not installed ({_INSTALL}): {e}") from None
    return pyspiel


@contextlib.contextmanager
def _quiet():
    """Silence the process's stdout and stderr: OpenSpiel's C++ prints each exception it
    raises (and some warnings) there before Python sees them."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    saved = [os.dup(1), os.dup(2)]
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        os.close(null)
        yield
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(saved[0])
        os.close(saved[1])


def _one_line(error: BaseException | str) -> str:
    """The first line of an error (or of a text), at most 300 characters, without the folders
    of a C++ source file it names."""
    text = " ".join(str(error).split("\n", 1)[0].split()) or type(error).__name__
    text = re.sub(r"^\S*/(?=\w+\.cc:\d+ )", "", text)
    if text.startswith("Unknown parameter") and "Available parameters are:" in text:
        head, _, names = text.partition("Available parameters are:")
        text = head + "available parameters: " + (names.strip() or "none")
    return text[:300]


def _ineligible(game) -> list[str]:
    """What keeps a loaded pyspiel game out: one phrase per failing property."""
    pyspiel = _pyspiel()
    T = pyspiel.GameType
    t = game.get_type()
    problems = []
    if t.dynamics != T.Dynamics.SEQUENTIAL:
        problems.append(f"moves are not sequential (dynamics {t.dynamics.name})")
    if t.chance_mode != T.ChanceMode.DETERMINISTIC:
        problems.append(f"it has chance events (chance mode {t.chance_mode.name}, not DETERMINISTIC)")
    if t.information != T.Information.PERFECT_INFORMATION:
        problems.append(f"information is not perfect ({t.information.name})")
    if t.utility not in (T.Utility.ZERO_SUM, T.Utility.CONSTANT_SUM):
        problems.append(f"it is not zero-sum (utility {t.utility.name})")
    if game.num_players() != 2:
        problems.append(f"it has {game.num_players()} players, not 2")
    if not t.provides_observation_tensor:
        problems.append("it has no observation tensor")
    return problems


def _items(text: str) -> list[str]:
    """The parameters written in a game string ``name(a=1,b=x(c=2))``, as written: ``a=1``, ``b=x(c=2)``."""
    inner = text[text.find("(") + 1 : text.rfind(")")] if "(" in text else ""
    items, depth, start = [], 0, 0
    for i, ch in enumerate(inner + ","):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            items.append(inner[start:i])
            start = i + 1
    return items


def _given_parameters(text: str) -> list[str]:
    """Names of the parameters written in a game string ``name(a=1,b=x(c=2))``."""
    return [item.split("=", 1)[0].strip() for item in _items(text) if "=" in item]


def _format(value) -> str:
    if isinstance(value, bool):
        return "True" if value else "False"
    return repr(value) if isinstance(value, float) else str(value)


def canonical_text(game) -> str:
    """OpenSpiel's game string of ``game`` with only the parameters given that differ from
    their defaults, sorted: ``connect_four``, ``breakthrough(columns=6,rows=6)``."""
    t = game.get_type()
    params, spec = game.get_parameters(), t.parameter_specification
    kept = sorted(k for k in _given_parameters(str(game)) if k in params and (k not in spec or params[k] != spec[k]))
    if not kept:
        return t.short_name
    return f"{t.short_name}({','.join(f'{k}={_format(params[k])}' for k in kept)})"


def load(text: str) -> "OpenSpielGame":
    """The OpenSpiel game written ``text`` (OpenSpiel's game string, ``openspiel:`` optional),
    tried before it is returned (``evoplay.openspiel.probe``): given parameters that differ
    from its defaults, first in a child process (see ``_tried``), then here in any case."""
    pyspiel = _pyspiel()
    text = str(text).strip()
    if text.startswith(PREFIX):
        text = text[len(PREFIX) :].strip()
    short = text.split("(", 1)[0].strip()
    if not short:
        raise EvoplayError("no OpenSpiel game named (write e.g. openspiel:connect_four)")
    if short not in pyspiel.registered_names():
        raise EvoplayError(
            f"unknown OpenSpiel game {short!r} (evoplay.openspiel.eligible_games() lists those evoplay can play)"
        )
    changed = _changed(short, _parameters(text))
    if changed:
        _refuse_unless_ok(text, changed, _tried(text))  # before pyspiel can crash or stall this process
    try:
        with _quiet():
            game = pyspiel.load_game(text)
    except Exception as e:  # pyspiel.SpielError (a RuntimeError), and a few wrappers' IndexError
        raise EvoplayError(f"OpenSpiel game {text!r}: {_one_line(e)}") from None
    problems = _ineligible(game)
    if problems:
        raise EvoplayError(f"OpenSpiel game {text!r} cannot be played here: {'; '.join(problems)}")
    try:
        with _quiet():
            found = probe.problem(game)
    except Exception as e:
        found = _one_line(e)
    _refuse_unless_ok(text, changed, found or "ok")
    return OpenSpielGame(game)


def _parameters(text: str) -> dict:
    """The parameters written in the game string ``text``, as pyspiel reads them; refused
    when one is given twice (pyspiel would keep the last) or text follows the closing bracket
    (pyspiel would ignore it)."""
    names = _given_parameters(text)
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise EvoplayError(f"OpenSpiel game {text!r}: parameter {twice[0]!r} given twice")
    try:
        with _quiet():
            params = _pyspiel().game_parameters_from_string(text)
    except Exception as e:  # pyspiel.SpielError: a missing bracket, an integer beyond 64 bits
        items = [item for item in _items(text) if item] if _closing(text) >= 0 else []
        given = f" with {', '.join(items)}" if items else ""
        raise EvoplayError(f"OpenSpiel game {text!r} refused{given}: {_one_line(e)}") from None
    if "(" in text and _closing(text) != len(text) - 1:
        raise EvoplayError(f"OpenSpiel game {text!r}: text after its closing bracket")
    params.pop("name", None)
    return params


def _closing(text: str) -> int:
    """Index of the bracket that closes the first '(' of ``text`` (-1 when none does)."""
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if ch == ")" and depth == 0:
            return i
    return -1


def _changed(short: str, params: dict) -> dict:
    """The parameters of ``params`` that differ from game ``short``'s defaults, in value or type."""
    spec = _defaults()[short]
    return {k: v for k, v in params.items() if k not in spec or type(v) is not type(spec[k]) or v != spec[k]}


@functools.cache
def _defaults() -> dict:
    """Short name -> the default parameters of every registered OpenSpiel game."""
    return {t.short_name: t.parameter_specification for t in _pyspiel().registered_games()}


@functools.cache
def _tried(text: str) -> str:
    """``ok``, or what is wrong with the OpenSpiel game ``text``: found by ``probe`` in a child
    process of at most ``probe.MEMORY`` bytes and ``CHECK_SECONDS`` seconds, so that no crash
    of OpenSpiel (``connect_four(rows=0)`` is a segmentation fault) and no game too large to
    load ends or stalls this process. Once per game string in a process (about 0.1 s)."""
    command = [sys.executable, "-P", probe.__file__, text]  # -P: no folder of the user's on sys.path
    try:
        done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=CHECK_SECONDS)
    except subprocess.TimeoutExpired:
        return f"too large: not loaded and tried within {CHECK_SECONDS} s"
    except OSError as e:
        return f"no process could be started to try it: {e}"
    if done.returncode < 0:
        return f"OpenSpiel crashed trying it ({signal.Signals(-done.returncode).name})"
    lines = done.stdout.strip().splitlines()
    if done.returncode or not lines:
        return f"the process trying it failed (exit code {done.returncode})"
    return lines[-1]


def _refuse_unless_ok(text: str, changed: dict, verdict: str) -> None:
    """Raise EvoplayError naming the parameters given and the verdict, unless it is ``ok``."""
    if verdict == "ok":
        return
    given = f" with {', '.join(f'{k}={_format(v)}' for k, v in sorted(changed.items()))}" if changed else ""
    raise EvoplayError(f"OpenSpiel game {text!r} refused{given}: {_one_line(verdict)}")


@functools.cache
def _eligible() -> tuple[str, ...]:
    pyspiel = _pyspiel()
    names = []
    for name in pyspiel.registered_names():
        try:
            with _quiet():
                game = pyspiel.load_game(name)
        except Exception:  # games that need parameters (wrappers, files)
            continue
        if not _ineligible(game):
            names.append(name)
    return tuple(sorted(names))


def eligible_games() -> list[str]:
    """Short names of the registered OpenSpiel games that load with their default
    parameters and that evoplay can play (see ``load``)."""
    return list(_eligible())


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
        self.side_names = _SIDE_NAMES.get(self.short_name, ("first", "second"))
        #: OpenSpiel's own bound on a game's length, which its rules keep.
        self.max_plies = game.max_game_length()
        self.tensor_shape = tuple(game.observation_tensor_shape())
        self._tensor_size = int(np.prod(self.tensor_shape))
        #: Width of a row of ``views``: the observation tensor, then the side to move.
        self.view_size = self._tensor_size + 1
        self._captures_marked = self.short_name in _CHESS  # SAN writes captures with 'x'
        self._board_spec()

    # ---------------------------------------------------------------- set-up

    def _board_spec(self) -> None:
        """board_shape, and how views and cells read the tensor (see _PLANES)."""
        self.board_shape = None
        self._planes = None  # (planes, rows, columns) of the tensor for the plane families
        self._swap = None  # plane order of player 1's egocentric view, and the turn
        params = self.game.get_parameters()
        name, shape = self.short_name, self.tensor_shape
        spec = _PLANES.get(name)
        if spec is not None and shape[0] == _PLANE_COUNT[name]:
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
        elif name in _CHESS or name == "shogi":
            self.board_shape = (8, 8) if name in _CHESS else (9, 9)
        elif name == "xiangqi":
            self.board_shape = (10, 9)

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

    def is_capture(self, state, move) -> bool:
        """Chess family: whether the move's SAN has 'x'; False in other games."""
        return self._captures_marked and "x" in state.action_to_string(state.current_player(), move)

    def _position(self, state) -> bytes:
        if self.short_name in _CHESS:
            return " ".join(str(state).split()[:4]).encode()
        if self.short_name == "shogi":
            return " ".join(str(state).split()[:-1]).encode()
        if self.short_name in _STR_POSITIONS:
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
        if self.board_shape is None:
            return []
        if self._planes is not None:
            t = np.asarray(state.observation_tensor(0), dtype=np.float32).reshape(self._planes[0], -1)
            out = [""] * t.shape[1]
            for plane, text in [(a, s) for a, _, s, _ in self._pairs] + [(b, s) for _, b, _, s in self._pairs] + self._marks:
                for i in np.flatnonzero(t[plane] > 0):
                    out[i] = text
            if self._bottom_first:
                w = self.board_shape[1]
                out = [c for r in range(self.board_shape[0] - 1, -1, -1) for c in out[r * w : (r + 1) * w]]
            return out
        text = str(state)
        if self.short_name in _CHESS:
            return _fen_cells(text.split()[0].split("[")[0], 8)
        if self.short_name == "shogi":
            return _fen_cells(text.split()[0], 9)
        rows = [line.strip() for line in text.splitlines() if line.strip()][: self.board_shape[0]]
        return ["" if c == "." else c for row in rows for c in row[: self.board_shape[1]]]

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


def _fen_cells(board: str, size: int) -> list[str]:
    """Squares of a FEN or SFEN board field, row-major from the top (a '+' joins the piece)."""
    out: list[str] = []
    for rank in board.split("/")[:size]:
        row: list[str] = []
        promoted = ""
        for c in rank:
            if c.isdigit():
                row.extend([""] * int(c))
            elif c == "+":
                promoted = "+"
            else:
                row.append(promoted + c)
                promoted = ""
        out.extend((row + [""] * size)[:size])
    return out


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
