"""Typed experiment configs read from TOML; unknown keys, wrong types and bad ranges are errors.

A config names its recipe (``recipe = "fogel"``, the default, or user code:
``package.module:Name`` or ``path/to/file.py:Name``); the recipe's ``schema`` gives its
own sections, the framework adds the run's keys (name, seed, trials, generations) and
the ``[run]`` section. The schema is a table of sections -> keys -> (type, default,
check). A loaded config is a plain nested dict with every key present, so it can be
written beside the results and shipped to Ray workers as data.
"""

from __future__ import annotations

import copy
import math
import re
import sys
import tomllib
from pathlib import Path

import tomli_w

from evoplay import context
from evoplay.files import usercode
from evoplay.errors import ConfigError, EvoplayError
from evoplay.files.paths import check_path, read_regular
from evoplay.framework import league

#: The entry-point group that names recipes (evoplay's built-ins are in its pyproject.toml).
RECIPE_GROUP = "evoplay.recipes"
#: The recipe of a config that names none: the built-in ``fogel``, by name.
DEFAULT_RECIPE = "fogel"
#: Configs larger than this are refused before parsing (a config is a few hundred bytes).
MAX_CONFIG_BYTES = 1 << 20


def in_range(lo=None, hi=None):
    """A schema rule: the value lies in [lo, hi] (either bound may be None).

    A rule is a pair ``(check, wording)``: ``check(value)`` returns True or False (or
    the normalised value, say a path made absolute), and the error says "must be WORDING".
    """

    def check(v):
        return (lo is None or v >= lo) and (hi is None or v <= hi)

    text = f"in [{lo}, {hi}]" if hi is not None else f">= {lo}"
    return check, text


#: A schema rule: the value is true or false (a TOML boolean; 1 and 0 are refused).
BOOLEAN = (lambda v: isinstance(v, bool), "true or false")





def _name(v):
    return bool(re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}", v))


RUN_SCHEMA = {
    "": {
        "name": (str, None, (_name, "a name of 1-100 letters, digits, '.', '_' or '-' (not a path)")),
        "seed": (int, 1993, in_range(0, 2**63 - 1)),
        "trials": (int, 20, in_range(1, 10_000)),
        "generations": (int, 800, in_range(1, 1_000_000)),
        "recipe": (str, DEFAULT_RECIPE, None),
    },
    "run": {
        "checkpoint_every": (int, 100, in_range(1, 1_000_000)),
        "eval_chunks": (int, 0, in_range(0, 10_000)),
        "champion": (str, league.DEFAULT, (lambda v: v in league.RULES, "one of " + ", ".join(map(repr, league.RULES)))),
        "league_openings": (int, 10, in_range(1, 1_000)),
    },
}

def base_dir() -> Path:
    """The folder relative paths of the config being resolved are read from: the config file's
    folder, kept in the context while the config is resolved (checks that read files see it)."""
    bases = context.current().config_bases
    return bases[-1] if bases else Path.cwd()


def builtin_recipes() -> dict[str, str]:
    """Recipe names -> code references: evoplay's built-ins and any installed package's."""
    return usercode.entry_point_refs(RECIPE_GROUP)


def recipe_class(ref: str):
    """The recipe class a config's ``recipe`` value names (built-in name or code reference)."""
    from .recipe import Recipe

    target = builtin_recipes().get(ref, ref)
    if target == ref and not usercode.is_ref(ref):
        known = ", ".join(sorted(builtin_recipes()))
        raise ConfigError(f"config key 'recipe': unknown recipe {ref!r} (built-in: {known}; or package.module:Name, path/to/file.py:Name)")
    try:
        cls = usercode.load(target, "recipe")
    except EvoplayError as e:
        raise ConfigError(f"config key 'recipe': {e}") from None
    if not (isinstance(cls, type) and issubclass(cls, Recipe)):
        raise ConfigError(f"config key 'recipe': {ref} is not a subclass of evoplay.Recipe")
    return cls


def schema_of(cls) -> dict:
    """The full schema of a recipe's configs: the run's keys, then the recipe's sections."""
    clash = set(cls.schema) & set(RUN_SCHEMA)
    if clash:
        raise ConfigError(f"recipe {cls.__name__} redefines reserved config section(s) {sorted(clash)}")
    return {**RUN_SCHEMA, **cls.schema}


def defaults(recipe: str = DEFAULT_RECIPE) -> dict:
    """A recipe's config with every default filled in (Fogel 1993 by default)."""
    return resolve({"recipe": recipe})


def _key(section, key):
    return f"{section}.{key}" if section else key


def _check_value(schema, section, key, value):
    kind, _, rule = schema[section][key]
    name = _key(section, key)
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        if abs(value) > 2**63:
            raise ConfigError(f"config key '{name}' must be a finite number of sensible size, got a {len(str(value))}-digit integer")
        value = float(value)
    if kind is not object and (not isinstance(value, kind) or isinstance(value, bool)):
        shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:57] + "..."
        raise ConfigError(f"config key '{name}' must be {kind.__name__}, got {type(value).__name__} {shown}")
    if kind is float and not math.isfinite(value):
        raise ConfigError(f"config key '{name}' must be a finite number, got {value!r}")
    if kind is float:
        value = value + 0.0  # -0.0 is 0.0 (numpy refuses a scale of -0.0)
    if kind is int and abs(value) > 2**63:
        raise ConfigError(f"config key '{name}' is out of range (a {len(str(abs(value)))}-digit integer)")
    if rule is not None:
        check, text = rule
        try:
            ok = check(value)
        except EvoplayError as e:
            raise ConfigError(f"config key '{name}': {e}") from None
        if ok is not True and ok is not False:  # the check normalised the value (say, a path)
            value, ok = ok, True
        if not ok:
            shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:57] + "..."
            raise ConfigError(f"config key '{name}' must be {text}, got {shown}")
    return value


