"""The driver process around Ray, without importing Ray: where it works, how it ends, what it joins.

``distributed.py`` is the one module that imports Ray; these are the driver's own
concerns beside it. ``code_folder`` is where it imports evoplay from, which its embedded
workers must import too; ``working_dir`` and ``stay_in`` keep a driver in its working
directory when Ray replaces that directory under a running job; ``stop_now`` ends the
process's own embedded Ray at once before a command line exits; ``host_port`` and
``probe_gcs`` check a cluster address, and that a Ray GCS answers there, within seconds
rather than after Ray's minutes of retrying; a ``Watchdog`` ends the embedded Ray of a
driver that was killed outright.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys

from evoplay.errors import EvoplayError

PROBE_TIMEOUT_S = 5.0

# The client connection preface of HTTP/2 (RFC 9113, section 3.4) and an empty SETTINGS
# frame. A gRPC server such as Ray's GCS answers with its own SETTINGS frame (type 4).
_H2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
_H2_SETTINGS = 4


def code_folder() -> str | None:
    """The folder this process imports evoplay from (a checkout's, say) when it is not this
    interpreter's site-packages, where the same interpreter's other processes find it anyway
    (and which, first on a PYTHONPATH, would come before the standard library); else None."""
    import site

    import evoplay

    folder = os.path.dirname(os.path.dirname(os.path.abspath(evoplay.__file__)))
    installed = {os.path.abspath(p) for p in (*site.getsitepackages(), site.getusersitepackages())}
    return None if folder in installed else folder


def working_dir() -> str:
    """This process's working directory, or its path when Ray already replaced it (see ``stay_in``)."""
    try:
        return os.getcwd()
    except FileNotFoundError:
        return os.environ.get("PWD", "")


def stay_in(directory: str):
    """Enter ``directory`` again if this process's working directory was replaced while Ray ran.

    A job submitted with ``--working-dir`` runs in Ray's copy of that directory, and Ray
    may extract the copy anew while the job runs (measured: two nodes on one machine share
    the session directory, and the second node's setup replaces it). The driver then sits
    in a deleted directory at the same path, where relative paths and anything that asks
    for the working directory (numba compiling a kernel does) fail; entering the path again
    puts it in the live copy. Elsewhere this costs one system call.
    """
    try:
        os.getcwd()
    except FileNotFoundError:
        if os.path.isdir(directory):
            os.chdir(directory)


def stop_now():
    """End this process's embedded Ray at once, before the process itself exits.

    For a command line that leaves with ``os._exit`` (every file written): Ray's graceful
    shutdown takes over a second, and without it the node's agents (DashboardAgent,
    RuntimeEnvAgent) outlive the driver until the ``Watchdog`` kills them (by a minute
    before there was one). This kills exactly the processes this one started (its
    descendants: GCS, raylet, agents, workers, the watchdog), nobody else's; a driver
    that joined a cluster has none, and the cluster keeps running.
    """
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    todo, mine = [os.getpid()], []
    while todo:
        for child in children.get(todo.pop(), []):
            mine.append(child)
            todo.append(child)
    for pid in mine:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


# The watchdog's own program (standard library only, started with ``python -I -S``): wait
# for a byte from the driver (stand down) or for the end of the pipe; once the driver is
# gone (the watchdog's parent changed: a pipe closed by mistake is no death), kill every
# process whose environment carries the session's mark, until none is left (a raylet
# killed in the same round may have started one more worker).
_WATCHDOG = r"""# evoplay: ends this driver's embedded Ray if the driver dies (driver.Watchdog)
import os, signal, sys, time
signal.signal(signal.SIGINT, signal.SIG_IGN)
if os.read(0, 1):
    sys.exit()
mark, driver, me, pause = sys.argv[1].encode(), int(sys.argv[2]), os.getpid(), 0.01
while os.getppid() == driver:
    time.sleep(pause)
    pause = min(2 * pause, 0.5)
for _ in range(100):
    found = False
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open("/proc/" + entry + "/environ", "rb") as f:
                if mark not in f.read().split(b"\0"):
                    continue
            os.kill(int(entry), signal.SIGKILL)
            found = True
        except OSError:
            pass
    if not found:
        break
    time.sleep(0.05)
"""

_held: list[int] = []  # write ends of live watchdogs' pipes, closed in forked children


def _forget_held():
    for fd in _held:
        try:
            os.close(fd)
        except OSError:
            pass
    _held.clear()


if hasattr(os, "register_at_fork"):
    # A child forked from the driver (multiprocessing's "fork") would otherwise hold the pipe
    # open, and the watchdog would wait for that child too.
    os.register_at_fork(after_in_child=_forget_held)

_standing_down: list[subprocess.Popen] = []  # watchdogs told to go, reaped once gone


class Watchdog:
    """Kills the processes of this driver's embedded Ray session if the driver dies without ending it.

    Ray fate-shares the processes the driver starts (GCS, raylet, monitors, dashboard) with
    it through the kernel (``PR_SET_PDEATHSIG``: they get SIGKILL with the driver), and the
    workers end as their raylet's connection closes; but the raylet's agents
    (ray::DashboardAgent, ray::RuntimeEnvAgent), its children, only notice that the raylet
    is gone and then, as it did not log a SIGTERM, report an "unexpected termination" to
    the GCS, which died in the same instant: a blocking call with a fixed 60 s timeout
    (Ray 2.60, ``process_watcher.report_raylet_error_logs`` ->
    ``utils.publish_error_to_driver``). Measured on the 2-core machine: after a SIGKILL of
    the driver (``evoplay evolve`` or a bare ``init_ray``) both agents lived 60-61 s, 6
    kills of 6; no Ray setting shortens that call (``RAY_gcs_rpc_server_reconnect_timeout_s=3``
    in their environment: 60 s still).

    The watchdog is a small process of its own (its own session, so that the terminal's
    Ctrl-C and hangup do not reach it) that reads a pipe whose write end only this
    process holds: the end of the pipe means this process died, however it died, and the
    watchdog then kills every process whose environment carries ``mark`` (``NAME=token``,
    for the environment the session's processes inherit, and so do the processes they
    start), nobody else's. Measured: every process of the session gone 0.06-0.12 s after
    the driver's SIGKILL, 5 kills of 5. ``stand_down`` (the session ended) lets it go
    without touching anything. Starting it costs the driver 0.4-0.6 ms (the watchdog boots
    while Ray starts; ``ray.init`` unchanged within its noise). Linux only (it reads
    /proc): elsewhere it does nothing.
    """

    NAME = "EVOPLAY_EMBEDDED_RAY"

    def __init__(self):
        self.mark = f"{self.NAME}={secrets.token_hex(8)}"
        self._fd: int | None = None
        self._process: subprocess.Popen | None = None
        _standing_down[:] = [p for p in _standing_down if p.poll() is None]
        if not sys.platform.startswith("linux") or not sys.executable:
            return
        try:
            read, write = os.pipe()
        except OSError:  # out of file descriptors: Ray starts all the same, unwatched
            return
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", _WATCHDOG, self.mark, str(os.getpid())],
                stdin=read, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError:
            os.close(write)
        else:
            self._fd = write
            _held.append(write)
        finally:
            os.close(read)

    def stand_down(self):
        """The session ended: let the watchdog exit without killing anything."""
        fd, self._fd = self._fd, None
        if fd not in _held:  # none, or forgotten by a forked child (the number may be reused)
            return
        _held.remove(fd)
        try:
            os.write(fd, b"x")
        except OSError:  # the watchdog is gone already
            pass
        os.close(fd)
        if self._process is not None and self._process.poll() is None:
            _standing_down.append(self._process)


def host_port(address: str) -> tuple[str, int]:
    """(host, port) of a cluster address ``HOST:PORT``; a one-line EvoplayError for anything else."""
    if address.startswith("ray://"):
        # Ray Client needs ray[client] (grpcio), which evoplay does not pin, and a run's
        # driver writes its run directory where it runs: use a cluster node or a job.
        raise EvoplayError(
            f"Ray Client addresses ({address}) are not supported: run evoplay on a cluster node "
            "with --address HEAD:6379, or submit it with `ray job submit`"
        )
    host, sep, port = address.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise EvoplayError(f"bad Ray address {address!r}: expected HOST:PORT, e.g. 10.0.0.1:6379")
    return host, int(port)


def probe_gcs(address: str):
    """Fail fast, with a one-line reason, unless a gRPC server listens at ``address``.

    Ray itself keeps retrying an address for minutes; a TCP connect and an HTTP/2
    handshake answer within ``PROBE_TIMEOUT_S``.
    """
    host, port = host_port(address)
    try:
        with socket.create_connection((host, port), timeout=PROBE_TIMEOUT_S) as s:
            if os.environ.get("RAY_USE_TLS", "0").lower() in ("1", "true"):
                return  # the GCS expects a TLS handshake first; connecting must do
            s.settimeout(PROBE_TIMEOUT_S)
            s.sendall(_H2_PREFACE)
            reply = s.recv(9)
    except socket.timeout:
        raise EvoplayError(f"no Ray cluster at {address}: no answer within {PROBE_TIMEOUT_S:g} s") from None
    except OSError as e:
        raise EvoplayError(f"no Ray cluster at {address}: {e.strerror or e}") from None
    if len(reply) < 4 or reply[3] != _H2_SETTINGS:
        raise EvoplayError(
            f"{address} is not a Ray cluster's GCS address (it does not speak gRPC); "
            "give the head's --port (6379 by default), not the dashboard's"
        )
