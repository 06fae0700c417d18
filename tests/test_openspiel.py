"""The OpenSpiel adapter (evoplay.openspiel): OpenSpiel's games behind evoplay's game interface,
checked against evoplay's own tic-tac-toe and checkers, and for conformance game by game."""

import re
from collections import deque

import numpy as np
import pytest

pytest.importorskip("pyspiel")

from evoplay.checkers import engine as E  # noqa: E402
from evoplay.errors import EvoplayError  # noqa: E402
from evoplay.openspiel import bench_moves, eligible_games, load  # noqa: E402
from evoplay.tictactoe import board as B  # noqa: E402
from evoplay.tictactoe.game import TICTACTOE  # noqa: E402
from game_conformance import conformance  # noqa: E402
from support.nowork import never_called  # noqa: E402

#: The registered games that load with default parameters and pass the adapter (open_spiel 2.0.2).
ELIGIBLE = [
    "amazons", "antichess", "breakthrough", "checkers", "chess", "chinese_checkers", "clobber",
    "connect_four", "crazyhouse", "cursor_go", "dots_and_boxes", "go", "gomoku", "havannah", "hex",
    "hive", "lines_of_action", "mancala", "mnk", "nim", "nine_mens_morris", "othello", "oware",
    "pentago", "quoridor", "shogi", "tic_tac_toe", "twixt", "ultimate_tic_tac_toe", "xiangqi", "y",
]  # fmt: skip


# ---------------------------------------------------------------- tic-tac-toe, both ways


def negamax(game, state, memo) -> int:
    """Exact value for the side to move, over the interface, not assuming alternation."""
    k = game.key(state)
    if k not in memo:
        r = game.result(state)
        if r is not None:
            memo[k] = r
        else:
            side = game.to_move(state)
            values = []
            for m in game.legal_moves(state):
                child = game.apply(state, m)
                v = negamax(game, child, memo)
                values.append(v if game.to_move(child) == side else -v)
            memo[k] = max(values)
    return memo[k]


def reachable(game):
    """Every state reachable from the start, one per key (BFS)."""
    start = game.initial()
    seen = {game.key(start): start}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if game.result(state) is not None:
            continue
        for m in game.legal_moves(state):
            child = game.apply(state, m)
            if game.key(child) not in seen:
                seen[game.key(child)] = child
                queue.append(child)
    return list(seen.values())


def spiel_board(state) -> tuple:
    """Marks 0 empty, 1 X, 2 O of OpenSpiel's tic-tac-toe, read from its text, row-major."""
    text = "".join(c for c in str(state) if c in "xo.")
    assert len(text) == 9
    return tuple({"x": B.X, "o": B.O, ".": B.EMPTY}[c] for c in text)


def spiel_square(game, state, action) -> int:
    """The square of an OpenSpiel tic-tac-toe action, read from its text ``x(row,col)``."""
    r, c = map(int, re.fullmatch(r"[xo]\((\d),(\d)\)", game.move_text(state, action)).groups())
    return 3 * r + c


def test_tictactoe_agrees_with_evoplays_on_every_reachable_position():
    spiel = load("tic_tac_toe")
    ours = {tuple(int(m) for m in B.decode(s)): s for s in reachable(TICTACTOE)}
    theirs = {spiel_board(s): s for s in reachable(spiel)}
    assert len(ours) == len(theirs) == 5478 and set(ours) == set(theirs)
    memo_ours, memo_theirs = {}, {}
    boards = sorted(ours)
    views = spiel.views([theirs[b] for b in boards])
    own_minus_other = views[:, 18:27] - views[:, 9:18]  # egocentric planes [empty, other, own]
    assert (own_minus_other == TICTACTOE.views([ours[b] for b in boards])).all()
    for i, board in enumerate(boards):
        a, b = ours[board], theirs[board]
        assert spiel.to_move(b) == TICTACTOE.to_move(a) == views[i, -1]
        assert spiel.result(b) == TICTACTOE.result(a), board
        if TICTACTOE.result(a) is None:
            assert sorted(spiel_square(spiel, b, m) for m in spiel.legal_moves(b)) == TICTACTOE.legal_moves(a)
        assert negamax(spiel, b, memo_theirs) == negamax(TICTACTOE, a, memo_ours), board
    assert negamax(spiel, spiel.initial(), memo_theirs) == 0


# ---------------------------------------------------------------- checkers, both ways