def resolve(raw: dict, base=None) -> dict:
    """Validate a raw config dict (as read from TOML) and fill in defaults.

    ``base`` is the folder relative paths in the config are read from (default: cwd).
    """
    if not isinstance(raw, dict):
        raise ConfigError("a config must be a table of keys")
    ref = raw.get("recipe", DEFAULT_RECIPE)
    if not isinstance(ref, str) or not ref.strip():
        raise ConfigError(f"config key 'recipe' must be a recipe name or a code reference, got {ref!r}")
    bases = context.current().config_bases
    bases.append(Path(base) if base is not None else Path.cwd())
    try:
        try:
            ref = ref if ref in builtin_recipes() else usercode.absolute_ref(ref, base_dir())
        except EvoplayError as e:
            raise ConfigError(f"config key 'recipe': {e}") from None
        cls = recipe_class(ref)
        schema = schema_of(cls)
        cfg = {sec: {k: copy.deepcopy(d) for k, (_, d, _) in keys.items()} for sec, keys in schema.items()}
        for key, value in raw.items():
            if isinstance(value, dict) and key in schema and key != "":
                for sub, v in value.items():
                    if sub not in schema[key]:
                        raise ConfigError(f"unknown config key '{key}.{sub}' (allowed: {', '.join(schema[key])})")
                    cfg[key][sub] = _check_value(schema, key, sub, v)
            elif key in schema[""]:
                cfg[""][key] = _check_value(schema, "", key, value)
            else:
                allowed = ", ".join([*schema[""], *(s for s in schema if s)])
                raise ConfigError(f"unknown config key '{key}' (allowed: {allowed})")
        cfg[""]["recipe"] = ref
        if cfg[""]["name"] is None:
            cfg[""]["name"] = getattr(cls, "default_name", "") or cls.name or cls.__name__.lower()
        cls.check(cfg)
        league.check(cls, cfg)
    finally:
        bases.pop()
    return cfg


#: The config that comes first in the list of shipped ones: the reference reproduction.
DEFAULT_CONFIG = "fogel1993"


def shipped_configs() -> dict[str, Path]:
    """The configs that come with evoplay, by name: the checkout's configs/ or an installed copy."""
    found = {}
    for folder in (Path(__file__).resolve().parents[2] / "configs", Path(sys.prefix) / "share" / "evoplay" / "configs"):
        if folder.is_dir():
            for p in sorted(folder.glob("*.toml")):
                found.setdefault(p.stem, p)
    return found


def find(path) -> Path:
    """A config file by path, or by the name of a config that comes with evoplay (``fogel1993``)."""
    path = check_path(path, "config file", ConfigError)
    if path.is_file():
        return path
    if len(path.parts) == 1:
        shipped = shipped_configs().get(path.name.removesuffix(".toml"))
        if shipped is not None:
            return shipped
    shipped = sorted(shipped_configs(), key=lambda n: (n != DEFAULT_CONFIG, n))  # the reference run's first
    names = ", ".join(shipped) or "none"
    if len(names) > 200:  # one short line however many configs come with evoplay
        names = names[:200].rpartition(", ")[0] + f", ... ({len(shipped)} in all)"
    raise ConfigError(f"config file not found: {path} (configs that come with evoplay: {names})")


def load(path) -> dict:
    """Read and validate a TOML config file; relative paths in it are read from its folder.

    A bare name (``fogel1993`` or ``quick.toml``) that is no file here names one of the
    configs that come with evoplay.
    """
    path = find(path)
    data = read_regular(path, "config file", MAX_CONFIG_BYTES, ConfigError)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ConfigError(f"config file {path} cannot be read as UTF-8 text: {e}") from None
    limit = sys.getrecursionlimit()
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"config file {path} is not valid TOML: {e}") from None
    except (RecursionError, ValueError) as e:  # deeply nested tables, absurd numbers
        why = str(e).split(";")[0][:100]  # e.g. "Exceeds the limit (4300 digits) for integer string conversion"
        raise ConfigError(f"config file {path} is not a usable TOML config: {type(e).__name__}: {why}") from None
    finally:
        sys.setrecursionlimit(limit)
    return resolve(raw, base=path.parent)


def override(cfg: dict, **values) -> dict:
    """A copy of ``cfg`` with top-level keys replaced (None values are ignored), re-validated."""
    out = copy.deepcopy(cfg)
    schema = schema_of(recipe_class(cfg[""]["recipe"]))
    for key, value in values.items():
        if value is not None:
            out[""][key] = _check_value(schema, "", key, value)
    return out


def to_toml(cfg: dict) -> str:
    """The resolved config as TOML text (written beside the results)."""
    doc = dict(cfg[""])
    for sec, keys in cfg.items():
        if sec:
            doc[sec] = keys
    return tomli_w.dumps(doc)


def differences(a: dict, b: dict) -> list[str]:
    """Dotted names of the keys whose values differ between two resolved configs."""
    keys = []
    for sec in sorted(set(a) | set(b)):
        sa, sb = a.get(sec, {}), b.get(sec, {})
        keys += [_key(sec, k) for k in sorted(set(sa) | set(sb)) if sa.get(k) != sb.get(k)]
    return keys
