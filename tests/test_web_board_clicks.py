"""Whole games played by clicks on the board page in a real headless Chromium, for games
beyond the built-in two: OpenSpiel's Breakthrough 6x6 (a person against random) and the
user's Hexapawn file (a person on both sides), each move clicked from-square then to-square,
to the end shown in the status line; and Pentago, whose eight rotations of one square are
offered as candidates after one click. Also checked on the way: square cells of one size
in every row, the coordinates beside the board, each side's pieces in its own colour, the
last move highlighted. The server and browser helpers are those of tests/test_web_browser.py
(Chromium driven by Playwright); skipped without Chromium or OpenSpiel.
"""

from __future__ import annotations

import random
import re

import pytest
import test_web_browser
from test_web_browser import CHROMIUM, ENABLE, serve

#: The Chromium of tests/test_web_browser.py, and a fresh page of it per test (no script error allowed).
browser, page = test_web_browser.browser, test_web_browser.page
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason=ENABLE)

BREAKTHROUGH = "openspiel:breakthrough(columns=6,rows=6)"
IDLE = "document.body.dataset.busy === ''"
# a person is to move, or the game is over (a computer's move is on its way otherwise)
MY_TURN_OR_END = (f"{IDLE} && (document.querySelector('#status').dataset.result !== 'ongoing' || "
                  "document.querySelector('#status').textContent.includes(': you'))")


@pytest.fixture(scope="module")
def grid_server():
    """`evoplay serve --game` Breakthrough 6x6, the Hexapawn example file and Pentago."""
    pytest.importorskip("pyspiel")
    yield from serve("--game", "openspiel:breakthrough(rows=6,columns=6)", "--game",
                     "examples/games/hexapawn.py:Hexapawn", "--game", "openspiel:pentago")


def squares(text: str, rows: int, columns: int) -> list[int]:
    """The cells a move written in file-and-rank notation names ('c4d3*', 'a1-b2'): file a on
    the left, rank 1 the bottom row; cells numbered row by row from the top."""
    return [(rows - int(rank)) * columns + "abcdef".index(file) for file, rank in re.findall(r"([a-f])(\d)", text)]


def board(page) -> dict:
    return page.evaluate("""() => ({
        owners: [...document.querySelectorAll('#board .sq')].map(c => c.dataset.owner ?? '.').join(''),
        last: [...document.querySelectorAll('#board .sq.last')].map(c => Number(c.dataset.square)),
        targets: [...document.querySelectorAll('#board .sq.target')].map(c => Number(c.dataset.square)),
        played: [...document.querySelectorAll('#played li')].map(i => i.textContent),
        legal: [...document.querySelectorAll('#legal .legal-move:not([disabled])')].map(b => b.textContent),
        ranks: document.querySelector('#rank-labels').innerText.split('\\n'),
        files: document.querySelector('#file-labels').innerText.split('\\n'),
        boxes: [...document.querySelectorAll('#board .sq')].map(c => {
            const r = c.getBoundingClientRect(); return [Math.round(r.width), Math.round(r.height)]; }),
        discs: [0, 1].map(k => { const p = document.querySelector(`#board .sq[data-owner="${k}"] .piece`);
            return p ? getComputedStyle(p).backgroundColor : null; }),
    })""")


def square(n: int) -> str:
    return f'#board .sq[data-square="{n}"]'


def click_move(page, text: str, rows: int, columns: int):
    """Play ``text`` by clicking its squares; check the page marks the piece and offers the
    landing square, and that the move played is ``text``."""
    start, end = squares(text, rows, columns)
    before = board(page)
    assert start in before["targets"], (text, before["targets"])
    page.click(square(start))
    assert "picked" in page.get_attribute(square(start), "class").split()
    assert board(page)["targets"] == sorted(
        squares(t, rows, columns)[1] for t in before["legal"] if squares(t, rows, columns)[0] == start)
    page.click(square(end))
    page.wait_for_function(f"n => document.querySelectorAll('#played li').length > n && {IDLE}", arg=len(before["played"]))
    assert board(page)["played"][len(before["played"])] == text


