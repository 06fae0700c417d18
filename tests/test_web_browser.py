"""`evoplay serve` in a real headless Chromium (the system's, driven by Playwright).

On the one board page (`/`, both games): plays a whole game of tic-tac-toe against
minimax by clicking, moves a temperature slider and watches the move probabilities
change, checks that the exact outcome shown equals `evoplay match ... --exact`, undoes
moves in either game, plays checkers by clicks (a multi-jump too) with the analysis
checked against the search; follows a run page's "Play this champion" and an archive's
"Play this elite", and checks that a bad spec shows an error while the page stays usable.
Screenshots go to $EVOPLAY_SCREENSHOTS when set (docs/serve-play.png, serve-checkers.png
and serve-run.png, shown on the documentation's web-app page, come from
`EVOPLAY_SCREENSHOTS=docs`), else to a temporary directory.

Needs Chromium: `make test` installs it with apt-get when run as root; elsewhere install
it (Debian/Ubuntu: `sudo apt-get install chromium`) or point EVOPLAY_CHROMIUM at one.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from evoplay.tictactoe import board as ttt_board
from evoplay.tictactoe import exact
from evoplay.tictactoe.players import make_player

ROOT = Path(__file__).resolve().parents[1]
RUN = "results/fogel1993"
EVOPLAY = str(Path(sys.executable).with_name("evoplay"))
CHROMIUM = os.environ.get("EVOPLAY_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
ENABLE = (
    "browser test skipped: no Chromium found; install it (Debian/Ubuntu: sudo apt-get install chromium, "
    "which `make test` does when run as root) or set EVOPLAY_CHROMIUM=/path/to/chromium"
)
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason=ENABLE)


def serve(*args):
    """`evoplay serve ARGS --port 0` as a subprocess in the repository: yields its base URL."""
    proc = subprocess.Popen(
        [EVOPLAY, "serve", *args, "--port", "0", "--quiet"], cwd=ROOT,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        line = proc.stdout.readline()
        m = re.match(r"evoplay serve: (http://127\.0\.0\.1:\d+)/", line)
        assert m, f"unexpected first line {line!r}: {proc.stderr.read() if proc.poll() is not None else ''}"
        yield m.group(1)
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture(scope="module")
def server():
    """`evoplay serve RUN`: its base URL."""
    yield from serve(RUN)


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 760})
    page = context.new_page()
    page.set_default_timeout(20_000)
    failures = []
    page.on("pageerror", lambda e: failures.append(str(e)))
    yield page
    context.close()
    assert failures == [], failures  # no uncaught script error on any page


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    where = os.environ.get("EVOPLAY_SCREENSHOTS")
    path = Path(where) if where else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def board(page) -> str:
    return page.eval_on_selector_all(
        "#board .sq", "cells => cells.map(c => c.dataset.piece ? c.querySelector('.piece').textContent || c.dataset.piece : '.').join('')"
    )


def shown_probs(page) -> list:
    return page.eval_on_selector_all(
        "#board .sq", "cells => cells.map(c => c.dataset.prob === undefined ? null : Number(c.dataset.prob))"
    )


def shown_exact(page) -> dict:
    return page.eval_on_selector_all(
        "#exact tr",
        "rows => Object.fromEntries(rows.map(r => [r.dataset.key, "
        "{text: r.querySelector('.value').textContent, value: Number(r.querySelector('.value').dataset.value)}]))",
    )


def wait_rendered(page, x_spec: str, o_spec: str):
    """Until the page shows an analysis made for these two players and is not waiting."""
    page.wait_for_function(
        "([x, o]) => document.body.dataset.busy === '' && document.querySelector('#cli-hint').textContent"
        ".startsWith(`evoplay match ${x} ${o} `)",
        arg=[x_spec, o_spec],
    )


def test_play_a_whole_game_against_minimax_by_clicking(server, page):
    page.goto(f"{server}/?game=tictactoe&first=human&second=minimax")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('X to move: you')")
    assert page.input_value("fieldset[data-side=o] .spec") == "minimax"
    # the menus show the labels the server lists for the game's players
    assert page.inner_text("fieldset[data-side=o] .kind option[value=minimax]") == "minimax (perfect play)"
    assert page.get_attribute("#board", "data-look") == "marks"
    first = True
    while page.get_attribute("#status", "data-result") == "ongoing":
        before = board(page)
        square = before.index(".")
        page.click(f'#board .sq[data-square="{square}"]')
        n_x = before.count("X") + 1
        # my mark, then minimax's reply (or the end): the status asks me again or names the result
        page.wait_for_function(
            "n => document.querySelectorAll('#board .sq[data-owner=\"0\"]').length === n && document.body.dataset.busy === '' && "
            "(document.querySelector('#status').textContent.includes('click a square') || "
            "document.querySelector('#status').dataset.result !== 'ongoing')",
            arg=n_x,
        )
        now = board(page)
        assert now[square] == "X" and now.count("X") == n_x
        if first:  # an occupied square: the server refuses, the page says so and goes on
            page.click(f'#board .sq[data-square="{square}"]')
            page.wait_for_selector("#error:not([hidden])")
            assert page.inner_text("#error-text") == f"square {square} is taken"
            assert board(page) == now
            first = False
    final = board(page)
    result = ttt_board.winner(ttt_board.parse(final))
    assert result in (ttt_board.O_WIN, ttt_board.DRAW)  # nobody beats minimax
    status = page.inner_text("#status")
    assert status == ("O wins (minimax)." if result == ttt_board.O_WIN else "Draw.")
    assert page.get_attribute("#status", "data-result") == {ttt_board.O_WIN: "o_win", ttt_board.DRAW: "draw"}[result]
    # undo goes back to my last turn: my last mark and minimax's reply are gone
    page.click("#undo")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('X to move: you')")
    undone = board(page)
    assert undone.count("X") == final.count("X") - 1 and undone.count("O") == undone.count("X")


def test_sliders_change_the_probabilities_and_the_exact_outcome_equals_match(server, page, shots):
    x0 = "softmax:t=0.2,model_t=1"
    page.goto(f"{server}/?first={x0}&second=minimax&auto=0")
    wait_rendered(page, x0, "minimax")
    assert not page.is_checked("#auto")
    assert page.is_visible("fieldset[data-side=x] .softmax") and page.is_hidden("fieldset[data-side=o] .softmax")
    labels = page.inner_text("fieldset[data-side=x] .softmax")
    assert labels.count("Precise") == 2 and labels.count("Chaotic") == 2
    probs0 = shown_probs(page)
    assert probs0 == make_player(x0).probs([0])[0].tolist()

    # own temperature to the chaotic end: the shading flattens
    page.fill("fieldset[data-side=x] input.t", "0.5")  # log10 t
    x1 = "softmax:t=3.16,model_t=1"
    wait_rendered(page, x1, "minimax")
    assert page.input_value("fieldset[data-side=x] .spec") == x1
    assert page.inner_text("fieldset[data-side=x] .t-value") == "3.16"
    probs1 = shown_probs(page)
    assert probs1 == make_player(x1).probs([0])[0].tolist()
    assert max(probs1) < max(probs0) and min(probs1) > min(probs0)

    # the modelled opponent's temperature: the probabilities move again
    page.fill("fieldset[data-side=x] input.model-t", "-2")
    x2 = "softmax:t=3.16,model_t=0.01"
    wait_rendered(page, x2, "minimax")
    probs2 = shown_probs(page)
    assert probs2 == make_player(x2).probs([0])[0].tolist() and probs2 != probs1

    # the exact outcome shown is `evoplay match X minimax --exact` (text and full value)
    shown = shown_exact(page)
    run = subprocess.run(
        [EVOPLAY, "match", x2, "minimax", "--exact", "--seats", "a-first"], capture_output=True, text=True, cwd=ROOT,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    printed = dict(re.findall(r"^\s+(A wins|draws|B wins)\s+(\d\.\d{5})", run.stdout, re.M))
    assert [shown[k]["text"] for k in ("x_win", "draw", "o_win")] == [printed[k] for k in ("A wins", "draws", "B wins")]
    as_json = subprocess.run(
        [EVOPLAY, "match", x2, "minimax", "--exact", "--seats", "a-first", "--json"],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )
    (r,) = json.loads(as_json.stdout)["results"]
    assert [shown[k]["value"] for k in ("x_win", "draw", "o_win")] == [r["a_win"], r["draw"], r["b_win"]]
    assert shown["o_win"]["value"] > 0.01  # so chaotic an X does lose to minimax

    # two steps of AI-vs-AI play; then X (softmax) is to move again, from a real position
    for n in (1, 2):
        page.click("#step")
        page.wait_for_function("n => document.querySelectorAll('#board .sq[data-piece]').length === n "
                               "&& document.body.dataset.busy === ''", arg=n)
    position = ttt_board.parse(board(page))
    assert shown_probs(page) == [
        None if ttt_board.MARKS[position, s] else p for s, p in enumerate(make_player(x2).probs([position])[0].tolist())
    ]
    want = exact.outcome(make_player(x2), make_player("minimax"), position)
    got = shown_exact(page)
    assert [got[k]["value"] for k in ("x_win", "draw", "o_win")] == [want.x_win, want.draw, want.o_win]
    page.fill("fieldset[data-side=x] input.t", "-0.7")  # back to the defaults, for the picture
    page.fill("fieldset[data-side=x] input.model-t", "0")
    wait_rendered(page, "softmax:t=0.2,model_t=1", "minimax")
    page.check("#show-values")
    assert page.inner_text("#values-label") == "Show minimax value of each move"  # the server's words
    page.wait_for_selector("#board .sq .minimax")
    page.screenshot(path=str(shots / "serve-play.png"), full_page=True)


def test_run_page_shows_curve_and_champions_and_plays_one(server, page, shots):
    summary = json.loads((ROOT / RUN / "summary.json").read_text())
    page.goto(f"{server}/run?id=0")
    page.wait_for_selector("#champions tbody tr")
    assert page.inner_text("#run-name") == f"Run {Path(RUN).name}"
    rows = page.locator("#champions tbody tr")
    assert rows.count() == summary["trials"]
    best = page.locator("#champions tbody tr.best")
    assert best.get_attribute("data-trial") == str(summary["best_trial"])
    page.wait_for_function("document.querySelector('#curve').complete && document.querySelector('#curve').naturalWidth > 0")
    page.screenshot(path=str(shots / "serve-run.png"), full_page=True)

    spec = f"{RUN}/trials/trial_03/champion.json"
    page.click('#champions tbody tr[data-trial="3"] a.play')
    page.wait_for_url(re.compile(r"/\?game=tictactoe&first="))
    # the champion plays X at once (auto-play); then it is my move as O
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('O to move: you')")
    assert page.input_value("fieldset[data-side=x] .spec") == spec
    assert page.input_value("fieldset[data-side=x] .kind") == spec  # offered in the menu too
    opening = board(page)
    champion = make_player(str(ROOT / spec))
    assert opening.count("X") == 1 and opening.count("O") == 0
    assert champion.probs([0])[0][opening.index("X")] > 0  # a move the champion can make


def test_errors_are_shown_and_the_page_stays_usable(server, page):
    page.goto(f"{server}/?first=/etc/passwd&second=minimax")
    page.wait_for_selector("#error:not([hidden])")
    assert "outside the paths this server was started with" in page.inner_text("#error-text")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('X to move')")
    # an address naming no game opens the server's default (GET /api/games names it), and then names it
    assert page.input_value("#game") == "tictactoe" and re.search(r"[?&]game=tictactoe(&|$)", page.url), page.url
    # a bad temperature typed as a spec: the error names it, the old player stays
    o_spec = page.input_value("fieldset[data-side=o] .spec")
    page.fill("fieldset[data-side=o] .spec", "softmax:t=0")
    page.press("fieldset[data-side=o] .spec", "Enter")
    page.wait_for_function("document.querySelector('#error-text').textContent.includes('softmax t must be in')")
    assert page.get_attribute("fieldset[data-side=o] .spec", "aria-invalid") == "true"
    assert page.inner_text("#error-text").startswith("O player: ")
    # still usable: a click plays, and the next good spec is taken
    page.click('#board .sq[data-square="4"]')
    page.wait_for_function("document.querySelectorAll('#board .sq[data-owner=\"0\"]').length === 1")
    assert page.is_hidden("#error")  # a good move clears it
    page.select_option("fieldset[data-side=o] .kind", "logic")
    wait_rendered(page, "random", "logic")  # the human X is modelled as random
    assert o_spec != "logic" and page.get_attribute("fieldset[data-side=o] .spec", "aria-invalid") is None


def test_computer_against_computer_auto_play_step_undo_and_swap(server, page):
    page.goto(f"{server}/?first=minimax&second=logic&auto=1")
    page.wait_for_function("['x_win', 'o_win', 'draw'].includes(document.querySelector('#status').dataset.result)",
                           timeout=30_000)
    final = board(page)
    assert ttt_board.winner(ttt_board.parse(final)) in (ttt_board.X_WIN, ttt_board.DRAW)  # minimax never loses
    marks = 9 - final.count(".")
    page.click("#undo")  # two computers: one move back, and auto-play pauses there
    page.wait_for_function("n => document.querySelectorAll('#board .sq[data-piece]').length === n "
                           "&& document.body.dataset.busy === ''", arg=marks - 1)
    assert not page.is_checked("#auto") and page.get_attribute("#status", "data-result") == "ongoing"
    before = board(page)
    page.click("#swap")  # the players change seats, the position stays
    wait_rendered(page, "logic", "minimax")
    assert board(page) == before and before.count(".") == 9 - (marks - 1)
    assert page.input_value("fieldset[data-side=x] .spec") == "logic"
    page.click("#step")
    page.wait_for_function("n => document.querySelectorAll('#board .sq[data-piece]').length === n "
                           "&& document.body.dataset.busy === ''", arg=marks)
    page.click("#new-game")
    page.wait_for_function("document.querySelectorAll('#board .sq[data-piece]').length === 0")
    assert page.inner_text("#status").startswith("X to move: logic")


def checkers_moves(page) -> list:
    return page.eval_on_selector_all("#played li", "items => items.map(i => i.textContent)")


def wait_moves(page, n: int):
    page.wait_for_function(
        "n => document.querySelectorAll('#played li').length === n && document.body.dataset.busy === ''", arg=n
    )


def test_checkers_by_clicks_with_a_multi_jump_and_the_analysis(server, page, shots):
    from evoplay.checkers import rules
    from evoplay.checkers import search as compiled

    opponent = "piece-difference:depth=3"
    page.goto(f"{server}/?game=checkers&first=human&second={opponent}")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Black to move: you')")
    assert page.eval_on_selector_all('#board .sq[data-owner="0"]', "s => s.length") == 12  # Black's men
    assert page.inner_text('#board .sq[data-square="11"] .num') == "11"  # the squares are numbered as the moves
    label = page.inner_text("fieldset[data-side=white] .kind option[value=piece-difference]")
    assert label == "piece-difference (material count)" and page.get_attribute("#board", "data-look") == ""
    # 11-15 by clicks: the piece, then its landing square; the computer answers
    page.click('#board .sq[data-square="11"]')
    assert page.get_attribute('#board .sq[data-square="11"]', "class").split().count("picked") == 1
    page.click('#board .sq[data-square="15"]')
    wait_moves(page, 2)
    state = rules.apply(rules.initial(), (11, 15))
    reply = compiled.search(state, 3, 1.5).move
    assert checkers_moves(page) == ["11-15", rules.move_text(reply)]
    state = rules.apply(state, reply)
    # a move from the list of legal moves in notation
    legal = page.eval_on_selector_all("#legal .legal-move", "b => b.map(x => x.textContent)")
    assert legal == [rules.move_text(m) for m in rules.legal_moves(state)]
    page.click(f"#legal .legal-move >> text='{legal[0]}'")
    wait_moves(page, 4)
    # a forced multi-jump from a drawn position, clicked square by square as one move
    start = "B:W14,23,30:B1,9"
    page.goto(f"{server}/?game=checkers&first=human&second=random&start={start}")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Black to move: you')")
    targets = page.eval_on_selector_all("#board .sq.target", "s => s.map(x => x.dataset.square)")
    assert targets == ["9"]  # the capture is forced: only the capturing man may be picked
    page.click('#board .sq[data-square="1"]')  # not a legal start: nothing happens
    assert checkers_moves(page) == []
    for square in ("9", "18", "27"):
        page.click(f'#board .sq[data-square="{square}"]')
    page.wait_for_function("document.querySelector('#status').dataset.result !== 'ongoing' || "
                           "document.querySelectorAll('#played li').length === 2")
    assert checkers_moves(page)[0] == "9x18x27"
    # the analysis of the start position: the search's principal variation and scores
    page.goto(f"{server}/?game=checkers&first=human&second=human")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Black to move: you')")
    page.fill("#analyst", "piece-difference:depth=4")
    page.click("#analyse")
    page.wait_for_function("document.querySelectorAll('#scores tr').length === 7")
    best = compiled.search(rules.initial(), 4, 1.5)
    assert page.get_attribute("#pv", "data-pv").split()[0] == rules.move_text(best.move)
    scores = page.eval_on_selector_all("#scores tr", "rows => rows.map(r => Number(r.dataset.score))")
    assert max(scores) == best.value
    page.screenshot(path=str(shots / "serve-checkers.png"))


def test_checkers_two_computers_step_and_auto_play(server, page):
    page.goto(f"{server}/?game=checkers&first=random&second=piece-difference:depth=1")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Black to move: random')")
    assert checkers_moves(page) == []  # without auto-play nobody moves on their own
    page.click("#step")
    wait_moves(page, 1)
    page.click("#step")
    wait_moves(page, 2)
    page.check("#auto")
    page.wait_for_function("document.querySelector('#status').dataset.result !== 'ongoing'", timeout=120_000)
    status = page.inner_text("#status")
    assert status in ("Draw.", "Black wins (random).", "White wins (piece-difference:depth=1).")


def position(page) -> str:
    return page.eval_on_selector_all(
        "#board .sq[data-square]", "cells => cells.map(c => c.dataset.square + ':' + (c.dataset.piece || '')).join(' ')"
    )


@pytest.mark.parametrize("game, opponent", [("tictactoe", "minimax"), ("checkers", "piece-difference:depth=2")])
def test_undo_on_the_board_of_either_game(server, page, game, opponent):
    page.goto(f"{server}/?game={game}&first=human&second={opponent}")
    page.wait_for_function("document.querySelector('#status').textContent.includes(' to move: you') "
                           "&& document.body.dataset.busy === ''")
    assert page.is_disabled("#undo")
    positions = [position(page)]
    for n in (2, 4):  # a move from the list of legal moves; the computer answers at once
        page.click("#legal .legal-move >> nth=0")
        wait_moves(page, n)
        positions.append(position(page))
    played = checkers_moves(page)
    assert len(played) == 4 and len(set(positions)) == 3
    # with a person playing, undo goes back to the person's last turn: the answer goes too
    for n, where in ((2, 1), (0, 0)):
        page.click("#undo")
        wait_moves(page, n)
        assert checkers_moves(page) == played[:n] and position(page) == positions[where]
        assert " to move: you" in page.inner_text("#status")
    assert page.is_disabled("#undo")
    # between two computers, one move back, and auto-play pauses there
    page.goto(f"{server}/?game={game}&first=random&second={opponent}&auto=1")
    page.wait_for_function("document.querySelectorAll('#played li').length >= 2")
    page.click("#undo")
    page.wait_for_function("document.body.dataset.busy === '' && !document.querySelector('#auto').checked")
    shown, before = checkers_moves(page), position(page)
    page.wait_for_timeout(1000)  # auto-play is off: nobody moves on
    assert checkers_moves(page) == shown and position(page) == before
    page.click("#step")
    wait_moves(page, len(shown) + 1)
    page.click("#undo")
    wait_moves(page, len(shown))
    assert position(page) == before and page.get_attribute("#status", "data-result") == "ongoing"


@pytest.fixture(scope="module")
def elite_server(tmp_path_factory):
    """`evoplay serve` over a tiny map-elites run made here (its checkpoints hold the archives)."""
    base = tmp_path_factory.mktemp("elites")
    (base / "me.toml").write_text('recipe = "map-elites"\nname = "me"\nseed = 3\ntrials = 2\ngenerations = 4\n'
                                  "[population]\nbatch = 10\nhidden_min = 2\nhidden_max = 4\n[archive]\ncapacity = 3\n")
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    made = subprocess.run([EVOPLAY, "evolve", "me.toml", "--out", "me", "--workers", "1", "--quiet"],
                          cwd=base, env=env, capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr[-2000:]
    proc = subprocess.Popen([EVOPLAY, "serve", "me", "--port", "0", "--quiet"], cwd=base,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        m = re.match(r"evoplay serve: (http://127\.0\.0\.1:\d+)/", line)
        assert m, f"unexpected first line {line!r}"
        yield m.group(1), base
    finally:
        proc.terminate()
        proc.wait(10)


def test_run_page_shows_the_archive_and_plays_an_elite_clicked_in_it(elite_server, page, shots):
    from evoplay.framework import config
    from evoplay.framework.rundir import RunDir, digest
    from evoplay.recipes.fogel.nets import net_player
    from evoplay.recipes.selfadaptive import sa_from_dict

    url, base = elite_server
    summary = json.loads((base / "me/summary.json").read_text())
    trial = summary["best_trial"]
    cfg = config.load(base / "me/config.toml")
    elites = RunDir(base / "me").read_checkpoint(trial, digest(cfg))["state"]["elites"]
    page.goto(f"{url}/run?id=0")
    page.wait_for_selector("#archive-box:not([hidden]) #archive-grid .cell-box")
    assert page.input_value("#archive-trial") == str(trial)
    occupied = page.locator("#archive-grid .cell-box:not(.empty)")
    shape = (3, 2, 5)  # opening x reply_centre x reply_corner
    cells = sorted({int(np.ravel_multi_index(tuple(e["cell"]), shape)) for e in elites})
    assert [int(occupied.nth(i).get_attribute("data-cell")) for i in range(occupied.count())] == cells
    last = elites[-1]
    k = cells[-1]
    rank = sum(1 for e in elites if e["cell"] == last["cell"]) - 1
    page.click(f'#archive-grid .cell-box[data-cell="{k}"]')
    page.wait_for_selector(f'#elites tbody tr[data-elite="{rank}"]')
    page.click(f'#elites tbody tr[data-elite="{rank}"] button.analyse')
    page.wait_for_selector("#elite-box:not([hidden])")
    assert f"network {last['net']['id']}" in page.inner_text("#elite-name")
    assert "expected payoff 32 vs logic" in page.inner_text("#elite-analysis thead").lower()
    page.screenshot(path=str(shots / "serve-archive.png"), full_page=True)
    spec = f"me#trial={trial},cell={k},elite={rank}"
    assert page.get_attribute("#play-elite", "title") == spec
    page.click("#play-elite")
    page.wait_for_url(re.compile(r"/\?game=tictactoe&first="))
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('O to move: you')")
    assert page.input_value("fieldset[data-side=x] .spec") == spec
    opening = board(page)
    network = net_player(sa_from_dict(last["net"], 4))
    assert opening.count("X") == 1 and network.probs([0])[0][opening.index("X")] == 1.0  # the elite's own opening


@pytest.fixture(scope="module")
def any_game_server():
    """`evoplay serve --game openspiel:connect_four --game <the example user game>`: games beyond the built-in two."""
    pytest.importorskip("pyspiel")
    yield from serve("--game", "openspiel:connect_four", "--game", "examples/games/connect_four.py:ConnectFour")


@pytest.mark.parametrize("game", ["openspiel:connect_four", "connect-four"])
def test_connect_four_played_by_a_person_then_watched(any_game_server, page, shots, game):
    """A person plays a whole game of Connect Four against random from the legal-move
    buttons; then two computer players play one on their own."""
    page.goto(f"{any_game_server}/?game={game}&first=human&second=random")
    page.wait_for_selector("#board .sq")
    assert page.eval_on_selector_all("#board .sq", "cells => cells.length") == 42
    your_turn_or_end = ("document.body.dataset.busy === '' && (document.querySelector('#status').dataset.result !== "
                        "'ongoing' || document.querySelector('#legal button.legal-move:not([disabled])') !== null)")
    for _ in range(30):
        page.wait_for_function(your_turn_or_end)
        if page.eval_on_selector("#status", "s => s.dataset.result") != "ongoing":
            break
        page.click("#legal button.legal-move:not([disabled]) >> nth=0")  # the leftmost column with room
    status = page.inner_text("#status")
    assert page.eval_on_selector("#status", "s => s.dataset.result") != "ongoing", status
    assert board(page).count(".") < 42  # discs on the board
    page.screenshot(path=str(shots / f"serve-{game.replace(':', '-')}.png"))
    page.goto(f"{any_game_server}/?game={game}&first=random&second=mcts:sims=20")
    page.wait_for_selector("#board .sq")
    page.check("#auto")
    page.wait_for_function("document.querySelector('#status').dataset.result !== 'ongoing'", timeout=120_000)
    assert page.inner_text("#status").endswith(".")


def play_to_the_end_from_the_move_buttons(page):
    """As the person, the first legal move's button each turn until the game is over; the final status."""
    your_turn_or_end = ("document.body.dataset.busy === '' && (document.querySelector('#status').dataset.result !== "
                        "'ongoing' || document.querySelector('#legal button.legal-move:not([disabled])') !== null)")
    for _ in range(60):
        page.wait_for_function(your_turn_or_end, timeout=60_000)
        if page.eval_on_selector("#status", "s => s.dataset.result") != "ongoing":
            break
        page.click("#legal button.legal-move:not([disabled]) >> nth=0")
    assert page.eval_on_selector("#status", "s => s.dataset.result") != "ongoing", page.inner_text("#status")
    return page.inner_text("#status")


