"""Run directories are never lost or mixed: marker, --overwrite, lock, names, checked checkpoints.

Each case below was a defect: a rerun silently replaced a run, a config's name could be
any path, a damaged or foreign checkpoint resumed (or crashed with a traceback).
"""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from evoplay.framework.rundir import digest

from support.nowork import forbid_ray
from support.runs import ENV, ROOT
from support.runs import evoplay_process as evoplay


def one_line_exit_2(out, *words):
    assert out.returncode == 2, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("evoplay: error:") and "Traceback" not in out.stderr, out.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])


QUICK = ["configs/quick.toml", "--trials", 2, "--generations", 4, "--quiet"]


@pytest.fixture(scope="module")
def finished(tmp_path_factory, ray_here, evoplay_here):
    """A finished quick run, made in this process, in the module's Ray session."""
    out = tmp_path_factory.mktemp("finished") / "run"
    evoplay_here("evolve", *QUICK, "--out", out, "-v")
    return out


def test_a_folder_that_is_not_a_run_is_never_written(tmp_path, evoplay_here):
    (tmp_path / "thesis.tex").write_text("years of work")
    one_line_exit_2(evoplay_here("evolve", *QUICK, "--out", tmp_path, check=False), "not an evoplay run directory")
    one_line_exit_2(evoplay_here("evolve", *QUICK, "--out", tmp_path, "--overwrite", check=False), "not an evoplay run directory")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["thesis.tex"]


def test_an_existing_run_is_replaced_only_when_asked(finished, tmp_path, evoplay_here):
    import shutil

    run = tmp_path / "run"
    shutil.copytree(finished, run)
    (run / "notes.txt").write_text("mine")
    before = (run / "summary.json").read_bytes()
    one_line_exit_2(evoplay_here("evolve", *QUICK, "--out", run, check=False), "--resume", "--overwrite")
    assert (run / "summary.json").read_bytes() == before
    evoplay_here("evolve", *QUICK, "--seed", 8, "--out", run, "--overwrite")
    assert json.loads((run / "summary.json").read_text())["seed"] == 8
    assert (run / "notes.txt").read_text() == "mine", "--overwrite removes what a run wrote, nothing else"


@pytest.mark.parametrize("name", ["../escape", "/tmp/elsewhere", "a/b", "x" * 300, "nul\u0000name", "two\nlines"])
def test_a_config_name_is_a_name_not_a_path(tmp_path, name, evoplay_here):
    cfg = tmp_path / "c.toml"
    cfg.write_text(f"name = {json.dumps(name)}\n")
    one_line_exit_2(evoplay_here("evolve", cfg, check=False), "'name'")
    assert not (tmp_path.parent / "escape").exists()


def test_dev_null_is_not_a_run_directory(evoplay_here):
    one_line_exit_2(evoplay_here("evolve", *QUICK, "--out", "/dev/null", check=False), "not a directory")


def _checkpoint_case(finished, tmp_path, edit, evoplay_here):
    import shutil

    run = tmp_path / "run"
    shutil.copytree(finished, run)
    (run / "summary.json").unlink()
    path = run / "checkpoints" / "trial_00.json"
    edit(run, path)
    return evoplay_here("evolve", *QUICK, "--out", run, "--resume", check=False), path


def _resign(path, change):
    body = json.loads(path.read_text())
    change(body)
    body.pop("sha256")
    body["sha256"] = digest(body)
    path.write_text(json.dumps(body))


