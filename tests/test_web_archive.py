"""`evoplay serve` on MAP-Elites runs: the archive the run page shows, and elites played.

A tiny map-elites run is made here (checkpoints kept): the archive served must be the
checkpoint's, cell for cell and elite for elite; an elite played through the API must
be the very network stored in the checkpoint (same move on every board). The committed
results/diversity (no checkpoints) serves archive.json's grid, equal to that file.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from evoplay.framework import config
from evoplay.framework.rundir import RunDir, digest
from evoplay.recipes.fogel.nets import net_player
from evoplay.recipes.selfadaptive import sa_from_dict
from evoplay.recipes.fogel.report import champion_row
from evoplay.tictactoe import board
from evoplay.web.archive import elite_spec
from support.web import ok, refused, request, serving

ROOT = Path(__file__).resolve().parents[1]
TINY = ('recipe = "map-elites"\nname = "me"\nseed = 3\ntrials = 2\ngenerations = 4\n'
        "[population]\nbatch = 10\nhidden_min = 2\nhidden_max = 4\n[archive]\ncapacity = 3\n[run]\ncheckpoint_every = 2\n")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    base = tmp_path_factory.mktemp("archive")
    (base / "me.toml").write_text(TINY)
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    out = subprocess.run([sys.executable, "-m", "evoplay", "evolve", "me.toml", "--out", "runs/me", "--workers", "1", "--quiet"],
                         capture_output=True, text=True, cwd=base, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    with serving(["runs/me", str(ROOT / "results/diversity")], base=base) as url:
        yield url, base


def checkpoint_elites(run: Path, trial: int) -> list[dict]:
    cfg = config.load(run / "config.toml")
    data = RunDir(run).read_checkpoint(trial, digest(cfg))
    assert data["generation"] == cfg[""]["generations"]
    return data["state"]["elites"]


def test_the_archive_served_is_the_checkpoints_cell_for_cell_and_elite_for_elite(site):
    url, base = site
    got = ok(url, "/api/runs/0/archive")["archive"]
    assert got["descriptors"] == ["opening", "reply_centre", "reply_corner"] and got["capacity"] == 3
    # the board its elites are played on, named by the server (the game of the run's champions)
    assert got["game"] == ok(url, "/api/runs/0")["game"] == "tictactoe"
    assert len(got["labels"]) == int(np.prod(got["shape"]))
    for t in range(2):
        stored = checkpoint_elites(base / "runs/me", t)
        trial = got["trials"][t]
        assert trial["trial"] == t and trial["source"] == "checkpoint"
        served = [(c["cell"], e["network_id"], e["fitness"]) for c in trial["cells"] for e in c["elites"]]
        shape = tuple(got["shape"])
        expected = [(int(np.ravel_multi_index(tuple(e["cell"]), shape)), e["net"]["id"], e["net"]["fitness"][0]) for e in stored]
        assert served == expected
        for c in trial["cells"]:
            assert c["count"] == len(c["elites"]) <= 3 and c["best"] == c["elites"][0]["fitness"]
        best = max(trial["cells"], key=lambda c: (c["best"], -c["cell"]))
        assert trial["champion_cell"] == best["cell"]


def test_one_trials_archive_is_that_trials_entry_of_the_whole(site):
    url, _ = site
    for run, n in ((0, 2), (1, 20)):
        whole = ok(url, f"/api/runs/{run}/archive")["archive"]
        assert whole["n_trials"] == n == len(whole["trials"])
        for t in (0, n - 1):
            one = ok(url, f"/api/runs/{run}/archive?trial={t}")["archive"]
            assert one == {**whole, "trials": [whole["trials"][t]]}


def test_an_elite_played_is_the_network_in_the_archive_and_its_analysis_is_exact(site):
    url, base = site
    stored = checkpoint_elites(base / "runs/me", 1)
    shape = tuple(ok(url, "/api/runs/0/archive")["archive"]["shape"])
    last = stored[-1]  # the worst elite of the last cell
    cell = int(np.ravel_multi_index(tuple(last["cell"]), shape))
    rank = sum(1 for e in stored if e["cell"] == last["cell"]) - 1
    net = sa_from_dict(last["net"], 4)
    player = net_player(net)
    spec = elite_spec("runs/me", 1, cell, rank)
    details = ok(url, f"/api/runs/0/elite?trial=1&cell={cell}&elite={rank}")
    assert details["spec"] == spec and details["network_id"] == last["net"]["id"]
    assert details["analysis"] == json.loads(json.dumps(champion_row(player, 1, net.h)))
    boards = ["." * 9, "X" + "." * 8, "....X....", "X...O....", "XO..X....", "X.O.X.O.."]
    for text in boards:
        code = board.encode([{"X": board.X, "O": board.O, ".": board.EMPTY}[c] for c in text])
        want = player.probs(np.array([code]))[0].tolist()
        x, o = (spec, "random") if board.TO_MOVE[code] == board.X else ("random", spec)
        assert ok(url, "/api/analyze", {"board": text, "x": x, "o": o})["probs"] == want
        moved = ok(url, "/api/ai-move", {"board": text, "player": spec, "seed": 1})
        assert moved["square"] == int(np.argmax(want))


@pytest.mark.parametrize("path, status, fragment", [
    ("/api/runs/0/elite?trial=1&cell=0", 400, "missing query parameter 'elite'"),
    ("/api/runs/0/elite?trial=x&cell=0&elite=0", 400, "trial must be a whole number"),
    ("/api/runs/0/elite?trial=-1&cell=0&elite=0", 400, "trial must be a whole number"),
    ("/api/runs/0/elite?trial=0&cell=0&elite=0&more=1", 400, "unknown query parameter 'more'"),
    ("/api/runs/0/elite?trial=2&cell=0&elite=0", 404, "has no trial 2"),
    ("/api/runs/0/elite?trial=0&cell=0&elite=99", 404, "elites"),
    ("/api/runs/0/elite?trial=0&cell=99999&elite=0", 404, "holds no elite"),
    ("/api/runs/1/elite?trial=0&cell=0&elite=0", 404, "keeps no checkpoint of trial 0"),
    ("/api/runs/7/archive", 404, "no run 7"),
    ("/api/runs/0/archive?trial=2", 404, "has no trial 2"),
    ("/api/runs/0/archive?trial=one", 400, "trial must be a whole number"),
    ("/api/runs/0/archive?trials=1", 400, "unknown query parameter 'trials'"),
])
def test_bad_archive_and_elite_requests_get_one_line(site, path, status, fragment):
    refused(site[0], path, status=status, fragment=fragment)


@pytest.mark.parametrize("spec, status, fragment", [
    ("runs/me#trial=0,cell=0", 400, "no elite spec"),
    ("runs/me#trial=0,cell=0,elite=0,x=1", 400, "no elite spec"),
    ("elsewhere#trial=0,cell=0,elite=0", 403, "not a run directory this server was started with"),
    ("runs/me/../me#trial=0,cell=0,elite=0", 403, "may not contain '..'"),
    ("runs/me#trial=5,cell=0,elite=0", 404, "has no trial 5"),
])
def test_bad_elite_specs_get_one_line(site, spec, status, fragment):
    refused(site[0], "/api/ai-move", {"board": "." * 9, "player": spec}, status=status, fragment=fragment)


def test_a_damaged_checkpoint_is_refused_with_one_line(site, tmp_path):
    url, base = site
    run = tmp_path / "runs/me"
    run.parent.mkdir(parents=True)
    shutil.copytree(base / "runs/me", run)
    path = run / "checkpoints/trial_00.json"
    body = json.loads(path.read_text())
    body["state"]["next_id"] += 1
    path.write_text(json.dumps(body))
    with serving(["runs/me"], base=tmp_path) as other:
        message = refused(other, "/api/runs/0/archive", status=409, fragment="sha256 does not match")
        assert str(tmp_path) not in message and "runs/me/checkpoints/trial_00.json" in message
        refused(other, "/api/ai-move", {"board": "." * 9, "player": "runs/me#trial=0,cell=0,elite=0"}, status=409, fragment="sha256")


def test_the_committed_diversity_run_serves_its_archive_json_grid(site):
    url, _ = site
    got = ok(url, "/api/runs/1/archive")["archive"]
    assert got["game"] == "tictactoe"
    report = json.loads((ROOT / "results/diversity/archive.json").read_text())
    assert got["descriptors"] == report["descriptors"] == ["opening_square"] and got["shape"] == [9]
    assert len(got["trials"]) == 20
    for t, trial in enumerate(got["trials"]):
        assert trial["source"] == "archive.json"
        rows = [r for r in report["elites"] if r["trial"] == t]
        assert [(c["cell"], c["best"], c["count"], c["elites"]) for c in trial["cells"]] == \
               [(r["cell"][0], r["fitness"], r["elites_in_cell"], None) for r in rows]
        assert trial["champion_cell"] == next(r["cell"][0] for r in rows if r["champion"])
        assert all(c["analysis"]["expected_payoff_32_vs_logic"] == r["expected_payoff_32_vs_logic"] for c, r in zip(trial["cells"], rows))


def test_a_run_of_another_recipe_has_no_archive(tmp_path):
    from support.web import make_run

    make_run(tmp_path / "plain")
    with serving(["plain"], base=tmp_path) as url:
        assert ok(url, "/api/runs/0/archive") == {"id": 0, "archive": None}
        refused(url, "/api/runs/0/elite?trial=0&cell=0&elite=0", status=404, fragment="not a map-elites run")
