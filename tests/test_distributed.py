"""evoplay.framework.distributed on a real embedded Ray session (2 CPUs): ordering, streaming,
chunked map, retries after a killed worker; and the driver beside it (driver.py): a bad
cluster address, a replaced working directory."""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import raycluster
from support.nowork import EVOPLAY_WITHOUT_RAY
from evoplay.framework import distributed
from evoplay.errors import EvoplayError

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def ray_session(ray_here):
    """conftest's embedded session (2 CPUs; its workers import tests/raycluster.py's task functions by name)."""
    return ray_here


def test_work_on_ray_leaves_a_session_it_found_open(ray_session):
    """``distributed.ray_session`` (report --league/--depths, train --workers) uses a session
    open in this process and leaves it open: a caller's session is the caller's to close
    (before, ``report`` shut down the session of a program that ran it in its process)."""
    import ray

    with distributed.ray_session(workers=1) as info:
        assert info["address"] == ray_session["address"] and info["cpus"] == ray_session["cpus"] == 2
    assert ray.is_initialized() and ray.get_runtime_context().gcs_address == ray_session["address"]


def test_run_tasks_returns_input_order_and_streams_results(ray_session, tmp_path):
    release = tmp_path / "release"
    # Task 0 waits until the driver has received task 1's result: on_result must be
    # called while other tasks are still running, not after all have finished.
    present = tmp_path / "present"
    present.touch()
    args = [(str(release), 100), (str(present), 101)]
    seen = []

    def on_result(i, result):
        seen.append((i, result))
        if i == 1:
            release.touch()

    assert distributed.run_tasks(raycluster.wait_for_file, args, on_result=on_result) == [100, 101]
    assert seen == [(1, 101), (0, 100)]


def test_run_tasks_of_nothing_and_on_the_one_node(ray_session):
    assert distributed.run_tasks(raycluster.draw, []) == []
    nodes = distributed.run_tasks(distributed.node_of_current_task, [()] * 4)
    assert set(nodes) == {ray_session["nodes"][0]["node_id"]}


@pytest.mark.parametrize("chunk_size", [None, 1, 3, 7, 10, 100])
def test_raymap_equals_builtin_map(ray_session, chunk_size):
    keys = range(10)
    expected = list(map(raycluster.draw, [5] * 10, keys))
    assert distributed.RayMap(chunk_size)(raycluster.draw, [5] * 10, keys) == expected
    assert distributed.RayMap(chunk_size, inline_first=True)(raycluster.draw, [5] * 10, keys) == expected
    assert distributed.RayMap(chunk_size)(abs, []) == []


def test_raymap_counts_the_cpu_its_chunk_tasks_spent(ray_session):
    """A chunked segment's cost counts the CPU of the chunks it sent to other workers, not only
    its own (a chunked run's costs.json once counted half its CPU): the inline chunk is the
    caller's, the others are summed in ``task_cpu_seconds``."""
    rmap = distributed.RayMap(chunk_size=1, inline_first=True)
    spent = rmap(raycluster.busy, [0.3] * 3)
    assert rmap.task_cpu_seconds == pytest.approx(sum(spent[1:]), rel=0.2) and rmap.task_cpu_seconds >= 0.55
    rmap(raycluster.busy, [0.3] * 2)
    assert rmap.task_cpu_seconds >= 0.85  # summed over calls: a segment's generations


def test_run_chains_with_a_window_starts_the_next_chain_only_when_one_ends(ray_session, tmp_path):
    # Two free CPUs, a window of one: chain 1 could run beside chain 0, but must not
    # start before chain 0 has ended (its two tasks); chains then start in list order.
    release = tmp_path / "release"
    present = tmp_path / "present"
    present.touch()
    args = [(str(tmp_path / f"started-{i}"), str(release if i == 0 else present), i) for i in range(3)]
    landed = []

    def follow(i, result):
        landed.append(result)
        if i == 0 and result == 0:  # chain 0's second task waits for nothing
            return (str(tmp_path / "started-0b"), str(present), 10)
        return None

    runner = threading.Thread(target=distributed.run_chains, args=(raycluster.announce_and_wait, args, follow), kwargs={"window": 1})
    runner.start()
    deadline = time.monotonic() + 60
    while not (tmp_path / "started-0").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(1.5)  # long enough for a free CPU to start chain 1, were it allowed
    assert not (tmp_path / "started-1").exists()
    release.touch()
    runner.join(60)
    assert not runner.is_alive()
    assert landed == [0, 10, 1, 2]


