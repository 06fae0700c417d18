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
import traceback
import types
from functools import cache
from pathlib import Path

from evoplay import context
from evoplay.errors import EvoplayError
from evoplay.files.paths import check_path

_REF = re.compile(r"^(?P<module>[^:]+):(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)$")
_DOTTED = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")

#: What user code may raise while it loads that becomes one line: any exception, and
#: ``sys.exit`` or a KeyboardInterrupt, which would otherwise end evoplay with nothing said.
LOADING_FAILURES = (Exception, SystemExit, KeyboardInterrupt)
#: evoplay's own folder (the package, above this module's ``files/``): its files are never the user's.
_EVOPLAY = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


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
        sources = context.current().sources
        loaded = getattr(sys.modules.get(name), SOURCE_ATTRIBUTE, None)  # executed here, in this context or another
        if loaded is not None and sources.get(name, loaded) == loaded:
            sources[name] = loaded  # the source it was executed from, what this context ships and digests
            return sys.modules[name]
        if name in sources:
            return _exec(name, *sources[name])
        path = check_path(spec, f"{what} {ref!r}: file")
        if not path.is_file():
            raise EvoplayError(f"{what} {ref!r}: file not found: {spec}")
        try:
            source = path.read_bytes().decode("utf-8")  # the file's bytes exactly (``source_digest``)
        except (OSError, UnicodeDecodeError) as e:
            raise EvoplayError(f"{what} {ref!r}: cannot read {spec}: {e}") from None
        return _exec(name, source, str(path))
    if spec in sys.modules:
        _remember(sys.modules[spec])
        return sys.modules[spec]
    try:
        module = importlib.import_module(spec)
    except ModuleNotFoundError as e:
        if spec in context.current().sources:
            return _exec(spec, *context.current().sources[spec])
        if os.getcwd() not in sys.path and e.name and spec.startswith(e.name):
            sys.path.append(os.getcwd())  # the console script does not put the cwd on the path
            return _module(spec, ref, what)
        raise EvoplayError(f"{what} {ref!r}: cannot import {spec}: {e}") from None
    except LOADING_FAILURES as e:  # the user's module failed while importing
        raise EvoplayError(f"{what} {ref!r}: importing {spec} failed: {failure(e)}") from None
    _remember(module)
    return module


#: The attribute of a user module executed from a file's text: (source, file name), as executed.
SOURCE_ATTRIBUTE = "__evoplay_source__"


def _exec(name: str, source: str, filename: str) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__file__ = filename
    setattr(module, SOURCE_ATTRIBUTE, (source, filename))
    sys.modules.setdefault("evoplay_user", types.ModuleType("evoplay_user"))
    sys.modules[name] = module
    try:
        exec(compile(source, filename, "exec"), module.__dict__)
    except LOADING_FAILURES as e:
        del sys.modules[name]
        raise EvoplayError(f"user code {filename} failed while loading: {failure(e)}") from None
    context.current().sources[name] = (source, filename)
    return module


def failure(error: BaseException) -> str:
    """What user code raised while loading, on a line: the user's line it came from where
    the traceback shows one, the exception, and ``sys.exit``'s code said as such."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if is_user_file(f.filename)]
    where = f"{frames[-1].filename}:{frames[-1].lineno}: " if frames else ""
    return where + raised(error) + (" (user code may not end evoplay)" if isinstance(error, SystemExit) else "")


def raised(error: BaseException) -> str:
    """An exception on a line: ``sys.exit(CODE)`` for SystemExit, else its type and message."""
    if isinstance(error, SystemExit):
        return f"it called sys.exit({error.code!r})"
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def is_user_module(module) -> bool:
    """A module of the user's own (a script's file, a project folder), not evoplay's or an installed package's."""
    name = getattr(module, "__name__", "")
    path = getattr(module, "__file__", None)
    if name == "__main__" or name.split(".")[0] == "evoplay" or not path:
        return False
    return is_user_file(str(path))


def is_user_file(path: str) -> bool:
    """A Python file of the user's own: not evoplay's, an installed package's or the standard library's."""
    parts = Path(path).parts
    return (path.endswith(".py") and "site-packages" not in parts and "dist-packages" not in parts
            and not path.startswith((sys.base_prefix, _EVOPLAY)))


def _remember(module: types.ModuleType):
    """Keep the source of an imported user module (not of installed packages or evoplay)."""
    sources = context.current().sources
    if module.__name__ in sources or not is_user_module(module):
        return
    if hasattr(module, SOURCE_ATTRIBUTE):  # executed from shipped text
        sources[module.__name__] = getattr(module, SOURCE_ATTRIBUTE)
        return
    try:
        sources[module.__name__] = (Path(module.__file__).read_bytes().decode("utf-8"), module.__file__)
    except (OSError, UnicodeDecodeError):
        pass


def source_digest(ref: str) -> str | None:
    """The sha256 (hex) of the bytes of the user file a code reference names, as this process
    loaded it (on a Ray worker, the source shipped to it): what a run records of a game file of
    the user's own, to tell later whether the file changed. None for code that is not the
    user's (an installed package) or not loaded here."""
    m = _REF.match(ref.strip()) if isinstance(ref, str) else None
    if not m or not is_ref(ref):
        return None
    spec = m["module"]
    name = module_name(absolute_ref(ref).rpartition(":")[0]) if spec.endswith(".py") else spec
    if name not in context.current().sources:
        return None
    return hashlib.sha256(context.current().sources[name][0].encode("utf-8")).hexdigest()


def user_modules() -> list[types.ModuleType]:
    """The user modules loaded in this process (to pickle their classes by value)."""
    return [sys.modules[n] for n in context.current().sources if n in sys.modules]


def shipment() -> dict:
    """The sources of every user module loaded here, as plain data for Ray tasks."""
    return {name: list(v) for name, v in context.current().sources.items()}


def provide(sources: dict):
    """Make shipped user modules loadable here (a worker that may lack the files)."""
    for name, (source, filename) in sources.items():
        context.current().sources.setdefault(name, (source, filename))


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
