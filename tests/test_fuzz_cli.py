"""Fuzzing the command line: generated malformed input must give one line and exit 2.

Each generator in ``GENERATORS`` takes a seeded ``random.Random`` and a ``FuzzEnv`` (a
scratch folder with valid material to damage) and returns one case: a label and the
argv of a command that must be refused. Every case is malformed by construction; the
suite runs them in-process through ``evoplay.cli.main`` (``support.cli.run_in_process``:
stderr captured, SystemExit caught) and asserts exit code 2, exactly one line on stderr starting
``evoplay: error:``, nothing on stdout and no exception escaping. A case marked
``{"plays": True}`` (a user's game that never ends) must instead play to its end in
bounded time: exit 0, nothing on stderr. A few cases also run in a real process to prove
that no traceback reaches the terminal.

To add generators (configs, checkpoints): write ``def gen_x(rng, env) -> (label, argv)``
and decorate it with ``@generator``; the case count grows by itself.
"""

from __future__ import annotations

import functools
import json
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from evoplay.files.playerfile import MAX_FILE_BYTES, _digest
from evoplay.tictactoe.players import REGISTRY

from support.cli import EVOPLAY, ROOT, FuzzEnv, problem, run_in_process

#: Cases in the default run (seconds); the slow test runs many more.
DEFAULT_CASES = 1200
SLOW_CASES = 20_000
SEED = 20240601

GENERATORS = []


def generator(fn):
    GENERATORS.append(fn)
    return fn


# ---------------------------------------------------------------- material


def copy_run(env: FuzzEnv) -> Path:
    dest = env.fresh("-run")
    shutil.copytree(env.run, dest)
    return dest


JUNK = [None, True, 0, -1, 1.5, "", "x", [], {}, [1, 2], {"a": 1}, 10**30, "NaN"]
BAD_INTS = ["0", "-1", "abc", "1.5", "", " ", "1e3", "0x10", "9" * 5000, "nan", "--", "１２", "1_000"]
#: Never a finite number (1e999 and the 5000 nines overflow to infinity).
NOT_NUMBERS = ["nan", "NaN", "inf", "-inf", "abc", "", "1e999", "9" * 5000, "1,5", "0x1"]
BAD_FLOATS = NOT_NUMBERS + ["-0.5", "1.5"]  # for options in [0, 1]


def junk_other_than(rng, value):
    choices = [j for j in JUNK if not (type(j) is type(value) and j == value)]
    return rng.choice(choices)


# ---------------------------------------------------------------- player specs


def bad_spec(rng: random.Random) -> str:
    kind = rng.randrange(6)
    if kind == 0:  # a name that is no player
        alphabet = "abcxyz-_=:,. 0123456789éλ"
        while True:
            name = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 12)))
            head = name.strip().partition(":")[0]
            if head not in REGISTRY and head != "human" and not name.strip().endswith(".json") and "/" not in name:
                return name
    if kind == 1:  # unknown parameter
        name = rng.choice(list(REGISTRY))
        return f"{name}:{rng.choice(['colour', 'T', 'eps2', 'x', ' '])}=1"
    if kind == 2:  # parameter without a value
        name = rng.choice([n for n, (_, schema) in REGISTRY.items() if schema])
        return f"{name}:{rng.choice(list(REGISTRY[name][1]))}"
    if kind == 3:  # a number parameter out of range or not a number
        name, key = rng.choice([("logic", "eps"), ("softmax", "t"), ("softmax", "model_t")])
        values = {"eps": ["-0.1", "1.01", "2"], "t": ["0", "-1", "1e-320", "1e-4", "2000"],
                  "model_t": ["0", "1e-320", "5e3"]}[key]
        return f"{name}:{key}={rng.choice(values + NOT_NUMBERS)}"
    if kind == 4:  # a choice parameter off its list
        name, key = rng.choice([("logic", "develop"), ("minimax", "tiebreak")])
        return f"{name}:{key}={rng.choice(['sideways', '', 'RANDOM', 'firstt', '1'])}"
    return rng.choice(["human", "no/such/file.json", "missing.json", "  ", ""])


def place_spec(rng: random.Random, spec: str) -> list[str]:
    """A command that builds the player ``spec`` before any work."""
    where = rng.randrange(7)
    if where == 0:
        return ["match", spec, "logic", "--games", "10"]
    if where == 1:
        return ["match", "random", spec, "--exact"]
    if where == 2:
        return ["tournament", "random", spec, "--games", "5"]
    if where == 3:
        return ["analyze", spec]
    if where == 4:
        return ["analyze", "random", "--opponent", spec]
    if where == 5:
        return ["game", "--vs", spec]
    return ["train", "ga-value-net", "--opponent", spec, "--generations", "1"]


@generator
def gen_spec(rng, env):
    spec = bad_spec(rng)
    if spec.strip() == "" and rng.random() < 0.5:
        spec = "logic:eps=" + rng.choice(BAD_FLOATS)
    return f"spec {spec[:30]!r}", place_spec(rng, spec)


# ---------------------------------------------------------------- player files


#: Architecture fields each kind's builder reads (descriptive ones are not checked).
READ_FIELDS = {"fogel-net": ["inputs", "hidden", "outputs"], "value-net": ["sizes", "side_input", "activation", "empty"],
               "ga-value-net": ["hidden"]}
#: Wrong values for fields where most junk would be wrong but some could pass.
BAD_FIELD_VALUES = {"side_input": [1, "yes", None, [], True], "activation": ["relu", "", None, 3],
                    "empty": [2, -3, "x", None, True, []]}


def redigest(doc):
    doc["sha256"] = _digest(doc["kind"], doc["architecture"], doc["weights"])
    return doc


def first_number_path(weights):
    """(key, index path) of the first number inside the weights."""
    key = sorted(weights)[0]
    path, node = [], weights[key]
    while isinstance(node, list):
        path.append(0)
        node = node[0]
    return key, path


def set_at(weights, key, path, value):
    if not path:
        weights[key] = value
        return
    node = weights[key]
    for i in path[:-1]:
        node = node[i]
    node[path[-1]] = value


def damaged_player(rng: random.Random, env: FuzzEnv) -> tuple[str, bytes | None, bool]:
    """(what, file bytes or None for a special path, whether only the signature is off)."""
    kind = rng.choice(list(env.docs))
    doc = json.loads(json.dumps(env.docs[kind]))
    text = json.dumps(doc, indent=1)
    how = rng.randrange(12)
    if how == 0:
        cut = rng.randrange(0, len(text.rstrip()))
        return f"{kind} truncated at {cut}", text[:cut].encode(), False
    if how == 1:
        return "random bytes", bytes(rng.randrange(256) for _ in range(rng.randrange(0, 300))), False
    if how == 2:
        key, path = first_number_path(doc["weights"])
        set_at(doc["weights"], key, path, rng.choice([0.123, -7.5, 1e3]) + 0.001)
        return f"{kind} weight edited", json.dumps(doc).encode(), True
    if how == 3:
        field = rng.choice(["format", "version", "kind", "architecture", "weights"])
        if rng.random() < 0.3:
            del doc[field]
        else:
            doc[field] = junk_other_than(rng, doc[field])
        return f"{kind} envelope {field}", json.dumps(doc).encode(), False
    if how == 4:
        doc["sha256"] = junk_other_than(rng, doc["sha256"]) if rng.random() < 0.5 else "0" * 64
        return f"{kind} sha256", json.dumps(doc).encode(), isinstance(doc["sha256"], str)
    if how == 5:  # an architecture field that the builder reads set wrong, signed again
        field = rng.choice(READ_FIELDS[kind])
        value = doc["architecture"].get(field)
        doc["architecture"][field] = rng.choice(BAD_FIELD_VALUES.get(field, [])) if field in BAD_FIELD_VALUES \
            else junk_other_than(rng, value)
        return f"{kind} architecture {field}", json.dumps(redigest(doc)).encode(), False
    if how == 6:  # weights: a number replaced by something that is not a finite number, signed again
        key, path = first_number_path(doc["weights"])
        set_at(doc["weights"], key, path, rng.choice([None, "abc", [], {}, float("nan"), float("inf"), [1, 2]]))
        return f"{kind} weight not a number", json.dumps(redigest(doc)).encode(), False
    if how == 7:  # a weight array missing or reshaped, signed again
        key = rng.choice(sorted(doc["weights"]))
        if rng.random() < 0.5:
            del doc["weights"][key]
        else:
            arr = doc["weights"][key]
            doc["weights"][key] = arr[:-1] if isinstance(arr, list) and len(arr) > 1 else [arr, arr]
        return f"{kind} weights {key} shape", json.dumps(redigest(doc)).encode(), False
    if how == 8:
        digits = "9" * rng.randrange(4400, 6000)
        return "5000-digit integer", text.replace('"version": 1', f'"version": {digits}', 1).encode(), False
    if how == 9:
        depth = rng.randrange(10_000, 200_000)
        return "deep nesting", ("[" * depth + "]" * depth).encode(), False
    if how == 10:
        return "not UTF-8", b'{"format": "evoplay-player\xff\xfe"}', False
    return "special path", None, False


def special_player_path(rng, env) -> Path:
    what = rng.randrange(4)
    if what == 0:
        p = env.fresh(".json")
        p.mkdir()
        return p
    if what == 1:
        return Path("/dev/null")
    if what == 2:
        p = env.fresh(".json")
        os.mkfifo(p)
        return p
    p = env.fresh(".json")  # sparse: big on paper, no disk used
    with open(p, "wb") as f:
        f.truncate(MAX_FILE_BYTES + 1 + rng.randrange(10**9))
    return p


@generator
def gen_player_file(rng, env):
    what, data, only_signature = damaged_player(rng, env)
    if data is None:
        path = special_player_path(rng, env)
    else:
        path = env.fresh(".json")
        path.write_bytes(data)
    if not only_signature and rng.random() < 0.2:
        return f"resign {what}", ["resign", str(path)]
    return f"player file: {what}", place_spec(rng, str(path))


# ---------------------------------------------------------------- arguments


def device_link(env, target: str, suffix: str) -> str:
    """A symlink to a device: the same refusal as the device itself, but a command that
    wrongly replaced its --out would replace the link, never the machine's /dev/null."""
    link = env.fresh(suffix)
    link.symlink_to(target)
    return str(link)