#: Published perft counts of English draughts from the start (evoplay's engine gives them too).
PERFT = {1: 7, 2: 49, 3: 302, 4: 1469, 5: 7361, 6: 36768, 7: 179740}


def turn_ends(game, state) -> list:
    """The states after each whole turn: the side's actions until the side changes or the
    game ends (OpenSpiel's checkers makes one action of each jump of a multi-jump)."""
    side, ends, stack = game.to_move(state), [], [state]
    while stack:
        s = stack.pop()
        for m in game.legal_moves(s):
            child = game.apply(s, m)
            (stack if game.result(child) is None and game.to_move(child) == side else ends).append(child)
    return ends


def perft(game, state, depth: int) -> int:
    if depth == 0:
        return 1
    if game.result(state) is not None:
        return 0
    return sum(perft(game, s, depth - 1) for s in turn_ends(game, state))


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_openspiel_checkers_counts_evoplays_perft(depth):
    assert perft(load("checkers"), load("checkers").initial(), depth) == E.perft(*E.START, depth) == PERFT[depth]


@pytest.mark.slow
@pytest.mark.parametrize("depth", [6, 7])
def test_openspiel_checkers_counts_evoplays_perft_deeper(depth):
    assert perft(load("checkers"), load("checkers").initial(), depth) == E.perft(*E.START, depth) == PERFT[depth]


def _evoplay_board(st) -> str:
    """evoplay's 32 squares (Black at the top): b B w W or '.'."""
    out = []
    for s in range(32):
        if st.black >> s & 1:
            out.append("B" if st.kings >> s & 1 else "b")
        else:
            out.append(("W" if st.kings >> s & 1 else "w") if st.white >> s & 1 else ".")
    return "".join(out)


def _spiel_board(game, state) -> str:
    """OpenSpiel's checkers board turned half round into evoplay's squares: OpenSpiel's first
    player ('o' men, '8' kings) starts at the bottom, evoplay's Black at the top."""
    symbols = {"o": "b", "8": "B", "+": "w", "*": "W", "": "."}
    cells = game.cells(state)
    return "".join(symbols[cells[(7 - r) * 8 + 7 - c]] for r in range(8) for c in range(8) if (r + c) % 2)


def test_openspiel_checkers_moves_as_evoplays_and_draws_by_its_own_rule():
    """On random games the two give the same whole-turn moves (kings, promotions, forced and
    multiple captures included) and the same losses. They differ in their draw rules, as
    measured: OpenSpiel draws after 40 plies without a capture (man moves do not count, no
    repetition rule); evoplay after 100 plies without a capture or a man move, or a third
    repetition."""
    from evoplay.checkers import rules

    game = load("checkers")
    rng = np.random.default_rng(0)
    positions, ends = 0, set()
    for _ in range(40):
        ours, theirs, since_capture = rules.initial(), game.initial(), 0
        while rules.result(ours) is None and game.result(theirs) is None:
            assert game.to_move(theirs) == ours.turn
            moves = rules.legal_moves(ours)
            kids = turn_ends(game, theirs)
            boards = [_spiel_board(game, k) for k in kids]
            assert sorted(boards) == sorted(_evoplay_board(rules.apply(ours, m)) for m in moves)
            positions += 1
            move = moves[rng.integers(len(moves))]
            since_capture = 0 if rules.is_capture(move) else since_capture + 1
            ours = rules.apply(ours, move)
            theirs = kids[boards.index(_evoplay_board(ours))]
        a, b = rules.result(ours), game.result(theirs)
        ends.add((a, b))
        if a != b:  # one side's draw rule
            assert (a, b) == (None, 0) and since_capture == 40 or (a, b) == (0, None) and (
                ours.quiet >= rules.QUIET_LIMIT or ours.history.count(ours.key) >= 2
            ), (a, b, since_capture, ours.quiet)
    assert positions > 2000 and (-1, -1) in ends


# ---------------------------------------------------------------- every eligible game

#: Plies a playout may last in the default run (OpenSpiel's chess-like games are slow).
SHORT = {"chess": 30, "antichess": 30, "crazyhouse": 30, "shogi": 30, "xiangqi": 30, "go": 40, "cursor_go": 40,
         "hive": 40, "chinese_checkers": 40, "quoridor": 40}


def test_the_eligible_games_are_those_listed():
    assert eligible_games() == ELIGIBLE and len(ELIGIBLE) >= 20


