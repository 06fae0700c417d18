"""``alpha-beta:depth=D`` for every game: its move values equal plain minimax's (no pruning,
written here) on random positions of three games at depths 1-4, and solved to the end it
plays Hexapawn and tic-tac-toe perfectly."""

from pathlib import Path

import numpy as np
import pytest

from evoplay.arena.alphabeta import AlphaBetaPlayer, further, null_heuristic
from evoplay.arena.game import capability, play_out
from evoplay.arena.match import play_game
from evoplay.arena.search import WIN
from evoplay.arena.specs import make_player
from evoplay.errors import SpecError
from evoplay.games import resolve_game

ROOT = Path(__file__).resolve().parents[1]
HEXAPAWN = f"{ROOT / 'examples' / 'games' / 'hexapawn.py'}:Hexapawn"
CONNECT_FOUR = f"{ROOT / 'examples' / 'games' / 'connect_four.py'}:ConnectFour"


def minimax(game, state, depth: int, evaluate, ply: int = 0) -> float:
    """Plain negamax without pruning, with the search's conventions: a finished game scores
    +-(WIN - ply) from the side to move, a horizon leaf the evaluator's score."""
    result = game.result(state)
    if result is not None:
        return 0.0 if result == 0 else result * (WIN - ply)
    if depth == 0:
        return float(evaluate(game.views([state]))[0])
    best = -np.inf
    for move in game.legal_moves(state):
        kid = game.apply(state, move)
        sign = 1.0 if game.to_move(kid) == game.to_move(state) else -1.0
        best = max(best, sign * minimax(game, kid, depth - 1, evaluate, ply + 1))
    return best


