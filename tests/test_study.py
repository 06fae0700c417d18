"""Studies: variants of a recipe in one Ray task pool, resumable, compared with statistics.

A small study (3 variants x 3 trials x 20 generations) gives byte-identical study.json and
run directories with 1 and 2 workers, through a 2-node cluster, and after a SIGKILL of
the driver plus --resume; the statistics are checked against hand-computed cases; bad
study files exit 2 with one line naming the problem.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from evoplay.framework.stats import cliffs_delta, holm, mean_ci, permutation_test

from support.runs import ENV, MACHINE_FILES, tree
from support.runs import evoplay_process as evoplay

ROOT = Path(__file__).resolve().parents[1]
SKIP = MACHINE_FILES | {"study-environment.json", "study.md"}  # timings and hosts

STUDY = f"""name = "small"
base = "{ROOT / 'configs' / 'quick.toml'}"
baseline = "paper"
trials = 3
generations = 20

[[variants]]
name = "paper"

[[variants]]
name = "no architecture mutation"
mutation.p_arch = 0.0

[grid]
"evaluation.games" = [8]
"""


@pytest.fixture(scope="module")
def study_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("study") / "small.toml"
    path.write_text(STUDY)
    return path


@pytest.fixture(scope="module")
def two(study_file, tmp_path_factory, ray_here, evoplay_here):
    """The small study on 2 workers: this module's Ray session, in this process."""
    assert ray_here["cpus"] == 2
    out = tmp_path_factory.mktemp("two") / "study"
    evoplay_here("study", study_file, "--out", out, "--workers", 2, "--quiet")
    return out


def test_study_compares_every_variant_with_the_baseline(two, evoplay_here):
    result = json.loads((two / "study.json").read_text())
    names = [v["name"] for v in result["variants"]]
    assert names == ["paper", "no architecture mutation", "games = 8"]
    for v in result["variants"]:
        assert v["trials"] == 3 and v["generations"] == 20 and len(v["final_mean_max"]["per_trial"]) == 3
        lo, hi = v["final_mean_max"]["ci95"]
        assert lo <= v["final_mean_max"]["mean"] <= hi
        assert v["champions"]["unbeatable_as_x"]["of"] == 3
        assert (two / v["dir"] / "summary.json").is_file(), "each variant is an ordinary run directory"
    games8 = result["variants"][2]
    assert games8["overrides"] == {"evaluation.games": 8}
    # Payoffs of 8 games are put on the 32-game scale before variants are compared.
    assert games8["payoff_scale"] == 4.0 and result["variants"][0]["payoff_scale"] == 1.0
    last = [np.mean([float(r.split(",")[1]) for r in (two / "games-8" / f"trials/trial_{t:02d}/logbook.csv").read_text()
                     .splitlines()[1:]][-10:]) for t in range(3)]
    assert games8["final_mean_max"]["per_trial"] == pytest.approx([4 * x for x in last])
    assert "games = 8" in (two / "games-8" / "config.toml").read_text().replace("games = 8", "games = 8")
    for m in ("final_mean_max", "champion_expected_payoff"):
        t = games8["vs_baseline"][m]
        assert 0 < t["p"] <= t["p_holm"] <= 1 and -1 <= t["cliffs_delta"] <= 1 and t["verdict"]
    md = (two / "study.md").read_text()
    assert "| no architecture mutation | 3 x 20 |" in md and "Holm" in md
    assert (two / "study.png").stat().st_size > 10_000 and (two / "study.svg").read_text().startswith("<?xml")
    # Each variant's run directory works with the ordinary commands.
    evoplay_here("export", two / "paper", "--out", two.parent / "champ.json")
    evoplay_here("plot", two / "paper", two / "games-8", "--out", two.parent / "both.png")


def test_study_is_the_same_with_one_worker(study_file, two, tmp_path):
    evoplay("study", study_file, "--out", tmp_path / "one", "--workers", 1, "--quiet")
    assert tree(tmp_path / "one", SKIP) == tree(two, SKIP)


