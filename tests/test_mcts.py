"""UCT with random playouts (``mcts``) over the game interface, and sides that move twice in a row."""

import functools
import json

import numpy as np
import pytest

from evoplay.arena.match import play_game
from evoplay.arena.mcts import mcts_move
from evoplay.arena.specs import make_player
from evoplay.errors import SpecError
from evoplay.arena.game import BaseGame
from evoplay.games import resolve_game
from evoplay.arena.search import WIN, search
from evoplay.tictactoe import board

TTT = resolve_game("tictactoe")


def code(rows: str) -> int:
    """A tic-tac-toe board code from its drawing, row by row."""
    return board.encode(np.array([{"X": board.X, "O": board.O, ".": board.EMPTY}[c] for c in rows.replace("/", "")]))


def test_mcts_takes_a_win_and_blocks_a_loss():
    win = code("XX./OO./...")  # X to move: square 2 wins at once
    block = code("X../OO./X..")  # X to move: O threatens 5
    for seed in range(5):
        assert mcts_move(TTT, win, np.random.default_rng(seed), sims=50) == 2
        assert mcts_move(TTT, block, np.random.default_rng(seed), sims=200) == 5


def test_identical_seeds_play_identical_games():
    a, b = make_player(TTT, "mcts:sims=20"), make_player(TTT, "random")
    games = [[play_game(TTT, a, b, TTT.initial(), np.random.default_rng(s))[:2] for s in range(5)] for _ in range(2)]
    assert games[0] == games[1]


def test_mcts_specs_are_checked():
    assert make_player(TTT, "mcts").spec == "mcts:sims=1000,c=2,solve=1"
    for bad in ("mcts:sims=0", "mcts:sims=x", "mcts:depth=3", "mcts:c=-1", "mcts:solve=2"):
        with pytest.raises(SpecError):
            make_player(TTT, bad)
    with pytest.raises(SpecError):
        make_player(TTT, "mcts").distribution(TTT.initial())


def test_one_simulation_plays_a_uniformly_random_legal_move():
    """The smallest budget: the simulation plays out from the root, so the move is random."""
    state = code("X../.O./...")
    moves = [mcts_move(TTT, state, np.random.default_rng(seed), sims=1) for seed in range(300)]
    assert set(moves) == set(TTT.legal_moves(state))
    assert max(moves.count(m) for m in set(moves)) < 3 * 300 / 7  # no square close to 3x its share


@pytest.mark.parametrize("sims", [1, 2])
@pytest.mark.parametrize("game", ["tictactoe", "checkers", "openspiel:connect_four"])
def test_the_smallest_budgets_play_whole_matches_from_the_command_line(game, sims):
    """`evoplay match mcts:sims=1 random` was a traceback (max() of no children) on every game."""
    if game.startswith("openspiel:"):
        pytest.importorskip("pyspiel")
    from test_fuzz_cli import run_in_process

    code_, out, err = run_in_process(["match", f"mcts:sims={sims}", "random", "--game", game, "--games", "2", "--json"])
    assert code_ == 0 and err == "", err[-500:]
    results = json.loads(out)["results"]
    assert [r["games"] for r in results] == [2, 2] and results[0]["a_win"] + results[0]["draw"] + results[0]["b_win"] == 1


def wins_as_o_against_random(choose, games: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    wins = 0
    for _ in range(games):
        s = TTT.initial()
        while TTT.result(s) is None:
            moves = TTT.legal_moves(s)
            s = TTT.apply(s, moves[rng.integers(len(moves))] if TTT.to_move(s) == 0 else choose(s, rng))
        wins += TTT.result(s) == -1 and TTT.to_move(s) == 0
    return wins / games


def test_mcts_agrees_with_openspiels_mctsbot():
    """Equal simulations, equal strength: O's wins against a random X, evoplay's UCT on its own
    tic-tac-toe and OpenSpiel's MCTSBot on OpenSpiel's, within four standard errors."""
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import mcts

    games, sims = 300, 30
    ours = wins_as_o_against_random(lambda s, rng: mcts_move(TTT, s, rng, sims), games, 1)
    game = pyspiel.load_game("tic_tac_toe")
    rs = np.random.RandomState(2)
    bot = mcts.MCTSBot(game, 2.0, sims, mcts.RandomRolloutEvaluator(1, rs), random_state=rs)
    theirs = 0
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            s.apply_action(rs.choice(s.legal_actions()) if s.current_player() == 0 else bot.step(s))
        theirs += s.returns()[1] == 1
    theirs /= games
    p = (ours + theirs) / 2
    assert abs(ours - theirs) <= 4 * np.sqrt(2 * p * (1 - p) / games), (ours, theirs)
    assert ours > 0.7  # far above a random O (0.288)


class DoubleTake(BaseGame):
    """A pile of stones; a side takes 1 or 2, and after taking 2 it moves again (if any are
    left). Whoever takes the last stone wins. A side that moves twice in a row, as in
    mancala's extra turns or a multi-jump split into single jumps."""

    side_names = ("A", "B")

    def __init__(self, stones: int = 7):
        self.stones = stones

    def initial(self):
        return (self.stones, 0)

    def to_move(self, state):
        return state[1]

    def legal_moves(self, state):
        return [m for m in (1, 2) if m <= state[0]]

    def apply(self, state, move):
        left = state[0] - move
        again = move == 2 and left > 0
        return (left, state[1] if again else 1 - state[1])

    def result(self, state):
        return None if state[0] else -1  # the side to move did not take the last stone

    def key(self, state):
        return state

    def views(self, states):
        return np.array([[s[0]] for s in states], dtype=np.int8)


@functools.lru_cache(maxsize=None)
def minimax(game, state) -> int:
    """Plain minimax over to_move: the value of ``state`` for its side to move."""
    if (r := game.result(state)) is not None:
        return r
    values = []
    for m in game.legal_moves(state):
        kid = game.apply(state, m)
        v = minimax(game, kid)
        values.append(v if game.to_move(kid) == game.to_move(state) else -v)
    return max(values)


@pytest.mark.parametrize("stones", range(1, 12))
def test_search_and_mcts_follow_a_side_that_moves_again(stones):
    game = DoubleTake(stones)
    state = game.initial()
    exact = minimax(game, state)
    zero = lambda views: np.zeros(len(views))  # noqa: E731: a knowledge-free evaluator
    result = search(game, state, stones, zero)
    assert np.sign(result.value) == exact and abs(result.value) > WIN / 2
    kid = game.apply(state, result.move)
    after = minimax(game, kid) if game.to_move(kid) == game.to_move(state) else -minimax(game, kid)
    assert after == exact  # the searched move keeps the exact value
    if exact == 1:  # a won position: the solver finds a winning move
        move = mcts_move(game, state, np.random.default_rng(stones), sims=400)
        kid = game.apply(state, move)
        assert (minimax(game, kid) if game.to_move(kid) == game.to_move(state) else -minimax(game, kid)) == 1


def test_a_playout_of_a_game_that_never_ends_stops_at_the_games_ply_limit():
    """A game that never ends draws a playout after its ``max_plies``, not after 10,000 plies."""
    from evoplay.arena.mcts import playout

    class Endless:
        max_plies = 50
        calls = 0

        def result(self, state):
            Endless.calls += 1
            return None

        def legal_moves(self, state):
            return [0]

        def apply(self, state, move):
            return state + 1

        def to_move(self, state):
            return state % 2

    assert playout(Endless(), 0, np.random.default_rng(0)) == (0, 0)
    assert Endless.calls == 50
