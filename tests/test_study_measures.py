"""A study compares what the recipe names per trial (``Recipe.trial_measures``): Blondie24's
champions against piece difference, a fact the training points of variants with other
scoring cannot give; and, once ``evoplay report --depths`` has written them into every
variant's run, the champions' deeper duels (``Recipe.reported_measures``). It shows each
variant's worker CPU seconds a generation, from the run directories' ``costs.json`` (kept
across resumes)."""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]

STUDY = """
name = "tiny-choices"
base = "{tiny}"
baseline = "published"
trials = 3
generations = 2

[[variants]]
name = "published"

[[variants]]
name = "opponent scores"
evaluation.opponent_scores = true
"""


@pytest.fixture(scope="module")
def study(tmp_path_factory, ray_here, evoplay_here):
    """The tiny study, run in this process on the module's Ray session (two CPUs)."""
    d = tmp_path_factory.mktemp("measures")
    (d / "s.toml").write_text(STUDY.format(tiny=ROOT / "configs" / "blondie24-tiny.toml"))
    evoplay_here("study", d / "s.toml", "--out", d / "out", "--quiet")
    return d / "out"


def test_the_champions_scores_against_piece_difference_are_compared_per_trial(study):
    result = json.loads((study / "study.json").read_text())
    assert result["measures"] == {"champion_score": "champion's score against piece difference at depth 1"}
    for v in result["variants"]:
        rows = json.loads((study / v["dir"] / "summary.json").read_text())["per_trial"]
        scores = [r["champion_score"] for r in rows]
        m = v["measures"]["champion_score"]
        assert m["per_trial"] == scores and len(scores) == 3
        assert m["mean"] == pytest.approx(np.mean(scores)) and m["sd"] == pytest.approx(np.std(scores, ddof=1))
        assert m["ci95"][0] <= m["mean"] <= m["ci95"][1]
    test = result["variants"][1]["vs_baseline"]["champion_score"]
    assert 0 < test["p"] <= test["p_holm"] <= 1 and "champion's score against piece difference" in test["verdict"]
    md = (study / "study.md").read_text()
    assert "champion's score against piece difference at depth 1: mean [95% CI] (sd) |" in md
    assert "**opponent scores**: " in md and md.count("champion's score against piece difference") >= 2
    # a checkers study shows no empty columns of the tic-tac-toe champions' exact analysis, nor its words
    header = md.splitlines()[4]
    assert header.startswith("| variant | trials x gens | final mean max fitness [95% CI] | task time (s) | champion's")
    assert all(words not in md for words in ("exact expected payoff", "unbeatable as X", "mean H", "Fogel", "analysed exactly"))
    assert {line.count("|") for line in md.splitlines()[4:8]} == {header.count("|")}  # header, rule and rows agree


