"""One test per defect of the command line found by trying it as a new user would.

Each refusal is one line ``evoplay: error: ...`` with exit code 2, before any work.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from evoplay.cli import runfiles
from evoplay.cli.checks import check_output
from evoplay.errors import EvoplayError, PlayerFileError, SpecError
from evoplay.framework import plotting
from evoplay.tictactoe import engine
from evoplay.tictactoe import board
from evoplay.tictactoe.players import TablePlayer, make_player, uniform_table
from evoplay.files.playerfile import MAX_FILE_BYTES, load_player

from support.cli import EVOPLAY, ROOT, env, problem, refused, run_in_process  # noqa: F401 (env: a fixture)
from support.nowork import never_called

PYTHON = sys.executable


# ---------------------------------------------------------------- outputs checked before the work


def test_train_refuses_an_unwritable_out_before_training(env, monkeypatch):
    from evoplay.published.baselines import trainer

    trained = {kind: never_called(monkeypatch, trainer(kind), "train") for kind in ("value-net", "outcome-net")}
    refused(["train", "value-net", "--out", str(env.regular / "v.json")], "not a directory")
    refused(["train", "outcome-net", "--out", "/proc/no-such-place/v.json"], "cannot write")
    assert trained == {"value-net": [], "outcome-net": []}, "refused only after training"


def test_train_refuses_a_full_disk_before_training(env, monkeypatch):
    real = os.statvfs

    def full(path):
        s = real(path)
        return os.statvfs_result((s.f_bsize, s.f_frsize, s.f_blocks, 0, 0, s.f_files, s.f_ffree, s.f_favail,
                                  s.f_flag, s.f_namemax))

    monkeypatch.setattr(os, "statvfs", full)
    err = refused(["train", "value-net", "--games", "100", "--out", str(env.fresh(".json"))], "bytes free")
    assert "value-net" not in err.split("error:")[0]


def test_a_write_that_fails_midway_is_one_line(env, monkeypatch):
    import evoplay.files.atomic as atomic

    def enospc(path, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic, "write_bytes", enospc)
    monkeypatch.setattr(plotting, "write_bytes", enospc)
    refused(["train", "value-net", "--games", "50", "--no-progress", "--out", str(env.fresh(".json"))],
            "no space left")
    with pytest.raises(EvoplayError, match="no space left"):
        runfiles.plot([env.run], env.fresh(".png"))


def test_out_devices_and_folders_are_refused(env):
    for target in ("/dev/null", "/dev/full"):  # checked only; nothing is written to them
        with pytest.raises(EvoplayError, match="not a regular file"):
            check_output(Path(target))
    link = env.fresh(".json")
    link.symlink_to("/dev/null")
    refused(["train", "value-net", "--out", str(link)], "not a regular file")
    refused(["train", "value-net", "--out", "/dev/null"], "must end in .json")
    refused(["train", "value-net", "--out", str(env.root)], "is a directory")
    assert Path("/dev/null").is_char_device()


def test_plot_and_export_refuse_bad_outs_in_the_cli(env):
    link = env.fresh(".png")
    link.symlink_to("/dev/null")
    refused(["plot", str(env.run), "--out", str(link)], "not a regular file")
    refused(["plot", str(env.run), "--out", str(env.regular / "c.png")], "not a directory")
    refused(["export", str(env.run), "--out", str(env.regular / "c.json")], "not a directory")
    refused(["export", str(env.run), "--trial", "9" * 5000], "5000 characters")


# ---------------------------------------------------------------- damaged run directories


def test_damaged_run_directories_name_the_file_and_the_problem(env):
    run = env.fresh("-run")
    import shutil

    shutil.copytree(env.run, run)
    (run / "summary.json").write_text('{"name": "tiny", "seed": ')
    err = refused(["report", str(run)], "summary.json", "not valid JSON")
    with pytest.raises(EvoplayError, match="summary.json is not valid JSON"):
        runfiles.plot([run], env.fresh(".png"))
    shutil.rmtree(run)
    shutil.copytree(env.run, run)
    log = run / "trials" / "trial_01" / "logbook.csv"
    log.write_text(log.read_text().replace(",-44,", ",oops,", 1))
    with pytest.raises(EvoplayError, match=r"trial_01/logbook.csv line 2: 'max' is not a number \('oops'\)"):
        runfiles.plot([run], env.fresh(".png"))
    (run / "trials" / "trial_01" / "champion.json").write_text("{")
    refused(["report", str(run)], "trial_01/champion.json", "not valid JSON")
    with pytest.raises(EvoplayError, match="champion.json is not valid JSON"):
        runfiles.export(run, None, env.fresh(".json"))
    assert err.count("\n") == 1


# ---------------------------------------------------------------- numbers


def test_huge_integers_give_a_short_line(env):
    err = refused(["match", "logic", "random", "--games", "9" * 5000], "--games", "5000 characters")
    assert len(err) < 200
    refused(["match", "logic:eps=" + "9" * 5000, "random"], "5000 characters")
    doc = json.loads((ROOT / "results/baselines/ga-value-net.json").read_text())
    path = env.fresh(".json")
    path.write_text(json.dumps(doc).replace('"version": 1', '"version": ' + "9" * 5000))
    refused(["analyze", str(path)], str(path), "holds a number of 5000 characters (at most 100 are read)")


def test_games_are_bounded_with_a_message(env):
    refused(["match", "logic", "random", "--games", "10000000000000"], "--games", "1..10,000,000,000")
    refused(["tournament", "logic", "--games", "10000000001"], "1..10,000,000,000")
    with pytest.raises(EvoplayError, match="between 1 and"):
        from evoplay.tictactoe.tournament import pair_result

        pair_result(make_player("logic"), make_player("random"), 10**11, np.random.default_rng(0))


def test_softmax_temperature_out_of_range_is_refused(env):
    refused(["analyze", "softmax:t=1e-320"], "softmax t must be in [0.001, 1000]")
    refused(["match", "softmax:model_t=1e-300", "logic"], "model_t must be in")
    for t in ("0.001", "1000"):  # the ends of the range give real distributions
        table = make_player(f"softmax:t={t},model_t={t}").table
        assert np.isfinite(table).all()
        ongoing = board.OUTCOME == board.ONGOING
        assert np.allclose(table[ongoing].sum(1), 1.0)


def test_a_table_with_nan_is_refused():
    table = uniform_table(board.LEGAL)
    table[0, 0] = np.nan
    with pytest.raises(SpecError, match="not finite"):
        TablePlayer("broken", table)


def test_explore_nan_is_refused(env):
    for value in ("nan", "inf", "-0.1", "1.5"):
        refused(["train", "value-net", "--explore", value], "--explore")


# ---------------------------------------------------------------- memory


def test_match_memory_is_flat_in_games():
    x, o = make_player("minimax"), make_player("logic")
    tracemalloc.start()
    engine.match(x, o, 1_000_000, np.random.default_rng(0))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    # All at once, the uniforms alone took 1e6 x 9 x 8 bytes = 72 MB.
    assert peak < 30e6, f"peak {peak / 1e6:.1f} MB"


@pytest.mark.parametrize("batch", [1, 7, 1000, 1 << 16])
def test_batched_matches_equal_one_big_draw(monkeypatch, batch):
    """Batches draw the uniforms in the same order: results per seed are unchanged."""
    x, o = make_player("logic:eps=0.3"), make_player("random")
    games = 5003
    whole = engine.tally(engine.play(x, o, np.random.default_rng(42).random((games, 9))))
    monkeypatch.setattr(engine, "BATCH", batch)
    seen = []
    assert engine.match(x, o, games, np.random.default_rng(42), seen.append) == whole
    assert sum(seen) == games and max(seen) <= batch


def test_big_player_files_are_refused_before_reading(tmp_path):
    path = tmp_path / "big.json"
    with open(path, "wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)  # sparse: nothing on disk
    tracemalloc.start()
    with pytest.raises(PlayerFileError, match="more than the"):
        load_player(path)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 1e6


@pytest.mark.parametrize("version", [True, 1.0, "1"])
def test_a_player_file_version_must_be_the_integer_1(tmp_path, version):
    """Found by the long fuzz run: JSON true passed for version 1 (True == 1 in Python)."""
    doc = json.loads((ROOT / "results/baselines/ga-value-net.json").read_text())
    doc["version"] = version
    path = tmp_path / "v.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(PlayerFileError, match="unsupported version"):
        load_player(path)


def test_special_player_files_are_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(PlayerFileError, match="not a regular file"):
        load_player(fifo)
    with pytest.raises(PlayerFileError, match="is a directory"):
        load_player(tmp_path)


# ---------------------------------------------------------------- commands


def test_report_and_baselines_are_subcommands(env):
    code, out, err = run_in_process(["report", str(env.run)])
    assert code == 0, err
    assert "analysis: " in out and (env.run / "analysis.md").is_file()
    proc = subprocess.run([PYTHON, "-m", "evoplay", "report", str(env.run)], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout == out
    code, out, err = run_in_process(["baselines", "--help"])
    assert code == 0 and "--value-games" in out
    refused(["baselines", "--out", str(env.regular)], "is a file")
    proc = subprocess.run([PYTHON, "-m", "evoplay", "baselines", "--out", str(env.regular)], capture_output=True,
                          text=True, timeout=120)
    assert problem(proc.returncode, proc.stdout, proc.stderr) is None, proc.stderr


def test_resign_an_edited_player_file(env):
    path = env.fresh(".json")
    doc = json.loads((ROOT / "results/baselines/ga-value-net.json").read_text())
    doc["weights"]["b0"][0] += 0.5
    path.write_text(json.dumps(doc))
    refused(["analyze", str(path)], "was modified", f"evoplay resign {path}")
    code, out, err = run_in_process(["resign", str(path)])
    assert code == 0 and "re-signed" in out, err
    code, out, _ = run_in_process(["analyze", str(path), "--json"])
    assert code == 0 and json.loads(out)["player"] == str(path)
    code, out, _ = run_in_process(["resign", str(path)])
    assert code == 0 and "unchanged" in out
    doc = json.loads(path.read_text())
    doc["weights"]["b0"] = doc["weights"]["b0"][:-1]  # a real defect: resign refuses it
    path.write_text(json.dumps(doc))
    refused(["resign", str(path)], "b0")


def test_plot_writes_the_asked_format_only(env):
    for suffix, magic in ((".pdf", b"%PDF"), (".svg", b"<?xml"), (".png", b"\x89PNG")):
        out = env.fresh(suffix)
        assert runfiles.plot([env.run], out) == [out]
        assert out.read_bytes().startswith(magic)
        assert not out.with_suffix(".png" if suffix != ".png" else ".svg").exists()
    with pytest.raises(EvoplayError, match="must end in .png, .pdf, .svg"):
        runfiles.plot([env.run], env.fresh(".gif"))


def test_plot_never_overwrites_an_input_run_by_default(env, monkeypatch):
    before = {p: p.read_bytes() for p in env.run.rglob("*") if p.is_file()}
    monkeypatch.chdir(env.run)
    with pytest.raises(EvoplayError, match="would replace a file of the run"):
        runfiles.plot([env.run, env.run])
    monkeypatch.chdir(env.root)
    assert runfiles.plot([env.run, env.run]) == [Path("curve.png")]
    assert {p: p.read_bytes() for p in env.run.rglob("*") if p.is_file()} == before


def test_plot_labels_runs_by_name_and_seed(env):
    import shutil

    other = env.fresh("-run")
    shutil.copytree(env.run, other)
    summary = json.loads((other / "summary.json").read_text())
    summary["seed"] = 8
    (other / "summary.json").write_text(json.dumps(summary))
    twin = env.fresh("-run")
    shutil.copytree(env.run, twin)
    out = env.fresh(".svg")
    runfiles.plot([env.run, other, twin], out)
    svg = out.read_text()
    assert "tiny, seed 8 (2 trials): mean" in svg
    assert f"tiny, seed 7 (2 trials) [{env.run}]: mean" in svg
    assert f"tiny, seed 7 (2 trials) [{twin}]: mean" in svg


def test_the_band_is_drawn_over_the_trial_lines():
    curves = np.random.default_rng(0).normal(size=(20, 50)).cumsum(1)
    fig = plotting.curve_figure([("run", curves)])
    ax = fig.axes[0]
    band = ax.collections[0]
    trial_lines = [line for line in ax.lines if line.get_linewidth() < 0.5]
    assert len(trial_lines) == 20
    assert band.get_zorder() > max(line.get_zorder() for line in trial_lines)
    assert band.get_alpha() >= 0.3 > max(line.get_alpha() for line in trial_lines)


def test_svg_and_pdf_are_reproducible(env):
    for suffix in (".svg", ".pdf", ".png"):
        a, b = env.fresh(suffix), env.fresh(suffix)
        runfiles.plot([env.run], a)
        runfiles.plot([env.run], b)
        assert a.read_bytes() == b.read_bytes(), suffix
    first = plotting.plot_runs([env.run], env.root / "one" / "curve.png")
    second = plotting.plot_runs([env.run], env.root / "two" / "curve.png")
    assert [p.suffix for p in first] == [".png", ".svg"]  # the runner's pair
    assert all(p.read_bytes() == q.read_bytes() for p, q in zip(first, second))


def test_bench_announces_its_stages(monkeypatch):
    from evoplay.recipes.fogel import bench

    stages = []
    monkeypatch.setattr(bench, "warm_trial", lambda cfg, n: stages.append("warm") or pytest.skip("stages only"))
    with pytest.raises(pytest.skip.Exception):
        bench.engine_figures(quick=True, progress=stages.append)
    assert stages[0].startswith("warming") and stages[1] == "warm"


def test_long_matches_show_progress(env, monkeypatch):
    import evoplay.cli.progress as progress

    monkeypatch.setattr(progress, "LOG_DELAY", 0.0)  # in a log (not a terminal) as soon as there is work
    monkeypatch.setattr(progress, "LOG_INTERVAL", 0.0)
    code, out, err = run_in_process(["match", "logic", "random", "--games", "3000"])
    assert code == 0 and "game" in err and "6.00k" in err
    code, out, err = run_in_process(["match", "random", "random", "--game", "checkers", "--games", "3"])
    assert code == 0 and "6/6" in err  # every game, not all of them at the end
    code, out, err = run_in_process(["analyze", "random", "--game", "checkers", "--opponent", "random", "--openings", "2"])
    assert code == 0 and "4/4" in err


def test_a_long_move_shows_its_clock_running(env, monkeypatch):
    """A move that thinks long (a deep search, many simulations) left nothing on the screen."""
    import evoplay.cli.progress as progress

    monkeypatch.setattr(progress, "LOG_DELAY", 0.0)
    monkeypatch.setattr(progress, "LOG_INTERVAL", 0.0)
    monkeypatch.setattr(progress, "HEARTBEAT", 0.05)
    from evoplay.arena.players import RandomPlayer

    def slow(self, state, rng, choose=RandomPlayer.choose):
        time.sleep(0.2)
        return choose(self, state, rng)

    monkeypatch.setattr(RandomPlayer, "choose", slow)
    hexapawn = f"{ROOT / 'examples' / 'games' / 'hexapawn.py'}:Hexapawn"  # at most 12 plies
    code, out, err = run_in_process(["match", "random", "random", "--game", hexapawn, "--games", "1", "--seats", "a-first"])
    assert code == 0 and err.count("0/1") >= 5, err  # redrawn while the first game's moves think


def test_plot_and_export_in_the_cli(env):
    code, out, err = run_in_process(["plot", str(env.run), str(env.run), "--out", str(env.fresh(".pdf"))])
    assert code == 0 and out.strip().endswith(".pdf"), err
    code, out, err = run_in_process(["export", str(env.run), "--out", str(env.fresh(".json"))])
    assert code == 0 and "champion of trial 1" in out, err


def test_bare_evoplay_prints_its_help_on_many_lines():
    proc = subprocess.run([str(EVOPLAY)], capture_output=True, text=True, timeout=60)
    assert "Commands:" in proc.stdout and proc.stdout.count("\n") > 10
    assert "Traceback" not in proc.stderr


def test_python_m_evoplay_from_the_checkouts_parent(tmp_path):
    """From the folder holding a checkout named evoplay, that folder shadows the package."""
    (tmp_path / "evoplay").symlink_to(ROOT)
    proc = subprocess.run([PYTHON, "-m", "evoplay", "train", "value-net", "--games", "20", "--out",
                           str(tmp_path / "v.json")], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]


# ---------------------------------------------------------------- paths no file system can hold

NUL = "a\0b"
NUL_CONFIGS = {
    "opponent.toml": '[evaluation]\nopponent = "a\\u0000.json"\n',
    "mix.toml": '[evaluation]\nopponent = [{player = "x\\u0000/y.json", weight = 1}]\n',
    "recipe.toml": 'recipe = "a\\u0000.py:Recipe"\n',
    "ga.toml": 'recipe = "ga-value-net"\n[ga]\nopponent = "a\\u0000.json"\n',
    "study.toml": 'name = "s"\nbase = "a\\u0000.toml"\n[[variants]]\nname = "v"\n',
}


@pytest.mark.parametrize("argv", [
    ["match", NUL + ".json", "logic"], ["match", "logic", "dir/" + NUL], ["match", "a\0.py:Player", "logic"],
    ["analyze", NUL + ".json"], ["analyze", "logic", "--opponent", NUL + ".json"],
    ["tournament", "logic", NUL + ".json"], ["game", "--vs", NUL + ".json"],
    ["evolve", NUL], ["evolve", "opponent.toml"], ["evolve", "mix.toml"], ["evolve", "recipe.toml"],
    ["evolve", "ga.toml"], ["evolve", "quick", "--out", NUL],
    ["plot", NUL], ["plot", "RUN", "--out", NUL + ".png"], ["export", NUL], ["export", "RUN", "--out", NUL + ".json"],
    ["report", NUL], ["resign", NUL], ["study", NUL], ["study", "study.toml"], ["study", "ablation", "--out", NUL],
    ["serve", NUL, "--port", "0"], ["train", "value-net", "--out", NUL + ".json"], ["figures", "gibson", "--out", NUL],
    ["baselines", "--out", NUL],
], ids=lambda argv: " ".join(argv).replace("\0", "<NUL>"))
def test_a_nul_byte_in_any_path_is_one_line(env, argv):
    for name, text in NUL_CONFIGS.items():
        (env.root / name).write_text(text)
    argv = [str(env.run) if a == "RUN" else a for a in argv]
    refused(argv, "NUL byte")


def test_the_path_check_refuses_what_no_file_system_holds():
    from evoplay.files.paths import check_path

    assert check_path("results/fogel1993/champion.json") == Path("results/fogel1993/champion.json")
    for text, words in (("a\0.json", "NUL byte"), ("a\udc80\ud800.json", "cannot write"),
                        ("x" * 256 + ".json", "longer than 255"), ("/a" * 2048, "paths stop at 4095")):
        with pytest.raises(SpecError, match=words):
            check_path(text, "player file", SpecError)


# ---------------------------------------------------------------- huge weights: no numpy warning on a terminal

HUGE_SOURCES = {"fogel-net": "results/fogel1993/champion.json", "value-net": "results/baselines/value-net.json",
                "ga-value-net": "results/baselines/ga-value-net.json", "outcome-net": "results/baselines/outcome-net.json"}


def huge_weights(kind: str, how: str, path: Path) -> Path:
    """The committed ``kind`` player with every weight at the largest magnitude a player file may hold
    (``MAX_WEIGHT``, 1e100: beyond it a file is refused), +, - or +- at random, signed again. Sums
    of such products still overflow (an outcome-net's four layers reach 1e400)."""
    from evoplay.files.playerfile import MAX_WEIGHT, resign

    doc = json.loads((ROOT / HUGE_SOURCES[kind]).read_text())
    rng = np.random.default_rng(0)
    sign = {"+": lambda shape: np.ones(shape), "-": lambda shape: -np.ones(shape),
            "+-": lambda shape: np.where(rng.random(shape) < 0.5, -1.0, 1.0)}[how]
    doc["weights"] = {k: (MAX_WEIGHT * sign(np.shape(v))).tolist() for k, v in doc["weights"].items()}
    path.write_text(json.dumps(doc))
    resign(path)
    return path


@pytest.mark.parametrize("kind", sorted(HUGE_SOURCES))
def test_huge_weights_play_without_numpy_warnings(tmp_path, kind):
    files = [str(huge_weights(kind, how, tmp_path / f"{how}.json")) for how in ("+", "-", "+-")]
    script = ("import sys, warnings\nwarnings.simplefilter('error')\nfrom evoplay.cli import main\n"
              "main(['tournament', *sys.argv[1:], 'logic', '--games', '50', '--json'])\n")
    proc = subprocess.run([PYTHON, "-c", script, *files], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr[-2000:]
    assert len(json.loads(proc.stdout)["rows"]) == 16


def test_a_softmax_of_infinite_logits_is_its_limit_and_finite_ones_are_unchanged():
    from evoplay.networks.arithmetic import exp_array
    from evoplay.tictactoe.mlp import softmax

    with np.errstate(all="raise"):
        assert softmax(np.array([[np.inf, 1.0, np.inf], [1e308, -1e308, 0.0], [-np.inf, -np.inf, -np.inf]])).tolist() == [
            [0.5, 0.0, 0.5], [1.0, 0.0, 0.0], [1 / 3, 1 / 3, 1 / 3]]
    logits = np.random.default_rng(1).normal(0, 30, (500, 3))
    z = logits - logits.max(-1, keepdims=True)
    e = exp_array(z)
    assert np.array_equal(softmax(logits), e / e.sum(-1, keepdims=True))  # the old formula, bit for bit


def test_a_network_whose_sums_are_not_numbers_is_refused():
    from evoplay.tictactoe.trained.common import greedy_player

    with pytest.raises(PlayerFileError, match="is not a number"):
        greedy_player("nan-net", lambda kids: np.where(kids % 7 == 0, np.nan, 0.5))


# ---------------------------------------------------------------- a run directory as a player spec


def test_a_run_directory_is_a_player_spec_for_its_best_champion(env):
    code, by_dir, err = run_in_process(["match", str(ROOT / "results/fogel1993"), "logic", "--exact", "--json"])
    assert code == 0, err
    code, by_file, _ = run_in_process(["match", str(ROOT / "results/fogel1993/champion.json"), "logic", "--exact", "--json"])
    assert json.loads(by_dir)["results"] == json.loads(by_file)["results"]
    assert json.loads(by_dir)["a"] == str(ROOT / "results/fogel1993")
    (env.root / "unfinished").mkdir()
    refused(["analyze", "./unfinished"], "is a directory without a champion.json")
    refused(["match", "unfinished", "logic"], "a run directory is named by a path: ./unfinished")


def test_a_config_names_a_run_directory_as_its_opponent(tmp_path):
    from evoplay.framework import config
    from evoplay.recipes.fogel.schema import player_files

    (tmp_path / "vs-run.toml").write_text(f'[evaluation]\nopponent = "{ROOT / "results/fogel1993"}"\n')
    cfg = config.load(tmp_path / "vs-run.toml")
    docs = player_files(cfg)
    assert list(docs) == [str(ROOT / "results/fogel1993")]
    assert docs[str(ROOT / "results/fogel1993")]["sha256"] == json.loads((ROOT / "results/fogel1993/champion.json").read_text())["sha256"]


@pytest.mark.parametrize("argv", [["games"], ["players", "--game", "tictactoe"]])
def test_a_reader_that_closes_the_pipe_early_ends_the_command_quietly(argv):
    # `evoplay games | head -n 1`: the reader's end is closed before the command writes a line.
    proc = subprocess.Popen([str(EVOPLAY), *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0
    assert err == b""


def _signed_copy(source, dest, edit):
    """``source``'s player document with ``edit(doc)`` applied and its sha256 made again."""
    from evoplay.files import playerfile as player_files

    doc = json.loads(Path(source).read_text())
    edit(doc)
    doc["sha256"] = player_files._digest(doc["kind"], doc["architecture"], doc["weights"])
    Path(dest).write_text(json.dumps(doc))
    return dest


FOGEL_CHAMPION = ROOT / "results" / "fogel1993" / "champion.json"
CHECKERS_CHAMPION = ROOT / "results" / "blondie24" / "champion.json"


@pytest.mark.parametrize("source, edit, message", [
    (FOGEL_CHAMPION, lambda d: d["weights"]["output_bias"].__setitem__(0, True), "'output_bias' are not an array of numbers"),
    (FOGEL_CHAMPION, lambda d: d["weights"]["hidden_bias"].__setitem__(0, 1e308), "'hidden_bias': 1e+308 is beyond the +-1e+100"),
    (FOGEL_CHAMPION, lambda d: d["weights"].__setitem__("spare", [1.0, 2.0]), "unexpected weights 'spare'"),
    (CHECKERS_CHAMPION, lambda d: d["weights"]["king"].__setitem__(0, False), "'king' are not an array of numbers"),
    (CHECKERS_CHAMPION, lambda d: d["weights"].__setitem__("genome2", [0.5]), "unexpected weights 'genome2'"),
])
def test_player_files_refuse_weights_that_are_no_numbers_huge_or_extra(env, source, edit, message):
    path = _signed_copy(source, env.root / "edited.json", edit)
    refused(["resign", str(path)], message)
    refused(["match", str(path), "random", "--games", "1"] + (["--game", "checkers"] if source == CHECKERS_CHAMPION else []),
            message)


def test_analyze_refuses_a_player_of_another_game_for_that_not_for_its_openings(env):
    refused(["analyze", str(ROOT / "results" / "blondie24"), "--game", "tictactoe", "--openings", "1"],
            "plays checkers, not tic-tac-toe")


def test_end_of_input_at_the_terminal_ends_a_users_game_cleanly(env):
    """Ctrl-D at `evoplay game` on a user's game ended with exit 2 and an error blaming the user's
    file: evoplay's own modules were taken for the user's (its folder was read as evoplay/files/)."""
    hexapawn = f"{ROOT / 'examples' / 'games' / 'hexapawn.py'}:Hexapawn"
    code, out, err = run_in_process(["game", "--game", hexapawn])
    assert code == 0 and out.rstrip().endswith("End of input: game abandoned.") and err == "", (code, err)
    from evoplay.files.usercode import is_user_file

    assert not is_user_file(str(ROOT / "evoplay" / "arena" / "players.py"))
    assert is_user_file(str(ROOT / "examples" / "games" / "hexapawn.py"))


def test_match_and_tournament_output_reads_right_for_any_game(env):
    """Every match printed "game i starts from opening i mod 1"; a game without side names
    "A moves first (first)"; a tournament of player files had rows of about 270 characters."""
    code, out, err = run_in_process(["match", "random", "random", "--game", "openspiel:clobber", "--games", "1"])
    assert code == 0 and "openspiel:clobber: every game starts from the initial position" in out
    assert "A moves first: 1 games, seed 0" in out and "(first)" not in out and "mod 1" not in out
    champion = str(ROOT / "results" / "blondie24-2001-choices" / "opponent-scores")
    code, out, err = run_in_process(["tournament", champion, "random", "--game", "checkers", "--games", "1"])
    assert code == 0 and f"P1 = {champion}\nP2 = random\n" in out, err
    assert "Row player as Black (moves first) against column player as White:" in out
    assert max(len(line) for line in out.splitlines() if ".0/" in line and " = " not in line) < 80  # the grid's rows
    code, out, err = run_in_process(["tournament", "random", "mcts:sims=2", "--game", "openspiel:clobber", "--games", "1"])
    assert code == 0 and "Row player moving first against column player moving second:" in out
    assert "Row player moving second against column player moving first:" in out
