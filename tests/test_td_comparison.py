"""The comparison of evolution and TDLeaf(lambda) at equal CPU on checkers, the 1999 setting, as
committed (docs/results/notes/td-leaf-1999.md): each arm's run made again for its first steps,
bit for bit, and the figures its page quotes read back from the files they come from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.runs import td_leaf_first_steps
from test_blondie24_archive import first_rows

from evoplay.framework import config as configs
from evoplay.framework.trial import TrialRun
from evoplay.recipes.blondie24.recipe import Blondie24Recipe

ROOT = Path(__file__).resolve().parents[1]
TD, ANCHOR = ROOT / "results" / "td-leaf-1999", ROOT / "results" / "blondie24-td-anchor"


def test_the_td_arm_is_its_config_and_reproduces_its_first_two_steps():
    """results/td-leaf-1999 (`evoplay evolve configs/td-leaf-1999.toml`): trial 0's first two
    generations' steps, made again with the yardstick cut to one ballot (training never sees
    it), are the logbook's to the last bit."""
    assert configs.load(TD / "config.toml") == configs.load(ROOT / "configs" / "td-leaf-1999.toml")
    made, committed = td_leaf_first_steps(TD)
    assert made == committed and committed[0] > 0


def test_the_anchor_arm_is_its_config_and_reproduces_its_first_generation():
    """results/blondie24-td-anchor (`evoplay evolve configs/blondie24-td-anchor.toml`): the config
    as written (its anchor file's path made absolute where the run was made: read as data, and
    pointed at this checkout's copy to play), and trial 0's first
    generation, with 2 of each network's 5 games against results/td-leaf-checkers-10, made again
    in this checkout: the logbook's first row, every column but the yardstick's, bit for bit."""
    from evoplay.games import reading_data

    with reading_data():  # a run's config is data: its anchor file, named where the run was made, is not opened
        cfg = configs.load(ANCHOR / "config.toml")
    anchor = ROOT / "results" / "td-leaf-checkers-10" / "champion.json"
    [stored] = cfg["evaluation"]["anchors"]
    assert Path(stored).parts[-3:] == anchor.parts[-3:]
    cfg["evaluation"]["anchors"] = [str(anchor)]
    shipped = configs.load(ROOT / "configs" / "blondie24-td-anchor.toml")
    shipped["evaluation"]["anchors"] = [str(anchor)]
    assert cfg == shipped
    cfg["yardstick"]["openings"] = 1
    [made] = TrialRun(Blondie24Recipe(cfg), 0).run(1).logbook
    mine = {k: float(v) for k, v in made.items() if not k.startswith("yard_")}
    assert [mine] == first_rows(ANCHOR, 0, 1) and len(mine) > 5


def test_every_arm_had_about_one_1999_trial_of_evolutions_worker_cpu():
    """The protocol: each trial about the 1,908 worker-CPU seconds of one trial of the published
    variant (within a sixth either way; the anchor arm's 92 s of TD training on top)."""
    published = json.loads((ROOT / "results" / "blondie24-choices" / "published" / "costs.json").read_text())
    budget = sum(t["cpu_seconds"] for t in published.values()) / len(published)
    for run in (TD, ANCHOR):
        for trial in json.loads((run / "costs.json").read_text()).values():
            assert abs(trial["cpu_seconds"] / budget - 1) < 1 / 6, (run.name, trial)


def test_the_committed_tic_tac_toe_run_is_made_again_bit_for_bit(tmp_path):
    """results/td-leaf-ttt (`evoplay evolve configs/td-leaf-ttt.toml`, 400 games): the whole
    run made again, both trials' logbooks and the champion are the committed bytes, and its
    exact analysis says what the page quotes (trial 0 unbeatable moving first)."""
    from support.runs import evoplay_process

    run = ROOT / "results" / "td-leaf-ttt"
    assert configs.load(run / "config.toml") == configs.load(ROOT / "configs" / "td-leaf-ttt.toml")
    evoplay_process("evolve", "configs/td-leaf-ttt.toml", "--out", tmp_path / "run", "--workers", 1, "-q")
    for name in ("trials/trial_00/logbook.csv", "trials/trial_01/logbook.csv", "champion.json"):
        assert (tmp_path / "run" / name).read_bytes() == (run / name).read_bytes(), name
    champions = json.loads((run / "analysis.json").read_text())["champions"]
    assert [c["unbeatable_as_x"] for c in champions] == [True, False]