@pytest.mark.parametrize("name", ELIGIBLE)
def test_conformance(name):
    game = load(name)
    assert game.name == f"openspiel:{name}" and load(game.name).name == game.name
    counts = conformance(game, np.random.default_rng(1), playouts=2, max_plies=SHORT.get(name, 80))
    assert counts["states"] > 2


@pytest.mark.slow
@pytest.mark.parametrize("name", ELIGIBLE)
def test_conformance_full_games(name):
    counts = conformance(load(name), np.random.default_rng(2), playouts=6, max_plies=1000)
    assert counts["states"] > 6


@pytest.mark.parametrize("name", ["tic_tac_toe", "connect_four", "breakthrough", "othello", "clobber", "pentago"])
def test_transpositions_join(name):
    counts = conformance(load(name), np.random.default_rng(3), playouts=6)
    assert counts["transpositions"] > 0


class RulesOnly:
    """An OpenSpiel game seen through the rules alone (no ``random_playout``), with a ply limit of its own."""

    def __init__(self, game, max_plies: int):
        self._game, self.max_plies = game, max_plies

    def __getattr__(self, name):
        if name == "random_playout":
            raise AttributeError(name)
        return getattr(self._game, name)


@pytest.mark.parametrize("name", ["tic_tac_toe", "connect_four", "breakthrough", "mancala", "othello"])
def test_the_in_place_playout_is_the_rules_playout_draw_for_draw(name):
    """``random_playout`` (one copy stepped with ``apply_action``) gives what MCTS's loop over the
    rules (``apply``, a new state a ply) gives, from every kind of position, finished ones
    included: the same scores for the same sides (mancala's extra turns), the generator left
    where that loop leaves it, a draw at the same ply limit, the position it was given untouched."""
    from evoplay.arena import mcts
    from evoplay.arena.game import play_out

    game = load(name)
    rng = np.random.default_rng(7)
    starts = []
    for _ in range(4):
        states = play_out(game, game.initial(), rng)
        starts += [*states[::7], states[-1]]
    outcomes = set()
    for limit in (3, 1000):
        rules = RulesOnly(game, limit)
        for i, state in enumerate(starts):
            before = game.key(state)
            fast, slow = np.random.default_rng(i), np.random.default_rng(i)
            scores = game.random_playout(state, fast, limit)
            assert scores == mcts.playout(rules, state, slow), (limit, i)
            assert fast.integers(1 << 62) == slow.integers(1 << 62) and game.key(state) == before
            outcomes.add(scores)
    assert (0.0, 0.0) in outcomes and len(outcomes) >= 2


def test_chess_keys_are_positions_not_histories():
    game = load("chess")
    state = game.initial()
    for text in ("Nf3", "Nf6", "Ng1", "Ng8"):
        state = game.apply(state, game.parse_move(state, text))
    assert game.render(state) != game.render(game.initial())  # the FEN's move counters
    assert game.key(state) == game.key(game.initial())
    knight = game.apply(game.initial(), game.parse_move(game.initial(), "Nf3"))
    assert game.key(knight) != game.key(game.initial()) and game.to_move(knight) == 1
    assert game.is_capture(state, game.parse_move(state, "e4")) is False


def test_names_and_titles():
    game = load(" breakthrough(rows=6,columns=6) ")
    assert game.name == game.ref == "openspiel:breakthrough(columns=6,rows=6)"
    assert game.title == "Breakthrough (columns=6, rows=6)" and game.board_shape == (6, 6)
    assert load("openspiel:go(board_size=19)").name == "openspiel:go"  # the default is left out
    assert load("go(board_size=9)").board_shape == (9, 9)
    chess = load("chess")
    assert chess.side_names == ("White", "Black") and chess.to_move(chess.initial()) == 0
    assert chess.initial().current_player() == 1  # OpenSpiel's player 1 is White, side 0


def test_views_are_egocentric_where_the_layout_is_known():
    """Starts where both sides stand alike: the second player's view of the start (its planes
    first, the board turned) is the first player's view. (Othello's and clobber's tensors are
    OpenSpiel's own egocentric ones, and their starts are alike only mirrored.)"""
    for name in ("tic_tac_toe", "connect_four", "breakthrough", "checkers", "amazons", "lines_of_action", "hex",
                 "go"):
        game = load(name)
        start = game.initial()
        first = game._tensor_view(start, 0)
        second = game._tensor_view(start, 1)
        if name == "go":  # its last plane says whether White is to play
            first, second = first[: 3 * 361], second[: 3 * 361]
        assert np.array_equal(first, second), name
    game = load("connect_four")
    state = game.apply(game.initial(), 3)
    view = game.views([state])[0]
    assert view[-1] == 1 and view[42 + 3] == 1  # the X just played: the other side's plane, its first row the bottom
    assert game.cells(state)[5 * 7 + 3] == "x"


