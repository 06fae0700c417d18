"""A real multi-node Ray cluster on this machine: a head and a worker node
started with ``ray start`` on 127.0.0.1, token authentication on. Work lands on both
nodes, an evolution run through the cluster gives the same results as local runs, and a
node killed mid-run loses no work. Also: the cluster/ manifests are valid YAML."""

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import yaml

import raycluster

ROOT = Path(__file__).resolve().parents[1]
CLUSTER_DIR = ROOT / "cluster"
#: The local runs that the cluster's runs are compared with run on one worker: in this process,
#: in one embedded session of one CPU for the module (conftest.py, ray_here).
RAY_HERE_CPUS = 1


def node_machines() -> list[dict]:
    """Two different machines under the same code: other OpenBLAS kernels, and numba compiling for a generic x86-64 on one."""
    from test_any_cpu import cpu_flags

    second = "SkylakeX" if "avx512f" in cpu_flags() else "Sandybridge"
    return [{"OPENBLAS_CORETYPE": "Haswell"}, {"OPENBLAS_CORETYPE": second, "NUMBA_CPU_NAME": "generic"}]


@pytest.fixture(scope="module")
def cluster():
    with raycluster.local_cluster(nodes=2, cpus_per_node=1, node_envs=node_machines()) as c:
        yield c


