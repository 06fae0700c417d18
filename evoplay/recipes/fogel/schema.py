"""The Fogel recipe's config schema: its sections and keys, and the checks of its player specs.

A player spec in a config (the evaluation opponent, or each of a weighted mix) is checked
when the config is read, with a relative file path made absolute against the config's
folder; ``player_files`` and ``spec_files`` read the player files a config names, which the
recipe ships to Ray workers.
"""

from __future__ import annotations

from evoplay.errors import SpecError
from evoplay.files.paths import check_path
from evoplay.files.playerfile import player_path, read_document
from evoplay.framework import config
from evoplay.tictactoe.players import make_player
from evoplay.tictactoe.userplayer import split_user_spec


def _spec_path(spec: str) -> str:
    """A player spec with a relative file path made absolute against the config's folder."""
    from evoplay.files import usercode

    spec = spec.strip()
    ref, params = split_user_spec(spec)
    if ref is not None:
        return usercode.absolute_ref(ref, config.base_dir()) + (f":{params}" if params else "")
    if spec.endswith(".json") or "/" in spec:
        path = check_path(spec, "player file", SpecError).expanduser()
        return str(path if path.is_absolute() else (config.base_dir() / path).resolve())
    return spec


def check_player_spec(v: str) -> str:
    """A player spec whose relative file path is made absolute against the config's folder; checked."""
    v = _spec_path(v)
    make_player(v)
    return v


def check_opponent(v):
    """A player spec, or a list of {player, weight} tables (a weighted mix); paths made absolute."""
    if isinstance(v, str):
        return check_player_spec(v)
    if isinstance(v, list) and 0 < len(v) <= 100:
        out = []
        for item in v:
            if not isinstance(item, dict) or set(item) != {"player", "weight"}:
                return False
            if not isinstance(item["player"], str) or isinstance(item["weight"], bool):
                return False
            if not isinstance(item["weight"], (int, float)) or not 0 < item["weight"] < 1e12:
                return False
            out.append({"player": _spec_path(item["player"]), "weight": item["weight"]})
            make_player(out[-1]["player"])
        return out
    return False


_PAYOFF = config.in_range(-1e6, 1e6)

SCHEMA = {
    "population": {
        "parents": (int, 50, config.in_range(2, 100_000)),
        "hidden_min": (int, 1, config.in_range(1, 64)),
        "hidden_max": (int, 10, config.in_range(1, 64)),
        "init_scale": (float, 0.5, config.in_range(0.0, 1e3)),
    },
    "mutation": {
        "sigma": (float, 0.05, config.in_range(0.0, 1e3)),
        "p_arch": (float, 0.5, config.in_range(0.0, 1.0)),
    },
    "evaluation": {
        "games": (int, 32, config.in_range(1, 100_000)),
        "opponent": (object, "logic", (check_opponent, "a player spec or a list of up to 100 {player, weight} tables with 0 < weight < 1e12")),
        "payoff_win": (float, 1.0, _PAYOFF),
        "payoff_draw": (float, 0.0, _PAYOFF),
        "payoff_loss": (float, -10.0, _PAYOFF),
    },
    "selection": {
        "rivals": (int, 10, config.in_range(1, 1_000_000)),
    },
}


def player_files(cfg: dict) -> dict:
    """Checked documents of the player files the config names as opponents, by path."""
    opponent = cfg["evaluation"]["opponent"]
    return spec_files([opponent] if isinstance(opponent, str) else [o["player"] for o in opponent])


def spec_files(specs) -> dict:
    """Checked documents of the player files among player specs, by path (what ``ship`` sends to workers)."""
    return {s: read_document(player_path(s)) for s in specs if split_user_spec(s)[0] is None and (s.endswith(".json") or "/" in s)}