def bad_out(rng, env, suffix: str) -> str:
    what = rng.randrange(6)
    if what == 0:
        return device_link(env, "/dev/null", suffix)
    if what == 1:
        return str(env.root)  # a directory
    if what == 2:
        return str(env.regular / f"below-a-file{suffix}")
    if what == 3:
        return str(env.fresh(rng.choice([".gif", ".txt", "", ".jpeg", ".json.bak"])))
    if what == 4:
        return "/proc/evoplay-cannot-write-here" + suffix
    return device_link(env, "/dev/full", suffix)


@generator
def gen_args(rng, env):
    what = rng.randrange(16)
    if what == 0:
        cmd = rng.choice([["match", "logic", "random"], ["tournament", "logic"]])
        return "--games", cmd + ["--games", rng.choice(BAD_INTS + ["10000000001", "1" + "0" * 40])]
    if what == 1:
        cmd = rng.choice([["match", "logic", "random"], ["tournament", "logic"], ["game"], ["train", "value-net"]])
        return "--seed", cmd + ["--seed", rng.choice(["-1", "abc", "1.5", "", "18446744073709551616", "9" * 5000])]
    if what == 2:
        return "--seats", ["match", "logic", "random", "--seats", rng.choice(["x-first", "", "BOTH", "a"])]
    if what == 3:
        return "--first", ["game", "--first", rng.choice(["computer", "", "x", "Human"])]
    if what == 4:
        cmd = rng.choice(["match", "tournament", "analyze", "game", "export", "plot", "train", "report",
                          "bench", "resign", "baselines"])
        opt = "--" + "".join(rng.choice("abcdefghij-") for _ in range(rng.randrange(1, 10)))
        return "unknown option", [cmd, opt.rstrip("-") + "q"]
    if what == 5:
        return "missing argument", rng.choice([["match"], ["match", "logic"], ["analyze"], ["export"], ["plot"],
                                               ["train"], ["report"], ["resign"], ["tournament"]])
    if what == 6:
        return "extra argument", rng.choice([["analyze", "logic", "random"], ["bench", "now"], ["report", "a", "b"],
                                             ["train", "value-net", "more"], ["game", "logic"],
                                             ["match", "logic", "random", "minimax"]])
    if what == 7:
        return "unknown command", [rng.choice(["matchh", "evolv", "Match", "help-me", "reportt", "x"])]
    if what == 8:
        return "train kind", ["train", rng.choice(["value", "fogel-net", "", "VALUE-NET", "mlp"])]
    if what == 9:
        return "--explore", ["train", "value-net", "--explore", rng.choice(BAD_FLOATS)]
    if what == 10:
        opt, val = rng.choice([("--epochs", "3"), ("--generations", "2"), ("--population", "4"), ("--hidden", "3"),
                               ("--opponent", "logic"), ("--workers", "1"), ("--explore", "0.1")])
        kind = rng.choice([k for k in ("value-net", "outcome-net", "ga-value-net")
                           if not (k == "ga-value-net" and opt not in ("--epochs", "--explore"))
                           and not (k == "outcome-net" and opt == "--epochs")
                           and not (k == "value-net" and opt == "--explore")])
        return "option of another kind", ["train", kind, opt, val]
    if what == 11:
        opt, vals = rng.choice([("--games", BAD_INTS + ["1000000001"]), ("--epochs", BAD_INTS),
                                ("--hidden", BAD_INTS + ["65"]), ("--population", BAD_INTS + ["1"])])
        kind = {"--epochs": "outcome-net", "--hidden": "ga-value-net", "--population": "ga-value-net"}.get(
            opt, rng.choice(["value-net", "outcome-net", "ga-value-net"]))
        return f"train {opt}", ["train", kind, opt, rng.choice(vals)]
    if what == 12:
        return "train --out", ["train", rng.choice(["value-net", "outcome-net"]), "--out", bad_out(rng, env, ".json")]
    if what == 13:
        return "plot --out", ["plot", str(env.run), "--out", bad_out(rng, env, ".png")]
    if what == 14:
        return "export --out", ["export", str(env.run), "--out", bad_out(rng, env, ".json")]
    if rng.random() < 0.5:
        return "export --trial", ["export", str(env.run), "--trial", rng.choice(["2", "-1", "abc", "99", "9" * 5000])]
    return "baselines", rng.choice([["baselines", "--out", str(env.regular)], ["baselines", "--out", device_link(env, "/dev/null", "")],
                                    ["baselines", "--value-games", rng.choice(BAD_INTS)],
                                    ["baselines", "--seed", rng.choice(["-1", "x"])]])


# ---------------------------------------------------------------- run directories


def damage_run(rng, env) -> tuple[str, Path, tuple[str, ...]]:
    """(what, damaged run dir, the commands that read the damaged part)."""
    what = rng.randrange(8)
    if what == 0:
        return "no such run", env.fresh("-missing"), ("plot", "export", "report")
    if what == 1:
        return "a file, not a run", env.regular, ("plot", "export", "report")
    run = copy_run(env)
    summary_path = run / "summary.json"
    summary = json.loads(summary_path.read_text())
    if what == 2:
        summary_path.unlink()
        return "no summary", run, ("plot", "export", "report")
    if what == 3:
        text = summary_path.read_text()
        choice = rng.randrange(4)
        if choice == 0:
            data = text[: rng.randrange(0, len(text) - 1)].encode()
        elif choice == 1:
            data = b"\xff\xfe not text"
        elif choice == 2:
            data = json.dumps(rng.choice([[], "summary", 3, None])).encode()
        else:
            data = text.replace('"seed": 7', '"seed": ' + "7" * 5000).encode()
        summary_path.write_bytes(data)
        return "summary not JSON object", run, ("plot", "export", "report")
    if what == 4:
        key = rng.choice(["name", "seed", "trials", "best_trial"])
        if rng.random() < 0.3:
            del summary[key]
        else:
            summary[key] = {"trials": rng.choice([0, -1, 10**6, "2", 2.0, None]),
                            "best_trial": rng.choice([2, -1, 99, "1", 1.0, None]),
                            "name": rng.choice([None, 3, [], {}]),
                            "seed": rng.choice([None, "7", 7.5, []])}[key]
        summary_path.write_text(json.dumps(summary))
        return f"summary {key}", run, ("plot", "export", "report")
    if what == 5:
        trial = rng.randrange(2)
        log = run / "trials" / f"trial_{trial:02d}" / "logbook.csv"
        choice = rng.randrange(6)
        lines = log.read_text().splitlines()
        if choice == 0:
            log.unlink()
        elif choice == 1:
            g = rng.randrange(1, len(lines))
            parts = lines[g].split(",")
            parts[1] = rng.choice(["abc", "", "nan", "inf", "-inf", "1e999", "--3"])
            lines[g] = ",".join(parts)
            log.write_text("\n".join(lines) + "\n")
        elif choice == 2:
            log.write_text(lines[0] + "\n")
        elif choice == 3:
            log.write_text("\n".join(lines[: rng.randrange(2, len(lines))]) + "\n")  # fewer generations
        elif choice == 4:
            log.write_bytes(b"gen,max\n1,\xff\xff\n")
        else:
            log.write_text("gen,mean\n1,3\n")
        return f"logbook {choice}", run, ("plot",)
    champ = run / "trials" / "trial_01" / "champion.json"  # trial 1 is the best
    if what == 6:
        champ.unlink()
        return "no champion", run, ("export", "report")
    data = damaged_player(rng, env)[1]
    champ.write_bytes(data if data is not None else b"")
    return "champion damaged", run, ("export", "report")


@generator
def gen_run_dir(rng, env):
    what, run, readers = damage_run(rng, env)
    cmd = rng.choice(readers)
    if cmd == "plot":
        runs = [str(run)] if rng.random() < 0.7 else [str(env.run), str(run)]
        argv = ["plot", *runs, "--out", str(env.fresh(rng.choice([".png", ".svg", ".pdf"])))]
    elif cmd == "export":
        argv = ["export", str(run), "--out", str(env.fresh(".json"))]
    else:
        argv = ["report", str(run)]
    return f"run dir: {what}", argv


# ---------------------------------------------------------------- configs


GOOD_CONFIG = {
    "": {"name": "fuzz", "seed": 3, "trials": 2, "generations": 4},
    "population": {"parents": 10, "hidden_min": 1, "hidden_max": 10, "init_scale": 0.5},
    "mutation": {"sigma": 0.05, "p_arch": 0.5},
    "evaluation": {"games": 32, "opponent": "logic", "payoff_win": 1.0, "payoff_draw": 0.0, "payoff_loss": -10.0},
    "selection": {"rivals": 10},
    "run": {"checkpoint_every": 2, "eval_chunks": 0},
}
#: Values no key of a config accepts (by type or range), with the keys they break.
BAD_VALUES = {
    "seed": [-1, 2**64, "7", 1.5, True, [], 10**5000 if False else -10**30],
    "trials": [0, -3, 10_001, "2", 2.0, False, {}],
    "generations": [0, 1_000_001, "4", [], None if False else -1],
    "name": ["../escape", "/abs/path", "a/b", "x" * 300, "", "nul\u0000", "two\nlines", 7, ["n"]],
    "recipe": ["nosuch", "", 5, "nosuch.py:Recipe", "evoplay.tictactoe.board:LINES", "os:path", "a b:C",
               "evoplay.framework.recipe:Context", "json:loads"],
    "population.parents": [1, 0, -5, 100_001, "10", 2.5],
    "population.hidden_min": [0, 65, "1", 1.0],
    "population.hidden_max": [0, 65, "10"],
    "population.init_scale": [-0.1, 1e308, float("inf"), float("nan"), "0.5", True],
    "mutation.sigma": [-1e-9, 1e308, float("nan"), "x", []],
    "mutation.p_arch": [-0.1, 1.5, float("inf"), "half"],
    "evaluation.games": [0, -1, 100_001, 3.5, "32"],
    "evaluation.opponent": ["", "nobody", "logic:eps=2", "softmax:t=1e-320", "minimax:tiebreak=last", 5, [],
                            [{"player": "logic"}], [{"player": "logic", "weight": 0}],
                            [{"player": "logic", "weight": float("inf")}], [{"player": "logic", "weight": -1}],
                            [{"player": "logic", "weight": True}], [{"player": 3, "weight": 1}],
                            [{"player": "logic", "weight": 1, "extra": 1}], "missing.json", "nosuch.py:Player",
                            [{"player": "random", "weight": 1}] * 101],
    "evaluation.payoff_win": [1e308, float("nan"), float("-inf"), "1", 1e7],
    "evaluation.payoff_loss": [-1e308, float("inf"), -1e7],
    "selection.rivals": [0, -1, 20, 1000],
    "run.checkpoint_every": [0, -1, "10"],
    "run.eval_chunks": [-1, 10_001, 1.5],
    "run.champion": ["best", "", "League", 3, ["league"]],
    "run.league_openings": [0, -1, 1_001, "10", 2.5],
}


