"""The README and the documentation are true: their samples print what they show, their
code runs as written, and the site builds with every internal link resolving.

Every page (README.md and docs/**/*.md) is followed literally, top to bottom, in a fresh
folder holding copies of configs/, examples/, results/fogel1993 and results/baselines,
as a checkout does:

- a block whose first line is ``# NAME.py`` or ``# NAME.toml`` is saved under that name;
- a ```` ```console ```` block: each ``$ evoplay ARGS`` line is run; the lines after it, up
  to the next ``$`` line, are what it prints (stdout, then stderr) and must match, a line
  ``...`` standing for any number of lines; a command shown without output must succeed;
- the README's indented samples (``    $ evoplay ARGS`` and the lines it prints) are
  checked the same way; one without output (an interactive ``game``) is not run;
- a ```` ```python ```` block is run as a script and must succeed; a ```` ```text ````
  block right after it is its standard output, matched the same way;
- ``--8<-- "PATH"`` includes a repository file (as ``pymdownx.snippets`` does);
- any other block (```` ```sh ````, an unnamed ```` ```toml ````) is shown, not run.

The pages generated at build time (the references, the results) are checked by the
strict build and the link check below.
"""

from __future__ import annotations

import html.parser
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
ENV = {**{k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}, "RAY_USAGE_STATS_ENABLED": "0",
       "NO_MKDOCS_2_WARNING": "1"}
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)
INDENTED = re.compile(r"^    \$ evoplay (.*)$")
SNIPPET = re.compile(r'^--8<-- "([^"]+)"$', re.M)
SAVED = re.compile(r"# ([\w.-]+\.(?:py|toml))")
STEP_SECONDS = 600