@pytest.mark.parametrize("case, words", [
    ("byte", ["damaged", "UnicodeDecodeError"]),
    ("empty", ["not an evoplay checkpoint"]),
    ("edited", ["sha256 does not match"]),
    ("other-trial", ["holds trial 1, not trial 0"]),
    ("nan", ["damaged", "it holds NaN"]),  # refused as it is read (it was refused by the recipe, without the file's name)
    ("other-config", ["another config"]),
])
def test_damaged_or_foreign_checkpoints_are_refused_naming_the_file(finished, tmp_path, case, words, evoplay_here):
    def edit(run, path):
        if case == "byte":
            data = bytearray(path.read_bytes())
            data[10] = 0xFF
            path.write_bytes(bytes(data))
        elif case == "empty":
            path.write_text("{}")
        elif case == "edited":
            path.write_text(path.read_text().replace('"generation":4', '"generation":3', 1))
        elif case == "other-trial":
            path.write_bytes((run / "checkpoints" / "trial_01.json").read_bytes())
        elif case == "nan":  # a weight matrix as plain JSON (as format 1 wrote it), one weight NaN, which JSON cannot hold
            def nan(b):
                from evoplay.framework.packing import unpack

                w1 = unpack(b["state"]["parents"][0]["w1"])
                w1[0][0] = float("nan")
                b["state"]["parents"][0]["w1"] = w1

            _resign(path, nan)
        elif case == "other-config":
            _resign(path, lambda b: b.__setitem__("config_sha256", "0" * 64))

    out, path = _checkpoint_case(finished, tmp_path, edit, evoplay_here)
    one_line_exit_2(out, *words)
    assert str(path) in out.stderr


def test_a_checkpoint_signs_its_own_text_and_one_signed_the_earlier_way_still_reads(tmp_path):
    import hashlib

    from evoplay.errors import EvoplayError
    from evoplay.framework.rundir import RunDir

    rd = RunDir(tmp_path / "run")
    data = {"trial": 0, "generation": 2, "logbook": [{"gen": 1, "max": 0.5}, {"gen": 2, "max": 1.0}],
            "state": {"w": [0.1, -2.5e-300, 3.0], "z": {"b": 1, "a": 2}}}
    rd.write_checkpoint(data, "c" * 64)
    text = rd.checkpoint(0).read_text()
    head, sep, tail = text.rpartition(',"sha256":"')
    assert sep and tail == hashlib.sha256(f"{head}}}".encode()).hexdigest() + '"}'
    assert rd.read_checkpoint(0, "c" * 64) == data
    rd.checkpoint(0).write_text(text.replace("3.0", "3.5"))
    with pytest.raises(EvoplayError, match="sha256 does not match"):
        rd.read_checkpoint(0, "c" * 64)
    old = json.loads(text)
    old.pop("sha256")
    old["sha256"] = digest(old)  # of the sorted-key JSON, as checkpoints were signed before
    rd.checkpoint(0).write_text(json.dumps(old, separators=(",", ":")))
    assert rd.read_checkpoint(0, "c" * 64) == data


def test_a_logbook_written_as_it_grows_is_the_logbook_written_whole(tmp_path):
    from evoplay.framework.rundir import RunDir

    rows = [{"gen": g, "max": g / 3, "h_hist": [g, 0, 1]} for g in range(1, 13)]
    grown, whole = RunDir(tmp_path / "grown"), RunDir(tmp_path / "whole")
    for k in (4, 8, 12, 12):
        grown.write_logbook(0, rows[:k])
    whole.write_logbook(0, rows)
    assert grown.logbook(0).read_bytes() == whole.logbook(0).read_bytes()
    edited = [dict(r) for r in rows]
    edited[1]["max"] = 7.5  # a past row that differs: the logbook is rendered again, whole
    grown.write_logbook(0, edited)
    assert grown.read_logbook(0)["max"][1] == 7.5 and grown.read_logbook(0)["max"][11] == 4.0
    grown.logbook(0).unlink()  # unchanged rows, but the file is gone: written again
    grown.write_logbook(0, edited)
    assert grown.read_logbook(0)["max"][1] == 7.5


