"""Checkers players, openings, matches and the command line with --game checkers."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from evoplay.arena.match import pair_result, play_game
from evoplay.checkers import openings as checkers_openings
from evoplay.checkers import rules
from evoplay.checkers.game import CHECKERS
from evoplay.arena import specs
from evoplay.checkers.players import piece_difference
from evoplay.cli import cli
from evoplay.errors import EvoplayError, SpecError

MATERIAL = """
   .   .   .   .
 .   B   .   .
   .   .   b   .
 .   .   .   .
   .   .   .   .
 .   w   .   W
   .   .   W   .
 .   .   .   .
"""


def make_player(spec: str):
    """A checkers player by spec, as every command reads one."""
    return specs.make_player(CHECKERS, spec)


def test_piece_difference_counts_material_for_the_side_to_move():
    black = rules.parse_board(MATERIAL)
    white = black._replace(turn=rules.WHITE)
    evaluate = piece_difference(king=1.5)
    # Black: a man and a king (2.5); White: a man and two kings (4).
    assert evaluate(CHECKERS.views([black, white])).tolist() == [-1.5, 1.5]
    assert piece_difference(king=3)(CHECKERS.views([black])).tolist() == [-3.0]


def test_specs():
    p = make_player("piece-difference")
    assert p.spec == "piece-difference:depth=4,king=1.5" and p.deterministic
    assert make_player(" piece-difference:king=2,depth=3 ").spec == "piece-difference:depth=3,king=2"
    with pytest.raises(SpecError, match="' king ' has blanks around it"):  # a spec is one word, as options are
        make_player("piece-difference: king = 2 , depth=3")
    assert make_player("random").spec == "random"
    for bad, words in [
        ("logic", "not a checkers player"),
        ("piece-difference:depth=0", "depth must be in [1, 12]"),
        ("piece-difference:depth=2.5", "depth must be an integer"),
        ("piece-difference:king=nan", "king must be finite"),
        ("piece-difference:queen=1", "unknown parameter"),
        ("piece-difference:depth", "not key=value"),
        ("human", "only in `evoplay game`"),
        ("", "empty"),
    ]:
        with pytest.raises(SpecError, match=words.replace("[", r"\[").replace("]", r"\]")):
            make_player(bad)


def test_the_three_move_ballots():
    ballots = checkers_openings.ballots()
    assert len(ballots) == 157 and ballots[0][0] == "001"
    assert all(s.turn == rules.WHITE for _, s in ballots)  # three plies played
    assert len({s.key for _, s in ballots}) == 157


@pytest.mark.parametrize(
    "doc, words",
    [
        ({"format": "x", "version": 1, "openings": []}, "not a evoplay-checkers-openings"),
        ({"format": checkers_openings.FORMAT, "version": 1, "openings": []}, "non-empty list"),
        ({"format": checkers_openings.FORMAT, "version": 1, "openings": [{"ballot": "1", "moves": "9-13 21-17 5-10"}]}, "ballot 1"),
        ({"format": checkers_openings.FORMAT, "version": 1, "openings": [{"ballot": "1"}]}, "each opening"),
    ],
)
def test_a_bad_openings_file_is_refused(tmp_path, doc, words):
    path = tmp_path / "openings.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(EvoplayError, match=words):
        checkers_openings.read_openings(path)


def test_games_repeat_for_a_seed_and_search_beats_random():
    openings = [s for _, s in checkers_openings.ballots()]
    rand, pd = make_player("random"), make_player("piece-difference:depth=2")
    one = pair_result(CHECKERS, rand, pd, openings, 6, seed=5)
    assert one == pair_result(CHECKERS, rand, pd, openings, 6, seed=5)
    assert one["o_win"] >= 5 / 6
    score, plies, last = play_game(CHECKERS, pd, pd, openings[3], np.random.default_rng(0))
    assert CHECKERS.result(last) is not None and plies > 0
    assert (score, plies) == play_game(CHECKERS, pd, pd, openings[3], np.random.default_rng(1))[:2]


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input)


def test_match_json_for_checkers():
    r = run("match", "random", "piece-difference:depth=1", "--game", "checkers", "--games", "3", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["game"] == "checkers" and doc["openings"] == 157
    assert [x["first"] for x in doc["results"]] == ["a", "b"]
    for x in doc["results"]:
        assert x["games"] == 3 and x["a_win"] + x["draw"] + x["b_win"] == pytest.approx(1.0)
    again = run("match", "random", "piece-difference:depth=1", "--game", "checkers", "--games", "3", "--json")
    assert again.output == r.output


def test_tournament_for_checkers():
    r = run("tournament", "random", "piece-difference:depth=1", "--game", "checkers", "--games", "2", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["game"] == "checkers" and len(doc["rows"]) == 4
    text = run("tournament", "random", "--game", "checkers", "--games", "1").output
    assert "Row player as Black (moves first)" in text


@pytest.mark.parametrize(
    "args, words",
    [
        (["match", "logic", "random", "--game", "checkers"], "unknown player 'logic': not a checkers player"),
        (["match", "random", "random", "--game", "checkers", "--exact"], "--exact needs a game with an exact analysis"),
        (["match", "random", "random", "--game", "checkers", "--games", "200000"], "--games must be in"),
        (["match", "random", "piece-difference:depth=99", "--game", "checkers"], "depth must be in"),
        (["game", "--game", "checkers", "--vs", "human"], "needs a computer player"),
    ],
)
def test_bad_checkers_input_is_one_line(args, words, capsys):
    from evoplay.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(args)
    err = capsys.readouterr().err
    assert exit_info.value.code == 2
    assert err.count("\n") == 1 and words in err


def test_a_person_plays_checkers_at_the_terminal():
    r = run("game", "--game", "checkers", "--vs", "piece-difference:depth=1", "--seed", "0", input="hello\n11-14\n11-15\n")
    assert r.exit_code == 0, r.output
    out = r.output
    assert "You play Black" in out and "'hello' is not a move" in out
    assert "'11-14' is not a legal move here" in out and "piece-difference:depth=1 plays" in out
    assert out.rstrip().endswith("End of input: game abandoned.")


def test_a_game_against_the_computer_ends_with_a_verdict():
    # The computer (Black, depth 3) against a person who always types the first legal move.
    moves = []
    state = rules.initial()
    rng = np.random.default_rng(0)
    ai = make_player("piece-difference:depth=3")
    while CHECKERS.result(state) is None:
        move = ai.choose(state, rng) if state.turn == rules.BLACK else rules.legal_moves(state)[0]
        if state.turn == rules.WHITE:
            moves.append(rules.move_text(move))
        state = rules.apply(state, move)
    r = run("game", "--game", "checkers", "--vs", "piece-difference:depth=3", "--first", "ai", input="\n".join(moves) + "\n")
    assert r.exit_code == 0, r.output
    black_score = CHECKERS.result(state) * (1 if state.turn == rules.BLACK else -1)
    verdict = {1: "piece-difference:depth=3 wins.", 0: "Draw after", -1: "You win!"}[black_score]
    assert verdict in r.output.splitlines()[-1]
    assert rules.render(state) in r.output


def test_the_generic_search_player_plays_the_compiled_player_s_moves():
    from evoplay.arena.players import SearchPlayer

    generic = SearchPlayer(CHECKERS, piece_difference(1.5), 3, "generic")
    fast = make_player("piece-difference:depth=3")
    rng = np.random.default_rng(2)
    states = [s for _, s in checkers_openings.ballots()[:6]]
    for state in states:
        assert generic.distribution(state) == fast.distribution(state)
        assert generic.choose(state, rng) == fast.choose(state, rng)


def test_random_player_distribution():
    state = rules.initial()
    dist = make_player("random").distribution(state)
    assert [m for m, _ in dist] == rules.legal_moves(state) and all(p == 1 / 7 for _, p in dist)


def test_the_terminal_says_which_pieces_are_yours():
    """The terminal board never said which pieces were the person's."""
    from evoplay.arena.players import side_with_pieces
    from evoplay.checkers import rules

    assert side_with_pieces(CHECKERS, CHECKERS.initial(), 0) == "Black (b)"
    kings = rules.from_fen("W:WK10,22:BK5,9")
    assert side_with_pieces(CHECKERS, kings, 0) == "Black (B and b)" and side_with_pieces(CHECKERS, kings, 1) == "White (W and w)"