def test_duels_and_a_league_written_after_the_runs_are_compared_once_the_finished_study_is_resumed(study, tmp_path, ray_here, evoplay_here):
    """`evoplay report VARIANT --depths ...` writes each champion's duels into its run
    (Recipe.reported_measures), and `evoplay tournament CHAMPIONS... --json > STUDY/league.json`
    a league of them; `--resume` then compares both per trial like the champion's score."""
    from evoplay.framework.study_report import read_league, reported_measures

    out, spec = tmp_path / "out", study.parent / "s.toml"
    shutil.copytree(study, out)
    kept = {f: (out / f).read_bytes() for f in ("published/summary.json", "opponent-scores/trials/trial_02/logbook.csv")}
    evoplay_here("report", out / "published", "--depths", "1,2")
    evoplay_here("report", out / "opponent-scores", "--depths", "2")
    import ray

    assert ray.get_runtime_context().gcs_address == ray_here["address"]  # the module's session, still open
    champions = sorted(str(p) for p in out.glob("*/trials/trial_*/champion.json"))
    assert len(champions) == 6
    league = evoplay_here("tournament", *champions, "--games", "2", "--json").stdout
    (out / "league.json").write_text(league)
    evoplay_here("study", spec, "--out", out, "--resume", "--quiet")
    result = json.loads((out / "study.json").read_text())
    # Depth 2 is in both variants' duels, depth 1 only in one.
    assert result["measures"] == {
        "champion_score": "champion's score against piece difference at depth 1",
        "duel:piece-difference:depth=2": "champion's score against piece difference at depth 2 (searching 2 itself)",
        "league": "champion's mean score in the league of the study's champions (league.json)"}
    rows = json.loads(league)["rows"]
    for v in result["variants"]:
        duels = json.loads((out / v["dir"] / "duels.json").read_text())
        scores = [next(r["score"] for r in t["duels"] if r["opponent"] == "piece-difference:depth=2") for t in duels["trials"]]
        assert len(scores) == 3 and v["measures"]["duel:piece-difference:depth=2"]["per_trial"] == scores
        assert v["measures"]["duel:piece-difference:depth=2"]["mean"] == pytest.approx(np.mean(scores))
        # Each champion meets the 5 others from both seats: its mean margin over those 10 pairings.
        for t, got in enumerate(v["measures"]["league"]["per_trial"]):
            me = str(out / v["dir"] / "trials" / f"trial_{t:02d}" / "champion.json")
            margins = [r["x_win"] - r["o_win"] for r in rows if r["x"] == me and r["o"] != me] + \
                      [r["o_win"] - r["x_win"] for r in rows if r["o"] == me and r["x"] != me]
            assert len(margins) == 10 and got == pytest.approx(np.mean(margins))
    # Every game's win is another's loss: the champions' league scores sum to zero.
    assert sum(sum(v["measures"]["league"]["per_trial"]) for v in result["variants"]) == pytest.approx(0, abs=1e-12)
    for m in ("duel:piece-difference:depth=2", "league"):
        test = result["variants"][1]["vs_baseline"][m]
        assert 0 < test["p"] <= test["p_holm"] <= 1
    assert "at depth 2 (searching 2 itself)" in result["variants"][1]["vs_baseline"]["duel:piece-difference:depth=2"]["verdict"]
    assert "champion's score against piece difference at depth 2 (searching 2 itself): mean [95% CI] (sd) |" in (out / "study.md").read_text()
    assert {f: (out / f).read_bytes() for f in kept} == kept
    # A measure one variant lacks, or a league that misses a champion, is not compared.
    runs = [v["dir"] for v in result["variants"]]
    from evoplay.recipes.blondie24.duels import measures

    assert set(reported_measures([measures(out / d) for d in runs], [3, 3])) == {"duel:piece-difference:depth=2"}
    assert read_league(out, runs, [3, 3]) == [v["measures"]["league"]["per_trial"] for v in result["variants"]]
    last = str(out / "published" / "trials" / "trial_02" / "champion.json")
    (out / "league.json").write_text(json.dumps({**json.loads(league), "rows": [r for r in rows if last not in (r["x"], r["o"])]}))
    assert read_league(out, runs, [3, 3]) is None and read_league(out, runs, [2, 3]) is not None
    # A damaged duels.json or league is refused in one line, before the trials' ends are replayed.
    env = (out / "opponent-scores" / "environment.json").read_bytes()  # (a replayed run's names its Ray session)
    for damaged, text in ((out / "league.json", '{"rows": [{"x": "a", "o": "b", "x_win": "all"}]}'),
                          (out / "published" / "duels.json", '{"run": "x", "trials": [{"trial": 0, "duels": [{"score": "high"}]}]}')):
        damaged.write_text(text)
        refused = evoplay_here("study", spec, "--out", out, "--resume", "--quiet", check=False)
        assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr
        assert f"{damaged} is damaged" in refused.stderr
    assert (out / "opponent-scores" / "environment.json").read_bytes() == env
    # The study replaced (--overwrite) goes with its league: it would be the new champions' otherwise.
    (out / "league.json").write_text(league)
    evoplay_here("study", spec, "--out", out, "--overwrite", "--quiet")
    assert not (out / "league.json").exists() and "league" not in json.loads((out / "study.json").read_text())["measures"]


def test_a_run_overwritten_leaves_no_report_of_the_earlier_run(study, tmp_path, ray_here, evoplay_here):
    """The earlier run's duels and league (Recipe.report_files) would be read as the new run's:
    by `report` and by a study's comparison (a study's --overwrite replaces its variants so)."""
    run, cfg = tmp_path / "run", tmp_path / "tiny.toml"
    shutil.copytree(study / "published", run)
    shutil.copy(run / "config.toml", cfg)
    evoplay_here("report", run, "--depths", "1", "--league", "1")
    (run / "notes.txt").write_text("mine")
    written = ("duels.json", "league.json", "league-champions")
    assert all((run / name).exists() for name in written)
    evoplay_here("evolve", cfg, "--out", run, "--overwrite", "--seed", "99", "--quiet")
    assert not any((run / name).exists() for name in written) and (run / "notes.txt").read_text() == "mine"


def test_each_variant_shows_its_worker_cpu_seconds_a_generation(study):
    env = json.loads((study / "study-environment.json").read_text())
    cost = env["cpu_seconds_per_generation"]
    assert set(cost) == {"published", "opponent scores"} and all(c > 0 for c in cost.values())
    for name, folder in (("published", "published"), ("opponent scores", "opponent-scores")):
        rows = json.loads((study / folder / "costs.json").read_text())
        assert {t: r["generations"] for t, r in rows.items()} == {"trial_00": 2, "trial_01": 2, "trial_02": 2}
        assert cost[name] == pytest.approx(sum(r["cpu_seconds"] for r in rows.values()) / 6, abs=1e-3)
    md = (study / "study.md").read_text()
    assert "| worker CPU s a generation |" in md.splitlines()[4]
    assert md.splitlines()[6].endswith(f" {cost['published']:.2f} |")


def test_a_recipe_without_measures_leaves_the_study_as_it_was():
    from evoplay.framework.study_report import markdown, trial_measures

    study = {"variants": [{"config": {"": {"recipe": "fogel"}}}]}
    from evoplay.framework import config as configs

    study["variants"][0]["config"] = configs.resolve({"trials": 1, "generations": 1})
    assert trial_measures(study) == {}
    result = {"name": "s", "base": "b.toml", "baseline": "x", "test": "t", "final_generations_averaged": 10,
              "variants": [{"name": "x", "trials": 1, "generations": 1, "final_mean_max": {"mean": 1.0, "ci95": [1.0, 1.0]},
                            "champions": {}}]}
    md = markdown(result, {"task_seconds": {"x": 2.0}, "cpu_seconds_per_generation": {"x": None}})
    assert md.splitlines()[4].endswith("| task time (s) |") and md.splitlines()[6].endswith("| 2.0 |")