def test_a_logbook_reads_as_a_csv_reader_sees_it_whole_or_by_columns(tmp_path):
    import csv
    import shutil

    import numpy as np

    from evoplay.errors import EvoplayError
    from evoplay.framework.rundir import RunDir

    rd = RunDir(tmp_path / "run")
    rd.logbook(0).parent.mkdir(parents=True)
    shutil.copy(ROOT / "results/fogel1993/trials/trial_07/logbook.csv", rd.logbook(0))
    with open(rd.logbook(0), newline="") as f:
        rows = list(csv.DictReader(f))
    book = rd.read_logbook(0)
    assert list(book) == ["gen", "max", "mean", "min", "mean_h", "h_hist"]
    assert book["max"].tolist() == [float(r["max"]) for r in rows] and len(rows) == 800
    assert book["h_hist"].tolist() == [[int(x) for x in r["h_hist"].split()] for r in rows]
    only = rd.read_logbook(0, ("max",))
    assert list(only) == ["max"] and np.array_equal(only["max"], book["max"])

    text = rd.logbook(0).read_text().splitlines()
    rd.logbook(0).write_text("\n".join(text[:3] + [""] + text[3:]) + "\n")  # a blank line is skipped
    assert np.array_equal(rd.read_logbook(0, ("max",))["max"], book["max"])
    for line in (text[5].rsplit(",", 1)[0], text[5] + ",7"):  # a cell missing, a cell too many
        rd.logbook(0).write_text("\n".join(text[:5] + [line] + text[6:]) + "\n")
        with pytest.raises(EvoplayError, match=r"logbook .*trial_00/logbook.csv is damaged or unreadable: line 6 has"):
            rd.read_logbook(0, ("max",))


def test_resume_with_a_changed_config_names_the_keys(finished, tmp_path, evoplay_here):
    import shutil

    run = tmp_path / "run"
    shutil.copytree(finished, run)
    out = evoplay_here("evolve", "configs/quick.toml", "--trials", 2, "--generations", 9, "--out", run, "--resume", check=False)
    one_line_exit_2(out, "generations")


def test_one_run_at_a_time_per_directory(tmp_path, ray_here, evoplay_here):
    run = tmp_path / "run"
    first = subprocess.Popen([sys.executable, "-m", "evoplay", "evolve", "configs/fogel1993.toml", "--trials", "2",
                              "--generations", "3000", "--out", str(run), "--quiet"], cwd=ROOT, env=ENV,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.time() + 60
        while time.time() < deadline and not (run / "config.toml").exists():
            time.sleep(0.05)
        second = evoplay_here("evolve", *QUICK, "--out", run, "--overwrite", check=False)
        one_line_exit_2(second, "being written by another evoplay run")
    finally:
        os.killpg(first.pid, 9)
        first.wait()
    # The killed run's lock went with it: the directory resumes (here: is replaced) at once.
    evoplay_here("evolve", *QUICK, "--out", run, "--overwrite")


@pytest.fixture(scope="module")
def quiet_in_a_home_of_its_own(tmp_path_factory):
    """A quiet run past two checkpoints in a process of its own, with a HOME of its own and no Ray
    token in its environment (for the two tests of what it must not write); the process and its HOME."""
    home = tmp_path_factory.mktemp("home")
    env = {**ENV, "HOME": str(home)}
    env.pop("RAY_AUTH_TOKEN", None)
    run = subprocess.run([sys.executable, "-m", "evoplay", "evolve", "configs/quick.toml", "--trials", "1", "--generations",
                          "20", "--out", str(tmp_path_factory.mktemp("quiet") / "run"), "-q"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    return run, home


def test_verbose_logs_each_checkpoint(tmp_path, quiet_in_a_home_of_its_own):
    out = evoplay("evolve", "configs/quick.toml", "--trials", 1, "--generations", 20, "--out", tmp_path / "run", "-v")
    assert "trial 0 at generation 10" in out.stderr and "trial 0 at generation 20" in out.stderr
    quiet, _ = quiet_in_a_home_of_its_own
    assert "trial 0 at generation" not in quiet.stderr


@pytest.fixture
def small_disk(tmp_path):
    """A 64 KiB tmpfs (root only; skipped where mounting is not allowed)."""
    mnt = tmp_path / "disk"
    mnt.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mnt)],
                                           capture_output=True).returncode != 0:
        pytest.skip("needs root and mount to make a small disk")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)


