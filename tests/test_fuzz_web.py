"""Fuzzing the web API of every game: malformed requests get a 4xx and one JSON line.

Each case is one request to the app (called in-process through WSGI, as the server calls
it) built from a valid one by damaging its path, its body, a field, a position, the
moves, the players or a header. The app serves a folder of player files of both games
(one of them with weights beyond the bound a network may hold). Every answer must be
200 or a 4xx with ``{"error": one line}``: never a 5xx, nothing written to the error
stream (a traceback), no case longer than ``CASE_SECONDS``. The default run keeps a
sample; ``-m slow`` runs many more.

Two more classes run from their own generator, so that the cases above stay as they were:
``mcts`` budgets at their edges (0, 1, 2, the server's bound and past it, past the spec's
range) on every board, and the run API over run directories whose files are damaged,
reached through odd run numbers (non-ASCII digits, 5,000 digits) and odd queries.
"""

from __future__ import annotations

import io
import json
import random
import signal
import sys
import urllib.parse
from pathlib import Path

import numpy as np
import pytest

from evoplay.web.app import make_app
from evoplay.web.boards import MAX_SIMS
from evoplay.web.roots import Roots

from test_fuzz_cli import JUNK
from support.web import make_run
from test_web_served_players import network_file

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CASES = 600
SLOW_CASES = 8000
#: Cases of the two later classes (mcts budgets, damaged runs), in the default and slow runs.
DEFAULT_EDGE_CASES = 400
SLOW_EDGE_CASES = 5000
SEED = 30
CASE_SECONDS = 20

GAMES = ["checkers", "tictactoe"]
START = {"checkers": "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12", "tictactoe": "........."}
OPENING = {"checkers": ["11-15", "23-19", "8-11"], "tictactoe": ["4", "0"]}
PLAYERS = {"checkers": ["piece-difference:depth=1", "random", "net.json"], "tictactoe": ["logic", "random", "fogel.json"]}
BAD_SPECS = ["", " ", "nobody", "logic:eps=2", "softmax:t=0", "piece-difference:depth=0", "piece-difference:depth=13",
             "piece-difference:king=nan", "human", "../secret.json", "/etc/passwd", "huge.json", "net.json",
             "fogel.json", "run", "run#trial=0,cell=0,elite=0", "missing.json", "x" * 2000, "a\u0000b.json",
             "sub/../net.json", "mcts:sims=0", "random:x=1",
             # found by a hostile try of the web API: work without bound, or a 500
             "alpha-beta:depth=0", "alpha-beta:depth=64", "alpha-beta:depth=40", "openspiel-mcts:sims=1000000",
             "openspiel-mcts:sims=10001", "mcts:sims=1000000", "mcts:sims= 4", "mcts: sims=4",
             "openspiel-mcts:seed=2147483648"]
BAD_FENS = ["", "B", "X:W1:B2", "B:W1,1:B2", "B:W33:B1", "B:W0:B1", "B:W1:B1", "B:WK:B1", "B:W1,2:", ":W1:B2",
            "B:W" + ",".join(map(str, range(1, 33))) + ":B", "B:Wx:B1", "B:W1-5:B9", "W:W10:B" + ",".join(map(str, range(1, 10))),
            "B:W1:B2:extra", "b:w1:b2", "B:W-1:B2", "B:W1e3:B2", "B:W" + "1," * 500 + "1:B2", "XXXXXXXXX", "XO", "X........O"]
BAD_MOVES = ["", " ", "11-16", "99-1", "11x15", "11-15-19", "1-1", "x", "0", "9", "-1", "4", "11-15", "22x15",
             "1" * 300, "é", "11 15", None, 3, [], {}, 1.5, True, "\u0661", "\uff14", "1\n", "\uff11\uff11-\uff11\uff15"]


def damaged_path(rng) -> tuple[str, str]:
    game = rng.choice(GAMES + ["chess", "", "..", "checkers%00", "%FF", "openspiel:nosuch", "CHECKERS"])
    endpoint = rng.choice(["state", "move", "ai-move", "analysis", "players", "nosuch", ""])
    method = "GET" if endpoint == "players" else "POST"
    if rng.random() < 0.1:
        method = rng.choice(["PUT", "DELETE", "GET", "PATCH"])
    return method, f"/api/games/{game}/{endpoint}"


def valid_body(rng, game: str, endpoint: str) -> dict:
    body = {}
    if rng.random() < 0.5:
        body["start"] = START[game]
    body["moves"] = OPENING[game][: rng.randrange(len(OPENING[game]) + 1)]
    if endpoint == "move":
        body["move"] = rng.choice(["11-15", "22-18", "4", "8"])
    elif endpoint == "ai-move":
        body["player"] = rng.choice(PLAYERS[game])
    elif endpoint == "analysis":
        if rng.random() < 0.5:
            body["players"] = [rng.choice(PLAYERS[game]), rng.choice(PLAYERS[game])]
        else:
            body["player"] = "piece-difference:depth=1" if game == "checkers" else "minimax"
            body["depth"] = 1
    return body


