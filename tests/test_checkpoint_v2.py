"""Checkpoint format 2: the state's float arrays stored as float64 bytes (base64), exactly; format 1 still read.

A version-1 and a version-2 checkpoint of the same trial load to the same data; a run
stopped part-way (its checkpoints version 2, or version 1 as earlier evoplay wrote them)
resumes to the bytes of an uninterrupted run; a packed array that is malformed in any way
is refused with one line naming the file, like any damaged checkpoint.
"""

import binascii
import hashlib
import json
import math
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from evoplay.errors import EvoplayError
from evoplay.framework import config as configs
from evoplay.framework import packing
from evoplay.framework.rundir import RunDir, digest
from evoplay.framework.trial import TrialRun
from conftest import run_evoplay_here
from stopping import STOPPER
from support.runs import tree  # every file of a run but timings, hosts and the lock

ROOT = Path(__file__).resolve().parents[1]
ENV = {**{k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}, "RAY_USAGE_STATS_ENABLED": "0"}
KEY = "c" * 64
TINY = ('name = "tiny"\nseed = 11\ntrials = 2\ngenerations = 12\n[population]\nparents = 6\nhidden_max = 4\n'
        "[run]\ncheckpoint_every = 4\n")


def evoplay(*args, check=True):
    """The command in this process, in the module's Ray session (``tiny`` opens it): what these
    tests check is the files a run writes, not the process it runs in."""
    return run_evoplay_here(*args, check=check)


def write_v1(rd: RunDir, data: dict, key: str):
    """A checkpoint as evoplay wrote them before format 2 (every float as decimal text): the earlier writer."""
    body = {"format": "evoplay-checkpoint", "version": 1, "config_sha256": key, **data}
    text = json.dumps(body, separators=(",", ":"), allow_nan=False)
    path = rd.checkpoint(data["trial"])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'{text[:-1]},"sha256":"{hashlib.sha256(text.encode()).hexdigest()}"}}')


def resign(path: Path, change):
    """Edit a checkpoint's JSON and sign it again as the writer does, so that only the edit is wrong."""
    body = json.loads(path.read_text())
    body.pop("sha256")
    change(body)
    text = json.dumps(body, separators=(",", ":"))
    path.write_text(f'{text[:-1]},"sha256":"{hashlib.sha256(text.encode()).hexdigest()}"}}')


@pytest.fixture(scope="module")
def fogel_data():
    cfg = configs.resolve({"trials": 1, "generations": 30})
    return cfg, TrialRun(configs.recipe_class("fogel")(cfg), 0).run(30).to_data()


# ---------------------------------------------------------------- the packing


def test_float_lists_and_arrays_are_packed_exactly_and_everything_else_stays_json():
    rng = np.random.default_rng(5)
    odd = [-0.0, 5e-324, -2.2250738585072014e-308, 1.7976931348623157e308, 0.1, 1 / 3, -1e-300, 2.0 ** 52 + 1]
    data = {
        "odd": odd * 2,                                          # 16 floats: packed
        "matrix": rng.normal(size=(10, 7)).tolist(),              # nested, rectangular: one packed 2-D array
        "cube": rng.normal(size=(2, 3, 4)).tolist(),
        "short": [0.5] * (packing.MIN_FLOATS - 1),                # too short to pay: JSON
        "ints": list(range(40)), "mixed": [1, 2.5] * 10, "bools": [True, False] * 10,
        "ragged": [[1.0] * 9, [2.0] * 8], "with_empty": [[], [1.0] * 20],
        "tuple": (0.25,) * 20, "nested": [{"w": [0.5] * 16, "id": 3}, None, "text"],
        "array": rng.normal(size=(3, 6)), "int_array": np.arange(20),
    }
    packed = packing.pack(data)
    for k in ("odd", "matrix", "cube", "tuple", "array"):
        assert set(packed[k]) == {"$array", "shape", "b64"} and packed[k]["$array"] == "f8", k
    assert packed["matrix"]["shape"] == [10, 7] and packed["cube"]["shape"] == [2, 3, 4]
    assert packed["nested"][0]["w"]["shape"] == [16] and packed["with_empty"][1]["shape"] == [20]
    for k in ("short", "ints", "mixed", "bools", "ragged", "int_array"):
        assert not isinstance(packed[k], dict), k
    back = packing.unpack(json.loads(json.dumps(packed, allow_nan=False)))
    want = {**data, "tuple": list(data["tuple"]), "array": data["array"].tolist(), "int_array": data["int_array"].tolist()}
    assert back == want
    bits = [struct.pack("<d", x) for x in back["odd"]]  # every bit kept, -0.0 and subnormals included
    assert bits == [struct.pack("<d", x) for x in odd * 2]
    assert [type(x) for x in back["mixed"]] == [int, float] * 10
    # little-endian float64, row-major
    assert binascii.a2b_base64(packed["matrix"]["b64"]) == np.array(data["matrix"], dtype="<f8").tobytes()


