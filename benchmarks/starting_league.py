"""What a Blondie24 checkers run's champion rule would pick before any evolution:
`.venv/bin/python benchmarks/starting_league.py CONFIG OUT.json [--trials 0,1,...] [--depths 4,6] [--workers N]`.

For each trial, the initial parents (made again from the config's seed, before generation
1: in a study trial ``t`` starts from the same networks in every variant) play the league
of ``champion.rule = "league"``: a round robin over the first ``champion.ballots`` ballots
from both colours, searching the run's depth, both players scoring the points table, ties
to the network listed first. The winner, the generation-0 champion, plays
``piece-difference`` over the yardstick's ballot games from both colours, both sides
searching each of ``--depths`` (default: the run's depth), as ``evoplay report --depths``
plays a run's champions. Its score is the paired baseline of the trial's evolved
champions: what the co-evolution adds to what the same rule finds among random networks.
The winners are written beside OUT as player files (``OUT-stem/trial_NN.json``). On
embedded Ray.
"""
import argparse
import json
from pathlib import Path

from evoplay.files.atomic import write_text
from evoplay.framework import config
from evoplay.framework.distributed import RayMap, init_ray, shutdown_ray
from evoplay.framework.trial import TrialRun
from evoplay.recipes.blondie24 import duels, league, yardstick
from evoplay.recipes.blondie24.playerfile import network_document
from evoplay.recipes.blondie24.recipe import Blondie24Recipe

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("config")
parser.add_argument("out")
parser.add_argument("--trials", help="comma-separated trials (default: every trial of the config)")
parser.add_argument("--depths", help="comma-separated search depths of the games against piece difference (default: the run's)")
parser.add_argument("--workers", type=int, default=None)
args = parser.parse_args()

recipe = Blondie24Recipe(config.load(args.config))
if yardstick.kind(recipe) != "piece-difference":
    raise SystemExit("starting_league.py: the config's game is not judged against piece difference (checkers)")
cfg = recipe.cfg
trials = [int(t) for t in args.trials.split(",")] if args.trials else list(range(cfg[""]["trials"]))
ballots = cfg["champion"]["ballots"]
depths = [int(d) for d in args.depths.split(",")] if args.depths else [recipe.depth]
if not all(1 <= d <= duels.MAX_DEPTH for d in depths):
    raise SystemExit(f"starting_league.py: a depth must be in 1..{duels.MAX_DEPTH}")
y = cfg["yardstick"]
folder = Path(args.out).with_suffix("")
init_ray(None, args.workers)
recipe.toolbox.register("map", RayMap(chunk_size=1))
bounds = yardstick.slices(yardstick.n_games(recipe))
out = {"config": cfg[""]["name"], "seed": cfg[""]["seed"], "depth": recipe.depth, "ballots": ballots,
       "points": list(recipe.points), "trials": []}
for t in trials:
    parents = TrialRun(recipe, t).trial.state.parents
    table, k = league.play_league(recipe, parents, ballots)
    champ = {"genome": parents[k].genome, "sizes": tuple(recipe.sizes), "king": float(parents[k].king)}
    rows = []
    for d in depths:
        pd = ("piece-difference", d, y["pd_king"])
        mine = duels.net_spec(champ, d, yardstick.searches_with_quiescence(recipe, pd))
        rows.append({"depth": d, **duels.play_duel(recipe, mine, pd, bounds)})
        print(f"trial {t}: generation-0 champion (parent {k}) at depth {d}: {rows[-1]['score']:+.3f} "
              f"[{rows[-1]['lo']:+.3f}, {rows[-1]['hi']:+.3f}] W/D/L {rows[-1]['win']}/{rows[-1]['draw']}/{rows[-1]['loss']}", flush=True)
    out["trials"].append({"trial": t, "champion": k, "champion_id": parents[k].ident, "table": table, "vs_piece_difference": rows})
    provenance = {"config": cfg[""]["name"], "seed": cfg[""]["seed"], "trial": t, "generation": 0,
                  "network_id": parents[k].ident, "league": league.words(ballots).replace("last parents", "starting parents")}
    folder.mkdir(parents=True, exist_ok=True)
    write_text(folder / f"trial_{t:02d}.json",
               json.dumps(network_document(recipe.game, recipe.sizes, recipe.depth, parents[k].genome, parents[k].king, provenance), indent=1, allow_nan=False) + "\n")
shutdown_ray()
write_text(args.out, json.dumps(out, indent=1, allow_nan=False) + "\n")
