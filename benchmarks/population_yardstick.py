"""A Blondie24 checkers run's whole population against the yardstick, first and last:
`.venv/bin/python benchmarks/population_yardstick.py RUN OUT.json [TRIAL]`.

Every network of the initial population (made again from the config's seed, before
generation 1) and every last parent (from the final checkpoint) plays `piece-difference`
searching the run's depth over the yardstick's 314 ballot games from both colours, on
embedded Ray (2 workers): each network's wins, draws, losses and mean score, and the
population's mean score with its 95% interval. One network per measurement (the
generation's best) is a noisy view of a population; this is the whole of it. TRIAL (default
0) names the trial of a run of several, such as a study's variant.
"""
import json, sys
from evoplay.framework import config
from evoplay.framework.distributed import RayMap, init_ray, shutdown_ray
from evoplay.framework.rundir import RunDir
from evoplay.framework.trial import TrialRun
from evoplay.recipes.blondie24 import league, yardstick
from evoplay.recipes.blondie24.recipe import Blondie24Recipe
from evoplay.framework.stats import mean_ci

run = sys.argv[1]
trial = int(sys.argv[3]) if len(sys.argv) > 3 else 0
recipe = Blondie24Recipe(config.load(f"{run}/config.toml"))
first = TrialRun(recipe, trial).trial.state.parents
last = league.final_parents(recipe, RunDir(run))[trial]
init_ray(None, 2)
recipe.toolbox.register("map", RayMap(chunk_size=1))
bounds = yardstick.slices(yardstick.n_games(recipe))
out = {}
for name, nets in (("initial", first), ("last_parents", last)):
    rows = []
    for net in nets:
        s = yardstick.checkers_scores(recipe, net, bounds)[0]
        rows.append({"id": net.ident, "king": net.king, **{k.removeprefix("yard_"): v for k, v in yardstick.summarize(s, 0).items() if k != "yard_gen"}})
    scores = [r["score"] for r in rows]
    m, lo, hi = mean_ci(scores)
    out[name] = {"networks": rows, "mean_score": m, "lo": lo, "hi": hi, "best": max(scores), "worst": min(scores)}
    print(name, f"{m:+.3f} [{lo:+.3f}, {hi:+.3f}] best {max(scores):+.3f} worst {min(scores):+.3f}", flush=True)
shutdown_ray()
json.dump(out, open(sys.argv[2], "w"), indent=1)
