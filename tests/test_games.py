"""Conformance of every game to the game interface (``evoplay.games``): one suite, all games."""

import numpy as np
import pytest

from evoplay.errors import EvoplayError
from evoplay.arena.game import play_out
from evoplay.games import BUILTIN_GAMES as GAMES, resolve_game


@pytest.fixture(params=sorted(GAMES))
def game(request):
    return resolve_game(request.param)


def playouts(game, n=20, seed=0):
    rng = np.random.default_rng(seed)
    return [play_out(game, game.initial(), rng) for _ in range(n)]


def test_the_initial_state(game):
    start = game.initial()
    assert game.result(start) is None
    assert game.to_move(start) == 0
    assert game.legal_moves(start) and game.legal_moves(start) == game.legal_moves(game.initial())
    assert game.key(start) == game.key(game.initial())


def test_random_games_end_with_a_result_and_sides_alternate(game):
    ends = set()
    for states in playouts(game):
        for ply, state in enumerate(states[:-1]):
            assert game.result(state) is None
            assert game.to_move(state) == ply % 2
            moves = game.legal_moves(state)
            assert len(set(moves)) == len(moves)
        ends.add(game.result(states[-1]))
    assert ends <= {-1, 0, 1} and -1 in ends


def test_apply_leaves_its_state_alone(game):
    state = game.initial()
    key = game.key(state)
    children = {game.key(game.apply(state, m)) for m in game.legal_moves(state)}
    assert game.key(state) == key and key not in children
    assert len(children) == len(game.legal_moves(state))


def test_moves_read_back_from_their_text(game):
    for states in playouts(game, n=3):
        for state in states[:-1]:
            for move in game.legal_moves(state):
                assert game.parse_move(state, game.move_text(state, move)) == move
    for bad in ("", "zz", "99", "-1", "1-"):
        with pytest.raises(ValueError):
            game.parse_move(game.initial(), bad)


def test_views_are_batched_boards_of_the_side_to_move(game):
    states = [s for run in playouts(game, n=3) for s in run]
    views = game.views(states)
    assert views.dtype == np.int8 and views.shape[0] == len(states)
    for i in (0, 1, len(states) // 2, len(states) - 1):
        assert (game.views([states[i]])[0] == views[i]).all()
    start = game.views([game.initial()])[0]
    assert (start > 0).sum() == (start < 0).sum()
    # After one move the mover's pieces are the other side's in the next view.
    first = game.legal_moves(game.initial())[0]
    after = game.views([game.apply(game.initial(), first)])[0]
    assert (after < 0).sum() >= (start > 0).sum() and (after > 0).sum() == (start < 0).sum()


def test_identical_seeds_play_identical_games(game):
    a = [[game.key(s) for s in run] for run in playouts(game, n=5, seed=7)]
    b = [[game.key(s) for s in run] for run in playouts(game, n=5, seed=7)]
    assert a == b


def test_games_are_named():
    with pytest.raises(EvoplayError, match="unknown game"):
        resolve_game("chess")
    for name in GAMES:
        assert resolve_game(name).name == name


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_conformance_suite_every_game_runs(name):
    """The same suite as the example user game's and every OpenSpiel game's."""
    from game_conformance import conformance

    facts = conformance(resolve_game(name), np.random.default_rng(3), playouts=4, max_plies=300)
    assert facts["states"] > 20 and facts["finished"] >= 1


@pytest.mark.parametrize("ref", ["checkers\n", " checkers", "tictactoe\t", "tic\x00tactoe", "openspiel:connect_four\r",
                                 "checkers\u00a0", "\n"])
def test_a_reference_with_whitespace_around_it_or_a_control_character_is_refused(ref):
    """The game named is what the reference says, not what is left once it is cleaned (issue 40)."""
    from evoplay.games import resolve_data_game

    for resolve in (resolve_game, resolve_data_game):
        with pytest.raises(EvoplayError, match="has whitespace around it or a character that is not printable") as caught:
            resolve(ref)
        assert "\n" not in str(caught.value)


def test_a_config_or_a_player_file_naming_a_game_with_whitespace_around_it_is_refused(tmp_path):
    """A config's game.name was cut down to the game; a player file's was written raw into the
    error (a carriage return split the line)."""
    import json
    import random
    from pathlib import Path

    from evoplay.cli.gameplay import choose_game
    from evoplay.recipes.blondie24.schema import checked_game
    from test_fuzz_cli import network_doc, redigest

    example = str(Path(__file__).resolve().parent.parent / "examples/games/connect_four.py") + ":ConnectFour"
    for ref in ("checkers\n", example + " "):
        with pytest.raises(EvoplayError, match="has whitespace around it"):
            checked_game(ref)
    doc = network_doc(random.Random(0), "tictactoe")
    doc["architecture"]["game"] = example + "\r"
    path = tmp_path / "player.json"
    path.write_text(json.dumps(redigest(doc)))
    with pytest.raises(EvoplayError) as caught:
        choose_game(None, [str(path)])
    message = str(caught.value)
    assert message.startswith(f"player file {path}: game reference ") and "has whitespace around it" in message
    assert len(message.splitlines()) == 1
