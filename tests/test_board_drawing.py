"""What a game declares for drawing its board (``owners``, ``piece_symbols``, ``coordinates``,
``move_squares`` in ``evoplay.arena.game.FEATURES``), as the OpenSpiel adapter and a user's game
(examples/games/hexapawn.py) give them, checked on hand-drawn positions, and as the board page's
API sends them: whose piece is on each cell, the labels beside the board, the squares each legal
move is clicked on and those of the last move."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_web_any_game import path, serving
from support.web import ok, refused

from evoplay.arena.game import capability
from evoplay.errors import EvoplayError
from evoplay.games import resolve_game
from evoplay.web import boards

ROOT = Path(__file__).resolve().parents[1]
HEXAPAWN = f"{ROOT / 'examples' / 'games' / 'hexapawn.py'}:Hexapawn"
BREAKTHROUGH = "openspiel:breakthrough(rows=6,columns=6)"


def play(game, texts):
    state = game.initial()
    for text in texts:
        state = game.apply(state, game.parse_move(state, text))
    return state


def drawn(game, state) -> list[str]:
    """The board row by row: the owner's side (0, 1) of each piece, '.' where none."""
    rows, cols = capability(game, "board_shape")
    owners = capability(game, "owners")(state)
    return ["".join("." if o is None else str(o) for o in owners[r * cols : (r + 1) * cols]) for r in range(rows)]


def named(url: str, title: str) -> str:
    """The URL name of the served game titled ``title``."""
    return next(g["name"] for g in ok(url, "/api/games")["games"] if g["title"] == title)


def test_breakthrough_cells_owners_and_move_squares_by_hand():
    pytest.importorskip("pyspiel")
    game = resolve_game(BREAKTHROUGH)
    state = play(game, ["c5c4", "d2d3"])  # Black (moving first, from the top) c5-c4, White d2-d3
    assert game.board_shape == (6, 6) and game.side_names == ("Black", "White")
    assert game.coordinates == (("6", "5", "4", "3", "2", "1"), ("a", "b", "c", "d", "e", "f"))
    assert game.cells(state) == list("bbbbbb") + ["b", "b", "", "b", "b", "b"] + ["", "", "b", "", "", ""] \
        + ["", "", "", "w", "", ""] + ["w", "w", "w", "", "w", "w"] + list("wwwwww")
    assert drawn(game, state) == ["000000", "00.000", "..0...", "...1..", "111.11", "111111"]
    squares = {game.move_text(state, m): game.move_squares(state, m) for m in game.legal_moves(state)}
    assert len(squares) == 17
    assert squares["c4d3*"] == [(2, 2), (3, 3)]  # the capture: from c4 (row 2 from the top) to d3
    assert squares["b6c5"] == [(0, 1), (1, 2)] and squares["f5f4"] == [(1, 5), (2, 5)]
    assert game.piece_symbols == {}  # plain discs


def test_hexapawn_declares_its_board_as_a_user_would():
    game = resolve_game(HEXAPAWN)
    state = play(game, ["b1-b2", "a3-b2"])  # White's pawn b1-b2, Black's a3 takes it
    assert game.cells(state) == ["", "B", "B", "", "B", "", "W", "", "W"]
    assert drawn(game, state) == [".11", ".1.", "0.0"]
    assert capability(game, "coordinates") == (("3", "2", "1"), ("a", "b", "c"))
    moves = {game.move_text(state, m): game.move_squares(state, m) for m in game.legal_moves(state)}
    assert moves == {"a1-a2": [6, 3], "a1-b2": [6, 4], "c1-c2": [8, 5], "c1-b2": [8, 4]}


