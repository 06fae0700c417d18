"""Fogel's tournament-score selection on hand-built payoff vectors."""

import numpy as np

from evoplay.recipes.fogel.operators import sel_tournament_score


def test_scores_count_rivals_with_strictly_lower_payoff():
    payoffs = np.arange(100.0)
    # With every other network as a rival, network i beats exactly the i below it.
    selected, scores, rivals = sel_tournament_score(payoffs, 50, np.random.default_rng(0), rivals=99)
    assert scores.tolist() == list(range(100))
    assert selected.tolist() == list(range(50, 100))


def test_ten_rivals_are_distinct_others_and_scores_match_them():
    rng = np.random.default_rng(1)
    payoffs = rng.integers(-50, 10, 100).astype(float)
    selected, scores, rivals = sel_tournament_score(payoffs, 50, np.random.default_rng(2), rivals=10)
    assert rivals.shape == (100, 10)
    for i in range(100):
        assert i not in rivals[i] and len(set(rivals[i])) == 10
        assert scores[i] == sum(payoffs[j] < payoffs[i] for j in rivals[i])
    assert len(selected) == 50 and len(set(selected)) == 50
    # Every survivor scores at least as much as every network left out.
    left = np.setdiff1d(np.arange(100), selected)
    assert scores[selected].min() >= scores[left].max()


def test_equal_payoffs_score_nothing_and_ties_break_at_random():
    payoffs = np.zeros(100)
    a, scores, _ = sel_tournament_score(payoffs, 50, np.random.default_rng(3))
    b, _, _ = sel_tournament_score(payoffs, 50, np.random.default_rng(4))
    assert not scores.any()
    assert len(a) == len(b) == 50 and a.tolist() != b.tolist()
    again, _, _ = sel_tournament_score(payoffs, 50, np.random.default_rng(3))
    assert again.tolist() == a.tolist()


def test_best_network_always_survives():
    payoffs = -np.arange(100.0)
    payoffs[37] = 5.0
    for seed in range(20):
        selected, scores, _ = sel_tournament_score(payoffs, 50, np.random.default_rng(seed))
        assert scores[37] == 10 and 37 in selected


def test_every_other_network_is_an_equally_likely_rival():
    n, draws = 20, 2000
    counts = np.zeros((n, n))
    for seed in range(draws):
        _, _, rivals = sel_tournament_score(np.zeros(n), 10, np.random.default_rng(seed))
        for i in range(n):
            counts[i, rivals[i]] += 1
    p = 10 / 19
    off = ~np.eye(n, dtype=bool)
    assert (np.diag(counts) == 0).all()
    assert (np.abs(counts[off] / draws - p) <= 3.29 * np.sqrt(p * (1 - p) / draws) + 0.01).all()


def test_selection_scales_to_large_pools():
    payoffs = np.random.default_rng(5).random(4000)
    selected, scores, rivals = sel_tournament_score(payoffs, 2000, np.random.default_rng(6))
    assert len(selected) == 2000 and rivals.shape == (4000, 10)
    assert (np.sort(rivals, 1)[:, 1:] != np.sort(rivals, 1)[:, :-1]).all(), "rivals are distinct"


def test_compiled_tournament_is_the_draws_of_a_plain_numpy_twin():
    """Floyd's sampling and the scores by whole-array numpy steps: the same rivals, scores and survivors."""

    def twin(payoffs, k, rng, rivals):
        n = len(payoffs)
        top = np.arange(n - 1 - rivals, n - 1)
        picks = rng.integers(0, top + 1, size=(n, rivals))
        for c in range(1, rivals):
            taken = (picks[:, :c] == picks[:, c, None]).any(1)
            picks[taken, c] = top[c]
        opp = picks + (picks >= np.arange(n)[:, None])
        scores = (payoffs[opp] < payoffs[:, None]).sum(1)
        order = np.lexsort((rng.random(n), -scores))
        return np.sort(order[:k]), scores, opp

    g = np.random.default_rng(5)
    for n, rivals in ((100, 10), (7, 6), (300, 1), (40, 39)):
        payoffs = g.integers(-50, 5, n).astype(float)
        got = sel_tournament_score(payoffs, n // 2, np.random.default_rng(n), rivals)
        want = twin(payoffs, n // 2, np.random.default_rng(n), rivals)
        for a, b in zip(got, want):
            assert np.array_equal(a, b)
