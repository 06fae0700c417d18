"""The compiled checkers search gives the generic search's value and move (piece difference)."""

import pytest

from evoplay.checkers import rules
from evoplay.checkers import search as checkers_search
from evoplay.checkers.game import CHECKERS, Checkers
from evoplay.checkers.players import piece_difference
from evoplay.arena.search import WIN, search

from support.games import random_positions


@pytest.mark.parametrize("quiescence", [False, True])
def test_compiled_equals_generic_search(quiescence):
    for state in random_positions(CHECKERS, 15, seed=8):
        for depth, king in ((1, 1.5), (2, 1.5), (3, 2.0), (4, 1.5)):
            generic = search(CHECKERS, state, depth, piece_difference(king), quiescence)
            compiled = checkers_search.search(state, depth, king, quiescence)
            assert (compiled.value, compiled.move) == (generic.value, generic.move), rules.to_fen(state)


@pytest.mark.slow
def test_compiled_equals_generic_search_at_depth_6():
    for state in random_positions(CHECKERS, 10, seed=9):
        generic = search(CHECKERS, state, 6, piece_difference(1.5), True)
        compiled = checkers_search.search(state, 6, 1.5, True)
        assert (compiled.value, compiled.move) == (generic.value, generic.move)


SHUFFLE = """
   B   .   .   .
 b   .   .   .
   .   .   .   .
 .   .   .   .
   .   .   .   .
 .   .   .   .
   .   .   .   .
 .   .   .   W
"""


@pytest.mark.parametrize("limit, expected", [(100, (27, 32)), (8, (27, 23))])
def test_draw_rules_inside_the_search(limit, expected):
    """White, a man down, can repeat the start position a third time: a draw, unless the
    quiet limit draws every move anyway (then the first move in legal order)."""
    state = rules.parse_board(SHUFFLE)
    for move in [(1, 6), (32, 27), (6, 1), (27, 32), (1, 6), (32, 27), (6, 1)]:
        state = rules.apply(state, move)
    game = Checkers(quiet_limit=limit)
    for depth in (1, 2, 3, 4, 5):
        generic = search(game, state, depth, piece_difference(1.5))
        compiled = checkers_search.search(state, depth, 1.5, quiet_limit=limit)
        assert (compiled.value, compiled.move) == (generic.value, generic.move) == (0.0, expected)


def test_a_forced_win_is_found_and_faster_is_better():
    state = rules.from_fen("B:W14:B9,K1")
    assert checkers_search.search(state, 4)[:2] == (WIN - 1, (9, 18))


def test_leaves_are_counted_alike():
    one = checkers_search.search(rules.initial(), 1)
    assert (one.leaves, one.nodes) == (7, 0) == search(CHECKERS, rules.initial(), 1, piece_difference())[2:]


def test_the_compiled_search_runs_from_numba_s_cache():
    """A second process loads the kernels from the cache (a recursive kernel crashed there)
    and gives the first one's results, with either leaf evaluator."""
    import subprocess
    import sys

    code = ("import numpy as np; from evoplay.checkers import rules as R, search as S; print(S.search(R.initial(), 5)[:2]); "
            "g = np.random.default_rng(3).uniform(-0.2, 0.2, 1742); "
            "print(tuple(S.search(R.initial(), 4, 2.0, network=(g, (32, 40, 10, 1)))))")
    outputs = []
    for _ in range(2):
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stderr
        outputs.append(run.stdout)
    assert outputs[0].splitlines()[0] == "(0.0, (9, 13))"
    assert outputs[0] == outputs[1] and len(outputs[0].splitlines()) == 2


# ---------------------------------------------------------------- TDLeaf's principal line in one call


def falling_depths(state, depth, king, quiet_limit, network):
    """TDLeaf's principal line as it was found before the one-call line: a search of each depth
    from ``depth`` down to 1, each from the state the moves so far lead to, called from Python."""
    line = []
    for d in range(depth, 0, -1):
        if rules.result(state, quiet_limit) is not None:
            break
        move = checkers_search.search(state, d, king, False, quiet_limit, network=network).move
        line.append(move)
        state = rules.apply(state, move)
    return line, state


def line_positions(seed, n):
    """``n`` positions from random games played out from the start and from ballots, finished ones
    and ones deep in king endgames (with draw history) among them."""
    import numpy as np

    from evoplay.arena.game import play_out
    from evoplay.checkers.openings import ballots

    rng = np.random.default_rng(seed)
    starts = [rules.initial()] + [s for _, s in ballots()]
    out = []
    while len(out) < n:
        states = play_out(CHECKERS, starts[rng.integers(len(starts))] if len(out) % 2 else rules.initial(), rng)
        out += [states[i] for i in rng.choice(len(states), min(4, len(states)), replace=False)] + [states[-1]]
    return out[:n]


