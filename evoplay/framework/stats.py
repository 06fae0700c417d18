"""Small statistics for curves over trials: Student t quantiles and 95% bands."""

from __future__ import annotations

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
