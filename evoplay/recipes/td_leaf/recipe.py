"""TDLeaf(lambda) as a recipe (``recipe = "td-leaf"``): one evaluation network per trial,
trained by self-play through the search, with everything the runner gives every recipe
(trials on Ray, checkpoints and ``--resume`` to identical bytes, curves, studies).

A generation is one synchronous batch of ``training.games`` self-play games, all played
with the generation's weights (``learning.train``'s step): the games fan out through
``toolbox.map`` in ``ctx.chunks`` consecutive ranges, each game drawing from its own
stream keyed by the generation's seed and its number, and their update directions are
summed in game order before ``training.alpha`` times the sum moves the weights; so a run
is the same bytes on 1 or N workers. The network and its search are Blondie24's (the same
``game`` and ``network`` sections: depth, hidden layers, the 2001 spatial layer), its king
value K fixed (``network.king``), so a trained network plays exactly as an evolved one of
the same architecture would, and its champion is the same kind of player file.

The curve is the network's strength against a yardstick training never sees, Blondie24's
(``yardstick`` section): on tic-tac-toe its exact expected payoff per 32 games against
``logic``; on checkers its mean score against piece difference at the same depth over the
ballots from both colours; on any other game its mean score against random and mcts from
random openings; by games every ``yardstick.every`` generations, the first and the last.
"""

from __future__ import annotations

import math

import numpy as np
from deap import base

from evoplay.errors import ConfigError
from evoplay.framework import config as configs
from evoplay.framework.recipe import Context, Recipe
from evoplay.framework.streams import INIT
from evoplay.arena.game import capability
from evoplay.games import game_digest, resolve_game
from evoplay.recipes.blondie24 import yardstick
from evoplay.recipes.blondie24.play import NO_KINGS
from evoplay.recipes.blondie24.playerfile import network_document
from evoplay.recipes.blondie24.recipe import Blondie24Recipe
from evoplay.recipes.blondie24.schema import SCHEMA as BLONDIE24, searched_network
from evoplay.recipes.td_leaf.learning import Net, batch_step

#: Stream purpose of a generation's game seed (after the framework's INIT..VARIATE and the yardstick's 7).
GAMES = 9

#: ``network.sum_weight`` when the views' sum's weight is drawn like every weight.
DRAWN = "drawn"

SCHEMA = {
    "game": {k: BLONDIE24["game"][k] for k in ("name", "depth", "max_plies")},
    "network": {
        **{k: BLONDIE24["network"][k] for k in ("hidden", "spatial", "init_scale")},
        "king": (float, 2.0, configs.in_range(0.0, 100.0)),
        "sum_weight": (object, DRAWN, (lambda v: v == DRAWN or (isinstance(v, (int, float)) and not isinstance(v, bool)
                                                                and -1e3 <= v <= 1e3), f'"{DRAWN}" or a number in [-1000, 1000]')),
    },
    "training": {
        "games": (int, 16, configs.in_range(1, 100_000)),
        "alpha": (float, 0.01, configs.in_range(0.0, 1e3)),
        "alpha_halflife": (int, 0, configs.in_range(0, 10_000_000)),
        "lambda": (float, 0.7, configs.in_range(0.0, 1.0)),
        "random_plies": (int, 2, configs.in_range(0, 50)),
        "explore": (float, 0.0, configs.in_range(0.0, 1.0)),
        "sum_weight_fixed": (object, False, configs.BOOLEAN),
    },
    "yardstick": BLONDIE24["yardstick"],
}


def strength(yard: dict) -> float:
    """The yardstick's one figure: the exact payoff per 32 games against logic (tic-tac-toe), the
    mean score against piece difference (checkers), or the mean of the scores against random and mcts."""
    if "yard_logic32" in yard:
        return float(yard["yard_logic32"])
    if "yard_score" in yard:
        return float(yard["yard_score"])
    return (float(yard["yard_random_score"]) + float(yard["yard_mcts_score"])) / 2