def searched_positions(seed, n, network):
    """``n`` positions with draw history, from games the search plays (a move in five random) from
    ballots: kings shuffling, repeating positions, quiet plies mounting."""
    import numpy as np

    from evoplay.checkers.openings import ballots

    rng = np.random.default_rng(seed)
    starts = [s for _, s in ballots()]
    out = []
    while len(out) < n:
        state = starts[rng.integers(len(starts))]
        for _ in range(300):
            if rules.result(state) is not None:
                break
            if rng.random() < 0.2:
                moves = rules.legal_moves(state)
                move = moves[rng.integers(len(moves))]
            else:
                move = checkers_search.search(state, 2, 1.5, network=network).move
            state = rules.apply(state, move)
            if len(state.history) >= 2 and rng.random() < 0.3:
                out.append(state)
    return out[:n]


def assert_lines_equal(states, depths, king, quiet_limit, network):
    """The one-call line equals the falling-depth searches' (moves, and the leaf with its draw
    bookkeeping); what the positions exercised, counted."""
    seen = {"history": 0, "ended": 0, "reset": 0, "moves": 0}
    for state in states:
        for depth in depths:
            expected = falling_depths(state, depth, king, quiet_limit, network)
            got = checkers_search.principal_line(state, depth, king, False, quiet_limit, network)
            assert got == expected, (rules.to_fen(state), state.quiet, state.history, depth)
            line, leaf = got
            assert type(leaf) is rules.State and all(type(x) is int for x in leaf[:5])
            assert all(type(s) is int for move in line for s in move)
            seen["history"] += len(leaf.history) > 0
            seen["ended"] += len(line) < depth
            seen["reset"] += 0 < len(line) and leaf.quiet < state.quiet + len(line)
            seen["moves"] += len(line)
    return seen


def line_networks(sizes, seeds, king):
    import numpy as np

    from evoplay.networks.evalnet import n_weights, prepare

    return [prepare(np.random.default_rng(s).normal(0, 0.3, n_weights(sizes)), sizes, king) for s in seeds]


@pytest.mark.parametrize("sizes", [(32, 40, 10, 1), "spatial"])
def test_the_one_call_principal_line_is_the_falling_depth_searches_line(sizes):
    """Several random networks of the 1999 and 2001 topologies, depths 1 to 6: the same moves and
    the same leaf (position, quiet plies, history) as the searches one by one from Python."""
    from evoplay.networks.evalnet import SPATIAL_SIZES

    sizes = SPATIAL_SIZES if sizes == "spatial" else sizes
    totals = {}
    for i, net in enumerate(line_networks(sizes, (1, 2, 3), 2.0)):
        states = line_positions(11 + i, 40) + searched_positions(i, 30, net)
        seen = assert_lines_equal(states, (1, 2, 3, 4, 5, 6), 2.0, rules.QUIET_LIMIT, net)
        totals = {k: totals.get(k, 0) + v for k, v in seen.items()}
    assert min(totals.values()) > 0, totals  # lines that end the game, histories, captures or man moves on a line


def test_the_one_call_principal_line_with_piece_difference_and_unprepared_networks():
    import numpy as np

    from evoplay.networks.evalnet import n_weights

    states = line_positions(12, 16) + searched_positions(7, 30, None)
    assert min(assert_lines_equal(states, (1, 2, 3, 4, 5, 6), 1.5, rules.QUIET_LIMIT, None).values()) > 0
    assert min(assert_lines_equal(states, (3, 5), 1.5, 12, None).values()) > 0  # a near quiet limit
    sizes = (32, 40, 10, 1)
    genome = np.random.default_rng(4).normal(0, 0.3, n_weights(sizes))
    assert_lines_equal(states[::4], (2, 4), 1.7, rules.QUIET_LIMIT, (genome, sizes))


@pytest.mark.parametrize("limit", [100, 8, 5])
def test_the_one_call_principal_line_keeps_the_draw_rules(limit):
    """Kings shuffling: the line's later searches see the repetitions and quiet plies before them,
    and the line stops where a repetition or the quiet limit ends the game."""
    state = rules.parse_board(SHUFFLE)
    states = [state]
    for move in [(1, 6), (32, 27), (6, 1), (27, 32), (1, 6), (32, 27), (6, 1)]:
        state = rules.apply(state, move)
        states.append(state)
    for network in [None] + line_networks((32, 40, 10, 1), (5,), 2.0):
        seen = assert_lines_equal(states, (1, 2, 3, 4, 5, 6), 1.5, limit, network)
        assert seen["ended"] > 0 and seen["history"] > 0


def test_views_from_one_compiled_call_are_the_board_views():
    """``Checkers.views`` (one compiled call) gives ``board_views``' arrays, kings and White's turn included."""
    import numpy as np

    from evoplay.checkers.game import board_views

    states = line_positions(13, 400)
    cols = np.array([s.key for s in states], dtype=np.uint64).reshape(-1, 4)
    expected = board_views(cols[:, 0], cols[:, 1], cols[:, 2], cols[:, 3].astype(np.int64))
    views = CHECKERS.views(states)
    assert views.dtype == np.int8 and np.array_equal(views, expected)
    assert any(s.kings for s in states) and any(s.turn == rules.WHITE for s in states)
    assert CHECKERS.views([]).shape == (0, 32)
