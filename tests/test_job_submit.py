"""`ray job submit`, run as cluster/README.md documents it, against a real two-node cluster.

The machine that submits a job needs ``ray[default]`` (the jobs CLI refuses to run
without it), which evoplay's pinned environment does not carry. The README's recipe is a
side environment, ``.venv-jobs``: the same pins plus ``ray[default]``'s extras. This test
builds it if it is missing or stale (about 30 s from pip's cache; skipped, with pip's
last line as the reason, if pip cannot install it), starts the head (with its dashboard
and jobs API) and a worker from it, and submits the quick experiment with
``--working-dir .`` and ``python -m evoplay`` from a copy of the checkout. evoplay is not installed in that
environment, so the job can only succeed by importing the uploaded copy of the
repository, as on a real cluster.

The shell it submits from has both addresses set, as the README shows:
``RAY_ADDRESS`` (the GCS, for ``evoplay evolve``) and ``RAY_API_SERVER_ADDRESS`` (the
jobs API, for ``ray job``). The job computes exactly what a run on this machine computes.
"""

import fcntl
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import raycluster
from test_cluster import results_of

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements.lock"
JOBS_VENV = ROOT / ".venv-jobs"
STAMP = JOBS_VENV / ".evoplay-installed"


def ray_default_requirement() -> str:
    """``ray[default]==X``, X the version of ray that requirements.lock pins."""
    match = re.search(r"^ray==(\S+)$", LOCK.read_text(), re.M)
    assert match, "requirements.lock pins no ray version"
    return f"ray[default]=={match.group(1)}"


def install_command() -> str:
    """The side environment's install line, exactly as cluster/README.md gives it."""
    return f'.venv-jobs/bin/pip install -r requirements.lock "{ray_default_requirement()}"'


def _fingerprint() -> str:
    return hashlib.sha256(LOCK.read_bytes() + ray_default_requirement().encode()).hexdigest()