@pytest.mark.parametrize("bad", [[float("nan")] * 20, [1.0] * 19 + [float("inf")], np.full(3, -np.inf)])
def test_non_finite_floats_are_not_written_packed_or_not(bad):
    with pytest.raises(ValueError, match="not JSON compliant"):
        packing.pack({"w": bad})


def test_a_recipe_dict_may_not_use_the_packing_tag():
    with pytest.raises(ValueError, match=r"\$array"):
        packing.pack({"x": [{"$array": "mine"}]})


# ---------------------------------------------------------------- versions 1 and 2


def test_a_fogel_checkpoint_of_either_version_loads_to_the_same_state(tmp_path, fogel_data):
    cfg, data = fogel_data
    v1, v2 = RunDir(tmp_path / "v1"), RunDir(tmp_path / "v2")
    write_v1(v1, data, KEY)
    v2.write_checkpoint(data, KEY)
    one, two = json.loads(v1.checkpoint(0).read_text()), json.loads(v2.checkpoint(0).read_text())
    assert one["version"] == 1 and two["version"] == 2
    assert isinstance(one["state"]["parents"][0]["w1"], list) and two["state"]["parents"][0]["w1"]["$array"] == "f8"
    assert two["logbook"] == one["logbook"], "the logbook stays as its records are"
    assert v1.read_checkpoint(0, KEY) == v2.read_checkpoint(0, KEY) == json.loads(json.dumps(data))
    assert v2.checkpoint(0).stat().st_size < v1.checkpoint(0).stat().st_size  # 121,060 < 146,733 bytes (unused units' zeros are short text)
    recipe = configs.recipe_class("fogel")(cfg)
    a, b = (TrialRun(recipe, 0, rd.read_checkpoint(0, KEY)).run(34) for rd in (v1, v2))
    assert a.to_data() == b.to_data() == TrialRun(recipe, 0).run(34).to_data()


def test_the_committed_checkers_checkpoint_is_version_1_and_reads_as_it_did(tmp_path):
    """results/blondie24 keeps its version-1 checkpoint (its league is played from it; it is signed the
    earlier way, with the digest of its sorted-key JSON): the earlier writer gives its very text up to the
    signature, and the same data written as version 2 reads back equal, in 877,013 bytes instead of 1,560,488."""
    committed = RunDir(ROOT / "results" / "blondie24")
    text = committed.checkpoint(0).read_text()
    body = json.loads(text)
    key, claimed = body["config_sha256"], body.pop("sha256")
    assert body["version"] == 1 and claimed == digest(body)
    data = committed.read_checkpoint(0, key)
    again = RunDir(tmp_path / "v1")
    write_v1(again, data, key)
    assert again.checkpoint(0).read_text().rpartition(',"sha256":')[0] == text.rpartition(',"sha256":')[0]
    v2 = RunDir(tmp_path / "v2")
    v2.write_checkpoint(data, key)
    assert v2.read_checkpoint(0, key) == data
    assert v2.checkpoint(0).stat().st_size < 0.6 * committed.checkpoint(0).stat().st_size


def test_a_version_1_file_is_never_unpacked(tmp_path):
    rd = RunDir(tmp_path / "run")
    data = {"trial": 0, "generation": 1, "logbook": [{"gen": 1, "max": 1.0}],
            "state": {"x": {"$array": "f8", "shape": [1], "b64": "AAAAAAAA8D8="}}}
    write_v1(rd, data, KEY)
    assert rd.read_checkpoint(0, KEY) == data  # plain data of that version: the recipe judges it


# ---------------------------------------------------------------- resuming to the same bytes


@pytest.fixture(scope="module")
def tiny(tmp_path_factory, ray_here):
    """The tiny run uninterrupted (2 trials x 12 generations, checkpoints every 4), in the module's Ray session."""
    d = tmp_path_factory.mktemp("tiny")
    (d / "tiny.toml").write_text(TINY)
    evoplay("evolve", d / "tiny.toml", "--out", d / "whole", "--workers", 2, "--quiet")
    return d


def _cut(tiny: Path, name: str, writer, gens=(4, 8)) -> Path:
    """The uninterrupted run as it stood part-way: checkpoints at ``gens``, written by ``writer``; no ends."""
    cut = tiny / name
    shutil.copytree(tiny / "whole", cut)
    rd = RunDir(cut)
    stored = configs.load(rd.config)
    recipe = configs.recipe_class("fogel")(stored)
    for t, g in enumerate(gens):
        data = TrialRun(recipe, t).run(g).to_data()
        rd.write_logbook(t, data["logbook"])
        writer(rd, data, rd.config_key(stored))
    for p in [cut / "summary.json", cut / "champion.json", cut / "curve.png", cut / "curve.svg",
              *cut.glob("trials/*/champion.json")]:
        p.unlink()
    return cut


