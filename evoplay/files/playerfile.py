"""Player files of every game: JSON data, validated on load, never code (no pickle).

The envelope (read, check, sign, resolve a run directory to its champion) is the same
for every game's files; each kind names the builder of its players, so loading a file
walks through no game's modules but its own.

Layout::

    {"format": "evoplay-player", "version": 1, "kind": KIND,
     "architecture": {...}, "weights": {NAME: nested lists of numbers},
     "provenance": {...}, "sha256": HEX}

``sha256`` covers kind, architecture and weights (canonical JSON), so an edited file is
rejected. Each kind names a builder ``module:function`` that takes the architecture and
the weights and returns a Player; the builder checks every shape.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
from pathlib import Path

import numpy as np

from evoplay.files import jsondata
from evoplay.errors import PlayerFileError
from evoplay.files.paths import check_path
from evoplay.files.atomic import write_text
from evoplay.files import usercode

FORMAT = "evoplay-player"
VERSION = 1

#: The entry-point group naming each player-file kind's builder, "module:function" making a
#: Player from (architecture, weights); evoplay's own are in its pyproject.toml.
KIND_GROUP = "evoplay.player_kinds"


def kinds() -> dict[str, str]:
    """Every known player-file kind -> its builder's reference."""
    return usercode.entry_point_refs(KIND_GROUP)


#: The game of a player file that names none: tic-tac-toe, whose files came before files
#: named their game (the one place this rule is written).
LEGACY_GAME = "tictactoe"


def document_game(doc: dict) -> str:
    """The game reference a player document names (``architecture.game``), else ``LEGACY_GAME``."""
    game = doc["architecture"].get("game") if isinstance(doc.get("architecture"), dict) else None
    return game if isinstance(game, str) else LEGACY_GAME