@pytest.fixture(scope="module")
def jobs_env() -> Path:
    """``.venv-jobs``, built by the README's two commands unless it is already current."""
    # One builder at a time, should two test runs share the checkout.
    lock = Path(tempfile.gettempdir()) / f"evoplay-venv-jobs-{hashlib.sha256(bytes(JOBS_VENV)).hexdigest()[:12]}.lock"
    with open(lock, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        return _current_jobs_env()


def _current_jobs_env() -> Path:
    if STAMP.exists() and STAMP.read_text() == _fingerprint():
        return JOBS_VENV
    shutil.rmtree(JOBS_VENV, ignore_errors=True)
    steps = [
        [sys.executable, "-m", "venv", str(JOBS_VENV)],
        [str(JOBS_VENV / "bin" / "pip"), "install", "-q", "-r", str(LOCK), ray_default_requirement()],
    ]
    for step in steps:
        try:
            run = subprocess.run(step, cwd=ROOT, capture_output=True, text=True, timeout=600)
        except subprocess.TimeoutExpired:
            pytest.skip(f"building .venv-jobs took over 10 minutes: {' '.join(step[:3])}")
        if run.returncode != 0:
            last = (run.stderr.strip() or run.stdout.strip() or "no output").splitlines()[-1]
            pytest.skip(f"cannot build .venv-jobs ({ray_default_requirement()}): {last}")
    STAMP.write_text(_fingerprint())
    return JOBS_VENV


def checkout_copy(dest: Path) -> Path:
    """A copy of what ``--working-dir .`` uploads: every file git does not ignore, less
    results/ (run directories, which the quick experiment never reads and a working
    checkout can fill with tens of MB).

    Ray hashes the directory twice, once to name the package and once to upload it; a
    file that changes in between (another process writing results/, an editor saving)
    makes the job fail to find its package. The copy holds still.
    """
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        if name.startswith("results/"):
            continue
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    return dest


def test_readme_gives_the_side_environment_and_submits_without_ray_address():
    readme = (ROOT / "cluster" / "README.md").read_text()
    assert install_command() in readme
    # Exporting the dashboard's URL as RAY_ADDRESS breaks `evoplay evolve` in that shell.
    assert not re.search(r"RAY_ADDRESS=https?://", readme)
    assert "RAY_API_SERVER_ADDRESS=http://127.0.0.1:8265" in readme


def submit_and_compare(jobs_env: Path, tmp_path: Path, run: list[str]):
    """``evoplay evolve RUN...`` submitted as a job to a two-node cluster from a copy of the
    checkout, and run on this machine from the same copy: the same results."""
    ray = jobs_env / "bin" / "ray"
    # The nodes' Python has no evoplay of its own: the job must import the uploaded copy.
    probe = subprocess.run([str(jobs_env / "bin" / "python"), "-c", "import evoplay"], cwd=tmp_path,
                           capture_output=True, text=True)
    assert probe.returncode != 0 and "No module named 'evoplay'" in probe.stderr

    job_out, direct_out = tmp_path / "job", tmp_path / "direct"
    checkout = checkout_copy(tmp_path / "checkout")
    quick = [*run, "--quiet"]
    with raycluster.local_cluster(nodes=2, cpus_per_node=1, ray=ray, dashboard=True) as cluster:
        env = {**cluster.env, "RAY_ADDRESS": cluster.address, "RAY_API_SERVER_ADDRESS": cluster.dashboard_url}
        job = subprocess.run(
            [str(ray), "job", "submit", "--working-dir", ".", "--",
             "python", "-m", "evoplay", "evolve", *quick, "--out", str(job_out)],
            cwd=checkout, env=env, capture_output=True, text=True, timeout=300,
        )
        assert job.returncode == 0, (job.stdout + job.stderr)[-3000:]
        assert "Uploading package gcs://" in job.stdout + job.stderr
        assert re.search(r"Job '[^']+' succeeded", job.stdout), job.stdout[-3000:]

    # The job computed what a run on this machine computes. (That a driver in the same shell, with
    # RAY_ADDRESS and no --address, joins the same cluster: test_cluster.py's
    # test_evolve_through_the_cluster_matches_local_runs.)
    local_env = {k: v for k, v in env.items() if k not in ("RAY_ADDRESS", "RAY_API_SERVER_ADDRESS")}
    direct = subprocess.run([sys.executable, "-m", "evoplay", "evolve", *quick, "--out", str(direct_out), "--workers", "2"],
                            cwd=checkout, env=local_env, capture_output=True, text=True, timeout=300)
    assert direct.returncode == 0, direct.stderr[-3000:]
    ray_env = json.loads((job_out / "environment.json").read_text())["ray"]
    assert ray_env["address"].endswith(f":{cluster.port}")
    assert len(ray_env["nodes"]) == 2 and ray_env["cpus"] == 2
    assert len(json.loads((direct_out / "environment.json").read_text())["ray"]["nodes"]) == 1
    expected = results_of(direct_out)
    assert any(name.startswith("trials") for name in expected)
    assert results_of(job_out) == expected


@pytest.mark.cluster
def test_ray_job_submit_runs_a_users_recipe_on_the_cluster(jobs_env, tmp_path):
    # The README's example submits a built-in experiment; a user's recipe from the working
    # directory goes the same way (its section "Studies and your own code on a cluster"),
    # and it needs no compiled kernel: the Fogel job below spends most of its minute and a
    # half compiling them on each node.
    submit_and_compare(jobs_env, tmp_path, ["examples/onemax_recipe.toml", "--trials", "2", "--generations", "5"])


# Slow (about 100 s alone, 170 s in the suite: each node compiles the Fogel kernels for the
# uploaded copy, whose numba cache starts empty). The default run covers the job's path with
# the user's recipe above; test_cluster.py's test_evolve_through_the_cluster_matches_local_runs
# runs the quick experiment itself on a two-node cluster.
@pytest.mark.slow
@pytest.mark.cluster
def test_ray_job_submit_runs_an_experiment_on_the_cluster(jobs_env, tmp_path):
    submit_and_compare(jobs_env, tmp_path, ["configs/quick.toml", "--trials", "2", "--generations", "5"])


# Slow (a second cluster with its jobs API, about 40 s): a study of a user's recipe as a job. The
# default run covers its parts: test_ray_job_submit_runs_an_experiment_on_the_cluster (above)
# submits an evolve through the same jobs API and uploaded working directory; test_study.py's
# test_a_study_on_the_two_node_cluster_gives_the_same_bytes runs a study on a two-node cluster; and
# test_framework.py's test_user_code_reaches_cluster_nodes_that_lack_its_files takes a user's
# recipe file to nodes that lack it.
@pytest.mark.slow
@pytest.mark.cluster
def test_ray_job_submit_runs_a_study_of_a_users_recipe_on_the_cluster(jobs_env, tmp_path):
    ray = jobs_env / "bin" / "ray"
    checkout = checkout_copy(tmp_path / "checkout")
    with raycluster.local_cluster(nodes=2, cpus_per_node=1, ray=ray, dashboard=True) as cluster:
        env = {**cluster.env, "RAY_ADDRESS": cluster.address, "RAY_API_SERVER_ADDRESS": cluster.dashboard_url}
        # A study of a user's recipe (a file of the working directory), submitted the same way.
        (checkout / "study.toml").write_text(
            'name = "job-study"\nbase = "examples/minimax_fitness.toml"\ntrials = 2\ngenerations = 4\n'
            '[[variants]]\nname = "paper"\n[[variants]]\nname = "no architecture mutation"\nmutation.p_arch = 0.0\n')
        study_job, study_direct = tmp_path / "study-job", tmp_path / "study-direct"
        job = subprocess.run(
            [str(ray), "job", "submit", "--working-dir", ".", "--",
             "python", "-m", "evoplay", "study", "study.toml", "--out", str(study_job), "--quiet"],
            cwd=checkout, env=env, capture_output=True, text=True, timeout=300,
        )
        assert job.returncode == 0 and re.search(r"Job '[^']+' succeeded", job.stdout), (job.stdout + job.stderr)[-3000:]
        direct = subprocess.run([sys.executable, "-m", "evoplay", "study", "study.toml", "--out", str(study_direct), "--quiet"],
                                cwd=checkout, env=env, capture_output=True, text=True, timeout=300)
        assert direct.returncode == 0, direct.stderr[-3000:]

    # The job's copy of the user's file sits elsewhere than the direct run's, so the stored
    # configs name different paths; every result is the same.
    study = json.loads((study_job / "study.json").read_text())
    assert [v["name"] for v in study["variants"]] == ["paper", "no architecture mutation"]
    assert (study_job / "study.json").read_bytes() == (study_direct / "study.json").read_bytes()
    for variant in ("paper", "no-architecture-mutation"):
        assert results_of(study_job / variant) == results_of(study_direct / variant)
