"""One test per defect that a fuzz of the newer surfaces (checkers, studies, checkpoints,
the web API of every game) found: each refusal is one line ``evoplay: error: ...`` with
exit code 2 (4xx on the web), before any work, and a command that refuses changes no file.
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess

import pytest

from evoplay.games import resolve_game

from support.cli import EVOPLAY, ROOT, env, problem, refused  # noqa: F401 (env: a fixture)
from support.nowork import EVOPLAY_WITHOUT_RAY, opened, run_reading
from test_fuzz_cli import checkers_run, tree_digest


# ---------------------------------------------------------------- 1. a network file that overflows


def test_a_checkers_file_of_huge_weights_is_refused_by_match_and_resign(env):
    from test_web_served_players import network_file

    path = network_file(env.fresh(".json"), "checkers", 1e308)
    refused(["match", "--game", "checkers", str(path), "random", "--games", "2"], "beyond the +-1e+100")
    doc = json.loads(path.read_text())
    doc["sha256"] = "0" * 64
    path.write_text(json.dumps(doc))
    before = path.read_bytes()
    refused(["resign", str(path)], "beyond the +-1e+100")
    assert path.read_bytes() == before


# ---------------------------------------------------------------- 2. checks before the first write


@pytest.mark.parametrize("damage", ["dangling link", "link to /dev/zero", "folder", "champion folder", "logbook folder"])
def test_a_resume_refuses_before_it_writes_anything(env, damage):
    run = checkers_run(env, env.fresh("-ckrun"), generations=3)
    ckpt = run / "checkpoints" / "trial_00.json"
    if damage == "dangling link":
        ckpt.unlink()
        ckpt.symlink_to(run / "nowhere.json")
    elif damage == "link to /dev/zero":
        ckpt.unlink()
        ckpt.symlink_to("/dev/zero")
    elif damage == "folder":
        ckpt.unlink()
        ckpt.mkdir()
    elif damage == "champion folder":
        (run / "trials" / "trial_00" / "champion.json").mkdir()
    else:
        log = run / "trials" / "trial_00" / "logbook.csv"
        log.rename(run / "saved.csv")
        log.mkdir()
    before = tree_digest(run)
    # A process whose ray.init ends it (exit 97): refused only after starting the work (Ray, trials) fails here.
    proc = subprocess.run([*EVOPLAY_WITHOUT_RAY, "evolve", str(run / "config.toml"), "--out", str(run), "--resume", "-q"],
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert problem(proc.returncode, proc.stdout, proc.stderr) is None, proc.stderr[-2000:]
    assert tree_digest(run) == before, "the refused resume changed the run directory"


# ---------------------------------------------------------------- 3. a player of the other game


@pytest.mark.parametrize("where", ["match", "tournament", "analyze", "train", "config"])
@pytest.mark.parametrize("what", ["results/blondie24/champion.json", "results/blondie24"])
def test_a_checkers_player_where_a_tictactoe_player_goes_is_one_line(env, where, what):
    """Where the other player or the command is tic-tac-toe's (a checkers file alone in
    match, tournament or game plays checkers)."""
    spec, ttt = str(ROOT / what), str(ROOT / "results/fogel1993")
    config = env.fresh(".toml")
    config.write_text(f'name = "x"\n[evaluation]\nopponent = "{spec}"\n')
    argv = {"match": ["match", ttt, spec, "--games", "5"], "tournament": ["tournament", ttt, spec, "--games", "5"],
            "analyze": ["analyze", "random", "--opponent", spec],
            "train": ["train", "ga-value-net", "--opponent", spec, "--generations", "1"],
            "config": ["evolve", str(config), "--out", str(env.fresh("-run"))]}[where]
    refused(argv, "checkers")


def test_a_tictactoe_player_where_a_checkers_player_goes_is_one_line(env):
    for spec in ("results/fogel1993", "results/blondie24-ttt-d1/champion.json"):
        refused(["match", "--game", "checkers", str(ROOT / spec), "random"], "tictactoe")
        refused(["match", str(ROOT / "results/blondie24"), str(ROOT / spec), "--games", "2"], "tictactoe")


# ---------------------------------------------------------------- 4. an output under a file


def test_study_refuses_an_out_below_a_file(env, tmp_path):
    (tmp_path / "tiny.toml").write_text((ROOT / "configs/quick.toml").read_text())
    (tmp_path / "s.toml").write_text('name = "s"\nbase = "tiny.toml"\n[[variants]]\nname = "a"\n')
    refused(["study", str(tmp_path / "s.toml"), "--out", str(env.regular / "x")], "is not a directory")
    refused(["evolve", str(tmp_path / "tiny.toml"), "--out", str(env.regular / "x")], "Not a directory")
    assert env.regular.read_text() == "a file, not a folder\n"


# ---------------------------------------------------------------- 5. a malformed header


@pytest.mark.parametrize("length", ["abc", "-5", "1.5", "0x10", "\xb9\xb2", "9" * 40, "12 3"])
def test_a_malformed_content_length_is_a_400(length):
    from support.web import serving

    with serving() as url:
        host, port = url.removeprefix("http://").split(":")
        conn = http.client.HTTPConnection(host, int(port), timeout=30)
        conn.putrequest("POST", "/api/games/checkers/state")
        conn.putheader("Content-Length", length)
        conn.putheader("Content-Type", "application/json")
        conn.endheaders(b"{}")
        r = conn.getresponse()
        body = json.loads(r.read())
        conn.close()
        assert r.status == 400 and "Content-Length" in body["error"], (r.status, body)


# ---------------------------------------------------------------- 6. bounded reads of regular files


def test_a_huge_sparse_study_file_is_refused_before_it_is_read(env, monkeypatch):
    path = env.fresh(".toml")
    with open(path, "wb") as f:
        f.truncate(3 << 30)
    seen = opened(monkeypatch)
    refused(["study", str(path), "--out", str(env.fresh("-study"))], "more than the")
    assert os.path.realpath(path) not in seen, "the study file was opened"


@pytest.mark.parametrize("target", ["/dev/zero", "fifo", "folder"])
def test_special_files_are_refused_as_study_config_and_checkpoint(env, monkeypatch, target):
    def special():
        link = env.fresh(".toml")
        if target == "fifo":
            os.mkfifo(link)
        elif target == "folder":
            link.mkdir()
        else:
            link.symlink_to(target)
        return link

    seen = opened(monkeypatch)
    study, config = special(), special()
    refused(["study", str(study), "--out", str(env.fresh("-study"))])
    refused(["evolve", str(config), "--out", str(env.fresh("-run"))])
    assert not {os.path.realpath(study), os.path.realpath(config)} & set(seen), "a special file was opened"


# ---------------------------------------------------------------- 7. junk at the checkers prompt


def test_the_checkers_prompt_gives_up_after_max_bad_answers():
    from evoplay.arena.players import MAX_BAD_ANSWERS, GaveUp, TerminalHuman

    asked = []
    human = TerminalHuman(resolve_game("checkers"), read=lambda prompt: asked.append(prompt) or "", write=lambda s: None)
    with pytest.raises(GaveUp, match="20 answers in a row"):
        human.choose(resolve_game("checkers").initial(), None)
    assert len(asked) == MAX_BAD_ANSWERS == 20


def test_a_million_empty_lines_to_the_checkers_game_end_it_with_one_line(tmp_path):
    lines = b"\n" * 1_000_000
    proc, read = run_reading([str(EVOPLAY), "game", "--game", "checkers"], lines, timeout=120, cwd=tmp_path)
    stderr = proc.stderr.decode()
    assert proc.returncode == 2 and stderr.count("\n") == 1 and "answers in a row" in stderr, stderr[-500:]
    # It gave up after 20 answers: 20 prompts, and its input not read through (one buffer of it at most).
    assert proc.stdout.decode().count("is not a move") == 20, proc.stdout[-500:]
    assert read <= 1 << 16 < len(lines), f"read {read} bytes of its input"