def test_raymap_rejects_a_chunk_size_below_one():
    with pytest.raises(ValueError):
        distributed.RayMap(0)


def _kill_sleepers(pid_dirs, stop, killed):
    """Kill (SIGKILL) every worker that announces itself as waiting to be killed."""
    while not stop.is_set():
        for d in pid_dirs:
            for f in d.glob("sleep-*"):
                pid = int(f.name.split("-")[1])
                if pid not in killed:
                    os.kill(pid, signal.SIGKILL)
                    killed.add(pid)
        time.sleep(0.05)


@pytest.mark.parametrize("via", ["run_tasks", "RayMap"])
def test_a_killed_worker_is_retried_and_the_result_is_unchanged(ray_session, tmp_path, via):
    pid_dirs = [tmp_path / str(k) for k in range(3)]
    for d in pid_dirs:
        d.mkdir()
    stop, killed = threading.Event(), set()
    killer = threading.Thread(target=_kill_sleepers, args=(pid_dirs, stop, killed), daemon=True)
    killer.start()
    try:
        args = [(str(d), 9, k) for k, d in enumerate(pid_dirs)]
        if via == "run_tasks":
            got = distributed.run_tasks(raycluster.die_once_then_draw, args)
        else:
            got = distributed.RayMap(chunk_size=2)(raycluster.die_once_then_draw, *zip(*args))
    finally:
        stop.set()
        killer.join()
    assert got == [raycluster.draw(9, k) for k in range(3)]
    assert len(killed) >= 2  # one first attempt per task (run_tasks) or per chunk (RayMap)
    assert all(not _alive(pid) for pid in killed)


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.parametrize("error, raised", [("value", ValueError), ("evoplay", EvoplayError)])
def test_an_exception_in_the_function_propagates_unretried(ray_session, tmp_path, error, raised):
    with pytest.raises(raised, match=f"bad input {error}") as info:
        distributed.run_tasks(raycluster.count_and_fail, [(str(tmp_path), error)], max_retries=3)
    assert len(list(tmp_path.iterdir())) == 1
    if raised is EvoplayError:
        assert type(info.value) is EvoplayError and str(info.value) == "bad input evoplay"


BAD_ADDRESSES = """
import json, sys, time
from evoplay.framework import distributed
from evoplay.errors import EvoplayError
out = []
for address in sys.argv[1:]:
    t = time.monotonic()
    try:
        distributed.init_ray(address=address)
        out.append([address, "joined", 0])
    except EvoplayError as e:
        out.append([address, str(e), time.monotonic() - t])
print(json.dumps(out))
"""


def test_a_bad_address_fails_fast_with_one_line(tmp_path):
    free = raycluster.free_port()
    silent = socket.socket()  # accepts connections, never answers
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    http = subprocess.Popen(
        [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(web := raycluster.free_port())],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path,
    )
    try:
        _wait_listening(web)
        addresses = [f"127.0.0.1:{free}", f"127.0.0.1:{silent.getsockname()[1]}", f"127.0.0.1:{web}", "head-node",
                     "ray://127.0.0.1:10001"]
        env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
        t = time.monotonic()
        run = subprocess.run([sys.executable, "-c", BAD_ADDRESSES, *addresses],
                             capture_output=True, text=True, env=env, timeout=60)
        assert time.monotonic() - t < 30, run.stderr
    finally:
        http.kill()
        http.wait()
        silent.close()
    assert run.returncode == 0, run.stderr
    results = json.loads(run.stdout)
    messages = {a: m for a, m, _ in results}
    assert "Connection refused" in messages[addresses[0]]
    assert "no answer within 5 s" in messages[addresses[1]]
    assert "does not speak gRPC" in messages[addresses[2]]
    assert "expected HOST:PORT" in messages["head-node"]
    assert "Ray Client addresses" in messages["ray://127.0.0.1:10001"]
    for address, message, seconds in results:
        assert "\n" not in message and address in message and seconds < 10