def damage_body(rng, game: str, body: dict) -> tuple[str, object]:
    what = rng.randrange(9)
    if what == 0:
        body["start"] = rng.choice(BAD_FENS)
        return "start", body
    if what == 1:
        body["moves"] = rng.choice([rng.sample(BAD_MOVES, rng.randrange(1, 4)), "11-15", 3, None, ["11-15"] * 1001])
        return "moves", body
    if what == 2:
        key = rng.choice(["player", "players", "move", "depth", "seed", "start", "moves"])
        body[key] = rng.choice(JUNK + [rng.choice(BAD_SPECS), [rng.choice(BAD_SPECS)] * rng.randrange(0, 4), -1, 99, 2**70])
        return f"field {key}", body
    if what == 3:
        body[rng.choice(["colour", "Player", "", "x" * 100, "human_model"])] = 1
        return "unknown field", body
    if what == 4:
        if body:
            del body[rng.choice(sorted(body))]
        return "field missing", body
    if what == 5:
        return "not an object", rng.choice([[], "x", 3, None, [body]])
    if what == 6:
        body["player"] = rng.choice(BAD_SPECS)
        body.pop("players", None)
        return "bad player", body
    if what == 7:
        body["players"] = [rng.choice(BAD_SPECS + PLAYERS[game]), rng.choice(BAD_SPECS)]
        body.pop("player", None)
        return "bad players", body
    body["depth"] = rng.choice([0, 7, -1, "2", 1.5, True, 10**20])
    body["player"] = rng.choice(PLAYERS[game] + ["random", "logic"])
    return "depth", body


def raw_damage(rng, raw: bytes) -> tuple[str, bytes, dict]:
    """Damage to the bytes or the headers; (what, body bytes, extra environ)."""
    what = rng.randrange(7)
    if what == 0:
        return "truncated", raw[: rng.randrange(len(raw) + 1)], {}
    if what == 1:
        return "not UTF-8", b"\xff\xfe" + raw, {}
    if what == 2:
        return "deep", b"[" * 50000 + b"]" * 50000, {}
    if what == 3:
        return "NaN", raw.replace(b"{", b'{"seed": NaN, ', 1) if raw.startswith(b"{") else b"NaN", {}
    if what == 4:
        return "huge", b'{"start": "' + b"x" * (20 << 10) + b'"}', {}
    if what == 5:
        length = rng.choice(["abc", "-1", "1.5", "0x10", "", "99999999999999999999999", "1 2", "\u00b9"])
        return f"Content-Length {length!r}", raw, {"CONTENT_LENGTH": length}
    return "Content-Type", raw, {"CONTENT_TYPE": rng.choice(["text/plain", "", "application/json; charset=latin-1", "x" * 500])}


def make_case(rng) -> tuple[str, str, str, bytes, dict]:
    """(label, method, path, body bytes, extra environ)."""
    if rng.random() < 0.15:
        method, path = damaged_path(rng)
        game = "checkers"
        body = valid_body(rng, game, "state")
        return f"path {method} {path}", method, path, json.dumps(body).encode(), {}
    game = rng.choice(GAMES)
    endpoint = rng.choice(["state", "move", "ai-move", "analysis"])
    body = valid_body(rng, game, endpoint)
    if rng.random() < 0.2:
        label, raw, environ = raw_damage(rng, json.dumps(body).encode())
        return f"{game}/{endpoint} {label}", "POST", f"/api/games/{game}/{endpoint}", raw, environ
    label, body = damage_body(rng, game, body)
    return f"{game}/{endpoint} {label}", "POST", f"/api/games/{game}/{endpoint}", json.dumps(body).encode(), {}


def old_api_case(rng) -> tuple[str, str, str, bytes, dict]:
    path = rng.choice(["/api/analyze", "/api/move", "/api/ai-move"])
    body = {"board": rng.choice(["X...O....", ".........", "XXXOO....", "?", "", 9, None]), "x": rng.choice(BAD_SPECS + ["random"]),
            "o": rng.choice(BAD_SPECS + ["logic"]), "player": rng.choice(BAD_SPECS + ["random"]), "square": rng.choice(JUNK + [4, 9])}
    return f"old {path}", "POST", path, json.dumps(body).encode(), {}


# ---------------------------------------------------------------- mcts budgets, damaged runs

