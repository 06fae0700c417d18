"""A real ``evoplay serve`` app on 127.0.0.1 (an ephemeral port) and requests to it, for the
tests of the web app: ``serving`` a server over some roots and games, ``request`` one
request, ``ok`` a request that must succeed and ``refused`` one that must get a 4xx with
one line of JSON naming the problem; ``fogel_file`` and ``make_run`` make the player files
and the small run directory the servers are given."""

from __future__ import annotations

import json
import shutil
import threading
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from evoplay.files.playerfile import save_player
from evoplay.web.app import make_app, make_server
from evoplay.web.roots import Roots


def fogel_file(path, seed=0, hidden=3, scale=2.0):
    """A valid fogel-net player file, its weights uniform in [-scale, scale] from ``seed``."""
    rng = np.random.default_rng(seed)
    weights = {
        "hidden_weights": rng.uniform(-scale, scale, (9, hidden)),
        "hidden_bias": rng.uniform(-scale, scale, hidden),
        "output_weights": rng.uniform(-scale, scale, (hidden, 9)),
        "output_bias": rng.uniform(-scale, scale, 9),
    }
    return save_player(path, "fogel-net", {"inputs": 9, "hidden": hidden, "outputs": 9}, weights, {"seed": seed})


def make_run(root: Path, trials: int = 2, curve: bool = True) -> Path:
    """A small run directory in the layout `evoplay evolve` writes."""
    for k in range(trials):
        fogel_file(root / "trials" / f"trial_{k:02d}" / "champion.json", seed=k)
    shutil.copy(root / "trials" / "trial_01" / "champion.json", root / "champion.json")
    summary = {
        "name": root.name, "seed": 5, "trials": trials, "generations": 3, "games_played": 960,
        "best_trial": 1, "mean_max_payoff": {"first": -3.0, "last": 4.0, "last10": 2.5},
        "curve": {"mean_max": [-3.0, 1.0, 4.0], "ci95": [1.0, 1.0, 1.0]},
    }
    (root / "summary.json").write_text(json.dumps(summary))
    rows = [{"trial": k, "hidden": 3, "unbeatable_as_x": False, "vs_logic": [0.5, 0.25, 0.25]} for k in range(trials)]
    (root / "analysis.json").write_text(json.dumps({"run": root.name, "champions": rows, "references": {"x": 1.5}}))
    if curve:
        (root / "curve.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>')
    return root


@contextmanager
def serving(paths=(), base=None, games=()):
    server = make_server(make_app(Roots(paths, base=base), games), "127.0.0.1", 0, quiet=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def request(url, body=None, method=None, raw: bytes | None = None):
    """(status, parsed JSON or raw bytes, headers) of one request."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    req = urllib.request.Request(url, data=data, method=method or ("POST" if data is not None else "GET"))
    req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            status, payload, headers = r.status, r.read(), r.headers
    except urllib.error.HTTPError as e:
        status, payload, headers = e.code, e.read(), e.headers
    if headers.get_content_type() == "application/json":
        return status, json.loads(payload), headers
    return status, payload, headers



def ok(url, path, body=None):
    status, data, _ = request(url + path, body)
    assert status == 200, data
    return data


def refused(url, path, body=None, status=400, fragment="", **kw):
    """The request gets ``status`` and one line of JSON naming the problem."""
    got, data, headers = request(url + path, body, **kw)
    assert got == status, data
    assert headers.get_content_type() == "application/json"
    assert set(data) == {"error"} and isinstance(data["error"], str)
    assert data["error"] and "\n" not in data["error"] and "Traceback" not in data["error"]
    assert fragment in data["error"], data["error"]
    return data["error"]
