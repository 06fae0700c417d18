"""Players over the game interface: each gives its move distribution for a state.

A player is bound to its game. ``distribution(state)`` lists ``(move, probability)``;
``choose(state, rng)`` picks a move with an explicit ``numpy.random.Generator``.
Spec strings read ``NAME`` or ``NAME:key=value,...`` against a game's registry.
"""

from __future__ import annotations

import inspect
import os

import numpy as np

from evoplay.errors import EvoplayError, SpecError
from evoplay.files.plainnum import parse_float, parse_int
from evoplay.arena.game import capability
from evoplay.arena.search import search


class RandomPlayer:
    """Uniform over the legal moves."""

    deterministic = False

    def __init__(self, game, spec: str = "random"):
        self.game, self.spec = game, spec

    def distribution(self, state) -> list:
        moves = self.game.legal_moves(state)
        return [(m, 1.0 / len(moves)) for m in moves]

    def choose(self, state, rng):
        moves = self.game.legal_moves(state)
        return moves[rng.integers(len(moves))]


class SearchPlayer:
    """Alpha-beta to ``depth`` with an evaluator; the first best move in legal order."""

    deterministic = True

    def __init__(self, game, evaluate, depth: int, spec: str = "search", quiescence: bool = False):
        self.game, self.evaluate, self.depth, self.spec, self.quiescence = game, evaluate, depth, spec, quiescence

    def best(self, state):
        return search(self.game, state, self.depth, self.evaluate, self.quiescence)

    def distribution(self, state) -> list:
        return [(self.best(state).move, 1.0)]

    def choose(self, state, rng=None):
        return self.best(state).move


#: Unusable answers in a row after which a game at the terminal is abandoned: no person
#: answers like that, a stream of junk does.
MAX_BAD_ANSWERS = 20


class GaveUp(EvoplayError):
    """``MAX_BAD_ANSWERS`` answers in a row named no legal move."""


class TerminalHuman:
    """A person at the terminal: shows the board, reads a move, explains a bad one and asks again.

    End of input surfaces as ``EOFError`` and Ctrl-C as ``KeyboardInterrupt``; ``max_bad``
    unusable answers in a row as ``GaveUp``.
    """

    deterministic = False
    spec = "human"

    def __init__(self, game, read=input, write=print, max_bad: int = MAX_BAD_ANSWERS):
        self.game, self.read, self.write, self.max_bad = game, read, write, max_bad

    def distribution(self, state) -> list:
        raise SpecError("a human has no move distribution")

    def choose(self, state, rng):
        g = self.game
        side = side_with_pieces(g, state, g.to_move(state))
        hint = getattr(g, "move_prompt", None) or f"e.g. {g.move_text(state, g.legal_moves(state)[0])}"
        self.write("\n" + g.render(state, numbers=True))
        for _ in range(self.max_bad):
            text = self.read(f"Your move ({side}), {hint}: ")
            try:
                return g.parse_move(state, text)
            except ValueError as e:
                self.write(str(e))
        raise GaveUp(f"{self.max_bad} answers in a row named no legal move; game abandoned")


def side_with_pieces(game, state, side: int) -> str:
    """A side's name, with the texts its pieces have on the board where the game says whose
    piece is where (``cells`` and ``owners``) and they are not the name itself: "Black (b)",
    "White (W)", but "X"."""
    name = game.side_names[side]
    cells, owners = capability(game, "cells"), capability(game, "owners")
    if cells is None or owners is None:
        return name
    pieces = sorted({str(text) for text, whose in zip(cells(state), owners(state)) if whose == side and text})
    return name if not pieces or pieces == [name] else f"{name} ({' and '.join(pieces)})"


#: Words that begin with a vowel letter but a consonant sound: "a user's game", "a one-ply search".
_CONSONANT_SOUNDS = ("uni", "usa", "use", "usu", "uti", "eu", "one", "once")


