"""The board page's API, `/api/games/<game>/...`, against a real server: checkers moves
checked by replaying the game, forced captures, crowning, results, and the analysis (the
principal variation and each move's score) against the searches themselves."""

from __future__ import annotations

import json

import numpy as np
import pytest
from test_search_pv import minimax_line
from support.web import make_run, ok, refused, request, serving

from evoplay.checkers import rules
from evoplay.checkers import search as compiled
from evoplay.checkers.players import piece_difference
from evoplay.games import resolve_game
from evoplay.recipes.blondie24.playerfile import network_document
from evoplay.networks.evalnet import Evaluator, n_weights
from evoplay.arena.search import move_scores, principal_variation
from evoplay.web.boards import MAX_ANALYSIS_DEPTH, MAX_SIMS

CHECKERS = resolve_game("checkers")
G = "/api/games/checkers"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    base = tmp_path_factory.mktemp("boards")
    (base / "players").mkdir()
    with serving(["players"], base=base) as url:
        yield url, base


def test_a_legal_move_is_played_and_the_board_follows(site):
    url, _ = site
    start = ok(url, f"{G}/state", {})
    assert start["to_move"] == "Black" and start["result"] == "ongoing" and start["moves"] == []
    assert [m["text"] for m in start["legal"]] == [rules.move_text(m) for m in rules.legal_moves(rules.initial())]
    got = ok(url, f"{G}/move", {"moves": [], "move": "11-15"})
    assert got["move"] == "11-15" and got["moves"] == ["11-15"] and got["to_move"] == "White"
    assert got["position"] == rules.to_fen(rules.apply(rules.initial(), (11, 15)))
    cells = [c for row in got["cells"] for c in row if c["square"] is not None]
    assert [c["square"] for c in cells] == [str(s) for s in range(1, 33)]
    assert [c["num"] for c in cells] == [c["square"] for c in cells]  # the page writes each square's number
    assert cells[10]["owner"] is None and cells[14]["owner"] == 0 and cells[20]["owner"] == 1  # 11-15: 11 empty, 15 Black's
    assert cells[10]["piece"] == "" and cells[14]["piece"] == "side0" and cells[20]["piece"] == "side1"
    assert cells[14]["label"] == cells[20]["label"] == ""  # men: plain discs
    light = [c for row in got["cells"] for c in row if c["square"] is None]
    assert len(light) == 32 and all(c["piece"] == "" for c in light)  # no piece stands on a light square


@pytest.mark.parametrize(
    "body, fragment",
    [
        ({"moves": [], "move": "11-18"}, "'11-18' is not a legal move here (legal: 9-13, 9-14"),
        ({"moves": [], "move": "22-18"}, "not a legal move"),  # White's move, Black to play
        ({"moves": [], "move": "eleven"}, "is not a move"),
        ({"moves": [], "move": "40-44"}, "squares are numbered 1 to 32"),
        ({"moves": [], "move": 11}, "move must be a non-empty string"),
        ({"moves": ["11-15", "11-15"], "move": "22-18"}, "move 2: '11-15' is not a legal move"),
        ({"moves": "11-15", "move": "22-18"}, "moves must be a list"),
        ({"moves": [], "move": "11-15", "colour": "b"}, "unknown field 'colour'"),
        ({"moves": []}, "missing field 'move'"),
        ({"start": "X:W1:B2", "move": "2-6"}, "start: "),
    ],
)
def test_an_illegal_or_malformed_move_is_refused_in_one_line(site, body, fragment):
    url, _ = site
    refused(url, f"{G}/move", body, fragment=fragment)


def test_unknown_game_is_404(site):
    url, _ = site
    refused(url, "/api/games/chess/state", {}, status=404, fragment="unknown game 'chess'")


def test_a_capture_is_forced_and_a_multi_jump_is_one_move(site):
    url, _ = site
    # Black's man on 9 can take 14 and then 23; the quiet moves of the man on 1 are not allowed.
    start = "B:W14,23,30:B1,9"
    got = ok(url, f"{G}/state", {"start": start})
    assert [m["text"] for m in got["legal"]] == ["9x18x27"]
    assert got["legal"][0]["path"] == ["9", "18", "27"] and got["legal"][0]["capture"]
    refused(url, f"{G}/move", {"start": start, "move": "1-5"}, fragment="'1-5' is not a legal move here (legal: 9x18x27)")
    refused(url, f"{G}/move", {"start": start, "move": "9x18"}, fragment="not a legal move")
    done = ok(url, f"{G}/move", {"start": start, "move": "9x27"})  # from-to of the only path
    assert done["move"] == "9x18x27" and done["position"] == "W:W30:B1,27"


