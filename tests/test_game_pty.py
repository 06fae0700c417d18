"""`evoplay game` at a real pseudo-terminal: bad input, a finished game, end of input, Ctrl-C."""

import fcntl
import os
import select
import signal
import subprocess
import sys
import termios
import time
from pathlib import Path

import numpy as np
import pytest

from evoplay.tictactoe import board
from evoplay.arena.match import play_game
from evoplay.arena.players import GaveUp, TerminalHuman
from evoplay.games import resolve_game

from support.nowork import run_reading

TTT = resolve_game("tictactoe")

EVOPLAY = str(Path(sys.executable).with_name("evoplay"))


class Terminal:
    """``evoplay game`` running with a pty as its controlling terminal."""

    def __init__(self, *args):
        master, slave = os.openpty()

        def take_terminal():  # runs in the child after setsid: Ctrl-C then sends SIGINT
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
            # A background test runner may ignore SIGINT; a user's shell does not.
            signal.signal(signal.SIGINT, signal.SIG_DFL)

        self.proc = subprocess.Popen(
            [EVOPLAY, "game", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            start_new_session=True,
            preexec_fn=take_terminal,
        )
        os.close(slave)
        self.master = master
        self.output = ""
        self.seen = 0  # transcript up to here was matched by earlier expects

    def expect(self, text, timeout=20.0):
        """Read until ``text`` appears after what earlier expects matched."""
        deadline = time.monotonic() + timeout
        while (at := self.output.find(text, self.seen)) < 0:
            left = deadline - time.monotonic()
            if left <= 0 or not self._read(left):
                raise AssertionError(f"{text!r} never appeared; got:\n{self.output}")
        self.seen = at + len(text)

    def _read(self, timeout):
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            chunk = os.read(self.master, 4096)
        except OSError:  # EIO: the child closed the terminal
            return False
        self.output += chunk.decode(errors="replace").replace("\r\n", "\n")
        return bool(chunk)

    def send(self, data: str):
        os.write(self.master, data.encode())

    def finish(self, timeout=20.0):
        """Exit code once the game has ended; the rest of the output is read."""
        deadline = time.monotonic() + timeout
        while self._read(max(0.0, deadline - time.monotonic())):
            pass
        code = self.proc.wait(timeout=max(1.0, deadline - time.monotonic()))
        os.close(self.master)
        return code


@pytest.fixture
def terminals():
    opened = []

    def start(*args):
        opened.append(Terminal(*args))
        return opened[-1]

    yield start
    for term in opened:
        if term.proc.poll() is None:
            term.proc.kill()
            term.proc.wait()


def test_bad_input_then_end_of_input(terminals):
    term = terminals("--vs", "first-open", "--first", "human", "--seed", "0")
    term.expect("Your move (X), square 0-8:")
    term.send("abc\n")
    term.expect("'abc' is not a square number: type a number from 0 to 8.")
    term.send("42\n")
    term.expect("There is no square 42: type a number from 0 to 8.")
    term.send("4\n")
    term.expect("first-open plays 0.")
    term.send("0\n")
    term.expect("Square 0 is taken: choose one of 1, 2, 3, 5, 6, 7, 8.")
    term.send("2\n")
    term.expect("first-open plays 1.")
    term.expect("O O X\n3 X 5\n6 7 8")
    term.send("\x04")  # Ctrl-D at the start of a line: end of input
    term.expect("End of input: game abandoned.")
    assert term.finish() == 0
    assert "Traceback" not in term.output


def test_a_game_to_the_end(terminals):
    term = terminals("--vs", "first-open")
    for square, reply in (("4", "first-open plays 0."), ("2", "first-open plays 1.")):
        term.expect("Your move (X)")
        term.send(square + "\n")
        term.expect(reply)
    term.send("6\n")  # completes the 2-4-6 diagonal
    term.expect("You win!")
    assert term.finish() == 0
    assert "O O X\n. X .\nX . ." in term.output


def test_computer_moves_first_and_wins(terminals):
    term = terminals("--vs", "first-open", "--first", "ai")
    term.expect("You play O against first-open.")
    for square in ("8", "7"):
        term.expect("Your move (O)")
        term.send(square + "\n")
    term.expect("first-open wins.")
    assert term.finish() == 0
    assert "first-open plays 2." in term.output


def test_ctrl_c_ends_the_game_cleanly(terminals):
    term = terminals("--vs", "logic")
    term.expect("Your move (X)")
    # Let it reach its read: Python misses a SIGINT landing between prompt and read.
    time.sleep(0.5)
    term.send("\x03")  # the terminal turns Ctrl-C into SIGINT
    term.expect("Interrupted: game abandoned.")
    assert term.finish() == 130
    assert "Traceback" not in term.output


def test_human_opponent_is_refused(terminals):
    term = terminals("--vs", "human")
    assert term.finish() == 2
    assert "needs a computer player" in term.output and "Traceback" not in term.output


# ---------------------------------------------------------------- the same logic, in-process


@pytest.mark.parametrize(
    "text, square, message",
    [
        ("4", 4, ""),
        (" 8 ", 8, ""),
        ("", None, "Type a square number"),
        ("x", None, "'x' is not a square number"),
        ("3.5", None, "'3.5' is not a square number"),
        ("-1", None, "There is no square -1"),
        ("9", None, "There is no square 9"),
        ("0", None, "Square 0 is taken: choose one of 1, 2, 3, 4, 5, 6, 7, 8."),
    ],
)
def test_parse_square(text, square, message):
    code = board.parse("X . . / . . . / . . .")
    if square is not None:
        assert TTT.parse_move(code, text) == square
    else:
        with pytest.raises(ValueError) as e:
            TTT.parse_move(code, text)
        assert str(e.value).startswith(message)


def test_scripted_human_against_minimax():
    typed = iter(["oops"] + [str(s) for s in range(9)] * 5)
    shown = []
    human = TerminalHuman(TTT, read=lambda prompt: shown.append(prompt) or next(typed), write=shown.append)
    score, _, _ = play_game(TTT, human, TTT.make_player("minimax"), TTT.initial(), np.random.default_rng(0))
    assert score in (0, -1)  # minimax never loses
    assert any("'oops' is not a square number" in line for line in shown)


def test_a_stream_of_blank_lines_ends_the_game_with_one_line():
    lines = b"\n" * (10 << 20)
    proc, read = run_reading([EVOPLAY, "game", "--vs", "logic", "--seed", "0"], lines, timeout=60)
    err = proc.stderr.decode()
    assert proc.returncode == 2 and err.count("\n") == 1, err
    assert err.startswith("evoplay: error: 20 answers in a row named no legal move")
    assert proc.stdout.decode().count("Type a square number") == 20
    # It gave up at the 20th answer, its input not read through (one buffer of it at most).
    assert read <= 1 << 16 < len(lines), f"read {read} bytes of its input"


def test_answers_that_name_no_square_are_bounded_and_quoted_short():
    typed = iter(["9", "x" * 100_000, "", "0", "0"] + ["junk"] * 10)
    shown = []
    human = TerminalHuman(TTT, read=lambda prompt: next(typed), write=shown.append, max_bad=5)
    assert human.choose(board.parse(". . . / . . . / . . ."), None) == 0
    assert max(map(len, shown)) < 200  # the 100,000-character answer is quoted cut short
    with pytest.raises(GaveUp, match="5 answers in a row"):
        human.choose(board.parse("X . . / . . . / . . ."), None)  # "0" is taken, then junk
