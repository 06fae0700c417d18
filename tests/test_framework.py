"""The framework: user recipes and players from files outside the package, on real Ray.

A user recipe and a user player give byte-identical run directories with 1 and 2
workers, after a SIGKILL of the driver and --resume, and through a 2-node cluster whose
nodes never see the user's files; the Ray map re-raises a user's exception as itself;
the examples run; the public API is what ``__all__`` says; imports point one way.
"""

import ast
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from support.runs import ENV, tree  # tree: every file of a run but timings, hosts and the lock
from support.runs import evoplay_process as evoplay

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="module")
def user_dir(tmp_path_factory):
    """The user's recipe, player and configs in a folder of their own, outside the package."""
    d = tmp_path_factory.mktemp("userproject")
    for name in ("minimax_fitness.py", "center_first.py"):
        shutil.copy(EXAMPLES / name, d / name)
    (d / "recipe.toml").write_text(
        'name = "user-recipe"\nrecipe = "minimax_fitness.py:MinimaxFitness"\nseed = 3\ntrials = 3\ngenerations = 30\n'
        "[population]\nparents = 10\n[run]\ncheckpoint_every = 5\n")
    (d / "player.toml").write_text(
        'name = "user-player"\nseed = 4\ntrials = 3\ngenerations = 30\n[population]\nparents = 10\n'
        '[evaluation]\nopponent = [{player = "center_first.py:CenterFirst", weight = 3}, {player = "logic", weight = 1}]\n'
        "[run]\ncheckpoint_every = 5\n")
    return d


@pytest.fixture(scope="module")
def two_workers(user_dir, tmp_path_factory, ray_here, evoplay_here):
    """Both user configs run with 2 workers (this module's Ray session, in this process),
    from another directory than the configs'."""
    assert ray_here["cpus"] == 2
    out = tmp_path_factory.mktemp("two")
    for cfg in ("recipe", "player"):
        evoplay_here("evolve", user_dir / f"{cfg}.toml", "--out", out / cfg, "--workers", 2, "--quiet", "--log-detail")
    return out


@pytest.mark.parametrize("cfg", ["recipe", "player"])
def test_user_code_gives_the_same_bytes_with_one_and_two_workers(user_dir, two_workers, tmp_path, cfg):
    one = tmp_path / "one"
    evoplay("evolve", user_dir / f"{cfg}.toml", "--out", one, "--workers", 1, "--quiet", "--log-detail", cwd=tmp_path)
    expected = tree(two_workers / cfg)
    assert "trials/trial_02/logbook.csv" in expected and "checkpoints/trial_01.json" in expected
    assert tree(one) == expected
    summary = json.loads((one / "summary.json").read_text())
    assert summary["trials"] == 3 and len(summary["curve"]["mean_max"]) == 30


def test_user_recipe_fitness_is_what_its_file_says(two_workers):
    """Draws against minimax plus wins against random minus 10 per loss: at most 16 + 16 per 32 games."""
    for t in range(3):
        header, *rows = (two_workers / "recipe" / f"trials/trial_{t:02d}/logbook.csv").read_text().splitlines()
        assert header == "gen,max,mean,min,mean_h,h_hist" and len(rows) == 30
        assert all(float(r.split(",")[1]) <= 32 for r in rows)
    doc = json.loads((two_workers / "recipe" / "champion.json").read_text())
    assert doc["kind"] == "fogel-net" and doc["provenance"]["config"] == "user-recipe"


