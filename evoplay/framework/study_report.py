"""A study's comparison: each variant against the baseline, in study.json, study.md and study.png.

Each trial's final figure is its max fitness averaged over its last ``LAST`` generations,
on the recipe's common scale; each variant's trials are compared with the baseline's by
a two-sided permutation test, Holm-corrected across variants per metric, with Cliff's
delta and a verdict in words (``compare``), for the final mean max fitness, the
champions' exact expected payoff, the recipe's per-trial measures (``Recipe.trial_measures``,
and ``Recipe.reported_measures`` once ``evoplay report`` has written them into every run) and
a league of the study's champions (``read_league``). ``markdown`` writes study.md's table and
``plot_study`` the mean curves with their 95% bands. Planning and running a study are
``study.py``'s.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from evoplay.errors import EvoplayError
from evoplay.framework import config as configs
from evoplay.framework.recipe import FitnessWords
from evoplay.framework.rundir import RunDir
from evoplay.framework.runner import make_recipe
from evoplay.framework.stats import cliffs_delta, holm, mean_band, mean_ci, permutation_test

ALPHA = 0.05
#: Generations at the end of a run whose max payoff is averaged into a trial's final figure.
LAST = 10


def read_max_curves(rd: RunDir, trials: int) -> np.ndarray:
    """Each trial's max fitness by generation, (trials, generations), as its logbook has it."""
    return np.array([rd.read_logbook(t, ("max",))["max"] for t in range(trials)])


def _final(curves: np.ndarray, scale: float) -> np.ndarray:
    """Each trial's mean max payoff over its last generations (on the recipe's common scale)."""
    return np.array([scale * float(np.mean(c[-LAST:])) for c in curves])


def _aggregate(rows: list[dict]) -> dict:
    out = {}
    for key in rows[0] if rows else []:
        values = [r[key] for r in rows]
        if all(isinstance(v, bool) for v in values):
            out[key] = {"count": int(sum(values)), "of": len(values)}
        else:
            x = np.asarray(values, dtype=np.float64)
            out[key] = {"mean": float(x.mean()), "median": float(np.median(x)), "best": float(x.max())}
    return out


def verdict(delta: float, p_holm: float, metric: str) -> str:
    if p_holm >= ALPHA:
        return f"no detectable difference in {metric} (Holm-adjusted p = {p_holm:.3g})"
    size = "large" if abs(delta) >= 0.474 else "medium" if abs(delta) >= 0.33 else "small"
    way = "higher" if delta > 0 else "lower"
    return f"{way} {metric} than the baseline, a {size} effect (Cliff's delta {delta:+.2f}, Holm-adjusted p = {p_holm:.3g})"


def fitness_compared(study: dict) -> bool:
    """Whether the variants' final mean max fitness is one measure: their recipes name it alike
    (Fogel's recipes all score a payoff; Blondie24's fitness, its points in the pool, and a
    TDLeaf run's strength are different figures, which no test compares)."""
    return len(_fitness_words(study)) == 1


def study_words(study: dict) -> FitnessWords:
    """The fitness words of the variants' recipes (neutral ones if the variants' recipes differ)."""
    return FitnessWords.common(_fitness_words(study))


def _fitness_words(study: dict) -> set[FitnessWords]:
    """The fitness words of each variant's recipe, once each."""
    return {FitnessWords.of(configs.recipe_class(v["config"][""]["recipe"])) for v in study["variants"]}


def trial_measures(study: dict) -> dict[str, str]:
    """The per-trial facts every variant's recipe names alike (``Recipe.trial_measures``)."""
    named = [make_recipe(v["config"]).trial_measures() for v in study["variants"]]
    return {k: label for k, label in named[0].items() if all(n.get(k) == label for n in named[1:])}


def reported_measures(reported: list[dict], trials: list[int]) -> dict[str, str]:
    """The measures later analyses wrote into the runs (``Recipe.reported_measures``, one dict
    a variant) that every variant has, alike named, for each of its trials: key -> label."""
    if not reported:
        return {}
    return {k: m["label"] for k, m in reported[0].items()
            if all(k in r and r[k]["label"] == m["label"] and len(r[k]["per_trial"]) == n for r, n in zip(reported, trials))}


