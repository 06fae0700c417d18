"""Typed experiment configs read from TOML; unknown keys, wrong types and bad ranges are errors.

The schema is a table of sections -> keys -> (type, default, check). A loaded config is a
plain nested dict with every key present, so it can be written beside the results and
shipped to Ray workers as data.
"""

from __future__ import annotations

import copy
import math
import tomllib
from pathlib import Path

from evoplay.errors import ConfigError, EvoplayError


def _range(lo=None, hi=None):
    def check(v):
        return (lo is None or v >= lo) and (hi is None or v <= hi)

    text = f"in [{lo}, {hi}]" if hi is not None else f">= {lo}"
    return check, text


def _opponent(v):
    """A player spec string, or a list of {player, weight} tables (a weighted mix)."""
    from evoplay.tictactoe.players import make_player

    if isinstance(v, str):
        make_player(v)
        return True
    if isinstance(v, list) and v:
        for item in v:
            if not isinstance(item, dict) or set(item) != {"player", "weight"}:
                return False
            if not isinstance(item["player"], str) or not isinstance(item["weight"], (int, float)):
                return False
            if not item["weight"] > 0:
                return False
            make_player(item["player"])
        return True
    return False


SCHEMA = {
    "": {
        "name": (str, "fogel1993", None),
        "seed": (int, 1993, _range(0)),
        "trials": (int, 20, _range(1, 10_000)),
        "generations": (int, 800, _range(1, 1_000_000)),
    },
    "population": {
        "parents": (int, 50, _range(2, 1_000_000)),
        "hidden_min": (int, 1, _range(1, 64)),
        "hidden_max": (int, 10, _range(1, 64)),
        "init_scale": (float, 0.5, _range(0.0)),
    },
    "mutation": {
        "sigma": (float, 0.05, _range(0.0)),
        "p_arch": (float, 0.5, _range(0.0, 1.0)),
    },
    "evaluation": {
        "games": (int, 32, _range(1, 1_000_000)),
        "opponent": (object, "logic", (_opponent, "a player spec or a list of {player, weight} tables with weight > 0")),
        "payoff_win": (float, 1.0, None),
        "payoff_draw": (float, 0.0, None),
        "payoff_loss": (float, -10.0, None),
    },
    "selection": {
        "rivals": (int, 10, _range(1)),
    },
    "run": {
        "checkpoint_every": (int, 100, _range(1)),
        "eval_chunks": (int, 0, _range(0, 10_000)),
    },
}


def defaults() -> dict:
    """The Fogel 1993 config with every default filled in."""
    return {sec: {k: copy.deepcopy(d) for k, (_, d, _) in keys.items()} for sec, keys in SCHEMA.items()}


def _key(section, key):
    return f"{section}.{key}" if section else key


def _check_value(section, key, value):
    kind, _, rule = SCHEMA[section][key]
    name = _key(section, key)
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if kind is not object and (not isinstance(value, kind) or isinstance(value, bool)):
        raise ConfigError(f"config key '{name}' must be {kind.__name__}, got {type(value).__name__} {value!r}")
    if kind is float and not math.isfinite(value):
        raise ConfigError(f"config key '{name}' must be a finite number, got {value!r}")
    if rule is not None:
        check, text = rule
        try:
            ok = check(value)
        except EvoplayError as e:
            raise ConfigError(f"config key '{name}': {e}") from None
        if not ok:
            raise ConfigError(f"config key '{name}' must be {text}, got {value!r}")
    return value


def resolve(raw: dict) -> dict:
    """Validate a raw config dict (as read from TOML) and fill in defaults."""
    cfg = defaults()
    for key, value in raw.items():
        if isinstance(value, dict) and key in SCHEMA and key != "":
            for sub, v in value.items():
                if sub not in SCHEMA[key]:
                    raise ConfigError(f"unknown config key '{key}.{sub}' (allowed: {', '.join(SCHEMA[key])})")
                cfg[key][sub] = _check_value(key, sub, v)
        elif key in SCHEMA[""]:
            cfg[""][key] = _check_value("", key, value)
        else:
            allowed = ", ".join([*SCHEMA[""], *(s for s in SCHEMA if s)])
            raise ConfigError(f"unknown config key '{key}' (allowed: {allowed})")
    pop = cfg["population"]
    if pop["hidden_min"] > pop["hidden_max"]:
        raise ConfigError("config key 'population.hidden_min' must not exceed 'population.hidden_max'")
    if cfg["selection"]["rivals"] >= 2 * pop["parents"]:
        raise ConfigError("config key 'selection.rivals' must be below the pool size (2 x population.parents)")
    return cfg


def load(path) -> dict:
    """Read and validate a TOML config file."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"config file not found: {path}")
    try:
        raw = tomllib.loads(path.read_text())
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ConfigError(f"config file {path} is not valid TOML: {e}") from None
    return resolve(raw)


def override(cfg: dict, **values) -> dict:
    """A copy of ``cfg`` with top-level keys replaced (None values are ignored), re-validated."""
    out = copy.deepcopy(cfg)
    for key, value in values.items():
        if value is not None:
            out[""][key] = _check_value("", key, value)
    return out


def to_toml(cfg: dict) -> str:
    """The resolved config as TOML text (written beside the results)."""

    def fmt(v):
        if isinstance(v, str):
            return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, float):
            return repr(v)
        if isinstance(v, list):
            return "[" + ", ".join("{ " + ", ".join(f"{k} = {fmt(x)}" for k, x in item.items()) + " }" for item in v) + "]"
        return str(v)

    lines = [f"{k} = {fmt(v)}" for k, v in cfg[""].items()]
    for sec, keys in cfg.items():
        if sec:
            lines += ["", f"[{sec}]"] + [f"{k} = {fmt(v)}" for k, v in keys.items()]
    return "\n".join(lines) + "\n"