# ---------------------------------------------------------------- reading a page


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` is ``expected`` with each ``...`` line standing for any lines."""
    if not expected:
        return not actual
    if expected[0].strip() == "...":
        return any(matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and actual[0] == expected[0] and matches(expected[1:], actual[1:])


def console_steps(body: str) -> list[tuple]:
    """("run", args, expected lines or None) for each ``$ evoplay`` line of a console block."""
    steps = []
    for line in body.splitlines():
        if line.startswith("$ "):
            assert line.startswith("$ evoplay "), f"a console block runs evoplay only: {line}"
            steps.append(["run", line[len("$ evoplay "):], []])
        else:
            assert steps, f"output before any command in a console block: {line}"
            steps[-1][2].append(line)
    return [(kind, args, out or None) for kind, args, out in steps]


def indented_steps(text: str) -> list[tuple]:
    """The README's indented samples: ("run", args, expected) for those that show output."""
    steps, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        m = INDENTED.match(lines[i])
        i += 1
        if not m:
            continue
        expected = []
        while i < len(lines) and lines[i].startswith("    ") and not INDENTED.match(lines[i]):
            expected.append(lines[i][4:])
            i += 1
        if expected:
            steps.append(("run", m.group(1), expected))
    return steps


def steps_of(text: str) -> list[tuple]:
    """What following a page means, in order: ("save", name, body), ("run", args, expected),
    ("python", body, expected)."""
    text = SNIPPET.sub(lambda m: (ROOT / m.group(1)).read_text().rstrip("\n"), text)
    steps, last, pos = [], None, 0
    for m in FENCE.finditer(text):
        between = text[pos:m.start()]
        steps += indented_steps(between)
        pos = m.end()
        kind, body = m.group(1), m.group(2)
        saved = SAVED.fullmatch(body.splitlines()[0]) if body.strip() else None
        if saved:
            steps.append(("save", saved.group(1), body))
        elif kind == "console":
            steps += console_steps(body)
        elif kind == "python":
            steps.append(("python", body, None))
        elif kind == "text" and last == "python" and not between.strip():
            steps[-1] = ("python", steps[-1][1], body.splitlines())
        last = "saved" if saved else kind
    steps += indented_steps(text[pos:])
    return steps


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def runnable_pages() -> list[str]:
    return [str(p.relative_to(ROOT)) for p in pages() if any(s[0] != "save" for s in steps_of(p.read_text()))]


# ---------------------------------------------------------------- following a page


def scratch_checkout(folder: Path) -> Path:
    for name in ("configs", "examples"):
        shutil.copytree(ROOT / name, folder / name)
    for name in ("fogel1993", "baselines"):
        shutil.copytree(ROOT / "results" / name, folder / "results" / name, ignore=shutil.ignore_patterns("checkpoints"))
    return folder


def follow(steps: list[tuple], cwd: Path, evoplay=None) -> list[str]:
    """Do what a page says, in order; the differences from what it shows (empty: all true).

    ``$ evoplay`` lines run through ``evoplay`` (``conftest.run_evoplay_here``: the command's
    ``main`` in this process, in the module's Ray session, which saves each command a
    Python start and a Ray start); without it, and always for a page's Python blocks, in a
    process of their own."""
    problems = []
    for n, (kind, what, expected) in enumerate(steps):
        if kind == "save":
            (cwd / what).write_text(expected)
            continue
        if kind == "run":
            argv = [str(BIN / "evoplay"), *shlex.split(what)]
            shown = f"$ evoplay {what}"
        else:
            script = cwd / f"block_{n}.py"
            script.write_text(what)
            argv = [sys.executable, str(script)]
            shown = f"python block {n}:\n{what}"
        if kind == "run" and evoplay is not None:
            done = evoplay(*argv[1:], cwd=cwd, check=False, env={"RAY_USAGE_STATS_ENABLED": "0"})
        else:
            done = subprocess.run(argv, cwd=cwd, env=ENV, capture_output=True, text=True, timeout=STEP_SECONDS)
        actual = (done.stdout + done.stderr).splitlines() if kind == "run" else done.stdout.splitlines()
        if expected is None or kind == "python":
            if done.returncode != 0:
                problems.append(f"{shown}\n  failed (exit {done.returncode}):\n{done.stderr[-3000:]}")
                break  # later steps build on this one
        if expected is not None and not matches(expected, actual):
            problems.append(f"{shown}\n  page:\n" + "\n".join(f"    {x}" for x in expected)
                            + "\n  real:\n" + "\n".join(f"    {x}" for x in actual))
    return problems


@pytest.mark.parametrize("page", runnable_pages())
def test_the_page_is_true_when_followed_as_written(page, tmp_path, ray_here, evoplay_here):
    problems = follow(steps_of((ROOT / page).read_text()), scratch_checkout(tmp_path), evoplay_here)
    assert not problems, "\n\n".join(problems)


def test_the_pages_show_what_they_should():
    readme = steps_of((ROOT / "README.md").read_text())
    assert len(readme) >= 4 and any(k == "python" and out for k, _, out in readme), "the README lost its samples"
    assert len((ROOT / "README.md").read_text().splitlines()) <= 250
    every = [s for p in pages() for s in steps_of(p.read_text())]
    assert sum(k == "run" and out is not None for k, _, out in every) >= 15
    assert sum(k == "python" for k, _, _ in every) >= 8
    tutorials = {p.stem for p in (ROOT / "docs" / "tutorials").glob("*.md")}
    assert {"own-recipe", "own-player", "study", "deap-on-ray", "web-app"} <= tutorials


def readme_broken_links(text: str) -> list[str]:
    """Relative links of the README (it is read on its own, outside the site) that name no file."""
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    return [link for link in links
            if not urlsplit(link).scheme and not (ROOT / unquote(urlsplit(link).path)).exists()]


def test_the_readme_links_to_files_that_exist():
    assert readme_broken_links((ROOT / "README.md").read_text()) == []
    assert readme_broken_links("[a](docs/index.md) [b](docs/nope.md) [c](https://example.org/x)") == ["docs/nope.md"]


def test_the_checker_finds_a_wrong_sample_and_honours_elisions(tmp_path, evoplay_here):
    page = "\n".join([
        "```console",
        "$ evoplay match random random --exact --seats a-first",
        "A = random",
        "...",
        "  B wins  0.28810   28.8%",
        "...",
        "```",
        "",
        "```python",
        "print(6 * 7)",
        "```",
        "",
        "```text",
        "42",
        "```",
        "",
    ])
    assert steps_of(page)[1] == ("python", "print(6 * 7)\n", ["42"])
    assert follow(steps_of(page), tmp_path) == []
    assert len(follow(steps_of(page.replace("0.28810", "0.28811")), tmp_path)) == 1
    # The same, the command run in this process (as the pages' tests run theirs).
    assert follow(steps_of(page), tmp_path, evoplay_here) == []
    assert len(follow(steps_of(page.replace("0.28810", "0.28811")), tmp_path, evoplay_here)) == 1
    assert len(follow(steps_of(page.replace("--seats a-first", "--seats a-fist")), tmp_path, evoplay_here)) == 1
    assert len(follow(steps_of(page.replace("...\n  B wins", "  B wins")), tmp_path)) == 1  # lines left out unmarked
    assert len(follow(steps_of(page.replace("6 * 7", "6 * 8")), tmp_path)) == 1
    assert len(follow(steps_of(page.replace("print(6 * 7)", "raise SystemExit(3)")), tmp_path)) == 1
    assert steps_of("    $ evoplay game --vs logic\n\ntext") == []
    assert steps_of("```sh\nevoplay evolve fogel1993\n```\n") == []
    assert steps_of('```python\n--8<-- "examples/center_first.py"\n```\n')[0][1].startswith('"""A user-defined player')
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"]) and not matches(["a", "d"], ["a", "b", "d"])