def test_a_full_disk_is_one_line_naming_the_file(small_disk, ray_here, evoplay_here):
    out = evoplay_here("evolve", "configs/quick.toml", "--trials", 2, "--generations", 20, "--out", small_disk / "run",
                  "--quiet", check=False)
    one_line_exit_2(out, "cannot write", str(small_disk / "run"), "No space left on device")


def test_a_read_only_disk_is_refused_before_ray_starts(small_disk, no_ray_here, evoplay_here, monkeypatch):
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    ray_started = forbid_ray(monkeypatch)
    out = evoplay_here("evolve", *QUICK, "--out", small_disk / "run", check=False)
    one_line_exit_2(out, str(small_disk / "run"), "Read-only file system")
    assert not ray_started


def test_an_atomic_write_never_replaces_a_device_or_a_folder(tmp_path):
    """As root, a rename once replaced /dev/null itself with a regular file."""
    from evoplay.files.atomic import write_text
    from evoplay.errors import EvoplayError

    link = tmp_path / "null"
    link.symlink_to("/dev/null")
    (tmp_path / "folder").mkdir()
    for target in (link, tmp_path / "folder"):
        with pytest.raises(EvoplayError, match="not a regular file"):
            write_text(target, "x")
    assert Path("/dev/null").is_char_device() and link.is_symlink()


def test_embedded_ray_leaves_no_world_readable_token(quiet_in_a_home_of_its_own):
    """Ray 2.60 wrote ~/.ray/auth_token (mode 644) for every embedded run."""
    _, home = quiet_in_a_home_of_its_own
    assert not (home / ".ray").exists()