def positions(game, n: int, seed: int) -> list:
    """Unfinished positions from random games, a few plies in."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        line = play_out(game, game.initial(), rng)
        unfinished = [s for s in line if game.result(s) is None]
        out.append(unfinished[int(rng.integers(len(unfinished)))])
    return out


@pytest.mark.parametrize("ref", ["tictactoe", HEXAPAWN, CONNECT_FOUR])
@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_each_moves_value_is_plain_minimaxs(ref, depth):
    game = resolve_game(ref)
    player = AlphaBetaPlayer(game, depth)
    evaluate = capability(game, "heuristic") or null_heuristic
    for state in positions(game, 4, seed=depth):
        got = player.move_values(state)
        want = []
        for move in game.legal_moves(state):
            kid = game.apply(state, move)
            sign = 1.0 if game.to_move(kid) == game.to_move(state) else -1.0
            want.append((move, sign * minimax(game, kid, depth - 1, evaluate, 1)))
        assert got == want


def test_checkers_leaves_are_scored_by_its_declared_heuristic():
    game = resolve_game("checkers")
    player = make_player(game, "alpha-beta:depth=2")
    state = positions(game, 1, seed=5)[0]
    want = [minimax(game, game.apply(state, m), 1, capability(game, "heuristic"), 1) for m in game.legal_moves(state)]
    assert [-v for v in want] == [v for _, v in player.move_values(state)]


def test_a_win_one_ply_farther_away_is_worth_one_less():
    assert further(WIN) == WIN - 1 and further(-(WIN - 3)) == -(WIN - 4) and further(0.25) == 0.25


def test_hexapawn_solved_the_second_side_never_loses():
    game = resolve_game(HEXAPAWN)
    solved = make_player(game, "alpha-beta:depth=0")
    assert solved._solver.value(game.initial()) == -(WIN - 6)  # the first side loses in 6 plies (Gardner)
    rng = np.random.default_rng(7)
    for opening in range(40):
        first = make_player(game, "random") if opening % 2 else make_player(game, "alpha-beta:depth=1")
        score, plies, _ = play_game(game, first, solved, game.initial(), rng)
        assert score == -1, (opening, plies)  # the first side's score: a loss every time
    score, _, _ = play_game(game, solved, solved, game.initial(), rng)
    assert score == -1


def test_tic_tac_toe_solved_never_loses_from_either_seat():
    game = resolve_game("tictactoe")
    solved = make_player(game, "alpha-beta:depth=0")
    assert solved._solver.value(game.initial()) == 0.0  # the empty board is a draw
    rng = np.random.default_rng(3)
    for g in range(20):
        rand = make_player(game, "random")
        first_score, _, _ = play_game(game, solved, rand, game.initial(), rng)
        second_score, _, _ = play_game(game, rand, solved, game.initial(), rng)
        assert first_score >= 0 and second_score <= 0


def test_ties_are_drawn_by_the_matchs_generator_and_repeat_for_a_seed():
    game = resolve_game(HEXAPAWN)
    player = make_player(game, "alpha-beta:depth=1")  # no heuristic: every first move is worth 0
    state = game.initial()
    assert [p for _, p in player.distribution(state)] == [1 / 3] * 3
    picks = [player.choose(state, np.random.default_rng(s)) for s in range(30)]
    assert len(set(picks)) == 3
    assert picks == [player.choose(state, np.random.default_rng(s)) for s in range(30)]


def test_bad_depths_are_refused_in_one_line():
    game = resolve_game(HEXAPAWN)
    with pytest.raises(SpecError, match="alpha-beta depth must be in"):
        make_player(game, "alpha-beta:depth=65")
    assert make_player(game, "alpha-beta").spec == "alpha-beta:depth=4"


def test_hexapawn_conforms_to_the_game_interface():
    from game_conformance import conformance

    facts = conformance(resolve_game(HEXAPAWN), np.random.default_rng(2), playouts=20, max_plies=20)
    assert facts["finished"] == 20  # Hexapawn ends within 6 moves a side


@pytest.mark.parametrize("ref", ["checkers", CONNECT_FOUR, "openspiel:connect_four"])
def test_solving_a_game_too_big_to_solve_is_refused_when_the_player_is_made(ref):
    """It ended in a RecursionError on checkers and ran without end on Connect Four."""
    with pytest.raises(SpecError, match=r"alpha-beta:depth=full on .*too big to solve within 2,000,000 positions"):
        make_player(resolve_game(ref), "alpha-beta:depth=0")


def test_a_depth_no_machine_searches_is_refused_with_the_depth_that_may_be_given():
    with pytest.raises(SpecError, match=r"alpha-beta:depth=64 on checkers: 64 plies search at least .* give a depth of at most \d+"):
        make_player(resolve_game("checkers"), "alpha-beta:depth=64")
    assert make_player(resolve_game("checkers"), "alpha-beta:depth=8").depth == 8


class Countdown:
    """A line of ``n`` stones, one or (every hundredth stone) two taken a move; who cannot
    take loses: lines far longer than Python's recursion limit. ``loop`` adds a move that puts
    a stone back at ``n - 1`` (positions then repeat)."""

    name, side_names = "countdown", ("first", "second")

    def __init__(self, n: int = 3000, loop: bool = False):
        self.n, self.loop = n, loop

    def initial(self):
        return (self.n, 0)

    def to_move(self, state):
        return state[1]

    def legal_moves(self, state):
        moves = [1, 2] if state[0] % 100 == 0 and state[0] >= 2 else [1]
        return moves + ([-1] if self.loop and state[0] == self.n - 2 else [])

    def apply(self, state, move):
        stones, mover = state
        return stones - move, 1 - mover

    def result(self, state):
        stones, _ = state
        return None if stones else -1  # who cannot take has lost

    key = staticmethod(tuple)

    def views(self, states):
        return np.array([s[:1] for s in states], dtype=np.int8)

    def is_capture(self, state, move):
        return False


def test_the_solver_follows_lines_longer_than_the_recursion_limit():
    game = Countdown(3000)
    player = AlphaBetaPlayer(game, depth=0)
    # By hand: below 100 the side to move wins with an odd count; at 100 it wins (taking two leaves 98),
    # and from there on with an even count, at a multiple of 100 by taking one (two would leave an even
    # count). So at 3000 the first side wins by taking one stone a move but two at 100: 2,999 plies.
    assert player._solver.value(game.initial()) == WIN - 2999
    assert player.best_moves(game.initial()) == [1]
    assert player._solver.value((99, 0)) == WIN - 99 and player._solver.value((98, 0)) == -(WIN - 98)


def test_a_game_whose_positions_repeat_is_refused_by_the_solver():
    player = AlphaBetaPlayer(Countdown(300, loop=True), depth=0)
    with pytest.raises(Exception, match="solves games whose positions never repeat"):
        player._solver.value(player.game.initial())


def test_a_solve_is_asked_for_with_the_word_full():
    """`alpha-beta:depth=0` meaning "to the end of the game" was a surprise: the depth reads `full`
    (0, as specs took it first, reads the same), and a made player writes `full`."""
    game = resolve_game(HEXAPAWN)
    assert make_player(game, "alpha-beta:depth=full").spec == make_player(game, "alpha-beta:depth=0").spec == "alpha-beta:depth=full"
    assert make_player(game, "alpha-beta:depth=full")._solver is not None
    with pytest.raises(SpecError, match="depth must be a number of plies or 'full', got 'Full'"):
        make_player(game, "alpha-beta:depth=Full")