def champions_page_plays(page, url: str, game_in_link: str, results: str):
    """The run page's table shows the champions' results, and "Play this champion" opens a board
    with that champion as the first side, played to the end."""
    page.goto(f"{url}/run?id=0")
    page.wait_for_selector("#champions tbody tr")
    table = page.inner_text("#champions")
    assert "[object Object]" not in table and results in table, table
    spec = page.get_attribute('#champions tbody tr[data-trial="0"] a.play', "title")
    page.click('#champions tbody tr[data-trial="0"] a.play')
    page.wait_for_url(re.compile(rf"/\?game={re.escape(game_in_link)}&first="))
    page.wait_for_selector("#board")
    page.wait_for_function("(document.querySelector('fieldset.side[data-index=\"0\"] .spec') || {}).value")
    assert page.input_value('fieldset.side[data-index="0"] .spec') == spec  # the champion moves first
    play_to_the_end_from_the_move_buttons(page)


def test_an_openspiel_run_served_with_nothing_else_plays_its_champion(page):
    """The table showed '[object Object],[object Object]', and "Play this champion" failed with
    "unknown game 'openspiel:...'" unless serve was given --game."""
    pytest.importorskip("pyspiel")
    for url in serve("results/blondie24-connect-four"):
        champions_page_plays(page, url, "openspiel%3Aconnect_four", "random: +0.98 [+0.89, +1.00]")


