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
