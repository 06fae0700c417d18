"""A user's own game (examples/games/connect_four.py), named by reference and nothing else:
its rules on hand-drawn positions, the conformance suite, a Blondie24 run identical on 1
and 2 workers and after a killed driver, and one-line refusals of bad game references."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from evoplay.errors import EvoplayError
from evoplay.games import resolve_game
from game_conformance import conformance
from support.nowork import EVOPLAY_WITHOUT_RAY

ROOT = Path(__file__).resolve().parents[1]
GAME_FILE = ROOT / "examples" / "games" / "connect_four.py"
REF = f"{GAME_FILE}:ConnectFour"


@pytest.fixture(scope="module")
def game():
    return resolve_game(REF)


def position(game, columns: str):
    """The state after dropping discs in the given columns (1-7), alternately from the first side."""
    state = game.initial()
    for c in columns:
        state = game.apply(state, game.parse_move(state, c))
    return state


def test_the_rules_on_drawn_positions(game):
    # Red (X) plays column 1 four times, Yellow column 2 three times: X's vertical four.
    won = position(game, "1212121")
    assert game.render(won) == "\n".join([".......", ".......", "X......", "XO.....", "XO.....", "XO....."])
    assert game.result(won) == -1 and game.to_move(won) == 1 and game.legal_moves(won) == []
    diagonal = position(game, "12233434474")  # X's rising diagonal from the bottom left
    assert game.render(diagonal) == "\n".join([".......", ".......", "...X...", "..XX...", ".XXO...", "XOOO..O"])
    assert game.result(diagonal) == -1 and game.result(position(game, "1223343447")) is None
    state = position(game, "")
    assert game.views([state]).shape == (1, 42) and game.views([state]).dtype == np.int8
    one = position(game, "4")
    assert game.views([one])[0].tolist().count(-1) == 1  # the mover's disc is the other side's in the next view
    with pytest.raises(ValueError, match="column 1-7"):
        game.parse_move(state, "8")
    with pytest.raises(ValueError, match="full"):
        game.parse_move(position(game, "111111"), "1")
    with pytest.raises(ValueError, match="over"):
        game.parse_move(won, "3")


def test_conformance(game):
    facts = conformance(game, np.random.default_rng(4), playouts=5, max_plies=42)
    assert facts["finished"] == 5


def test_game_references_resolve_to_one_object(game):
    assert resolve_game(REF) is game and game.ref == REF
    assert resolve_game(game.ref) is game
    assert resolve_game("checkers").ref == "checkers"


@pytest.mark.parametrize("ref, words", [
    ("chess", "unknown game 'chess'"),
    ("evoplay.games:NoSuchGame", "has no 'NoSuchGame'"),
    ("evoplay.games:BUILTIN_GAMES", "is not a game"),
    ("no/such/file.py:Game", "not found"),
    ("openspiel:kuhn_poker", "information is not perfect"),
    ("openspiel:backgammon", "chance"),
    ("openspiel:breakthrough(rows=abc)", "breakthrough"),
    ("openspiel:no_such_game", "no_such_game"),
])
def test_bad_game_references_are_one_line(ref, words):
    if ref.startswith("openspiel:"):
        pytest.importorskip("pyspiel")
    with pytest.raises(EvoplayError, match=words.replace("(", r"\(")) as e:
        resolve_game(ref)
    assert "\n" not in str(e.value)


def test_a_config_with_a_bad_game_is_refused_before_ray_starts(tmp_path):
    toml = tmp_path / "bad.toml"
    toml.write_text('recipe = "blondie24"\n[game]\nname = "nowhere.py:Game"\n')
    # A process whose ray.init ends it (exit 97 and a second line): refused only once Ray started fails here.
    run = subprocess.run([*EVOPLAY_WITHOUT_RAY, "evolve", str(toml), "--out", str(tmp_path / "out")],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and "config key 'game.name'" in run.stderr, run.stderr
    assert "not found" in run.stderr and not (tmp_path / "out").exists()


TINY = f"""recipe = "blondie24"
name = "c4-tiny"
seed = 11
trials = 2
generations = 2

[run]
checkpoint_every = 1
eval_chunks = 2

[game]
name = "{GAME_FILE.name}:ConnectFour"
depth = 1
max_plies = 42

[network]
hidden = [3]

[population]
parents = 2

[evaluation]
games = 1
random_plies = 2

[yardstick]
every = 2
openings = 1
mcts_sims = 5
"""


def tiny_config(folder: Path) -> Path:
    """The tiny run's config beside a copy of the game file (relative reference, as a user writes it)."""
    (folder / GAME_FILE.name).write_text(GAME_FILE.read_text())
    toml = folder / "tiny.toml"
    toml.write_text(TINY)
    return toml


def evolve(*args, cwd, check=True, **kw):
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    run = subprocess.run([sys.executable, "-m", "evoplay", "evolve", *map(str, args), "--quiet"],
                         capture_output=True, text=True, cwd=cwd, env=env, timeout=600, **kw)
    if check:
        assert run.returncode == 0, run.stderr[-3000:]
    return run


