"""The board page's API for games beyond the built-in two: named to the server with
``--game`` (``make_app(roots, games)``), never by a request; a grid from the game's
``board_shape`` and ``cells``, or its text; moves checked by the game; its players."""

from __future__ import annotations

import contextlib
import urllib.parse
from pathlib import Path

import pytest
from support.web import ok, refused, request
from support.web import serving as api_serving

from evoplay.web import boards
from evoplay.web.app import GAMES, make_app
from evoplay.web.roots import Roots

ROOT = Path(__file__).resolve().parents[1]
USER_GAME = f"{ROOT / 'examples' / 'games' / 'connect_four.py'}:ConnectFour"


@contextlib.contextmanager
def serving(games):
    """A server playing ``games`` beyond the built-in ones (its own: no other server plays them)."""
    with api_serving(games=games) as url:
        yield url


def path(name: str, what: str) -> str:
    return f"/api/games/{urllib.parse.quote(name, safe='')}/{what}"


def test_a_user_game_on_a_grid():
    with serving([USER_GAME]) as url:
        listed = ok(url, "/api/games")["games"]
        assert [g["name"] for g in listed] == ["tictactoe", "checkers", "connect-four"]
        assert listed[2]["title"] == "Connect Four" and listed[2]["sides"] == ["Red", "Yellow"]
        info = ok(url, path("connect-four", "state"), {"moves": ["4", "4", "3"]})
        assert len(info["cells"]) == 6 and len(info["cells"][0]) == 7 and info["to_move"] == "Yellow"
        assert info["cells"][5][3]["label"] == "●" and info["cells"][4][3]["label"] == "○"
        assert [m["text"] for m in info["legal"]] == ["1", "2", "3", "4", "5", "6", "7"]
        won = ok(url, path("connect-four", "move"), {"moves": ["1", "2", "1", "2", "1", "2"], "move": "1"})
        assert won["result"] == "win" and won["winner"] == "Red" and won["legal"] == []
        refused(url, path("connect-four", "move"), {"moves": ["1"] * 6, "move": "1"}, fragment="full")
        refused(url, path("connect-four", "move"), {"move": "9"}, fragment="column 1-7")
        refused(url, path("connect-four", "state"), {"start": "x"}, fragment="initial position")
        players = ok(url, path("connect-four", "players"))
        assert {"random", "mcts"} <= {p["name"] for p in players["builtin"]}
        moved = ok(url, path("connect-four", "ai-move"), {"player": "mcts:sims=50", "moves": ["4"], "seed": 3})
        assert moved["move"] in [str(c) for c in range(1, 8)] and len(moved["moves"]) == 2
        again = ok(url, path("connect-four", "ai-move"), {"player": "mcts:sims=50", "moves": ["4"], "seed": 3})
        assert again["move"] == moved["move"]


def test_a_request_never_names_a_game_the_server_was_not_given():
    with serving([]) as url:
        for name in ("openspiel:connect_four", "connect-four", USER_GAME, "evoplay.games:BUILTIN_GAMES"):
            got, data, _ = request(url + path(name, "state"), {})
            assert got == 404 and ("unknown game" in data["error"] or "not found" in data["error"]), data


def test_openspiel_connect_four_and_a_game_without_a_grid():
    pytest.importorskip("pyspiel")
    with serving(["openspiel:connect_four", "openspiel:nim"]) as url:
        names = [g["name"] for g in ok(url, "/api/games")["games"]]
        assert names == ["tictactoe", "checkers", "openspiel:connect_four", "openspiel:nim"]
        info = ok(url, path("openspiel:connect_four", "state"), {"moves": ["x3", "o3"]})
        assert len(info["cells"]) == 6 and info["to_move"] == info["sides"][0]
        nim = ok(url, path("openspiel:nim", "state"), {})
        assert nim["cells"] == [] and nim["text"] and nim["legal"]
        played = ok(url, path("openspiel:nim", "move"), {"move": nim["legal"][0]["text"]})
        assert played["moves"] == [nim["legal"][0]["text"]]


def test_a_bad_game_for_the_server_is_one_line():
    from evoplay.errors import EvoplayError

    with pytest.raises(EvoplayError, match="unknown game"):
        make_app(Roots(()), ["no_such_game"])


def test_mcts_with_one_simulation_moves_on_an_openspiel_board():
    """`ai-move` with mcts:sims=1 was a 500 (the search had no move to choose from)."""
    pytest.importorskip("pyspiel")
    with serving(["openspiel:connect_four"]) as url:
        for sims in (1, 2):
            moved = ok(url, path("openspiel:connect_four", "ai-move"), {"player": f"mcts:sims={sims}", "seed": 4})
            assert len(moved["moves"]) == 1 and moved["to_move"] == moved["sides"][1]


