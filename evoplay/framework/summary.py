"""The end of a run: logbooks, champions, the summary and the recipe's figures, from the trials.

The runner draws the curve (``plotting.plot_curves``) on a thread meanwhile.

The summary holds results only (no timings, hosts or versions: those go to
environment.json), so the same seed gives a byte-identical summary. The mean max curve's
figures are named in the recipe's words: ``mean_max_payoff`` for Fogel's recipes,
``mean_max_fitness`` for a recipe that names its fitness nothing.
"""

from __future__ import annotations

import json

import numpy as np

from evoplay.files.atomic import write_text
from evoplay.framework import league
from evoplay.framework.recipe import FitnessWords
from evoplay.framework.rundir import RunDir
from evoplay.framework.stats import mean_band


def max_curves(logbooks: dict) -> np.ndarray:
    """The trials' max fitness by generation, (trials, generations), from their logbooks (lists of rows) by trial."""
    return np.array([[r["max"] for r in logbooks[t]] for t in sorted(logbooks)], dtype=np.float64)


def finish_run(rd: RunDir, cfg: dict, recipe, logbooks: dict, ends: dict, table: list | None = None) -> dict:
    """Write per-trial logbooks and champions, the summary and the recipe's figures; return the summary.

    ``logbooks`` maps trial numbers to their finished logbooks (lists of rows), ``ends`` to
    their ``TrialRun.finish`` (champion document, facts); ``table`` is the league of the
    trials' champions where the config's rule played one (``league.play``). The run's
    champion is the one ``run.champion`` chooses (``evoplay.framework.league``); a rule other
    than the default is recorded as the summary's ``champion_rule``.
    """
    per_trial = []
    for t in sorted(logbooks):
        rd.write_logbook(t, logbooks[t])
        rd.join_detail(t)
        champion, facts = ends[t]
        write_text(rd.champion(t), json.dumps(champion, indent=1, allow_nan=False) + "\n")
        per_trial.append({"trial": t, **facts})
    words = FitnessWords.of(recipe)
    maxes = max_curves(logbooks)
    mean, half = mean_band(maxes)
    best = league.choose(league.scores(recipe, ends), table or [])
    rule = league.record(cfg, table or [])
    summary = {
        "name": cfg[""]["name"],
        "seed": cfg[""]["seed"],
        "trials": cfg[""]["trials"],
        "generations": cfg[""]["generations"],
        **recipe.run_facts(),
        "best_trial": best,
        **({"champion_rule": rule} if rule is not None else {}),
        words.summary_key: {
            "first": float(mean[0]),
            "last": float(mean[-1]),
            "last10": float(mean[-10:].mean()),
        },
        "curve": {"mean_max": mean.tolist(), "ci95": half.tolist()},
        "per_trial": per_trial,
    }
    rd.write_json(rd.summary, summary)
    write_text(rd.root / "champion.json", rd.champion(best).read_text())
    for suffix in (".png", ".svg"):
        recipe.figures(rd.root, rd.root / f"curve{suffix}")
    return summary


def mean_max_entry(summary: dict) -> tuple[str, dict] | None:
    """(fitness name, figures) of a summary's ``mean_max_<name>`` entry, or None if it has none."""
    for key, value in summary.items():
        if key.startswith("mean_max_") and isinstance(value, dict):
            return key.removeprefix("mean_max_").replace("_", " "), value
    return None
