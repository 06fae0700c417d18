"""evoplay's modules import each other without circles, and no recipe imports the command line.

The graph is read from the source with ``ast``: an edge A -> B for every ``import`` of an
evoplay module B anywhere in A, at module level or deferred inside a function (a deferred
import hides a circle from the interpreter, not from the design). Every module is also
imported for real, so the graph covers what exists.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "evoplay"


def module_files() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _owner(name: str, modules) -> str | None:
    """The evoplay module that ``name`` (a module or a name inside one) belongs to."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(name: str, path: Path, modules) -> set[str]:
    """The evoplay modules that module ``name`` imports, anywhere in its source."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            found |= {f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names}
    owners = {_owner(n, modules) for n in found}
    return {o for o in owners if o is not None and o != name}


def import_graph() -> dict[str, set[str]]:
    modules = module_files()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of the graph as a list of modules (first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(v):
        state[v] = 1
        path.append(v)
        for w in sorted(graph[v]):
            if state.get(w) == 1:
                return path[path.index(w):] + [w]
            if w not in state:
                found = visit(w)
                if found:
                    return found
        path.pop()
        state[v] = 2
        return None

    for v in sorted(graph):
        if v not in state:
            found = visit(v)
            if found:
                return found
    return None


def test_the_cycle_finder_finds_a_circle_and_accepts_a_tree():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_graph_sees_deferred_and_relative_imports():
    graph = import_graph()
    assert "evoplay.networks.arithmetic" in graph["evoplay.tictactoe.players"]  # module level
    assert "evoplay.files.playerfile" in graph["evoplay.tictactoe.players"]  # inside make_player
    assert "evoplay.errors" in graph["evoplay.files.usercode"]  # from .errors import ...
    assert "evoplay.cli.group" in graph["evoplay.cli.play"]


def test_evoplay_modules_import_each_other_without_circles():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import circle: " + " -> ".join(cycle)


def test_no_recipe_imports_the_command_line():
    graph = import_graph()
    for name, targets in graph.items():
        if name.startswith("evoplay.recipes"):
            assert not {t for t in targets if t.startswith("evoplay.cli")}, f"{name} imports the command line"


@pytest.mark.parametrize("name", sorted(module_files()))
def test_every_module_imports(name):
    if name.endswith("__main__"):
        pytest.skip("runs the command line when imported")
    importlib.import_module(name)
