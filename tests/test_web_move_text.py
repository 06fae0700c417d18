"""A move sent to the web board API is read only as plain text: digits of other scripts,
full-width digits, blanks and line breaks around a move are refused with a 400 and one line.

The board API read a move with the game's own parser after stripping it, so '４' (full-width),
'١' (Arabic-Indic) and '1\\n' were tic-tac-toe's square 4 and 1 (``int`` reads any script's
digits and ignores blanks), and '１１-１５' a checkers move (``\\d`` matches them too), while the
command line reads its numbers as plain ASCII decimals (``evoplay.files.plainnum``). Every
game's move endpoint is covered: ``/api/games/<game>/move`` (its ``move`` and its ``moves``),
the moves replayed by ``state``, ``ai-move`` and ``analysis``, a game served with ``--game``
(Connect Four, an OpenSpiel game), and tic-tac-toe's first API (``/api/move``, whose square is
a JSON integer). A fuzz class sends such moves in every field a move travels in.
"""

from __future__ import annotations

import json
import random
import urllib.parse
from pathlib import Path

import pytest
from test_fuzz_web import call, served
from support.web import ok, refused, request, serving

from evoplay.web import boards

ROOT = Path(__file__).resolve().parents[1]
CONNECT_FOUR = f"{ROOT / 'examples' / 'games' / 'connect_four.py'}:ConnectFour"

#: Texts that name a legal move to Python's ``int`` or ``\d`` but are not the move as the game
#: writes it: other scripts' digits, full-width digits, blanks and control characters around it.
ODD_DIGITS = ["\uff14", "\u0661", "\u0664", "\u096a", "\u09ea", "\U0001d7d2"]  # ４ ١ ٤ ४ ৪ 𝟒
AROUND = ["1\n", "4\n", "\n4", " 4", "4 ", "\t4", "4\t", "4\r\n", "4\x00", "4\x0b", "\u00a04", "4\u2003", "4\u200b"]
ODD_MOVES = {
    "tictactoe": ODD_DIGITS + AROUND + ["\uff14\n"],
    "checkers": ["\uff11\uff11-\uff11\uff15", "\u0661\u0661-\u0661\u0665", "11-\uff11\uff15", "11-15\n", " 11-15",
                 "11-15 ", "\t11-15", "11\uff0d15", "11-15\x00"],
}
#: The same moves as the game writes them, which are played.
PLAIN = {"tictactoe": "4", "checkers": "11-15"}


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    with serving() as url:
        yield url


def path(game: str, what: str) -> str:
    return f"/api/games/{urllib.parse.quote(game, safe='')}/{what}"


@pytest.mark.parametrize("game, text", [(g, t) for g, texts in ODD_MOVES.items() for t in texts])
def test_a_move_in_other_digits_or_with_blanks_around_it_is_refused(url, game, text):
    message = refused(url, path(game, "move"), {"moves": [], "move": text}, fragment="move ")
    assert message.startswith("move ") and ("plain ASCII" in message or "blank" in message), message
    assert "\n" not in message and "\r" not in message


@pytest.mark.parametrize("game, text", [(g, t) for g, texts in ODD_MOVES.items() for t in texts[:4]])
@pytest.mark.parametrize("endpoint", ["state", "move", "ai-move", "analysis"])
def test_a_played_move_in_other_digits_is_refused_by_every_endpoint(url, game, text, endpoint):
    body = {"moves": [text]}
    if endpoint == "move":
        body["move"] = "0" if game == "tictactoe" else "22-18"
    elif endpoint == "ai-move":
        body["player"] = "random"
    elif endpoint == "analysis":
        body["players"] = ["random", "random"]
    refused(url, path(game, endpoint), body, fragment="move 1 ")


def test_the_moves_as_the_game_writes_them_are_played(url):
    for game, text in PLAIN.items():
        got = ok(url, path(game, "move"), {"moves": [], "move": text})
        assert got["move"] == text and got["moves"] == [text]
        assert ok(url, path(game, "state"), {"moves": [text]})["moves"] == [text]
    # the short forms a game's notation allows stay allowed: checkers' from-to of a capture path,
    # its capital X, and blanks inside a move
    start = "B:W14,23,30:B1,9"
    assert ok(url, path("checkers", "move"), {"start": start, "move": "9x27"})["move"] == "9x18x27"
    assert ok(url, path("checkers", "move"), {"start": start, "move": "9X18X27"})["move"] == "9x18x27"
    assert ok(url, path("checkers", "move"), {"moves": [], "move": "11 - 15"})["move"] == "11-15"