def test_crowning_and_a_game_reaching_a_result(site):
    url, _ = site
    start = "B:W14:B23,K1"  # Black's man on 23 reaches 27 then 32 and is crowned
    got = ok(url, f"{G}/move", {"start": start, "move": "23-27"})
    got = ok(url, f"{G}/move", {"start": start, "moves": got["moves"], "move": "14-10"})
    got = ok(url, f"{G}/move", {"start": start, "moves": got["moves"], "move": "27-32"})
    assert "K32" in got["position"].split(":")[2]
    assert [c for row in got["cells"] for c in row if c["square"] == "32"][0] == {"square": "32", "num": "32", "piece": "side0",
                                                                                   "owner": 0, "label": "K"}
    # White's man on 10 runs into Black's king on 1... White to move: 10-6 or 10-7, then Black captures.
    moves = got["moves"]
    while True:
        state = ok(url, f"{G}/state", {"start": start, "moves": moves})
        if state["result"] != "ongoing":
            break
        mover = "piece-difference:depth=4" if state["to_move"] == "Black" else "random"
        moves = ok(url, f"{G}/ai-move", {"start": start, "moves": moves, "player": mover, "seed": 1})["moves"]
    assert state["result"] == "win" and state["winner"] == "Black" and state["legal"] == []
    refused(url, f"{G}/move", {"start": start, "moves": moves, "move": "1-5"}, fragment="the game is over")
    refused(url, f"{G}/ai-move", {"start": start, "moves": moves, "player": "random"}, fragment="the game is over")


def test_a_whole_game_between_computers_ends_by_the_rules(site):
    url, _ = site
    moves, plies = [], 0
    while True:
        state = ok(url, f"{G}/state", {"moves": moves})
        if state["result"] != "ongoing":
            break
        spec = "piece-difference:depth=2" if state["to_move"] == "Black" else "piece-difference:depth=1"
        moves = ok(url, f"{G}/ai-move", {"moves": moves, "player": spec})["moves"]
    final = rules.initial()
    for text in moves:
        final = rules.apply(final, rules.parse_move(final, text))
    assert state["result"] in ("win", "draw")
    assert CHECKERS.result(final) is not None
    if state["result"] == "draw":
        assert final.quiet >= rules.QUIET_LIMIT or final.history.count(final.key) >= 2


def test_the_computer_move_is_the_players_move(site):
    url, _ = site
    state = rules.from_fen("W:W18,21,K30:B6,10,14")
    got = ok(url, f"{G}/ai-move", {"start": rules.to_fen(state), "player": "piece-difference:depth=5,king=2"})
    assert got["move"] == rules.move_text(compiled.search(state, 5, 2.0).move)
    refused(url, f"{G}/ai-move", {"player": "human"}, fragment="'human' moves by clicking")
    refused(url, f"{G}/ai-move", {"player": "piece-difference:depth=99"}, fragment="depth must be in [1, 12]")
    refused(url, f"{G}/ai-move", {"player": "minimax"}, fragment="unknown player 'minimax': not a checkers player")
    refused(url, f"{G}/ai-move", {"player": "random", "seed": -1}, fragment="seed must be a non-negative integer")


HAND_DRAWN = rules.parse_board(
    """
      .   .   .   .
    .   .   b   .
      .   b   .   .
    .   .   b   w
      .   .   w   .
    .   W   .   .
      .   .   w   .
    .   .   .   .
    """,
    turn=rules.WHITE,
)