def test_a_moved_run_of_a_users_game_served_with_its_game_plays_its_champion(page, tmp_path):
    """It opened /?game=<the recorded absolute path> and stuck on "Loading…" (a 404 for the players)."""
    first = tmp_path / "first"
    first.mkdir()
    shutil.copy(ROOT / "examples" / "games" / "hexapawn.py", first / "hexapawn.py")
    (first / "hx.toml").write_text(
        'recipe = "blondie24"\nname = "hx"\ntrials = 1\ngenerations = 2\n\n[run]\ncheckpoint_every = 2\n\n'
        '[game]\nname = "hexapawn.py:Hexapawn"\ndepth = 2\n\n[network]\nhidden = [4]\n\n[population]\nparents = 3\n\n'
        '[evaluation]\ngames = 2\nboth_seats = true\n\n[yardstick]\nevery = 2\nopenings = 2\nmcts_sims = 5\n')
    made = subprocess.run([EVOPLAY, "evolve", "hx.toml", "--out", "run", "--workers", "1", "-q"], cwd=first,
                          capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr
    here = tmp_path / "second"
    shutil.move(first, here)  # the run and its game file, moved together
    reported = subprocess.run([EVOPLAY, "report", "run", "--game", "hexapawn.py:Hexapawn"], cwd=here, capture_output=True,
                              text=True, timeout=300)
    assert reported.returncode == 0, reported.stderr
    alone = subprocess.Popen([EVOPLAY, "serve", "run", "--port", "0", "--quiet"], cwd=here, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        alone.stdout.readline()
        note = alone.stderr.readline()
        assert note.startswith("  note: run run names the game ") and "add --game NEW/PLACE/hexapawn.py:Hexapawn" in note
    finally:
        alone.terminate()
        alone.wait(10)
    proc = subprocess.Popen([EVOPLAY, "serve", "run", "--port", "0", "--quiet", "--game", "hexapawn.py:Hexapawn"], cwd=here,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = re.match(r"evoplay serve: (http://127\.0\.0\.1:\d+)/", proc.stdout.readline()).group(1)
        champions_page_plays(page, url, "hexapawn", "random: ")
    finally:
        proc.terminate()
        proc.wait(10)
