"""Players written by users: a class giving move distributions, named by a code reference.

A spec ``path/to/file.py:Name`` or ``package.module:Name``, optionally followed by
``:key=value,...`` (keyword arguments of the class), names a user player wherever a
player spec goes. The class needs one method, ``probs(codes) -> (n, 9)``: the move
distribution of the side to move on each board (codes as in ``evoplay.tictactoe.board``;
``board.MARKS[codes]`` gives the squares, ``board.TO_MOVE[codes]`` the mark to move). It
is asked once for every board with a legal move; ``make_player`` turns the table into a
table player like the built-ins, so it plays in matches, fitness evaluation and exact
analysis alike.
"""

from __future__ import annotations

import numpy as np

from evoplay.files import usercode
from evoplay.errors import EvoplayError, SpecError
from evoplay.tictactoe import board as ttt_board

#: Boards on which the side to move has a legal move.
_MOVE_CODES = np.flatnonzero(ttt_board.LEGAL.any(1))


def split_user_spec(spec: str):
    """(code reference, params text) of a user player spec, else (None, None)."""
    head, sep, tail = spec.rpartition(":")
    if sep and "=" in tail and usercode.is_ref(head):
        return head, tail
    return (spec, "") if usercode.is_ref(spec) else (None, None)


def _value(text: str):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def user_table(spec: str) -> np.ndarray:
    """The move table (N_CODES, 9) of a user class (see the module doc); bad classes or tables raise SpecError."""
    ref, params = split_user_spec(spec)
    try:
        cls = usercode.load(ref, "player")
    except EvoplayError as e:
        raise SpecError(str(e)) from None
    kwargs = {}
    for item in filter(None, params.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key.strip().isidentifier():
            raise SpecError(f"player {ref}: parameter {item!r} is not key=value")
        kwargs[key.strip()] = _value(value.strip())
    try:
        player = cls(**kwargs)
        probs = np.asarray(player.probs(_MOVE_CODES.copy()), dtype=np.float64)
    except EvoplayError:
        raise
    except Exception as e:  # the user's class failed: say which and how, in one line
        raise SpecError(f"player {ref}: {type(e).__name__}: {e}") from None
    if probs.shape != (len(_MOVE_CODES), 9):
        raise SpecError(f"player {ref}: probs(codes) must return shape ({len(_MOVE_CODES)}, 9), got {probs.shape}")
    legal = ttt_board.LEGAL[_MOVE_CODES]
    bad = ~np.isfinite(probs).all(1) | (probs < 0).any(1) | (np.where(legal, 0.0, probs) != 0).any(1)
    bad |= np.abs(probs.sum(1) - 1.0) > 1e-9
    if bad.any():
        code = int(_MOVE_CODES[np.argmax(bad)])
        board = ttt_board.render(code).replace(chr(10), " / ")
        raise SpecError(f"player {ref}: probs on board {board} is not a distribution over the empty squares (non-negative, summing to 1)")
    table = np.zeros((ttt_board.N_CODES, 9))
    table[_MOVE_CODES] = probs / probs.sum(1, keepdims=True)
    return table