def test_bench_moves_reports_both_paths():
    out = bench_moves("connect_four", seconds=0.2)
    assert out["game"] == "openspiel:connect_four"
    assert out["adapter_moves_per_s"] > 0 and out["raw_moves_per_s"] > 0 and out["adapter_games"] > 0


def test_work_per_game_is_the_mean_length_of_random_games():
    assert 7 <= load("tic_tac_toe").work_per_game <= 9
    assert load("connect_four").work_per_game > load("tic_tac_toe").work_per_game


# ---------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    "text, words",
    [
        ("no_such_game", "unknown OpenSpiel game 'no_such_game'"),
        ("breakthrough(rows=abc)", "Wrong type for parameter rows"),
        ("breakthrough(rowz=3)", "Unknown parameter 'rowz'"),
        ("connect_four(", "Missing closing bracket"),
        ("kuhn_poker", "information is not perfect"),
        ("backgammon", "chance events"),
        ("matrix_rps", "not sequential"),
        ("chinese_checkers(players=3)", "3 players, not 2"),
        ("2048", "not zero-sum"),
        ("", "no OpenSpiel game named"),
    ],
)
def test_refusals_are_one_line(text, words, capfd):
    with pytest.raises(EvoplayError) as caught:
        load(text)
    message = str(caught.value)
    assert words in message and "\n" not in message and len(message) < 400
    assert caught.value.__context__ is None or caught.value.__suppress_context__  # no chained traceback
    out, err = capfd.readouterr()
    assert out == err == ""  # OpenSpiel's C++ prints its exceptions; the adapter keeps them quiet


@pytest.mark.parametrize(
    "text, words",
    [
        ("breakthrough(rows=0)", ["with rows=0", "breakthrough.cc:124 rows_ > 1"]),
        ("go(board_size=1)", ["with board_size=1", "unsupported board size"]),
        ("connect_four(rows=-1)", ["with rows=-1", "cannot create std::vector"]),
        ("connect_four(rows=0)", ["with rows=0", "OpenSpiel crashed trying it (SIGSEGV)"]),  # a segmentation fault
        ("hex(board_size=0)", ["with board_size=0", "a position that is not over has no legal move"]),
        ("mnk(m=0)", ["with m=0", "over before its first move"]),
        ("mnk(m=5000,n=5000,k=5)", ["with m=5000, n=5000", "too large: 25,000,000 distinct actions"]),
        ("go(board_size=1000)", ["with board_size=1000", "too large: 1,000,001 distinct actions"]),
        ("gomoku(size=100000)", ["with size=100000", "too large: loading it needs more than 1 GiB"]),
        ("connect_four(rows=6,rows=7)", ["parameter 'rows' given twice"]),
        ("connect_four(rows=6)x", ["text after its closing bracket"]),
        ("connect_four(rows=6))", ["text after its closing bracket"]),
        ("connect_four()rows=6)", ["text after its closing bracket"]),
        ("mnk(m=99999999999999999999)", ["with m=99999999999999999999", "CHECK_TRUE(success)"]),
    ],
)
def test_parameters_the_game_cannot_use_are_refused_in_one_line(text, words, capfd, monkeypatch):
    """load_game accepts these; the game then crashes, stalls or cannot be played (issue 40):
    refused from their parameters or their trial in a child process, never loaded in this one."""
    import pyspiel

    loaded_here = never_called(monkeypatch, pyspiel, "load_game")
    with pytest.raises(EvoplayError) as caught:
        load(text)
    message = str(caught.value)
    assert message.startswith(f"OpenSpiel game {text!r}") and "\n" not in message and len(message) < 400
    assert all(w in message for w in words), message
    assert not loaded_here
    assert capfd.readouterr() == ("", "")