def test_the_comparison_page_figures_are_the_scripts_output_from_the_committed_runs(tmp_path):
    """results/td-leaf-1999/comparison.json, which the page quotes (means, intervals, Holm-adjusted
    permutation tests, the league's winner), is what benchmarks/td_comparison.py makes from the three
    arms' committed files and league.json, byte for byte; the winner is the anchored runs' trial 1."""
    import subprocess
    import sys

    out = tmp_path / "comparison.json"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "td_comparison.py"), str(tmp_path / "c.png"),
                    "evolution=results/blondie24-choices/published", "TDLeaf=results/td-leaf-1999",
                    "evolution+TD=results/blondie24-td-anchor", "--json", str(out), "--league", "results/td-leaf-1999-study/league.json",
                    "--prefer", "TDLeaf,evolution+TD,evolution"], cwd=ROOT, check=True, capture_output=True)
    assert out.read_bytes() == (TD / "comparison.json").read_bytes()
    assert json.loads(out.read_text())["best"] == {"method": "evolution+TD", "trial": 1, "league": pytest.approx(0.1086, abs=1e-4)}


def test_a_moved_anchor_run_is_read_as_data_without_its_anchor_file(tmp_path):
    """A run whose config names its anchor by a path that is gone (the run copied to another
    machine) is still read as data: its config loads and its recipe is made (report, plot), and
    only playing against the anchor would open the file."""
    import shutil

    from evoplay.cli.runfiles import run_recipe
    from evoplay.errors import ConfigError

    run = tmp_path / "run"
    shutil.copytree(ANCHOR, run, ignore=shutil.ignore_patterns("checkpoints"))
    text = (run / "config.toml").read_text()
    [stored] = [line.strip().strip('",') for line in text.splitlines() if line.strip().startswith('"/')]
    (run / "config.toml").write_text(text.replace(stored, str(tmp_path / "gone" / "champion.json")))
    recipe = run_recipe(run)
    assert recipe.cfg["evaluation"]["anchors"] == [str(tmp_path / "gone" / "champion.json")]
    with pytest.raises(ConfigError, match="anchors': player file .*gone/champion.json"):
        recipe.anchors


STUDY = ROOT / "results" / "td-leaf-1999-study"


#: The study's measures (study.json's vs_baseline keys) by the comparison's figures (comparison.json's tests).
MEASURES = {"4": "champion_score", "6": "duel:piece-difference:depth=6", "league": "league"}


def remade_study(config: str, committed: Path, out: Path, evoplay_here) -> dict:
    """The study ``configs/CONFIG`` made again in ``out`` from the committed runs, then with the
    committed league copied in and --resume: its files are the committed bytes; study.json."""
    import shutil

    evoplay_here("study", ROOT / "configs" / config, "--out", out, "--workers", 1, "--quiet")
    shutil.copy(committed / "league.json", out / "league.json")
    evoplay_here("study", ROOT / "configs" / config, "--out", out, "--workers", 1, "--quiet", "--resume")
    for name in ("study.json", "study.md", "study.png", "study.svg"):
        assert (out / name).read_bytes() == (committed / name).read_bytes(), name
    return json.loads((committed / "study.json").read_text())


def assert_tests_are_the_comparisons(variant: dict, comparison: dict, method: str):
    """A study variant's permutation tests are the comparison script's for ``method``, to 1e-12."""
    assert set(variant["vs_baseline"]) == set(MEASURES.values())
    for figure, key in MEASURES.items():
        [row] = [r for r in comparison["tests"][figure] if r["method"] == method]
        got = variant["vs_baseline"][key]
        assert (got["p"], got["p_holm"]) == pytest.approx((row["p"], row["p_holm"]), abs=1e-12), (method, figure)
        assert got["mean_difference"] == pytest.approx(row["difference"], abs=1e-12)


def test_the_committed_study_is_what_its_study_file_writes_from_the_three_runs_and_the_league(tmp_path, ray_here, evoplay_here):
    """results/td-leaf-1999-study: configs/td-leaf-1999-study.toml over the three committed runs,
    then with the league copied into its folder and --resume, byte for byte; its permutation
    tests are those of the comparison (comparison.json), made by the study's own code."""
    result = remade_study("td-leaf-1999-study.toml", STUDY, tmp_path / "out", evoplay_here)
    comparison = json.loads((TD / "comparison.json").read_text())
    _, td, anchored = result["variants"]
    assert result["fitness_compared"] is False  # points in a pool and a TD run's strength are not one figure
    for variant, method in ((td, "TDLeaf"), (anchored, "evolution+TD")):
        assert_tests_are_the_comparisons(variant, comparison, method)


def test_a_study_of_recipes_that_name_their_fitness_differently_tests_only_their_common_measures():
    """Blondie24's fitness (points in its pool) and a TDLeaf run's strength are shown side by side
    but not tested against each other (the study once called TDLeaf 'lower' by a large effect);
    the champions' scores against piece difference, which both recipes report alike, are tested."""
    from evoplay.framework.study import load_study
    from evoplay.framework.study_report import fitness_compared, trial_measures

    study = load_study(ROOT / "configs" / "td-leaf-1999-study.toml")
    assert not fitness_compared(study)
    assert trial_measures(study) == {"champion_score": "champion's score against piece difference at depth 4"}
    same = {**study, "variants": [study["variants"][0], study["variants"][2]]}  # two Blondie24 runs
    assert fitness_compared(same)