def test_a_sigkilled_study_resumes_to_the_same_bytes(study_file, two, tmp_path, evoplay_here):
    out = tmp_path / "killed"
    proc = subprocess.Popen([sys.executable, "-m", "evoplay", "study", str(study_file), "--out", str(out), "--workers", "2",
                             "--quiet"], cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    deadline = time.time() + 120
    while time.time() < deadline and not list(out.glob("*/checkpoints/trial_*.json")):
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not (out / "study.json").exists(), "killed part-way"
    refused = evoplay_here("study", study_file, "--out", out, check=False)
    assert refused.returncode == 2 and "--resume" in refused.stderr
    evoplay_here("study", study_file, "--out", out, "--resume", "--quiet")
    assert tree(out, SKIP) == tree(two, SKIP)
    # The task time is the study's over both launches (costs.json), not the resumed launch's alone.
    env = json.loads((out / "study-environment.json").read_text())
    for v in json.loads((out / "study.json").read_text())["variants"]:
        costs = json.loads((out / v["dir"] / "costs.json").read_text())
        assert sum(c["generations"] for c in costs.values()) == 3 * 20
        assert env["task_seconds"][v["name"]] == pytest.approx(sum(c["seconds"] for c in costs.values()), abs=1e-9)


@pytest.mark.cluster
def test_a_study_on_the_two_node_cluster_gives_the_same_bytes(study_file, two, tmp_path):
    import raycluster

    with raycluster.local_cluster(nodes=2, cpus_per_node=1) as cluster:
        out = evoplay("study", study_file, "--out", tmp_path / "cluster", "--address", cluster.address, "--quiet",
                      env=cluster.env)
    assert out.returncode == 0
    env = json.loads((tmp_path / "cluster" / "study-environment.json").read_text())
    assert len(env["ray"]["nodes"]) == 2
    assert tree(tmp_path / "cluster", SKIP) == tree(two, SKIP)


# ---------------------------------------------------------------- statistics by hand


def test_permutation_test_exact_by_hand():
    # Of the 20 ways to split {1..6} in two threes, only {1,2,3}|{4,5,6} and its mirror
    # have a difference of means as large as 3: p = 2/20.
    assert permutation_test([1, 2, 3], [4, 5, 6], np.random.default_rng(0)) == pytest.approx(0.1)
    # {1,2,4} vs {3,5,6}: |7/3 - 14/3| = 7/3; splits at least that far apart: sums 6 and 7
    # on either side, i.e. {1,2,3}, {1,2,4} and their complements: 4 of 20.
    assert permutation_test([1, 2, 4], [3, 5, 6], np.random.default_rng(0)) == pytest.approx(0.2)
    assert permutation_test([1, 1, 1], [1, 1, 1], np.random.default_rng(0)) == 1.0


def test_permutation_test_sampled_agrees_with_the_exact_one():
    x, y = [0.1, 0.5, 0.9, 1.3, 2.0, 0.7, 0.4], [1.1, 1.9, 2.2, 0.8, 2.5, 1.6, 2.9]  # 3,432 splits
    exact = permutation_test(x, y, np.random.default_rng(0))
    sampled = permutation_test(x, y, np.random.default_rng(1), rounds=50_000, exact_limit=0)
    assert abs(sampled - exact) < 4 * np.sqrt(exact * (1 - exact) / 50_000) + 1e-4


def test_holm_cliffs_delta_and_interval_by_hand():
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.2]) == pytest.approx([0.5, 0.4])
    assert cliffs_delta([1, 2, 3], [0, 0, 0]) == 1.0 and cliffs_delta([1, 2, 3], [2, 2, 2]) == 0.0
    assert cliffs_delta([1, 3], [2, 2]) == 0.0 and cliffs_delta([3], [1, 2, 3]) == pytest.approx(2 / 3)
    m, lo, hi = mean_ci([1.0, 2.0, 3.0])  # sd 1, t(2) = 4.303: 2 +/- 4.303 / sqrt(3)
    assert (m, lo, hi) == pytest.approx((2.0, 2 - 4.303 / 3**0.5, 2 + 4.303 / 3**0.5))


# ---------------------------------------------------------------- bad study files


@pytest.mark.parametrize("text, words", [
    ("colour = 1\n" + STUDY, ["unknown study key 'colour'"]),
    (STUDY + "colour = 1\n", ["grid key 'colour'"]),
    (STUDY.replace("mutation.p_arch = 0.0", "mutation.p_arc = 0.0"), ["no architecture mutation", "mutation.p_arc"]),
    (STUDY.replace('"evaluation.games" = [8]', '"evaluation.games" = []'), ["grid key 'evaluation.games' has no values"]),
    (STUDY.replace('baseline = "paper"', 'baseline = "nope"'), ["baseline", "nope"]),
    (STUDY.replace("base = ", "bass = "), ["unknown study key 'bass'"]),
])
def test_bad_study_files_exit_2_naming_the_problem(tmp_path, text, words, evoplay_here):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    out = evoplay_here("study", path, "--out", tmp_path / "out", check=False)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    line, = out.stderr.strip().splitlines()
    for w in words:
        assert w in line, (w, line)
    assert not (tmp_path / "out").exists()