def test_the_api_sends_owners_coordinates_and_the_squares_to_click():
    """The squares of each legal move are cell indices of the board, from-square first, and
    the last move's squares come with every answer. Before the features, an OpenSpiel move's
    "squares" were its action id, which clicked unrelated cells."""
    pytest.importorskip("pyspiel")
    with serving([BREAKTHROUGH, HEXAPAWN]) as url:
        bt = named(url, "Breakthrough (columns=6, rows=6)")
        info = ok(url, path(bt, "state"), {"moves": ["c5c4", "d2d3"]})
        assert info["coordinates"] == {"rows": ["6", "5", "4", "3", "2", "1"], "columns": list("abcdef")}
        flat = [c for row in info["cells"] for c in row]
        assert [c["owner"] for c in flat[12:24]] == [None, None, 0, None, None, None, None, None, None, 1, None, None]
        assert flat[14]["piece"] == "side0" and flat[21]["piece"] == "side1" and flat[15]["piece"] == ""
        paths = {m["text"]: m["path"] for m in info["legal"]}
        assert paths["c4d3*"] == ["14", "21"] and paths["b6c5"] == ["1", "8"]
        assert all(flat[int(p[0])]["owner"] == 0 for p in paths.values())  # Black moves its own pieces
        assert info["last"] == ["27", "21"]  # White's d2-d3
        after = ok(url, path(bt, "move"), {"moves": ["c5c4", "d2d3"], "move": "c4d3*"})
        assert after["last"] == ["14", "21"] and after["cells"][3][3]["owner"] == 0
        assert ok(url, path(bt, "state"), {})["last"] == []

        hp = named(url, "Hexapawn")
        info = ok(url, path(hp, "state"), {"moves": ["b1-b2", "a3-b2"]})
        assert info["coordinates"] == {"rows": ["3", "2", "1"], "columns": ["a", "b", "c"]}
        assert {m["text"]: m["path"] for m in info["legal"]} == {
            "a1-a2": ["6", "3"], "a1-b2": ["6", "4"], "c1-c2": ["8", "5"], "c1-b2": ["8", "4"]}
        assert info["last"] == ["0", "4"]
        assert [[c["owner"] for c in row] for row in info["cells"]] == [[None, 1, 1], [None, 1, None], [0, None, 0]]


def test_a_game_without_move_squares_is_played_from_the_list():
    """Connect Four's example file declares no move squares: its moves name no square to click
    (its columns 0-6 matched the top row's cell numbers before, so a click there played a column)."""
    with serving([f"{ROOT / 'examples' / 'games' / 'connect_four.py'}:ConnectFour"]) as url:
        info = ok(url, path("connect-four", "state"), {"moves": ["4"]})
        assert [m["path"] for m in info["legal"]] == [[]] * 7 and info["last"] == []
        assert info["coordinates"] is None and info["cells"][5][3]["owner"] is None


def test_the_player_panel_offers_only_the_games_own_players():
    """Every built-in player the page lists for a game plays a move there; a search deeper
    than the server's bound is refused, alpha-beta's as a network's."""
    with serving([HEXAPAWN]) as url:
        hp = named(url, "Hexapawn")
        listed = ok(url, path(hp, "players"))
        assert [b["name"] for b in listed["builtin"]] == ["human", "random", "mcts", "alpha-beta"]
        assert listed["defaults"] == ["human", "alpha-beta:depth=full"] and not listed["elites"]
        for entry in listed["builtin"][1:]:
            assert ok(url, path(hp, "ai-move"), {"player": entry["name"], "seed": 1})["moves"]
        bound = boards.MAX_ANALYSIS_DEPTH
        refused(url, path(hp, "ai-move"), {"player": f"alpha-beta:depth={bound + 1}"},
                fragment=f"it searches {bound + 1} plies in Python, over this server's bound of {bound}")


#: OpenSpiel games whose moves are clicked on their squares (small boards where they have parameters).
#: Amazons (a move of three actions) and Pentago (a stone, then a rotation that may move it)
#: are checked on their own below and in the browser test.
CLICKED = ["breakthrough(rows=6,columns=6)", "checkers", "clobber", "lines_of_action", "othello", "hex(board_size=5)",
           "gomoku(size=7)", "connect_four", "tic_tac_toe", "mnk(m=4,n=4,k=3)", "go(board_size=5)", "xiangqi", "shogi"]