def test_a_sigkilled_user_run_resumes_to_the_same_bytes(user_dir, two_workers, tmp_path, evoplay_here):
    killed = tmp_path / "killed"
    args = [sys.executable, "-m", "evoplay", "evolve", str(user_dir / "recipe.toml"), "--out", str(killed),
            "--workers", "2", "--quiet", "--log-detail"]
    proc = subprocess.Popen(args, cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    ckpt = killed / "checkpoints" / "trial_00.json"
    deadline = time.time() + 120
    while time.time() < deadline and not ckpt.exists():
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert ckpt.exists() and not (killed / "summary.json").exists(), "killed part-way"
    gens = json.loads(ckpt.read_text())["generation"]
    # The logbook grows with the checkpoints: an interrupted run can be followed and plotted.
    rows = len((killed / "trials/trial_00/logbook.csv").read_text().splitlines()) - 1
    assert rows >= gens and rows % 5 == 0
    refused = evoplay_here("evolve", user_dir / "recipe.toml", "--out", killed, check=False)
    assert refused.returncode == 2 and "--resume" in refused.stderr and len(refused.stderr.splitlines()) == 1
    evoplay_here("evolve", user_dir / "recipe.toml", "--out", killed, "--resume", "--quiet", "--log-detail")
    assert tree(killed) == tree(two_workers / "recipe")


DRIVER = """
import os, sys
import evoplay
from evoplay.framework import config
cfg = config.load(sys.argv[1])           # loads the user's recipe and player here, on the driver
os.remove(sys.argv[3])                   # ... and no node can read them from disk any more
os.remove(sys.argv[4])
evoplay.run(cfg, sys.argv[2], address=sys.argv[5], log_detail=True)
"""


@pytest.mark.cluster
def test_user_code_reaches_cluster_nodes_that_lack_its_files(user_dir, two_workers, tmp_path):
    import raycluster

    for cfg in ("recipe", "player"):
        shutil.copytree(user_dir, tmp_path / cfg)
    with raycluster.local_cluster(nodes=2, cpus_per_node=1) as cluster:
        for cfg in ("recipe", "player"):
            d = tmp_path / cfg
            run = subprocess.run([sys.executable, "-c", DRIVER, d / f"{cfg}.toml", d / "out",
                                  d / "minimax_fitness.py", d / "center_first.py", cluster.address],
                                 capture_output=True, text=True, env=cluster.env, cwd=tmp_path, timeout=300)
            assert run.returncode == 0, run.stderr[-3000:]
            env = json.loads((d / "out" / "environment.json").read_text())
            assert len(env["ray"]["nodes"]) == 2
    for cfg in ("recipe", "player"):
        got = tree(tmp_path / cfg / "out")
        want = tree(two_workers / cfg)
        # The stored config names the user's files where they were; everything computed is equal.
        assert {k for k in got if got[k] != want.get(k)} <= {"config.toml"} | {k for k in got if k.startswith("checkpoints/")}
        assert {k: v for k, v in got.items() if not k.startswith(("checkpoints/", "config.toml"))} == \
               {k: v for k, v in want.items() if not k.startswith(("checkpoints/", "config.toml"))}


# ---------------------------------------------------------------- the Ray map


def failing(x):
    if x == 7:
        raise ValueError(f"no sevens ({x})")
    return x * x


def test_ray_map_reraises_the_users_exception_once_as_itself(ray_here, capfd):
    import evoplay

    assert evoplay.RayMap(chunk_size=3)(failing, range(7)) == [x * x for x in range(7)]
    with pytest.raises(ValueError, match="no sevens") as info:
        evoplay.RayMap(chunk_size=2)(failing, range(20))
    assert type(info.value) is ValueError
    assert any("raised in a Ray task" in n and "failing" in n for n in getattr(info.value, "__notes__", []))
    time.sleep(1.5)  # Ray reports errors nobody retrieved after a moment: there must be none
    err = capfd.readouterr().err
    assert "Unhandled error" not in err


def test_worker_prints_reach_the_driver(tmp_path):
    script = tmp_path / "shout.py"
    script.write_text("import evoplay\n"
                      "def shout(x):\n    print(f'worker says {x}', flush=True)\n    return x\n"
                      "evoplay.init_ray(workers=1)\n"
                      "print(evoplay.RayMap(chunk_size=1)(shout, [41, 42]))\n"
                      "import time; time.sleep(2)\n"
                      "evoplay.shutdown_ray()\n")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=ENV, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "[41, 42]" in run.stdout
    assert "worker says 42" in run.stdout + run.stderr


# ---------------------------------------------------------------- examples and API


def test_onemax_example_with_the_ray_map_is_the_same_on_one_and_two_workers():
    outs = []
    for workers in (1, 2):
        run = subprocess.run([sys.executable, str(EXAMPLES / "onemax_ray.py"), "--generations", "15", "--workers",
                              str(workers)], capture_output=True, text=True, env=ENV, timeout=300)
        assert run.returncode == 0, run.stderr[-2000:]
        outs.append([line for line in run.stdout.splitlines() if line.startswith(("best", "max"))])
    assert outs[0] == outs[1] and len(outs[0]) == 2
    maxima = [int(x) for x in outs[0][1].split(":")[1].split()]
    assert len(maxima) == 16 and maxima[-1] > maxima[0] + 10  # OneMax climbs


@pytest.mark.parametrize("config, check", [
    ("minimax_fitness.toml", lambda s: s["mean_max_score"]["last10"] > s["mean_max_score"]["first"]),
    ("vs_center_first.toml", lambda s: s["mean_max_payoff"]["last10"] > s["mean_max_payoff"]["first"]),
])
def test_example_configs_run_and_improve(tmp_path, config, check, ray_here, evoplay_here):
    evoplay_here("evolve", EXAMPLES / config, "--out", tmp_path / "run", "--quiet", "--generations", 30)
    assert check(json.loads((tmp_path / "run" / "summary.json").read_text()))


def test_user_player_plays_everywhere_a_spec_goes(evoplay_here):
    spec = "examples/center_first.py:CenterFirst"
    exact = json.loads(evoplay_here("match", spec, "logic", "--exact", "--json", "--seats", "a-first").stdout)
    r = exact["results"][0]
    # Centre first, never missing a win or a block: logic (eps 0.1) beats it only along lines
    # that start with a 1e-6-weighted edge move.
    assert 0 < r["b_win"] < 1e-6 and r["a_win"] > 0.5
    analyzed = json.loads(evoplay_here("analyze", f"{spec}:corner_weight=1", "--json").stdout)
    assert analyzed["player"].endswith("corner_weight=1") and analyzed["expected_payoff"] < 1
    bad = evoplay_here("match", "examples/center_first.py:Nobody", "logic", check=False)
    assert bad.returncode == 2 and "Nobody" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
    bad = evoplay_here("analyze", f"{spec}:corner_weight=-1", check=False)
    assert bad.returncode == 2 and "corner_weight must be > 0" in bad.stderr and "Traceback" not in bad.stderr


def test_a_user_player_with_a_bad_distribution_is_refused(tmp_path, evoplay_here):
    (tmp_path / "cheat.py").write_text(
        "import numpy as np\nclass Anywhere:\n    def probs(self, codes):\n        return np.full((len(codes), 9), 1 / 9)\n")
    out = evoplay_here("match", tmp_path / "cheat.py:Anywhere", "random", check=False)
    assert out.returncode == 2 and "not a distribution over the empty squares" in out.stderr


def test_public_api_is_documented_and_resolves():
    import evoplay

    assert "RayMap" in evoplay.__all__ and "run" in evoplay.__all__ and "Recipe" in evoplay.__all__
    for name in evoplay.__all__:
        obj = getattr(evoplay, name)
        assert name == "__version__" or (obj.__doc__ or "").strip(), f"{name} has no docstring"


def _imports(path: Path) -> set[str]:
    tree_ = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree_):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_imports_point_one_way():
    pkg = ROOT / "evoplay"
    for path in (pkg / "framework").rglob("*.py"):
        bad = {m for m in _imports(path) if m.startswith(("evoplay.tictactoe", "evoplay.recipes", "evoplay.cli"))}
        assert not bad, f"the framework imports the domain or recipes: {path.name} {bad}"
    for path in (pkg / "tictactoe").rglob("*.py"):
        bad = {m for m in _imports(path) if m.startswith(("ray", "evoplay.framework", "evoplay.recipes", "evoplay.cli"))}
        assert not bad, f"the domain imports Ray, the framework or recipes: {path.name} {bad}"


