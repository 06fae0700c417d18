"""MkDocs hook: the pages that are generated at build time, so they cannot drift.

- ``reference/cli.md``: every command's ``--help``, from the click app itself;
- ``reference/config.md``: every key of every built-in recipe (type, default, allowed
  values) from the recipes' schemas, with its meaning from ``config_keys.toml`` (the
  build fails when a key has no meaning there, or a meaning names no key);
- ``reference/api.md``: ``evoplay.__all__``, each name rendered by mkdocstrings from its
  docstring;
- ``tutorials/cluster.md``: ``cluster/README.md`` as it is (links to repository files
  shown as paths);
- ``results/*.md``: one page per committed experiment in ``results/``, its figures and
  tables drawn from the run directories' ``summary.json``, ``analysis.json`` and
  ``study.json`` (tables by the same code that writes the run's own ``.md`` files), with
  the commentary of ``results/notes/NAME.md`` before them.

Prose on any page may quote a number from ``results/`` as ``{{ RUN/FILE.json:dotted.path | .2f }}``
or a derived fact as ``{{ RUN:fact | .2f }}`` (see ``run_facts``); an unknown reference
fails the build.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import statistics
import tomllib
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, InclusionLevel

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "results"
HERE = Path(__file__).resolve().parent
NOTES = ROOT / "docs" / "results" / "notes"

#: Result pages in the order of the nav, then any other committed result alphabetically.
ORDER = [
    "fogel1993", "ablation", "fogel1993-yardstick", "fogel-exact", "fogel-selfadaptive", "fogel-exact-sa",
    "fogel-exact-sa-2000", "fogel-exact-sa-h30", "fogel-exact-sa-h30-p100", "fogel-exact-sa-h30-cauchy",
    "coevolution", "coevolution-hof", "baselines", "gibson", "value-net-tutorial", "keras-outcome-net",
]


# ---------------------------------------------------------------- the command line


def cli_page() -> str:
    import click

    from evoplay.cli import cli

    root = click.Context(cli, info_name="evoplay", terminal_width=88, max_content_width=88)
    lines = [
        "# Command line reference",
        "",
        "Generated from the `evoplay` click application at build time: each block is what",
        "`evoplay COMMAND --help` prints. The [command-line guide](../guide/command-line.md) shows",
        "the commands at work, with their real output.",
        "",
        "```text",
        "$ evoplay --help",
        cli.get_help(root),
        "```",
        "",
        "Exit codes: 0 success, 2 bad usage or bad input (one line naming the problem, no",
        "traceback), 1 other failures.",
        "",
    ]
    for name in sorted(cli.commands):
        cmd = cli.commands[name]
        ctx = click.Context(cmd, info_name=name, parent=root, terminal_width=88, max_content_width=88)
        lines += [f"## evoplay {name}", "", "```text", f"$ evoplay {name} --help", cmd.get_help(ctx), "```", ""]
    return "\n".join(lines)


# ---------------------------------------------------------------- configs


def _rule_text(kind, rule) -> str:
    if rule is not None:
        return rule[1]
    return "any " + kind.__name__


def _default_text(value) -> str:
    if value is None:
        return "the recipe's name"
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    if isinstance(value, str):
        return f'`"{value}"`'
    return f"`{value!r}`"


def _kind_text(kind, default) -> str:
    if kind is object:
        return "bool" if isinstance(default, bool) else "spec or list"
    return kind.__name__


def config_page() -> str:
    from evoplay.framework import config as configs
    from evoplay.framework.study import STUDY_KEYS

    meanings = tomllib.loads((HERE / "config_keys.toml").read_text())["keys"]
    used, missing = set(), []

    def meaning(recipe: str, dotted: str) -> str:
        for key in (f"{recipe}:{dotted}", dotted):
            if key in meanings:
                used.add(key)
                return meanings[key]
        missing.append(f"{recipe}: {dotted}")
        return ""

    lines = [
        "# Configuration reference",
        "",
        "A config is a TOML file (see [run directories and configs](../concepts/run-directory.md));",
        "an unknown key, a wrong type or an out-of-range value is an error that names the key,",
        "before any work starts. Every key has a default, so a config holds only what differs.",
        "This page is generated from the recipes' schemas in code: it lists every key of every",
        "built-in recipe with its type, default and allowed values.",
        "",
        "Keys at the top level and in `[run]` are the runner's and the same for every recipe,",
        "a user's included; the other sections are the recipe's own.",
        "",
    ]
    for name in sorted(configs.builtin_recipes(), key=lambda n: (n != configs.DEFAULT_RECIPE, n)):
        cls = configs.recipe_class(name)
        doc = (cls.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")
        lines += [f"## `recipe = \"{name}\"`", "", f"{doc} (`{cls.__module__}.{cls.__qualname__}`)", ""]
        for section, keys in configs.schema_of(cls).items():
            title = "top level" if section == "" else f"`[{section}]`"
            lines += [f"### {title} {{ #{name}-{section or 'top'} }}", "",
                      "| key | type | default | allowed | meaning |", "|---|---|---|---|---|"]
            for key, (kind, default, rule) in keys.items():
                dotted = f"{section}.{key}" if section else key
                text = meaning(name, dotted).replace("|", "\\|")
                allowed = _rule_text(kind, rule).replace("|", "\\|")
                lines.append(f"| `{key}` | {_kind_text(kind, default)} | {_default_text(default)} | {allowed} | {text} |")
            lines.append("")
    unused = sorted(set(meanings) - used)
    if missing or unused:
        raise PluginError("docs/hooks/config_keys.toml is out of step with the recipes' schemas: "
                          + (f"no meaning for {', '.join(missing)}" if missing else "")
                          + (f"; meanings for keys no recipe has: {', '.join(unused)}" if unused else ""))
    lines += [
        "## Study files",
        "",
        "A study file (`evoplay study STUDY`, see [studies](../concepts/studies.md)) has these",
        f"top-level keys and no others: {', '.join(f'`{k}`' for k in sorted(STUDY_KEYS))}.",
        "`base` names the base config (read from the study file's folder); each `[[variants]]`",
        "table has a `name` and any config keys to override, dotted (`mutation.sigma = 0.2`);",
        "`[grid]` maps dotted config keys to lists of values and adds a variant per",
        "combination; `baseline` names the variant the others are compared with (default: the",
        "first); `trials`, `generations` and `seed` override every variant. A variant's `config`",
        "names a whole config file to start from instead of `base` (another recipe, other sections);",
        "its `run` names a finished run directory of exactly its config (same digest) whose trials",
        "it takes instead of running them (both read from the study file's folder).",
        "",
    ]
    return "\n".join(lines)


# ---------------------------------------------------------------- the Python API


def api_page() -> str:
    import evoplay

    lines = [
        "# Python API",
        "",
        "`import evoplay` gives these names (`evoplay.__all__`); this page is generated from",
        "their docstrings. Each is defined in the module named under it, where it can also be",
        "imported from. `import evoplay` stays light: a name's module loads on first use.",
        "",
        f"`evoplay.__version__` is `{evoplay.__version__}`.",
        "",
    ]
    shown = {}
    for name in evoplay.__all__:
        if name == "__version__":
            continue
        target = evoplay._EXPORTS[name]
        module, attr = target if isinstance(target, tuple) else (target, name)
        path = f"{module}.{attr}"
        lines += [f"## `evoplay.{name}`", ""]
        if path in shown:
            lines += [f"The same object as [`evoplay.{shown[path]}`](#evoplay{shown[path].lower()}) "
                      f"(`{path}`).", ""]
            continue
        shown[path] = name
        alias = f" (`evoplay.{name}` is `{attr}`)" if attr != name else ""
        lines += [f"Defined in `{module}`{alias}.", ""]
        if name == "Recipe":  # the interface is spelled out in its module's doc
            lines += [importlib.import_module(module).__doc__.strip().split("\n", 1)[1].strip(), ""]
        lines += [f"::: {path}", "    options:", "      show_root_heading: false", "      heading_level: 3",
                  "      show_if_no_docstring: true", ""]
    return "\n".join(lines)


# ---------------------------------------------------------------- the cluster tutorial


def cluster_page() -> str:
    text = (ROOT / "cluster" / "README.md").read_text()

    def link(m):
        label, target = m.group(1), m.group(2)
        if target.startswith(("#", "http://", "https://")):
            return m.group(0)
        path = (Path("cluster") / target).as_posix()
        path = str(Path(path)).replace("cluster/../", "")
        return f"{label} (`{path}`)" if label.strip("`") != path.split("/")[-1] else f"`{path}`"

    body = re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", link, text)
    intro = ("!!! note \"This page is `cluster/README.md`\"\n"
             "    It is included here as it is in the repository (paths name the repository's files),\n"
             "    and its commands are checked by `tests/test_cluster_recipes.py` and `tests/test_job_submit.py`.\n\n")
    first, _, rest = body.partition("\n")
    return first + "\n\n" + intro + rest


# ---------------------------------------------------------------- results


def _json(path: Path):
    return json.loads(path.read_text())


def kind_of(d: Path) -> str | None:
    if (d / "summary.json").is_file():
        return "run"
    if (d / "study.json").is_file() and (d / "study-environment.json").is_file():
        return "study"
    for name, marker in (("baselines", "tournament.json"), ("gibson", "gibson.json"),
                         ("keras-outcome-net", "results.json"), ("value-net-tutorial", "study.json")):
        if (d / marker).is_file() and d.name == name:
            return name
    return None


def experiments() -> list[str]:
    found = [d.name for d in sorted(RESULTS.iterdir()) if d.is_dir() and kind_of(d)]
    return [n for n in ORDER if n in found] + [n for n in found if n not in ORDER]


def _work(summary: dict) -> str:
    """What a run spent, in the words its summary uses: games played or exact evaluations."""
    if "games_played" in summary:
        return f"{summary['games_played']:,} games"
    if "exact_evaluations" in summary:
        return f"{summary['exact_evaluations']:,} exact evaluations"
    return "its generations' evaluations"


def run_facts(name: str) -> dict:
    """Facts about a run directory that prose may quote as ``{{ NAME:fact }}``."""
    d = RESULTS / name
    from evoplay.framework.summary import mean_max_entry

    s = _json(d / "summary.json")
    _, mean_max = mean_max_entry(s)
    facts = {
        "trials": s["trials"], "generations": s["generations"], "seed": s["seed"], "games_played": s.get("games_played"),
        "best_trial": s["best_trial"], "first": mean_max["first"], "last": mean_max["last"], "last10": mean_max["last10"],
    }
    ci = s["curve"].get("ci95")  # half-widths of the 95% band, per generation
    if ci:
        facts["band_last"] = ci[-1]
    a = _json(d / "analysis.json") if (d / "analysis.json").is_file() else None
    if a is not None and a.get("game") == "checkers":  # the champion's games against piece difference (no exact analysis)
        best = next(c for c in a["champions"] if c["trial"] == s["best_trial"])
        facts.update({f"champ_{k}": best[k] for k in ("games", "win", "draw", "loss", "score", "lo", "hi")})
    elif a is not None and all("expected_payoff_32_vs_logic" in c for c in a["champions"]):  # exact (tic-tac-toe)
        pays = [c["expected_payoff_32_vs_logic"] for c in a["champions"]]
        best = max(a["champions"], key=lambda c: c["expected_payoff_32_vs_logic"])
        facts.update({
            "champ_mean": statistics.fmean(pays), "champ_median": statistics.median(pays), "champ_best": max(pays),
            "champ_best_trial": best["trial"], "champ_best_hidden": best["hidden"],
            "champ_best_vs_logic_win": 100 * best["vs_logic"][0], "champ_best_vs_logic_draw": 100 * best["vs_logic"][1],
            "champ_best_vs_random_win": 100 * best["vs_random"][0], "champ_best_vs_random_draw": 100 * best["vs_random"][1],
            "unbeatable_x": sum(c["unbeatable_as_x"] for c in a["champions"]), "champions": len(pays),
            "ceiling": a["references"]["best_response_32_vs_logic"], "minimax": a["references"]["minimax_32_vs_logic"],
        })
        facts["champ_best_below_minimax"] = facts["minimax"] - facts["champ_best"]
        if name != "fogel1993" and (RESULTS / "fogel1993" / "analysis.json").is_file():
            from evoplay.framework.stats import mean_ci

            base = _champion_payoffs("fogel1993")
            if len(base) == len(pays):
                m, lo, hi = mean_ci([a - b for a, b in zip(pays, base)])
                facts.update({"paired_mean": m, "paired_half": (hi - lo) / 2})
    per = s.get("per_trial", [])
    if per and "champion_unbeatable_as_o" in per[0]:
        facts["unbeatable_o"] = sum(t["champion_unbeatable_as_o"] for t in per)
        facts["unbeatable_both"] = sum(t["champion_unbeatable_as_o"] and t["champion_unbeatable_as_x"] for t in per)
        facts["mm_x_draw"] = 100 * statistics.fmean(t["champion_vs_minimax_as_x_draw"] for t in per)
        facts["mm_o_draw"] = 100 * statistics.fmean(t["champion_vs_minimax_as_o_draw"] for t in per)
    return facts


#: The runs of the Beyond Fogel comparison, in the order of its tables; the first is Fogel's.
BEYOND = ["fogel1993-yardstick", "fogel-exact", "fogel-selfadaptive", "fogel-exact-sa", "fogel-exact-sa-2000",
          "fogel-exact-sa-h30", "fogel-exact-sa-h30-p100", "fogel-exact-sa-h30-cauchy", "coevolution", "coevolution-hof"]
#: The Fogel-type runs whose champions are counted by opening (the runs of results/beyond-fogel.png but co-evolution).
OPENINGS = ["fogel1993-yardstick", "fogel-exact", "fogel-selfadaptive", "fogel-exact-sa-2000", "fogel-exact-sa-h30",
            "fogel-exact-sa-h30-p100", "fogel-exact-sa-h30-cauchy"]


def _champion_payoffs(name: str) -> list[float]:
    return [c["expected_payoff_32_vs_logic"] for c in _json(RESULTS / name / "analysis.json")["champions"]]


def beyond_champions(runs=None) -> str:
    """Per run (default: Beyond Fogel's): its champions' exact payoff against logic, unbeatable counts,
    draws against minimax."""
    lines = ["| run | generations | mean payoff / 32 vs logic | best | unbeatable as X | unbeatable as O | both seats "
             "| mean P(draw) vs minimax as X / as O |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name in runs or BEYOND:
        s, f = _json(RESULTS / name / "summary.json"), run_facts(name)
        per = s["per_trial"]
        draw_x = statistics.fmean(t["champion_vs_minimax_as_x_draw"] for t in per)
        draw_o = statistics.fmean(t["champion_vs_minimax_as_o_draw"] for t in per)
        n = f["champions"]
        lines.append(f"| [`{name}`]({name}.md) | {s['generations']} | {f['champ_mean']:.2f} | {f['champ_best']:.2f} | "
                     f"{f['unbeatable_x']}/{n} | {f['unbeatable_o']}/{n} | {f['unbeatable_both']}/{n} | {draw_x:.2f} / {draw_o:.2f} |")
    return "\n".join(lines)


def beyond_paired() -> str:
    """Champions' exact payoff, paired by trial with Fogel's (same seed, same initial populations)."""
    from evoplay.framework.stats import mean_ci

    base = _champion_payoffs("fogel1993")
    lines = ["| run | mean | median | paired difference to Fogel's [95% CI] | trials better than Fogel's |",
             "|---|---:|---:|---:|---:|"]
    for name in BEYOND[1:]:
        if name.startswith("coevolution"):
            continue
        pays = _champion_payoffs(name)
        cfg = (RESULTS / name / "config.toml").read_text()
        paired = len(pays) == len(base) and re.search(r"^parents = 50$", cfg, flags=re.M)
        cells = "(other initial populations) | "
        if paired:
            diff = [a - b for a, b in zip(pays, base)]
            m, lo, hi = mean_ci(diff)
            cells = f"{m:+.2f} [{lo:+.2f}, {hi:+.2f}] | {sum(d > 0 for d in diff)}/{len(diff)}"
        lines.append(f"| [`{name}`]({name}.md) | {statistics.fmean(pays):.2f} | {statistics.median(pays):.2f} | {cells} |")
    return "\n".join(lines)


def beyond_openings() -> str:
    from evoplay.recipes import beyond_figure

    return beyond_figure.opening_table([RESULTS / n for n in OPENINGS]).strip()


#: Co-evolution on tic-tac-toe: Fogel's move networks, then Blondie24's evaluators with search (blondie24-ttt-d2's
#: notes); a run not in results/ yet is left out of the table.
COEVOLUTION = ["coevolution", "coevolution-hof", "blondie24-ttt-d1", "blondie24-ttt-d2", "blondie24-ttt-d3",
               "blondie24-ttt-d2-seats"]
TABLES = {"coevolution-champions": lambda: beyond_champions([n for n in COEVOLUTION if (RESULTS / n / "summary.json").is_file()]), "beyond-champions": beyond_champions, "beyond-paired": beyond_paired, "beyond-openings": beyond_openings}


def _lookup(ref: str):
    ref = ref.strip()
    if ref.startswith("table:"):
        return TABLES[ref[len("table:"):]]()
    if "/" in ref and ":" in ref:
        file, _, path = ref.partition(":")
        value = _json(RESULTS / file)
        for part in path.split("."):
            value = value[int(part)] if isinstance(value, list) else value[part]
        return value
    name, _, fact = ref.partition(":")
    return run_facts(name)[fact]


PLACEHOLDER = re.compile(r"\{\{\s*([^}|]+?)\s*(?:\|\s*([^}]+?)\s*)?\}\}")


def fill(markdown: str, where: str) -> str:
    def one(m):
        try:
            value = _lookup(m.group(1))
        except (KeyError, IndexError, ValueError, FileNotFoundError, TypeError) as e:
            raise PluginError(f"{where}: {m.group(0)} names nothing in results/ ({type(e).__name__}: {e})") from None
        return format(value, m.group(2) or "")

    return PLACEHOLDER.sub(one, markdown)


def _demote(markdown: str, levels: int = 1) -> str:
    """Headings one level down (a run's own .md starts at '#'; here it sits under a section)."""
    return re.sub(r"^(#+) ", lambda m: "#" * (len(m.group(1)) + levels) + " ", markdown, flags=re.M)


def _figure(name: str, file: str, alt: str) -> str:
    return f"![{alt}]({name}/{file})"


def _notes(name: str) -> str:
    path = NOTES / f"{name}.md"
    return path.read_text().strip() + "\n" if path.is_file() else ""


def _config_intro(name: str) -> str:
    """A run without notes: the leading comment of its config in configs/, and the command."""
    path = ROOT / "configs" / f"{name}.toml"
    if not path.is_file():
        return ""
    head = []
    for line in path.read_text().splitlines():
        if not line.startswith("#"):
            break
        head.append(line.lstrip("# ").rstrip())
    return (" ".join(head) + "\n\n```sh\n"
            f"evoplay evolve configs/{name}.toml --out results/{name} --workers 2\n```\n")


def _title(name: str, notes: str) -> tuple[str, str]:
    m = re.match(r"# (.+)\n", notes)
    if m:
        return m.group(1), notes[m.end():].lstrip("\n")
    return f"`results/{name}`", notes


def run_page(name: str) -> tuple[str, list[str]]:
    from evoplay.recipes.fogel import report

    d = RESULTS / name
    s = _json(d / "summary.json")
    title, notes = _title(name, _notes(name) or _config_intro(name))
    if name in BEYOND:
        notes += "\nOne of the runs of [Beyond Fogel](beyond-fogel.md).\n"
    f = run_facts(name)
    cfg = (d / "config.toml").read_text()
    recipe = re.search(r'^recipe = "([^"]+)"', cfg, flags=re.M)
    lines = [f"# {title}", "", notes, "## The run", "",
             f"`results/{name}/`: recipe `{recipe.group(1) if recipe else 'fogel'}`, seed {s['seed']}, "
             f"{s['trials']} trials x {s['generations']} generations, " + _work(s) + ".",
             f"Mean over trials of the best fitness per generation: {f['first']:.2f} in the first generation, "
             f"{f['last10']:.2f} over the last ten" + (f" (95% band at the last: +/- {f['band_last']:.2f})." if "band_last" in f else "."),
             "", _figure(name, "curve.png", f"{name}: mean over trials of the maximum per generation, with a 95% band"), ""]
    if (d / "analysis.json").is_file():
        analysis = _json(d / "analysis.json")
        if analysis.get("game") == "checkers":
            from evoplay.recipes.blondie24 import report as checkers_report

            text = checkers_report.markdown(analysis)
        elif "references" in analysis:  # tic-tac-toe's exact analysis
            text = report.markdown(analysis)
        else:  # any other game's champions against random and mcts: the report's own page
            text = (d / "analysis.md").read_text()
        lines += ["## Champions", "", _demote(text, 2).split("\n", 1)[1].strip(), ""]
        if "unbeatable_o" in f:
            lines += [f"Unbeatable as O: {f['unbeatable_o']} of {f['champions']}; from both seats: "
                      f"{f['unbeatable_both']} of {f['champions']}.", ""]
    # tables within a trial's facts (a champion against earlier ones, the last parents' league) are the analysis's, above
    columns = [k for k, v in s["per_trial"][0].items() if k != "trial" and not isinstance(v, (list, dict))]
    lines += ["## Per trial", "", "| trial | " + " | ".join(columns) + " |", "|---:|" + "---:|" * len(columns)]
    for row in s["per_trial"]:
        lines.append(f"| {row['trial']} | " + " | ".join(_cell(row[k]) for k in columns) + " |")
    lines += ["", "## Config", "", "```toml", cfg.rstrip(), "```", ""]
    return "\n".join(lines), [f"{name}/curve.png", f"{name}/curve.svg", *_noted_figures(name)]


def _noted_figures(name: str) -> list[str]:
    """Figures of the run's folder that its notes show (``![...](NAME/FILE)``), beside its curve."""
    return re.findall(rf"!\[[^\]]*\]\(({re.escape(name)}/[^)\s]+)\)", _notes(name))


def _cell(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:.4g}" if abs(v) < 1 else f"{v:.2f}"
    return str(v)


def study_page(name: str) -> tuple[str, list[str]]:
    from evoplay.framework.study_report import markdown

    d = RESULTS / name
    title, notes = _title(name, _notes(name))
    table = markdown(_json(d / "study.json"), _json(d / "study-environment.json"))
    # a variant's run directory: its folder in the study, or the finished run it took its trials from
    variants = [os.path.normpath(f"configs/{v['run']}") if "run" in v else f"results/{name}/{v['dir']}"
                for v in _json(d / "study.json")["variants"]]
    lines = [f"# {title}", "", notes, "## The study", "", _figure(name, "study.png", f"{name}: mean max payoff per variant with 95% bands"), "",
             _demote(table).split("\n", 1)[1].strip(), "",
             "Every variant is an ordinary run directory: " + ", ".join(f"`{v}/`" for v in variants) + ".", ""]
    return "\n".join(lines), [f"{name}/study.png", f"{name}/study.svg"]


def baselines_page(name: str) -> tuple[str, list[str]]:
    from evoplay.published import baselines

    d = RESULTS / name
    t = _json(d / "tournament.json")
    names = t["players"]
    cells = {(p["x"], p["o"]): p for p in t["pairings"]}
    title, notes = _title(name, _notes(name))
    table = baselines.markdown(names, cells, t["summary"], t["trained"], t["command"])
    figures = ["tournament.png"] + [f"{k}.png" for k in t["trained"]]
    lines = [f"# {title}", "", notes, "## The tournament", "", _figure(name, "tournament.png", "exact tournament"), "",
             _demote(table).split("\n", 1)[1].strip(), "", "## Training curves", ""]
    lines += [_figure(name, f, f"training curve of {f[:-4]}") + "\n" for f in figures[1:]]
    return "\n".join(lines), [f"{name}/{f}" for f in figures]


def published_page(name: str) -> tuple[str, list[str]]:
    """The page of a published program's reproduction (``evoplay figures NAME``): its figures and tables."""
    d = RESULTS / name
    title, notes = _title(name, _notes(name))
    if name == "gibson":
        from evoplay.published import gibson

        table = gibson.table(_json(d / "gibson.json"))
        figures = ["win_probabilities.png", "first_move_scores.png"]
    elif name == "keras-outcome-net":
        from evoplay.published import keras_outcome_net_report

        table = keras_outcome_net_report.table(_json(d / "results.json"))
        figures = sorted(p.name for p in d.glob("*.png"))
    else:
        from evoplay.published import value_net_tutorial

        table = value_net_tutorial.table(_json(d / "study.json")["runs"])
        figures = ["curves.png"]
    lines = [f"# {title}", "", notes, "## Figures", ""]
    lines += [_figure(name, f, f"{name}: {f[:-4].replace('_', ' ')}") + "\n" for f in figures]
    lines += ["## Tables", "", _demote(table, 1).split("\n", 1)[1].strip() if table.startswith("#") else table.strip(), ""]
    return "\n".join(lines), [f"{name}/{f}" for f in figures]


def results_index(names: list[str]) -> str:
    lines = ["# Results", "",
             "One page per experiment committed in `results/`. Every figure, table and number on",
             "these pages is read from the run directories when the site is built",
             "(`summary.json`, `analysis.json`, `study.json` and the like), so they cannot drift",
             "from the data; the commentary comes before them.", "",
             "| experiment | what | page |", "|---|---|---|"]
    for n in names:
        title, _ = _title(n, _notes(n))
        intro = _config_intro(n)
        if title.startswith("`") and intro:
            title = re.split(r"(?<=[.:;])\s", intro, maxsplit=1)[0].rstrip(".:;")
        lines.append(f"| `results/{n}` | {title} | [{n}]({n}.md) |")
    lines += ["", "Beside them: [Beyond Fogel](beyond-fogel.md), the comparison of the recipes that go",
              "further than Fogel's, and [speed](../guide/performance.md).", ""]
    return "\n".join(lines)


#: The published programs' reproductions, by their ``evoplay figures`` names.
PUBLISHED = ("gibson", "value-net-tutorial", "keras-outcome-net")
PAGES = {"run": run_page, "study": study_page, "baselines": baselines_page,
         **{name: published_page for name in PUBLISHED}}


# ---------------------------------------------------------------- MkDocs events


def results_nav(names: list[str]) -> list:
    """The Results section: the reference run and its study, Beyond Fogel with its runs, the rest."""
    page = lambda n: f"results/{n}.md"  # noqa: E731
    beyond = [n for n in names if n in BEYOND]
    published = [n for n in names if kind_of(RESULTS / n) in PUBLISHED]
    first = [n for n in ("fogel1993", "ablation") if n in names]
    rest = [n for n in names if n not in beyond + published + first]
    return ["results/index.md", *map(page, first),
            {"Beyond Fogel": ["results/beyond-fogel.md", *map(page, beyond)]},
            *map(page, rest), {"Published figures": list(map(page, published))}]


def on_config(config):
    """Add the results pages to the nav (one per committed experiment, found in results/)."""
    for item in config.nav:
        if isinstance(item, dict) and "Results" in item:
            item["Results"] = results_nav(experiments())
    return config


def on_files(files, config):
    def add(uri, content=None, src=None):
        files.append(File.generated(config, uri, content=content, abs_src_path=src, inclusion=InclusionLevel.INCLUDED))

    add("reference/cli.md", cli_page())
    add("reference/config.md", config_page())
    add("reference/api.md", api_page())
    add("tutorials/cluster.md", cluster_page())
    names = experiments()
    add("results/index.md", results_index(names))
    for n in names:
        page, assets = PAGES[kind_of(RESULTS / n)](n)
        add(f"results/{n}.md", fill(page, f"results/notes/{n}.md"))
        for a in assets:
            if (RESULTS / a).is_file():
                add(f"results/{a}", src=str(RESULTS / a))
    for extra in ("beyond-fogel.png",):
        add(f"results/{extra}", src=str(RESULTS / extra))
    return files


def on_page_markdown(markdown, page, config, files):
    """Numbers quoted from results/ in hand-written pages ({{ ... }})."""
    return fill(markdown, page.file.src_uri)
