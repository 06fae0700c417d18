"""The committed reference reproduction is what the project's own command produces."""

import json
from pathlib import Path

import pytest

from test_evolve_run import evoplay

RESULTS = Path(__file__).resolve().parents[1] / "results" / "fogel1993"


@pytest.mark.skipif(not (RESULTS / "summary.json").exists(), reason="no committed reproduction")
def test_first_trials_of_the_committed_run_reproduce_byte_for_byte(tmp_path):
    # A trial is a pure function of (config, trial): two trials of the same config and seed
    # are the first two trials of the full run.
    evoplay("evolve", "configs/fogel1993.toml", "--trials", 2, "--out", tmp_path / "run", "--quiet")
    for t in (0, 1):
        for f in ("logbook.csv", "champion.json"):
            rel = f"trials/trial_{t:02d}/{f}"
            assert (tmp_path / "run" / rel).read_bytes() == (RESULTS / rel).read_bytes(), rel


@pytest.mark.skipif(not (RESULTS / "summary.json").exists(), reason="no committed reproduction")
def test_committed_summary_agrees_with_its_logbooks_and_champion():
    summary = json.loads((RESULTS / "summary.json").read_text())
    assert summary["trials"] == 20 and summary["generations"] == 800 and summary["games_played"] == 51_200_000
    best = summary["best_trial"]
    assert (RESULTS / "champion.json").read_bytes() == (RESULTS / f"trials/trial_{best:02d}/champion.json").read_bytes()
    last = [float((RESULTS / f"trials/trial_{t:02d}/logbook.csv").read_text().splitlines()[-1].split(",")[1]) for t in range(20)]
    assert summary["curve"]["mean_max"][-1] == pytest.approx(sum(last) / 20)
    analysis = json.loads((RESULTS / "analysis.json").read_text())
    assert analysis["references"]["best_response_32_vs_logic"] == pytest.approx(32 * 0.9307291666666668)


CONNECT_FOUR = RESULTS.parent / "blondie24-connect-four"


@pytest.mark.skipif(not (CONNECT_FOUR / "summary.json").exists(), reason="no committed Connect Four run")
def test_the_committed_connect_four_run_reproduces_its_first_generations():
    """Blondie24 on openspiel:connect_four: the first generation of the committed trial,
    made again in this process, give the committed logbook's rows bit for bit (a row is
    written with repr, which reads back to the same float)."""
    pytest.importorskip("pyspiel")
    from evoplay.framework import config
    from evoplay.framework.trial import TrialRun
    from evoplay.recipes.blondie24.recipe import Blondie24Recipe

    cfg = config.load(CONNECT_FOUR / "config.toml")
    rows = (CONNECT_FOUR / "trials" / "trial_00" / "logbook.csv").read_text().splitlines()
    header = rows[0].split(",")
    run = TrialRun(Blondie24Recipe(cfg), 0).run(1)  # generation 1 and its yardstick (200 games)
    for gen, line in zip((1,), rows[1:2]):
        committed = dict(zip(header, map(float, line.split(","))))
        made = {k: float(v) for k, v in run.logbook[gen - 1].items()}
        assert made == committed, gen


@pytest.mark.skipif(not (CONNECT_FOUR / "match-random.json").exists(), reason="no committed Connect Four run")
def test_the_committed_connect_four_champion_beats_random_from_both_seats_as_committed(tmp_path):
    """`evoplay match results/blondie24-connect-four random --games 200 --json` is the committed
    table: at least 95% wins from each seat."""
    pytest.importorskip("pyspiel")
    out = evoplay("match", "results/blondie24-connect-four", "random", "--games", 200, "--json")
    made = json.loads(out.stdout)
    assert made == json.loads((CONNECT_FOUR / "match-random.json").read_text())
    assert all(r["a_win"] >= 0.95 for r in made["results"])


def test_every_committed_run_carries_todays_config_keys():
    """A run of today writes every key of its recipe's schema; the committed folders lacked the keys
    added since they were made (champion, league_openings, ...). The runs that keep checkpoints keep
    the config their checkpoints were signed under (a checkpoint names the keys of its config.toml)."""
    from evoplay.framework.config import load, to_toml
    from evoplay.games import reading_data

    root = Path(__file__).resolve().parents[1] / "results"
    kept, stale = [], []
    for path in sorted(root.glob("**/config.toml")):
        if (path.parent / "checkpoints").is_dir():
            kept.append(path.parent.name)
        else:
            with reading_data():  # read as evoplay reads a run's config: data (an anchor file elsewhere is not opened)
                stored = to_toml(load(path))
            if path.read_text() != stored:
                stale.append(str(path.relative_to(root)))
    assert stale == []
    assert kept == ["blondie24", "blondie24-2001", "blondie24-2001-seed2002"]
