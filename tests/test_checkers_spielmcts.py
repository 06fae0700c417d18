"""openspiel-mcts: evoplay's checkers positions set up in OpenSpiel's checkers (the same board,
player to move and legal moves), moves translated both ways, OpenSpiel's C++ MCTSBot choosing."""

import json
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from evoplay.arena import specs
from evoplay.checkers import rules, spielboard
from evoplay.checkers.game import CHECKERS
from evoplay.cli import cli, main
from evoplay.errors import EvoplayError, SpecError

pyspiel = pytest.importorskip("pyspiel")


def spiel_state(state):
    """OpenSpiel's checkers state that ``setup`` builds for an evoplay position."""
    actions, _ = spielboard.setup(spielboard.cells(state), state.turn)
    out = pyspiel.load_game("checkers").new_initial_state()
    for number in actions:
        out.apply_action(number)
    return out


def spiel_moves(state) -> list[tuple]:
    """Every whole move of an OpenSpiel checkers state (a multi-jump is several actions of one
    player), as evoplay paths, sorted."""
    out = []

    def walk(here, taken):
        for number in here.legal_actions():
            child = here.child(number)
            jump_goes_on = number % 2 == 1 and not child.is_terminal() and child.current_player() == here.current_player()
            if jump_goes_on:
                walk(child, taken + [number])
            else:
                out.append(spielboard.move_of(taken + [number]))

    walk(state, [])
    return sorted(out)


def words(state, move) -> list[str]:
    return [state.action_to_string(number) for number in spielboard.move_actions(move)]


# Hand-drawn positions (PDN FEN) with their one OpenSpiel drawing, their legal moves in both
# notations. Evoplay's square n is OpenSpiel's board turned half a turn: 9 is g3, 14 f4.
CAPTURE = "B:W18,30:B14"  # the capture is forced: the man on 14 takes 18
MULTI_JUMP = "B:W14,22,23,32:B9"  # 9 takes 14, then 22 or 23: two moves, two actions each
CROWNING = "B:W12,26,27:B22"  # 22 takes 26 and is crowned on 31: the move ends there, 27 stays
KING = "B:W30:BK15"  # a king steps all four ways


def test_a_forced_capture_is_one_action():
    state = rules.from_fen(CAPTURE)
    spiel = spiel_state(state)
    assert spiel.to_string() == "8.....+..\n7........\n6........\n5....+...\n4.....o..\n3........\n2........\n1........\n abcdefgh\n"
    assert spiel.current_player() == 0 == state.turn
    assert rules.legal_moves(state) == [(14, 23)] == spiel_moves(spiel)
    assert words(spiel, (14, 23)) == ["f4d6"] == [spiel.action_to_string(a) for a in spiel.legal_actions()]


def test_a_multi_jump_is_one_action_per_jump_and_one_move():
    state = rules.from_fen(MULTI_JUMP)
    spiel = spiel_state(state)
    assert spiel.to_string() == spielboard.drawing(spielboard.cells(state))
    assert rules.legal_moves(state) == [(9, 18, 25), (9, 18, 27)] == spiel_moves(spiel)
    assert words(spiel, (9, 18, 25)) == ["g3e5", "e5g7"] and words(spiel, (9, 18, 27)) == ["g3e5", "e5c7"]
    after = spiel.child(spielboard.move_actions((9, 18, 27))[0])
    assert after.current_player() == 0  # the same player jumps on
    assert sorted(after.action_to_string(a) for a in after.legal_actions()) == ["e5c7", "e5g7"]
    for move in rules.legal_moves(state):
        assert spielboard.move_of(spielboard.move_actions(move)) == move


def test_crowning_ends_the_move_in_both():
    state = rules.from_fen(CROWNING)
    spiel = spiel_state(state)
    assert rules.legal_moves(state) == [(22, 31)] == spiel_moves(spiel)
    after = spiel.child(spielboard.move_actions((22, 31))[0])
    assert after.current_player() == 1 and "8" in after.to_string()  # a king on d8, White to move


def test_a_king_steps_every_way():
    state = rules.from_fen(KING)
    spiel = spiel_state(state)
    assert rules.legal_moves(state) == [(15, 10), (15, 11), (15, 18), (15, 19)] == spiel_moves(spiel)
    assert [words(spiel, m)[0] for m in rules.legal_moves(state)] == ["d4e3", "d4c3", "d4e5", "d4c5"]


def test_white_to_move_is_openspiels_player_1():
    state = rules.from_fen("W:WK1:BK32")
    spiel = spiel_state(state)
    assert spiel.current_player() == 1 and spiel_moves(spiel) == rules.legal_moves(state) == [(1, 5), (1, 6)]


def test_after_a_capture_openspiel_counts_40_quiet_plies_to_its_draw():
    """The setup ends on a jump: OpenSpiel counts 0 plies since a capture, so two kings far
    apart stepping back and forth are drawn by its rule at the 40th ply, not before."""
    state = rules.from_fen("W:WK1:BK32")
    assert spielboard.setup(spielboard.cells(state), state.turn)[1] == 0
    spiel = spiel_state(state)
    shuffle = ["g1h2", "b8a7", "h2g1", "a7b8"]
    for ply in range(40):
        assert not spiel.is_terminal(), ply
        spiel.apply_action(spiel.string_to_action(shuffle[ply % 4]))
    assert spiel.is_terminal() and spiel.returns() == [0.0, 0.0]