@pytest.mark.parametrize("version", [1, 2])
def test_a_run_cut_part_way_resumes_to_the_bytes_of_the_uninterrupted_run(tiny, version):
    writer = write_v1 if version == 1 else (lambda rd, data, key: rd.write_checkpoint(data, key))
    cut = _cut(tiny, f"cut-v{version}", writer)
    assert json.loads(RunDir(cut).checkpoint(0).read_text())["version"] == version
    evoplay("evolve", cut / "config.toml", "--out", cut, "--resume", "--workers", 2, "--quiet")
    whole = tree(tiny / "whole")
    assert "checkpoints/trial_01.json" in whole and "curve.svg" in whole
    assert tree(cut) == whole  # the resumed run's checkpoints are version 2, as the uninterrupted run's


def test_a_run_stopped_after_its_first_landing_resumes_to_the_same_bytes(tiny):
    out = tiny / "stopped"
    run = subprocess.run([sys.executable, "-c", STOPPER, tiny / "tiny.toml", out, "1"], capture_output=True, text=True,
                         cwd=ROOT, env=ENV, timeout=300)
    assert run.stdout.strip() == "stopped", run.stderr[-3000:]
    assert not (out / "summary.json").exists()
    landed = [json.loads(p.read_text()) for p in sorted((out / "checkpoints").glob("*.json"))]
    assert landed and all(c["version"] == 2 and c["generation"] == 4 for c in landed)
    costs = json.loads((out / "costs.json").read_text())  # what the landed segments cost, by trial
    assert {t: c["generations"] for t, c in costs.items()} == {f"trial_{c['trial']:02d}": 4 for c in landed}
    evoplay("evolve", tiny / "tiny.toml", "--out", out, "--resume", "--workers", 2, "--quiet")
    assert tree(out) == tree(tiny / "whole")
    costs = json.loads((out / "costs.json").read_text())  # the resume adds its segments to the first launch's
    assert {t: c["generations"] for t, c in costs.items()} == {"trial_00": 12, "trial_01": 12}
    assert all(c["cpu_seconds"] > 0 and c["seconds"] > 0 for c in costs.values())


class Killed(BaseException):
    """The driver killed at one file write of a segment's landing."""


def test_a_run_killed_at_any_write_of_a_landing_keeps_the_costs_of_the_generations_that_landed(tiny, monkeypatch):
    """Land trial 0's segments (generations 4 and 8) with the driver killed at the k-th file
    write of the second landing, for every k: the resumed run's costs count each landed
    generation once, whatever wrote last (before the fix, a kill between the checkpoint and
    costs.json lost the segment's cost: 4 generations counted for a checkpoint at 8)."""
    from evoplay.framework import rundir as rundir_module
    from evoplay.framework.runner import RunJob

    stored = configs.load(tiny / "tiny.toml")
    recipe = configs.recipe_class("fogel")(stored)
    segments = [TrialRun(recipe, 0).run(g).to_data() for g in (4, 8)]
    real_write, outcomes = rundir_module.write_text, []
    for k in range(10):
        rd = RunDir(tiny / f"killed-{k}")
        job = RunJob(rd, stored, None)
        job.begin()
        job.land(0, (segments[0], None, (1.0, 0.5)))
        writes = iter(range(k + 1))

        def dying_write(path, text):
            if next(writes) == k:
                raise Killed(path)
            return real_write(path, text)

        monkeypatch.setattr(rundir_module, "write_text", dying_write)
        try:
            job.land(0, (segments[1], None, (2.0, 1.5)))
            outcomes.append("landed")
        except Killed:
            outcomes.append("killed")
        monkeypatch.setattr(rundir_module, "write_text", real_write)
        states = {t: rd.read_checkpoint(t, rd.config_key(stored)) for t in range(2)}
        resumed = RunJob(rd, stored, states, resume=True)
        resumed.begin()
        landed = states[0]["generation"]
        assert landed in (4, 8)
        want = {"generations": 4, "seconds": 1.0, "cpu_seconds": 0.5} if landed == 4 else \
               {"generations": 8, "seconds": 3.0, "cpu_seconds": 2.0}
        assert {key: resumed.costs[0][key] for key in want} == want, (k, landed)
        if outcomes[-1] == "landed":
            break
    assert outcomes[-1] == "landed" and outcomes.count("killed") >= 2  # costs.json and the checkpoint at least


# ---------------------------------------------------------------- corrupt packed arrays


def _w1(body):
    return body["state"]["parents"][0]["w1"]