# ---------------------------------------------------------------- variants naming a whole config


DIVERSITY = f"""name = "diversity-tiny"
base = "{ROOT / 'configs' / 'fogel-exact-sa-h30.toml'}"
baseline = "fogel-exact-sa-h30"
trials = 2

[[variants]]
name = "fogel-exact-sa-h30"
generations = 2

[[variants]]
name = "diversity"
config = "{ROOT / 'configs' / 'diversity.toml'}"
generations = 4
"""


@pytest.fixture(scope="module")
def tiny_diversity(tmp_path_factory, ray_here, evoplay_here):
    """configs/diversity-study.toml at a tiny size: 2 x (50 + 50) = 4 x 50 exact evaluations per trial."""
    tmp_path = tmp_path_factory.mktemp("diversity")
    path = tmp_path / "tiny.toml"
    path.write_text(DIVERSITY)
    evoplay_here("study", path, "--out", tmp_path / "out", "--workers", 2, "--quiet")
    return tmp_path


def test_a_variant_naming_a_config_of_another_recipe_is_compared_on_the_same_budget(tiny_diversity):
    tmp_path = tiny_diversity
    result = json.loads((tmp_path / "out" / "study.json").read_text())
    base, div = result["variants"]
    assert (base["name"], div["name"]) == ("fogel-exact-sa-h30", "diversity")
    assert "config" not in base and div["config"] == str(ROOT / "configs" / "diversity.toml")
    assert (base["generations"], div["generations"], base["trials"], div["trials"]) == (2, 4, 2, 2)
    stored = {v: (tmp_path / "out" / v / "config.toml").read_text() for v in ("fogel-exact-sa-h30", "diversity")}
    assert 'recipe = "fogel-selfadaptive"' in stored["fogel-exact-sa-h30"] and "[archive]" not in stored["fogel-exact-sa-h30"]
    assert 'recipe = "map-elites"' in stored["diversity"] and "capacity = 12" in stored["diversity"]
    div_summary = json.loads((tmp_path / "out" / "diversity" / "summary.json").read_text())
    sa_summary = json.loads((tmp_path / "out" / "fogel-exact-sa-h30" / "summary.json").read_text())
    assert div_summary["exact_evaluations"] == 2 * 4 * 50  # the budget of fogel-exact-sa-h30 at 2 generations
    assert "exact_evaluations" not in sa_summary or sa_summary["exact_evaluations"] == 2 * 2 * 100
    assert set(div["vs_baseline"]) == {"final_mean_max", "champion_expected_payoff"}
    assert all("baseline" in t["verdict"] or "no detectable difference" in t["verdict"] for t in div["vs_baseline"].values())
    assert div["champions"]["unbeatable_as_x"]["of"] == base["champions"]["unbeatable_as_x"]["of"] == 2


def test_the_diversity_study_file_gives_each_variant_its_committed_runs_config():
    from evoplay.framework import config as configs
    from evoplay.framework.rundir import digest
    from evoplay.framework.study import load_study

    study = load_study(ROOT / "configs" / "diversity-study.toml")
    for v in study["variants"]:
        assert digest(v["config"]) == digest(configs.load(ROOT / "results" / v["dir"] / "config.toml")), v["name"]


def test_existing_study_files_resolve_as_their_committed_studies_did(study="ablation.toml", committed="ablation"):
    """Each variant of a committed study: the same folder, overrides and config digest as committed; no 'config' key."""
    from evoplay.framework import config as configs
    from evoplay.framework.rundir import digest
    from evoplay.framework.study import load_study

    result = json.loads((ROOT / "results" / committed / "study.json").read_text())
    loaded = load_study(ROOT / "configs" / study)
    assert [(v["name"], v["dir"], v["overrides"]) for v in loaded["variants"]] == \
           [(v["name"], v["dir"], v["overrides"]) for v in result["variants"]]
    assert all("config_file" not in v and "config" not in w for v, w in zip(loaded["variants"], result["variants"]))
    for v in loaded["variants"]:
        assert digest(v["config"]) == digest(configs.load(ROOT / "results" / committed / v["dir"] / "config.toml")), v["name"]


