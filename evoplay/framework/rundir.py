"""The run directory: marker, lock, resolved config, logbooks, champions, summary, checkpoints.

A run directory is recognised by its marker file (``.evoplay-run``); a fresh run refuses
a non-empty folder that is not one, and an existing run unless asked to overwrite or
resume. One run at a time writes a directory: an advisory lock (``flock``) that the
kernel drops when its holder dies, so a killed run never leaves it stuck. Every file is
written atomically. Checkpoints are JSON (floats round-trip exactly), one per trial,
carrying the config's digest, the trial number and a digest of their own content; since
format version 2 the float arrays of a recipe's state are stored as their float64 bytes
(``packing``), and version 1 (every float as decimal text) is still read.
"""

from __future__ import annotations

import contextlib
import csv
import fcntl
import hashlib
import io
import json
import os
import shutil
import tomllib
from pathlib import Path

import numpy as np

from evoplay.files import jsondata
from evoplay.files.atomic import write_text
from evoplay.errors import EvoplayError
from evoplay.framework import packing
from evoplay.files.paths import check_path, read_regular

MARKER = ".evoplay-run"
CHECKPOINT_FORMAT = "evoplay-checkpoint"
#: The checkpoint format version written (2: the state's float arrays packed); those read.
CHECKPOINT_VERSION = 2
CHECKPOINT_VERSIONS = (1, 2)
#: What a run writes (and --overwrite removes); anything else in the folder is left alone.
RUN_ENTRIES = ("config.toml", "summary.json", "environment.json", "champion.json", "curve.png", "curve.svg",
               "analysis.json", "analysis.md", "costs.json", "trials", "checkpoints")
#: Checkpoints larger than this are refused before parsing.
MAX_CHECKPOINT_BYTES = 1 << 30


def make_folders(path: Path) -> list[Path]:
    """Create the folder ``path`` with its missing parents; the folders made, outermost first."""
    missing = [p for p in (path, *path.parents) if not os.path.lexists(p)][::-1]
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        remove_empty(missing)
        raise
    return missing


def remove_empty(folders: list[Path]):
    """Remove ``folders`` (``make_folders``' list), innermost first, while they are empty."""
    for folder in reversed(folders):
        try:
            folder.rmdir()
        except FileNotFoundError:  # never made (a mkdir that failed midway)
            continue
        except OSError:  # not empty: it, and the folders above it, stay
            return


