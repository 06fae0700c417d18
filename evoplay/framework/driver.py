"""The driver process around Ray, without importing Ray: where it works, how it ends, what it joins.

``distributed.py`` is the one module that imports Ray; these are the driver's own
concerns beside it. ``code_folder`` is where it imports evoplay from, which its embedded
workers must import too; ``working_dir`` and ``stay_in`` keep a driver in its working
directory when Ray replaces that directory under a running job; ``stop_now`` ends the
process's own embedded Ray at once before a command line exits; ``host_port`` and
``probe_gcs`` check a cluster address, and that a Ray GCS answers there, within seconds
rather than after Ray's minutes of retrying.
"""

from __future__ import annotations

import os
import signal
import socket

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
    RuntimeEnvAgent) outlive the driver by a minute or two. This kills exactly the
    processes this one started (its descendants: GCS, raylet, agents, workers), nobody
    else's; a driver that joined a cluster has none, and the cluster keeps running.
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