#: A league of the study's champions: ``evoplay tournament CHAMPIONS... --json`` saved in the study's folder.
LEAGUE_FILE = "league.json"
LEAGUE_LABEL = "champion's mean score in the league of the study's champions (league.json)"


def _entrant(name: str) -> tuple[str, int] | None:
    """(run folder, trial) of a player named ``.../RUN/trials/trial_NN/champion.json``; None for any other."""
    parts = Path(name).parts
    if len(parts) >= 4 and parts[-1] == "champion.json" and parts[-3] == "trials" and parts[-2][:6] == "trial_" \
            and parts[-2][6:].isdigit():
        return parts[-4], int(parts[-2][6:])
    return None


def read_league(out: Path, runs: list[str], trials: list[int] | None = None) -> list[list[float]] | None:
    """Each variant's champions' mean score in the study's league (``LEAGUE_FILE``: a tournament
    of them, by ``evoplay tournament --json``): win 1, draw 0, loss -1 a game, from both seats,
    against every other player in it. ``runs``: each variant's run folder name; ``trials``: each
    variant's trials. None without the file, or when a variant's trial is missing from it; a
    damaged file is refused in one line."""
    from evoplay.files.jsondata import read_json

    path = Path(out) / LEAGUE_FILE
    if not path.is_file():
        return None
    doc = read_json(path, "the study's league", 64 << 20)
    totals, names = {}, {}
    try:
        for row in doc["rows"]:
            margin = float(row["x_win"]) - float(row["o_win"])
            if not (isinstance(row["x"], str) and isinstance(row["o"], str) and -1 <= margin <= 1):
                raise ValueError
            if row["x"] == row["o"]:
                continue
            for name, sign in ((row["x"], 1.0), (row["o"], -1.0)):
                key = _entrant(name)
                if key is None:
                    continue
                if names.setdefault(key, name) != name:
                    raise EvoplayError(f"{path} names two players as {key[0]} trial {key[1]}: {names[key]} and {name}")
                total, count = totals.get(key, (0.0, 0))
                totals[key] = (total + sign * margin, count + 1)
    except (KeyError, TypeError, ValueError):
        raise EvoplayError(f"{path} is damaged: not the JSON of `evoplay tournament ... --json`") from None
    if trials is None:
        return None
    if not all((run, t) in totals for run, n in zip(runs, trials) for t in range(n)):
        return None
    return [[totals[run, t][0] / totals[run, t][1] for t in range(n)] for run, n in zip(runs, trials)]


def metrics(words: FitnessWords, measures: dict[str, str] | None = None) -> dict[str, str]:
    """The compared figures, keyed as in study.json, named in the recipe's words (``measures``:
    the recipes' own per-trial facts, ``trial_measures``)."""
    return {"final_mean_max": f"final mean max {words.name}", "champion_expected_payoff": "champions' exact expected payoff",
            **(measures or {})}