FILES = ("summary.json", "trials/trial_00/logbook.csv", "trials/trial_01/logbook.csv",
         "trials/trial_00/champion.json", "trials/trial_01/champion.json")


def computed(run_dir: Path) -> dict:
    summary = json.loads((run_dir / "summary.json").read_text())
    out = {f: (run_dir / f).read_bytes() for f in FILES[1:]}
    out["summary"] = {k: v for k, v in summary.items() if k not in ("ray", "cluster", "environment", "seconds", "timings",
                                                                    "driver_peak_rss_mib")}
    return out


def test_a_user_game_run_is_identical_on_one_and_two_workers(tmp_path):
    toml = tiny_config(tmp_path)
    evolve(toml, "--out", tmp_path / "one", "--workers", "1", cwd=tmp_path)
    evolve(toml, "--out", tmp_path / "two", "--workers", "2", cwd=tmp_path)
    one, two = computed(tmp_path / "one"), computed(tmp_path / "two")
    assert one == two
    champion = json.loads((tmp_path / "one" / "champion.json").read_text())
    assert champion["kind"] == "blondie24-network" and champion["architecture"]["game"] == f"{tmp_path / GAME_FILE.name}:ConnectFour"
    facts = one["summary"]["per_trial"][0]
    assert 0 <= facts["champion_random_win"] <= 1 and "champion_vs_earlier" not in facts
    # The champion plays with the game named; without it, one line says how.
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    cli = [sys.executable, "-m", "evoplay", "match", str(tmp_path / "one"), "random", "--games", "2"]
    refused = subprocess.run(cli, capture_output=True, text=True, cwd=tmp_path, env=env)
    assert refused.returncode == 2 and f"add --game {tmp_path / GAME_FILE.name}:ConnectFour" in refused.stderr
    played = subprocess.run(cli + ["--game", f"{GAME_FILE.name}:ConnectFour"], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert played.returncode == 0 and "A wins" in played.stdout, played.stderr
# slow: a killed driver resumes to the same bytes for user code in the default run (test_framework's sigkilled user run,
# test_checkpoint_v2's run stopped after its first landing)
@pytest.mark.slow
def test_a_user_game_run_resumes_after_a_killed_driver_to_the_same_bytes(tmp_path):
    toml = tiny_config(tmp_path)
    evolve(toml, "--out", tmp_path / "whole", "--workers", "1", cwd=tmp_path)
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    driver = subprocess.Popen([sys.executable, "-m", "evoplay", "evolve", str(toml), "--out", str(tmp_path / "cut"),
                               "--workers", "1", "--quiet"], cwd=tmp_path, env=env, start_new_session=True,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    checkpoint = tmp_path / "cut" / "checkpoints" / "trial_00.json"
    deadline = time.time() + 300
    while not checkpoint.exists() and driver.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    if driver.poll() is None:
        os.killpg(driver.pid, signal.SIGKILL)  # the driver and the Ray it started
    driver.wait()
    evolve(toml, "--out", tmp_path / "cut", "--workers", "1", "--resume", cwd=tmp_path)
    assert computed(tmp_path / "cut") == computed(tmp_path / "whole")


def test_bench_reports_any_game(tmp_path):
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    run = subprocess.run([sys.executable, "-m", "evoplay", "bench", "--game", REF, "--quick", "--json", "--quiet"],
                         capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    facts = json.loads(run.stdout)
    assert facts["game"] == REF and facts["adapter_moves_per_s"] > 0 and facts["games"] > 0
    pytest.importorskip("pyspiel")
    run = subprocess.run([sys.executable, "-m", "evoplay", "bench", "--game", "openspiel:connect_four", "--quick", "--json",
                          "--quiet"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    facts = json.loads(run.stdout)
    assert facts["game"] == "openspiel:connect_four" and facts["raw_moves_per_s"] > 0 and facts["adapter_moves_per_s"] > 0


def test_an_installed_package_offers_a_game_by_entry_point(tmp_path, monkeypatch):
    """A package installed with an entry point in the group ``evoplay.games`` names its game
    (a dist-info folder on the path is what pip leaves)."""
    (tmp_path / "fourgame.py").write_text(GAME_FILE.read_text())
    info = tmp_path / "fourgame-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fourgame\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[evoplay.games]\nfour = fourgame:ConnectFour\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    game = resolve_game("four")
    assert game.ref == "four" and game.title == "Connect Four" and resolve_game("four") is game
    with pytest.raises(EvoplayError, match="known: tictactoe, checkers, four"):
        resolve_game("five")


def test_a_player_file_names_an_openspiel_game_without_game():
    """An OpenSpiel reference in a player file is no user code: the game is read off the file."""
    pytest.importorskip("pyspiel")
    from evoplay.cli.gameplay import choose_game

    run = ROOT / "results" / "blondie24-connect-four"
    if not (run / "champion.json").exists():
        pytest.skip("no committed Connect Four run")
    assert choose_game(None, [str(run)]).ref == "openspiel:connect_four"
