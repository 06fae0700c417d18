"""Compute, in this process, numbers that must not depend on the CPU; print them as JSON.

Run by ``test_any_cpu.py`` under several BLAS kernels and SIMD settings. It replays the
first generations of committed runs (fitness, selection, mutation, yardstick), analyses
committed champions exactly, builds the softmax player, trains a small value network and
computes a study's statistics, and reports whether the replayed logbooks are the
committed ones along with a digest of everything.
"""

import hashlib
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

from evoplay.framework import config, stats
from evoplay.framework.rundir import RunDir
from evoplay.framework.trial import TrialRun

ROOT = Path(__file__).resolve().parents[1]
GENERATIONS = {"fogel1993": 25, "fogel-exact-sa-h30": 12, "coevolution-hof": 8}


def replay(run: str, generations: int) -> list[str]:
    cfg = config.load(ROOT / "configs" / f"{run}.toml")
    recipe = config.recipe_class(cfg[""]["recipe"])(cfg)
    rows = list(TrialRun(recipe, 0).run(generations).logbook)
    with tempfile.TemporaryDirectory() as tmp:
        rd = RunDir(tmp)
        rd.write_logbook(0, rows)
        return rd.logbook(0).read_text().splitlines()


def champions() -> list:
    from evoplay.recipes.fogel import exact_yardstick
    from evoplay.recipes.fogel.nets import net_from_file
    from evoplay.files.playerfile import read_document

    out = []
    for run in ("fogel1993", "fogel-exact-sa-h30", "coevolution"):
        doc = read_document(ROOT / "results" / run / "trials/trial_00/champion.json")
        out.append(exact_yardstick.record(net_from_file(doc["architecture"], doc["weights"], 30)))
    return out


def players() -> list:
    from evoplay.tictactoe import exact
    from evoplay.tictactoe.players import make_player

    soft = make_player("softmax:t=0.2,model_t=1.0")
    o = exact.outcome(soft, make_player("logic"))
    return [float(soft.table.sum()), o.x_win, o.draw, o.o_win, exact.best_response_payoff(make_player("softmax:t=0.5,model_t=0.5"))]


def trained() -> list:
    from evoplay.tictactoe.trained import value_net

    weights = value_net.train(games=300, seed=4).weights
    return [float(v) for k in sorted(weights) for v in np.ravel(weights[k])[:8]]


def study_stats() -> list:
    g = np.random.default_rng(5)
    a, b = g.normal(20, 3, 20), g.normal(21, 3, 20)
    mean, band = stats.mean_band(np.stack([a, b]))
    p = stats.permutation_test(a, b, np.random.default_rng(6), rounds=2000)
    return [*stats.mean_ci(a), *mean[:3], *band[:3], p, stats.cliffs_delta(a, b), *stats.holm([p, 0.01, 0.04])]


def main() -> None:
    report = {"matches_committed": {}, "numbers": {}}
    for run, gens in GENERATIONS.items():
        lines = replay(run, gens)
        committed = (ROOT / "results" / run / "trials/trial_00/logbook.csv").read_text().splitlines()[: gens + 1]
        report["matches_committed"][run] = lines == committed
        report["numbers"][run] = lines
    report["numbers"]["champions"] = champions()
    report["numbers"]["players"] = players()
    report["numbers"]["trained"] = trained()
    report["numbers"]["stats"] = study_stats()
    text = json.dumps(report["numbers"], sort_keys=True, default=float)
    report["digest"] = hashlib.sha256(text.encode()).hexdigest()
    json.dump(report, sys.stdout, default=float)


if __name__ == "__main__":
    main()