def test_tictactoes_first_api_takes_a_json_integer_only(url):
    """``/api/move``'s square is a JSON integer: a string, even of plain digits, and a number
    in other digits (not JSON) are refused."""
    for square in ["4", "\uff14", "\u0661", "4\n"]:
        refused(url, "/api/move", {"board": ".........", "square": square}, fragment="square must be an integer")
    for raw in ['{"board": ".........", "square": \uff14}', '{"board": ".........", "square": \u0661}']:
        refused(url, "/api/move", raw=raw.encode(), fragment="not valid JSON")
    assert ok(url, "/api/move", {"board": ".........", "square": 4}) == {"board": "....X....", "square": 4}


def test_a_served_game_reads_plain_moves_only():
    """Connect Four (a user game whose columns are read with ``int``) and an OpenSpiel game
    (whose moves may be sent as their action numbers) through ``--game``."""
    games = [CONNECT_FOUR]
    try:
        import pyspiel  # noqa: F401

        games.append("openspiel:tic_tac_toe")
    except ImportError:
        pass
    with serving(games=games) as url:
        names = [g["name"] for g in ok(url, "/api/games")["games"]]
        four = next(n for n in names if n not in ("tictactoe", "checkers") and "openspiel" not in n)
        assert ok(url, path(four, "move"), {"move": "4"})["move"] == "4"
        for text in ["\uff14", "\u0664", "4\n", " 4"]:
            refused(url, path(four, "move"), {"move": text}, fragment="move ")
            refused(url, path(four, "state"), {"moves": [text]}, fragment="move 1 ")
        spiel = [n for n in names if "openspiel" in n]
        for name in spiel:
            legal = ok(url, path(name, "state"), {})["legal"]
            assert ok(url, path(name, "move"), {"move": legal[4]["text"]})["move"] == legal[4]["text"]
            assert ok(url, path(name, "move"), {"move": "4"})["moves"] == [legal[4]["text"]]  # its action number
            for text in ["\uff14", "\u0664", "4\n"]:
                refused(url, path(name, "move"), {"move": text}, fragment="move ")


def test_a_game_whose_own_move_texts_are_not_ascii_plays_them():
    """The exact text a game writes for a move is always read, whatever its characters."""

    class Greek:
        name = "greek"
        side_names = ("first", "second")

        def initial(self):
            return ()

        def to_move(self, state):
            return len(state) % 2

        def legal_moves(self, state):
            return [] if len(state) >= 2 else ["\u03b1", "\u03b2"]

        def apply(self, state, move):
            return state + (move,)

        def result(self, state):
            return 0 if len(state) >= 2 else None

        def move_text(self, state, move):
            return move

        def parse_move(self, state, text):
            if text in self.legal_moves(state):
                return text
            raise ValueError(f"{text!r} is not a legal move here")

    game = Greek()
    state, move = boards.play(game, game.initial(), "\u03b1", "move")
    assert move == "\u03b1" and state == ("\u03b1",)
    with pytest.raises(boards.ApiError) as e:
        boards.play(game, game.initial(), "\u03b1\n", "move")
    assert e.value.status == 400 and "blank" in e.value.message


# ---------------------------------------------------------------- fuzz


def odd_move_case(rng) -> tuple[str, str, bytes]:
    """A request to a game's endpoint with one odd move in ``move`` or among ``moves``."""
    game = rng.choice(sorted(ODD_MOVES))
    text = rng.choice(ODD_MOVES[game])
    if rng.random() < 0.3:  # an odd digit anywhere in a plain move
        plain = PLAIN[game]
        k = rng.randrange(len(plain))
        text = plain[:k] + rng.choice(ODD_DIGITS + ["\n", "\x00", "\u3000"]) + plain[k + 1:]
    endpoint = rng.choice(["state", "move", "ai-move", "analysis"])
    body: dict = {"moves": []}
    if endpoint == "move" and rng.random() < 0.5:
        body["move"] = text
    else:
        body["moves"] = [PLAIN[game]][: rng.randrange(2)]
        body["moves"].append(text)
        if endpoint == "move":
            body["move"] = "0" if game == "tictactoe" else "22-18"
    if endpoint == "ai-move":
        body["player"] = rng.choice(["random", "mcts:sims=2"])
    elif endpoint == "analysis":
        body["players"] = ["random", "random"]
    return f"{game}/{endpoint} {text!r}", f"/api/games/{game}/{endpoint}", json.dumps(body).encode()


def test_fuzz_odd_moves_get_a_400_naming_the_move(tmp_path):
    app = served(tmp_path)
    rng = random.Random(41)
    failures = []
    for i in range(300):
        label, target, raw = odd_move_case(rng)
        status, out, logged = call(app, "POST", target, raw, {})
        data = json.loads(out)
        if status != 400 or set(data) != {"error"} or "\n" in data["error"] or logged or "move" not in data["error"]:
            failures.append(f"#{i} {label}: {status} {out[:200]!r} {logged[-200:]!r}")
    assert not failures, f"{len(failures)} of 300:\n" + "\n".join(failures[:20])