def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(repr(v), repr(v))
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return str(v)


def config_text(cfg: dict) -> str:
    lines = [f"{k} = {toml_value(v)}" for k, v in cfg[""].items()]
    for sec, keys in cfg.items():
        if sec:
            lines += [f"[{sec}]"] + [f"{k} = {toml_value(v)}" for k, v in keys.items()]
    return "\n".join(lines) + "\n"


def bad_config(rng: random.Random, env: "FuzzEnv") -> tuple[str, bytes]:
    import copy

    cfg = copy.deepcopy(GOOD_CONFIG)
    kind = rng.randrange(9)
    if kind <= 3:  # one bad value
        key = rng.choice(sorted(BAD_VALUES))
        value = rng.choice(BAD_VALUES[key])
        sec, _, name = key.rpartition(".")
        cfg[sec][name] = value
        return f"bad value {key} = {str(value)[:40]!r}", config_text(cfg).encode()
    if kind == 4:  # an unknown key, at the top or in a section (or an unknown section)
        sec = rng.choice(["", "population", "mutation", "evaluation", "selection", "run", "bogus"])
        cfg.setdefault(sec, {})[rng.choice(["colour", "parentz", "sigma2", "x", "Games"])] = 1
        return f"unknown key in [{sec}]", config_text(cfg).encode()
    if kind == 5:  # keys that clash with each other
        if rng.random() < 0.5:
            cfg["population"].update(hidden_min=8, hidden_max=rng.randrange(1, 8))
            return "hidden_min above hidden_max", config_text(cfg).encode()
        cfg["selection"]["rivals"] = rng.randrange(20, 40)
        return "rivals beyond the pool", config_text(cfg).encode()
    if kind == 6:  # damaged TOML text
        text = config_text(cfg)
        cut = rng.randrange(1, len(text))
        variants = [text[:cut] + "[[[", text.replace("=", "", 1), text.replace('"', "", 1), "= 1\n" + text,
                    text + "[population]\nparents = 3\n", "\x00" + text]
        return "damaged TOML", rng.choice(variants).encode()
    if kind == 7:  # not text, too deep, too big, absurd numbers
        choice = rng.randrange(5)
        if choice == 0:
            return "not UTF-8", bytes([0xFF, 0xFE]) + config_text(cfg).encode("utf-16-le")
        if choice == 1:
            depth = rng.choice([50, 500, 3000])
            return f"nested {depth} deep", ("x = " + "[" * depth + "]" * depth + "\n").encode()
        if choice == 2:
            return "5000-digit integer", config_text(cfg).replace("seed = 3", "seed = " + "9" * 5000).encode()
        if choice == 3:
            return "inline table nested 500 deep", ("x = " + "{a = " * 500 + "1" + "}" * 500 + "\n").encode()
        return "empty array of tables", b"[[population]]\n"
    # a recipe file that is no recipe, or one that fails while loading
    path = env.fresh(".py")
    path.write_text(rng.choice(["raise RuntimeError('boom')\n", "class Recipe:\n    pass\n", "x = (\n",
                                "import nosuchmodule\n", "Recipe = 5\n"]))
    cfg[""]["recipe"] = f"{path.name}:Recipe"
    return "user recipe file that is no recipe", config_text(cfg).encode()


@generator
def gen_config(rng, env):
    label, data = bad_config(rng, env)
    path = env.fresh(".toml")
    path.write_bytes(data)
    argv = ["evolve", str(path), "--out", str(env.fresh("-run")), "-q"]
    if rng.random() < 0.2:
        never = ["0", "-1", "abc", "1.5", "", "99999999", "nan", "9" * 5000]  # no count of trials or generations
        argv += rng.choice([["--trials", rng.choice(never)], ["--generations", rng.choice(never)],
                            ["--seed", rng.choice(["-1", "abc", "9" * 30])], ["--workers", rng.choice(["0", "x"])]])
        path.write_text(config_text(GOOD_CONFIG))
        label = f"bad option {argv[-2]} {argv[-1][:20]!r}"
    return f"config: {label}", argv


# ---------------------------------------------------------------- checkpoints


def real_run(env: "FuzzEnv") -> Path:
    """A genuine interrupted run (config, marker, checkpoints at generation 2 of 4), made without Ray."""
    if getattr(env, "_real_run", None) is None:
        from evoplay.framework import config
        from evoplay.framework.rundir import RunDir, digest
        from evoplay.framework.trial import TrialRun

        cfg = config.resolve({**GOOD_CONFIG[""], **{k: v for k, v in GOOD_CONFIG.items() if k}})
        rd = RunDir(env.root / "real-run")
        rd.root.mkdir()
        rd.mark()
        (rd.root / "config.toml").write_text(config.to_toml(cfg))
        recipe = config.recipe_class("fogel")(cfg)
        for t in range(2):
            data = TrialRun(recipe, t).run(2).to_data()
            rd.write_logbook(t, data["logbook"])
            rd.write_checkpoint(data, digest(cfg))
        env._real_run = rd.root
    return env._real_run


CHECKERS_CONFIG = {
    "": {"name": "fuzz-checkers", "seed": 5, "trials": 1, "generations": 3, "recipe": "blondie24"},
    "run": {"checkpoint_every": 1},
    "game": {"name": "checkers", "depth": 1, "max_plies": 12},
    "network": {"hidden": [3]},
    "population": {"parents": 3},
    "evaluation": {"games": 1},
    "yardstick": {"every": 100},
}


def checkers_run(env: "FuzzEnv", dest: Path, generations: int = 3) -> Path:
    """A copy at ``dest`` of a genuine Blondie24 checkers run checkpointed at its last
    generation (config, marker, logbook, checkpoint), made once per folder without Ray."""
    key = f"_checkers_run_{generations}"
    if getattr(env, key, None) is None:
        from evoplay.framework import config
        from evoplay.framework.rundir import RunDir, digest
        from evoplay.framework.trial import TrialRun

        raw = {**CHECKERS_CONFIG[""], "generations": generations, **{k: v for k, v in CHECKERS_CONFIG.items() if k}}
        cfg = config.resolve(raw)
        rd = RunDir(env.root / f"checkers-run-{generations}")
        rd.root.mkdir()
        rd.mark()
        (rd.root / "config.toml").write_text(config.to_toml(cfg))
        data = TrialRun(config.recipe_class("blondie24")(cfg), 0).run(generations).to_data()
        rd.write_logbook(0, data["logbook"])
        rd.write_checkpoint(data, digest(cfg))
        setattr(env, key, rd.root)
    shutil.copytree(getattr(env, key), dest, symlinks=True)
    return dest


