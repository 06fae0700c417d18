"""The ``$ evoplay ...`` samples in README.md are the real output of those commands.

A sample is a line ``    $ evoplay ARGS`` in an indented block, followed by the lines
it prints (stdout, then stderr), up to a blank line. A line holding only ``...`` stands
for any number of lines; nothing else is tolerated. A sample with no lines after it (an
interactive ``game``) is not run. The commands run in a scratch folder holding copies of
the committed results/, so samples that write files (report, baselines) change nothing.
"""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from test_fuzz_cli import run_in_process

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = re.compile(r"^    \$ evoplay (.*)$")


def samples(text: str) -> list[tuple[str, list[str]]]:
    """(arguments, expected lines) of every sample in ``text``."""
    found, lines = [], text.splitlines()
    i = 0
    while i < len(lines):
        m = SAMPLE.match(lines[i])
        i += 1
        if not m:
            continue
        expected = []
        while i < len(lines) and lines[i].startswith("    ") and not SAMPLE.match(lines[i]):
            expected.append(lines[i][4:])
            i += 1
        found.append((m.group(1), expected))
    return found


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` is ``expected`` with each ``...`` line standing for any lines."""
    if not expected:
        return not actual
    if expected[0].strip() == "...":
        return any(matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and actual[0] == expected[0] and matches(expected[1:], actual[1:])


def run_sample(args: str) -> list[str]:
    code, out, err = run_in_process(shlex.split(args))
    return (out + err).splitlines()


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    for name in ("fogel1993", "baselines"):
        shutil.copytree(ROOT / "results" / name, tmp_path / "results" / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def check(text: str) -> list[str]:
    """Differences between the samples of ``text`` and the real output (empty: all true)."""
    problems = []
    for args, expected in samples(text):
        if not expected:
            continue
        actual = run_sample(args)
        if not matches(expected, actual):
            problems.append(f"$ evoplay {args}\n  README:\n" + "\n".join(f"    {x}" for x in expected)
                            + "\n  real:\n" + "\n".join(f"    {x}" for x in actual))
    return problems


def test_readme_samples_are_true(scratch):
    text = (ROOT / "README.md").read_text()
    checked = [s for s in samples(text) if s[1]]
    assert len(checked) >= 5, "README.md lost its command samples"
    problems = check(text)
    assert not problems, "\n\n".join(problems)


def test_the_checker_finds_a_wrong_sample_and_honours_elisions(scratch):
    good = "\n".join([
        "    $ evoplay match random random --exact --seats a-first",
        "    A = random",
        "    ...",
        "      B wins  0.28810   28.8%",
        "    ...",
        "",
    ])
    assert check(good) == []
    assert len(check(good.replace("0.28810", "0.28811"))) == 1
    assert len(check(good.replace("    ...\n      B wins", "      B wins"))) == 1  # lines left out unmarked
    assert samples("    $ evoplay game --vs logic\n\ntext") == [("game --vs logic", [])]
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"]) and not matches(["a", "d"], ["a", "b", "d"])
