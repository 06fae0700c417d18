"""A person at the terminal as a player, and the loop of one interactive game.

The human shows up through the same ``choose`` interface as every other player; bad input
(not a number, off the board, an occupied square) gets a message and a new prompt, up to
``MAX_BAD_ANSWERS`` in a row (then ``GaveUp``: no person answers like that, a stream of
junk on standard input does). End of input surfaces as ``EOFError`` and Ctrl-C as
``KeyboardInterrupt`` for the caller to end the game cleanly.
"""

from __future__ import annotations

import numpy as np

from evoplay.tictactoe import board as B
from evoplay.errors import EvoplayError
from evoplay.tictactoe.players import Player, quoted

MARK_NAMES = {B.X: "X", B.O: "O"}
#: Empty or unusable answers in a row after which the game is abandoned.
MAX_BAD_ANSWERS = 20


class GaveUp(EvoplayError):
    """``MAX_BAD_ANSWERS`` answers in a row named no legal square."""


def parse_square(text: str, code: int) -> tuple[int | None, str]:
    """The square typed for board ``code``, or None and a message saying what is wrong."""
    text = text.strip()
    if not text:
        return None, "Type a square number from 0 to 8 (Ctrl-D quits)."
    try:
        square = int(text)
    except ValueError:
        return None, f"{quoted(text)} is not a square number: type a number from 0 to 8."
    if not 0 <= square < B.N_SQUARES:
        return None, f"There is no square {square}: type a number from 0 to 8."
    if not B.LEGAL[code, square]:
        free = ", ".join(map(str, B.legal_moves(code)))
        return None, f"Square {square} is taken: choose one of {free}."
    return square, ""


class HumanPlayer(Player):
    """Reads its moves from the terminal; ``read`` and ``write`` default to stdin/stdout."""

    spec = "human"

    def __init__(self, read=input, write=print, max_bad: int = MAX_BAD_ANSWERS):
        self.read = read
        self.write = write
        self.max_bad = max_bad

    def ask(self, code: int) -> int:
        """Show the board with square numbers and prompt until a legal square is typed
        (``GaveUp`` after ``max_bad`` answers in a row that name none)."""
        mark = MARK_NAMES[int(B.TO_MOVE[code])]
        self.write("\n" + B.render(code, numbers=True))
        for _ in range(self.max_bad):
            square, message = parse_square(self.read(f"Your move ({mark}), square 0-8: "), code)
            if square is not None:
                return square
            self.write(message)
        raise GaveUp(f"{self.max_bad} answers in a row named no free square 0-8; game abandoned")

    def choose(self, codes, u):
        return np.array([self.ask(int(c)) for c in np.atleast_1d(codes)])


def play_interactive(x_player: Player, o_player: Player, rng, write=print, ai_name=None) -> int:
    """Play one game move by move, announcing the computer's moves; return the outcome.

    ``rng`` (a numpy Generator) drives the computer's sampled moves.
    """
    code = 0
    while B.winner(code) == B.ONGOING:
        player = x_player if B.TO_MOVE[code] == B.X else o_player
        move = int(player.choose(np.array([code]), rng.random(1))[0])
        if not isinstance(player, HumanPlayer):
            write(f"{ai_name or player.spec} plays {move}.")
        code = B.play(code, move)
    write("\n" + B.render(code))
    return B.winner(code)
