"""What a Blondie24 checkers run's champion rule would pick before any evolution:
`.venv/bin/python benchmarks/starting_league.py CONFIG OUT.json [--trials 0,1,...] [--workers N]`.

For each trial, the initial parents (made again from the config's seed, before generation
1: in a study trial ``t`` starts from the same networks in every variant) play the league
of ``champion.rule = "league"``: a round robin over the first ``champion.ballots`` ballots
from both colours, searching the run's depth, both players scoring the points table, ties
to the network listed first. The winner, the generation-0 champion, plays
``piece-difference`` searching as deep over the yardstick's ballot games from both
colours. Its score is the paired baseline of the trial's evolved champions: what the
co-evolution adds to what the same rule finds among random networks. On embedded Ray.
"""
import argparse
import json

from evoplay.files.atomic import write_text
from evoplay.framework import config
from evoplay.framework.distributed import RayMap, init_ray, shutdown_ray
from evoplay.framework.trial import TrialRun
from evoplay.recipes.blondie24 import league, yardstick
from evoplay.recipes.blondie24.recipe import Blondie24Recipe

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("config")
parser.add_argument("out")
parser.add_argument("--trials", help="comma-separated trials (default: every trial of the config)")
parser.add_argument("--workers", type=int, default=None)
args = parser.parse_args()

recipe = Blondie24Recipe(config.load(args.config))
if yardstick.kind(recipe) != "piece-difference":
    raise SystemExit("starting_league.py: the config's game is not judged against piece difference (checkers)")
cfg = recipe.cfg
trials = [int(t) for t in args.trials.split(",")] if args.trials else list(range(cfg[""]["trials"]))
ballots = cfg["champion"]["ballots"]
init_ray(None, args.workers)
recipe.toolbox.register("map", RayMap(chunk_size=1))
bounds = yardstick.slices(yardstick.n_games(recipe))
out = {"config": cfg[""]["name"], "seed": cfg[""]["seed"], "depth": recipe.depth, "ballots": ballots,
       "points": list(recipe.points), "trials": []}
for t in trials:
    parents = TrialRun(recipe, t).trial.state.parents
    table, k = league.play_league(recipe, parents, ballots)
    measured = yardstick.summarize(yardstick.checkers_scores(recipe, parents[k], bounds)[0], 0)
    vs = {key.removeprefix("yard_"): v for key, v in measured.items() if key != "yard_gen"}
    out["trials"].append({"trial": t, "champion": k, "champion_id": parents[k].ident, "table": table, "vs_piece_difference": vs})
    print(f"trial {t}: generation-0 champion (parent {k}) {vs['score']:+.3f} [{vs['lo']:+.3f}, {vs['hi']:+.3f}] "
          f"W/D/L {vs['win']}/{vs['draw']}/{vs['loss']}", flush=True)
shutdown_ray()
write_text(args.out, json.dumps(out, indent=1) + "\n")
