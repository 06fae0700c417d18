"""Checkpoint cost: `.venv/bin/python benchmarks/bench_checkpoint.py [--json] [--repeats N] [--run]`.

What a checkpoint costs the driver at each landing of the Fogel run (`configs/fogel1993.toml`:
trial 0's real state at generations 200, 400, 600 and 800, where its segments end), in
format version 2 (`RunDir.write_checkpoint`: the state's float arrays packed as float64
bytes) beside version 1 (the earlier writer, every float as decimal text, reproduced
here): milliseconds per checkpoint (the median of N, wall and CPU), encoding it (all but
the file write) and writing it (the atomic write's fsync included), the writer having
written the trial's previous checkpoint as the driver has; the parts of version 2's
(packing the state, the JSON of the rest, the logbook's share of that JSON, sha256, the
atomic file write); the bytes; the time to read it back (parse, check, unpack). Then the
same for a state of the size of Blondie24's 2001 population (30 networks x 5,046 weights
and as many step sizes, drawn at random: the size, not a run).

`--run`: the full Fogel run instead (`evoplay.run`, embedded Ray, in this process), every
`RunDir.write_checkpoint` of its 80 landings timed (wall, and CPU of the driver's thread).
"""

from __future__ import annotations

import hashlib
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import evoplay.framework.rundir as rundir_module  # noqa: E402
from evoplay.files.atomic import write_text  # noqa: E402
from evoplay.framework import config, packing  # noqa: E402
from evoplay.framework.rundir import RunDir  # noqa: E402
from evoplay.framework.trial import TrialRun  # noqa: E402

KEY = "c" * 64
REPEATS = 50


def write_v1(rd: RunDir, data: dict, key: str):
    """The checkpoint writer of format version 1 (before packing), as it was."""
    body = {"format": "evoplay-checkpoint", "version": 1, "config_sha256": key, **data}
    text = json.dumps(body, separators=(",", ":"), allow_nan=False)
    sha = hashlib.sha256(text.encode()).hexdigest()
    WRITE[0](rd.checkpoint(data["trial"]), f'{text[:-1]},"sha256":"{sha}"}}')


WRITE = [write_text]  # what write_v1 writes with


class NoFileWrite:
    """Within it, the checkpoint writers encode their text to bytes and write no file: what the
    format costs, apart from the atomic write (a temporary file, fsync, rename) both versions share."""

    def __enter__(self):
        self.saved = rundir_module.write_text
        WRITE[0] = rundir_module.write_text = lambda path, text: text.encode("utf-8")

    def __exit__(self, *exc):
        WRITE[0] = rundir_module.write_text = self.saved


def write_v2(rd: RunDir, data: dict, key: str):
    rd.write_checkpoint(data, key)


def timed(fn, repeats: int, setup=None) -> tuple[float, float]:
    """(median wall ms, median CPU ms) of ``fn(setup())`` over ``repeats`` calls after one warm-up call."""
    setup = setup or (lambda: None)
    fn(setup())
    wall, cpu = [], []
    for _ in range(repeats):
        arg = setup()
        w, c = time.perf_counter(), time.process_time()
        fn(arg)
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return 1e3 * statistics.median(wall), 1e3 * statistics.median(cpu)