def test_load_run_reads_a_finished_run(two_workers):
    import evoplay

    run = evoplay.load_run(two_workers / "player")
    assert run.trials == [0, 1, 2] and run.summary["trials"] == 3
    assert run.config["evaluation"]["opponent"][0]["player"].endswith("center_first.py:CenterFirst")
    assert list(run.logbook(1)["gen"]) == list(range(1, 31))
    assert run.champion()["kind"] == "fogel-net"


def _processes_with(marker: str) -> list[str]:
    """Command lines of live (non-zombie) processes whose environment carries ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                if marker.encode() not in f.read():
                    continue
            with open(f"/proc/{entry}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    continue
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                found.append(f.read().replace(b"\0", b" ").decode(errors="replace"))
        except OSError:
            continue
    return found


STALE = Path("/tmp/ray/ray_current_cluster")


@pytest.fixture(scope="module")
def run_beside_a_stale_address(tmp_path_factory):
    """One small evolve in a process of its own, for the two tests below: its environment carries a
    marker (to find any process it leaves behind) and, unless a cluster started with `ray start` is
    registered on this machine, STALE names an address where nothing listens. Returns the finished
    process, the marked processes alive a second after it ended, and whether STALE was written."""
    marker = f"EVOPLAY_TEST_RUN_{os.getpid()}_{time.time_ns()}"
    written = not STALE.exists()
    if written:
        STALE.parent.mkdir(parents=True, exist_ok=True)
        STALE.write_text("127.0.0.1:9\n")  # nothing listens on the discard port
    try:
        out = evoplay("evolve", "configs/quick.toml", "--trials", 1, "--generations", 3, "--out",
                      tmp_path_factory.mktemp("stale") / "run", "--quiet", env={**ENV, marker: "1"}, check=False, timeout=120)
    finally:
        if written:
            STALE.unlink()
    time.sleep(1.0)
    return out, _processes_with(marker), written


def test_evolve_leaves_no_ray_process_behind(run_beside_a_stale_address):
    out, left, _ = run_beside_a_stale_address
    assert out.returncode == 0, out.stderr[-3000:]
    # Before the fix, ray::DashboardAgent and ray::RuntimeEnvAgent lived on for a minute or two.
    assert left == []


def test_a_stale_ray_address_file_does_not_break_embedded_ray(run_beside_a_stale_address):
    """`ray start` leaves /tmp/ray/ray_current_cluster; embedded Ray must not try to join it."""
    out, _, written = run_beside_a_stale_address
    if not written:
        pytest.skip("a Ray cluster started with `ray start` is registered on this machine")
    assert out.returncode == 0, out.stderr[-3000:]


def test_plot_follows_an_interrupted_run(two_workers, tmp_path, evoplay_here):
    """Logbooks grow with checkpoints, so an unfinished run plots up to where all trials are."""
    run = tmp_path / "run"
    shutil.copytree(two_workers / "recipe", run)
    for name in ("summary.json", "champion.json", "curve.png", "curve.svg"):
        (run / name).unlink()
    log = run / "trials/trial_01/logbook.csv"
    log.write_text("\n".join(log.read_text().splitlines()[:1 + 15]) + "\n")  # trial 1 at generation 15
    evoplay_here("plot", run, "--out", tmp_path / "now.svg")
    svg = (tmp_path / "now.svg").read_text()
    assert "running or interrupted, generation 15" in svg


def test_a_failing_user_recipe_shows_its_traceback_once(tmp_path):
    (tmp_path / "broken.py").write_text(
        "from evoplay.recipes.fogel.recipe import FogelRecipe\n\n"
        "class Broken(FogelRecipe):\n"
        "    def step(self, state, ctx):\n"
        "        if ctx.generation == 3:\n"
        "            raise ValueError('my recipe broke at generation 3')\n"
        "        return super().step(state, ctx)\n")
    (tmp_path / "broken.toml").write_text('recipe = "broken.py:Broken"\ntrials = 2\ngenerations = 5\n'
                                          "[population]\nparents = 10\n")
    out = evoplay("evolve", tmp_path / "broken.toml", "--out", tmp_path / "run", "--quiet", check=False)
    assert out.returncode == 1
    assert out.stderr.count("Traceback") == 1 and "Unhandled error" not in out.stderr
    assert out.stderr.rstrip().endswith("ValueError: my recipe broke at generation 3")
    assert f'{tmp_path / "broken.py"}", line 6, in step' in out.stderr, "the worker's frames, the user's line"


def dies(x):
    os._exit(3)  # the worker process dies, every time


def test_ray_retries_used_up_is_one_line(ray_here):
    import evoplay
    from evoplay.framework import distributed

    with pytest.raises(evoplay.EvoplayError, match="retries are used up"):
        distributed.run_tasks(dies, [(1,)], max_retries=1)


# ---------------------------------------------------------------- a framework in the recipe's words


def test_a_user_recipe_is_reported_and_plotted_in_its_own_words(tmp_path, ray_here, evoplay_here):
    from evoplay.framework import plotting
    from evoplay.framework.recipe import FitnessWords

    out = evoplay_here("evolve", EXAMPLES / "onemax_recipe.toml", "--out", tmp_path / "ones", "--quiet").stdout
    assert "mean max ones (bits set): first generation " in out and "payoff" not in out
    summary = json.loads((tmp_path / "ones" / "summary.json").read_text())
    assert summary["mean_max_ones"]["last10"] > summary["mean_max_ones"]["first"] and "mean_max_payoff" not in summary
    words = plotting.run_words(tmp_path / "ones")
    assert words == FitnessWords("ones", "bits set")
    ax = plotting.curve_figure([("ones", np.ones((2, 3)))], words).axes[0]
    assert ax.get_ylabel() == "max ones in the population (bits set)"
    assert ax.get_title() == "Mean over trials of the maximum ones, 95% band (faint: single trials)"
    # The same recipe declaring no words is reported in neutral ones.
    source = (EXAMPLES / "onemax_recipe.py").read_text()
    plain = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("fitness_name", "fitness_unit")))
    (tmp_path / "plain.py").write_text(plain + "\n")
    (tmp_path / "plain.toml").write_text((EXAMPLES / "onemax_recipe.toml").read_text().replace("onemax_recipe.py", "plain.py"))
    out = evoplay_here("evolve", tmp_path / "plain.toml", "--out", tmp_path / "plain", "--quiet", "--generations", 5).stdout
    assert "mean max fitness: first generation " in out
    assert "mean_max_fitness" in json.loads((tmp_path / "plain" / "summary.json").read_text())
    assert plotting.run_words(tmp_path / "plain") == FitnessWords()


def test_fogel_recipes_keep_their_words_and_the_committed_curves_their_bytes(tmp_path):
    from evoplay.framework import plotting
    from evoplay.framework.recipe import FitnessWords

    assert plotting.run_words(ROOT / "results" / "fogel1993") == FitnessWords("payoff")
    assert FitnessWords("payoff").summary_key == "mean_max_payoff"
    written = plotting.plot_runs([ROOT / "results" / "fogel1993"], tmp_path / "curve.png")
    for path in written:
        assert path.read_bytes() == (ROOT / "results" / "fogel1993" / path.name).read_bytes()
    # Runs of recipes with different words plotted together: neutral words.
    assert FitnessWords.common([FitnessWords("payoff"), FitnessWords("ones", "bits set")]) == FitnessWords()


def test_background_gives_its_functions_value_and_raises_what_it_raised():
    """The runner draws a run's curve on a thread: a failure to write it reaches the caller as itself."""
    from evoplay.errors import EvoplayError
    from evoplay.framework.runner import Background

    assert Background("sum", sum, [1, 2, 3]).result() == 6

    def unwritable():
        raise EvoplayError("cannot write /run/curve.png: Read-only file system")

    with pytest.raises(EvoplayError, match="Read-only"):
        Background("draw", unwritable).result()


def test_segments_left_counts_each_trials_checkpointed_segments_still_to_land(tmp_path):
    """The pool prepares the plotting code when its last rounds of segments are left."""
    from evoplay.framework import config
    from evoplay.framework.rundir import RunDir
    from evoplay.framework.runner import RunJob

    cfg = config.load(ROOT / "configs" / "fogel1993.toml")  # 800 generations, checkpoints every 200
    job = RunJob(RunDir(tmp_path / "run"), cfg, None)
    job.states = {0: None, 1: {"generation": 200}, 2: {"generation": 150}, 3: {"generation": 800}, 4: {"generation": 600}}
    assert job.segments_left() == 4 + 3 + 4 + 0 + 1  # trial 2 checkpoints at 200 first
    job.gens = 850
    assert job.segments_left() == 5 + 4 + 5 + 1 + 2
