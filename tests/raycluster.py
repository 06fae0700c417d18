"""Test helpers: a real multi-node Ray cluster on this machine, and task functions.

The cluster is a head and worker nodes started with ``ray start`` on 127.0.0.1, token
authentication on, in a temporary directory of its own. Each ``ray start`` runs in a new
session, so every process it leaves behind (GCS, raylets, agents, workers) carries its
process group id; teardown kills exactly those processes, never anyone else's Ray.

The task functions live here, at module level, so Ray workers can import them by name.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from evoplay.framework.distributed import node_of_current_task

TESTS = Path(__file__).resolve().parent
RAY = Path(sys.executable).parent / "ray"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalCluster:
    """Head plus worker nodes on 127.0.0.1; ``env`` is what a driver needs to join.

    ``ray`` is the ``ray`` executable that starts the nodes: its environment is the
    nodes' Python (its directory comes first on the nodes' PATH, as in an activated
    venv, so a job's ``python`` is that Python). ``dashboard=True`` (needs ``ray[default]``
    in that environment) starts the dashboard and jobs API on 127.0.0.1 at
    ``dashboard_url``; every agent port is then chosen free, not Ray's fixed defaults,
    so the cluster does not collide with another on the machine.
    """

    def __init__(self, cpus_per_node: int = 1, ray: Path = RAY, dashboard: bool = False, node_envs=()):
        # Short path: Ray's unix sockets live under it and their names are length-limited.
        self.root = Path(tempfile.mkdtemp(prefix="evray-", dir="/tmp"))
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.cpus_per_node = cpus_per_node
        self.ray = Path(ray)
        self.dashboard_port = free_port() if dashboard else None
        self.dashboard_url = f"http://127.0.0.1:{self.dashboard_port}" if dashboard else None
        self.groups: list[int] = []
        #: Extra environment of the n-th node started (head first): say, another BLAS kernel.
        self.node_envs = list(node_envs)
        env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
        env["PATH"] = os.pathsep.join(filter(None, [str(self.ray.parent), env.get("PATH")]))
        self.env = {
            **env,
            "RAY_USAGE_STATS_ENABLED": "0",
            "RAY_AUTH_MODE": "token",
            "RAY_AUTH_TOKEN": secrets.token_hex(32),
            # Notice a killed node within about two seconds instead of fifteen.
            "RAY_health_check_period_ms": "500",
            "RAY_health_check_timeout_ms": "500",
            "RAY_health_check_failure_threshold": "3",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(TESTS), env.get("PYTHONPATH")])),
        }

    def _ray_start(self, *args) -> int:
        log = self.root / f"ray-start-{len(self.groups)}.log"
        cmd = [
            str(self.ray), "start", *args,
            "--node-ip-address=127.0.0.1",
            f"--num-cpus={self.cpus_per_node}",
            f"--temp-dir={self.root / 'ray'}",
            "--object-store-memory=100000000",
            "--disable-usage-stats",
        ]
        if self.dashboard_port:
            cmd += [f"--{name}={free_port()}" for name in (
                "dashboard-agent-listen-port", "dashboard-agent-grpc-port", "runtime-env-agent-port",
                "metrics-export-port")]
        node_env = self.node_envs[len(self.groups)] if len(self.groups) < len(self.node_envs) else {}
        with open(log, "w") as out:
            proc = subprocess.Popen(cmd, env={**self.env, **node_env}, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        self.groups.append(proc.pid)
        if proc.wait(timeout=120) != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed:\n{log.read_text()[-3000:]}")
        return proc.pid

    def start_head(self):
        if not self.dashboard_port:
            return self._ray_start("--head", f"--port={self.port}", "--include-dashboard=false")
        return self._ray_start(
            "--head", f"--port={self.port}", "--include-dashboard=true", "--dashboard-host=127.0.0.1",
            f"--dashboard-port={self.dashboard_port}", f"--ray-client-server-port={free_port()}",
        )

    def add_node(self) -> int:
        """Start a worker node; returns its process group id (for ``kill_group``)."""
        return self._ray_start(f"--address={self.address}")

    def processes(self, group: int | None = None) -> list[int]:
        """Our live processes: those in our process groups (or naming our temp dir on
        their command line) and their descendants (Ray workers start sessions of their own)."""
        groups = set(self.groups) if group is None else {group}
        mark = str(self.root).encode()
        table = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                state, ppid, pgrp = (entry / "stat").read_text().rsplit(")", 1)[1].split()[:3]
                cmdline = (entry / "cmdline").read_bytes()
            except (OSError, ValueError):
                continue
            if state != "Z":
                table.append((int(entry.name), int(ppid), int(pgrp), cmdline))
        ours = {pid for pid, _, pgrp, cmd in table if pgrp in groups or (group is None and mark in cmd)}
        grew = True
        while grew:
            grew = False
            for pid, ppid, _, _ in table:
                if ppid in ours and pid not in ours:
                    ours.add(pid)
                    grew = True
        return sorted(ours)

    def kill_group(self, group: int, sig=signal.SIGKILL):
        """Kill one ``ray start``'s processes (a node), workers included."""
        for pid in self.processes(group):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass

    def stop(self):
        """Terminate every process this cluster started, then remove its directory."""
        for sig, grace in ((signal.SIGTERM, 3.0), (signal.SIGKILL, 3.0)):
            for pid in self.processes():
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    pass
            deadline = time.monotonic() + grace
            while self.processes() and time.monotonic() < deadline:
                time.sleep(0.1)
        left = self.processes()
        shutil.rmtree(self.root, ignore_errors=True)
        if left:
            raise RuntimeError(f"Ray processes survived teardown: {left}")