def test_where_the_last_movers_pieces_could_capture_the_setup_still_ends_on_a_jump():
    """Black's kings on 5 and 18 could take White's on 15: a last jump by one of them would
    keep Black's turn in OpenSpiel, so the setup ends on another (found in a stress run, where
    the first six ways to end on a jump were all such and the position was refused)."""
    state = rules.from_fen("W:WK6,K7,K15:BK5,K18")
    assert spielboard.setup(spielboard.cells(state), state.turn)[1] == 0
    spiel = spiel_state(state)
    assert spiel.current_player() == 1 and spiel_moves(spiel) == rules.legal_moves(state)


def random_positions(count: int, seed: int) -> list:
    """``count`` unfinished positions of seeded uniformly random games, every third ply."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        state = rules.initial()
        for ply in range(400):
            if rules.result(state) is not None:
                break
            if ply % 3 == 1:
                out.append(state)
            moves = rules.legal_moves(state)
            state = rules.apply(state, moves[rng.integers(len(moves))])
    return out[:count]


def test_legal_moves_agree_one_to_one_on_200_random_positions():
    positions = random_positions(200, seed=41)
    kings = sum(bool(state.kings) for state in positions)
    assert kings > 20  # the sample reaches kings' endgames, not only openings
    for state in positions:
        spiel = spiel_state(state)
        board = spielboard.cells(state)
        assert spiel.to_string() == spielboard.drawing(board), rules.to_fen(state)
        assert spiel.current_player() == state.turn
        assert spiel_moves(spiel) == rules.legal_moves(state), rules.to_fen(state)


def test_a_position_is_set_up_by_the_same_actions_every_time():
    state = random_positions(30, seed=7)[-1]
    board = spielboard.cells(state)
    first = spielboard.setup(board, state.turn)
    spielboard.setup.cache_clear()
    assert spielboard.setup(board, state.turn) == first


def test_boards_no_game_reaches_are_refused_in_one_line():
    with pytest.raises(EvoplayError, match="White man stands on its crowning row"):
        spielboard.setup(spielboard.cells(rules.from_fen("B:W3:B22")), 0)
    with pytest.raises(EvoplayError, match="more than 12 pieces"):
        spielboard.setup(spielboard.cells(rules.from_fen("B:W1-13:B20")), 0)


# ---------------------------------------------------------------- the player


def player(spec: str):
    return specs.make_player(CHECKERS, spec)


def test_the_spec_and_its_refusals():
    assert player("openspiel-mcts").spec == "openspiel-mcts:sims=1000,c=2,rollouts=1,solve=1,seed=0"
    assert player("openspiel-mcts:sims=50,seed=3").spec == "openspiel-mcts:sims=50,c=2,rollouts=1,solve=1,seed=3"
    assert "openspiel-mcts" in specs.registry(CHECKERS)
    for bad, message in [("openspiel-mcts:sims=0", "sims must be in"), ("openspiel-mcts:rollouts=1.5", "must be an integer"),
                         ("openspiel-mcts:solve=2", "solve must be in"), ("openspiel-mcts:seed=-1", "seed must be in"),
                         ("openspiel-mcts:depth=2", "unknown parameter")]:
        with pytest.raises(SpecError, match=message):
            player(bad)
    with pytest.raises(SpecError, match="samples its moves"):
        player("openspiel-mcts").distribution(rules.initial())


def test_without_open_spiel_the_spec_is_refused_with_how_to_install_it(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel fails
    with pytest.raises(SpecError, match=r"needs open_spiel, which is not installed \(pip install open_spiel, or the extra evoplay\[openspiel\]\)"):
        player("openspiel-mcts")
    with pytest.raises(SystemExit) as exit_info:
        main(["match", "random", "openspiel-mcts:sims=5", "--game", "checkers", "--games", "1"])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and err.count("\n") == 1 and "needs open_spiel" in err


def test_the_same_seeds_give_the_same_moves():
    positions = random_positions(12, seed=3)[1:]
    a, b = player("openspiel-mcts:sims=40"), player("openspiel-mcts:sims=40")
    first = [a.choose(s, np.random.default_rng(5)) for s in positions]
    assert first == [b.choose(s, np.random.default_rng(5)) for s in positions]
    assert all(move in rules.legal_moves(s) for move, s in zip(first, positions))
    other = player("openspiel-mcts:sims=40,seed=1")
    assert first != [other.choose(s, np.random.default_rng(5)) for s in positions]  # the spec's seed is mixed in


def test_it_plays_a_whole_multi_jump():
    state = rules.from_fen("B:W14,15,22,23,32:B9,10")
    assert len(rules.legal_moves(state)) == 4  # 9x18x25, 9x18x27, 10x17x26, 10x19x26
    move = player("openspiel-mcts:sims=30").choose(state, np.random.default_rng(0))
    assert move in rules.legal_moves(state) and len(move) == 3


def test_a_checkers_match_against_it_ends_with_a_result_and_repeats():
    args = ["match", "random", "openspiel-mcts:sims=20", "--game", "checkers", "--games", "1", "--seed", "4", "--json"]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["b"] == "openspiel-mcts:sims=20" and len(doc["results"]) == 2
    for result in doc["results"]:
        assert result["games"] == 1 and result["a_win"] + result["draw"] + result["b_win"] == 1.0
    assert CliRunner().invoke(cli, args).output == r.output
