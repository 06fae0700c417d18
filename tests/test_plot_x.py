"""`evoplay plot --x games|cpu`: a run's curve against the games a trial played or its
worker-CPU seconds, the learning curves of runs of different recipes put on one footing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from support.cli import refused, run_in_process

from evoplay.cli.runfiles import per_generation
from evoplay.errors import EvoplayError
from evoplay.framework import plotting

ROOT = Path(__file__).resolve().parents[1]
TD = ROOT / "results" / "td-leaf-1999"


def test_a_generation_is_its_games_and_its_trials_mean_cpu():
    costs = json.loads((TD / "costs.json").read_text())
    assert per_generation(TD, "games") == 150.0  # training.games of configs/td-leaf-1999.toml
    assert per_generation(TD, "cpu") == pytest.approx(np.mean([t["cpu_seconds"] / t["generations"] for t in costs.values()]))


def test_the_curve_is_drawn_at_each_generation_times_its_games():
    curves = np.array([[0.0, 1.0, 2.0], [1.0, 2.0, 3.0]])
    fig = plotting.curve_figure([("run", curves)], per_generation=[150.0], x="games")
    mean = [line for line in fig.axes[0].lines if line.get_label() == "run: mean"][0]
    assert mean.get_xdata().tolist() == [150.0, 300.0, 450.0] and mean.get_ydata().tolist() == [0.5, 1.5, 2.5]
    assert fig.axes[0].get_xlabel() == "games played a trial"


def test_plot_against_cpu_writes_the_image_and_refuses_what_it_cannot_draw(tmp_path):
    out = tmp_path / "cpu.png"
    code, stdout, _ = run_in_process(["plot", str(TD), "--x", "cpu", "--out", str(out)])
    assert code == 0 and out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    run = tmp_path / "run"
    shutil.copytree(TD, run, ignore=shutil.ignore_patterns("costs.json", "checkpoints"))
    refused(["plot", str(run), "--x", "cpu", "--out", str(tmp_path / "x.png")], "has no costs.json to draw --x cpu with")
    (run / "costs.json").write_text('{"trial_00": {"generations": 0}}')
    with pytest.raises(EvoplayError, match="is damaged"):
        per_generation(run, "cpu")
