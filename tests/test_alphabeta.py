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