def compare(study: dict, summaries: list[dict], analyses: list[list[dict]], curves: list[np.ndarray],
            words: FitnessWords = FitnessWords(), reported: list[dict] | None = None) -> dict:
    """The study's results: per variant figures, and each variant against the baseline
    (``curves``: each variant's ``read_max_curves``; ``reported``: each variant's
    ``Recipe.reported_measures`` of its run, compared where all variants have them)."""
    later = reported_measures(reported or [], [s["trials"] for s in summaries])
    measures = {**trial_measures(study), **later}
    labels = metrics(words, measures)
    if not fitness_compared(study):
        del labels["final_mean_max"]
    names = [v["name"] for v in study["variants"]]
    base = names.index(study["baseline"])
    per = {}
    for i, (v, s, a, c) in enumerate(zip(study["variants"], summaries, analyses, curves)):
        final = _final(c, make_recipe(v["config"]).payoff_scale())
        champ = np.array([r.get("expected_payoff", np.nan) for r in a], dtype=np.float64)
        per[i] = {"final_mean_max": final, "champion_expected_payoff": champ,
                  **{k: np.array([row.get(k, np.nan) for row in s["per_trial"]], dtype=np.float64) for k in measures if k not in later},
                  **{k: np.array(reported[i][k]["per_trial"], dtype=np.float64) for k in later}}
    rng = np.random.default_rng(np.random.SeedSequence(study["variants"][base]["config"][""]["seed"], spawn_key=(7, 7)))
    tests = {m: [] for m in labels}
    for i in range(len(names)):
        for m in labels:
            if i == base or np.isnan(per[i][m]).any():
                tests[m].append(None)
            else:
                tests[m].append(permutation_test(per[i][m], per[base][m], rng))
    adjusted = {}
    for m in labels:
        idx = [i for i, p in enumerate(tests[m]) if p is not None]
        adj = holm([tests[m][i] for i in idx]) if idx else []
        adjusted[m] = dict(zip(idx, adj))
    variants = []
    for i, (v, s, a) in enumerate(zip(study["variants"], summaries, analyses)):
        mean, lo, hi = mean_ci(per[i]["final_mean_max"])
        entry = {
            "name": v["name"],
            "dir": v["dir"],
            "overrides": v["overrides"],
            **({"config": v["config_file"]} if "config_file" in v else {}),
            **({"run": v["run"]} if "run" in v else {}),
            "trials": s["trials"],
            "generations": s["generations"],
            "payoff_scale": make_recipe(v["config"]).payoff_scale(),
            "final_mean_max": {"mean": mean, "ci95": [lo, hi], "per_trial": per[i]["final_mean_max"].tolist()},
            "champions": _aggregate(a),
        }
        if measures:  # a measure some trial lacks is left out of the variant's entry
            entry["measures"] = {k: dict(zip(("mean", "ci95"), _mean_ci(per[i][k])), per_trial=per[i][k].tolist(),
                                         sd=float(np.std(per[i][k], ddof=1)) if len(per[i][k]) > 1 else 0.0)
                                 for k in measures if not np.isnan(per[i][k]).any()}
        if i != base:
            entry["vs_baseline"] = {}
            for m, label in labels.items():
                if tests[m][i] is None:
                    continue
                delta = cliffs_delta(per[i][m], per[base][m])
                entry["vs_baseline"][m] = {
                    "mean_difference": float(per[i][m].mean() - per[base][m].mean()),
                    "cliffs_delta": delta,
                    "p": tests[m][i],
                    "p_holm": adjusted[m][i],
                    "verdict": verdict(delta, adjusted[m][i], label),
                }
        variants.append(entry)
    return {
        "name": study["name"],
        "base": study["base"],
        "baseline": study["baseline"],
        "test": "two-sided permutation test of the difference of means over trials (exact up to 200,000 splits, "
                "else 100,000 seeded random splits), Holm-corrected across variants per metric; effect size Cliff's delta",
        "final_generations_averaged": LAST,
        **({} if "final_mean_max" in labels else {"fitness_compared": False}),
        **({"measures": measures} if measures else {}),
        "variants": variants,
    }


def _mean_ci(values: np.ndarray) -> tuple[float, list[float]]:
    mean, lo, hi = mean_ci(values)
    return mean, [lo, hi]


def _fmt_ci(d):
    return f"{d['mean']:.2f} [{d['ci95'][0]:.2f}, {d['ci95'][1]:.2f}]"


def _fmt_measure(d):
    return "-" if d is None else f"{d['mean']:+.3f} [{d['ci95'][0]:+.3f}, {d['ci95'][1]:+.3f}] ({d['sd']:.3f})"


