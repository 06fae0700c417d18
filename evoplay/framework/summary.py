"""The end of a run: logbooks, champions, the summary and the curve, from the trial states.

The summary holds results only (no timings, hosts or versions: those go to
environment.json), so the same seed gives a byte-identical summary.
"""

from __future__ import annotations

import numpy as np

from evoplay.tictactoe import exact
from evoplay.atomic import write_text
from evoplay.recipes.fogel.recipe import opponent_games
from evoplay.recipes.fogel.nets import file_parts, net_player
from evoplay.tictactoe.playerfile import save_player
from evoplay.framework.rundir import RunDir

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


def champion_expected_payoff(player, cfg: dict) -> float:
    """Exact expected payoff per game against the configured (mix of) opponent(s)."""
    ev = cfg["evaluation"]
    table = (ev["payoff_win"], ev["payoff_draw"], ev["payoff_loss"])
    players, per_game = opponent_games(ev["opponent"], ev["games"])
    weights = np.ones(1) if per_game is None else np.bincount(per_game) / len(per_game)
    return float(sum(w * exact.expected_payoff(player, p, table) for w, p in zip(weights, players)))


def finish_run(rd: RunDir, cfg: dict, states: dict) -> dict:
    """Write per-trial logbooks and champions, the summary and the curve; return the summary."""
    from evoplay.framework.plotting import plot_runs

    trials = []
    for t in sorted(states):
        st = states[t]
        rows = [dict(r) for r in st.logbook]
        rd.write_logbook(t, rows)
        rd.join_detail(t)
        champ = st.champion
        player = net_player(champ)
        expected = champion_expected_payoff(player, cfg)
        arch, weights = file_parts(champ)
        provenance = {
            "config": cfg[""]["name"],
            "seed": cfg[""]["seed"],
            "trial": t,
            "generation": st.generation,
            "network_id": champ.ident,
            "payoff": champ.fitness.values[0],
            "games": cfg["evaluation"]["games"],
            "expected_payoff_per_game": expected,
        }
        save_player(rd.champion(t), "fogel-net", arch, weights, provenance)
        trials.append(
            {
                "trial": t,
                "champion_id": champ.ident,
                "champion_hidden": champ.h,
                "champion_payoff": champ.fitness.values[0],
                "champion_expected_payoff_per_game": expected,
                "hall_of_fame_payoff": st.hof[0].fitness.values[0],
                "final_max": rows[-1]["max"],
                "final_mean": rows[-1]["mean"],
                "final_mean_h": rows[-1]["mean_h"],
            }
        )
    maxes = np.array([[r["max"] for r in states[t].logbook] for t in sorted(states)])
    mean, half = mean_band(maxes)
    best = max(trials, key=lambda r: (r["champion_expected_payoff_per_game"], -r["trial"]))
    summary = {
        "name": cfg[""]["name"],
        "seed": cfg[""]["seed"],
        "trials": cfg[""]["trials"],
        "generations": cfg[""]["generations"],
        "games_played": cfg[""]["trials"] * cfg[""]["generations"] * 2 * cfg["population"]["parents"] * cfg["evaluation"]["games"],
        "best_trial": best["trial"],
        "mean_max_payoff": {
            "first": float(mean[0]),
            "last": float(mean[-1]),
            "last10": float(mean[-10:].mean()),
        },
        "curve": {"mean_max": mean.tolist(), "ci95": half.tolist()},
        "per_trial": trials,
    }
    rd.write_json(rd.summary, summary)
    write_text(rd.root / "champion.json", rd.champion(best["trial"]).read_text())
    plot_runs([rd.root], rd.root / "curve.png")
    return summary