CONFIGURED = STUDY.replace('name = "no architecture mutation"', f'name = "no architecture mutation"\nconfig = "{ROOT / "configs" / "diversity.toml"}"')


@pytest.mark.parametrize("text, words", [
    (STUDY.replace("mutation.p_arch = 0.0", "config = 3"), ["study variant 'no architecture mutation'", "'config' must name a config file, got 3"]),
    (STUDY.replace("mutation.p_arch = 0.0", 'config = ""'), ["'config' must name a config file"]),
    (STUDY.replace("mutation.p_arch = 0.0", "config.x = 1"), ["'config' must name a config file"]),
    (STUDY.replace("mutation.p_arch = 0.0", 'config = "nowhere.toml"'), ["study variant 'no architecture mutation'", "config file not found"]),
    (CONFIGURED.replace("mutation.p_arch = 0.0", "population.parents = 5"), ["study variant 'no architecture mutation'", "parents"]),
    (CONFIGURED.replace("mutation.p_arch = 0.0", "archive.capacity = 0"), ["study variant 'no architecture mutation'", "archive.capacity"]),
])
def test_bad_variant_configs_exit_2_naming_the_problem(tmp_path, text, words, evoplay_here):
    test_bad_study_files_exit_2_naming_the_problem(tmp_path, text, words, evoplay_here)


def test_a_variant_takes_a_finished_run_of_its_config_as_its_trials_without_running_it(tiny_diversity, tmp_path, evoplay_here):
    made = tiny_diversity / "out" / "diversity"
    before = tree(made, SKIP)
    path = tmp_path / "reuse.toml"
    path.write_text(DIVERSITY.replace('generations = 4\n', f'generations = 4\nrun = "{made}"\n'))
    evoplay_here("study", path, "--out", tmp_path / "out", "--workers", 2, "--quiet")
    assert tree(made, SKIP) == before  # read, never written
    assert not (tmp_path / "out" / "diversity").exists() and (tmp_path / "out" / "fogel-exact-sa-h30" / "summary.json").is_file()
    again = json.loads((tmp_path / "out" / "study.json").read_text())
    first = json.loads((tiny_diversity / "out" / "study.json").read_text())
    assert again["variants"][1].pop("run") == str(made)
    assert again == first  # the same statistics and verdicts as when the study ran the trials itself
    assert f"finished run {made}" in (tmp_path / "out" / "study.md").read_text()


@pytest.mark.parametrize("change, words", [
    (lambda made, t: ("generations = 4\n", f'generations = 3\nrun = "{made}"\n'), ["another config than the variant's (keys: generations)"]),
    (lambda made, t: ("generations = 4\n", f'generations = 4\nrun = "{t}"\n'), ["is no run directory (no config.toml)"]),
    (lambda made, t: ("generations = 4\n", "generations = 4\nrun = 5\n"), ["'run' must name a finished run directory, got 5"]),
    (lambda made, t: ("generations = 2\n", f'generations = 2\nrun = "{made}"\n'), ["another config than the variant's", "recipe"]),
])
def test_a_finished_run_of_another_config_is_refused_with_one_line(tiny_diversity, tmp_path, change, words, evoplay_here):
    old, new = change(tiny_diversity / "out" / "diversity", tmp_path)
    text = DIVERSITY.replace(old, new)
    assert text != DIVERSITY
    test_bad_study_files_exit_2_naming_the_problem(tmp_path, text, ["study variant"] + words, evoplay_here)


def test_an_unfinished_run_is_refused_with_one_line(tiny_diversity, tmp_path, evoplay_here):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(tiny_diversity / "out" / "diversity", copy)
    (copy / "summary.json").unlink()
    text = DIVERSITY.replace("generations = 4\n", f'generations = 4\nrun = "{copy}"\n')
    test_bad_study_files_exit_2_naming_the_problem(tmp_path, text, ["study variant 'diversity'", "not a finished run directory"], evoplay_here)