def tree_digest(root: Path) -> dict:
    """Every entry under ``root``: its kind and, for a file, its bytes' digest (links not followed)."""
    import hashlib

    out = {}
    for p in sorted(root.rglob("*")):
        rel = str(p.relative_to(root))
        if p.is_symlink():
            out[rel] = "link " + os.readlink(p)
        elif p.is_dir():
            out[rel] = "dir"
        elif p.is_file():
            out[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
        else:
            out[rel] = "special"
    out.pop(".lock", None)
    return out


def resign(body: dict) -> dict:
    from evoplay.framework.rundir import digest

    body.pop("sha256", None)
    body["sha256"] = digest(body)
    return body


def damage_checkpoint(rng: random.Random, path: Path) -> str:
    raw = path.read_bytes()
    body = json.loads(raw)
    kind = rng.randrange(10)
    if kind == 0:
        i = rng.randrange(len(raw))
        path.write_bytes(raw[:i] + bytes([rng.choice([0xFF, 0x00, 0x22, 0x7B])]) + raw[i + 1:])
        return "a byte changed"
    if kind == 1:
        path.write_bytes(raw[: rng.randrange(len(raw))])
        return "truncated"
    if kind == 2:
        path.write_text(rng.choice(["{}", "[]", "null", '"x"', "1", ""]))
        return "not a checkpoint"
    if kind == 3:
        field = rng.choice(["trial", "generation", "config_sha256"])
        body[field] = junk_other_than(rng, body[field])
        path.write_text(json.dumps(resign(body)))
        return "header field replaced (signed again)"
    if kind == 4:
        del body[rng.choice(["state", "logbook", "format", "version"])]
        path.write_text(json.dumps(resign(body)))
        return "field missing (signed again)"
    if kind == 5:
        net = body["state"]["parents"][rng.randrange(len(body["state"]["parents"]))]
        key = rng.choice(["w1", "w2", "h", "fitness", "id"])
        if key == "id":  # only ids no run can have: negative, beyond next_id, or not integers
            net[key] = rng.choice([-5, 10**30, True, "x", 1.5, None, [3]])
        else:
            net[key] = rng.choice([junk_other_than(rng, None), float("nan"), [[1.0]], 99])
        path.write_text(json.dumps(resign(body)))
        return f"network field {key} damaged (signed again)"
    if kind == 6:
        field = rng.choice(["parents", "hof", "next_id", "champion"])
        body["state"][field] = junk_other_than(rng, body["state"][field])
        path.write_text(json.dumps(resign(body)))
        return "state field damaged (signed again)"
    if kind == 7:
        body["logbook"] = body["logbook"][: rng.randrange(len(body["logbook"]))] + [{"gen": "x"}]
        path.write_text(json.dumps(resign(body)))
        return "logbook damaged (signed again)"
    if kind == 8:
        body["state"]["parents"] = body["state"]["parents"][:3]
        path.write_text(json.dumps(resign(body)))
        return "too few parents (signed again)"
    path.unlink()
    path.mkdir()
    return "a folder in its place"


@generator
def gen_checkpoint(rng, env):
    run = env.fresh("-ckpt")
    shutil.copytree(real_run(env), run)
    what = damage_checkpoint(rng, run / "checkpoints" / f"trial_{rng.randrange(2):02d}.json")
    return f"checkpoint: {what}", ["evolve", str(run / "config.toml"), "--out", str(run), "--resume", "-q"]


# ---------------------------------------------------------------- the newer surfaces: checkers, studies, leagues


#: Checkers player specs that name no checkers player (or bad parameters of one).
BAD_CHECKERS_SPECS = ["logic", "minimax", "softmax:t=0.2", "first-open", "", " ", "human", "piece-difference:depth=0",
                      "piece-difference:depth=13", "piece-difference:depth=abc", "piece-difference:depth=1.5",
                      "piece-difference:king=-1", "piece-difference:king=101", "piece-difference:king=nan",
                      "piece-difference:king=inf", "piece-difference:colour=1", "piece-difference:depth",
                      "random:x=1", "piece_difference", "Random", "no/such/file.json", "missing.json"]


def checkers_place(rng, spec: str) -> tuple[list[str], str | None]:
    """(argv, stdin) of a checkers command that builds the player ``spec`` before any work."""
    where = rng.randrange(4)
    if where == 0:
        return ["match", "--game", "checkers", spec, "random", "--games", "2"], None
    if where == 1:
        return ["match", "--game", "checkers", "random", spec, "--seats", "both", "--games", "2"], None
    if where == 2:
        return ["tournament", "--game", "checkers", "random", spec, "--games", "2"], None
    return ["game", "--game", "checkers", "--vs", spec], "11-15\n" * 3


@generator
def gen_checkers_spec(rng, env):
    spec = rng.choice(BAD_CHECKERS_SPECS)
    argv, stdin = checkers_place(rng, spec)
    return f"checkers spec {spec!r}", argv, {"stdin": stdin}


#: Specs of every game's players found by a hostile try to run without end, give a traceback or a
#: false message: a solve of a game too big to solve, depths no machine searches, blanks in values,
#: numbers beyond their range.
UNBOUNDED_SPECS = [("checkers", "alpha-beta:depth=0"), ("openspiel:connect_four", "alpha-beta:depth=0"),
                   ("openspiel:chess", "alpha-beta:depth=0"), ("checkers", "alpha-beta:depth=64"),
                   ("openspiel:connect_four", "alpha-beta:depth=64"), ("checkers", "alpha-beta:depth=45"),
                   ("checkers", "openspiel-mcts:seed=2147483648"), ("checkers", "mcts:sims=1000001"),
                   ("tictactoe", "mcts:sims= 4"), ("checkers", "alpha-beta:depth= 4"), ("tictactoe", "mcts: sims=4"),
                   ("openspiel:connect_four", "alpha-beta:depth=4 ,"), ("checkers", "piece-difference:king= 2")]


@generator
def gen_unbounded_spec(rng, env):
    game, spec = rng.choice(UNBOUNDED_SPECS)
    argv, stdin = ([["match", "--game", game, spec, "random", "--games", "1"],
                    ["tournament", "--game", game, "random", spec, "--games", "1"],
                    ["analyze", "--game", game, spec, "--openings", "1"]][rng.randrange(3)], None)
    if game == "tictactoe" and argv[0] == "analyze":
        argv = ["analyze", spec]
    return f"{game} spec {spec!r}", argv, {"stdin": stdin}


#: Weights a player file of any kind may not hold, signed again: no number, beyond the bound, an array its kind does not read.
BAD_WEIGHTS = {
    "a boolean": lambda w, rng: set_at(w, *first_number_path(w), rng.choice([True, False])),
    "beyond the bound": lambda w, rng: set_at(w, *first_number_path(w), rng.choice([1e308, -1e101, 5e200])),
    "an extra array": lambda w, rng: w.__setitem__(rng.choice(["spare", "W9", "genome2", "bias"]), [1.0, 2.0]),
}


@generator
def gen_bad_weights(rng, env):
    kind = rng.choice(list(env.docs))
    what = rng.choice(list(BAD_WEIGHTS))
    doc = json.loads(json.dumps(env.docs[kind]))
    BAD_WEIGHTS[what](doc["weights"], rng)
    path = env.fresh(".json")
    path.write_text(json.dumps(redigest(doc)))
    argv = rng.choice([["match", str(path), "random", "--games", "2"], ["resign", str(path)], ["analyze", str(path)]])
    return f"{kind} weights: {what}", argv, {}


def network_doc(rng, game: str) -> dict:
    """A valid Blondie24 network document of ``game`` (small), as plain data."""
    from evoplay.networks.evalnet import n_weights
    from evoplay.recipes.blondie24.playerfile import network_document

    sizes = (32 if game == "checkers" else 9, rng.randrange(1, 6), 1)
    genome = [rng.uniform(-0.5, 0.5) for _ in range(n_weights(sizes))]
    return network_document(game, sizes, 1, genome, 1.5, {"fuzz": True})


#: Damage to a Blondie24 network file that is signed again (so only the checks of the contents refuse it).
NETWORK_DAMAGE = {
    "huge weights": lambda d, rng: d["weights"].__setitem__("genome", [rng.choice([1e308, -1e308, 1e101, 5e200])] * len(d["weights"]["genome"])),
    "one huge weight": lambda d, rng: d["weights"]["genome"].__setitem__(rng.randrange(len(d["weights"]["genome"])), rng.choice([1e308, -2e100])),
    "king": lambda d, rng: d["weights"].__setitem__("king", [rng.choice([-1.0, 100.5, 1e308, 0.5e3])]),
    "king shape": lambda d, rng: d["weights"].__setitem__("king", rng.choice([[], [1.0, 2.0], 1.0, [[1.0]]])),
    "genome short": lambda d, rng: d["weights"].__setitem__("genome", d["weights"]["genome"][:-1]),
    "genome junk": lambda d, rng: d["weights"]["genome"].__setitem__(0, rng.choice([None, "x", [1.0], {}])),
    "depth": lambda d, rng: d["architecture"].__setitem__("depth", rng.choice([0, 13, -1, "2", 2.0, True, None])),
    "layers": lambda d, rng: d["architecture"].__setitem__("layers", rng.choice([[32, 1], [9, 3, 2], [32, 0, 1], [32, 257, 1],
                                                                                  [33, 3, 1], "32,3,1", [32, 3, 1.0], []])),
    "hidden": lambda d, rng: d["architecture"].__setitem__("hidden", rng.choice([[7], [], None, "3"])),
    "game": lambda d, rng: d["architecture"].__setitem__("game", rng.choice(["chess", "", None, 3, "checkers " * 200, "../x.py:G"])),
}


@generator
def gen_network_file(rng, env):
    """Blondie24 network files of either game, damaged and signed again, where they are loaded."""
    game = rng.choice(["checkers", "tictactoe"])
    doc = network_doc(rng, game)
    what = rng.choice(sorted(NETWORK_DAMAGE))
    NETWORK_DAMAGE[what](doc, rng)
    path = env.fresh(".json")
    path.write_text(json.dumps(redigest(doc)))
    if rng.random() < 0.25:
        doc["sha256"] = "0" * 64
        path.write_text(json.dumps(doc))
        return f"resign {game} network: {what}", ["resign", str(path)], {"watch": path}
    argv = checkers_place(rng, str(path))[0] if game == "checkers" else place_spec(rng, str(path))
    return f"{game} network: {what}", argv, {"stdin": "4\n" * 5}


@generator
def gen_cross_game(rng, env):
    """A player file or run directory of one game where the other game's player goes."""
    checkers = [str(ROOT / "results/blondie24/champion.json"), str(ROOT / "results/blondie24")]
    tictactoe = [str(ROOT / "results/fogel1993"), str(ROOT / "results/baselines/value-net.json"),
                 str(ROOT / "results/blondie24-ttt-d1/champion.json")]
    if rng.random() < 0.5:  # a tic-tac-toe file in a checkers place
        argv, stdin = checkers_place(rng, rng.choice(tictactoe))
        return "tic-tac-toe file for checkers", argv, {"stdin": stdin}
    spec, ttt = rng.choice(checkers), rng.choice(tictactoe + ["logic"])
    where = rng.randrange(6)
    argv = [["match", ttt, spec, "--games", "2"],
            ["tournament", "logic", spec, "--games", "2"], ["analyze", "random", "--opponent", spec],
            ["train", "ga-value-net", "--opponent", spec, "--generations", "1"], ["match", spec, "random", "--exact"],
            ["match", spec, ttt, "--games", "2"]][where]
    return "checkers file for tic-tac-toe", argv, {"stdin": "4\n" * 5}


GOOD_B24 = {
    "": {"name": "fuzz-b24", "seed": 3, "trials": 1, "generations": 2, "recipe": "blondie24"},
    "game": {"name": "checkers", "depth": 1, "max_plies": 10},
    "network": {"hidden": [4], "king_init": 2.0, "king_min": 1.0, "king_max": 3.0},
    "population": {"parents": 3},
    "evaluation": {"games": 1},
    "yardstick": {"every": 10},
}
BAD_B24 = {
    "game.name": ["chess", "", 3, "checkers:quiet=-1", "nosuch.py:Game", "os:path"], "game.depth": [0, 13, "2", 1.5],
    "game.max_plies": [0, 100_001, -1], "game.quiescence": ["yes", 1], "network.hidden": [[], [0], [257], [4] * 5, "4", [4.0]],
    "network.init_scale": [-1.0, 1e4, float("nan")], "network.king_init": [5.0, -1.0], "network.king_min": [2.5e3, float("inf")],
    "population.parents": [1, 0, 10_001], "mutation.sigma_init": [0.0, -1.0, 1e4], "mutation.tau": [-1.0, 11.0, float("nan")],
    "evaluation.games": [0, 10_001], "evaluation.points_win": [1e7, float("nan")], "evaluation.random_plies": [-1, 51],
    "evaluation.hall_of_fame": [-1, 1001], "evaluation.both_seats": ["no", 0], "yardstick.every": [0],
    "evaluation.hall_of_fame_games": [-1, 2, 10_001], "evaluation.hall_of_fame_every": [0, "1"],
    "evaluation.anchor_games": [-1, 2, 10_001, "1"],
    "yardstick.pd_king": [-1.0, 101.0], "yardstick.openings": [-1, 100_001], "run.checkpoint_every": [0],
}
GOOD_ELITES = {
    "": {"name": "fuzz-me", "seed": 3, "trials": 1, "generations": 2, "recipe": "map-elites"},
    "population": {"batch": 4, "hidden_min": 2, "hidden_max": 3},
    "evaluation": {"games": 4, "opponent": "logic"},
    "archive": {"descriptors": ["opening_square"]},
}
BAD_ELITES = {
    "population.batch": [0, -1, "4", 1.5], "population.hidden_min": [0, 65], "population.hidden_max": [0, 65],
    "archive.descriptors": [[], ["nosuch"], "opening_square", [3], ["opening_square", "opening_square"]],
    "evaluation.opponent": ["", "nobody", str(ROOT / "results/blondie24"), "logic:eps=2"], "evaluation.games": [0, -1],
    "selection.tournament": [0, -1, "2"], "mutation.step": ["", "cauchy2", 3], "bogus.key": [1],
}


def mutated_config(rng, good: dict, bad: dict) -> tuple[str, str]:
    import copy

    cfg = copy.deepcopy(good)
    key = rng.choice(sorted(bad))
    sec, _, name = key.rpartition(".")
    cfg.setdefault(sec, {})[name] = rng.choice(bad[key])
    return f"{key} = {str(cfg[sec][name])[:30]!r}", config_text(cfg)


@generator
def gen_recipe_config(rng, env):
    """Blondie24 and MAP-Elites configs with one bad value, given to evolve."""
    good, bad = rng.choice([(GOOD_B24, BAD_B24), (GOOD_ELITES, BAD_ELITES)])
    label, text = mutated_config(rng, good, bad)
    path = env.fresh(".toml")
    path.write_text(text)
    return f"{good['']['recipe']} config: {label}", ["evolve", str(path), "--out", str(env.fresh("-run")), "-q"]


@generator
def gen_study(rng, env):
    """Study files damaged in their own keys, their variants, their base, their size or kind."""
    base = env.fresh(".toml")
    base.write_text(config_text(GOOD_CONFIG))
    study = {"name": "fuzz-study", "base": base.name, "variants": [{"name": "a"}, {"name": "b", "mutation.sigma": 0.1}]}
    what = rng.randrange(9)
    label = ["unknown key", "bad variant key", "bad variant value", "no variants", "base missing", "duplicate names",
             "bad grid", "special file", "bad --out"][what]
    if what == 0:
        study[rng.choice(["colour", "variant", "Base"])] = 1
    elif what == 1:
        study["variants"][1] = {"name": "b", rng.choice(["mutation.sigmaa", "nosection.x", "seed.x"]): 1}
    elif what == 2:
        key = rng.choice(sorted(k for k in BAD_VALUES if "." in k))  # a variant's own name is no config key
        study["variants"][1] = {"name": "b", key: rng.choice(BAD_VALUES[key])}
    elif what == 3:
        study["variants"] = rng.choice([[], "a", [{}], [{"name": 3}]])
    elif what == 4:
        study["base"] = rng.choice(["nosuch.toml", "", 3, "/dev/zero", str(env.root)])
    elif what == 5:
        study["variants"] = [{"name": "a"}, {"name": "a"}]
    elif what == 6:
        study["grid"] = rng.choice([{"mutation.sigma": []}, {"mutation.sigma": 0.1}, {"nosuch.x": [1, 2]}, [1]])
    path = env.fresh(".toml")
    lines = []
    for k, v in study.items():
        if k != "variants" or not isinstance(v, list) or not all(isinstance(x, dict) for x in v):
            lines.append(f"{k} = {toml_value(v)}" if not isinstance(v, dict) else f"[{k}]\n" + "\n".join(
                f"{json.dumps(a)} = {toml_value(b)}" for a, b in v.items()))
    for var in study["variants"] if isinstance(study["variants"], list) and all(isinstance(x, dict) for x in study["variants"]) else []:
        lines.append("[[variants]]\n" + "\n".join(f"{json.dumps(a) if '.' in a else a} = {toml_value(b)}" for a, b in var.items()))
    path.write_text("\n".join(sorted(lines, key=lambda s: s.startswith("[")) ) + "\n")
    out = str(env.fresh("-study"))
    if what == 7:
        path.unlink()
        choice = rng.randrange(3)
        if choice == 0:
            path.symlink_to(rng.choice(["/dev/zero", "/dev/null", str(env.root / "nowhere")]))
        elif choice == 1:
            os.mkfifo(path)
        else:
            with open(path, "wb") as f:
                f.truncate((1 << 20) + 1 + rng.randrange(1 << 31))
    elif what == 8:
        path.write_text(f'name = "s"\nbase = "{base.name}"\n[[variants]]\nname = "a"\n')
        out = rng.choice([device_link(env, "/dev/null", ""), str(env.regular / "below"), device_link(env, "/dev/full", ""),
                          "/proc/evoplay-cannot-write-here"])
    return f"study: {label}", ["study", str(path), "--out", out, "-q"], {"watch": env.regular}


@generator
def gen_league(rng, env):
    """evoplay report --league with bad counts, or on runs that have no league to play."""
    what = rng.randrange(4)
    if what == 0:
        return "--league count", ["report", str(ROOT / "results/blondie24"), "--league",
                                  rng.choice(["0", "-1", "abc", "10001", "1.5", "", "9" * 5000])], {}
    if what == 1:
        return "--league on a tic-tac-toe run", ["report", str(ROOT / rng.choice(["results/fogel1993", "results/blondie24-ttt-d1"])),
                                                 "--league", "2"], {}
    if what == 2:
        return "--league --workers", ["report", str(ROOT / "results/blondie24"), "--league", "2", "--workers",
                                      rng.choice(["0", "-1", "x", "4097"])], {}
    run = checkers_run(env, env.fresh("-league"))
    (run / "checkpoints" / "trial_00.json").unlink()
    return "--league without checkpoints", ["report", str(run), "--league", "2"], {"watch": run}


@generator
def gen_duels(rng, env):
    """evoplay report --depths / --versus with bad depths, players that are not checkers networks, or runs of
    other games: refused before Ray starts."""
    what = rng.randrange(3)
    if what == 0:
        return "--depths", ["report", str(ROOT / "results/blondie24"), "--depths",
                            rng.choice(["0", "13", "-1", "4,,6", "a", "", "4,4", "1e3", "9" * 5000, "4;6", " "])], {}
    if what == 1:
        other = rng.choice(["results/fogel1993", "results/blondie24-connect-four", "README.md", "results/nowhere",
                            "results/blondie24-ttt-d1/champion.json", "configs/blondie24.toml"])
        return f"--versus {other}", ["report", str(ROOT / "results/blondie24"), "--versus", str(ROOT / other)], {}
    return "--depths on a tic-tac-toe run", ["report", str(ROOT / rng.choice(["results/fogel1993", "results/blondie24-ttt-d1"])),
                                             "--depths", "2"], {}


def damage_checkers_checkpoint(rng, run: Path) -> str:
    path = run / "checkpoints" / "trial_00.json"
    what = rng.randrange(6)
    if what == 0:
        path.unlink()
        target = rng.choice(["/dev/zero", "/dev/null", str(run / "nowhere.json"), str(run / "trials")])
        path.symlink_to(target)
        return f"a link to {Path(target).name}"
    if what == 1:
        path.unlink()
        os.mkfifo(path)
        return "a FIFO"
    if what == 2:
        victim = rng.choice([run / "trials" / "trial_00" / "logbook.csv", run / "trials" / "trial_00" / "champion.json",
                             run / "summary.json", run / "curve.png"])
        if victim.exists():
            victim.unlink()
        victim.symlink_to(rng.choice(["/dev/null", str(run / "nowhere")])) if rng.random() < 0.5 else victim.mkdir()
        return f"{victim.name} in the way"
    body = json.loads(path.read_text())
    if body.get("version") == 2:  # packed float arrays: rewrite as version 1, every float as a number
        from evoplay.framework import packing

        body["state"], body["version"] = packing.unpack(body["state"]), 1
    if what == 3:
        net = body["state"]["parents"][0]
        net["genome"] = [rng.choice([1e308, -1e308, 2e100])] * len(net["genome"])
    elif what == 4:
        body["state"]["parents"][0]["king"] = rng.choice([-1.0, 1e308, 1e9])
    else:
        body["generation"] = rng.choice([99, 0, -1, "3"])
    path.write_text(json.dumps(resign(body)))
    return ["", "", "", "huge genome (signed again)", "king (signed again)", "generation (signed again)"][what]


@generator
def gen_checkers_checkpoint(rng, env):
    run = checkers_run(env, env.fresh("-ckrun"))
    what = damage_checkers_checkpoint(rng, run)
    return f"checkers checkpoint: {what}", ["evolve", str(run / "config.toml"), "--out", str(run), "--resume", "-q"], {"watch": run}


@generator
def gen_checkers_prompt(rng, env):
    """Junk at the checkers prompt: 20 unusable answers end the game with one line."""
    junk = rng.choice(["\n", "x\n", "11-16\n", "99-1\n", "11x15\n", " \n", "1-2-3-4\n", "\x00\n", "é\n", "11-15-19\n"])
    return "checkers prompt junk", ["game", "--game", "checkers", "--first", "human"], {"stdin": junk * rng.randrange(20, 400),
                                                                                        "talks": True}


# ---------------------------------------------------------------- game references and OpenSpiel parameters


#: Values of 0, -1 and 100000 that OpenSpiel's game plays (open_spiel 2.0.2): for every other
#: integer parameter of an eligible game, each of the three is refused.
EDGES_THAT_PLAY = {
    "chinese_checkers.max_moves": {"100000"}, "gomoku.connect": {"0", "100000"}, "hive.board_size": {"0", "-1"},
    "oware.num_seeds_per_house": {"100000"},
    **{key: {"0", "-1", "100000"} for key in (
        "connect_four.x_in_row", "crazyhouse.insanity", "cursor_go.handicap", "cursor_go.max_cursor_moves", "go.handicap",
        "go.max_game_length", "lines_of_action.max_game_length", "mnk.k", "quoridor.wall_count")},
}
#: Values of the wrong type, by the type of a parameter's default (OpenSpiel refuses each).
WRONG_TYPE = {int: ["1.5", "abc", "True"], float: ["abc", "1", "nan", "inf"], bool: ["2", "abc", "1", "0"], str: ["1", "2.5"]}
#: Integers beyond OpenSpiel's 32 bits.
HUGE = ["2147483648", "-2147483649", "99999999999999999999"]


@functools.cache
def openspiel_defaults() -> dict:
    """Eligible OpenSpiel game -> its default parameters ({} without open_spiel)."""
    try:
        import pyspiel
    except ImportError:
        return {}
    from evoplay.openspiel import eligible_games

    specs = {t.short_name: t.parameter_specification for t in pyspiel.registered_games()}
    return {name: specs[name] for name in eligible_games()}


@functools.cache
def openspiel_bad_games() -> dict:
    """Class -> game strings of every eligible game with a parameter its game cannot use:
    zero, negative, huge, wrong-typed or unknown (each tried in a child process)."""
    out = {"zero": [], "negative": [], "huge": [], "wrong type": [], "unknown": []}
    for name, spec in openspiel_defaults().items():
        out["unknown"].append(f"{name}(no_such_parameter=1)")
        for key, default in spec.items():
            out["wrong type"] += [f"{name}({key}={v})" for v in WRONG_TYPE[type(default)]]
            if type(default) is not int:
                continue
            plays = EDGES_THAT_PLAY.get(f"{name}.{key}", set())
            out["huge"] += [f"{name}({key}={v})" for v in HUGE + ["100000"] if v not in plays]
            out["zero"] += [f"{name}({key}=0)"] if "0" not in plays else []
            out["negative"] += [f"{name}({key}=-1)"] if "-1" not in plays else []
    return out


def game_place(rng, env, ref: str) -> tuple[str, list[str], dict]:
    """(where, argv, extras) of a command that resolves the game ``ref`` before any work."""
    where = rng.randrange(7)
    if where == 0:
        return "match", ["match", "--game", ref, "random", "random", "--games", "2"], {}
    if where == 1:
        return "tournament", ["tournament", "--game", ref, "random", "random", "--games", "2"], {}
    if where == 2:
        return "game", ["game", "--game", ref, "--vs", "random"], {"stdin": "1\n" * 5}
    if where == 3:
        return "bench", ["bench", "--game", ref], {}
    if where == 4:
        return "serve", ["serve", "--port", "0", "--game", ref], {}
    if where == 5:
        cfg = {sec: dict(keys) for sec, keys in GOOD_B24.items()}
        cfg["game"]["name"] = ref
        path = env.fresh(".toml")
        path.write_text(config_text(cfg))
        return "config", ["evolve", str(path), "--out", str(env.fresh("-run")), "-q"], {"watch": path}
    doc = network_doc(rng, "tictactoe")
    doc["architecture"]["game"] = ref
    path = env.fresh(".json")
    path.write_text(json.dumps(redigest(doc)))
    return "player file", ["match", str(path), "random", "--games", "2"], {"watch": path}


@generator
def gen_openspiel_parameters(rng, env):
    """An eligible OpenSpiel game with a parameter its game cannot use, wherever a game is named.
    Each case starts a child process (once per game string): the default run draws from two
    game strings per class, the slow run from all of them."""
    bad = openspiel_bad_games()
    kind = rng.choice(sorted(k for k in bad if bad[k]) or ["none"])
    pool = bad.get(kind) or ["connect_four(rows=0)"]
    if not env.wide:
        pool = random.Random(SEED).sample(pool, min(2, len(pool)))
    text = rng.choice(pool)
    where, argv, extras = game_place(rng, env, "openspiel:" + text)
    return f"{kind} {text!r} in {where}", argv, extras


#: Games named with nothing wrong but what the reference adds around them.
PLAIN_REFS = ["checkers", "tictactoe", "openspiel:connect_four", "openspiel:breakthrough(columns=6,rows=6)",
              str(ROOT / "examples/games/connect_four.py") + ":ConnectFour"]
#: Characters that print nothing: no reference holds one, nor starts or ends with whitespace.
UNPRINTABLE = ["\n", "\t", "\r", "\x00", "\x07", "\x1b", "\x7f", "\u00a0", "\u200b", "\u2028", "\ufeff", " "]


@generator
def gen_game_ref(rng, env):
    """Game references taken as written: whitespace around one, a character that prints nothing
    in one, an OpenSpiel parameter given twice, text after the closing bracket (no child process)."""
    what = rng.randrange(4)
    if what == 0:
        ref = rng.choice(PLAIN_REFS)
        char = rng.choice(UNPRINTABLE)
        ref = rng.choice([ref + char, char + ref, ref + char * rng.randrange(2, 5)])
        label = "whitespace around"
    elif what == 1:
        ref = rng.choice(PLAIN_REFS)
        cut = rng.randrange(1, len(ref))
        ref = ref[:cut] + rng.choice([c for c in UNPRINTABLE if c != " "]) + ref[cut:]
        label = "unprintable inside"
    else:
        spec = openspiel_defaults() or {"connect_four": {"rows": 6}}
        name = rng.choice(sorted(k for k in spec if spec[k]))
        keys = sorted(spec[name])
        given = [f"{k}={spec[name][k]}" for k in rng.sample(keys, rng.randrange(1, len(keys) + 1))]
        after = ""
        if what == 2:  # the defaults, so only the repeat is wrong
            given.insert(rng.randrange(len(given) + 1), rng.choice(given))
            label = "a parameter given twice"
        else:
            after = rng.choice(["x", ")", "()", "(a=1)", "rows=6)"])
            label = "text after the bracket"
        ref = f"openspiel:{name}({','.join(given)}){after}"
    where, argv, extras = game_place(rng, env, ref)
    return f"{label} {ref[:40]!r} in {where}", argv, extras


# ---------------------------------------------------------------- a user's broken or endless game


#: A user's game file: take 1 or 2 of 7 stones, the taker of the last one wins (``Nim``), or
#: never take any (``Endless``); each case adds a class ``Case`` that changes one thing.
USER_GAME = '''import sys

import numpy as np

from evoplay.arena.game import BaseGame


class Nim(BaseGame):
    def initial(self):
        return (7, 0, 0)  # stones, side to move, plies played

    def to_move(self, s):
        return s[1]

    def legal_moves(self, s):
        return [m for m in (1, 2) if m <= s[0]]

    def apply(self, s, m):
        return (s[0] - m, 1 - s[1], s[2] + 1)

    def result(self, s):
        return None if s[0] else -1

    def key(self, s):
        return s

    def views(self, s):
        return np.array([[x[0], x[2]] for x in s], dtype=np.int64)


class Endless(Nim):
    def apply(self, s, m):
        return (s[0], 1 - s[1], s[2] + 1)
'''
#: What a method returns (Python source over its argument ``s``) that breaks the protocol.
PROTOCOL_BREAKS = {
    "to_move": ["2", "-1", "None", "'0'", "0.5", "np.array([0])"],
    "result": ["5", "float('nan')", "'won'", "2", "-2", "[1]"],
    "legal_moves": ["[]", "None", "3", "(m for m in (1, 2))"],
    "apply": ["None"],
    "key": ["[s[0], s[1], s[2]]", "{'stones': s[0]}"],
    "views": ["np.zeros((len(s), 2 + s[0][2]))", "[['x', 'y'] for _ in s]", "np.full((len(s), 2), np.nan)",
              "np.zeros((len(s) + 1, 2))", "np.zeros((len(s), 2, 2))", "[[1] * (i + 1) for i, _ in enumerate(s)]"],
    "initial": ["(0, 0, 0)", "(7, 5, 0)", "None"],
}
#: Methods only ``evoplay game`` calls (the board, the hint, reading the move).
AT_THE_TERMINAL = ["render", "move_text", "parse_move"]
#: The methods a game between random players calls at every move.
EVERY_MOVE = {"to_move", "result", "legal_moves", "apply"}
#: What a method raises, and what a module does when it is imported.
RAISES = ["raise RuntimeError('boom')", "1 / 0", "raise KeyError('k')", "sys.exit(3)", "raise SystemExit",
          "assert False, 'nope'", "{}['missing']", "raise ValueError('bad\\\\nmultiline message ' * 60)"]
AT_IMPORT = ["sys.exit(3)", "sys.exit(0)", "raise KeyboardInterrupt", "raise SystemExit('bye')", "1 / 0",
             "import no_such_module_for_evoplay", "def broken(:"]
#: Plies from which a break shows: at once, soon (the conformance run finds it), or late: an
#: endless game reaches it past the conformance run's plies, in play, where it is refused.
FROM_PLY = [0, 2, 150]
BAD_MAX_PLIES = ["0", "-1", "'x'", "2.5", "True", "10 ** 30", "[10]"]
#: __slots__ of a game class, and whether it plays (evoplay names a game lacking its name, ref
#: or sides in a wrapper of its own, so every one does).
SLOTS = {"()": True, "('name', 'ref')": True, "('name', 'ref', 'side_names')": True}
#: A command -> whether it plays the case's game to the end (True) or must refuse it (False).
REFUSED_FIRST = {"match": False, "tournament": False, "game": False, "evolve": False}  # by the conformance run
REFUSED_IN_PLAY = {"match": False, "tournament": False, "game": False}
PLAYED = {"match": True, "tournament": True, "game": True}


def broken_method(rng) -> tuple[str, str, dict]:
    """(label, source of ``Case``, command -> whether it plays the game to the end)."""
    base, k = rng.choice(["Nim", "Endless"]), rng.choice(FROM_PLY)
    method = rng.choice(sorted(PROTOCOL_BREAKS) + AT_THE_TERMINAL)
    broken = method in PROTOCOL_BREAKS and rng.random() < 0.6
    body = f"return {rng.choice(PROTOCOL_BREAKS[method])}" if broken else rng.choice(RAISES)
    label = f"{base}.{method}: {body[:30]!r} from ply {k}"
    if method == "initial":
        return label, f"class Case({base}):\n    def initial(self):\n        {body}\n", REFUSED_FIRST
    when = f"any(x[2] >= {k} for x in s)" if method == "views" else f"s[2] >= {k}"
    source = (f"class Case({base}):\n    def {method}(self, s, *rest, **named):\n        if {when}:\n            {body}\n"
              f"        return super().{method}(s, *rest, **named)\n")
    reached = k < 100 or base == "Endless"  # a game of Nim is over by ply 7
    if method in AT_THE_TERMINAL:
        return label, source, {"match": True, "tournament": True, "game": not reached}
    if k < 100:
        return label, source, REFUSED_FIRST
    return label, source, REFUSED_IN_PLAY if reached and method in EVERY_MOVE else PLAYED


def user_game_case(rng) -> tuple[str, str, dict]:
    """(label, source after ``USER_GAME``, command -> whether it plays the game to the end)."""
    what = rng.randrange(6)
    if what <= 2:
        return broken_method(rng)
    if what == 3:
        plies = rng.choice(BAD_MAX_PLIES + ["1", "12", "None"])
        return f"Endless, max_plies = {plies}", f"class Case(Endless):\n    max_plies = {plies}\n", \
            PLAYED if plies in ("1", "12", "None") else REFUSED_FIRST
    if what == 4:
        slots = rng.choice(sorted(SLOTS))
        rules = "".join(f"    {m} = Nim.{m}\n" for m in ("initial", "to_move", "legal_moves", "apply", "result", "key",
                                                          "views", "is_capture", "move_text", "parse_move", "render"))
        return f"__slots__ = {slots}", f"class Case:\n    __slots__ = {slots}\n{rules}", PLAYED if SLOTS[slots] else REFUSED_FIRST
    statement = rng.choice(AT_IMPORT)
    return f"at import: {statement}", f"class Case(Nim):\n    pass\n\n\n{statement}\n", REFUSED_FIRST


BROKEN_B24 = ('recipe = "blondie24"\nname = "broken"\ntrials = 1\ngenerations = 1\n[game]\nname = "{game}:Case"\n'
              'depth = 1\n[network]\nhidden = [2]\n[population]\nparents = 2\n[evaluation]\ngames = 1\n')


@generator
def gen_user_game(rng, env):
    """A user's game file that breaks the protocol (a method's value, an exception in a method,
    sys.exit at import, __slots__, a bad max_plies) or never ends, given to match, tournament,
    game or a Blondie24 config: refused in one line (by the conformance run when it is
    resolved, or at the move in play), or played to its end, an endless game drawn at its
    ply limit (``{"plays": True}``)."""
    label, source, outcome = user_game_case(rng)
    path = env.fresh(".py")
    path.write_text(USER_GAME + "\n\n" + source)
    ref = f"{path}:Case"
    command = rng.choice(sorted(outcome))
    extras = {"plays": outcome[command]}
    if command == "match":
        argv = ["match", "random", "random", "--game", ref, "--games", "2"]
    elif command == "tournament":
        argv = ["tournament", "random", "random", "--game", ref, "--games", "1"]
    elif command == "game":
        argv = ["game", "--game", ref, "--vs", "random", "--first", rng.choice(["human", "ai"])]
        extras |= {"stdin": "1\n" * 600, "talks": True}
    else:
        config = path.with_suffix(".toml")
        config.write_text(BROKEN_B24.format(game=path.name))
        argv = ["evolve", str(config), "--out", str(env.fresh("-run")), "-q"]
    return f"user game {label} ({command})", argv, extras


# ---------------------------------------------------------------- numbers: oversized in data files, not plain in options and specs


def oversized_number(rng) -> str:
    """A number literal no JSON data file may hold: too long, beyond the float range, or NaN/Infinity."""
    what = rng.randrange(6)
    if what == 0:
        return rng.choice(["", "-"]) + rng.choice("123456789") + "".join(rng.choice("0123456789") for _ in range(rng.randrange(100, 6000)))
    if what == 1:
        return f"{rng.choice(['', '-'])}{rng.randrange(1, 10)}{rng.choice(['e', 'E'])}{rng.choice(['', '+'])}{rng.randrange(309, 10**rng.randrange(3, 12))}"
    if what == 2:
        return f"{rng.choice(['', '-'])}{rng.randrange(2, 10)}.{rng.randrange(10**6)}e308"
    if what == 3:
        return "0." + "".join(rng.choice("0123456789") for _ in range(rng.randrange(99, 3000)))
    return rng.choice(["NaN", "Infinity", "-Infinity"])


#: Zero written as JSON allows, for fields where no zero is valid (a format version, a count of trials).
ZEROS = ["-0", "0", "-0.0", "0e5", "-0E-3", "0.0"]


def numeric_paths(node, path=()):
    """The paths of every number inside a JSON value (booleans are no numbers)."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from numeric_paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from numeric_paths(v, path + (i,))
    elif isinstance(node, (int, float)) and not isinstance(node, bool):
        yield path


def with_literal(doc, rng, literal: str, path=None) -> str:
    """``doc`` as JSON text with the number at ``path`` (default: a random number of it, or a new
    first key) written as ``literal``."""
    doc = json.loads(json.dumps(doc))
    paths = list(numeric_paths(doc))
    if path is None and (not paths or rng.random() < 0.2):
        doc = {"extra": "@NUMBER@", **doc}
    else:
        path = path or rng.choice(paths)
        node = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = "@NUMBER@"
    return json.dumps(doc, indent=rng.choice([None, 1])).replace('"@NUMBER@"', literal, 1)


def write_with_number(rng, path: Path, doc, literal: str, zero_at=None) -> str:
    """Write ``doc`` to ``path`` as JSON holding the number ``literal`` (or, now and then, a zero
    at ``zero_at``, a field where no zero is valid); return the literal written."""
    if zero_at is not None and rng.random() < 0.15:
        literal = rng.choice(ZEROS)
        path.write_text(with_literal(doc, rng, literal, zero_at))
    else:
        path.write_text(with_literal(doc, rng, literal))
    return literal


def number_in_data(rng, env) -> tuple[str, str, list, dict]:
    """(what, literal, argv, extras): a data file of one kind holding a number it may not hold,
    in the command that reads it."""
    literal = oversized_number(rng)
    kind = rng.randrange(9)
    if kind in (0, 1):  # a checkpoint of an interrupted Fogel run, or of a Blondie24 checkers run
        run = env.fresh("-ckpt")
        shutil.copytree(real_run(env), run) if kind == 0 else checkers_run(env, run)
        path = sorted((run / "checkpoints").glob("trial_*.json"))[-1]
        literal = write_with_number(rng, path, json.loads(path.read_text()), literal, ("version",))
        return "checkpoint", literal, ["evolve", str(run / "config.toml"), "--out", str(run), "--resume", "-q"], {"watch": run}
    if kind in (2, 3):  # a player file, or a Blondie24 checkers network file
        doc = env.docs[rng.choice(sorted(env.docs))] if kind == 2 else network_doc(rng, "checkers")
        path = env.fresh(".json")
        literal = write_with_number(rng, path, doc, literal, ("version",))
        argv = place_spec(rng, str(path)) if kind == 2 else checkers_place(rng, str(path))[0]
        return "player file", literal, argv, {"watch": path, "stdin": "4\n" * 5}
    if kind in (4, 5):  # a finished run's summary or best champion
        run = copy_run(env)
        path = run / "summary.json" if kind == 4 else run / "trials" / "trial_01" / "champion.json"
        literal = write_with_number(rng, path, json.loads(path.read_text()), literal, ("trials",) if kind == 4 else None)
        cmd = rng.choice(["plot", "export", "report"] if kind == 4 else ["export", "report"])
        argv = {"plot": ["plot", str(run), "--out", str(env.fresh(".png"))], "report": ["report", str(run)],
                "export": ["export", str(run), "--out", str(env.fresh(".json"))]}[cmd]
        return path.name, literal, argv, {"watch": run}
    if kind == 6:  # league.json or duels.json of a Blondie24 checkers run (a copy, checkpoints left out)
        run = env.fresh("-b24")
        shutil.copytree(ROOT / "results" / "blondie24", run, ignore=shutil.ignore_patterns("checkpoints", "league-champions"))
        name = rng.choice(["league.json", "duels.json"])
        doc = json.loads((run / "league.json").read_text()) if name == "league.json" else \
            {"games": 314, "max_plies": 200, "pd_king": 1.5, "trials": [{"trial": 0, "depths": [4]}]}
        write_with_number(rng, run / name, doc, literal)
        return name, literal, ["report", str(run)], {"watch": run}
    # a config or a study's variant (TOML: inf and nan are words there; a float beyond the range is infinite)
    import copy

    literal = literal.replace("NaN", "nan").replace("Infinity", "inf")
    if literal.startswith("0.") or rng.random() < 0.4:  # a long fraction is a number TOML reads and the keys take
        literal = rng.choice(["inf", "-inf", "+inf", "nan", "+nan", "-nan", "1e400", "-1.5E999"])
    key = rng.choice(["population.parents", "mutation.sigma", "evaluation.payoff_win", "population.init_scale",
                      "run.checkpoint_every"] + (["seed", "trials"] if kind == 7 else []))  # a variant's own keys: the sections'
    if kind == 8:
        base, path = env.fresh(".toml"), env.fresh(".toml")
        base.write_text(config_text(GOOD_CONFIG))
        path.write_text(f'name = "s"\nbase = "{base.name}"\n[[variants]]\nname = "a"\n[[variants]]\nname = "b"\n"{key}" = {literal}\n')
        return f"study {key}", literal, ["study", str(path), "--out", str(env.fresh("-study")), "-q"], {}
    cfg = copy.deepcopy(GOOD_CONFIG)
    sec, _, name = key.rpartition(".")
    cfg[sec][name] = "@NUMBER@"
    path = env.fresh(".toml")
    path.write_text(config_text(cfg).replace('"@NUMBER@"', literal))
    return f"config {key}", literal, ["evolve", str(path), "--out", str(env.fresh("-run")), "-q"], {}


@generator
def gen_oversized_number(rng, env):
    """Every kind of data file holding a number it may not hold: refused in one line, the files as they were."""
    what, literal, argv, extras = number_in_data(rng, env)
    return f"{what} holding {literal[:20]!r} ({len(literal)} characters)", argv, extras


#: Digits of other scripts, each read by int() and float(): full-width, Arabic-Indic, Devanagari,
#: Bengali, mathematical bold.
OTHER_DIGITS = [0xFF10, 0x0660, 0x0966, 0x09E6, 0x1D7CE]


def not_plain(rng, text: str, negative_zero: bool = True, blanks=(" ", "\t", "\n", "\u00a0", "\u2003")) -> str:
    """The decimal ``text`` (ending in a digit) written otherwise than as a plain ASCII decimal,
    mostly in a way that int() or float() reads."""
    how = rng.randrange(7 if negative_zero else 6)
    if how == 0:  # blanks, which int() and float() strip
        blank = rng.choice(blanks)
        return blank + text if rng.random() < 0.5 else text + blank
    if how == 1:
        return "+" + text
    if how == 2:  # an underscore between two digits ('1_2' is 12)
        pairs = [i for i in range(1, len(text)) if text[i - 1].isdigit() and text[i].isdigit()]
        i = rng.choice(pairs) if pairs else len(text)
        return text[:i] + "_" + (text[i:] or "0")
    if how == 3:  # other scripts' digits, all or one
        zero = rng.choice(OTHER_DIGITS)
        digits = [i for i, c in enumerate(text) if c.isdigit()]
        pick = set(digits) if rng.random() < 0.5 else {rng.choice(digits)}
        return "".join(chr(zero + int(c)) if i in pick else c for i, c in enumerate(text))
    if how == 4:
        return rng.choice(["0x", "0o", "0b"]) + "1"
    if how == 5:  # a float where an integer goes, or a float no decimal
        return text + rng.choice([".0", "e0", "e1"]) if "." not in text else rng.choice(["0x1p-1", text + "j", "\u00bd", text + "f"])
    return "-" + "0" * rng.randrange(1, 4)


#: Options taking an integer, each in a command refused for another reason had the number been read.
INT_OPTION_PLACES = [
    ["match", "nosuch", "random", "--games"], ["match", "nosuch", "random", "--seed"], ["tournament", "nosuch", "--games"],
    ["game", "--vs", "nosuch", "--seed"], ["evolve", "missing.toml", "--trials"], ["evolve", "missing.toml", "--generations"],
    ["evolve", "missing.toml", "--seed"], ["evolve", "missing.toml", "--workers"], ["study", "missing.toml", "--trials"],
    ["study", "missing.toml", "--generations"], ["study", "missing.toml", "--workers"], ["export", "missing-run", "--trial"],
    ["train", "value-net", "--out", "/proc/evoplay-no/v.json", "--games"], ["train", "outcome-net", "--out", "/proc/evoplay-no/o.json", "--epochs"],
    ["train", "ga-value-net", "--out", "/proc/evoplay-no/g.json", "--population"], ["report", "missing-run", "--league"],
    ["report", "missing-run", "--workers"], ["baselines", "--out", "/proc/evoplay-no", "--seed"],
    ["serve", "/nonexistent-evoplay-path", "--port"], ["figures", "gibson", "--seeds"], ["figures", "seed003", "--games"],
]
#: Player specs with one number parameter to write badly ({}), and a parameter after it.
NUMBER_SPECS = [("tictactoe", "mcts:sims={},c=1", "7"), ("openspiel:tic_tac_toe", "mcts:solve={},sims=5", "1"),
                ("checkers", "piece-difference:depth={},king=1.5", "2"), ("tictactoe", "mcts:c={},sims=5", "1.5"),
                ("tictactoe", "logic:eps={},develop=own", "0.25"), ("tictactoe", "softmax:t={},model_t=1", "0.5"),
                ("checkers", "piece-difference:king={},depth=2", "1.5"), ("openspiel:connect_four", "mcts:sims={},solve=0", "12")]


@generator
def gen_not_plain_number(rng, env):
    """Numbers in options, --depths and player specs that int() or float() read but that are no plain ASCII decimals."""
    what = rng.choices(range(4), weights=(4, 2, 3, 1))[0]
    if what == 0:
        place = rng.choice(INT_OPTION_PLACES)
        value = not_plain(rng, str(rng.randrange(1, 10 ** rng.randrange(1, 5))))
        return f"{place[-1]} {value!r}", place + [value], {}
    if what == 1:
        depths = [str(d) for d in rng.sample(range(1, 13), rng.randrange(1, 4))]
        i = rng.randrange(len(depths))
        depths[i] = not_plain(rng, depths[i])
        run = ROOT / "results" / "fogel1993"  # the depths are read first; accepted, they would be refused on this run
        return f"--depths {','.join(depths)!r}", ["report", str(run), "--depths", ",".join(depths)], {"watch": run}
    game, spec, good = rng.choice(NUMBER_SPECS)
    if what == 2:
        # a spec's spaces around a value are layout ("king = 2"); other blanks are not
        value = not_plain(rng, good, negative_zero="." not in good, blanks=("\t", "\n", "\u00a0", "\u2003"))
        spec = spec.format(value)
    else:  # a parameter given twice
        name = spec.partition(":")[2].partition("=")[0]
        spec = spec.format(good) + f",{name}={good}"
    return f"spec {spec!r} ({game})", ["match", "--game", game, spec, "random", "--games", "1"], {}


# ---------------------------------------------------------------- running


def make_cases(seed: int, n: int, env: FuzzEnv, skip=(), only=None):
    """``n`` cases drawn in turn from the generators (commands in ``skip`` drawn again)."""
    rng = random.Random(seed)
    gens = [g for g in GENERATORS if only is None or g in only_generators(only)]
    i = draws = 0
    while i < n:
        gen = gens[draws % len(gens)]
        draws += 1
        label, argv, *extras = gen(rng, env)
        if argv[0] in skip or (only is not None and argv[0] not in only):
            continue
        yield f"#{i} {gen.__name__}: {label}", argv, (extras[0] if extras else {})
        i += 1


def only_generators(commands) -> list:
    """The generators that can produce cases of these commands."""
    return [gen_args, gen_run_dir] if set(commands) <= {"plot", "export", "report"} else GENERATORS


def played(code, out, err) -> str | None:
    """What is wrong with a command that must play its games to the end (None when it
    exits 0 and says nothing on stderr)."""
    if code not in (0, None):
        return f"exit code {code!r}: {err[-300:]!r}"
    if "Traceback" in err or "Traceback" in out or err:
        return f"stderr not empty: {err[:300]!r}"
    return None


def fuzz(n: int, tmp_path: Path, monkeypatch, wide: bool = False, **select) -> list[str]:
    monkeypatch.chdir(tmp_path)
    env = FuzzEnv(tmp_path, wide)
    failures = []
    for label, argv, extras in make_cases(SEED, n, env, **select):
        watch = extras.get("watch")
        before = None if watch is None else (tree_digest(watch) if watch.is_dir() else watch.read_bytes())
        try:
            code, out, err = run_in_process(argv, stdin=extras.get("stdin"))
            judge = played if extras.get("plays") else problem
            result = judge(code, "" if extras.get("talks") else out, err)  # a game talks before it gives up
        except Exception as e:  # escaped the CLI: a traceback on a terminal
            result = f"{type(e).__name__}: {e}"[:300]
        if not result and watch is not None and before != (tree_digest(watch) if watch.is_dir() else watch.read_bytes()):
            result = f"refused, but {watch} changed"
        if result:
            failures.append(f"{label}: {argv!r:.300} -> {result}")
    assert not list(tmp_path.glob("curve.*")), "a refused plot wrote its default output"
    return failures


def test_fuzz_cases_are_refused_with_one_line(tmp_path, monkeypatch):
    failures = fuzz(DEFAULT_CASES, tmp_path, monkeypatch)
    assert not failures, f"{len(failures)} of {DEFAULT_CASES} cases:\n" + "\n".join(failures[:40])


def test_fuzz_plot_and_export(tmp_path, monkeypatch):
    n = 300
    failures = fuzz(n, tmp_path, monkeypatch, skip=(), only=("plot", "export"))
    assert not failures, f"{len(failures)} of {n} cases:\n" + "\n".join(failures[:40])


@pytest.mark.slow
def test_fuzz_long(tmp_path, monkeypatch):
    failures = fuzz(SLOW_CASES, tmp_path, monkeypatch, wide=True)
    assert not failures, f"{len(failures)} of {SLOW_CASES} cases:\n" + "\n".join(failures[:40])


def test_every_generator_yields_distinct_cases(tmp_path):
    env = FuzzEnv(tmp_path)
    cases = list(make_cases(SEED, 400, env))
    names = {label.split(":")[0].split()[1] for label, _, _ in cases}
    assert names == {g.__name__ for g in GENERATORS}
    assert len({tuple(a) for _, a, _ in cases}) > 300


def test_the_checker_catches_a_traceback_and_a_success():
    assert problem(*run_in_process(["match", "logic", "random", "--games", "5"])) == "exit code 0"
    assert problem(1, "", "Traceback (most recent call last):\n  ...\n") == "exit code 1"
    assert problem(2, "", "evoplay: error: x\n") is None


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_fuzz_cases_in_a_real_process(tmp_path, seed):
    """No traceback reaches a terminal: one case per generator family, in a subprocess."""
    env = FuzzEnv(tmp_path)
    rng = random.Random(seed)
    gen = GENERATORS[seed % len(GENERATORS)]
    label, argv, *extras = gen(rng, env)
    extras = extras[0] if extras else {}
    proc = subprocess.run([str(EVOPLAY), *argv], capture_output=True, text=True, timeout=120, cwd=tmp_path,
                          input=extras.get("stdin") or "")
    judge = played if extras.get("plays") else problem
    assert judge(proc.returncode, "" if extras.get("talks") else proc.stdout, proc.stderr) is None, (label, argv, proc.stderr[-2000:])
