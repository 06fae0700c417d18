"""One compiled Fogel generation (compiled.py) gives the general path's every number, and yields to a user's operators."""

import numpy as np
import pytest

from evoplay.framework import config
from evoplay.framework.trial import TrialRun
from evoplay.recipes.fogel import compiled, recipe as evolve
from evoplay.recipes.fogel.nets import mut_population


def _cfg(**sections):
    raw = {"recipe": "fogel", "seed": 11, "trials": 1, "generations": 40,
           "population": {"parents": 12}, "run": {"checkpoint_every": 20}}
    for section, values in sections.items():
        raw[section] = {**raw.get(section, {}), **values}
    return config.resolve(raw)


def _general(cfg):
    """A recipe whose mutate is swapped for the same operator: the general path runs."""
    r = evolve.FogelRecipe(cfg)
    r.toolbox.register("mutate", mut_population, **r.toolbox.mutate.keywords)
    return r


def _spy(monkeypatch):
    calls = []
    real = compiled.generation
    monkeypatch.setattr(compiled, "generation", lambda *a, **k: calls.append(1) or real(*a, **k))
    return calls


CASES = {
    "fogel1993": {},
    # every parent changes its architecture, within 1..2 units: additions and deletions hit both bounds
    "bounds": {"mutation": {"p_arch": 1.0, "sigma": 0.3}, "population": {"parents": 12, "hidden_min": 1, "hidden_max": 2}},
    # a mix of table players, odd payoffs and games, rivals up to the pool size - 1
    "mix": {"evaluation": {"games": 7, "opponent": [{"player": "logic", "weight": 2}, {"player": "random", "weight": 1}],
                           "payoff_win": 0.3, "payoff_draw": -0.7, "payoff_loss": -3.1},
            "selection": {"rivals": 23}},
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_compiled_generation_is_the_general_paths_every_number(case, monkeypatch):
    cfg = _cfg(**CASES[case])
    calls = _spy(monkeypatch)
    fast = TrialRun(evolve.FogelRecipe(cfg), 0, detail=[]).run(40)
    assert len(calls) == 40
    slow = TrialRun(_general(cfg), 0, detail=[]).run(40)
    assert len(calls) == 40  # the swapped operator took the general path
    assert list(fast.logbook) == list(slow.logbook)
    assert fast.to_data() == slow.to_data()  # parents, ids, fitnesses, hall of fame, champion
    assert fast.detail == slow.detail  # every network, payoff, rival and selection of every generation
    hs = {h for row in fast.logbook for h, c in enumerate(row["h_hist"], 1) if c}
    if case == "bounds":
        assert hs == {1, 2}


def test_without_a_hook_only_the_networks_that_live_on_are_made_and_nothing_changes(monkeypatch):
    cfg = _cfg()
    events = []
    hooked = evolve.FogelRecipe(cfg)
    hooked.hooks.append(events.append)
    plain = TrialRun(evolve.FogelRecipe(cfg), 2).run(30)
    assert list(TrialRun(hooked, 2).run(30).logbook) == list(plain.logbook)
    last = events[-1]
    assert len(last.pool) == 24 and [n.ident for n in last.pool[12:]] == list(range(12 + 29 * 12, 12 + 30 * 12))
    assert set(last.seconds) == {"setup", "compiled", "survivors", "total"}
    state = plain.trial.state
    made = [n for n in state.parents if n.fitness.valid]
    assert len(made) == 12 and state.champion.fitness.valid
    h, w1, w2 = state.parents.arrays
    assert all(np.array_equal(n.w1, w1[i]) and n.h == h[i] for i, n in enumerate(state.parents))


def test_a_users_operator_is_called_and_the_compiled_path_stays_out(monkeypatch):
    cfg = _cfg()
    calls = _spy(monkeypatch)
    seen = []
    r = evolve.FogelRecipe(cfg)

    def sel_first(payoffs, k, rng):  # a user's selection: the first k networks, no tournament
        seen.append(len(payoffs))
        return np.arange(k), np.zeros(len(payoffs), dtype=np.int64), np.zeros((len(payoffs), 1), dtype=np.int64)

    r.toolbox.register("select", sel_first)
    run = TrialRun(r, 0).run(5)
    assert seen == [24] * 5 and calls == []
    assert [n.ident for n in run.trial.state.parents] == list(range(12))  # the first parents survive every time


def test_chunked_evaluation_and_a_subclass_evaluation_take_the_general_path(monkeypatch):
    calls = _spy(monkeypatch)
    cfg = _cfg()
    three = TrialRun(evolve.FogelRecipe(cfg), 1, chunks=3).run(10)
    assert calls == []
    seen = []

    class Counted(evolve.FogelRecipe):  # a subclass with its own evaluation (as fogel-exact has)
        def evaluate(self, pool, ctx):
            seen.append(len(pool))
            return super().evaluate(pool, ctx)

    counted = TrialRun(Counted(cfg), 1).run(10)
    assert calls == [] and seen == [24] * 10
    assert list(three.logbook) == list(counted.logbook) == list(TrialRun(evolve.FogelRecipe(cfg), 1).run(10).logbook)
    assert len(calls) == 10


def test_the_mutation_draws_are_numpys_calls_and_leave_the_stream_where_numpy_does():
    """The kernel's ziggurat on the compiled stream makes numpy's numbers: 100 generations of
    Fogel-sized draws (a million normals: the ziggurat's rare paths, the tail included)."""
    from evoplay.framework import compiled_streams
    from evoplay.framework.streams import MUTATE, stream
    from evoplay.recipes.fogel import kernels

    w1, w2 = np.zeros((50, 10, 10)), np.zeros((50, 11, 9))
    for generation in range(1, 101):
        ours, theirs = compiled_streams.pcg64(1993, 2, generation, MUTATE), stream(1993, 2, generation, MUTATE)
        n1, n2, change, grow, victim = kernels.mutation_draws(ours, 0.05, w1, w2)
        assert n1.tobytes() == theirs.normal(0.0, 0.05, w1.shape).tobytes()
        assert n2.tobytes() == theirs.normal(0.0, 0.05, w2.shape).tobytes()
        for drawn in (change, grow, victim):
            assert drawn.tobytes() == theirs.random(50).tobytes()
        assert compiled_streams.next64(ours) == theirs.bit_generator.random_raw()


def test_the_kernels_survivors_are_the_selection_of_sel_tournament_score():
    from evoplay.recipes.fogel import kernels

    rng = np.random.default_rng(5)
    for m, n in ((100, 50), (24, 12), (9, 4)):
        for _ in range(200):
            scores = rng.integers(0, 4, m)  # many equal scores
            ties = rng.random(m)
            ties[rng.integers(0, m, m // 3)] = 0.5  # and equal tie-breakers: position decides
            want = np.sort(np.lexsort((ties, -scores))[:n])
            assert np.array_equal(kernels.survivors(scores, ties, n), want)


def test_the_tournament_draws_are_numpys_bounded_integers_and_uniforms():
    """``integers(0, top + 1, size)`` with an array ``top``, then ``random``, on a stream:
    Fogel's ranges (100 networks, 10 rivals; a first range of one value), and ranges near
    2**31, where Lemire's method rejects about every other word."""
    from evoplay.framework import compiled_streams
    from evoplay.framework.streams import SELECT, stream
    from evoplay.recipes.fogel import kernels

    cases = [(np.arange(89, 99), 100), (np.arange(0, 5), 6), (np.array([2**31, 3 * 2**30, 5, 2**32 - 2]), 7)]
    for top, rows in cases:
        for generation in range(1, 201):
            theirs = stream(1993, 3, generation, SELECT)
            picks, ties = kernels.tournament_draws(compiled_streams.pcg64(1993, 3, generation, SELECT), top, rows)
            assert np.array_equal(picks, theirs.integers(0, top + 1, size=(rows, len(top))))
            assert ties.tobytes() == theirs.random(rows).tobytes()