def test_analysis_equals_the_searches_on_a_hand_drawn_position(site):
    url, _ = site
    fen = rules.to_fen(HAND_DRAWN)
    for depth, king in ((1, 1.5), (3, 1.5), (5, 2.0)):
        spec = f"piece-difference:depth={depth},king={king:g}"
        got = ok(url, f"{G}/analysis", {"start": fen, "player": spec})
        evaluate = piece_difference(king)
        want = move_scores(CHECKERS, HAND_DRAWN, depth, evaluate)
        assert got["scores"] == [{"move": rules.move_text(m), "score": v} for m, v in want]
        value, line = minimax_line(CHECKERS, HAND_DRAWN, depth, evaluate)
        assert got["pv"] == [rules.move_text(m) for m in line]
        fast = compiled.search(HAND_DRAWN, depth, king)
        assert got["value"] == value == fast.value and got["pv"][0] == rules.move_text(fast.move)
        assert got["depth"] == depth and got["to_move"] == "White"
    shallower = ok(url, f"{G}/analysis", {"start": fen, "player": "piece-difference:depth=5", "depth": 2})
    assert shallower["pv"] == [rules.move_text(m) for m in principal_variation(CHECKERS, HAND_DRAWN, 2, piece_difference(1.5))]
    refused(url, f"{G}/analysis", {"start": fen, "player": "random"}, fragment="does not search")
    refused(url, f"{G}/analysis", {"start": fen, "player": "piece-difference:depth=8"}, fragment="send depth 1-6")
    refused(url, f"{G}/analysis", {"start": fen, "player": "piece-difference", "depth": 0}, fragment="depth must be")


def test_a_network_player_file_plays_and_is_analysed(site):
    url, base = site
    sizes = (32, 4, 1)
    genome = np.random.default_rng(3).uniform(-0.2, 0.2, n_weights(sizes))
    doc = network_document("checkers", sizes, 2, genome, 1.7, {"test": True})
    (base / "players" / "b24.json").write_text(json.dumps(doc))
    state = rules.from_fen("B:W18,22,25,K31:B5,9,11,K27")
    got = ok(url, f"{G}/analysis", {"start": rules.to_fen(state), "player": "players/b24.json"})
    evaluate = Evaluator(genome, sizes, 1.7)
    assert got["scores"] == [{"move": rules.move_text(m), "score": v} for m, v in move_scores(CHECKERS, state, 2, evaluate)]
    move = ok(url, f"{G}/ai-move", {"start": rules.to_fen(state), "player": "players/b24.json"})["move"]
    assert move == got["pv"][0]
    refused(url, f"{G}/ai-move", {"player": "../outside.json"}, status=403)
    refused(url, f"{G}/ai-move", {"player": "players/none.json"}, status=404, fragment="not found")


def test_tictactoe_through_the_same_endpoints(site):
    url, _ = site
    got = ok(url, "/api/games/tictactoe/move", {"moves": ["4", "0"], "move": "8"})
    assert got["position"] == "O...X...X" and got["to_move"] == "O"
    refused(url, "/api/games/tictactoe/move", {"moves": ["4"], "move": "4"}, fragment="Square 4 is taken")
    reply = ok(url, "/api/games/tictactoe/ai-move", {"moves": ["4", "0", "8"], "player": "minimax"})
    assert reply["move"] in [c["square"] for row in got["cells"] for c in row if c["piece"] == ""]


def test_players_lists_the_games_builtins(site):
    url, _ = site
    got = ok(url, f"{G}/players")
    assert [b["name"] for b in got["builtin"]] == ["human", "random", "mcts", "alpha-beta", "piece-difference",
                                                   "openspiel-mcts"]  # every game's, then its own
    assert got["builtin"][3]["params"] == {"depth": {"type": "plies_or_full", "default": 4}}  # plies, or full
    assert got["builtin"][4]["params"] == {"depth": {"type": "int", "default": 4}, "king": {"type": "float", "default": 1.5}}
    assert got["builtin"][5]["params"] == {"sims": {"type": "int", "default": 1000}, "c": {"type": "float", "default": 2.0},
                                           "rollouts": {"type": "int", "default": 1}, "solve": {"type": "int", "default": 1},
                                           "seed": {"type": "int", "default": 0}}
    assert got["sides"] == ["Black", "White"]


# Two kings far apart, Black to move: nothing can be captured while they stay apart.
KINGS = rules.parse_board(
    """
      B   .   .   .
    .   .   .   .
      .   .   .   .
    .   .   .   .
      .   .   .   .
    .   .   .   .
      .   .   .   .
    .   .   .   W
    """,
    turn=rules.BLACK,
)