CORRUPT = {
    "bad base64 character": (lambda b: _w1(b).update(b64="*" + _w1(b)["b64"][1:]), "base64 is malformed"),
    "base64 with a newline": (lambda b: _w1(b).update(b64=_w1(b)["b64"][:-4] + "\n" + _w1(b)["b64"][-3:]), "malformed"),
    "padding inside": (lambda b: _w1(b).update(b64=_w1(b)["b64"][:4] + "=" + _w1(b)["b64"][5:]), "malformed"),
    "padding dropped": (lambda b: _w1(b).update(b64=_w1(b)["b64"][:-1] + "A"), "holds 801 bytes"),
    "one float short": (lambda b: _w1(b).update(b64=binascii.b2a_base64(binascii.a2b_base64(_w1(b)["b64"])[:-8], newline=False).decode()),
                        "not the"),
    "one byte long": (lambda b: _w1(b).update(b64=binascii.b2a_base64(binascii.a2b_base64(_w1(b)["b64"]) + b"\0", newline=False).decode()),
                      "not the"),
    "shape that disagrees": (lambda b: _w1(b).update(shape=[10, 9]), "not the"),
    "float32 tag": (lambda b: _w1(b).update({"$array": "f4"}), "element type 'f4'"),
    "int64 tag": (lambda b: _w1(b).update({"$array": "i8"}), "element type 'i8'"),
    "no tag value": (lambda b: _w1(b).update({"$array": None}), "element type"),
    "negative size": (lambda b: _w1(b).update(shape=[-10, -10]), "shape"),
    "boolean size": (lambda b: _w1(b).update(shape=[True, 100]), "shape"),
    "empty shape": (lambda b: _w1(b).update(shape=[]), "shape"),
    "shape not a list": (lambda b: _w1(b).update(shape="10x10"), "shape"),
    "b64 not text": (lambda b: _w1(b).update(b64=[1, 2]), "not a string"),
    "extra key": (lambda b: _w1(b).update(order="C"), "exactly"),
    "missing key": (lambda b: _w1(b).pop("shape"), "exactly"),
    "NaN": (lambda b: _w1(b).update(b64=binascii.b2a_base64(struct.pack("<d", math.nan) * 100, newline=False).decode()),
            "non-finite"),
    "infinity": (lambda b: _w1(b).update(b64=binascii.b2a_base64(struct.pack("<d", -math.inf) + bytes(792), newline=False).decode()),
                 "non-finite"),
}


@pytest.mark.parametrize("case", sorted(CORRUPT))
def test_a_malformed_packed_array_is_refused_in_one_line_naming_the_file(tmp_path, fogel_data, case):
    change, words = CORRUPT[case]
    rd = RunDir(tmp_path / "run")
    rd.write_checkpoint(fogel_data[1], KEY)
    resign(rd.checkpoint(0), change)
    with pytest.raises(EvoplayError) as e:
        rd.read_checkpoint(0, KEY)
    msg = str(e.value)
    assert len(msg.splitlines()) == 1 and msg.startswith(f"checkpoint {rd.checkpoint(0)} is damaged: ") and words in msg, msg
    assert msg.endswith("(at state.parents[0].w1)"), msg


def test_an_edited_packed_array_fails_the_checksum(tmp_path, fogel_data):
    rd = RunDir(tmp_path / "run")
    rd.write_checkpoint(fogel_data[1], KEY)
    text = rd.checkpoint(0).read_text()
    i = text.index('"b64":"') + 10
    rd.checkpoint(0).write_text(text[:i] + ("B" if text[i] != "B" else "C") + text[i + 1:])
    with pytest.raises(EvoplayError, match="sha256 does not match"):
        rd.read_checkpoint(0, KEY)


@pytest.mark.parametrize("version", [3, 0, "2", True, None])
def test_an_unknown_version_is_refused_naming_it(tmp_path, fogel_data, version):
    rd = RunDir(tmp_path / "run")
    rd.write_checkpoint(fogel_data[1], KEY)
    resign(rd.checkpoint(0), lambda b: b.update(version=version))
    with pytest.raises(EvoplayError, match=f"format version {version}, not one this evoplay reads"):
        rd.read_checkpoint(0, KEY)


def test_resume_refuses_a_malformed_packed_array_in_one_line(tiny):
    cut = _cut(tiny, "corrupt", lambda rd, data, key: rd.write_checkpoint(data, key))
    path = RunDir(cut).checkpoint(1)
    resign(path, lambda b: _w1(b).update(shape=[3]))
    out = evoplay("evolve", cut / "config.toml", "--out", cut, "--resume", "--quiet", check=False)
    assert out.returncode == 2, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"evoplay: error: checkpoint {path} is damaged: a packed array"), lines
    assert not (cut / "summary.json").exists()
