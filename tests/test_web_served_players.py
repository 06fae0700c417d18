"""A served player file cannot stop `evoplay serve`: every request for its player gets a
4xx or a move, and the server goes on serving.

The requests run in a child process (a crash of compiled code there would kill this
test run): the web app is built over a folder of hostile player files (correctly signed,
every weight huge, of either game) and asked for moves and analyses of every file in
both games. Before each request the child fills the allocator's free lists with junk
(arrays of 10**15 freed again), as a long-lived server's heap is: memory a compiled
search reads without writing it first is then junk, not the zeros of a fresh process,
and a wrong read crashes at once instead of by chance.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from evoplay.networks.evalnet import MAX_WEIGHT, n_weights
from evoplay.files.playerfile import load_player, resign, save_player
from evoplay.errors import PlayerFileError

ROOT = Path(__file__).resolve().parent.parent
CHECKERS = (32, 40, 10, 1)
TICTACTOE = (9, 6, 1)
#: The issue's position, one where both sides have kings (every leaf sees them), the start.
POSITIONS = ["B:W14,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,6,7,8,10,11,12,13", "B:WK10,K20,K30:BK1,K5,K9",
             "W:WK18,K27:BK1,K5,10", None]


def network_file(path: Path, game: str, genome, king: float = 100.0, depth: int = 2) -> Path:
    """A signed Blondie24 network file holding ``genome`` (no check on the way out)."""
    sizes = CHECKERS if game == "checkers" else TICTACTOE
    genome = np.broadcast_to(np.asarray(genome, dtype=np.float64), (n_weights(sizes),))
    arch = {"game": game, "layers": list(sizes), "hidden": list(sizes[1:-1]), "depth": depth}
    return save_player(path, f"blondie24-{game}", arch, {"genome": genome, "king": [king]}, {"test": "hostile"})


def hostile_files(folder: Path) -> dict[str, bool]:
    """Hostile and borderline player files in ``folder``: name -> whether it must load."""
    rng = np.random.default_rng(30)
    signs = np.where(rng.random(n_weights(CHECKERS)) < 0.5, -1.0, 1.0)
    files = {}
    for name, game, genome, ok in (
        ("ck-plus.json", "checkers", 1e308, False), ("ck-minus.json", "checkers", -1e308, False),
        ("ck-mixed.json", "checkers", 1e308 * signs, False), ("ck-1e200.json", "checkers", 1e200, False),
        ("ck-bound.json", "checkers", MAX_WEIGHT, True), ("ck-bound-mixed.json", "checkers", MAX_WEIGHT * signs, True),
        ("ttt-plus.json", "tictactoe", 1e308, False), ("ttt-bound.json", "tictactoe", -MAX_WEIGHT, True),
    ):
        network_file(folder / name, game, genome)
        files[name] = ok
    from evoplay.files.playerfile import _digest

    for name, weight, ok in (("fogel-huge.json", 1e308, False), ("fogel-bound.json", MAX_WEIGHT, True)):
        src = json.loads((ROOT / "results/fogel1993/champion.json").read_text())  # Fogel's networks: the same bound
        src["weights"] = {k: (weight * np.ones(np.shape(v))).tolist() for k, v in src["weights"].items()}
        src["sha256"] = _digest(src["kind"], src["architecture"], src["weights"])
        (folder / name).write_text(json.dumps(src))
        files[name] = ok
    return files


def test_a_network_file_holds_weights_within_the_bound(tmp_path):
    """Defect 1: a file whose weights overflow the network's sums is refused on load and by resign."""
    for name, ok in hostile_files(tmp_path).items():
        if ok:
            load_player(tmp_path / name)
            continue
        with pytest.raises(PlayerFileError, match=r"beyond the \+-1e\+100 a network's weight may hold"):
            load_player(tmp_path / name)
        doc = json.loads((tmp_path / name).read_text())
        doc["sha256"] = "0" * 64
        (tmp_path / name).write_text(json.dumps(doc))
        before = (tmp_path / name).read_bytes()
        with pytest.raises(PlayerFileError, match="beyond"):
            resign(tmp_path / name)
        assert (tmp_path / name).read_bytes() == before