def test_threefold_repetition_draws_a_checkers_game(site):
    url, _ = site
    fen = rules.to_fen(KINGS)
    there_and_back = ["1-6", "32-27", "6-1", "27-32"]
    moves = there_and_back * 2  # the start position comes back twice: its third occurrence
    got = ok(url, f"{G}/state", {"start": fen, "moves": moves[:-1]})
    assert got["result"] == "ongoing" and got["to_move"] == "White"
    got = ok(url, f"{G}/move", {"start": fen, "moves": moves[:-1], "move": moves[-1]})
    assert got["position"] == fen  # the start again, for the third time
    assert (got["result"], got["winner"], got["to_move"], got["legal"]) == ("draw", None, None, [])
    state = ok(url, f"{G}/state", {"start": fen, "moves": moves})
    assert state["result"] == "draw"
    refused(url, f"{G}/move", {"start": fen, "moves": moves, "move": "1-6"}, fragment="the game is over")
    refused(url, f"{G}/ai-move", {"start": fen, "moves": moves, "player": "random"}, fragment="the game is over")


def _fresh_king_walk(state, plies: int) -> list:
    """``plies`` king moves from ``state`` that never capture, never let a capture arise and
    never reach a position seen before (so no draw by repetition comes before the quiet
    limit), found by a depth-first search."""
    def quiet_moves(s, seen):
        for move in rules.legal_moves(s):
            after = rules.apply(s, move)
            if (not rules.is_capture(move) and after.key not in seen
                    and not any(rules.is_capture(m) for m in rules.legal_moves(after))):
                yield move, after

    seen, line = {state.key}, []
    stack = [quiet_moves(state, seen)]
    while len(line) < plies:
        step = next(stack[-1], None)
        if step is None:  # a dead end: take the last move back
            stack.pop()
            _, undone = line.pop()
            seen.discard(undone.key)
            continue
        line.append(step)
        seen.add(step[1].key)
        stack.append(quiet_moves(step[1], seen))
    final = line[-1][1]
    assert rules.result(final) == 0 and final.quiet == plies and final.history.count(final.key) == 0
    return [rules.move_text(move) for move, _ in line]


def test_the_quiet_move_limit_draws_a_checkers_game(site):
    url, _ = site
    fen = rules.to_fen(KINGS)
    moves = _fresh_king_walk(KINGS, rules.QUIET_LIMIT)
    got = ok(url, f"{G}/state", {"start": fen, "moves": moves[:-1]})
    assert got["result"] == "ongoing"  # one ply short of the limit
    got = ok(url, f"{G}/move", {"start": fen, "moves": moves[:-1], "move": moves[-1]})
    assert (got["result"], got["winner"], got["to_move"], got["legal"]) == ("draw", None, None, [])
    assert len(got["moves"]) == rules.QUIET_LIMIT == 100  # 50 moves each without a capture or a man's move
    refused(url, f"{G}/ai-move", {"start": fen, "moves": moves, "player": "piece-difference"}, fragment="the game is over")


def test_tictactoe_analysis_brings_the_exact_facts_of_the_old_analyze(site):
    url, _ = site
    T = "/api/games/tictactoe"
    moves, board = ["4", "0", "8"], "O...X...X"  # X, O, X: O to move
    for x, o, extra in (("softmax:t=0.3,model_t=2", "minimax", {}), ("human", "logic", {"human_model": "minimax"}),
                        ("random", "human", {"minimax": True})):
        got = ok(url, f"{T}/analysis", {"moves": moves, "players": [x, o], **extra})
        assert got["facts"] == ok(url, "/api/analyze", {"board": board, "x": x, "o": o, **extra})
        assert got["position"] == board and got["moves"] == moves and got["to_move"] == "O"
    assert got["facts"]["minimax"] is not None and got["facts"]["probs"] is None  # O is the human
    won = ok(url, f"{T}/analysis", {"start": "XX.OO....", "moves": ["2"], "players": ["random", "random"]})
    assert won["result"] == "win" and won["winner"] == "X" and won["facts"]["line"] == [0, 1, 2]
    # checkers has no exact facts; the players are checked all the same, each named by its side
    assert ok(url, f"{G}/analysis", {"players": ["human", "piece-difference:depth=2"]})["facts"] is None
    refused(url, f"{G}/analysis", {"players": ["human", "minimax"]}, fragment="White player: unknown player 'minimax': not a checkers player")
    refused(url, f"{T}/analysis", {"players": ["softmax:t=0", "random"]}, fragment="X player: softmax t must be in")
    refused(url, f"{T}/analysis", {"players": ["random"]}, fragment="players must be a list of two player specs (X and O)")
    refused(url, f"{T}/analysis", {"players": ["random", "random"], "human_model": "human"}, fragment="human model: must be a computer")
    refused(url, f"{T}/analysis", {"human_model": "logic"}, fragment="missing field 'player'")
    refused(url, f"{T}/analysis", {"player": "random", "minimax": True}, fragment="go with 'players'")
    refused(url, f"{G}/analysis", {"players": ["human", "human"], "minimax": True}, fragment="unknown field 'minimax'")
    refused(url, f"{T}/analysis", {"player": "minimax"}, fragment="tictactoe has none")