@pytest.mark.parametrize("name", CLICKED)
def test_openspiel_move_squares_agree_with_the_board(name):
    """On the first 60 plies of random games: a move on one square puts a piece of the mover's
    on an empty cell (a stone, a disc, a shogi drop), and no two moves the same one; a move on
    two squares takes the mover's piece from the first to the second; only a pass names none."""
    pytest.importorskip("pyspiel")
    game = resolve_game("openspiel:" + name)
    rows, cols = game.board_shape
    rng = random.Random(0)
    checked = 0
    for _ in range(3):
        state = game.initial()
        for _ in range(60):
            if game.result(state) is not None:
                break
            side, owners = game.to_move(state), game.owners(state)
            placed = set()
            for move in game.legal_moves(state):
                text = game.move_text(state, move)
                squares = [r * cols + c for r, c in game.move_squares(state, move)]
                if "pass" in text.lower():
                    assert squares == []
                    continue
                after = game.owners(game.apply(state, move))
                if len(squares) == 1:
                    # a shogi drop ('P*5e') may put one of several pieces in hand on one square
                    assert owners[squares[0]] is None and (squares[0] not in placed or "*" in text), (name, text)
                    placed.add(squares[0])
                else:
                    assert len(squares) == 2 and owners[squares[0]] == side, (name, text)
                assert after[squares[-1]] == side, (name, text)
                checked += 1
            moves = game.legal_moves(state)
            state = game.apply(state, moves[rng.randrange(len(moves))])
    assert checked > 100


def test_openspiel_games_with_coordinates_only_and_the_three_action_amazons():
    pytest.importorskip("pyspiel")
    chess = resolve_game("openspiel:chess")
    state = chess.initial()
    assert chess.coordinates == (tuple("87654321"), tuple("abcdefgh"))
    assert drawn(chess, state) == ["11111111"] * 2 + ["........"] * 4 + ["00000000"] * 2  # White (side 0) below
    assert all(chess.move_squares(state, m) == [] for m in chess.legal_moves(state))  # SAN: from the list
    assert chess.piece_symbols["K"] == chess.piece_symbols["k"] == "\u265a"
    amazons = resolve_game("openspiel:amazons")
    state = amazons.initial()
    texts = {amazons.move_text(state, m): amazons.move_squares(state, m) for m in amazons.legal_moves(state)}
    assert texts == {"X From (7, 1)": [(6, 0)], "X From (7, 10)": [(6, 9)], "X From (10, 4)": [(9, 3)],
                     "X From (10, 7)": [(9, 6)]}
    assert drawn(amazons, state)[6] == "0........0" and drawn(amazons, state)[0] == "...1..1..."


@pytest.mark.parametrize("declared, problem", [
    ("def move_squares(self, state, move):\n        return [move[0], 99]", "move_squares gave 99"),
    ("coordinates = (('1', '2'), ('a', 'b', 'c'))", "coordinates must be (3 row labels, 3 column labels)"),
    ("def owners(self, state):\n        return [2] * 9", "owners(state) must give 9 entries, each 0, 1 or None"),
])
def test_a_bad_drawing_declaration_is_refused_when_served(tmp_path, declared, problem):
    source = (ROOT / "examples" / "games" / "hexapawn.py").read_text()
    (tmp_path / "bad.py").write_text(source + "\n\nclass Bad(Hexapawn):\n    " + declared + "\n")
    with pytest.raises(EvoplayError) as refused_game:
        boards.serve_games([f"{tmp_path / 'bad.py'}:Bad"])
    boards.serve_games(())
    message = str(refused_game.value)
    assert "cannot be served" in message and problem in message and "\n" not in message


#: Hexapawn as a user would give it the rest of what checkers' page shows: its squares named
#: as its moves name them, a position written and read back (the board and the side to move,
#: "BBB...WWW w"), its own label for a player and the search player its analysis offers.
NAMED = '''

class Named(Hexapawn):
    square_names = ("a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1")
    player_labels = {"alpha-beta": "alpha-beta (Hexapawn to the end)"}
    analyst = "alpha-beta:depth=3"

    def position_text(self, state):
        return "".join({1: "W", -1: "B", 0: "."}[v] for v in state[0]) + " " + "wb"[state[1]]

    def parse_position(self, text):
        marks, _, side = text.partition(" ")
        if len(marks) != 9 or set(marks) - set("WB.") or side not in ("w", "b"):
            raise ValueError(f"not a Hexapawn position: {text!r}")
        return (tuple({"W": 1, "B": -1, ".": 0}[m] for m in marks), "wb".index(side))
'''


