"""No module of evoplay keeps data between calls in its globals: what one command, server or
Ray task resolves and reads lives in its context (``evoplay.context``), passed on, never in a
module-level registry or cache that the next caller would see."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "evoplay"

#: Calls that make a mutable container.
MAKERS = {"dict", "list", "set", "defaultdict", "OrderedDict", "deque", "Counter", "WeakValueDictionary",
          "WeakKeyDictionary"}
#: Methods that change a container in place.
MUTATORS = {"append", "extend", "add", "update", "pop", "popitem", "setdefault", "clear", "remove", "discard",
            "insert", "__setitem__", "__delitem__"}
#: Module-level state that is no data between calls, with the reason.
ALLOWED = {
    ("framework/driver.py", "_held"): "write ends of this process's watchdog pipes: OS resources, closed in forked children",
    ("framework/driver.py", "_standing_down"): "watchdog processes told to go, reaped once gone: OS resources",
}
#: Memoized functions: each a pure function of its arguments (the same arguments give the same
#: value whoever asks, so nothing travels between callers), with what it keeps.
MEMOIZED = {
    ("networks/evalnet.py", "regions"): "the 2001 network's 91 board regions, a constant",
    ("networks/evalnet.py", "topology"): "index tables of a layer-size tuple",
    ("checkers/openings.py", "ballots"): "the 157 three-move ballots, a constant",
    ("checkers/spielboard.py", "setup"): "the actions that set OpenSpiel's board to a position, a function of the position",
    ("recipes/fogel/nets.py", "_mask_tables"): "masks of the active weights for every hidden size up to a bound",
    ("tictactoe/players.py", "builtin_player"): "a built-in tic-tac-toe player of its name and parameters (no file, no user code)",
    ("recipes/fogel/exact_yardstick.py", "_table"): "the move table of a built-in player (logic, minimax) of its name",
    ("files/usercode.py", "entry_point_refs"): "the installed packages' entry points, fixed while a process runs",
    ("openspiel/loading.py", "_defaults"): "OpenSpiel's games' default parameters, fixed by the installed pyspiel",
    ("openspiel/loading.py", "_tried"): "whether a game string loads in the installed pyspiel (tried in a child process)",
    ("openspiel/loading.py", "_eligible"): "the names of OpenSpiel's games that fit the interface, fixed by pyspiel",
}


def modules():
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def _is_container(node) -> bool:
    if isinstance(node, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return True
    return (isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute))
            and (node.func.id if isinstance(node.func, ast.Name) else node.func.attr) in MAKERS)


def module_containers(tree) -> set[str]:
    """Names a module binds at its top level to a mutable container."""
    names = set()
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        value = getattr(node, "value", None)
        if value is not None and _is_container(value):
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return names


def _named(node) -> str | None:
    """The name a node refers to: ``X`` or ``module.X``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def mutated(tree) -> set[str]:
    """Names whose container the code changes: ``X[k] = v``, ``del X[k]``, ``X.append(...)``, ``X |= ...``."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            for t in targets:
                if isinstance(t, ast.Subscript):
                    out.add(_named(t.value))
                elif isinstance(node, ast.AugAssign):
                    out.add(_named(t))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS):
            out.add(_named(node.func.value))
    return out - {None}


def memoized(tree) -> set[str]:
    """Top-level functions decorated with ``functools.cache`` or ``lru_cache``."""
    out = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for d in node.decorator_list:
                call = d.func if isinstance(d, ast.Call) else d
                if _named(call) in {"cache", "lru_cache"}:
                    out.add(node.name)
    return out


def registries() -> list[str]:
    trees = {p.relative_to(PACKAGE).as_posix(): ast.parse(p.read_text(), str(p)) for p in modules()}
    changed = set().union(*(mutated(t) for t in trees.values()))
    found = []
    for rel, tree in trees.items():
        for name in sorted(module_containers(tree) & changed):
            if (rel, name) not in ALLOWED:
                found.append(f"{rel}: {name} (a module-level container the code changes)")
        for name in sorted(memoized(tree)):
            if (rel, name) not in MEMOIZED:
                found.append(f"{rel}: {name} (a memoized function: a cache in the module)")
    return found


def test_no_module_keeps_a_registry_or_cache_outside_the_context():
    assert registries() == []


def test_every_allowance_is_still_there():
    """An allowance whose state has gone is removed with it (so the lists stay true)."""
    trees = {p.relative_to(PACKAGE).as_posix(): ast.parse(p.read_text(), str(p)) for p in modules()}
    for rel, name in ALLOWED:
        assert name in module_containers(trees[rel]), (rel, name)
    for rel, name in MEMOIZED:
        assert name in memoized(trees[rel]), (rel, name)


@pytest.mark.parametrize("source, found", [
    ("_SEEN = {}\ndef f(k, v):\n    _SEEN[k] = v\n", {"_SEEN"}),
    ("CACHE: dict = {}\ndef f(k):\n    CACHE.setdefault(k, 1)\n", {"CACHE"}),
    ("ITEMS = []\ndef f(x):\n    ITEMS.append(x)\n", {"ITEMS"}),
    ("S = set()\ndef f(x):\n    global S\n    S |= {x}\n", {"S"}),
    ("TABLE = {'a': 1}\ndef f(k):\n    return TABLE[k]\n", set()),  # read only: a constant
])
def test_the_check_sees_a_registry_written_in_any_of_the_usual_ways(source, found):
    tree = ast.parse(source)
    assert module_containers(tree) & mutated(tree) == found


def test_the_check_sees_a_memoized_function():
    assert memoized(ast.parse("import functools\n@functools.lru_cache(maxsize=8)\ndef f(x):\n    return x\n")) == {"f"}
    assert memoized(ast.parse("from functools import cache\n@cache\ndef g(x):\n    return x\n")) == {"g"}