def test_the_committed_diversity_study_is_what_its_study_file_writes_from_the_committed_runs(tmp_path, ray_here, evoplay_here):
    """results/diversity-study: configs/diversity-study-committed.toml over results/fogel-exact-sa-h30 and results/diversity."""
    evoplay_here("study", ROOT / "configs" / "diversity-study-committed.toml", "--out", tmp_path / "out", "--workers", 2, "--quiet")
    for name in ("study.json", "study.md", "study.png", "study.svg"):
        assert (tmp_path / "out" / name).read_bytes() == (ROOT / "results" / "diversity-study" / name).read_bytes(), name
    result = json.loads((ROOT / "results" / "diversity-study" / "study.json").read_text())
    base, div = result["variants"]
    assert (base["run"], div["run"], div["config"]) == ("../results/fogel-exact-sa-h30", "../results/diversity", "diversity.toml")
    analysis = json.loads((ROOT / "results" / "diversity" / "analysis.json").read_text())
    for v, run in ((base, "fogel-exact-sa-h30"), (div, "diversity")):  # the champions as `evoplay report` analysed them
        rows = json.loads((ROOT / "results" / run / "analysis.json").read_text())["champions"]
        assert v["champions"]["expected_payoff"]["mean"] == pytest.approx(np.mean([r["expected_payoff_32_vs_logic"] for r in rows]), rel=1e-12)
        assert v["champions"]["unbeatable_as_x"]["count"] == sum(r["unbeatable_as_x"] for r in rows)


def test_the_blondie24_depth_study_runs_unchanged_and_its_variants_are_the_committed_depth_runs(tmp_path, ray_here, evoplay_here):
    """configs/blondie24-ttt-depths.toml: search depth 1, 2 and 3 of Blondie24 on tic-tac-toe through `evoplay study`;
    each variant's config is the committed 20-trial run's of that depth (its name aside)."""
    from evoplay.framework import config as configs
    from evoplay.framework.config import differences
    from evoplay.framework.study import load_study

    study = load_study(ROOT / "configs" / "blondie24-ttt-depths.toml")
    for v, run in zip(study["variants"], ("blondie24-ttt-d1", "blondie24-ttt-d2", "blondie24-ttt-d3"), strict=True):
        assert set(differences(v["config"], configs.load(ROOT / "results" / run / "config.toml"))) <= {"name"}, v["name"]
    out = tmp_path / "depths"
    evoplay_here("study", ROOT / "configs" / "blondie24-ttt-depths.toml", "--out", out, "--trials", "2", "--generations", "2",
            "--workers", "2", "--quiet")
    result = json.loads((out / "study.json").read_text())
    assert [v["name"] for v in result["variants"]] == ["depth 1", "depth 2", "depth 3"] and result["baseline"] == "depth 2"
    for v, depth in zip(result["variants"], (1, 2, 3)):
        assert configs.load(out / v["dir"] / "config.toml")["game"]["depth"] == depth
        assert v["trials"] == 2 and v["champions"]["unbeatable_as_x"]["of"] == 2


USER_TINY = f"""recipe = "blondie24"
name = "mine"
seed = 3
trials = 1
generations = 2

[game]
name = "{ROOT / 'examples' / 'games' / 'connect_four.py'}:ConnectFour"
depth = 1
max_plies = 60

[network]
hidden = [2]

[population]
parents = 2

[evaluation]
games = 1
random_plies = 1

[yardstick]
every = 2
openings = 1
mcts_sims = 3
"""


def test_a_study_variant_takes_a_finished_run_of_a_users_game_the_base_does_not_name(tmp_path, ray_here, evoplay_here):
    """A variant that takes a finished run opens none of its config's anchor files, and its
    game is resolved as a config's game always is: a run of a user's game loads though the
    study's base plays tic-tac-toe (reading it as a run's stored config, which refuses user
    code not named by --game, would refuse it: `evoplay study` has no --game)."""
    from evoplay.framework.study import load_study

    (tmp_path / "mine.toml").write_text(USER_TINY)
    evoplay_here("evolve", tmp_path / "mine.toml", "--out", tmp_path / "mine", "--workers", 1, "--quiet")
    (tmp_path / "study.toml").write_text(f'name = "s"\nbase = "{ROOT / "configs" / "quick.toml"}"\n\n[[variants]]\n'
                                         'name = "mine"\nconfig = "mine/config.toml"\nrun = "mine"\n')
    [variant] = load_study(tmp_path / "study.toml")["variants"]
    assert variant["run_dir"] == tmp_path / "mine" and variant["config"]["game"]["name"].endswith("connect_four.py:ConnectFour")