def measure(data: dict, folder: Path, repeats: int, before: dict | None = None) -> dict:
    """A landing's checkpoint ``data`` written by each version (the writer having written the trial's
    checkpoint before, ``before``, as a run's driver has: the logbook's earlier rows are known)."""
    out = {}
    for version, writer in ((1, write_v1), (2, write_v2)):
        rd = RunDir(folder / f"v{version}")

        def landed_before(version=version, writer=writer):
            fresh = RunDir(folder / f"v{version}")
            if before is not None:
                writer(fresh, before, KEY)
            return fresh

        wall, cpu = timed(lambda fresh: writer(fresh, data, KEY), repeats, landed_before)
        with NoFileWrite():
            enc, enc_cpu = timed(lambda fresh: writer(fresh, data, KEY), repeats, landed_before)
        read, _ = timed(lambda _: rd.read_checkpoint(data["trial"], KEY), max(5, repeats // 5))
        out[f"v{version}"] = {"write_ms": round(wall, 3), "write_cpu_ms": round(cpu, 3),
                              "encode_ms": round(enc, 3), "encode_cpu_ms": round(enc_cpu, 3),
                              "bytes": rd.checkpoint(data["trial"]).stat().st_size, "read_ms": round(read, 3)}
    packed = packing.pack(data["state"])
    rest = {**data, "state": packed}
    text = json.dumps(rest, separators=(",", ":"))
    out["v2_parts_ms"] = {
        "pack": round(timed(lambda _: packing.pack(data["state"]), repeats)[0], 3),
        "json": round(timed(lambda _: json.dumps(rest, separators=(",", ":"), allow_nan=False), repeats)[0], 3),
        "logbook_json": round(timed(lambda _: json.dumps(data["logbook"], separators=(",", ":")), repeats)[0], 3),
        "sha256": round(timed(lambda _: hashlib.sha256(text.encode()).hexdigest(), repeats)[0], 3),
        "file_write": round(timed(lambda _: write_text(folder / "plain.json", text), repeats)[0], 3),
    }
    return out


def blondie24_2001_state(rng: np.random.Generator, networks=30, weights=5046) -> dict:
    """A state the size of Chellapilla and Fogel's 2001 population, as the blondie24 recipe writes it."""
    def net(i):
        return {"id": i, "parent": i - 1, "king": 2.0, "points": 3.0, "record": [1, 2, 2],
                "genome": rng.uniform(-0.2, 0.2, weights).tolist(), "sigma": (0.05 * np.exp(rng.normal(0, 0.1, weights))).tolist()}
    return {"next_id": networks, "parents": [net(i) for i in range(networks)], "best": net(0), "yard": {}, "earlier": [], "versus": []}


def full_run_landings() -> dict:
    """Every checkpoint write of the full Fogel run, timed where the driver makes it."""
    import evoplay

    walls, cpus = [], []
    original = RunDir.write_checkpoint

    def timed_write(self, data, key):
        w, c = time.perf_counter(), time.thread_time()
        original(self, data, key)
        cpus.append(time.thread_time() - c)
        walls.append(time.perf_counter() - w)

    RunDir.write_checkpoint = timed_write
    try:
        with tempfile.TemporaryDirectory() as tmp:
            evoplay.run(ROOT / "configs" / "fogel1993.toml", Path(tmp) / "run")
    finally:
        RunDir.write_checkpoint = original
    return {"landings": len(walls), "wall_ms_median": round(1e3 * statistics.median(walls), 3),
            "cpu_ms_median": round(1e3 * statistics.median(cpus), 3), "cpu_ms_mean": round(1e3 * statistics.mean(cpus), 3),
            "cpu_s_total": round(sum(cpus), 3)}


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--run" in argv:
        report = full_run_landings()
        print(json.dumps(report, indent=1) if "--json" in argv else
              f"full Fogel run: {report['landings']} checkpoints, each {report['wall_ms_median']:.2f} ms wall and "
              f"{report['cpu_ms_median']:.2f} ms of the driver's CPU (medians), {report['cpu_s_total']:.2f} CPU s in all")
        return 0
    repeats = int(argv[argv.index("--repeats") + 1]) if "--repeats" in argv else REPEATS
    cfg = config.load(ROOT / "configs" / "fogel1993.toml")
    recipe = config.recipe_class("fogel")(cfg)
    every = cfg["run"]["checkpoint_every"]
    report = {"fogel": {}, "repeats": repeats}
    trial = TrialRun(recipe, 0)
    with tempfile.TemporaryDirectory() as tmp:
        before = None
        for gen in range(every, cfg[""]["generations"] + 1, every):
            data = trial.run(gen).to_data()
            report["fogel"][gen] = measure(data, Path(tmp) / f"fogel-{gen}", repeats, before)
            before = data
        state = blondie24_2001_state(np.random.default_rng(2001))
        b24 = {"trial": 0, "generation": 1, "logbook": [{"gen": 1, "max": 1.0}], "state": state}
        report["blondie24_2001_size"] = measure(b24, Path(tmp) / "b24", max(3, repeats // 10))
    if "--json" in argv:
        print(json.dumps(report, indent=1))
        return 0
    print(f"checkpoint writes, median of {repeats} (wall ms / CPU ms): encoding (all but the file write) and the whole write;"
          " bytes; read ms. Version 1 -> version 2")
    rows = [(f"Fogel trial 0, generation {g}", r) for g, r in report["fogel"].items()]
    rows.append(("Blondie24 2001 size (30 x 5,046 weights + step sizes)", report["blondie24_2001_size"]))
    for name, r in rows:
        v1, v2, parts = r["v1"], r["v2"], r["v2_parts_ms"]
        print(f"{name}:\n  encode {v1['encode_ms']:.2f}/{v1['encode_cpu_ms']:.2f} -> {v2['encode_ms']:.2f}/{v2['encode_cpu_ms']:.2f} ms"
              f" (x{v1['encode_ms'] / v2['encode_ms']:.1f}),"
              f" write {v1['write_ms']:.2f}/{v1['write_cpu_ms']:.2f} -> {v2['write_ms']:.2f}/{v2['write_cpu_ms']:.2f} ms,"
              f" {v1['bytes']:,} -> {v2['bytes']:,} bytes,"
              f" read {v1['read_ms']:.2f} -> {v2['read_ms']:.2f} ms\n  version 2's parts: "
              + ", ".join(f"{k} {v:.2f} ms" for k, v in parts.items()))
    landings = report["fogel"].values()
    for what in ("encode_ms", "encode_cpu_ms", "write_ms", "write_cpu_ms"):
        print(f"Fogel run, mean over its four landings, {what}: {statistics.mean(r['v1'][what] for r in landings):.2f} -> "
              f"{statistics.mean(r['v2'][what] for r in landings):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
