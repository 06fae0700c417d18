"""Player files: JSON data, validated on load, never code (no pickle).

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

from evoplay.errors import PlayerFileError
from evoplay.atomic import write_text

FORMAT = "evoplay-player"
VERSION = 1

#: kind -> "module:function" building a Player from (architecture, weights, spec).
KINDS = {
    "fogel-net": "evoplay.recipes.fogel.nets:player_from_file",
    "value-net": "evoplay.tictactoe.trained.value_net:player_from_file",
    "outcome-net": "evoplay.tictactoe.trained.outcome_net:player_from_file",
    "ga-value-net": "evoplay.recipes.ga_value_net:player_from_file",
}


def _digest(kind, architecture, weights) -> str:
    blob = json.dumps([kind, architecture, weights], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


def player_document(kind: str, architecture: dict, weights: dict, provenance: dict) -> dict:
    """The JSON document of a player; weights may be numpy arrays."""
    if kind not in KINDS:
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


def read_document(path) -> dict:
    """Read and check the envelope of a player file (not yet the weights)."""
    path = Path(path)
    if not path.is_file():
        raise PlayerFileError(f"player file not found: {path}")
    try:
        doc = json.loads(path.read_text())
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise PlayerFileError(f"player file {path} is not valid JSON: {e}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise PlayerFileError(f"player file {path} is not an {FORMAT} file (missing or wrong 'format')")
    if doc.get("version") != VERSION:
        raise PlayerFileError(f"player file {path}: unsupported version {doc.get('version')!r}")
    for key, kind in (("kind", str), ("architecture", dict), ("weights", dict), ("sha256", str)):
        if not isinstance(doc.get(key), kind):
            raise PlayerFileError(f"player file {path}: '{key}' is missing or not a {kind.__name__}")
    if doc["kind"] not in KINDS:
        raise PlayerFileError(f"player file {path}: unknown kind {doc['kind']!r}")
    if _digest(doc["kind"], doc["architecture"], doc["weights"]) != doc["sha256"]:
        raise PlayerFileError(f"player file {path} was modified: its sha256 does not match its contents")
    return doc


def load_player(path):
    """The Player saved in a file; any defect raises PlayerFileError naming it."""
    return build_player(read_document(path), path)


def build_player(doc: dict, path):
    """The Player of a checked document (``read_document``) read from ``path``."""
    module, func = KINDS[doc["kind"]].split(":")
    builder = getattr(importlib.import_module(module), func)
    try:
        player = builder(doc["architecture"], doc["weights"])
    except PlayerFileError as e:
        raise PlayerFileError(f"player file {path}: {e}") from None
    player.spec = os.fspath(path)
    player.provenance = doc.get("provenance", {})
    return player


def weight_array(weights: dict, name: str, shape: tuple) -> np.ndarray:
    """A named weight array of exactly ``shape``, all finite numbers."""
    if name not in weights:
        raise PlayerFileError(f"weights {name!r} missing")
    try:
        arr = np.asarray(weights[name], dtype=np.float64)
    except (TypeError, ValueError):
        raise PlayerFileError(f"weights {name!r} are not an array of numbers") from None
    if arr.shape != tuple(shape):
        raise PlayerFileError(f"weights {name!r} have shape {arr.shape}, expected {tuple(shape)}")
    if not np.isfinite(arr).all():
        raise PlayerFileError(f"weights {name!r} contain a non-finite number")
    return arr


def arch_int(architecture: dict, name: str, lo: int, hi: int) -> int:
    """An integer architecture field within [lo, hi]."""
    v = architecture.get(name)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise PlayerFileError(f"architecture {name!r} must be an integer in {lo}..{hi}, got {v!r}")
    return v
