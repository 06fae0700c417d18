"""User code named by reference: ``package.module:Name`` or ``path/to/file.py:Name``.

Configs name recipes and players by such references. The driver loads them here and
remembers each user module's source text; ``shipment()`` hands those sources to Ray
tasks as plain data and ``provide()`` installs them on a worker under the same module
name, so user code reaches every node without a shared filesystem or an installed
package. A module that a worker can import by itself (an installed package) is imported
as usual; only code the worker lacks runs from the shipped source.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import re
import sys
import tomllib
import types
from functools import cache
from pathlib import Path

from evoplay.errors import EvoplayError
from evoplay.files.paths import check_path

_REF = re.compile(r"^(?P<module>[^:]+):(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)$")
_DOTTED = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")

#: module name -> source text of every user module loaded here (driver or shipped).
_SOURCES: dict[str, tuple[str, str]] = {}


def is_ref(text: str) -> bool:
    """Whether ``text`` reads as a code reference (``module:Name`` or ``file.py:Name``)."""
    m = _REF.match(text.strip()) if isinstance(text, str) else None
    return bool(m) and (m["module"].endswith(".py") or bool(_DOTTED.match(m["module"])))


def absolute_ref(ref: str, base: Path | None = None) -> str:
    """``ref`` with a relative file path made absolute against ``base`` (default: cwd)."""
    module, _, name = ref.strip().rpartition(":")
    if module.endswith(".py"):
        path = check_path(module, "code file").expanduser()
        if not path.is_absolute():
            path = (base or Path.cwd()) / path
        return f"{os.path.abspath(path)}:{name}"
    return ref.strip()


def module_name(path: str) -> str:
    """The module name a user file gets: the same on every node for the same path."""
    stem = re.sub(r"\W", "_", Path(path).stem) or "module"
    return f"evoplay_user.{stem}_{hashlib.sha256(path.encode()).hexdigest()[:10]}"


def load(ref: str, what: str = "object"):
    """The object a reference names; any failure is an EvoplayError naming the reference."""
    m = _REF.match(ref.strip()) if isinstance(ref, str) else None
    if not m or not is_ref(ref):
        raise EvoplayError(f"bad {what} reference {ref!r}: expected package.module:Name or path/to/file.py:Name")
    module = _module(m["module"], ref, what)
    obj = module
    for part in m["name"].split("."):
        if not hasattr(obj, part):
            raise EvoplayError(f"{what} {ref!r}: {m['module']} has no {m['name']!r}")
        obj = getattr(obj, part)
    return obj


def _module(spec: str, ref: str, what: str) -> types.ModuleType:
    if spec.endswith(".py"):
        name = module_name(spec)
        if name in sys.modules:
            return sys.modules[name]
        if name in _SOURCES:
            return _exec(name, *_SOURCES[name])
        path = check_path(spec, f"{what} {ref!r}: file")
        if not path.is_file():
            raise EvoplayError(f"{what} {ref!r}: file not found: {spec}")
        try:
            source = path.read_text()
        except (OSError, UnicodeDecodeError) as e:
            raise EvoplayError(f"{what} {ref!r}: cannot read {spec}: {e}") from None
        return _exec(name, source, str(path))
    if spec in sys.modules:
        return sys.modules[spec]
    try:
        module = importlib.import_module(spec)
    except ModuleNotFoundError as e:
        if spec in _SOURCES:
            return _exec(spec, *_SOURCES[spec])
        if os.getcwd() not in sys.path and e.name and spec.startswith(e.name):
            sys.path.append(os.getcwd())  # the console script does not put the cwd on the path
            return _module(spec, ref, what)
        raise EvoplayError(f"{what} {ref!r}: cannot import {spec}: {e}") from None
    except Exception as e:  # the user's module failed while importing
        raise EvoplayError(f"{what} {ref!r}: importing {spec} failed: {type(e).__name__}: {e}") from None
    _remember(module)
    return module


def _exec(name: str, source: str, filename: str) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__file__ = filename
    sys.modules.setdefault("evoplay_user", types.ModuleType("evoplay_user"))
    sys.modules[name] = module
    try:
        exec(compile(source, filename, "exec"), module.__dict__)
    except Exception as e:
        del sys.modules[name]
        raise EvoplayError(f"user code {filename} failed while loading: {type(e).__name__}: {e}") from None
    _SOURCES[name] = (source, filename)
    return module


def is_user_module(module) -> bool:
    """A module of the user's own (a script's file, a project folder), not evoplay's or an installed package's."""
    name = getattr(module, "__name__", "")
    path = getattr(module, "__file__", None)
    if name == "__main__" or name.split(".")[0] == "evoplay" or not path or not str(path).endswith(".py"):
        return False
    parts = Path(path).parts
    return "site-packages" not in parts and "dist-packages" not in parts and not str(path).startswith(sys.base_prefix)


def _remember(module: types.ModuleType):
    """Keep the source of an imported user module (not of installed packages or evoplay)."""
    if not is_user_module(module):
        return
    try:
        _SOURCES[module.__name__] = (Path(module.__file__).read_text(), module.__file__)
    except OSError:
        pass


def user_modules() -> list[types.ModuleType]:
    """The user modules loaded in this process (to pickle their classes by value)."""
    return [sys.modules[n] for n in _SOURCES if n in sys.modules]


def shipment() -> dict:
    """The sources of every user module loaded here, as plain data for Ray tasks."""
    return {name: list(v) for name, v in _SOURCES.items()}


def provide(sources: dict):
    """Make shipped user modules loadable here (a worker that may lack the files)."""
    for name, (source, filename) in sources.items():
        _SOURCES.setdefault(name, (source, filename))


@cache
def entry_point_refs(group: str) -> dict[str, str]:
    """``name -> "module:attr"`` of an entry-point group: every installed package's, evoplay's
    own included. A checkout that runs without being installed (a Ray job's working
    directory) has no package metadata; its ``pyproject.toml`` gives evoplay's own then."""
    from importlib.metadata import entry_points

    refs = {e.name: e.value for e in entry_points(group=group)}
    if not any(value.startswith("evoplay.") for value in refs.values()):
        pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
        if pyproject.is_file():
            table = tomllib.loads(pyproject.read_text()).get("project", {}).get("entry-points", {})
            refs = {**table.get(group, {}), **refs}
    return refs