def markdown(result: dict, env: dict, words: FitnessWords = FitnessWords()) -> str:
    """study.md: the table per variant and each variant against the baseline, in words."""
    seconds = env.get("task_seconds", {})
    cost = env.get("cpu_seconds_per_generation", {})
    costed = any(c is not None for c in cost.values())  # a study of finished runs only has no costs to show
    measures = result.get("measures", {})
    name = words.name
    # The tic-tac-toe champions' exact analysis (Fogel's recipes, Blondie24 on tic-tac-toe): its columns only
    # where some variant's champions have it, not as empty columns in a study of another game.
    analysed = any(v["champions"] for v in result["variants"])
    lines = [f"# Study `{result['name']}` (base config `{result['base']}`, baseline: {result['baseline']})", "",
             f"Final mean max {name}: mean over trials of each trial's max {name} averaged over its last "
             f"{result['final_generations_averaged']} generations, with its 95% interval, on the recipe's common scale"
             + (" (Fogel: per 32 games, whatever the games played). Champions: each trial's champion analysed exactly "
                "against its evaluation opponent." if analysed else ".")
             + ("" if result.get("fitness_compared", True) else
                " The variants' recipes measure different things by it, so it is shown, not compared."), "",
             f"| variant | trials x gens | final mean max {words.with_unit} [95% CI] |"
             + (" champions' exact expected payoff (mean / median / best) | unbeatable as X | mean H |" if analysed else "")
             + " task time (s) |" + "".join(f" {label}: mean [95% CI] (sd) |" for label in measures.values())
             + (" worker CPU s a generation |" if costed else ""),
             "|---|---:|---:|" + "---:|" * (3 * analysed + 1 + len(measures) + costed)]
    for v in result["variants"]:
        c = v["champions"]
        exp = c.get("expected_payoff")
        unb = c.get("unbeatable_as_x")
        hid = c.get("hidden")
        lines.append(
            f"| {v['name']} | {v['trials']} x {v['generations']} | {_fmt_ci(v['final_mean_max'])} | "
            + ((f"{exp['mean']:.2f} / {exp['median']:.2f} / {exp['best']:.2f}" if exp else "-") + " | "
               + (f"{unb['count']} of {unb['of']}" if unb else "-") + " | "
               + (f"{hid['mean']:.1f}" if hid else "-") + " | " if analysed else "")
            + (f"{seconds[v['name']]:.1f}" if v["name"] in seconds else f"finished run {v['run']}" if "run" in v else "nan") + " |"
            + "".join(f" {_fmt_measure(v.get('measures', {}).get(k))} |" for k in measures)
            + ((f" {cost[v['name']]:.2f} |" if cost.get(v["name"]) is not None else " - |") if costed else ""))
    lines += ["", f"Each variant against the baseline ({result['test']}):", ""]
    for v in result["variants"]:
        for m, t in v.get("vs_baseline", {}).items():
            lines.append(f"- **{v['name']}**: {t['verdict']}; mean difference {t['mean_difference']:+.2f}, raw p = {t['p']:.3g}.")
    return "\n".join(lines) + "\n"


def plot_study(result: dict, curves: list[np.ndarray], out: Path, words: FitnessWords = FitnessWords()):
    """Mean max-fitness curves of all variants overlaid, with 95% bands; legend from variant names
    (``curves``: each variant's ``read_max_curves``)."""
    from evoplay.files.atomic import write_bytes
    from evoplay.framework.plotting import plt, render

    fig, ax = plt.subplots(figsize=(9, 5.5))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"] + ["#444444", "#bb8800", "#008888"]
    for k, (v, raw) in enumerate(zip(result["variants"], curves)):
        scaled = v["payoff_scale"] * raw
        mean, half = mean_band(scaled)
        gens = np.arange(1, scaled.shape[1] + 1)
        color = colors[k % len(colors)]
        style = "-" if v["name"] == result["baseline"] else "--" if k % 2 else "-."
        ax.plot(gens, mean, color=color, lw=2.2 if v["name"] == result["baseline"] else 1.4, ls=style,
                label=f"{v['name']} ({v['final_mean_max']['mean']:.1f})")
        ax.fill_between(gens, mean - half, mean + half, color=color, alpha=0.18, lw=0)
    ax.set_xlabel("generation")
    ax.set_ylabel(f"max {words.name} in the population (mean over trials" + (f"; {words.unit})" if words.unit else ")"))
    ax.set_title(f"{result['name']}: mean max {words.name} per variant, 95% bands (legend: final mean max)")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    for suffix in (".png", ".svg"):
        write_bytes(out.with_suffix(suffix), render(fig, suffix))
    plt.close(fig)