def test_a_game_given_parameters_is_tried_once_in_a_child_process(monkeypatch):
    from evoplay.openspiel import loading as adapter

    assert adapter._tried("breakthrough(columns=5)") == "ok"
    monkeypatch.setattr(adapter.subprocess, "run", None)  # no process may start from here on
    assert load("breakthrough(columns=5)").board_shape == (8, 5)  # the verdict is kept
    assert load("connect_four(rows=6)").name == "openspiel:connect_four"  # the defaults: tried here only


def test_the_child_process_is_bounded_in_time(monkeypatch):
    from evoplay.openspiel import loading as adapter

    monkeypatch.setattr(adapter, "CHECK_SECONDS", 0.001)
    assert adapter._tried.__wrapped__("connect_four(rows=5)") == "too large: not loaded and tried within 0.001 s"


def test_serve_refuses_a_game_that_openspiel_cannot_play_before_it_listens(capsys):
    from evoplay.cli import main

    with pytest.raises(SystemExit) as exited:
        main(["serve", "--port", "0", "--game", "openspiel:breakthrough(rows=0)"])
    err = capsys.readouterr().err
    assert exited.value.code == 2 and err.count("\n") == 1
    assert err.startswith("evoplay: error: OpenSpiel game 'breakthrough(rows=0)' refused with rows=0: ")


def test_bad_move_text_is_a_value_error():
    game = load("connect_four")
    with pytest.raises(ValueError, match="not a legal move here"):
        game.parse_move(game.initial(), "x9")
    assert game.parse_move(game.initial(), "X3") == 3 and game.parse_move(game.initial(), "3") == 3


# ---------------------------------------------------------------- turns of several actions


def test_a_checkers_multi_jump_keeps_the_side_to_move():
    game = load("checkers")
    rng = np.random.default_rng(4)
    for _ in range(200):
        state = game.initial()
        while game.result(state) is None:
            moves = game.legal_moves(state)
            child = game.apply(state, moves[rng.integers(len(moves))])
            if game.result(child) is None and game.to_move(child) == game.to_move(state):
                # Mid-jump: only the jumping piece may go on, so the key is not the plain board's.
                assert child.current_player() == state.current_player()
                assert all("x" not in game.move_text(child, m) for m in game.legal_moves(child))
                assert game.views([child])[0, -1] == game.to_move(child)
                return
            state = child
    raise AssertionError("no multi-jump in 200 random games")


def test_a_mancala_extra_turn_keeps_the_side_to_move_and_results_follow_it():
    game = load("mancala")
    rng = np.random.default_rng(5)
    extra = 0
    for _ in range(20):
        state = game.initial()
        while game.result(state) is None:
            moves = game.legal_moves(state)
            child = game.apply(state, moves[rng.integers(len(moves))])
            if game.result(child) is None:
                assert game.to_move(child) == child.current_player()
                extra += game.to_move(child) == game.to_move(state)
            else:
                p = 1 - state.current_player()  # the side that did not make the last move
                assert game.to_move(child) == p
                assert game.result(child) == int(np.sign(child.returns()[p]))
            state = child
    assert extra > 0


@pytest.mark.parametrize(
    "text, pattern, empty",
    [
        ("connect_four", r"^([.xo]{7})$", "."),
        ("go(board_size=5)", r"^\s*\d+ ([+XO]{5})$", "+"),  # its tensor's first row is the bottom
        ("lines_of_action", r"^\d([.xo]{8})$", "."),  # the same
        ("breakthrough", r"^\d([.bw]{8})$", "."),
        ("checkers", r"^\d([.o8+*]{8})$", "."),
        ("pentago", r"^. \d ((?:[.@O] ){6})", "."),
        ("gomoku(size=7)", r"^([.bw]{7})$", "."),
    ],
)
def test_cells_are_the_board_as_drawn(text, pattern, empty):
    game = load(text)
    rng = np.random.default_rng(6)
    state = game.initial()
    for _ in range(9):
        moves = game.legal_moves(state)
        state = game.apply(state, moves[rng.integers(len(moves))])
    rows = [m.group(1).replace(" ", "") for line in game.render(state).splitlines() if (m := re.match(pattern, line))]
    drawn = ["" if c == empty else c for row in rows for c in row]
    assert drawn == game.cells(state) and any(drawn)


def test_without_open_spiel_the_message_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "pyspiel", None)  # import pyspiel fails
    with pytest.raises(EvoplayError, match=r"pip install open_spiel, or the extra evoplay\[openspiel\]"):
        load("connect_four")