def test_a_game_names_its_squares_writes_its_positions_and_offers_its_analysis_as_checkers_does(tmp_path):
    """What checkers' page had of its own (square numbers, FEN starts, its menu label, its analysis
    player) any game gets by declaring it: the page writes each square's name in its corner and
    clicks it by that name, starts from a text the game reads, labels the game's player and
    analyses with any player that searches with an evaluation of its own."""
    (tmp_path / "named.py").write_text((ROOT / "examples" / "games" / "hexapawn.py").read_text() + NAMED)
    with serving([f"{tmp_path / 'named.py'}:Named"]) as url:
        hp = next(g["name"] for g in ok(url, "/api/games")["games"] if g["name"] not in ("tictactoe", "checkers"))
        info = ok(url, path(hp, "state"), {"moves": ["b1-b2", "a3-b2"]})
        flat = [c for row in info["cells"] for c in row]
        assert [c["square"] for c in flat] == [c["num"] for c in flat] == ["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"]
        assert {m["text"]: m["path"] for m in info["legal"]} == {
            "a1-a2": ["a1", "a2"], "a1-b2": ["a1", "b2"], "c1-c2": ["c1", "c2"], "c1-b2": ["c1", "b2"]}
        assert info["last"] == ["a3", "b2"] and info["position"] == ".BB.B.W.W w"
        started = ok(url, path(hp, "move"), {"start": "B.B.W.W.W b", "moves": [], "move": "a3-b2"})
        assert started["position"] == "..B.B.W.W w" and started["start"] == "B.B.W.W.W b" and started["to_move"] == "White"
        refused(url, path(hp, "state"), {"start": "BBB"}, fragment="start: not a Hexapawn position: 'BBB'")
        listed = ok(url, path(hp, "players"))
        assert [b["label"] for b in listed["builtin"] if b["name"] == "alpha-beta"] == ["alpha-beta (Hexapawn to the end)"]
        assert listed["analyst"] == "alpha-beta:depth=3"
        analysed = ok(url, path(hp, "analysis"), {"start": "B.B.W.W.W b", "player": "alpha-beta:depth=3"})
        assert analysed["depth"] == 3 and {s["move"] for s in analysed["scores"]} == {"a3-a2", "a3-b2", "c3-c2", "c3-b2"}
        refused(url, path(hp, "analysis"), {"player": "random"}, fragment="(alpha-beta:depth=3 or a network file)")


def test_checkers_page_is_the_one_page_drawn_from_what_checkers_declares():
    """Checkers has no page of its own: the board the page draws is the one any game's
    declarations give, its squares named 1-32 on the dark cells, its FEN its position; the only
    thing a built-in game has beyond its declarations is tic-tac-toe's panel of exact facts."""
    from evoplay.checkers import rules

    assert set(boards.PANELS) == {"tictactoe"}
    game = resolve_game("checkers")
    drawn_page = boards.Games().page("checkers")
    assert drawn_page.panel is None and drawn_page.analyst == "piece-difference:depth=4" and drawn_page.look is None
    assert drawn_page.labels == {"piece-difference": "piece-difference (material count)"}
    state = rules.from_fen("B:W14,23,30:B1,9")
    [jump] = game.legal_moves(state)
    assert game.move_text(state, jump) == "9x18x27"
    assert [game.square_names[i] for i in game.move_squares(state, jump)] == ["9", "18", "27"]
    assert [i for i, n in enumerate(game.square_names) if n][:4] == [1, 3, 5, 7]  # the dark squares of the top row
    assert [game.cells(state)[game.square_names.index(n)] for n in ("1", "9", "14", "23", "30")] == ["b", "b", "w", "w", "w"]
    assert game.parse_position(game.position_text(state)) == state


@pytest.mark.parametrize("declared, problem", [
    ('square_names = ("a",) * 9', "square_names must give 9 names, each other than the rest"),
    ('square_names = ("a", "b")', "square_names must give 9 names"),
    ('board_players = ("human",)', "board_players must be the two sides' player specs"),
    ('look = "stones"', "look must be None or 'marks'"),
    ('player_sliders = {"alpha-beta": 3}', "player_sliders must map a player's name to {parameter: slider}"),
])
def test_bad_page_declarations_are_refused_when_served(tmp_path, declared, problem):
    test_a_bad_drawing_declaration_is_refused_when_served(tmp_path, declared, problem)
