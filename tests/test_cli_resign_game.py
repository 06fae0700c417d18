"""``evoplay resign FILE --game G`` uses the game it resolves: a file of another game is refused."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EVOPLAY = str(Path(sys.executable).with_name("evoplay"))
ENV = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}


def evoplay(*argv, cwd):
    return subprocess.run([EVOPLAY, *argv], cwd=cwd, env=ENV, capture_output=True, text=True, timeout=120)


def test_resign_refuses_a_game_the_file_does_not_play_and_leaves_the_file_alone(tmp_path):
    shutil.copy(ROOT / "results" / "blondie24" / "champion.json", tmp_path / "c.json")
    before = (tmp_path / "c.json").read_bytes()
    done = evoplay("resign", "c.json", "--game", "tictactoe", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("evoplay: error: --game tictactoe: player file c.json plays checkers, not this game "
                           "(drop --game, or name the file's game)\n")
    assert (tmp_path / "c.json").read_bytes() == before
    done = evoplay("resign", "c.json", "--game", "checkers", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, "c.json: signature already matches its contents; unchanged\n")
