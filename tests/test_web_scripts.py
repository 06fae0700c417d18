"""The web app's pages know no game: the scripts, pages and style under evoplay/web/static/
name no game and no game's own player, and the server tells them what differs between games
(the default game, the players' labels, the board's look, what the exact facts offer, the game
an archive's elites play). What a server plays is its own, made per server, never a module's."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from support.web import ok, serving

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "evoplay" / "web" / "static"
WEB = ROOT / "evoplay" / "web"
HEXAPAWN = f"{ROOT / 'examples' / 'games' / 'hexapawn.py'}:Hexapawn"

#: What the pages never name: the built-in games, and players of one game only.
NAMES = ("tictactoe", "tic-tac-toe", "checkers", "logic", "minimax", "softmax", "piece-difference")
#: Comments, which may say anything in English: JavaScript's (a // comment begins a line or
#: follows a blank), CSS's and HTML's.
COMMENTS = {
    ".js": re.compile(r"/\*.*?\*/|(?<!\S)//[^\n]*", re.S),
    ".css": re.compile(r"/\*.*?\*/", re.S),
    ".html": re.compile(r"<!--.*?-->", re.S),
}
#: The labels the board page showed for these built-in players before the server sent them.
LABELS = {
    "logic": "logic (Fogel's rule player)",
    "minimax": "minimax (perfect play)",
    "softmax": "softmax-minimax",
    "piece-difference": "piece-difference (material count)",
    "mcts": "mcts (Monte Carlo tree search)",
    "alpha-beta": "alpha-beta (search to a depth)",
}


def _words(token: str) -> list[str]:
    """A token's words, lower case: split at '-', '_' and camelCase (``showMinimax``: show, minimax)."""
    return [w.lower() for w in re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", token)]


def named(text: str, suffix: str) -> list[tuple[int, str, str]]:
    """(line, name, token) for each name of ``NAMES`` in ``text`` outside its comments: in a
    string literal, an identifier, an attribute, a selector or the text of a page, as a whole
    token or as consecutive words of one (``tic-tac-toe``, ``TicTacToe``, ``S.minimax``)
    but not inside another word (``logical``)."""
    pattern = COMMENTS.get(suffix)
    if pattern is not None:  # blank the comments out, keeping the line numbers
        text = pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)
    found = []
    for m in re.finditer(r"[A-Za-z0-9_$-]+", text):
        words = _words(m.group())
        for name in NAMES:
            wanted = name.split("-")
            if any(words[i:i + len(wanted)] == wanted for i in range(len(words) - len(wanted) + 1)):
                found.append((text.count("\n", 0, m.start()) + 1, name, m.group()))
    return found


@pytest.mark.parametrize("line, suffix", [
    ('const GAME = params.get("game") || "tictactoe";', ".js"),
    ("if (S.minimax) refresh();", ".js"),
    ('el("option", {text: "softmax-minimax"});', ".js"),
    ("function showMinimax() {}", ".js"),
    ('play.href = playLink(spec, "checkers");', ".js"),
    ('const LABELS = {"piece-difference": 1, logic: 2};', ".js"),
    ('const url = "http://x//tictactoe";', ".js"),
    ('.gboard[data-game="tictactoe"] .sq { color: red; }', ".css"),
    ("<option>Tic-tac-toe</option>", ".html"),
    ('<input type="checkbox" id="show-minimax">', ".html"),
])
def test_the_check_finds_a_name_in_code_and_text(line, suffix):
    assert named(line, suffix), line


@pytest.mark.parametrize("line, suffix", [
    ("// the logic of the page: minimax values, checkers, tic-tac-toe", ".js"),
    ("const logical = 1;  // softmax", ".js"),
    ("/* tic-tac-toe's squares */ .gboard { color: red; }", ".css"),
    ("<!-- the checkers board --><p>Pick a game</p>", ".html"),
    ("const maxima = minimal(checked);", ".js"),
])
def test_the_check_passes_comments_and_other_words(line, suffix):
    assert named(line, suffix) == [], line


def test_the_pages_name_no_game_and_no_games_player():
    files = sorted(p for p in STATIC.iterdir() if p.is_file())
    assert {p.name for p in files} >= {"board.js", "archive.js", "run.js", "common.js", "board.html", "run.html", "style.css"}
    found = [f"{p.name}:{line}: {name!r} in {token!r}" for p in files for line, name, token in named(p.read_text(), p.suffix)]
    assert found == [], "the server names these for the pages:\n" + "\n".join(found)


def test_every_built_in_player_the_server_lists_carries_its_label():
    """The menus show the labels the server sends (the page's own table of them is gone):
    every entry has one, and those the page showed are the same words."""
    seen = set()
    with serving(games=[HEXAPAWN]) as url:
        games = ok(url, "/api/games")["games"]
        assert len(games) == 3
        for game in games:
            listed = ok(url, f"/api/games/{game['name']}/players")["builtin"]
            assert listed[0]["name"] == "human" and listed[0]["label"].startswith("Human (")
            for entry in listed:
                assert isinstance(entry.get("label"), str) and entry["label"].strip(), (game["name"], entry)
                if entry["name"] in LABELS:
                    assert entry["label"] == LABELS[entry["name"]], (game["name"], entry)
                elif entry["name"] != "human":
                    assert entry["label"] == entry["name"], (game["name"], entry)
                seen.add(entry["name"])
    assert set(LABELS) <= seen  # each of them is listed by some game


def test_the_server_names_the_default_game_and_what_its_page_offers():
    with serving() as url:
        listing = ok(url, "/api/games")
        assert listing["default"] == listing["games"][0]["name"] == "tictactoe"
        first = ok(url, "/api/games/tictactoe/players")
        assert first["look"] == "marks" and first["facts"] == {
            "human_model": "random", "values": {"field": "minimax", "label": "Show minimax value of each move"}}
        # the facts' values per square come in the field the server named
        values = ok(url, "/api/games/tictactoe/analysis", {"moves": ["4"], "players": ["human", "human"], "minimax": True})
        assert len(values["facts"]["minimax"]) == 9
        second = ok(url, "/api/games/checkers/players")
        assert second["look"] is None and second["facts"] is None


def test_two_servers_in_one_process_play_each_its_own_games():
    """What a server plays (``boards.Games``) is made per server: one given a game plays it
    while another started after it plays the built-in games only, and it plays it still."""
    with serving(games=[HEXAPAWN]) as given:
        names = [g["name"] for g in ok(given, "/api/games")["games"]]
        assert len(names) == 3
        with serving() as plain:
            assert [g["name"] for g in ok(plain, "/api/games")["games"]] == names[:2]
            assert ok(given, f"/api/games/{names[2]}/ai-move", {"player": "random", "seed": 1})["moves"]
            got = ok(plain, "/api/games")
            assert got["default"] == "tictactoe"


def _mutable(node) -> bool:
    if isinstance(node, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return True
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in (
        "dict", "list", "set", "defaultdict", "OrderedDict", "bytearray")


def test_no_module_of_the_web_app_keeps_mutable_state():
    """A registry at module level (``SERVED``, which tests had to reset) is state every server
    in the process shares: a module's constants are tuples and frozen mappings."""
    found = []
    for path in sorted(WEB.glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None and _mutable(node.value):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                found.append(f"{path.name}:{node.lineno}: {', '.join(ast.unparse(t) for t in targets)}")
    assert found == [], found