def with_article(word: str) -> str:
    """``word`` after the article it is read with: "an openspiel:hex", "a checkers"; a vowel
    letter first takes "an", but for the few words that begin with a consonant's sound ("a user")."""
    lower = str(word).lower()
    vowel = lower[:1] in ("a", "e", "i", "o", "u") and not lower.startswith(_CONSONANT_SOUNDS)
    return f"{'an' if vowel else 'a'} {word}"


def quoted(text, limit: int = 40) -> str:
    """``text`` quoted for a message, cut to ``limit`` characters with its length said when longer."""
    text = str(text)
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def format_spec(name: str, params: dict) -> str:
    """Canonical spec string: ``name:key=value,...`` in the factory's parameter order."""
    if not params:
        return name
    return name + ":" + ",".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in params.items())


def parse_spec(spec: str, registry: dict, game_name: str, also: tuple = ("human",)) -> tuple[str, dict]:
    """Name and typed parameters of ``NAME:key=value,...``; ``registry`` maps names to
    ``(factory, {param: (type, check)})``, ``also`` names what else a spec may be (listed
    in the message of an unknown name)."""
    name, _, rest = spec.strip().partition(":")
    if name not in registry:
        hint = f"; a run directory is named by a path: ./{name}" if not rest and os.path.isdir(name) else ""
        raise SpecError(f"unknown player {quoted(name)}: not {with_article(game_name)} player "
                        f"(known: {', '.join([*registry, *also])}){hint}")
    _, schema = registry[name]
    params = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq:
            raise SpecError(f"player {name}: parameter {quoted(item)} is not key=value")
        if key != key.strip() and key.strip() in schema:  # a spec is one word, as `--games 4` takes no ' 4'
            raise SpecError(f"player {name}: parameter {quoted(key)} has blanks around it: write {name}:{key.strip()}=...")
        if key not in schema:
            raise SpecError(f"player {name}: unknown parameter {quoted(key)} (allowed: {', '.join(schema) or 'none'})")
        if key in params:
            raise SpecError(f"player {name}: parameter {quoted(key)} is given twice")
        kind, check = schema[key]
        try:
            typed = _typed(kind, value)
        except ValueError:
            words = getattr(kind, "words", None) or ("an integer" if kind is int else "a number")
            raise SpecError(f"player {name}: {key} must be {words}, got {quoted(value)}") from None
        if kind is float and not np.isfinite(typed):
            raise SpecError(f"player {name}: {key} must be finite, got {quoted(value)}")
        params[key] = check(typed)
    return name, params


def _typed(kind, value: str):
    """A spec parameter's text as ``kind``: numbers as plain ASCII decimals (``evoplay.files.plainnum``:
    not ``1_0``, ``+4``, `` 4`` or full-width digits), text as it is written (its check refuses blanks)."""
    if kind is int:
        return parse_int(value, negative=True)
    if kind is float:
        return parse_float(value)
    return kind(value)


def build(spec: str, registry: dict, game_name: str):
    """The player a spec names, with every parameter (defaults filled) in its canonical spec."""
    if not isinstance(spec, str) or not spec.strip():
        raise SpecError("empty player spec")
    if spec.strip() == "human":
        raise SpecError("player 'human' plays only in `evoplay game`")
    name, params = parse_spec(spec, registry, game_name)
    factory, _ = registry[name]
    full = {k: p.default for k, p in inspect.signature(factory).parameters.items()} | params
    return factory(**full)


def _plain(number) -> str:
    """A number as a person writes it, never rounded: an integer in full (1000000, not 1e+06),
    a real number in its shortest exact form (100.00001, not 100; 1.5, 100 for 100.0)."""
    if isinstance(number, int):
        return str(number)
    text = repr(float(number))
    return text[:-2] if text.endswith(".0") else text


def in_range(name: str, lo, hi):
    """A check that ``lo <= value <= hi``; its ``allowed`` says so in words."""

    def check(v):
        if not lo <= v <= hi:
            raise SpecError(f"{name} must be in [{_plain(lo)}, {_plain(hi)}], got {_plain(v)}")
        return v

    check.allowed = f"in [{_plain(lo)}, {_plain(hi)}]"  # what a listing of the players says (``evoplay players``)
    return check
