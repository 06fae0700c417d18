"""The committed baselines tournament is what `evoplay baselines` computes."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BASELINES = ROOT / "results" / "baselines"


@pytest.mark.skipif(not (BASELINES / "tournament.json").exists(), reason="no committed baselines")
def test_committed_tournament_reproduces_from_the_committed_players(tmp_path):
    for f in BASELINES.glob("*-net.json"):
        shutil.copy(f, tmp_path / f.name)
    subprocess.run([sys.executable, "-m", "evoplay", "baselines", "--out", str(tmp_path)], cwd=ROOT, check=True,
                   capture_output=True)
    ours = json.loads((tmp_path / "tournament.json").read_text())
    committed = json.loads((BASELINES / "tournament.json").read_text())
    assert ours["pairings"] == [dict(p, x=p["x"].replace("results/baselines", str(tmp_path)),
                                     o=p["o"].replace("results/baselines", str(tmp_path))) for p in committed["pairings"]]
    assert ours["summary"] == committed["summary"]
