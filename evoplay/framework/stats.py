"""Small statistics for curves over trials: Student t quantiles and 95% bands."""

from __future__ import annotations

import math

import numpy as np

# Two-sided 95% Student t quantiles for 1..30 degrees of freedom.
_T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
         2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t (Cornish-Fisher expansion beyond 30 df)."""
    if df < 1:
        return float("nan")
    if df <= 30:
        return _T975[df - 1]
    z = 1.959964
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


def mean_band(curves: np.ndarray):
    """Mean over rows and the half-width of its 95% confidence interval."""
    n = curves.shape[0]
    mean = curves.mean(0)
    if n < 2:
        return mean, np.zeros_like(mean)
    return mean, t975(n - 1) * curves.std(0, ddof=1) / np.sqrt(n)


def mean_ci(values) -> tuple[float, float, float]:
    """(mean, lower, upper) of the 95% Student-t interval of the mean."""
    x = np.asarray(values, dtype=np.float64)
    m = float(x.mean())
    if len(x) < 2:
        return m, m, m
    half = t975(len(x) - 1) * float(x.std(ddof=1)) / np.sqrt(len(x))
    return m, m - half, m + half


def wilson_interval(count: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% with the default ``z``)."""
    p = count / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def score_interval(win: float, draw: float, loss: float, z: float = 1.96) -> tuple[float, float]:
    """A 95% interval of a mean game score (+1 win, 0 draw, -1 loss) that cannot leave [-1, 1]:
    Wilson's interval for the share of points p = (win + draw / 2) / games, mapped back
    to 2 p - 1. Counts may be fractions times the number of games. With draws a game's points
    vary less than a coin's, so the interval is conservative."""
    n = win + draw + loss
    if n <= 0:
        return -1.0, 1.0
    lo, hi = wilson_interval(win + draw / 2, n, z)
    return 2 * lo - 1, 2 * hi - 1


def permutation_test(x, y, rng: np.random.Generator, rounds: int = 100_000, exact_limit: int = 200_000) -> float:
    """Two-sided p-value of the difference of means of ``x`` and ``y`` under relabelling.

    Exact (every split enumerated) when there are at most ``exact_limit`` splits, else
    estimated from ``rounds`` random splits drawn from ``rng`` as (hits + 1) / (rounds + 1).
    """
    from itertools import combinations
    from math import comb

    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    both, n = np.concatenate([x, y]), len(x)
    observed = abs(x.mean() - y.mean())
    tol = 1e-12 * max(1.0, observed)
    total = both.sum()
    if comb(len(both), n) <= exact_limit:
        hits = splits = 0
        for idx in combinations(range(len(both)), n):
            s = both[list(idx)].sum()
            d = abs(s / n - (total - s) / (len(both) - n))
            hits += d >= observed - tol
            splits += 1
        return hits / splits
    perm = np.argsort(rng.random((rounds, len(both))), axis=1)[:, :n]
    s = both[perm].sum(1)
    d = np.abs(s / n - (total - s) / (len(both) - n))
    return float((np.sum(d >= observed - tol) + 1) / (rounds + 1))


def holm(pvalues) -> list[float]:
    """Holm's step-down adjustment of p-values (same order as given)."""
    p = np.asarray(pvalues, dtype=np.float64)
    order = np.argsort(p, kind="stable")
    adjusted = np.empty_like(p)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p) - rank) * p[i]))
        adjusted[i] = running
    return adjusted.tolist()


def cliffs_delta(x, y) -> float:
    """Cliff's delta: P(x > y) - P(x < y) over all pairs, in [-1, 1]."""
    x, y = np.asarray(x, dtype=np.float64)[:, None], np.asarray(y, dtype=np.float64)[None, :]
    return float(((x > y).sum() - (x < y).sum()) / (x.size * y.size))