def test_a_move_searched_in_python_is_bounded_in_depth(tmp_path):
    """A Connect Four network searching 12 plies in Python took minutes a move, long after
    its client gave up: a move searched deeper than MAX_ANALYSIS_DEPTH is refused."""
    pytest.importorskip("pyspiel")
    import json

    from evoplay.files.playerfile import resign
    from evoplay.web.boards import MAX_ANALYSIS_DEPTH

    for depth in (MAX_ANALYSIS_DEPTH, MAX_ANALYSIS_DEPTH + 1):
        doc = json.loads((ROOT / "results" / "blondie24-connect-four" / "champion.json").read_text())
        doc["architecture"]["depth"] = depth
        (tmp_path / f"depth{depth}.json").write_text(json.dumps(doc))
        resign(tmp_path / f"depth{depth}.json")
    name = "openspiel:connect_four"
    with api_serving([str(tmp_path)], base=tmp_path, games=[name]) as url:
        deep = f"depth{MAX_ANALYSIS_DEPTH + 1}.json"
        bound = f"it searches {MAX_ANALYSIS_DEPTH + 1} plies in Python, over this server's bound of {MAX_ANALYSIS_DEPTH}"
        refused(url, path(name, "ai-move"), {"player": deep, "moves": ["x3", "o3"]}, fragment="player: " + bound)
        refused(url, path(name, "analysis"), {"players": ["human", deep]}, fragment=bound)
        scores = ok(url, path(name, "analysis"), {"player": deep, "depth": 2, "moves": ["x3", "o3"]})["scores"]
        assert len(scores) == 7  # an analysis names its own depth
        end = ["x0", "o1", "x0", "o1", "x0", "o1", "x2", "o2", "x2", "o2", "x2", "o2"]  # a few moves left to search
        assert ok(url, path(name, "ai-move"), {"player": f"depth{MAX_ANALYSIS_DEPTH}.json", "moves": end})["move"]


BROKEN = """
from evoplay.arena.game import BaseGame


class Broken(BaseGame):
    def initial(self):
        raise RuntimeError("no board today")

    to_move = legal_moves = apply = result = key = views = lambda self, *args: None
"""


def test_a_game_whose_first_position_fails_is_refused_at_start(tmp_path):
    """`serve --game` took a game whose initial() raises, then answered every request for it
    with a 500: it is refused before the server listens, in one line, exit 2."""
    from test_fuzz_cli import run_in_process

    from evoplay.errors import EvoplayError

    (tmp_path / "broken.py").write_text(BROKEN)
    ref = f"{tmp_path / 'broken.py'}:Broken"
    with pytest.raises(EvoplayError, match="RuntimeError: no board today"):
        make_app(Roots(()), [ref])
    # what a server plays is its own (``boards.Games``, made per app): nothing of the refused one remains
    assert not hasattr(boards, "SERVED")
    assert make_app(Roots(()), []).config[GAMES].names == ["tictactoe", "checkers"]
    code, out, err = run_in_process(["serve", "--port", "0", "--game", ref])
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith("evoplay: error: ") and "broken.py" in err and "no board today" in err


def test_analysis_of_a_solving_player_asks_for_a_depth():
    """alpha-beta:depth=0 on a small game solves it: analysis needs a depth, and says so (it
    reached the search with depth 0)."""
    hexapawn = f"{ROOT / 'examples' / 'games' / 'hexapawn.py'}:Hexapawn"
    with serving([hexapawn]) as url:
        name = ok(url, "/api/games")["games"][2]["name"]
        refused(url, path(name, "analysis"), {"player": "alpha-beta:depth=0"}, fragment="solves to the end of the game")
        assert ok(url, path(name, "analysis"), {"player": "alpha-beta:depth=0", "depth": 2})["depth"] == 2
        assert ok(url, path(name, "ai-move"), {"player": "alpha-beta:depth=0"})["move"]


def test_the_human_player_is_offered_as_the_board_lets_a_person_move(tmp_path):
    """A board that cannot be clicked (cells, but no move_squares) offered "Human (click the board)";
    a game class without a name was served as game-1."""
    (tmp_path / "cells_only.py").write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(ROOT / 'examples' / 'games')!r})\n"
        "from connect_four import ConnectFour\n\n\n"
        "class Unnamed(ConnectFour):\n"
        "    name = None\n"
        "    move_squares = None\n")
    with serving([f"{tmp_path / 'cells_only.py'}:Unnamed", "openspiel:connect_four"]) as url:
        names = [g["name"] for g in ok(url, "/api/games")["games"]]
        assert names[2] == "unnamed", names
        humans = {name: ok(url, path(name, "players"))["builtin"][0] for name in names}
        assert humans["unnamed"] == {"name": "human", "params": {}, "label": "Human (choose from the legal moves)"}
        assert humans["checkers"]["label"] == humans["tictactoe"]["label"] == "Human (click the board)"