def test_mcts_plays_on_every_board_within_the_servers_bound(site):
    """Tic-tac-toe's board refused mcts ('unknown player'), which the command line takes; one
    simulation was a 500 on every board; nothing bounded the simulations of a request."""
    url, _ = site
    T = "/api/games/tictactoe"
    for board, moves in ((T, ["4", "0", "8", "2"]), (G, ["11-15", "23-19"])):
        legal = [m["text"] for m in ok(url, f"{board}/state", {"moves": moves})["legal"]]
        for sims in (1, 2, 3):
            body = {"moves": moves, "player": f"mcts:sims={sims}", "seed": sims}
            moved = ok(url, f"{board}/ai-move", body)
            assert moved["moves"][:-1] == moves and moved["move"] in legal
            assert ok(url, f"{board}/ai-move", body)["move"] == moved["move"]  # the seed repeats it
        for sims in (MAX_SIMS + 1, 1_000_000):
            refused(url, f"{board}/ai-move", {"moves": moves, "player": f"mcts:sims={sims}"},
                    fragment=f"player: mcts:sims={sims} is over this server's bound of {MAX_SIMS} simulations per request")
            refused(url, f"{board}/analysis", {"players": ["human", f"mcts:sims={sims}"]}, fragment=f"bound of {MAX_SIMS}")
        refused(url, f"{board}/ai-move", {"player": "mcts:sims=0"}, fragment="mcts sims must be in")
    assert ok(url, f"{T}/ai-move", {"moves": ["4", "0", "8", "2"], "player": f"mcts:sims={MAX_SIMS}"})["move"] == "1"
    # a side that samples its moves has no exact facts; it cannot model a human side; the old API plays it
    assert ok(url, f"{T}/analysis", {"players": ["mcts:sims=50", "human"], "minimax": True})["facts"] is None
    refused(url, f"{T}/analysis", {"players": ["random", "human"], "human_model": "mcts"},
            fragment="human model: mcts:sims=1000,c=2,solve=1 samples its moves")
    refused(url, "/api/analyze", {"board": "." * 9, "x": "mcts:sims=5", "o": "random"}, fragment="X player: mcts:sims=5")
    assert ok(url, "/api/ai-move", {"board": "X...O....", "player": "mcts:sims=1", "seed": 2})["square"] in (1, 2, 3, 5, 6, 7, 8)


def test_a_spec_sent_over_the_web_imports_no_code(site):
    url, _ = site
    # `evoplay match` takes user players by module:Class; the server names only built-ins and files
    for spec in ("evoplay.published.baselines:Anything", "json:JSONDecoder"):
        refused(url, "/api/games/tictactoe/ai-move", {"player": spec}, fragment="unknown player")
        refused(url, "/api/games/checkers/ai-move", {"player": spec}, fragment="unknown player")
        refused(url, "/api/ai-move", {"board": "." * 9, "player": spec}, fragment="unknown player")


def test_the_board_page_is_one_page_for_both_games(site):
    url, _ = site
    assert ok(url, "/api/games") == {"games": [{"name": "tictactoe", "title": "Tic-tac-toe", "sides": ["X", "O"]},
                                              {"name": "checkers", "title": "Checkers", "sides": ["Black", "White"]}],
                                    "default": "tictactoe"}  # the page's game where its address names none
    status, page, _ = request(url + "/")
    assert status == 200 and b"/static/board.js" in page and b"play.js" not in page
    assert request(url + "/board")[1] == page  # the older address of the same page
    for gone in ("/static/play.js", "/static/index.html"):
        refused(url, gone, status=404)
    ttt = ok(url, "/api/games/tictactoe/players")
    assert ttt["defaults"] == ["human", "softmax:t=0.2,model_t=1"] and ttt["facts"] and ttt["analyst"] is None
    softmax = [b for b in ttt["builtin"] if b["name"] == "softmax"][0]
    assert set(softmax["sliders"]) == {"t", "model_t"} == set(softmax["params"])
    checkers = ok(url, f"{G}/players")
    assert checkers["defaults"] == ["human", "piece-difference"] and not checkers["facts"]
    assert checkers["analyst"] == "piece-difference:depth=4"