def test_a_study_variant_of_a_moved_anchor_run_loads_without_its_anchor_file(tmp_path):
    """A study variant that takes a finished run opens none of its config's player files: a
    copied anchored run whose anchor file is gone still loads (and is checked by its digest)."""
    import shutil

    from evoplay.framework.study import load_study

    run = tmp_path / "run"
    shutil.copytree(ANCHOR, run, ignore=shutil.ignore_patterns("checkpoints"))
    text = (run / "config.toml").read_text()
    [stored] = [line.strip().strip('",') for line in text.splitlines() if line.strip().startswith('"/')]
    (run / "config.toml").write_text(text.replace(stored, str(tmp_path / "gone" / "champion.json")))
    (tmp_path / "study.toml").write_text(f'name = "moved"\nbase = "{ROOT / "configs" / "blondie24.toml"}"\n\n[[variants]]\n'
                                         'name = "blondie24-td-anchor"\nconfig = "run/config.toml"\nrun = "run"\n')
    [variant] = load_study(tmp_path / "study.toml")["variants"]
    assert variant["run_dir"] == run and variant["config"]["evaluation"]["anchors"] == [str(tmp_path / "gone" / "champion.json")]


TD2001, PICK2001 = ROOT / "results" / "td-leaf-2001", ROOT / "results" / "blondie24-2001-choices" / "opponent-scores"
STUDY2001 = ROOT / "results" / "td-leaf-2001-study"


def test_the_2001_td_arm_is_its_config_and_reproduces_its_first_step():
    """results/td-leaf-2001 (`evoplay evolve configs/td-leaf-2001.toml`, resumed across sessions):
    trial 0's first generation's step, made again (the yardstick cut to one ballot), is the
    logbook's to the last bit."""
    assert configs.load(TD2001 / "config.toml") == configs.load(ROOT / "configs" / "td-leaf-2001.toml")
    made, committed = td_leaf_first_steps(TD2001, steps=1)
    assert made == committed and committed[0] > 0


def test_every_2001_td_trial_had_about_one_2001_trial_of_evolutions_worker_cpu():
    """The protocol: each TDLeaf trial about the worker CPU of one trial of the 2001 pick
    (14,820 and 15,814 s), within a sixth either way."""
    pick = json.loads((PICK2001 / "costs.json").read_text())
    budget = sum(t["cpu_seconds"] for t in pick.values()) / len(pick)
    trials = json.loads((TD2001 / "costs.json").read_text())
    assert len(trials) == 2 and all(t["generations"] == 740 for t in trials.values())
    for trial in trials.values():
        assert abs(trial["cpu_seconds"] / budget - 1) < 1 / 6, trial


def test_the_2001_comparison_figures_are_the_scripts_output_from_the_committed_runs(tmp_path):
    """results/td-leaf-2001/comparison.json, which the page quotes, is what
    benchmarks/td_comparison.py makes from the two arms' committed files and the league of the
    setting's seven players, byte for byte; the best player is the whole league's winner, and
    every player's league score is its mean over the rows that name it."""
    import subprocess
    import sys

    out = tmp_path / "comparison.json"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "td_comparison.py"), str(tmp_path / "c.png"),
                    "evolution=results/blondie24-2001-choices/opponent-scores", "TDLeaf=results/td-leaf-2001",
                    "--json", str(out), "--league", "results/td-leaf-2001-study/league.json", "--whole-league",
                    "--title", "Checkers, the 2001 network: evolution and TDLeaf(λ) at equal CPU"],
                   cwd=ROOT, check=True, capture_output=True)
    assert out.read_bytes() == (TD2001 / "comparison.json").read_bytes()
    doc = json.loads(out.read_text())
    league = json.loads((STUDY2001 / "league.json").read_text())
    assert [row["player"] for row in doc["league"]] == league["players"] and len(league["players"]) == 7
    for row in doc["league"]:
        margins = [(r["x_win"] - r["o_win"]) * (1 if r["x"] == row["player"] else -1) for r in league["rows"]
                   if row["player"] in (r["x"], r["o"]) and r["x"] != r["o"]]
        assert len(margins) == 12 and row["league"] == pytest.approx(sum(margins) / 12, abs=1e-12)
    assert doc["best"]["league"] == max(row["league"] for row in doc["league"])


def test_the_2001_study_is_what_its_study_file_writes_from_the_two_runs_and_the_league(tmp_path, ray_here, evoplay_here):
    """results/td-leaf-2001-study: configs/td-leaf-2001-study.toml over the two committed runs,
    then with the league copied in and --resume, byte for byte; its tests are the comparison's."""
    result = remade_study("td-leaf-2001-study.toml", STUDY2001, tmp_path / "out", evoplay_here)
    _, td = result["variants"]
    assert_tests_are_the_comparisons(td, json.loads((TD2001 / "comparison.json").read_text()), "TDLeaf")