def check_drawing(page, rows: int, columns: int, ranks: str, files: str):
    """Square cells of one size in every row, empty or not; the coordinates beside them."""
    shown = board(page)
    assert len(shown["boxes"]) == rows * columns
    widths, heights = {w for w, _ in shown["boxes"]}, {h for _, h in shown["boxes"]}
    assert max(widths) - min(widths) <= 1 and max(heights) - min(heights) <= 1 and abs(max(widths) - max(heights)) <= 1
    assert "".join(shown["ranks"]) == ranks and "".join(shown["files"]) == files


def test_breakthrough_played_to_the_end_by_clicks(grid_server, page):
    page.goto(f"{grid_server}/?game={BREAKTHROUGH}&first=human&second=random")
    page.wait_for_function(MY_TURN_OR_END)
    shown = board(page)
    assert shown["owners"] == "0" * 12 + "." * 12 + "1" * 12  # Black's pieces above, White's below
    assert shown["discs"] == ["rgb(29, 29, 31)", "rgb(247, 243, 234)"]  # Black's dark, White's light
    check_drawing(page, 6, 6, "654321", "abcdef")
    hint = page.inner_text("#spec-hint")
    assert "random, mcts, alpha-beta" in hint and "minimax" not in hint and "piece-difference" not in hint
    for _ in range(40):
        shown = board(page)
        if page.get_attribute("#status", "data-result") != "ongoing":
            break
        if shown["played"]:  # White's answer is the last move shown
            assert sorted(shown["last"]) == sorted(squares(shown["played"][-1], 6, 6))
        # Black (the person) runs for the last row: the move landing lowest, captures first
        move = max(shown["legal"], key=lambda t: (squares(t, 6, 6)[1] // 6, t.endswith("*"), t))
        assert shown["owners"][squares(move, 6, 6)[0]] == "0"
        click_move(page, move, 6, 6)
        page.wait_for_function(MY_TURN_OR_END)
    status = page.inner_text("#status")
    assert page.get_attribute("#status", "data-result") in ("black_win", "white_win"), status
    assert status in ("Black wins (you).", "White wins (random).")
    check_drawing(page, 6, 6, "654321", "abcdef")  # rows emptied on the way keep their height
    over = board(page)
    assert over["legal"] == [] and over["targets"] == []
    page.click(square(0))  # the game is over: a click changes nothing
    assert board(page)["played"] == over["played"]


def test_hexapawn_a_users_game_played_to_the_end_by_clicks_on_both_sides(grid_server, page):
    page.goto(f"{grid_server}/?game=hexapawn&first=human&second=human")
    page.wait_for_function(MY_TURN_OR_END)
    assert page.inner_text("#game option:checked") == "Hexapawn"
    shown = board(page)
    assert shown["owners"] == "111...000"  # the middle row is drawn though empty
    check_drawing(page, 3, 3, "321", "abc")
    rng = random.Random(5)
    for n in range(9):
        if page.get_attribute("#status", "data-result") != "ongoing":
            break
        shown = board(page)
        mover = n % 2
        move = rng.choice(sorted(shown["legal"]))
        assert shown["owners"][squares(move, 3, 3)[0]] == str(mover)
        click_move(page, move, 3, 3)
        page.wait_for_function(MY_TURN_OR_END)
        assert sorted(board(page)["last"]) == sorted(squares(move, 3, 3))
    status = page.inner_text("#status")
    assert status in ("White wins (you).", "Black wins (you).") and len(board(page)["played"]) == n


def test_one_click_offers_the_moves_of_that_square_when_there_are_several(grid_server, page):
    """Pentago: a stone on a1, then one of eight rotations: the click shows the eight moves."""
    page.goto(f"{grid_server}/?game=openspiel:pentago&first=human&second=human")
    page.wait_for_function(MY_TURN_OR_END)
    assert "click a square" in page.inner_text("#status")
    page.click(square(0))
    page.wait_for_selector("#candidates:not([hidden])")
    offered = page.eval_on_selector_all("#candidates .candidate-move", "b => b.map(x => x.textContent)")
    assert offered == [f"a1{r}" for r in "stuvwxyz"]
    assert board(page)["played"] == []  # nothing played until one is chosen
    page.click("#candidates .candidate-move >> text='a1t'")
    page.wait_for_function(f"document.querySelectorAll('#played li').length === 1 && {IDLE}")
    assert board(page)["played"] == ["a1t"] and page.is_hidden("#candidates")