def test_a_runs_champions_are_played_on_the_board_of_its_game(tmp_path):
    # a tic-tac-toe run (its files name no game) and a checkers run (its network files do)
    make_run(tmp_path / "ttt")
    checkers = make_run(tmp_path / "ck")
    sizes = (32, 4, 1)
    doc = network_document("checkers", sizes, 2, np.zeros(n_weights(sizes)), 1.5, {"test": True})
    for file in [checkers / "champion.json", *checkers.glob("trials/*/champion.json")]:
        file.write_text(json.dumps(doc))
    with serving(["ttt", "ck"], base=tmp_path) as url:
        assert [ok(url, f"/api/runs/{i}")["game"] for i in (0, 1)] == ["tictactoe", "checkers"]
        spec = ok(url, "/api/runs/1")["champions"][0]["spec"]
        assert ok(url, f"{G}/ai-move", {"player": spec})["moves"] and spec == "ck/champion.json"


def test_every_player_a_request_names_is_bounded(site):
    """openspiel-mcts:sims=1000000 got no answer (the bound covered mcts only); alpha-beta:depth=0
    on checkers was a 500 (a RecursionError), on Connect Four a search without end."""
    url, _ = site
    pytest.importorskip("pyspiel")
    for sims in (MAX_SIMS + 1, 1_000_000):
        refused(url, f"{G}/ai-move", {"moves": ["11-15"], "player": f"openspiel-mcts:sims={sims}"},
                fragment=f"player: openspiel-mcts:sims={sims} is over this server's bound of {MAX_SIMS} simulations")
    refused(url, f"{G}/ai-move", {"moves": ["11-15"], "player": "alpha-beta:depth=0"},
            fragment="alpha-beta:depth=full on checkers: the game tree below this position has more than")
    refused(url, f"{G}/analysis", {"players": ["human", "alpha-beta:depth=0"]}, fragment="too big to solve")


def test_analysis_with_a_deep_alpha_beta_names_its_depth_not_that_it_does_not_search(site):
    url, _ = site
    refused(url, f"{G}/analysis", {"moves": ["11-15"], "player": "alpha-beta:depth=20"},
            fragment=f"the player searches 20 plies; send depth 1-{MAX_ANALYSIS_DEPTH} to analyse here")
    got = ok(url, f"{G}/analysis", {"moves": ["11-15"], "player": "alpha-beta:depth=20", "depth": 2})
    assert got["depth"] == 2 and len(got["scores"]) == 7


def test_tic_tac_toe_is_drawn_from_what_its_game_declares_with_its_panel_beside(site):
    """Tic-tac-toe plays on the one page as every game does: its marks as each side's pieces
    (owner 0 X, 1 O, the mark written on them), its squares named 0-8, its position as nine
    characters, every game's players (alpha-beta, which can analyse a position, as on any game)
    beside its own; the exact facts are the one thing beyond its declarations. The old API
    lists tic-tac-toe's own players as it always did."""
    url, _ = site
    T = "/api/games/tictactoe"
    got = ok(url, f"{T}/move", {"moves": ["4"], "move": "0"})
    flat = [c for row in got["cells"] for c in row]
    assert [c["square"] for c in flat] == [c["num"] for c in flat] == [str(s) for s in range(9)]
    assert (flat[4]["owner"], flat[4]["label"], flat[0]["owner"], flat[0]["label"]) == (0, "X", 1, "O")
    assert got["position"] == "O...X...." and got["last"] == ["0"]
    listed = ok(url, f"{T}/players")
    assert [b["name"] for b in listed["builtin"]] == ["human", "random", "mcts", "alpha-beta", "first-open", "logic",
                                                     "minimax", "softmax"]
    assert listed["look"] == "marks" and listed["facts"]["human_model"] == "random" and listed["elites"]
    analysed = ok(url, f"{T}/analysis", {"start": "O...X....", "player": "alpha-beta:depth=2"})
    assert analysed["depth"] == 2 and len(analysed["scores"]) == 7
    assert [b["name"] for b in ok(url, "/api/players")["builtin"]] == ["human", "random", "first-open", "logic", "minimax",
                                                                       "softmax"]