def test_the_cli_reports_a_bad_address_in_one_line(tmp_path):
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    env.pop("RAY_ADDRESS", None)
    address = f"127.0.0.1:{raycluster.free_port()}"
    # A process whose ray.init ends it (exit 97): refused only after Ray's own attempts to join fails here.
    run = subprocess.run(
        [*EVOPLAY_WITHOUT_RAY, "evolve", "configs/quick.toml", "--address", address,
         "--out", str(tmp_path / "run"), "--quiet"],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=60,
    )
    assert run.returncode == 2, run.stderr
    assert run.stderr == f"evoplay: error: no Ray cluster at {address}: Connection refused\n"
    assert not (tmp_path / "run").exists()


def _wait_listening(port, timeout=10):
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def test_a_driver_whose_working_directory_was_extracted_anew_enters_it_again(tmp_path):
    """Ray may replace a job's working directory while the job runs (the job-submit test's two nodes on one machine do)."""
    from evoplay.framework.driver import stay_in

    here = os.getcwd()
    work = tmp_path / "working_dir"
    work.mkdir()
    try:
        os.chdir(work)
        work.rmdir()
        work.mkdir()  # the same path, a new directory
        with pytest.raises(FileNotFoundError):
            os.getcwd()
        stay_in(str(work))
        assert os.getcwd() == str(work)
    finally:
        os.chdir(here)


def test_a_driver_already_in_a_replaced_directory_finds_it_by_its_path(tmp_path, monkeypatch):
    """The directory may be replaced before the run starts: its path comes from PWD, as the shell set it."""
    from evoplay.framework.driver import stay_in, working_dir

    here = os.getcwd()
    work = tmp_path / "working_dir"
    work.mkdir()
    monkeypatch.setenv("PWD", str(work))
    try:
        os.chdir(work)
        work.rmdir()
        work.mkdir()
        start = working_dir()
        assert start == str(work)
        stay_in(start)
        assert os.getcwd() == str(work)
    finally:
        os.chdir(here)


def test_a_second_embedded_start_in_one_process_spills_into_its_own_session(tmp_path):
    # Ray writes the session's spilling directory into the system config it is handed;
    # a shared dict carried the first session's directory into the second start, which
    # then spilled there and warned about "an unstable API".
    script = (
        "import json, ray\n"
        "from evoplay.framework import distributed\n"
        "for _ in range(2):\n"
        "    distributed.init_ray(workers=1)\n"
        "    node = ray._private.worker.global_worker.node\n"
        "    spill = json.loads(node._config['object_spilling_config'])['params']['directory_path']\n"
        "    print(json.dumps([spill, node.get_session_dir_path()]))\n"
        "    distributed.shutdown_ray()\n"
    )
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    starts = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(starts) == 2 and starts[0][1] != starts[1][1]
    assert all(spill == session for spill, session in starts)
    assert "object spilling config" not in done.stderr


WHOSE_EVOPLAY = """
import json, ray, evoplay
from evoplay.framework import distributed
distributed.init_ray(workers=1)
print(json.dumps([evoplay.__file__, ray.get(ray.remote(lambda: __import__("evoplay").__file__).remote())]))
distributed.shutdown_ray()
"""


def test_embedded_workers_run_the_evoplay_the_driver_runs_not_the_installed_one(tmp_path):
    """A driver run from another copy of evoplay (a second checkout's `python -m evoplay`):
    its embedded Ray's workers import that copy too, not the installed one beside it (the
    workers import the framework as they boot, before the driver's job reaches them)."""
    shutil.copytree(ROOT / "evoplay", tmp_path / "evoplay", ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if k not in ("RAY_ADDRESS", "PYTHONPATH")}
    run = subprocess.run([sys.executable, "-c", WHOSE_EVOPLAY], cwd=tmp_path, capture_output=True, text=True,
                         env={**env, "RAY_USAGE_STATS_ENABLED": "0"}, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    driver, worker = json.loads(run.stdout.strip().splitlines()[-1])
    assert driver == str(tmp_path / "evoplay" / "__init__.py")
    assert worker == driver


def test_the_workers_are_given_no_folder_when_evoplay_is_this_interpreters_installed_one(monkeypatch):
    """An evoplay in site-packages is what the same interpreter's workers import anyway; put
    first on their PYTHONPATH it would come before the standard library."""
    import site

    from evoplay.framework import driver

    assert driver.code_folder() == str(ROOT)  # this checkout, installed editable: a folder of its own
    monkeypatch.setattr(site, "getsitepackages", lambda: [str(ROOT)])
    assert driver.code_folder() is None