#: mcts budgets at the edges: none, the smallest, past this server's bound, past the spec's range.
SIMS = ["0", "1", "2", "3", str(MAX_SIMS + 1), "1000000", "1000001", str(2**63), "-1", "1.5", "", "x", "1e3", "1_0",
        "\uff13", "\u0663", " 2", "2 "]
MCTS_EXTRAS = ["", ",c=0", ",c=100", ",c=2.5", ",solve=0", ",solve=1", ",c=nan", ",solve=2", ",sims=2", ",depth=3"]
#: Run directories served, by number: one sound, the others each damaged in one file.
DAMAGED_RUNS = {
    "sound": {},
    "not-json": {"summary.json": b"{damaged"},
    "nan": {"summary.json": b'{"best_trial": NaN}'},
    "infinity": {"summary.json": b'{"x": 1e400}'},
    "huge-int": {"summary.json": b"[" + b"9" * 5000 + b"]"},
    "binary": {"summary.json": b"\xff\xfe\x00garbage"},
    "empty": {"summary.json": b""},
    "deep": {"summary.json": b"[" * 100000 + b"]" * 100000},
    "array": {"summary.json": b"[1, 2]", "analysis.json": b"null"},
    "analysis": {"analysis.json": b'{"champions": [' + b"1" * 10 + b"}"},
    "config": {"config.toml": b"recipe = \"map-elites\"\n[[[", "archive.json": b'{"elites": 3}'},
    "map-elites": {"config.toml": b'recipe = "map-elites"\n', "archive.json": b'{"elites": [{"trial": 0, "cell": [99]}]}'},
}
RUN_IDS = ["0", "3", "11", "12", "٣", "３", "٠", "3 ", " 3", "+3", "-1", "0x3", "3.0", "9" * 5000, "", "%", "..", "3/..", "1e2"]
RUN_PARTS = ["", "/curve", "/archive", "/elite", "/nosuch"]
QUERIES = ["", "trial=0", "trial=٣", "trial=" + "9" * 5000, "trial=-1", "trial=0&cell=0&elite=0", "trial=0&cell=٣&elite=0",
           "trial=0&trial=1", "x=1", "trial=%FF", "cell=0", "trial=0&cell=99999999&elite=0"]


def mcts_case(rng) -> tuple[str, str, str, bytes, dict]:
    """An mcts at the edge of its budget as a game's computer player or side, or on the old API."""
    sims = rng.choice(["1", "2"]) if rng.random() < 0.4 else rng.choice(SIMS)  # the smallest, often
    spec = f"mcts:sims={sims}" + ("" if rng.random() < 0.6 else rng.choice(MCTS_EXTRAS))
    if rng.random() < 0.15:  # odd forms; none leaves sims at its default (1000 take seconds on checkers)
        spec = rng.choice(["mcts:sims", "mcts:sims=", "mcts:sims=1,", "mcts :sims=1", "mcts:sims=1,sims=1", spec.upper()])
    game = rng.choice(GAMES)
    if rng.random() < 0.2:
        body = {"board": rng.choice(["X...O....", ".........", "XXOOX....", "XXXOO...."]), "player": spec}
        if rng.random() < 0.5:
            body = {"board": body["board"], "x": spec, "o": rng.choice(["random", spec])}
        path = "/api/ai-move" if "player" in body else "/api/analyze"
        return f"old {path} {spec}", "POST", path, json.dumps(body).encode(), {}
    endpoint = rng.choice(["ai-move", "ai-move", "analysis"])
    body = valid_body(rng, game, endpoint)
    if endpoint == "ai-move":
        body["player"] = spec
        body["seed"] = rng.choice([0, 1, 2**40])
    else:
        body.pop("player", None)
        body.pop("depth", None)
        body["players"] = [spec, rng.choice(PLAYERS[game] + ["human", spec])]
        if game == "tictactoe" and rng.random() < 0.3:
            body["human_model"] = spec
    return f"{game}/{endpoint} {spec}", "POST", f"/api/games/{game}/{endpoint}", json.dumps(body).encode(), {}


def run_case(rng) -> tuple[str, str, str, bytes, dict]:
    """A run's page data asked for by an odd number, path or query (the path as a WSGI server
    hands it over: percent escapes decoded to bytes, read as latin-1)."""
    index = rng.choice(RUN_IDS + [str(i) for i in range(len(DAMAGED_RUNS))] * 2)
    path = "/api/runs/" + urllib.parse.quote(index, safe="") + rng.choice(RUN_PARTS)
    query = rng.choice(QUERIES)
    method = "GET" if rng.random() < 0.95 else rng.choice(["POST", "DELETE"])
    return f"run {path[:60]}?{query[:40]}", method, urllib.parse.unquote(path, "iso-8859-1"), b"", {"QUERY_STRING": query}


