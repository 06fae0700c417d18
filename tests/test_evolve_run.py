"""`evoplay evolve / plot / export` end to end, on real embedded Ray."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import run_evoplay_here

ROOT = Path(__file__).resolve().parents[1]
EVOPLAY = [sys.executable, "-m", "evoplay"]
ENV = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}


# One embedded Ray session (2 CPUs) for the module's commands, which run in this process;
# a run that must size its own Ray (--workers 1) or be signalled runs in a process of its own.
pytestmark = pytest.mark.usefixtures("ray_here")


def evoplay(*args, check=True, own_process=False):
    if not own_process:
        return run_evoplay_here(*args, check=check, env={"RAY_USAGE_STATS_ENABLED": "0"})
    out = subprocess.run([*EVOPLAY, *map(str, args)], capture_output=True, text=True, cwd=ROOT, env=ENV)
    if check and out.returncode != 0:
        raise AssertionError(f"evoplay {args} exited {out.returncode}: {out.stderr[-2000:]}")
    return out


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("quick") / "run"
    evoplay("evolve", "configs/quick.toml", "--out", out, "--workers", "2", "--quiet", "--log-detail")
    return out


def test_quick_curve_rises(quick_run):
    summary = json.loads((quick_run / "summary.json").read_text())
    m = summary["mean_max_payoff"]
    assert summary["trials"] == 5 and summary["generations"] == 50
    assert len(summary["curve"]["mean_max"]) == 50
    # The best of 20 random networks loses most games; 50 generations later it draws most.
    assert m["last10"] >= m["first"] + 30, m


def test_run_directory_holds_every_file(quick_run):
    names = {p.relative_to(quick_run).as_posix() for p in quick_run.rglob("*") if p.is_file()}
    for f in ("config.toml", "summary.json", "environment.json", "curve.png", "curve.svg", "champion.json"):
        assert f in names
    for t in range(5):
        for f in ("logbook.csv", "champion.json", "detail.log"):
            assert f"trials/trial_{t:02d}/{f}" in names
        assert f"checkpoints/trial_{t:02d}.json" in names
    assert not [n for n in names if n.endswith(".tmp")], "no temporary files left behind"
    env = json.loads((quick_run / "environment.json").read_text())
    assert env["seed"] == 7 and env["ray"]["ray_version"] and env["ray"]["cpus"] >= 1 and env["ray"]["nodes"]
    header, *rows = (quick_run / "trials/trial_00/logbook.csv").read_text().splitlines()
    assert header == "gen,max,mean,min,mean_h,h_hist" and len(rows) == 50
    gen, mx, mean, mn, mean_h, hist = rows[-1].split(",")
    assert float(mn) <= float(mean) <= float(mx) and sum(map(int, hist.split())) == 20


def test_detail_log_lists_every_network_and_stars_the_survivors(quick_run):
    text = (quick_run / "trials/trial_03/detail.log").read_text()
    blocks = text.split("generation ")[1:]
    assert len(blocks) == 50
    lines = blocks[-1].strip().splitlines()[1:]
    assert len(lines) == 20
    assert sum(line.endswith(" *") for line in lines) == 10
    assert sum("child of" in line for line in lines) == 10
    assert all("payoff" in line and "score" in line and "beat [" in line for line in lines)


def test_same_seed_same_bytes_whatever_the_workers(quick_run, tmp_path):
    other = tmp_path / "again"
    evoplay("evolve", "configs/quick.toml", "--out", other, "--workers", "1", "--quiet", "--log-detail", own_process=True)
    for f in ("summary.json", "trials/trial_04/logbook.csv", "trials/trial_02/champion.json", "trials/trial_01/detail.log"):
        assert (other / f).read_bytes() == (quick_run / f).read_bytes(), f


def test_export_plays_in_match_and_analyze(quick_run, tmp_path):
    path = tmp_path / "champ.json"
    evoplay("export", quick_run, "--trial", 2, "--out", path)
    doc = json.loads(path.read_text())
    assert doc["kind"] == "fogel-net" and doc["provenance"]["trial"] == 2 and doc["provenance"]["seed"] == 7
    match = json.loads(evoplay("match", path, "random", "--exact", "--json", "--seats", "a-first").stdout)
    r = match["results"][0]
    assert abs(r["a_win"] + r["draw"] + r["b_win"] - 1) < 1e-12
    analysis = json.loads(evoplay("analyze", path, "--json").stdout)
    assert analysis["expected_payoff"] == pytest.approx(doc["provenance"]["expected_payoff_per_game"], abs=1e-12)
    assert evoplay("export", quick_run, "--trial", 9, check=False).returncode == 2


def test_plot_overlays_runs(quick_run, tmp_path):
    out = tmp_path / "both.png"
    evoplay("plot", quick_run, quick_run, "--out", out)
    assert out.stat().st_size > 10_000 and not (tmp_path / "both.svg").exists(), "only the format asked for"
    evoplay("plot", quick_run, "--out", tmp_path / "one.svg")
    assert (tmp_path / "one.svg").read_text().startswith("<?xml")
    # The run drew its curve (on a thread, from the logbooks in memory) as `plot` draws it from its files.
    for name in ("curve.png", "curve.svg"):
        evoplay("plot", quick_run, "--out", tmp_path / name)
        assert (tmp_path / name).read_bytes() == (quick_run / name).read_bytes()
    bad = evoplay("plot", tmp_path, check=False)
    assert bad.returncode == 2 and str(tmp_path) in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


# Slow (1,200 generations twice over, about 25 s). The default run covers the same property:
# test_framework.py's test_a_sigkilled_user_run_resumes_to_the_same_bytes kills a run's whole
# process group the same way and resumes it to the same bytes, and test_checkpoint_v2.py's
# test_a_run_stopped_after_its_first_landing_resumes_to_the_same_bytes does it for Fogel's recipe.
@pytest.mark.slow
def test_sigkilled_run_resumes_to_the_same_result(tmp_path):
    args = ["configs/fogel1993.toml", "--trials", 2, "--generations", 1200, "--seed", 5, "--workers", 2, "--quiet"]
    evoplay("evolve", *args, "--out", tmp_path / "whole")
    killed = tmp_path / "killed"
    proc = subprocess.Popen([*EVOPLAY, "evolve", *map(str, args), "--out", str(killed)], cwd=ROOT, env=ENV,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.time() + 120
    ckpt = killed / "checkpoints" / "trial_00.json"
    while time.time() < deadline and not ckpt.exists():
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)  # the driver and every Ray process it started
    proc.wait()
    assert ckpt.exists() and not (killed / "summary.json").exists(), "killed part-way"
    gens = json.loads(ckpt.read_text())["generation"]
    assert 0 < gens < 1200
    evoplay("evolve", *args, "--out", killed, "--resume")
    assert (killed / "summary.json").read_bytes() == (tmp_path / "whole" / "summary.json").read_bytes()
    env = json.loads((killed / "environment.json").read_text())
    assert env["resumed"] is True


@pytest.mark.parametrize(
    "toml, key",
    [
        ("bogus = 1\n", "bogus"),
        ("[population]\nparentz = 3\n", "population.parentz"),
        ('[evaluation]\ngames = "many"\n', "evaluation.games"),
        ("[evaluation]\ngames = -4\n", "evaluation.games"),
        ("[population]\nhidden_min = 0\nhidden_max = 10\n", "population.hidden_min"),
        ('[evaluation]\nopponent = "nobody"\n', "evaluation.opponent"),
        ("trials = 2.5\n", "trials"),
        ("[mutation]\np_arch = 1.5\n", "mutation.p_arch"),
    ],
)
def test_bad_config_exits_2_naming_the_key(tmp_path, toml, key):
    cfg = tmp_path / "bad.toml"
    cfg.write_text(toml)
    out = evoplay("evolve", cfg, "--out", tmp_path / "run", check=False)
    assert out.returncode == 2
    assert key in out.stderr and len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr
    assert not (tmp_path / "run").exists()


def test_missing_config_and_bad_overrides_exit_2(tmp_path):
    out = evoplay("evolve", tmp_path / "nope.toml", check=False)
    assert out.returncode == 2 and "nope.toml" in out.stderr and "Traceback" not in out.stderr
    out = evoplay("evolve", "configs/quick.toml", "--generations", 0, check=False)
    assert out.returncode == 2 and "--generations" in out.stderr
    out = evoplay("evolve", "configs/quick.toml", "--out", tmp_path / "none", "--resume", check=False)
    assert out.returncode == 2 and "nothing to resume" in out.stderr


def test_evaluation_split_across_ray_tasks_changes_nothing(quick_run, tmp_path):
    cfg = tmp_path / "chunked.toml"
    cfg.write_text((ROOT / "configs/quick.toml").read_text().replace("[run]\n", "[run]\neval_chunks = 2\n"))
    out = tmp_path / "chunked"
    evoplay("evolve", cfg, "--out", out, "--workers", "2", "--quiet", "--log-detail")
    assert "eval_chunks = 2" in (out / "config.toml").read_text()
    for f in ("summary.json", "trials/trial_03/logbook.csv", "trials/trial_00/detail.log"):
        assert (out / f).read_bytes() == (quick_run / f).read_bytes(), f


def test_ctrl_c_stops_with_one_line_and_keeps_the_checkpoints(tmp_path):
    out = tmp_path / "run"
    proc = subprocess.Popen([*EVOPLAY, "evolve", "configs/fogel1993.toml", "--trials", "8", "--out", str(out), "--quiet"],
                            cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.time() + 120
    while time.time() < deadline and not (out / "checkpoints" / "trial_00.json").exists():
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert err.strip().splitlines() == [f"evoplay: interrupted; the checkpoints in {out} continue with --resume"]
    assert (out / "checkpoints" / "trial_00.json").exists() and not (out / "summary.json").exists()


def test_a_trained_player_file_is_a_fitness_opponent_that_workers_need_not_have(tmp_path):
    from evoplay.framework import config
    from evoplay.framework import runner
    from evoplay.recipes.fogel.schema import player_files
    from evoplay.files.playerfile import read_document

    doc = read_document(ROOT / "results/baselines/value-net.json")
    ghost = "/nowhere/on/this/node/value-net.json"  # only the driver's copy travels
    raw = {"trials": 1, "generations": 3, "population": {"parents": 10},
           "evaluation": {"opponent": [{"player": "logic", "weight": 1}, {"player": "minimax", "weight": 1}]}}
    cfg = config.resolve(raw)
    cfg["evaluation"]["opponent"] = [{"player": ghost, "weight": 1}, {"player": "minimax", "weight": 1}]
    state, *_ = runner.run_segment(cfg, 0, None, 3, 1, False, {"recipe": {"player_files": {ghost: doc}}})
    # Half the 32 games are against minimax, which cannot be beaten: at most 16 wins.
    assert state["generation"] == 3 and all(r["max"] <= 16 for r in state["logbook"])
    with pytest.raises(Exception, match="not found"):
        player_files(cfg)


def test_the_ga_value_net_reads_its_opponent_file_from_the_configs_folder_and_ships_it(tmp_path):
    import shutil

    from evoplay.framework import config
    from evoplay.framework import runner
    from evoplay.recipes.ga_value_net import GAValueNetRecipe
    from evoplay.files.playerfile import read_document

    (tmp_path / "players").mkdir()
    shutil.copy(ROOT / "results/baselines/value-net.json", tmp_path / "players" / "value-net.json")
    (tmp_path / "ga.toml").write_text('recipe = "ga-value-net"\ntrials = 1\ngenerations = 2\n'
                                      '[ga]\npopulation = 6\ngames = 4\nelite = 1\nopponent = "players/value-net.json"\n')
    cfg = config.load(tmp_path / "ga.toml")  # resolved from the config's folder, whatever the current directory
    path = str(tmp_path / "players" / "value-net.json")
    assert cfg["ga"]["opponent"] == path
    shipped = GAValueNetRecipe(cfg).ship()["player_files"]
    assert shipped == {path: read_document(path)}
    # a worker without the file plays against the shipped copy
    ghost = "/nowhere/on/this/node/value-net.json"
    cfg["ga"]["opponent"] = ghost
    state, *_ = runner.run_segment(cfg, 0, None, 2, 1, False, {"recipe": {"player_files": {ghost: shipped[path]}}})
    assert state["generation"] == 2


def test_evolve_accepts_a_player_file_opponent_named_from_the_configs_folder(tmp_path):
    import shutil

    (tmp_path / "players").mkdir()
    shutil.copy(ROOT / "results/baselines/value-net.json", tmp_path / "players" / "value-net.json")
    cfg = tmp_path / "vs-file.toml"
    cfg.write_text('trials = 2\ngenerations = 4\n[population]\nparents = 10\n'
                   '[evaluation]\nopponent = [{player = "players/value-net.json", weight = 3},'
                   ' {player = "logic", weight = 1}]\n')
    out = tmp_path / "run"
    evoplay("evolve", cfg, "--out", out, "--quiet")  # run from the checkout, not the config's folder
    summary = json.loads((out / "summary.json").read_text())
    assert summary["generations"] == 4 and len(summary["per_trial"]) == 2
    assert str(tmp_path / "players" / "value-net.json") in (out / "config.toml").read_text()
    # A path that exists only relative to the current directory is not the config's.
    cfg.write_text('[evaluation]\nopponent = "results/baselines/value-net.json"\n')
    bad = evoplay("evolve", cfg, "--out", tmp_path / "run2", check=False)
    assert bad.returncode == 2 and str(tmp_path / "results/baselines/value-net.json") in bad.stderr