def test_the_bound_keeps_every_evaluation_finite():
    """Weights at the bound, the widest layers and the largest king value: finite scores."""
    from evoplay.networks.evalnet import forward

    sizes = (32, 256, 256, 256, 256, 1)
    rng = np.random.default_rng(1)
    views = rng.choice(np.array([-2, -1, 0, 1, 2], dtype=np.int8), size=(200, 32))
    for genome in (np.full(n_weights(sizes), MAX_WEIGHT), np.where(rng.random(n_weights(sizes)) < 0.5, -MAX_WEIGHT, MAX_WEIGHT)):
        out = forward(views, genome, sizes, 1000.0)
        assert np.isfinite(out).all() and (np.abs(out) <= 1).all()


CHILD = textwrap.dedent("""
    import io, json, sys
    import numpy as np
    from evoplay.web.app import make_app
    from evoplay.web.roots import Roots

    folder, requests = sys.argv[1], json.loads(sys.argv[2])
    app = make_app(Roots([folder], base=folder))

    def spray():
        for n in (256, 1024, 4608, 8192, 65536, 73728):
            junk = [np.full(n, 10**15, dtype=np.int64) for _ in range(40)]
            del junk

    def call(path, body):
        raw = json.dumps(body).encode()
        env = {"REQUEST_METHOD": "POST", "PATH_INFO": path, "CONTENT_LENGTH": str(len(raw)),
               "CONTENT_TYPE": "application/json", "wsgi.input": io.BytesIO(raw), "wsgi.errors": sys.stderr,
               "wsgi.url_scheme": "http", "SERVER_NAME": "x", "SERVER_PORT": "80", "SERVER_PROTOCOL": "HTTP/1.1"}
        status = []
        out = b"".join(app(env, lambda s, h, e=None: status.append(s)))
        return int(status[0].split()[0]), json.loads(out)

    for path, body in requests:
        spray()
        status, answer = call(path, body)
        print(json.dumps([path, body, status, answer.get("move", answer.get("square")), answer.get("error")]), flush=True)
""")


def requests_for(files) -> list:
    out = []
    for name in files:
        for start in POSITIONS:
            body = {"player": name} | ({"start": start} if start else {})
            out.append(["/api/games/checkers/ai-move", body])
            out.append(["/api/games/checkers/analysis", body | {"depth": 2}])
        out.append(["/api/games/checkers/analysis", {"players": [name, "random"]}])
        out.append(["/api/games/tictactoe/ai-move", {"player": name, "moves": ["4"]}])
        out.append(["/api/games/tictactoe/analysis", {"players": [name, "random"]}])
        out.append(["/api/ai-move", {"board": "X...O....", "player": name}])
    out.append(["/api/games/checkers/ai-move", {"player": "piece-difference:depth=2"}])  # still serving
    return out


def test_a_served_player_file_cannot_stop_the_server(tmp_path):
    files = hostile_files(tmp_path)
    reqs = requests_for(files)
    proc = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path), json.dumps(reqs)], capture_output=True,
                          text=True, timeout=600, cwd=tmp_path)
    assert proc.returncode == 0, f"the server died (exit {proc.returncode}): {proc.stderr[-2000:]}"
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(answers) == len(reqs)
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    for path, body, status, move, error in answers:
        assert status == 200 or 400 <= status < 500, (path, body, status, error)
        if status == 200 and path.endswith("ai-move"):
            assert move is not None, (path, body)
        name = body.get("player") or body["players"][0]
        if not files.get(name, True):  # a file beyond the bound is refused, whatever is asked of it
            assert status == 400 and "beyond" in error, (path, body, status, error)
    assert answers[-1][2] == 200