# ---------------------------------------------------------------- the site


class Links(html.parser.HTMLParser):
    """The ids of a page and the links it makes (href and src)."""

    def __init__(self):
        super().__init__()
        self.ids, self.links, self.fetched = set(), [], []

    def handle_starttag(self, tag, attrs):
        for key, value in attrs:
            if key in ("id", "name") and value:
                self.ids.add(value)
            if key in ("href", "src") and value:
                self.links.append(value)
                if tag != "a" and urlsplit(value).scheme in ("http", "https", ""):  # fetched by the page itself
                    self.fetched.append(value)


def broken_links(site: Path) -> list[str]:
    """Internal links of the built site whose file or anchor does not exist, or that name a
    folder (opened from disk, a browser lists the folder), and what a page fetches from
    another host (a font, a script: an offline or private machine would not get the page)."""
    parsed = {}

    def parse(path: Path) -> Links:
        if path not in parsed:
            parser = Links()
            parser.feed(path.read_text(errors="replace"))
            parsed[path] = parser
        return parsed[path]

    broken = []
    for page in sorted(site.rglob("*.html")):
        for link in parse(page).links:
            url = urlsplit(link)
            if url.scheme or url.netloc or link.startswith(("mailto:", "javascript:", "data:")):
                if url.netloc and link in parse(page).fetched:
                    broken.append(f"{page.relative_to(site)}: {link} (another host)")
                continue
            if not url.path:
                target = page
            elif url.path.startswith("/"):  # the 404 page links from the site's root
                target = site / unquote(url.path).lstrip("/")
            else:
                target = (page.parent / unquote(url.path)).resolve()
            if target.is_dir():
                broken.append(f"{page.relative_to(site)}: {link} (a folder)")
            elif not target.is_file():
                broken.append(f"{page.relative_to(site)}: {link} (no file)")
            elif url.fragment and target.suffix == ".html" and unquote(url.fragment) not in parse(target).ids:
                broken.append(f"{page.relative_to(site)}: {link} (no anchor)")
    return broken


