"""The end of a user's journey for any game: a run of a game file of one's own (Hexapawn)
and of an OpenSpiel game (Breakthrough 6x6) goes through export, analyze, report, plot,
match, tournament and serve; a run moved to another folder with its game file still does; a game
file changed since the run is said in one warning line; ``report`` writes analysis.md and
analysis.json for every game, its intervals inside [-1, 1].

Each command runs as its own process, as a user runs it (a changed game file is read
afresh by each)."""

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEXAPAWN = ROOT / "examples" / "games" / "hexapawn.py"
EVOPLAY = str(Path(sys.executable).with_name("evoplay"))
ENV = {**{k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}, "RAY_USAGE_STATS_ENABLED": "0"}
REF = "hexapawn.py:Hexapawn"
BREAKTHROUGH = "openspiel:breakthrough(rows=6,columns=6)"
#: A tiny run: 2 trials of 2 generations of 3 parents, its yardstick over 2 openings from both seats.
CONFIG = ('recipe = "blondie24"\nname = "{name}"\ntrials = 2\ngenerations = 2\n\n[run]\ncheckpoint_every = 2\n\n'
          '[game]\nname = "{game}"\ndepth = {depth}\n\n[network]\nhidden = [4]\n\n[population]\nparents = 3\n\n'
          '[evaluation]\ngames = 2\nboth_seats = true\n\n[yardstick]\nevery = 2\nopenings = 2\nmcts_sims = 5\n')


