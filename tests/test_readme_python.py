"""The README's "Use evoplay from Python" section, followed literally in a fresh folder.

Files the section tells the reader to save (code blocks opening with ``# NAME.ext``) are
saved, ``$ evoplay ...`` lines are run, and Python blocks are run as scripts, in order;
each must succeed. The folder holds a copy of ``examples/``, as a checkout does.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = {**{k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}, "RAY_USAGE_STATS_ENABLED": "0"}
BIN = Path(sys.executable).parent


def section_blocks():
    text = (ROOT / "README.md").read_text()
    start = text.index("## Use evoplay from Python")
    end = text.find("\n## ", start + 10)
    return re.findall(r"```(\w+)\n(.*?)```", text[start:end], flags=re.S)


def test_the_python_section_runs_as_written(tmp_path):
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    blocks = section_blocks()
    kinds = [k for k, _ in blocks]
    assert kinds.count("python") >= 4 and "console" in kinds and "toml" in kinds
    for n, (kind, body) in enumerate(blocks):
        first = body.splitlines()[0]
        saved = re.fullmatch(r"# ([\w.-]+\.(py|toml))", first)
        if saved:
            (tmp_path / saved[1]).write_text(body)
        elif kind == "console":
            for line in body.splitlines():
                assert line.startswith("$ evoplay "), line
                args = line[2:].split()
                run = subprocess.run([str(BIN / "evoplay"), *args[1:]], cwd=tmp_path, env=ENV,
                                     capture_output=True, text=True, timeout=300)
                assert run.returncode == 0, (line, run.stderr[-2000:])
        elif kind == "python":
            script = tmp_path / f"block_{n}.py"
            script.write_text(body)
            run = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=ENV,
                                 capture_output=True, text=True, timeout=300)
            assert run.returncode == 0, (n, run.stderr[-3000:])
            if "OneMax solved" in body:
                assert run.stdout.split()[0] == "100"
            if "exact, no sampling" in body:
                assert run.stdout.splitlines()[-1] == "True"
    assert (tmp_path / "results/onemax/summary.json").is_file() and (tmp_path / "onemax.png").is_file()
