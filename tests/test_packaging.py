"""Packaging: the licence, and dependencies that say what evoplay imports and which
versions it was tested with (requirements.lock's pins are the lower bounds)."""

import ast
import importlib.metadata
import re
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def lock_pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        name, sep, version = line.strip().partition("==")
        if sep:
            pins[normalise(name)] = version
    return pins


def declared() -> dict[str, str]:
    """pyproject's dependencies as {name: requirement after the name}."""
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    out = {}
    for dep in deps:
        match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9_.-]*)(.*)", dep.strip())
        out[normalise(match.group(1))] = match.group(2).strip()
    return out


def imported_distributions() -> set[str]:
    """The installed distributions that evoplay's modules import (at any depth)."""
    modules = set()
    for path in (ROOT / "evoplay").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                modules.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                modules.add(node.module.split(".")[0])
    modules -= set(sys.stdlib_module_names) | {"evoplay", "__future__"}
    owners = importlib.metadata.packages_distributions()
    missing = sorted(m for m in modules if m not in owners)
    assert not missing, f"imported but not installed: {missing}"
    return {normalise(dist) for m in modules for dist in owners[m]}


def test_license_is_mit_from_the_evoplay_authors():
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n")
    assert "Copyright (c) 2026 the evoplay authors" in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND' in text


def test_dependencies_are_what_evoplay_imports():
    assert set(declared()) == imported_distributions()


def test_dependencies_have_the_locked_versions_as_lower_bounds():
    pins = lock_pins()
    for name, spec in declared().items():
        assert name in pins, f"{name} is not in requirements.lock"
        assert spec == f">={pins[name]}", f"{name}{spec}: expected {name}>={pins[name]}"


def test_configs_ship_with_the_package_and_are_found_by_name(tmp_path, monkeypatch):
    """Configs were not shipped: an installed evoplay had no fogel1993.toml to run."""
    import tomllib

    from evoplay.framework import config

    py = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert py["tool"]["setuptools"]["data-files"] == {"share/evoplay/configs": ["configs/*.toml"]}
    monkeypatch.chdir(tmp_path)  # not the checkout: the name alone must find it
    assert config.find("fogel1993") == ROOT / "configs" / "fogel1993.toml"
    assert config.load("quick.toml")[""]["name"] == "quick"
    with pytest.raises(config.ConfigError, match="configs that come with evoplay: .*fogel1993"):
        config.find("nosuch")