def _digest(kind, architecture, weights) -> str:
    blob = json.dumps([kind, architecture, weights], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


def player_document(kind: str, architecture: dict, weights: dict, provenance: dict) -> dict:
    """The JSON document of a player; weights may be numpy arrays."""
    if kind not in kinds():
        raise ValueError(f"unknown player kind {kind!r}")
    weights = {k: np.asarray(v, dtype=np.float64).tolist() for k, v in weights.items()}
    return {
        "format": FORMAT,
        "version": VERSION,
        "kind": kind,
        "architecture": architecture,
        "weights": weights,
        "provenance": provenance,
        "sha256": _digest(kind, architecture, weights),
    }


def save_player(path, kind: str, architecture: dict, weights: dict, provenance: dict) -> Path:
    """Write a player file atomically; return its path."""
    doc = player_document(kind, architecture, weights, provenance)
    return write_text(path, json.dumps(doc, indent=1) + "\n")


#: Largest player file read, in bytes: 8 times the biggest file evoplay writes (an
#: outcome-net, 1 MiB). Parsed JSON takes several times its size in memory, so a bigger
#: file is refused before it is read.
MAX_FILE_BYTES = 8 << 20


def read_json(path, what: str, max_bytes: int = MAX_FILE_BYTES, error=PlayerFileError):
    """The JSON value in ``path`` (``evoplay.files.jsondata.read_json``, a player file's bound and error
    by default); a missing, special, oversized or malformed file, or an oversized number,
    raises ``error`` with one line naming ``what`` and the problem."""
    return jsondata.read_json(path, what, max_bytes, error)


def read_envelope(path) -> dict:
    """Read a player file and check its envelope, but neither its sha256 nor its weights."""
    path = Path(path)
    doc = read_json(path, "player file")
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise PlayerFileError(f"player file {path} is not an {FORMAT} file (missing or wrong 'format')")
    if type(doc.get("version")) is not int or doc["version"] != VERSION:  # true and 1.0 are not 1
        raise PlayerFileError(f"player file {path}: unsupported version {doc.get('version')!r}")
    for key, kind in (("kind", str), ("architecture", dict), ("weights", dict), ("sha256", str)):
        if not isinstance(doc.get(key), kind):
            raise PlayerFileError(f"player file {path}: '{key}' is missing or not a {kind.__name__}")
    if doc["kind"] not in kinds():
        raise PlayerFileError(f"player file {path}: unknown kind {doc['kind']!r}")
    return doc


def read_document(path) -> dict:
    """Read and check the envelope of a player file and its sha256 (not yet the weights)."""
    doc = read_envelope(path)
    if _digest(doc["kind"], doc["architecture"], doc["weights"]) != doc["sha256"]:
        raise PlayerFileError(
            f"player file {path} was modified: its sha256 does not match its contents "
            f"(after an edit on purpose, `evoplay resign {path}` signs it again)"
        )
    return doc


#: The file that stands for a directory named as a player: a run directory's best champion.
CHAMPION = "champion.json"


def player_path(path) -> Path:
    """The player file ``path`` names: the file itself, or a directory's ``champion.json``
    (a finished run directory names its best champion, as in the web app)."""
    path = check_path(path, "player file", PlayerFileError)
    if not path.is_dir():
        return path
    if not (path / CHAMPION).is_file():
        raise PlayerFileError(f"player file {path} is a directory without a {CHAMPION} "
                              "(a run directory has one once the run has finished)")
    return path / CHAMPION


def load_player(path):
    """The Player saved in a file, or a run directory's best champion (``player_path``);
    any defect raises PlayerFileError naming it."""
    return build_player(read_document(player_path(path)), path)


def resign(path) -> tuple[str, str]:
    """Sign an edited player file again: check everything but the sha256, then store the
    sha256 of its contents. Returns the old and the new sha256 (equal: nothing written)."""
    doc = read_envelope(path)
    build_player(doc, path)  # the weights must make a player
    old, new = doc["sha256"], _digest(doc["kind"], doc["architecture"], doc["weights"])
    if old != new:
        doc["sha256"] = new
        write_text(path, json.dumps(doc, indent=1) + "\n")
    return old, new


class _Weights(dict):
    """A document's weights, noting which arrays its kind's builder read (``weight_array``)."""

    def __init__(self, weights: dict):
        super().__init__(weights)
        self.read: set = set()

    def __getitem__(self, name):
        self.read.add(name)
        return super().__getitem__(name)


def build_player(doc: dict, path):
    """The Player of a checked document (``read_document``) read from ``path``; an array of
    weights its kind does not read is refused, as a file that says more than it plays."""
    module, func = kinds()[doc["kind"]].split(":")
    builder = getattr(importlib.import_module(module), func)
    weights = _Weights(doc["weights"])
    try:
        player = builder(doc["architecture"], weights)
        extra = sorted(set(weights) - weights.read)
        if extra:
            raise PlayerFileError(f"unexpected weights {', '.join(map(repr, extra))} "
                                  f"(a {doc['kind']} file has {', '.join(map(repr, sorted(weights.read)))})")
    except PlayerFileError as e:
        raise PlayerFileError(f"player file {path}: {e}") from None
    player.spec = os.fspath(path)
    player.provenance = doc.get("provenance", {})
    return player


#: Largest magnitude of a weight in a player file of any kind: a network sums at most some
#: 33,000 products of a weight and an input of at most 1,000, so every sum stays far below
#: the largest float (1.8e308) and no evaluation overflows to an infinity (or a NaN, their
#: difference); the evaluation networks' own bound (``MAX_WEIGHT`` in evoplay's networks) is
#: the same figure.
MAX_WEIGHT = 1e100


def _numbers_only(value) -> bool:
    """Whether ``value`` is a number or nested lists of numbers: JSON's ``true`` and
    ``false`` are no weights, though numpy would read them as 1 and 0."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, bool) or not isinstance(item, (int, float)):
            return False
    return True


def weight_array(weights: dict, name: str, shape: tuple) -> np.ndarray:
    """A named weight array of exactly ``shape``, all numbers within +-``MAX_WEIGHT``."""
    if name not in weights:
        raise PlayerFileError(f"weights {name!r} missing")
    value = weights[name]
    if not _numbers_only(value):
        raise PlayerFileError(f"weights {name!r} are not an array of numbers")
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise PlayerFileError(f"weights {name!r} are not an array of numbers") from None
    if arr.shape != tuple(shape):
        raise PlayerFileError(f"weights {name!r} have shape {arr.shape}, expected {tuple(shape)}")
    if not np.isfinite(arr).all():
        raise PlayerFileError(f"weights {name!r} contain a non-finite number")
    if arr.size and not np.abs(arr).max() <= MAX_WEIGHT:
        worst = float(arr.flat[int(np.argmax(np.abs(arr)))])
        raise PlayerFileError(f"weights {name!r}: {worst:.4g} is beyond the +-{MAX_WEIGHT:.0e} a network's weight may "
                              "hold (so that every evaluation is a finite number)")
    return arr


def arch_int(architecture: dict, name: str, lo: int, hi: int) -> int:
    """An integer architecture field within [lo, hi]."""
    v = architecture.get(name)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise PlayerFileError(f"architecture {name!r} must be an integer in {lo}..{hi}, got {v!r}")
    return v
