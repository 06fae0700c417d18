"""A driver killed outright (SIGKILL, the OOM killer) takes its embedded Ray session with it.

Ray fate-shares the processes the driver starts itself (GCS, raylet, monitors) with it,
and the workers follow the raylet, but the raylet's agents (ray::DashboardAgent,
ray::RuntimeEnvAgent) used to live on for 60 s (6 kills of 6): see
``distributed.init_ray`` and ``driver.Watchdog``.
"""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# A driver whose two workers stay busy until it is killed. time.sleep travels by reference.
DRIVER = """
import sys, time
from evoplay.framework import distributed
distributed.init_ray(workers=2)
print("up", flush=True)
distributed.run_tasks(time.sleep, [(120,), (120,)], max_retries=0)
"""

STARTUP_S = 60  # the driver's imports and ray.init take a few seconds; a loaded machine, more
GONE_WITHIN_S = 10


def _processes() -> dict[int, tuple[int, str, str, bytes]]:
    """{pid: (ppid, start time, command line, environment)} of the live (non-zombie) processes."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if fields[0] == "Z":
                continue
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
            with open(f"/proc/{entry}/environ", "rb") as f:
                environ = f.read()
        except (OSError, IndexError):
            continue
        found[int(entry)] = (int(fields[1]), fields[19], cmd, environ)
    return found


def _session(driver: int | None, marker: bytes, known: dict[int, str]) -> dict[int, str]:
    """{pid: command line} of the driver's session: its live descendants (while it runs), the processes
    ``known`` (pid: start time) that still run, and any whose environment holds ``marker``
    (Ray retitles its agents with setproctitle, which may clear their /proc/PID/environ)."""
    table = _processes()
    children: dict[int, list[int]] = {}
    for pid, (ppid, *_) in table.items():
        children.setdefault(ppid, []).append(pid)
    todo, found = [driver] if driver else [], set()
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    found |= {pid for pid, start in known.items() if pid in table and table[pid][1] == start}
    found |= {pid for pid, row in table.items() if marker in row[3].split(b"\0")}
    return {pid: table[pid][2] for pid in found if pid in table}


def test_a_killed_driver_leaves_no_ray_process_behind():
    name = f"EVOPLAY_TEST_KILLED_{os.getpid()}_{time.time_ns()}"
    marker = f"{name}=1".encode()
    # A Ray temp dir of its own (short: Ray's socket paths must fit in 107 bytes).
    temp = tempfile.mkdtemp(prefix="evk", dir="/tmp")
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    env.update({name: "1", "RAY_TMPDIR": temp, "RAY_USAGE_STATS_ENABLED": "0"})
    known: dict[int, str] = {}
    driver = subprocess.Popen([sys.executable, "-c", DRIVER], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + STARTUP_S
        while True:
            session = _session(driver.pid, marker, {})
            names = [cmd.split(" ")[0] for cmd in session.values()]
            if (names.count("ray::_call") == 2 and "ray::DashboardAgent" in names
                    and "ray::RuntimeEnvAgent" in names):
                break
            assert driver.poll() is None, driver.stdout.read().decode(errors="replace")[-3000:]
            assert time.monotonic() < deadline, f"Ray did not come up: {sorted(names)}"
            time.sleep(0.2)
        assert any("raylet" in cmd for cmd in session.values()), session
        assert any("gcs_server" in cmd for cmd in session.values()), session
        table = _processes()
        known = {pid: table[pid][1] for pid in session if pid in table}

        driver.kill()  # SIGKILL
        driver.wait()
        killed = time.monotonic()
        left = _session(None, marker, known)
        while left and time.monotonic() - killed < GONE_WITHIN_S:
            time.sleep(0.1)
            left = _session(None, marker, known)
        assert not left, f"alive {GONE_WITHIN_S} s after the driver's SIGKILL: {sorted(left.values())}"
    finally:
        if driver.poll() is None:
            driver.kill()
            driver.wait()
        driver.stdout.close()
        for pid in _session(None, marker, known):  # only the processes of this test's session
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        shutil.rmtree(temp, ignore_errors=True)
