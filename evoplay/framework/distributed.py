"""Ray, in one place: start or join a cluster, run trials as tasks, map over chunks.

Every other module receives plain callables (``run_tasks``, a ``RayMap`` instance) and
never imports Ray; what the driver process needs beside Ray (its working directory, its
exit, an address probed before joining) is in ``driver.py``, which imports no Ray. The
functions handed to Ray are pure given their arguments, so the only thing this module
has to guarantee for reproducibility is ordering: results come back in input order
whatever ran where, whenever, and however often a task was retried.

Per-task overhead, measured on the 2-core development machine with embedded Ray 2.60:
about 1 ms per task when many are in flight and 2 ms for a lone round trip; a 1 MB
argument costs about 50 ms per task when sent by value and 3.5 ms when put in the
object store once. Hence ``RayMap`` puts its function in the object store once per call
and, by default, cuts the items into two chunks per cluster CPU: enough to balance load
across CPUs, few enough that a map call costs a handful of task overheads in total
(about 8 ms for 100 trivial items on 2 CPUs, against 110 ms with one task per item).
Splitting work is therefore worth it only when a call's work is well above that.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import secrets
import time

import ray

from evoplay.errors import EvoplayError
from evoplay.framework import driver

CHUNKS_PER_CPU = 2


def _embedded_system_config() -> dict:
    """Ray's system settings for an embedded cluster (measured on the 2-core machine, Ray 2.60).

    - The raylet tries its own object store, which a thread of the same process is
      starting, every 50 ms (200 tries: Ray's own 10 s of patience). Ray waits 1,000 ms
      after a first try that comes too early; the node then registers a second later and
      the driver, looking for it once a second, finds it a second later: ``ray.init`` took
      3.0 s instead of 2.0 s in 8 of 12 starts (12 of 12 in 1.9-2.1 s after).
    - The raylet starts its workers as it starts (``enable_worker_prestart``), not once
      the driver has connected, so they boot while the driver waits for the node:
      ``ray.init`` 2.06-2.10 s -> 1.73-1.75 s.
    - They import ``evoplay.framework.preload`` before taking work (the framework, numba's
      compiler context): a worker's first Fogel segment 0.37 -> 0.20 s.

    A new dict for each start: Ray writes its session's spilling directory into the one it
    is given, and a later start handed that dict would spill into a finished session's.
    """
    return {
        "raylet_client_connect_timeout_milliseconds": 50,
        "raylet_client_num_connect_attempts": 200,
        "enable_worker_prestart": True,
        "preload_python_modules": ["evoplay.framework.preload"],
    }


def init_ray(address: str | None = None, workers: int | None = None) -> dict:
    """Start embedded Ray on this machine, or join the cluster at ``address``.

    ``address`` defaults to ``RAY_ADDRESS``; without either, Ray starts here (always a new
    local instance, whatever clusters ``ray start`` left on the machine) with ``workers``
    CPUs (default: the CPUs Ray detects, container limits included). ``workers`` only
    sizes embedded Ray: a cluster has the CPUs its nodes brought. A Ray session already
    open in this process (or this being a Ray worker) is reused as it is. Worker output
    (prints, logs) is shown in the driver. Should this process die without ending
    embedded Ray (SIGKILL, the OOM killer), a watchdog kills what remains of it within a
    fraction of a second (``driver.Watchdog``). Returns ``describe_cluster()``.
    """
    global _watchdog
    if ray.is_initialized():
        return describe_cluster()
    address = address or os.environ.get("RAY_ADDRESS") or None
    if address and address.startswith(("http://", "https://")):
        where = f"RAY_ADDRESS={address}" if address == os.environ.get("RAY_ADDRESS") else f"--address {address}"
        raise EvoplayError(
            f"{where} is the Ray jobs API's URL, not a cluster address: give the head's GCS address, HOST:6379 "
            "(the URL is for `ray job submit`, through RAY_API_SERVER_ADDRESS)"
        )
    if address in (None, "local"):
        # Token authentication needs a token; without one Ray 2.60 writes ~/.ray/auth_token
        # readable by everyone. An embedded cluster is this process's own: a fresh token
        # in the environment (inherited by its processes) leaves no file behind.
        if not (os.environ.get("RAY_AUTH_TOKEN") or os.environ.get("RAY_AUTH_TOKEN_PATH")
                or os.path.exists(os.path.expanduser("~/.ray/auth_token"))):
            os.environ["RAY_AUTH_TOKEN"] = secrets.token_hex(32)
        # Ray 2.60 turns token authentication on for a local cluster and warns about
        # it on every start; the warning is noise for embedded use.
        auth_log = logging.getLogger("ray._private.authentication.authentication_token_setup")
        level = auth_log.level
        auth_log.setLevel(logging.ERROR)
        # The workers import evoplay as they boot (``preload_python_modules``), before this
        # job's sys.path reaches them: from this process's own copy, first on the PYTHONPATH
        # they inherit, not from an evoplay installed beside it (a second checkout's
        # ``python -m evoplay`` would otherwise run the installed code in its tasks).
        folder, saved_path = driver.code_folder(), os.environ.get("PYTHONPATH")
        if folder:
            os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [folder, saved_path]))
        # Every process of the session inherits the watchdog's mark (the workers and agents
        # through the raylet): should this process die without ending the session, the
        # watchdog kills them (``driver.Watchdog``: Ray left its agents for 60 s). SPT_NOENV
        # keeps the mark readable in the agents' /proc/PID/environ: Ray retitles them with
        # setproctitle, which otherwise clears the part of the environment block it takes
        # over (Ray sets SPT_NOENV for its workers only, ray-project/ray#15061); a mark was
        # unreadable in both agents of 2 sessions of 6.
        _stand_down_watchdog()  # a session ended by ray.shutdown() itself
        _watchdog = driver.Watchdog()
        mark_name, mark_token = _watchdog.mark.split("=", 1)
        marked = {mark_name: mark_token, "SPT_NOENV": os.environ.get("SPT_NOENV") or "1"}
        saved_marked = {name: os.environ.get(name) for name in marked}
        os.environ.update(marked)
        try:
            ray.init(
                address="local",
                num_cpus=workers,
                include_dashboard=False,
                logging_level=logging.WARNING,
                log_to_driver=True,
                _system_config=_embedded_system_config(),
            )
        except Exception as e:  # a Ray that cannot start here: say so in one line
            raise EvoplayError(f"cannot start Ray on this machine: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from e
        finally:
            for name, value in saved_marked.items():
                if value is None:
                    del os.environ[name]
                else:
                    os.environ[name] = value
            auth_log.setLevel(level)
            if folder and saved_path is None:
                del os.environ["PYTHONPATH"]
            elif folder:
                os.environ["PYTHONPATH"] = saved_path
    else:
        if address != "auto":
            driver.probe_gcs(address)
        try:
            ray.init(address=address, logging_level=logging.WARNING, log_to_driver=True)
        except (ConnectionError, RuntimeError) as e:
            raise EvoplayError(_join_failure(address, e)) from e
    return describe_cluster()


def shutdown_ray():
    """Disconnect from Ray; embedded Ray stops with it."""
    if ray.is_initialized():
        ray.shutdown()
    _stand_down_watchdog()


_watchdog: driver.Watchdog | None = None  # the embedded session's, while it runs


def _stand_down_watchdog():
    global _watchdog
    if _watchdog is not None:
        _watchdog.stand_down()
        _watchdog = None


@contextlib.contextmanager
def ray_session(address: str | None = None, workers: int | None = None):
    """Ray for one piece of work (``init_ray``'s description): started or joined here and
    closed after it, unless this process had a session open already, which it uses and
    leaves open (a caller's session is the caller's to close)."""
    had_one = ray.is_initialized()
    info = init_ray(address, workers)
    try:
        yield info
    finally:
        if not had_one:
            shutdown_ray()


def describe_cluster() -> dict:
    """The run environment: Ray version, GCS address, live nodes and their CPUs."""
    nodes = [
        {"node_id": n["NodeID"], "ip": n["NodeManagerAddress"], "cpus": _count(n["Resources"].get("CPU", 0))}
        for n in ray.nodes()
        if n["Alive"]
    ]
    return {
        "ray_version": ray.__version__,
        "address": ray.get_runtime_context().gcs_address,
        "nodes": nodes,
        "cpus": sum(n["cpus"] for n in nodes),
    }


def node_of_current_task() -> str:
    """The Ray node id (hex) of the process calling it, e.g. from inside a task."""
    return ray.get_runtime_context().get_node_id()


def run_chains(fn, args_list, follow, max_retries: int = 3, window: int | None = None) -> None:
    """Run chains of dependent Ray tasks, one chain per tuple in ``args_list``.

    Each chain starts with ``fn(*args)``; when a task finishes, ``follow(index, result)``
    is called (completion order) and returns the arguments of the chain's next task, or
    None to end it. Chains never wait for each other. With a ``window``, at most that many
    chains are under way at once and the others start in list order as chains end, so
    chains finish in about the order given (a long study on a few CPUs has whole trials
    early, not every trial half done); without one, every chain starts at once. A task
    whose worker process or node dies is resubmitted up to ``max_retries`` times; an
    exception raised by ``fn`` is not retried: the tasks in flight finish (their chains go
    no further) and the exception propagates (an EvoplayError as itself, so the command
    line can print its one line).
    """
    _ensure_ray()
    fn_ref = _by_value(fn)
    task = _call.options(max_retries=max_retries, retry_exceptions=False)
    waiting = list(enumerate(args_list))[::-1]  # popped from the end: list order
    chain_of = {}

    def start_more():
        while waiting and (window is None or len(chain_of) < window):
            i, args = waiting.pop()
            chain_of[task.remote(fn_ref, tuple(args))] = i

    start_more()
    try:
        while chain_of:
            done, _ = ray.wait(list(chain_of), num_returns=1)
            for ref in done:
                i = chain_of.pop(ref)
                following = follow(i, _get(ref))
                if following is not None:
                    chain_of[task.remote(fn_ref, tuple(following))] = i
            start_more()
    except Exception:
        _settle(list(chain_of))
        raise


def run_tasks(fn, args_list, on_result=None, max_retries: int = 3) -> list:
    """Run ``fn(*args)`` for every tuple in ``args_list`` as independent Ray tasks.

    ``on_result(index, result)`` is called as each task finishes (completion order);
    the return value lists the results in input order. Retries and errors as in
    ``run_chains`` (these are chains of one task).
    """
    results = [None] * len(args_list)

    def landed(i, result):
        results[i] = result
        if on_result is not None:
            on_result(i, result)

    run_chains(fn, args_list, landed, max_retries=max_retries)
    return results


class RayMap:
    """A drop-in for ``map`` (DEAP's ``toolbox.map`` seam) that runs chunks as Ray tasks.

    Use it where DEAP's documentation uses ``multiprocessing.Pool.map`` or SCOOP:

    ```python
    from deap import algorithms, base
    import evoplay

    toolbox = base.Toolbox()
    ...                                   # register evaluate, mate, mutate, select
    toolbox.register("map", evoplay.RayMap())
    algorithms.eaSimple(population, toolbox, cxpb=0.5, mutpb=0.2, ngen=40)
    ```

    Ray starts embedded on first use unless ``evoplay.init_ray`` (or ``ray.init``) was
    called first. The items are cut into consecutive chunks of ``chunk_size`` (default:
    two chunks per cluster CPU); each chunk is one task that applies ``fn`` to its items
    in order, and the results come back in input order, so the outcome is that of the
    builtin ``map`` (as a list) whatever ran where. A chunk whose worker process or node
    dies is retried (``max_retries``). An exception raised by ``fn`` lets the other
    chunks finish and is re-raised once, as its own type, with the worker's traceback attached
    as a note. Prints and logs of ``fn`` on the workers appear in the driver's output.
    Functions and classes of user modules (scripts, files named in configs) travel by
    value, so workers need no copy of them.

    With ``inline_first`` the calling process works through the first chunk itself while
    the others run as tasks: used from inside a Ray task, it keeps its own CPU busy
    instead of blocking on it, and needs one worker fewer.
    """

    def __init__(self, chunk_size: int | None = None, max_retries: int = 3, inline_first: bool = False):
        if chunk_size is not None and chunk_size < 1:
            raise ValueError(f"chunk_size must be at least 1, got {chunk_size}")
        self.chunk_size = chunk_size
        self.max_retries = max_retries
        self.inline_first = inline_first
        #: CPU seconds the chunk tasks of this map's calls spent in their workers (not the caller's own).
        self.task_cpu_seconds = 0.0

    def __call__(self, fn, *iterables) -> list:
        items = list(zip(*iterables))
        if not items:
            return []
        _ensure_ray()
        size = self.chunk_size or math.ceil(len(items) / (CHUNKS_PER_CPU * _cluster_cpus()))
        chunks = [items[i : i + size] for i in range(0, len(items), size)]
        inline = [chunks.pop(0)] if self.inline_first else []
        fn_ref = _by_value(fn)
        task = _call_chunk.options(max_retries=self.max_retries, retry_exceptions=False)
        refs = [task.remote(fn_ref, chunk) for chunk in chunks]
        try:
            parts = [[fn(*args) for args in chunk] for chunk in inline]
            for ref in refs:
                part, cpu = _get(ref)
                parts.append(part)
                self.task_cpu_seconds += cpu
        except Exception:
            _settle(refs)
            raise
        return [r for part in parts for r in part]

    def __repr__(self):
        return f"RayMap(chunk_size={self.chunk_size}, inline_first={self.inline_first})"


@ray.remote
def _call(fn, args):
    return fn(*args)


@ray.remote
def _call_chunk(fn, chunk):
    """The chunk's results and the CPU seconds this worker spent on them."""
    cpu = time.process_time()
    return [fn(*args) for args in chunk], time.process_time() - cpu


def _get(ref):
    """``ray.get`` that re-raises a task's exception as itself, once, with the worker's traceback.

    An EvoplayError stays one line (the command line prints it); any other exception of
    the user's code comes back as its own type (a ``ValueError`` stays a ``ValueError``),
    with the traceback from the worker attached as a note.
    """
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as e:
        cause = e.cause
        if isinstance(cause, EvoplayError):
            raise cause from None
        if isinstance(cause, BaseException) and not isinstance(cause, ray.exceptions.RayError):
            remote = getattr(e, "traceback_str", "") or str(e)
            if hasattr(cause, "add_note"):
                cause.add_note(f"raised in a Ray task on a worker:\n{remote.rstrip()}")
            raise cause from None
        raise
    except ray.exceptions.WorkerCrashedError as e:
        raise EvoplayError(f"a Ray worker died {_RETRIES_TEXT}: {str(e).splitlines()[0]}") from None
    except ray.exceptions.NodeDiedError as e:
        raise EvoplayError(f"a Ray node died {_RETRIES_TEXT}: {str(e).splitlines()[0]}") from None
    except ray.exceptions.OutOfMemoryError as e:
        raise EvoplayError(f"a Ray task ran out of memory: {str(e).splitlines()[0]}") from None


_RETRIES_TEXT = "and its task's retries are used up (check the cluster's nodes, then --resume)"


def _settle(refs):
    """Let the other tasks in flight finish after a failure, and take their results.

    They are not cancelled: in Ray 2.60 ``ray.cancel`` racing a task's reply crashes the
    driver (a failed check in the task manager: "Tried to complete task that was not
    pending"), which a failing chunk among running ones triggered about one time in
    six. Taking every result also keeps Ray from reporting another failure later: the
    first one is the one raised.
    """
    for ref in refs:
        try:
            ray.get(ref)
        except Exception:  # failed too: the first failure is the one reported
            pass


def _by_value(fn):
    """Put ``fn`` in the object store, user modules pickled by value (workers may lack their
    files), with the sources of the user code loaded here: a task may load user code by
    reference (a game named in its arguments), not only call it."""
    import sys

    from evoplay.files import usercode

    modules = usercode.user_modules()
    own = sys.modules.get(getattr(fn, "__module__", None) or "")
    if own is not None and usercode.is_user_module(own):
        modules.append(own)
    for module in modules:
        ray.cloudpickle.register_pickle_by_value(module)
    code = usercode.shipment()
    return ray.put(_WithCode(fn, code) if code else fn)


class _WithCode:
    """``fn`` with the user code it may load by reference, made loadable before each call."""

    def __init__(self, fn, code: dict):
        self.fn, self.code = fn, code

    def __call__(self, *args):
        from evoplay.files import usercode

        usercode.provide(self.code)
        return self.fn(*args)


def _ensure_ray():
    if not ray.is_initialized():
        init_ray()


def _cluster_cpus() -> int:
    return max(1, _count(ray.cluster_resources().get("CPU", 1)))


def _count(x) -> int | float:
    return int(x) if float(x).is_integer() else x


def _join_failure(address: str, error: BaseException) -> str:
    # Ray reports a refused token as an AuthenticationError, sometimes only as the text
    # of the last attempt's traceback inside a RuntimeError.
    cause = error
    while cause is not None:
        if isinstance(cause, ray.exceptions.AuthenticationError) or "InvalidAuthToken" in str(cause):
            return (
                f"the Ray cluster at {address} refused this driver's authentication token: "
                "set RAY_AUTH_MODE=token and the cluster's token in RAY_AUTH_TOKEN, "
                "RAY_AUTH_TOKEN_PATH or ~/.ray/auth_token"
            )
        cause = cause.__cause__ or cause.__context__
    return f"cannot join the Ray cluster at {address}: {str(error).splitlines()[0]}"