def test_a_jobs_api_url_is_not_a_cluster_address_and_leaves_the_folder_reusable(tmp_path, ray_here, evoplay_here):
    env = {**ENV, "RAY_ADDRESS": "http://127.0.0.1:8265"}
    out = subprocess.run([sys.executable, "-m", "evoplay", "evolve", *map(str, QUICK), "--out", str(tmp_path / "run")],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    one_line_exit_2(out, "RAY_ADDRESS=http://127.0.0.1:8265", "HOST:6379", "RAY_API_SERVER_ADDRESS")
    # Nothing ran, so nothing is refused next time (a failed join once left a 'run' behind).
    evoplay_here("evolve", *QUICK, "--out", tmp_path / "run")


@pytest.mark.parametrize("raw, key", [
    ({"population": {"init_scale": 1e308}}, "population.init_scale"),
    ({"evaluation": {"opponent": [{"player": "logic", "weight": float("inf")}]}}, "evaluation.opponent"),
    ({"evaluation": {"payoff_win": 1e308}}, "evaluation.payoff_win"),
    ({"seed": 2**64}, "seed"),
])
def test_values_that_once_crashed_workers_are_refused_when_read(raw, key):
    from evoplay.errors import ConfigError
    from evoplay.framework import config

    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        config.resolve(raw)


def test_sigma_minus_zero_is_zero_and_evolves():
    """``sigma = -0.0`` passed validation and then crashed every worker (numpy: scale < 0)."""
    from evoplay.framework import config
    from evoplay.framework.trial import TrialRun
    from evoplay.recipes.fogel.recipe import FogelRecipe

    cfg = config.resolve({"population": {"parents": 4}, "selection": {"rivals": 3}, "mutation": {"sigma": -0.0}})
    assert str(cfg["mutation"]["sigma"]) == "0.0"
    run = TrialRun(FogelRecipe(cfg), 0).run(2)
    assert run.generation == 2


# ---------------------------------------------------------------- refusals leave no folder behind (issue 40)


#: Blondie24 on tic-tac-toe asking for the 2001 network's spatial layer, which only checkers has:
#: refused once the recipe is made, after the run directory was claimed.
SPATIAL_ON_TICTACTOE = """recipe = "blondie24"
name = "spatial"
trials = 1
generations = 2
[game]
name = "tictactoe"
depth = 1
max_plies = 9
[network]
hidden = [3]
spatial = true
[population]
parents = 3
[evaluation]
games = 1
"""
#: An address Ray cannot join (the jobs API's URL): refused when Ray starts, after the claim.
BAD_ADDRESS = ["--address", "http://127.0.0.1:8265"]


def _refused_in_process(evoplay_here, argv, *words):
    from support.cli import problem

    done = evoplay_here(*argv, cwd=os.getcwd(), check=False)
    assert problem(done.returncode, done.stdout, done.stderr) is None, (argv, done.stderr)
    for w in words:
        assert w in done.stderr, (w, done.stderr)


# no_ray_here: the refusals come as Ray starts, and an open session would be reused whatever --address says.
@pytest.mark.parametrize("case", ["address", "spatial"])
def test_a_refused_evolve_leaves_no_folder_it_made_and_no_lock_in_the_users(tmp_path, monkeypatch, case, no_ray_here, evoplay_here):
    monkeypatch.chdir(tmp_path)
    if case == "address":
        config, extra, words = str(ROOT / "configs" / "quick.toml"), BAD_ADDRESS, "jobs API"
    else:
        (tmp_path / "c.toml").write_text(SPATIAL_ON_TICTACTOE)
        config, extra, words = str(tmp_path / "c.toml"), [], "network.spatial"
    mine = tmp_path / "mine"
    mine.mkdir()
    for out in (tmp_path / "new" / "deeper" / "run", mine):
        _refused_in_process(evoplay_here, ["evolve", config, "--out", str(out), "-q", *extra], words)
    assert sorted(p.name for p in tmp_path.iterdir()) == (["c.toml"] if case == "spatial" else []) + ["mine"]
    assert not any(mine.iterdir()), "the user's folder is left as it was: no .lock"


def test_a_refused_study_leaves_no_folder_it_made(tmp_path, monkeypatch, no_ray_here, evoplay_here):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.toml").write_text(f'name = "s"\nbase = "{ROOT / "configs" / "quick.toml"}"\n[[variants]]\nname = "a"\n'
                                     '[[variants]]\nname = "b"\n"mutation.sigma" = 0.1\n')
    mine = tmp_path / "mine"
    mine.mkdir()
    for out in (tmp_path / "new" / "study", mine):
        _refused_in_process(evoplay_here, ["study", "s.toml", "--out", str(out), "-q", *BAD_ADDRESS], "jobs API")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine", "s.toml"]
    assert not any(mine.iterdir())


def test_diff_says_whether_two_runs_hold_the_same_results(finished, tmp_path, evoplay_here):
    """`make run` ends with it: the committed run was what `make run` produced, but nothing checked it."""
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(finished, copy)
    (copy / "environment.json").write_text("{}")  # the machine's own files are no results
    (copy / "costs.json").unlink(missing_ok=True)
    same = evoplay_here("diff", copy, finished)
    assert same.returncode == 0 and same.stdout.startswith(f"{copy}: identical to {finished}")
    logbook = copy / "trials" / "trial_01" / "logbook.csv"
    logbook.write_text(logbook.read_text().replace(",", ";", 1))
    (copy / "extra.txt").write_text("x")
    other = evoplay_here("diff", copy, finished, check=False)
    assert other.returncode == 1
    assert other.stdout.splitlines()[1:] == [f"  extra.txt (only in {copy})", "  trials/trial_01/logbook.csv"]


def test_the_committed_reference_run_carries_todays_config_keys():
    """`make run` wrote champion = "score" and league_openings = 10 into the committed config.toml:
    the committed folder is byte for byte what a run of configs/fogel1993.toml writes."""
    from evoplay.framework.config import load, to_toml

    root = Path(__file__).resolve().parents[1]
    assert (root / "results" / "fogel1993" / "config.toml").read_text() == to_toml(load(root / "configs" / "fogel1993.toml"))
    makefile = (root / "Makefile").read_text()
    assert "--out runs/fogel1993 --overwrite" in makefile and "evoplay diff runs/fogel1993 results/fogel1993" in makefile