def digest(obj) -> str:
    """sha256 of an object's canonical JSON."""
    return hashlib.sha256(json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _text_digest(body) -> str:
    """sha256 of a checkpoint's text before its ``sha256`` key: ``body`` (as read, keys in file order) encoded again."""
    try:
        return hashlib.sha256(json.dumps(body, separators=(",", ":"), allow_nan=False).encode()).hexdigest()
    except ValueError:  # NaN or infinity: not what write_checkpoint writes
        return ""


def read_run_file(path: Path, raw: bytes | None = None, what: str = ""):
    """The JSON value of the run's file ``path`` (its bytes ``raw`` when read already), its
    numbers bounded (``evoplay.files.jsondata``); a damaged file is refused in one line naming it."""
    try:
        return jsondata.loads((path.read_bytes() if raw is None else raw).decode("utf-8"))
    except jsondata.NumberError as e:
        reason = f"it holds {e}"
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
        reason = f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"
    raise EvoplayError(f"{what}{path} is damaged: {reason}")


def _cell(v):
    return " ".join(map(str, v)) if isinstance(v, list) else v


def _parse_cell(text: str):
    if " " in text or text == "":
        return [float(x) if "." in x or "e" in x else int(x) for x in text.split()]
    try:
        return int(text)
    except ValueError:
        return float(text)


def _as_stored(resolved, stored):
    """A config value as the run's config.toml stores it, where the text resolves anew: a
    game file's reference, made absolute where the run started, names the file's new place
    once the run has moved with it (``--game``), yet the checkpoints were written under the
    place stored. Text is stored exactly as resolved when the run starts, so other values
    are compared as resolved now."""
    return stored if isinstance(resolved, str) and isinstance(stored, str) else resolved


class RunDir:
    """Paths, checks and atomic writers of one run directory."""

    def __init__(self, root):
        self.root = check_path(root, "run directory")
        self._lock = None
        self._made, self._made_lock = [], False  # what ``claim`` made: folders, the lock file
        self._logbooks = {}  # trial -> (fields, rows, text) of the logbook this object wrote last

    config = property(lambda self: self.root / "config.toml")
    summary = property(lambda self: self.root / "summary.json")
    environment = property(lambda self: self.root / "environment.json")
    checkpoints = property(lambda self: self.root / "checkpoints")
    marker = property(lambda self: self.root / MARKER)

    # -- recognising, claiming, clearing
    def is_run(self) -> bool:
        return self.marker.is_file()

    def check_fresh(self, overwrite: bool):
        """Refuse (one line) a location a fresh run must not write into."""
        if self.root.exists() and not self.root.is_dir():
            raise EvoplayError(f"--out {self.root} exists and is not a directory")
        if not self.root.is_dir() or not any(p.name not in (".lock", MARKER) for p in self.root.iterdir()):
            return self._check_writable()
        if not self.is_run():
            raise EvoplayError(f"{self.root} is not empty and is not an evoplay run directory: choose another --out")
        if not overwrite:
            raise EvoplayError(f"{self.root} holds an evoplay run already: --resume continues it, --overwrite replaces it")
        self._check_writable()

    def _check_writable(self):
        """Create the directory and a probe file in it, so a refusal comes now, in one line;
        the folders made for the probe go again (``claim`` makes them when the run starts)."""
        made = []
        try:
            made = make_folders(self.root)
            probe = self.root / f".probe-{os.getpid()}"
            probe.write_bytes(b"")
            probe.unlink()
        except OSError as e:
            raise EvoplayError(f"cannot write to {self.root}: {e.strerror or e} (choose another --out)") from None
        finally:
            remove_empty(made)

    def claim(self):
        """Create the directory and take its lock (held until ``release`` or the process ends);
        what it made is remembered for ``abandon``."""
        lock = self.root / ".lock"
        try:
            made = make_folders(self.root)
            made_lock = not os.path.lexists(lock)
            fd = os.open(lock, os.O_CREAT | os.O_RDWR, 0o644)
        except OSError as e:
            raise EvoplayError(f"cannot write to {self.root}: {e.strerror or e}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise EvoplayError(f"{self.root} is being written by another evoplay run (wait for it, or choose another --out)") from None
        self._lock, self._made, self._made_lock = fd, made, made_lock
        self._remove_stale_temporaries()

    def abandon(self):
        """Undo a claim after a refusal that came before the run wrote anything: the lock file
        and the folders ``claim`` made go again; a folder holding anything else stays (as does
        every folder that was there before), and the lock is released."""
        with contextlib.suppress(OSError):  # never in the way of the refusal being reported
            if self._made_lock and os.listdir(self.root) == [".lock"]:
                (self.root / ".lock").unlink()
            remove_empty(self._made)
        self._made, self._made_lock = [], False
        self.release()

    def mark(self):
        """Mark the (claimed) directory as an evoplay run directory."""
        if not self.is_run():
            write_text(self.marker, json.dumps({"format": "evoplay-run", "version": 1}) + "\n")

    def release(self):
        """Let go of the run directory's lock (the kernel does it anyway when the process ends)."""
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None

    def _remove_stale_temporaries(self):
        """Half-written files of a killed run (atomic writes' ``.NAME.*.tmp``): never results, safe to drop under the lock."""
        for p in self.root.rglob(".*.tmp"):
            if p.is_file() and not p.is_symlink():
                p.unlink()

    def clear(self, report_files: tuple[str, ...] = ()):
        """Remove what a previous run wrote here (``--overwrite``), with the ``report_files`` its
        reports wrote (``Recipe.report_files``); other files stay."""
        for name in (*RUN_ENTRIES, *report_files):
            p = self.root / name
            if p.is_dir() and not p.is_symlink():
                shutil.rmtree(p)
            elif p.exists() or p.is_symlink():
                p.unlink()

    def check_outputs(self, trials: int):
        """Refuse, before anything is written, a path the run will write that is in the way:
        a file's path that holds a folder, a device or a dangling link, a folder's path that
        holds something else (what ``atomic.write_bytes`` would refuse only midway)."""
        files = [self.root / name for name in RUN_ENTRIES if name not in ("trials", "checkpoints")]
        folders = [self.root / "trials", self.checkpoints]
        for t in range(trials):
            files += [self.logbook(t), self.champion(t), self.detail(t), self.checkpoint(t)]
            folders += [self.trial_dir(t), self.trial_dir(t) / "detail"]
        for path in folders:
            if (path.exists() or path.is_symlink()) and not path.is_dir():
                raise EvoplayError(f"cannot write {path}: it exists and is not a directory")
        for path in files:
            if (path.exists() or path.is_symlink()) and not path.is_file():
                raise EvoplayError(f"cannot write {path}: it exists and is not a regular file")

    # -- per-trial files
    def trial_dir(self, trial: int) -> Path:
        return self.root / "trials" / f"trial_{trial:02d}"

    def logbook(self, trial: int) -> Path:
        return self.trial_dir(trial) / "logbook.csv"

    def champion(self, trial: int) -> Path:
        return self.trial_dir(trial) / "champion.json"

    def detail(self, trial: int) -> Path:
        return self.trial_dir(trial) / "detail.log"

    def detail_part(self, trial: int, first: int, last: int) -> Path:
        """The detail log of generations ``first..last`` (joined into detail.log at the end)."""
        return self.trial_dir(trial) / "detail" / f"{first:06d}-{last:06d}.log"

    def join_detail(self, trial: int):
        parts = sorted((self.trial_dir(trial) / "detail").glob("*.log"))
        if parts:
            write_text(self.detail(trial), "".join(p.read_text() for p in parts))
            for p in parts:
                p.unlink()
            parts[0].parent.rmdir()

    # -- checkpoints
    def checkpoint(self, trial: int) -> Path:
        return self.checkpoints / f"trial_{trial:02d}.json"

    def write_checkpoint(self, data: dict, config_digest: str):
        """The trial's checkpoint: compact JSON whose last key, ``sha256``, is the digest of the text before it.

        One encoding serves the file and its digest. The state's float arrays are packed
        (``packing.pack``: a Fogel trial's 10,000 floats took about 5 ms as decimal text, at
        every segment's end of every trial); the logbook stays as its records are.
        """
        body = {"format": CHECKPOINT_FORMAT, "version": CHECKPOINT_VERSION, "config_sha256": config_digest,
                **data, "state": packing.pack(data["state"])}
        text = json.dumps(body, separators=(",", ":"), allow_nan=False)
        sha = hashlib.sha256(text.encode()).hexdigest()
        write_text(self.checkpoint(data["trial"]), f'{text[:-1]},"sha256":"{sha}"}}')

    costs = property(lambda self: self.root / "costs.json")

    def write_costs(self, costs: dict):
        """What each trial's segments have cost, over every launch of the run (``--resume`` adds to it):
        generations run, task seconds and the worker's CPU seconds; with the generation those
        reach and the last segment's own share, which ``read_costs`` takes back when that
        segment's checkpoint never landed. Timings, so no part of the reproducible bytes (as
        environment.json)."""
        def rounded(c: dict) -> dict:
            return {k: round(v, 3) if isinstance(v, float) else rounded(v) if isinstance(v, dict) else v
                    for k, v in c.items()}

        rows = {f"trial_{t:02d}": rounded(c) for t, c in sorted(costs.items())}
        write_text(self.costs, json.dumps(rows, indent=1) + "\n")

    def read_costs(self, states: dict | None = None) -> dict:
        """``write_costs``'s record, by trial ({} when there is none or it is damaged: timings only).

        With ``states`` (each trial's checkpoint, or None), a trial whose costs run ahead of
        its checkpoint, a run stopped between the two writes, loses its last segment: the
        costs are then those of the generations that landed, which a resume runs again.
        """
        def amounts(c: dict) -> dict:
            return {"generations": int(c["generations"]), "seconds": float(c["seconds"]),
                    "cpu_seconds": float(c["cpu_seconds"])}

        try:
            rows = jsondata.read_json(self.costs, "costs", 1 << 20)
            costs = {}
            for name, c in rows.items():
                t, row = int(name.removeprefix("trial_")), amounts(c)
                if "generation" in c:  # (a record written before the last segment was kept has totals only)
                    row.update(generation=int(c["generation"]), last=amounts(c["last"]))
                costs[t] = row
        except (EvoplayError, OSError, KeyError, TypeError, ValueError, AttributeError):
            return {}
        for t, row in costs.items():
            landed = states[t]["generation"] if states and states.get(t) else 0
            if states is not None and row.get("generation", landed) > landed:
                costs[t] = {k: row[k] - row["last"][k] for k in ("generations", "seconds", "cpu_seconds")}
        return costs

    def read_checkpoint(self, trial: int, config_digest: str) -> dict | None:
        """A trial's checkpoint (trial, generation, logbook, state), checked; None if there is none."""
        path = self.checkpoint(trial)
        if not os.path.lexists(path):  # a dangling link is not "no checkpoint": refused below
            return None
        raw = read_regular(path, "checkpoint", MAX_CHECKPOINT_BYTES)  # a regular file, read with a bound
        body = read_run_file(path, raw, "checkpoint ")
        if not isinstance(body, dict) or body.get("format") != CHECKPOINT_FORMAT:
            raise EvoplayError(f"checkpoint {path} is not an evoplay checkpoint (missing or wrong 'format')")
        version = body.get("version")
        if type(version) is not int or version not in CHECKPOINT_VERSIONS:
            raise EvoplayError(f"checkpoint {path} has format version {str(version)[:20]}, not one this evoplay "
                               f"reads ({' or '.join(map(str, CHECKPOINT_VERSIONS))})")
        claimed = body.pop("sha256", None)
        if claimed != _text_digest(body) and claimed != digest(body):  # the second: as checkpoints were once signed
            raise EvoplayError(f"checkpoint {path} is damaged: its sha256 does not match its content")
        if body.get("config_sha256") != config_digest:
            raise EvoplayError(f"checkpoint {path} belongs to another config than {self.config}")
        if type(body.get("trial")) is not int or body["trial"] != trial:
            raise EvoplayError(f"checkpoint {path} holds trial {body.get('trial')!r}, not trial {trial}")
        gen, logbook = body.get("generation"), body.get("logbook")
        if not isinstance(gen, int) or isinstance(gen, bool) or gen < 1 or not isinstance(logbook, list) or len(logbook) != gen:
            raise EvoplayError(f"checkpoint {path} is damaged: generation and logbook disagree")
        if not isinstance(body.get("state"), dict):
            raise EvoplayError(f"checkpoint {path} is damaged: no recipe state")
        if version >= 2:  # version 1 has no packed arrays: a "$array" key there is the recipe's to judge
            try:
                body["state"] = packing.unpack(body["state"], "state")
            except (ValueError, RecursionError) as e:
                raise EvoplayError(f"checkpoint {path} is damaged: {str(e).splitlines()[0][:200] or type(e).__name__}") from None
        return {k: body[k] for k in ("trial", "generation", "logbook", "state")}

    def config_key(self, cfg: dict) -> str:
        """The digest that names the resolved config ``cfg`` in this run's checkpoints: of the keys its
        stored config.toml names. A run stores every key of its config, so that is the whole config; a
        key the recipe's schema gained after the run was stored is absent from the file (so at its
        default, which keeps the earlier behaviour) and left out, as it was when the checkpoints were
        written, so that an earlier run still resumes and reports."""
        try:
            named = tomllib.loads(self.config.read_text())
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            return digest(cfg)
        kept = {}
        for sec, keys in cfg.items():
            table = named if sec == "" else named.get(sec)
            if isinstance(table, dict):  # a whole section the schema gained later is left out too
                kept[sec] = {k: _as_stored(v, table[k]) for k, v in keys.items() if k in table}
        return digest(kept)

    def final_states(self, recipe) -> list:
        """Every trial's recipe state at the run's last generation, read from its checkpoint (for reports)."""
        cfg = recipe.cfg
        states = []
        for t in range(cfg[""]["trials"]):
            data = self.read_checkpoint(t, self.config_key(cfg))
            if data is None or data["generation"] != cfg[""]["generations"]:
                raise EvoplayError(f"checkpoint {self.checkpoint(t)} is missing or not at the run's last generation")
            states.append(recipe.from_data(data["state"]))
        return states

    # -- logbooks
    def write_logbook(self, trial: int, rows: list[dict]):
        """The trial's logbook as CSV: one row per generation, list cells space-separated.

        A logbook only grows: when the rows this object wrote last for the trial begin
        ``rows``, only the new rows are rendered (a run rewrites each logbook at every
        segment's end), and an unchanged logbook whose file is there is not written again.
        """
        fields = list(rows[0]) if rows else ["gen"]
        known, before, text = self._logbooks.get(trial, (None, [], ""))
        n = len(before)
        if known != fields or rows[:n] != before:  # a comparison costs a small part of rendering
            n, text = 0, ""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        if not n:
            w.writerow(fields)
        for r in rows[n:]:
            w.writerow([_cell(r[k]) for k in fields])
        new = text + buf.getvalue()
        path = self.logbook(trial)
        if new != text or not path.is_file():
            write_text(path, new)
        self._logbooks[trial] = (fields, before[:n] + [dict(r) for r in rows[n:]], new)  # copies: a caller may edit its rows

    def read_logbook(self, trial: int, columns: tuple[str, ...] | None = None) -> dict:
        """Columns of a trial's logbook as arrays (list-valued columns as 2-D arrays): all of
        them, or those of ``columns`` (a study's comparison and curves read ``max`` alone,
        which parses a sixth of a Fogel logbook's cells)."""
        path = self.logbook(trial)
        try:
            with open(path, newline="") as f:
                reader = csv.reader(f)
                header = next(reader, [])
                rows = [r for r in reader if r]  # blank lines skipped, as csv.DictReader does
            if not rows or "max" not in header or "gen" not in header:
                raise ValueError("no rows, or no 'gen' and 'max' columns")
            short = next((i for i, r in enumerate(rows) if len(r) != len(header)), None)
            if short is not None:
                raise ValueError(f"line {short + 2} has {len(rows[short])} cells, the header {len(header)}")
            out = {}
            for i, k in enumerate(header):
                if columns is None or k in columns:
                    values = [_parse_cell(r[i]) for r in rows]
                    out[k] = np.array(values, dtype=np.float64 if not isinstance(values[0], list) else None)
            return out
        except (OSError, UnicodeDecodeError, csv.Error, ValueError, TypeError) as e:
            raise EvoplayError(f"logbook {path} is damaged or unreadable: {str(e).splitlines()[0][:200]}") from None

    def trials_present(self) -> list[int]:
        """Trial numbers that have a logbook (finished or not)."""
        return sorted(int(p.parent.name.split("_")[1]) for p in (self.root / "trials").glob("trial_*/logbook.csv")
                      if p.parent.name.split("_")[1].isdigit())

    # -- whole-run files
    def write_json(self, path: Path, obj):
        write_text(path, json.dumps(obj, indent=1, sort_keys=False, allow_nan=False) + "\n")

    def read_summary(self) -> dict:
        if not self.summary.is_file():
            raise EvoplayError(f"{self.root} is not a finished run directory (no summary.json)")
        summary = read_run_file(self.summary)
        if not isinstance(summary, dict) or not all(k in summary for k in ("name", "seed", "trials", "best_trial")):
            raise EvoplayError(f"{self.summary} is damaged: not an evoplay run summary")
        return summary


#: What a run directory holds of the machine and the moment it ran on, not of its results:
#: left out when two runs are compared (``result_differences``).
MACHINE_FILES = ("environment.json", "costs.json", ".lock", "checkpoints")


def result_differences(run, reference) -> list[str]:
    """The files of two run directories whose bytes differ, or that one holds and the other
    not, the machine's own (``MACHINE_FILES``) aside: [] when ``run`` reproduces ``reference``."""
    a, b = Path(run), Path(reference)

    def files(root: Path) -> set[str]:
        found = set()
        for folder, dirs, names in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d not in MACHINE_FILES)
            found |= {os.path.relpath(os.path.join(folder, n), root) for n in names if n not in MACHINE_FILES}
        return found

    ours, theirs = files(a), files(b)
    differ = [f"{name} (only in {a})" for name in sorted(ours - theirs)]
    differ += [f"{name} (only in {b})" for name in sorted(theirs - ours)]
    differ += [name for name in sorted(ours & theirs) if (a / name).read_bytes() != (b / name).read_bytes()]
    return differ


class Run:
    """A run directory opened for reading (``evoplay.load_run``): config, summary, logbooks, champions.

    Works on finished, running and interrupted runs alike; ``summary`` is None until the
    run has finished.
    """

    def __init__(self, root):
        from evoplay.framework.config import load

        self.dir = RunDir(root)
        if not self.dir.is_run() and not self.dir.config.is_file():
            raise EvoplayError(f"{root} is not an evoplay run directory")
        self.root = self.dir.root
        self.config = load(self.dir.config)
        self.summary = self.dir.read_summary() if self.dir.summary.is_file() else None

    @property
    def trials(self) -> list[int]:
        """Trials with a logbook so far."""
        return self.dir.trials_present()

    def logbook(self, trial: int) -> dict:
        """A trial's logbook columns as numpy arrays (``gen``, ``max``, ... as the recipe recorded)."""
        return self.dir.read_logbook(trial)

    def champion(self, trial: int | None = None) -> dict:
        """The champion document of a trial (default: the best trial of a finished run)."""
        if trial is None:
            if self.summary is None:
                raise EvoplayError(f"{self.root} has not finished: name a trial")
            trial = self.summary["best_trial"]
        path = self.dir.champion(trial)
        if not path.is_file():
            raise EvoplayError(f"{path} does not exist (trial {trial} has not finished)")
        return read_run_file(path)

    def __repr__(self):
        state = "finished" if self.summary else "unfinished"
        return f"<Run {self.root} recipe={self.config[''].get('recipe')} trials={len(self.trials)} {state}>"