def damaged_runs(top: Path) -> list[str]:
    """Run directories named and damaged as DAMAGED_RUNS says; their names, in order."""
    for name, files in DAMAGED_RUNS.items():
        make_run(top / name)
        for file, data in files.items():
            (top / name / file).write_bytes(data)
    return list(DAMAGED_RUNS)


class TookTooLong(Exception):
    pass


def _alarm(signum, frame):
    raise TookTooLong(f"still running after {CASE_SECONDS} s")


def call(app, method: str, path: str, raw: bytes, environ: dict) -> tuple[int, bytes, str]:
    errors = io.StringIO()
    env = {"REQUEST_METHOD": method, "PATH_INFO": path, "CONTENT_LENGTH": str(len(raw)), "CONTENT_TYPE": "application/json",
           "wsgi.input": io.BytesIO(raw), "wsgi.errors": errors, "wsgi.url_scheme": "http", "SERVER_NAME": "127.0.0.1",
           "SERVER_PORT": "80", "SERVER_PROTOCOL": "HTTP/1.1", **environ}
    status = []
    real_stderr, sys.stderr = sys.stderr, errors  # the app logs a fault's traceback to stderr
    try:
        out = b"".join(app(env, lambda s, h, e=None: status.append(s)))
    finally:
        sys.stderr = real_stderr
    return int(status[0].split()[0]), out, errors.getvalue()


def served(tmp_path: Path):
    """The app over a folder of player files of both games and run directories, all but one
    damaged (``DAMAGED_RUNS``)."""
    root = tmp_path / "served"
    root.mkdir()
    network_file(root / "net.json", "checkers", np.linspace(-0.3, 0.3, 1), depth=1)
    network_file(root / "huge.json", "checkers", 1e308)
    (root / "fogel.json").write_bytes((ROOT / "results/fogel1993/champion.json").read_bytes())
    (root / "secret.json").symlink_to(ROOT / "results/fogel1993/champion.json")
    runs = damaged_runs(tmp_path / "runs")
    return make_app(Roots([str(root), *(str(tmp_path / "runs" / r) for r in runs)], base=str(root)))


def first_classes(rng):
    """A case of the first classes: a damaged request to a game, or to the old API."""
    return make_case(rng) if rng.random() < 0.9 else old_api_case(rng)


def edge_classes(rng):
    """A case of the later classes: an mcts budget at its edge, or a damaged run."""
    return mcts_case(rng) if rng.random() < 0.5 else run_case(rng)


def fuzz(n: int, tmp_path: Path, cases=first_classes, seed: int = SEED) -> list[str]:
    app = served(tmp_path)
    rng = random.Random(seed)
    failures = []
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        for i in range(n):
            label, method, path, raw, environ = cases(rng)
            signal.alarm(CASE_SECONDS)
            try:
                status, out, logged = call(app, method, path, raw, environ)
            except Exception as e:
                failures.append(f"#{i} {label}: {type(e).__name__}: {e}"[:300])
                continue
            finally:
                signal.alarm(0)
            problem = None
            if status >= 500:
                problem = f"status {status}: {out[:200]!r}"
            elif logged:
                problem = f"logged: {logged[-300:]!r}"
            elif status != 200:
                data = json.loads(out)
                if set(data) != {"error"} or "\n" in data["error"] or not 400 <= status < 500:
                    problem = f"status {status}, not one error line: {out[:200]!r}"
            if problem:
                failures.append(f"#{i} {label}: {method} {path} {raw[:120]!r} {environ} -> {problem}")
    finally:
        signal.signal(signal.SIGALRM, previous)
    return failures


def test_fuzz_web_requests_get_a_4xx_or_an_answer(tmp_path):
    failures = fuzz(DEFAULT_CASES, tmp_path)
    assert not failures, f"{len(failures)} of {DEFAULT_CASES} cases:\n" + "\n".join(failures[:30])


@pytest.mark.slow
def test_fuzz_web_long(tmp_path):
    failures = fuzz(SLOW_CASES, tmp_path)
    assert not failures, f"{len(failures)} of {SLOW_CASES} cases:\n" + "\n".join(failures[:30])


def test_fuzz_web_mcts_budgets_and_damaged_runs(tmp_path):
    failures = fuzz(DEFAULT_EDGE_CASES, tmp_path, edge_classes, SEED + 1)
    assert not failures, f"{len(failures)} of {DEFAULT_EDGE_CASES} cases:\n" + "\n".join(failures[:30])


@pytest.mark.slow
def test_fuzz_web_mcts_budgets_and_damaged_runs_long(tmp_path):
    failures = fuzz(SLOW_EDGE_CASES, tmp_path, edge_classes, SEED + 2)
    assert not failures, f"{len(failures)} of {SLOW_EDGE_CASES} cases:\n" + "\n".join(failures[:30])