@contextmanager
def local_cluster(nodes: int = 2, cpus_per_node: int = 1, ray: Path = RAY, dashboard: bool = False, node_envs=()):
    """A running cluster of ``nodes`` nodes (head included); torn down however the body ends.

    ``node_envs``: extra environment variables of each node in turn, head first."""
    cluster = LocalCluster(cpus_per_node, ray=ray, dashboard=dashboard, node_envs=node_envs)
    try:
        cluster.start_head()
        for _ in range(nodes - 1):
            cluster.add_node()
        yield cluster
    finally:
        cluster.stop()


# ---- task functions (pure given their arguments) -------------------------------------


def draw(seed: int, key: int) -> list[float]:
    """Three normal draws from a stream keyed by (seed, key), as a worker would make them."""
    return np.random.default_rng(np.random.SeedSequence([seed, key])).normal(size=3).tolist()


def busy(seconds: float) -> float:
    """Spend about ``seconds`` of this process's CPU (not sleeping); the CPU seconds it spent."""
    start = time.process_time()
    while time.process_time() - start < seconds:
        sum(range(1000))
    return time.process_time() - start


def sleepy_node(seconds: float) -> str:
    """Sleep, then name the node this ran on (slow enough that queued tasks spread out)."""
    time.sleep(seconds)
    return node_of_current_task()


def die_once_then_draw(pid_dir: str, seed: int, key: int) -> list[float]:
    """Until some attempt has announced itself in ``pid_dir``, announce this worker's pid
    and wait there to be killed; afterwards behave exactly like ``draw``."""
    pid_dir = Path(pid_dir)
    if not any(pid_dir.glob("sleep-*")):
        (pid_dir / f"sleep-{os.getpid()}").write_text("")
        time.sleep(60)
    return draw(seed, key)


def slow_draw(pid_dir: str, seed: int, key: int) -> list[float]:
    """Record this worker's pid, take a second, then ``draw``."""
    (Path(pid_dir) / str(os.getpid())).write_text("")
    time.sleep(1.0)
    return draw(seed, key)


def wait_for_file(path: str, value: int) -> int:
    """Return ``value`` once ``path`` exists (the driver creates it from on_result)."""
    deadline = time.monotonic() + 30
    while not os.path.exists(path):
        if time.monotonic() > deadline:
            raise TimeoutError(f"{path} never appeared")
        time.sleep(0.02)
    return value


def announce_and_wait(started: str, path: str, value: int) -> int:
    """Create ``started`` (the task has begun), then return ``value`` once ``path`` exists."""
    Path(started).write_text("")
    return wait_for_file(path, value)


def count_and_fail(pid_dir: str, error: str):
    """Record the attempt, then raise: user errors must not be retried."""
    (Path(pid_dir) / f"{os.getpid()}-{time.monotonic_ns()}").write_text("")
    from evoplay.errors import EvoplayError

    raise {"value": ValueError, "evoplay": EvoplayError}[error](f"bad input {error}")


# ---- drivers: run as separate processes joining the cluster --------------------------


def driver(argv: list[str]):
    """``python -c 'import raycluster; raycluster.driver(sys.argv[1:])' WHAT ADDRESS ...``

    Joins the cluster at ADDRESS through ``init_ray`` and prints one JSON object.
    """
    import json

    from evoplay.framework import distributed

    what, address, *rest = argv
    info = distributed.init_ray(address=address)
    if what == "spread":
        out = {
            "info": info,
            "task_nodes": distributed.run_tasks(sleepy_node, [(0.5,)] * 6),
            "map_nodes": distributed.RayMap(chunk_size=1)(sleepy_node, [0.5] * 6),
            "draws": distributed.RayMap(chunk_size=3)(draw, [11] * 10, range(10)),
        }
    elif what == "slow":
        pid_dir, n = rest[0], int(rest[1])
        out = {"draws": distributed.run_tasks(slow_draw, [(pid_dir, 11, k) for k in range(n)])}
    else:
        raise SystemExit(f"unknown driver {what}")
    distributed.shutdown_ray()
    print(json.dumps(out))