def drive(cluster, *args, timeout=180):
    """Run a driver process that joins ``cluster`` (see raycluster.driver); its JSON output."""
    run = subprocess.run(
        [sys.executable, "-c", "import sys, raycluster; raycluster.driver(sys.argv[1:])", args[0], cluster.address,
         *map(str, args[1:])],
        capture_output=True, text=True, env=cluster.env, cwd=ROOT, timeout=timeout,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


@pytest.mark.cluster
def test_work_lands_on_both_nodes(cluster):
    out = drive(cluster, "spread")
    info = out["info"]
    nodes = {n["node_id"] for n in info["nodes"]}
    assert len(nodes) == 2 and info["cpus"] == 2 and all(n["cpus"] == 1 for n in info["nodes"])
    assert set(out["task_nodes"]) == nodes
    assert set(out["map_nodes"]) == nodes
    assert out["draws"] == [raycluster.draw(11, k) for k in range(10)]


def evolve(out, *extra, env):
    args = ["configs/quick.toml", "--trials", "2", "--generations", "5", "--out", str(out), "--quiet", *extra]
    run = subprocess.run([sys.executable, "-m", "evoplay", "evolve", *args],
                         capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    return out


RUN_ENVIRONMENT = {"ray", "cluster", "environment", "seconds", "timings", "driver_peak_rss_mib"}


def results_of(run_dir: Path) -> dict:
    """Everything a run computed, keyed by file; the run-environment record left out."""
    summary = json.loads((run_dir / "summary.json").read_text())
    files = {"summary.json": {k: v for k, v in summary.items() if k not in RUN_ENVIRONMENT}}
    for path in sorted((run_dir / "trials").rglob("*")):
        if path.is_file():
            files[str(path.relative_to(run_dir))] = path.read_bytes()
    return files


@pytest.mark.cluster
def test_evolve_through_the_cluster_matches_local_runs(cluster, tmp_path, ray_here, evoplay_here):
    remote = evolve(tmp_path / "cluster", "--address", cluster.address, env=cluster.env)
    env = json.loads((remote / "environment.json").read_text())
    assert len(env["ray"]["nodes"]) == 2 and env["ray"]["cpus"] == 2

    # No --address, RAY_ADDRESS set (the shell cluster/README.md sets up for `ray job submit`): the same cluster
    by_env = evolve(tmp_path / "by-env", env={**cluster.env, "RAY_ADDRESS": cluster.address})
    env = json.loads((by_env / "environment.json").read_text())
    assert env["ray"]["address"].endswith(f":{cluster.port}") and len(env["ray"]["nodes"]) == 2

    local_env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    local_env["RAY_USAGE_STATS_ENABLED"] = "0"
    two = evolve(tmp_path / "local2", "--workers", "2", env=local_env)
    assert ray_here["cpus"] == 1
    one = tmp_path / "local1"
    evoplay_here("evolve", "configs/quick.toml", "--trials", "2", "--generations", "5", "--out", one, "--quiet", "--workers", "1")
    assert json.loads((one / "environment.json").read_text())["ray"]["cpus"] == 1
    expected = results_of(remote)
    assert any(name.startswith("trials") for name in expected)
    assert results_of(by_env) == expected
    assert results_of(two) == expected
    assert results_of(one) == expected


@pytest.mark.cluster
def test_a_checkers_blondie24_run_through_the_cluster_matches_a_local_run(cluster, tmp_path, ray_here, evoplay_here):
    """The tiny Blondie24 checkers run, its generations' games in 2 chunks: one on each node."""
    outs = cluster_and_local(cluster, tmp_path, "blondie24-tiny.toml", evoplay_here)
    assert "trials/trial_01/champion.json" in outs[0] and outs[0] == outs[1]


def cluster_and_local(cluster, tmp_path, config: str, evoplay_here) -> list:
    """The results of a config from configs/ (its games in 2 chunks) through the 2-node cluster and on one
    local worker (the module's session, in this process); the cluster run's environment says it had both
    nodes, the local run's one CPU."""
    toml = tmp_path / config
    toml.write_text((ROOT / "configs" / config).read_text().replace("[run]\n", "[run]\neval_chunks = 2\n"))
    run = subprocess.run([sys.executable, "-m", "evoplay", "evolve", str(toml), "--out", str(tmp_path / "cluster"), "--quiet",
                          "--address", cluster.address], capture_output=True, text=True, cwd=ROOT, env=cluster.env, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    evoplay_here("evolve", toml, "--out", tmp_path / "local", "--quiet", "--workers", "1")
    assert len(json.loads((tmp_path / "cluster" / "environment.json").read_text())["ray"]["nodes"]) == 2
    assert json.loads((tmp_path / "local" / "environment.json").read_text())["ray"]["cpus"] == 1
    return [results_of(tmp_path / "cluster"), results_of(tmp_path / "local")]


# slow: the same recipe and code path through the cluster is checked by the 1999 checkers run above; the 2001 network differs in its evaluation only, checked in-process
@pytest.mark.slow
@pytest.mark.cluster
def test_a_tiny_blondie24_2001_run_through_the_cluster_matches_a_local_run(cluster, tmp_path, ray_here, evoplay_here):
    """The 2001 setting in small (the spatial layer, the champion by the last parents' league), its
    generations' games and its league in 2 chunks: through the 2-node cluster as on one local worker."""
    outs = cluster_and_local(cluster, tmp_path, "blondie24-2001-tiny.toml", evoplay_here)
    assert outs[0] == outs[1]
    summary = outs[0]["summary.json"]
    assert summary["weights"] == 1319 and all(t["champion_rule"] == "league" for t in summary["per_trial"])


@pytest.mark.cluster
def test_nodes_of_different_machines_give_the_committed_bytes(cluster, tmp_path):
    """Two trials of a committed self-adaptive exact run, one per node (each node its own BLAS kernel)."""
    out = tmp_path / "sa"
    run = subprocess.run([sys.executable, "-m", "evoplay", "evolve", "configs/fogel-exact-sa-h30.toml", "--trials", "2",
                          "--generations", "4", "--out", str(out), "--quiet", "--address", cluster.address],
                         capture_output=True, text=True, cwd=ROOT, env=cluster.env, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    for trial in ("trial_00", "trial_01"):
        got = (out / "trials" / trial / "logbook.csv").read_text().splitlines()
        committed = (ROOT / "results/fogel-exact-sa-h30/trials" / trial / "logbook.csv").read_text().splitlines()
        assert len(got) == 5 and got == committed[:5], trial


@pytest.mark.cluster
def test_a_node_killed_mid_run_loses_no_work(cluster, tmp_path):
    doomed = cluster.add_node()
    pid_dir = tmp_path / "pids"
    pid_dir.mkdir()
    killed, stop = [], threading.Event()

    def kill_when_busy():
        # As soon as a task runs on the new node, kill that node: raylet, agents, workers.
        deadline = time.monotonic() + 120
        while not stop.is_set() and time.monotonic() < deadline:
            ours = set(cluster.processes(doomed))
            hits = [int(p.name) for p in pid_dir.iterdir() if int(p.name) in ours]
            if hits:
                cluster.kill_group(doomed)
                killed.extend(hits)
                return
            time.sleep(0.05)

    killer = threading.Thread(target=kill_when_busy, daemon=True)
    killer.start()
    try:
        out = drive(cluster, "slow", pid_dir, 9)
    finally:
        stop.set()
        killer.join()
    assert killed, "no task ran on the added node"
    assert cluster.processes(doomed) == []
    assert out["draws"] == [raycluster.draw(11, k) for k in range(9)]


@pytest.mark.cluster
def test_a_driver_with_the_wrong_token_gets_one_line(cluster, tmp_path):
    # Ray retries the GCS once a second, 20 times by default; 3 keeps this test short.
    env = {**cluster.env, "RAY_AUTH_TOKEN": "0" * 64, "RAY_gcs_server_port_wait_time_s": "3"}
    run = subprocess.run(
        [sys.executable, "-m", "evoplay", "evolve", "configs/quick.toml", "--address", cluster.address,
         "--out", str(tmp_path / "run"), "--quiet"],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=120,
    )
    assert run.returncode == 2, run.stderr[-3000:]
    # Ray's C++ client logs its failed attempts to stderr first; evoplay's verdict is
    # the last line, and no traceback.
    assert run.stderr.splitlines()[-1].startswith(
        f"evoplay: error: the Ray cluster at {cluster.address} refused this driver's authentication token: "
        "set RAY_AUTH_MODE=token")
    assert "Traceback" not in run.stderr


def test_cluster_manifests_are_valid_yaml():
    from ray.autoscaler._private.util import fillout_defaults, validate_config

    launcher = yaml.safe_load((CLUSTER_DIR / "cluster.yaml").read_text())
    validate_config(fillout_defaults(launcher))  # Ray's own schema, as `ray up` applies it
    assert launcher["provider"]["type"] == "aws"
    assert launcher["head_node_type"] in launcher["available_node_types"]
    assert "RAY_AUTH_MODE=token" in " ".join(launcher["head_start_ray_commands"])
    assert "RAY_AUTH_MODE=token" in " ".join(launcher["worker_start_ray_commands"])

    job = yaml.safe_load((CLUSTER_DIR / "rayjob.yaml").read_text())
    assert job["kind"] == "RayJob" and job["apiVersion"] == "ray.io/v1"
    assert job["spec"]["entrypoint"].startswith("evoplay evolve configs/fogel1993.toml")
    spec = job["spec"]["rayClusterSpec"]
    assert spec["headGroupSpec"]["template"]["spec"]["containers"] and spec["workerGroupSpecs"]


USER_GAME_DRIVER = """
import json, os, sys
from pathlib import Path
import evoplay
from evoplay.games import resolve_game
game_file, out, address = Path(sys.argv[1]), sys.argv[2], sys.argv[3] or None
ref = f"{game_file}:ConnectFour"
resolve_game(ref)          # the driver reads the file once ...
game_file.unlink()         # ... and then it is gone: every node gets its source with the job
cfg = {"recipe": "blondie24", "name": "c4-cluster", "seed": 5, "trials": 2, "generations": 2,
       "run": {"checkpoint_every": 1, "eval_chunks": 2},
       "game": {"name": ref, "depth": 1, "max_plies": 42}, "network": {"hidden": [3]},
       "population": {"parents": 2}, "evaluation": {"games": 1, "random_plies": 2},
       "yardstick": {"every": 2, "openings": 1, "mcts_sims": 5}}
kw = {"address": address} if address else {"workers": 1}
evoplay.run(cfg, out, **kw)
print(json.dumps({"ok": True}))
"""


@pytest.mark.cluster
def test_a_user_game_reaches_the_worker_node_with_the_job(cluster, tmp_path):
    """Blondie24 on the example Connect Four through the cluster: the game's file is deleted
    once the driver has read it, so the worker node can play it only from the shipped source;
    the results equal a local run's."""
    source = (ROOT / "examples" / "games" / "connect_four.py").read_text()
    local_env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    local_env["RAY_USAGE_STATS_ENABLED"] = "0"
    outs = []
    for name, address, env in (("cluster", cluster.address, cluster.env), ("local", "", local_env)):
        folder = tmp_path / f"{name}-code"
        folder.mkdir()
        (folder / "c4game.py").write_text(source)  # the same path's module name on every node
        run = subprocess.run([sys.executable, "-c", USER_GAME_DRIVER, str(folder / "c4game.py"), str(tmp_path / name), address],
                             capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
        assert run.returncode == 0, run.stderr[-3000:]
        assert not (folder / "c4game.py").exists()
        outs.append(results_of(tmp_path / name))
    assert "trials/trial_01/champion.json" in outs[0]
    strip = lambda files: {k: v for k, v in files.items() if k != "summary.json"}  # noqa: E731
    assert strip(outs[0]) != {} and len(json.loads((tmp_path / "cluster" / "environment.json").read_text())["ray"]["nodes"]) == 2
    for f in ("trials/trial_00/logbook.csv", "trials/trial_01/logbook.csv"):
        assert outs[0][f] == outs[1][f], f