def test_the_site_builds_strictly_and_every_internal_link_resolves(tmp_path):
    site = tmp_path / "site"
    build = subprocess.run([str(BIN / "mkdocs"), "build", "--strict", "--site-dir", str(site)], cwd=ROOT, env=ENV,
                           capture_output=True, text=True, timeout=900)
    assert build.returncode == 0, build.stderr[-4000:]
    assert "WARNING" not in build.stderr, build.stderr[-4000:]
    assert broken_links(site) == []
    assert "end of life" not in build.stderr  # the theme's banner, silenced (Makefile, ENV)
    for page in ("reference/cli", "reference/config", "reference/api", "tutorials/cluster", "results/fogel1993",
                 "results/ablation", "results/beyond-fogel"):
        assert (site / f"{page}.html").is_file(), page  # a file, not a folder: the site opens from disk
    committed = {d.name for d in (ROOT / "results").iterdir() if d.is_dir()}
    assert committed <= {p.stem for p in (site / "results").glob("*.html")}
    assert "fonts.googleapis" not in (site / "index.html").read_text()
    text = (site / "reference" / "cli.html").read_text()
    from evoplay.cli import cli

    assert all(f"evoplay {name} --help" in text for name in cli.commands)
    config = (site / "reference" / "config.html").read_text()
    assert "checkpoint_every" in config and "points_loss" in config and "tournsize" in config


def test_the_link_check_finds_a_missing_page_and_a_missing_anchor(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "page.html").write_text('<h2 id="here">x</h2><a href="#here">ok</a><a href="../b.html">no</a>'
                                             '<a href="#gone">no</a><a href="https://example.org/">ext</a>'
                                             '<link rel="stylesheet" href="https://fonts.example.org/css">')
    (tmp_path / "index.html").write_text('<a href="a/page.html#here">ok</a><a href="a/page.html#there">no</a>'
                                         '<img src="a/x.png"><a href="a/">folder</a>')
    assert sorted(broken_links(tmp_path)) == [
        "a/page.html: #gone (no anchor)", "a/page.html: ../b.html (no file)",
        "a/page.html: https://fonts.example.org/css (another host)",
        "index.html: a/ (a folder)", "index.html: a/page.html#there (no anchor)", "index.html: a/x.png (no file)",
    ]


def _hook():
    spec = importlib.util.spec_from_file_location("docs_generate", ROOT / "docs" / "hooks" / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_config_reference_cannot_drift_from_the_schemas(tmp_path, monkeypatch):
    from mkdocs.exceptions import PluginError

    hook = _hook()
    page = hook.config_page()
    from evoplay.framework import config as configs

    for name in configs.builtin_recipes():
        for section, keys in configs.schema_of(configs.recipe_class(name)).items():
            for key, (kind, default, rule) in keys.items():
                assert f"| `{key}` |" in page, (name, section, key)
    assert "| `sigma` | float | `0.05` | in [0.0, 1000.0] |" in page
    table = (ROOT / "docs" / "hooks" / "config_keys.toml").read_text()
    monkeypatch.setattr(hook, "HERE", tmp_path)
    (tmp_path / "config_keys.toml").write_text(table.replace('"ga.elite" =', '# "ga.elite" ='))
    with pytest.raises(PluginError, match="no meaning for .*ga.elite"):
        hook.config_page()
    (tmp_path / "config_keys.toml").write_text(table + '"ga.nonsense" = "a key no recipe has"\n')
    with pytest.raises(PluginError, match="ga.nonsense"):
        hook.config_page()


def test_numbers_quoted_in_prose_come_from_results_and_unknown_ones_fail():
    import json

    from mkdocs.exceptions import PluginError

    hook = _hook()
    summary = json.loads((ROOT / "results" / "fogel1993" / "summary.json").read_text())
    assert hook.fill("{{ fogel1993:last10 | .3f }}", "x") == f"{summary['mean_max_payoff']['last10']:.3f}"
    assert hook.fill("{{ fogel1993/summary.json:trials }} trials", "x") == f"{summary['trials']} trials"
    analysis = json.loads((ROOT / "results" / "fogel1993" / "analysis.json").read_text())
    pays = [c["expected_payoff_32_vs_logic"] for c in analysis["champions"]]
    assert hook.fill("{{ fogel1993:champ_best | .2f }}", "x") == f"{max(pays):.2f}"
    for bad in ("{{ fogel1993:nonsense }}", "{{ no-such-run:first }}", "{{ fogel1993/summary.json:curve.nope }}"):
        with pytest.raises(PluginError, match="names nothing"):
            hook.fill(bad, "page.md")