def evoplay(argv, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([EVOPLAY, *argv], cwd=cwd, env=ENV, capture_output=True, text=True, timeout=300)


def ok(argv, cwd) -> str:
    """The output of a command that must succeed and say nothing on stderr."""
    done = evoplay(argv, cwd)
    assert done.returncode == 0 and done.stderr == "", (argv, done.stderr)
    return done.stdout


def evolved(folder: Path, name: str, game: str, depth: int) -> Path:
    (folder / f"{name}.toml").write_text(CONFIG.format(name=name, game=game, depth=depth))
    made = evoplay(["evolve", f"{name}.toml", "--out", "run", "--workers", "1", "-q"], folder)
    assert made.returncode == 0, made.stderr
    return folder / "run"


@pytest.fixture(scope="module")
def moved(tmp_path_factory) -> Path:
    """A folder holding a Hexapawn run and its game file, moved there from where the run was
    made (the run names the game file by its old absolute path, which no longer exists)."""
    base = tmp_path_factory.mktemp("hexapawn")
    first = base / "first"
    first.mkdir()
    shutil.copy(HEXAPAWN, first / "hexapawn.py")
    evolved(first, "hx", REF, 2)
    shutil.move(first, base / "second")
    return base / "second"


@pytest.fixture
def here(moved, tmp_path) -> Path:
    """This test's own copy of the moved folder."""
    return Path(shutil.copytree(moved, tmp_path / "third"))


def fetch(url: str, body: dict | None = None) -> dict:
    """The JSON answer of the local server at ``url`` (a POST of ``body`` when given)."""
    import urllib.request

    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def analysis_rows(run: Path) -> list[dict]:
    return [r for c in json.loads((run / "analysis.json").read_text())["champions"] for r in c["opponents"]]


def test_a_moved_run_of_a_users_game_exports_analyzes_reports_plots_and_plays_unchanged(here):
    run = here / "run"
    digest = hashlib.sha256((here / "hexapawn.py").read_bytes()).hexdigest()
    summary = json.loads((run / "summary.json").read_text())
    assert summary["game"].endswith("/first/hexapawn.py:Hexapawn") and not Path(summary["game"].rpartition(":")[0]).exists()
    assert summary["game_sha256"] == digest
    assert json.loads((run / "champion.json").read_text())["architecture"]["game_sha256"] == digest

    assert ok(["export", "run", "--out", "c.json", "--game", REF], here) == "c.json: champion of trial 0 of run\n"
    assert (here / "c.json").read_bytes() == (run / "trials" / "trial_00" / "champion.json").read_bytes()
    analyzed = json.loads(ok(["analyze", "run", "--game", REF, "--openings", "2", "--json"], here))
    assert analyzed["game"] == f"{here}/hexapawn.py:Hexapawn" and [r["opponent"] for r in analyzed["opponents"]] == [
        "random", "mcts:sims=100"]
    assert all(r["games"] == 4 == r["win"] + r["draw"] + r["loss"] and -1 <= r["lo"] <= r["score"] <= r["hi"] <= 1
               for r in analyzed["opponents"])
    printed = ok(["report", "run", "--game", REF], here)
    assert printed.startswith("analysis: run/analysis.md\nchampions against random and mcts (")
    result = json.loads((run / "analysis.json").read_text())
    assert (result["source"], result["openings"], result["random_plies"], result["best_trial"]) == ("recorded", 2, 2, 0)
    for champion, facts in zip(result["champions"], summary["per_trial"]):  # the run's own games, counted
        for row, name in zip(champion["opponents"], ("random", "mcts")):
            assert row["games"] == facts["champion_games"] == 4
            assert [row[k] / 4 for k in ("win", "draw", "loss")] == [facts[f"champion_{name}_{k}"] for k in ("win", "draw", "loss")]
    assert "| 0 (best) | `random` | 4 |" in (run / "analysis.md").read_text()
    assert ok(["plot", "run", "--out", "p.png", "--game", REF], here) == "p.png\n" and (here / "p.png").stat().st_size > 0
    assert '"a": "run"' in ok(["match", "run", "c.json", "--game", REF, "--games", "2", "--json"], here)
    assert ok(["tournament", "run", "c.json", "random", "--game", REF, "--games", "2", "--json"], here).startswith("{")
    server = subprocess.Popen([EVOPLAY, "serve", "run", "--port", "0", "--quiet", "--game", REF], cwd=here, env=ENV,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().split()[2]  # evoplay serve: URL  (Ctrl-C stops)
        name = next(g["name"] for g in fetch(url + "api/games")["games"] if g["title"] == "Hexapawn")
        assert "run/champion.json" in [f["spec"] for f in fetch(f"{url}api/games/{name}/players")["files"]]
        moved = fetch(f"{url}api/games/{name}/ai-move", {"player": "run/champion.json", "moves": []})
        assert len(moved["moves"]) == 1
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_run_whose_game_is_not_named_is_refused_in_one_line_by_analyze_and_report(here):
    for argv in (["analyze", "run"], ["report", "run"]):
        done = evoplay(argv, here)
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--game" in done.stderr, done.stderr
    assert not (here / "run" / "analysis.json").exists()


def test_a_game_file_changed_since_the_run_is_said_in_one_warning_line_and_the_commands_go_on(here):
    """At the place the run recorded, a changed game file is the run's game, changed: one warning."""
    recorded = Path(json.loads((here / "run" / "summary.json").read_text())["game"].rpartition(":")[0]).parent
    shutil.copytree(here, recorded)  # the run and its game file back where the run was made
    try:
        before = hashlib.sha256((recorded / "hexapawn.py").read_bytes()).hexdigest()
        with open(recorded / "hexapawn.py", "a") as f:
            f.write("\n# a comment added after the run\n")
        after = hashlib.sha256((recorded / "hexapawn.py").read_bytes()).hexdigest()
        warning = (f"evoplay: warning: the game file {recorded}/hexapawn.py has changed since a run or player file recorded "
                   f"it (sha256 {before[:12]}... then, {after[:12]}... now): what they say of the game may no longer hold\n")
        for argv in (["export", "run", "--out", "c.json", "--game", REF], ["report", "run", "--game", REF],
                     ["match", "run", "random", "--game", REF, "--games", "2"]):
            done = evoplay(argv, recorded)
            assert done.returncode == 0 and done.stderr == warning, (argv, done.stderr)
    finally:
        shutil.rmtree(recorded)


def test_a_file_of_the_same_names_but_other_bytes_is_another_game_not_the_moved_one_changed(here):
    """It was accepted, with a warning, as "the same game, changed": file and class names are no identity."""
    with open(here / "hexapawn.py", "a") as f:
        f.write("\n# another file of the same name\n")
    for argv in (["export", "run", "--out", "c.json", "--game", REF], ["report", "run", "--game", REF],
                 ["plot", "run", "--out", "p.png", "--game", REF], ["analyze", "run", "--game", REF]):
        done = evoplay(argv, here)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, (argv, done.stderr)
        assert "whose file is no longer there, and --game hexapawn.py:Hexapawn is a file of other bytes" in done.stderr
    assert not (here / "c.json").exists() and not (here / "p.png").exists()


def test_a_run_of_a_users_game_is_read_without_loading_its_code_unless_named(here):
    """report and plot loaded the game file of the run's config by themselves, running its code."""
    recorded = Path(json.loads((here / "run" / "summary.json").read_text())["game"].rpartition(":")[0]).parent
    shutil.copytree(here, recorded)
    try:
        (recorded / "loaded").unlink(missing_ok=True)
        with open(recorded / "hexapawn.py", "a") as f:  # import-time code, as a hostile file would have
            f.write(f"\nopen({str(recorded / 'loaded')!r}, 'w').close()\n")
        for argv in (["report", "run"], ["export", "run", "--out", "c.json"], ["analyze", "run"]):
            done = evoplay(argv, recorded)
            assert done.returncode == 2 and done.stderr.count("\n") == 1, (argv, done.stderr)
            assert f"add --game {recorded}/hexapawn.py:Hexapawn" in done.stderr, done.stderr
        assert evoplay(["plot", "run", "--out", "p.png"], recorded).returncode == 0  # curves need no game
        assert not (recorded / "loaded").exists()
        for argv in (["report", "run", "--game", "tictactoe"], ["plot", "run", "--out", "q.png", "--game", "tictactoe"],
                     ["export", "run", "--out", "d.json", "--game", "tictactoe"]):
            done = evoplay(argv, recorded)
            assert done.returncode == 2 and done.stderr.count("\n") == 1, (argv, done.stderr)
            assert "--game tictactoe: run run played " in done.stderr or "add --game" in done.stderr, done.stderr
        assert not (recorded / "loaded").exists()
    finally:
        shutil.rmtree(recorded)


def test_player_files_and_summaries_without_a_digest_load_as_before_and_a_bad_digest_is_refused(here):
    run = here / "run"
    summary = json.loads((run / "summary.json").read_text())
    del summary["game_sha256"]
    (run / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    with open(here / "hexapawn.py", "a") as f:
        f.write("\n# changed, but nothing recorded to compare with\n")
    champion = json.loads((run / "champion.json").read_text())
    del champion["architecture"]["game_sha256"]
    old = here / "old.json"
    old.write_text(json.dumps(champion, indent=1) + "\n")
    assert "re-signed" in ok(["resign", "old.json", "--game", REF], here)  # a file as written before digests were
    assert '"a": "old.json"' in ok(["match", "old.json", "random", "--game", REF, "--games", "2", "--json"], here)
    champion["architecture"]["game_sha256"] = "not a digest"
    (here / "bad.json").write_text(json.dumps(champion, indent=1) + "\n")
    done = evoplay(["resign", "bad.json", "--game", REF], here)
    assert done.returncode == 2 and done.stderr == ("evoplay: error: player file bad.json: architecture 'game_sha256' must "
                                                    "be 64 lowercase hexadecimal digits, got 'not a digest'\n")


def test_report_intervals_stay_inside_the_possible_range_at_100_and_90_percent_wins(here):
    """The run recorded the t-interval of each champion's scores, which leaves [-1, 1] (at 90%
    wins over 20 games: [+0.691, +1.109]); the report's table gives Wilson's, inside it."""
    run = here / "run"
    summary = json.loads((run / "summary.json").read_text())
    for facts, win in zip(summary["per_trial"], (1.0, 0.9)):
        facts |= {"champion_games": 20, "champion_random_win": win, "champion_random_draw": 0.0,
                  "champion_random_loss": round(1 - win, 1), "champion_random_lo": 0.691, "champion_random_hi": 1.109}
    (run / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    ok(["report", "run", "--game", REF], here)
    rows = [r for r in analysis_rows(run) if r["opponent"] == "random"]
    assert [(r["win"], r["loss"]) for r in rows] == [(20, 0), (18, 2)]
    assert rows[0]["hi"] == 1.0 and 0.6 < rows[0]["lo"] < 1 and rows[0]["score"] == 1.0
    assert rows[1]["score"] == pytest.approx(0.8) and 0.3 < rows[1]["lo"] < 0.8 < rows[1]["hi"] < 1
    assert "1.109" not in (run / "analysis.md").read_text()


def test_report_plays_the_table_now_for_a_run_that_recorded_no_such_games(here):
    run = here / "run"
    summary = json.loads((run / "summary.json").read_text())
    for facts in summary["per_trial"]:
        for key in [k for k in facts if k.startswith(("champion_random", "champion_mcts", "champion_games"))]:
            del facts[key]
    (run / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    printed = ok(["report", "run", "--game", REF], here)
    first = (run / "analysis.json").read_bytes()
    result = json.loads(first)
    assert (result["source"], result["openings"], result["random_plies"]) == ("played", 50, 2)
    assert "50 random openings of up to 2 plies, each from both seats, played for this report" in printed
    assert all(r["games"] == 100 == r["win"] + r["draw"] + r["loss"] and -1 <= r["lo"] <= r["hi"] <= 1
               for r in analysis_rows(run))
    ok(["report", "run", "--game", REF], here)
    assert (run / "analysis.json").read_bytes() == first  # the same games again


@pytest.fixture(scope="module")
def breakthrough(tmp_path_factory) -> Path:
    """A tiny Breakthrough 6x6 run (in its folder's ``run``); tests work on copies of the folder."""
    folder = tmp_path_factory.mktemp("breakthrough")
    evolved(folder, "bt", BREAKTHROUGH, 1)
    return folder


def test_an_openspiel_run_goes_the_whole_journey_without_naming_its_game(breakthrough, tmp_path, monkeypatch):
    """An OpenSpiel game is no user code: each command reads it off the files (run here, in
    this process, as nothing of a user's file is cached)."""
    from test_fuzz_cli import run_in_process

    def ok(argv, cwd):
        code, out, err = run_in_process(argv)
        assert code == 0 and err == "", (argv, err)
        return out

    tmp_path = Path(shutil.copytree(breakthrough, tmp_path / "bt"))
    run = tmp_path / "run"
    monkeypatch.chdir(tmp_path)
    assert "game_sha256" not in json.loads((run / "summary.json").read_text())  # not a file of the user's own
    assert ok(["export", "run", "--out", "c.json"], tmp_path) == "c.json: champion of trial 0 of run\n"
    analyzed = json.loads(ok(["analyze", "c.json", "--openings", "1", "--opponent", "mcts:sims=10", "--json"], tmp_path))
    assert analyzed["game"] == "openspiel:breakthrough(columns=6,rows=6)" and analyzed["opponents"][0]["games"] == 2
    assert ok(["report", "run"], tmp_path).startswith("analysis: run/analysis.md\n")
    result = json.loads((run / "analysis.json").read_text())
    assert (result["game"], result["title"], result["source"]) == ("openspiel:breakthrough(columns=6,rows=6)",
                                                                   "Breakthrough (columns=6, rows=6)", "recorded")
    assert [r["opponent"] for r in result["champions"][0]["opponents"]] == ["random", "mcts:sims=5"]
    assert all(-1 <= r["lo"] <= r["score"] <= r["hi"] <= 1 for r in analysis_rows(run))
    ok(["plot", "run", "--out", "p.png", "--game", BREAKTHROUGH], tmp_path)
    assert ok(["tournament", "run", "random", "--games", "2", "--json"], tmp_path).startswith("{")
    assert '"a": "run"' in ok(["match", "run", "c.json", "--games", "2", "--json"], tmp_path)


def test_a_game_file_is_recorded_by_the_sha256_of_its_bytes_whatever_its_line_ends(tmp_path):
    from evoplay.games import game_digest, resolve_game

    path = tmp_path / "crlf_hexapawn.py"
    path.write_bytes(HEXAPAWN.read_bytes().replace(b"\n", b"\r\n"))
    game = resolve_game(f"{path}:Hexapawn")
    assert game_digest(game) == hashlib.sha256(path.read_bytes()).hexdigest()
    assert game_digest(resolve_game("tictactoe")) is None


def test_every_command_that_reads_players_or_runs_takes_game_in_the_same_words():
    from evoplay.cli import cli
    from evoplay.cli.checks import GAME_WORDS

    for name in ("export", "analyze", "report", "plot", "match", "tournament", "game", "serve", "resign"):
        options = [p for p in cli.commands[name].params if "--game" in getattr(p, "opts", ())]
        assert len(options) == 1 and options[0].help.startswith(GAME_WORDS + " [default: "), name


def play_at_the_terminal(argv, cwd) -> str:
    """``evoplay game`` played to its end by a person who always answers the prompt's example
    move (``Your move (White), e.g. a1-a2:``, a legal move); the whole transcript."""
    import re
    import select

    proc = subprocess.Popen([EVOPLAY, *argv], cwd=cwd, env=ENV, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    seen, answered = b"", 0
    try:
        while True:
            ready, _, _ = select.select([proc.stdout], [], [], 120)
            assert ready, seen.decode()[-2000:]
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                break
            seen += chunk
            asked = re.findall(rb"e\.g\. (\S+): ", seen)
            if len(asked) > answered:
                proc.stdin.write(asked[-1] + b"\n")
                proc.stdin.flush()
                answered = len(asked)
        assert proc.wait(timeout=60) == 0, proc.stderr.read().decode()
        assert proc.stderr.read() == b""
    finally:
        proc.kill()
    return seen.decode()


def test_a_game_at_the_terminal_against_a_moved_runs_champion_and_a_breakthrough_champion(here, breakthrough):
    text = play_at_the_terminal(["game", "--vs", "run/champion.json", "--game", REF, "--first", "human", "--seed", "3"], here)
    assert text.startswith("You play White (W) against run/champion.json.")  # which pieces are yours
    assert "Your move (White (W)), e.g. " in text
    assert text.rstrip().endswith(("You win!", "run/champion.json wins.")) and "run/champion.json plays " in text
    text = play_at_the_terminal(["game", "--vs", "run", "--first", "ai", "--seed", "3"], breakthrough)
    assert "against run." in text.splitlines()[0] and text.rstrip().endswith(("You win!", "run wins."))
    assert "run plays " in text


def test_a_game_file_renamed_with_the_run_stands_for_it_by_its_bytes(here):
    """After renaming the file, `export ... --game NEW` asked to "name the game first, with --game"."""
    (here / "hexapawn.py").rename(here / "pawns.py")
    assert ok(["export", "run", "--out", "c.json", "--game", "pawns.py:Hexapawn"], here) == "c.json: champion of trial 0 of run\n"
    assert '"a": "run"' in ok(["match", "run", "random", "--game", "pawns.py:Hexapawn", "--games", "2", "--json"], here)
