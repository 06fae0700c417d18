"""evoplay's modules import each other without circles, and no recipe imports the command line.

The graph is read from the source with ``ast``: an edge A -> B for every ``import`` of an
evoplay module B anywhere in A, at module level or deferred inside a function (a deferred
import hides a circle from the interpreter, not from the design). Every module is also
imported for real, so the graph covers what exists.
"""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
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


# ---------------------------------------------------------------- the wings and their layers

#: The wings from the bottom up: a module may import (or name by string) only modules of its
#: own wing or of a wing on a lower floor; wings on one floor never reach each other (the
#: framework and the arena know nothing of each other; one game's package, no other game's).
#: ``evoplay`` itself is the public face, which loads nothing when imported: anyone may use
#: its ``__version__``, and it names what it exports.
FLOORS = (
    ("errors", "context"),
    ("files", "networks"),
    ("framework", "arena"),
    ("tictactoe", "checkers", "openspiel"),
    ("games",),
    ("recipes",),
    ("published",),
    ("web",),
    ("cli",),
    ("__main__",),
)
FLOOR = {wing: level for level, wings in enumerate(FLOORS) for wing in wings}
MODULE_TEXT = re.compile(r"^evoplay(?:\.[A-Za-z_][A-Za-z0-9_]*)+(?::[A-Za-z_][\w.]*)?$")


def wing(module: str) -> str:
    return module.split(".")[1] if "." in module else "evoplay"


def named_by_string(name: str, path: Path, modules) -> set[str]:
    """The evoplay modules a module names in its code's strings, as ``module`` or
    ``module:attr`` (to be imported later): docstrings and entry-point group names
    (constants named ``*_GROUP``) are words, not imports."""
    tree = ast.parse(path.read_text(), str(path))
    words = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            words.add(id(body[0].value))
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id.endswith("_GROUP") for t in node.targets):
            words.add(id(node.value))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in words:
            text = node.value.strip()
            if MODULE_TEXT.match(text):
                owner = _owner(text.partition(":")[0], modules)
                if owner and owner != name:
                    found.add(owner)
    return found


def upward(graph_with_strings) -> list[str]:
    bad = []
    for source, targets in graph_with_strings.items():
        for target in targets:
            a, b = wing(source), wing(target)
            if a == b or b == "evoplay" or a == "evoplay":
                continue
            if FLOOR[b] >= FLOOR[a]:
                bad.append(f"{source} -> {target}")
    return sorted(bad)


def test_every_wing_has_a_floor():
    assert {wing(m) for m in module_files()} - {"evoplay"} == set(FLOOR)


def test_the_layer_check_sees_an_upward_import_and_an_upward_string(tmp_path):
    assert upward({"evoplay.arena.match": {"evoplay.recipes.fogel.nets"}}) == ["evoplay.arena.match -> evoplay.recipes.fogel.nets"]
    assert upward({"evoplay.framework.runner": {"evoplay.arena.game"}}) != []  # one floor: no reach
    assert upward({"evoplay.recipes.coevolution": {"evoplay.framework.runner", "evoplay.errors"}}) == []
    source = tmp_path / "m.py"
    source.write_text('"""evoplay.web.app is a word here."""\nPAGE_GROUP = "evoplay.games"\nKINDS = {"k": "evoplay.web.app:make"}\n')
    assert named_by_string("evoplay.arena.x", source, module_files()) == {"evoplay.web.app"}


def test_no_import_climbs_strings_included():
    modules = module_files()
    graph = import_graph()
    for name, path in modules.items():
        graph[name] |= named_by_string(name, path, modules)
    assert upward(graph) == []


def test_the_tic_tac_toe_rules_load_without_the_framework():
    code = ("import sys, evoplay.tictactoe.board\n"
            "print(sorted({m.split('.')[1] for m in sys.modules if m.startswith('evoplay.')}), 'tomli_w' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.split("\n")[0] == "['tictactoe'] False", out.stderr


def test_the_layout_page_lists_every_module_and_only_modules_that_exist():
    """docs/guide/layout.md draws the tree: every module of the package appears there (as a
    path), and every ``evoplay/...py`` path it names exists."""
    page = (ROOT / "docs" / "guide" / "layout.md").read_text()
    named = set(re.findall(r"evoplay/[\w/]+\.py", page))
    files = {str(p.relative_to(ROOT)) for p in PACKAGE.rglob("*.py")}
    assert sorted(named - files) == []
    assert sorted(files - named) == []


#: The eight places outside a game's own package where a built-in game may be named, as the
#: layout page lists them: a module path, or a folder (ending in "/").
GAME_NAMING = ("games.py", "__init__.py", "files/playerfile.py", "framework/recipe.py", "recipes/", "published/",
               "web/", "cli/")
#: A built-in game's package, and its reference in code.
GAME_WORD = re.compile(r"\b(tictactoe|checkers)\b")
GAME_PACKAGE = re.compile(r"evoplay\.(tictactoe|checkers)\b")


def naming_a_game(path: Path) -> list[str]:
    """Where a module names a built-in game: an import of its package, or a string in code (not
    a docstring) with its reference as a word."""
    tree = ast.parse(path.read_text())
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body
            and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    found = []
    for node in ast.walk(tree):
        modules = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names] if isinstance(node, ast.Import) else []
        found += [f"{node.lineno}: import {m}" for m in modules if GAME_PACKAGE.match(m)]
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs and GAME_WORD.search(node.value):
            found.append(f"{node.lineno}: {node.value[:60]!r}")
    return found


def test_the_game_naming_check_sees_an_import_and_a_string_but_not_a_docstring(tmp_path):
    source = tmp_path / "m.py"
    source.write_text('"""Plays checkers."""\nfrom evoplay.tictactoe import board\nGAME = "checkers"\n\n\n'
                      'def f():\n    """tictactoe."""\n    return "a checkersboard"\n')
    assert naming_a_game(source) == ["2: import evoplay.tictactoe", "3: 'checkers'"]


def test_a_built_in_game_is_named_outside_its_package_only_in_the_eight_places_the_layout_page_lists():
    """The board page, the command line's match, tournament, analyze, play and warm-up, the
    framework and the arena name no game: only the places listed (GAME_NAMING) do, each said
    on the layout page."""
    outside = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.split("/")[0] in ("tictactoe", "checkers", "openspiel") or "__pycache__" in rel:
            continue
        found = naming_a_game(path)
        if found:
            outside[rel] = found
    stray = {rel: found for rel, found in outside.items()
             if not any(rel == place or (place.endswith("/") and rel.startswith(place)) for place in GAME_NAMING)}
    assert stray == {}
    assert {"games.py", "web/api.py", "recipes/fogel/recipe.py"} <= set(outside)  # it sees them
    assert [line.partition(": ")[2] for line in outside["web/boards.py"]] == ["'tictactoe'"]  # the panel's table, no more
    assert not any(rel.startswith(("arena/", "framework/study", "cli/gameplay", "cli/play", "web/pages")) for rel in outside)
    page = (ROOT / "docs" / "guide" / "layout.md").read_text()
    listed = page[page.index("Where a built-in game is named outside its own package"):page.index("Outside the package:")]
    assert [f"`evoplay/{place}`" in listed for place in GAME_NAMING] == [True] * len(GAME_NAMING)
    assert len(GAME_NAMING) <= 8