class TDLeafRecipe(Recipe):
    """An evaluation network at the leaves of alpha-beta, trained by TDLeaf(lambda) self-play."""

    name = "td-leaf"
    default_name = "td-leaf"
    schema = SCHEMA
    fitness_name = "strength"
    report_files = Blondie24Recipe.report_files

    def __init__(self, cfg: dict):
        super().__init__(cfg)
        self.game, self.depth, self.sizes, self.n_weights = searched_network(cfg)
        # K where the game's views hold kings as +-2 (checkers); elsewhere a 2 enters as 2, as the
        # network plays as a player file (``blondie24.play.net_player``): trained as it will play
        self.king = cfg["network"]["king"] if capability(resolve_game(self.game), "king_inputs") else NO_KINGS
        self.toolbox = base.Toolbox()
        self.toolbox.register("map", map)

    #: Deepest self-play search of a game without a compiled network search: its principal
    #: variations are found by the search in Python (checkers' compiled one goes to 12, as Blondie24's).
    MAX_PYTHON_DEPTH = 6

    @classmethod
    def check(cls, cfg: dict):
        compiled = capability(resolve_game(cfg["game"]["name"]), "network_search") is not None
        if not compiled and cfg["game"]["depth"] > cls.MAX_PYTHON_DEPTH:
            raise ConfigError(f"config key 'game.depth' must be at most {cls.MAX_PYTHON_DEPTH} for td-leaf on a game "
                              "without a compiled network search: its self-play searches in Python")

    def generation_work(self) -> float:
        return float(self.cfg["training"]["games"] * capability(resolve_game(self.game), "work_per_game"))

    def run_facts(self) -> dict:
        digest = game_digest(self.game)
        c = self.cfg
        return {"game": self.game, **({"game_sha256": digest} if digest else {}), "depth": self.depth,
                "weights": self.n_weights, "games_played": c[""]["trials"] * c[""]["generations"] * c["training"]["games"]}

    # -- a trial
    def start(self, ctx: Context) -> dict:
        scale, wired = self.cfg["network"]["init_scale"], self.cfg["network"]["sum_weight"]
        genome = ctx.stream(INIT).uniform(-scale, scale, self.n_weights)
        if wired != DRAWN:  # the weight of the views' sum, wired to the output (the last weight)
            genome[-1] = float(wired)
        return {"genome": genome, "yard": {}}

    def step(self, state: dict, ctx: Context) -> dict:
        self.toolbox.register("map", ctx.map)
        t = self.cfg["training"]
        seed = int(ctx.stream(GAMES).integers(2**63))
        net = Net(state["genome"], self.sizes, self.king)
        step = batch_step(self.game, net, self.depth, t["lambda"], seed, ctx.bounds(t["games"]), t["random_plies"],
                          t["explore"], self.cfg["game"]["max_plies"], self.toolbox.map)
        alpha = self.alpha(ctx.generation)
        if t["sum_weight_fixed"]:  # the views' sum keeps its starting weight (network.sum_weight)
            step[-1] = 0.0
        state["genome"] = state["genome"] + alpha * step
        best = Net(state["genome"], self.sizes, self.king)
        view = _Judged(self)
        state["yard"] = yardstick.measure(view, best, ctx, state["yard"])
        figure = strength(state["yard"])
        return {"gen": ctx.generation, "max": figure, "mean": figure, "min": figure,
                "step_size": alpha * math.sqrt(math.fsum(x * x for x in step)), **state["yard"]}

    def alpha(self, generation: int) -> float:
        """The step size of generation ``generation`` (from 1): ``training.alpha``, or with
        ``training.alpha_halflife = H`` that divided by 1 + (generation - 1) / H (half of it after H
        generations, a third after 2H: the harmonic decay of stochastic approximation)."""
        t = self.cfg["training"]
        return t["alpha"] / (1 + (generation - 1) / t["alpha_halflife"]) if t["alpha_halflife"] else t["alpha"]

    # -- plain data
    def to_data(self, state: dict) -> dict:
        return {"genome": [float(x) for x in state["genome"]], "yard": dict(state["yard"])}

    def from_data(self, data: dict) -> dict:
        return {"genome": np.array(data["genome"], dtype=np.float64), "yard": dict(data["yard"])}

    def finish(self, state: dict, trial: int, logbook: list[dict]) -> tuple[dict, dict]:
        net = Net(state["genome"], self.sizes, self.king)
        c = self.cfg
        provenance = {"config": c[""]["name"], "seed": c[""]["seed"], "trial": trial, "generation": logbook[-1]["gen"],
                      "method": "td-leaf", "games": logbook[-1]["gen"] * c["training"]["games"],
                      "alpha": c["training"]["alpha"], "lambda": c["training"]["lambda"]}
        facts = {**yardstick.champion_facts(_Judged(self), net),
                 **({"champion_" + k.removeprefix("yard_"): v for k, v in state["yard"].items()}
                    if yardstick.by_matches(self) else {}),
                 "final_max": logbook[-1]["max"], "final_mean": logbook[-1]["mean"]}
        return network_document(self.game, self.sizes, self.depth, net.genome, net.king, provenance), facts

    def judged(self) -> "_Judged":
        """The recipe as Blondie24's judging reads one (``report --depths``, ``--versus``)."""
        return _Judged(self)

    # a champion is a Blondie24 network file: reported, analysed and dueled as one
    def report(self, run_dir) -> list[str]:
        return Blondie24Recipe.report(_Judged(self), run_dir)

    def champion_analysis(self, champion: dict) -> dict:
        return Blondie24Recipe.champion_analysis(self, champion)

    def trial_measures(self) -> dict[str, str]:
        """Blondie24's: each trial's champion against piece difference at the run's depth, so a
        study compares a TDLeaf run with evolution's on the same games."""
        return Blondie24Recipe.trial_measures(_Judged(self))

    def reported_measures(self, run_dir) -> dict[str, dict]:
        """Blondie24's: each trial's champion in each duel ``evoplay report`` wrote (``duels.json``)."""
        from evoplay.recipes.blondie24.duels import measures

        scored = self.trial_measures() and self.cfg["yardstick"]["openings"] == 0
        return measures(run_dir, self.depth if scored else None)

    def duel(self, first: dict, second: dict, openings: int, seed: int) -> dict:
        return Blondie24Recipe.duel(self, first, second, openings, seed)


class _Judged:
    """The recipe as Blondie24's yardstick reads one: its game, sizes, depth, map and a config
    whose search extends no captures (a trained network searches a fixed depth)."""

    def __init__(self, recipe: TDLeafRecipe):
        self.game, self.sizes, self.depth, self.toolbox = recipe.game, recipe.sizes, recipe.depth, recipe.toolbox
        self.cfg = {**recipe.cfg, "game": {**recipe.cfg["game"], "quiescence": False}}
