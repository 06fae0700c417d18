"""ga-value-net: a value network whose weights a genetic algorithm evolves (a recipe on the runner).

Network: 9 inputs, one tanh hidden layer of ``hidden`` units, one tanh output. It scores
the board after each candidate move, seen by the player who just moved (own marks +1,
other's -1, empty 0); the player takes the best (ties: the lowest square).

Genetic algorithm (DEAP toolbox, operators drawing from an explicit numpy Generator):
a genome is the flat list of weights; two-point crossover, Gaussian mutation, tournament
selection, a few elites copied unchanged. Fitness is the total payoff of 100 games against
an opponent (default ``logic``), the network moving first; the games run in the batched
engine, individual ``i`` drawing its uniforms from row ``i`` of the generation's EVALUATE
stream, so a result never depends on how ``toolbox.map`` spreads the work. Every
individual is re-evaluated each generation (the fitness is noisy). The champion is the
member of the last population or of the hall of fame with the highest *exact* expected
payoff against the opponent.

``evoplay evolve`` runs it from a config (``recipe = "ga-value-net"``, section ``[ga]``);
``evoplay train ga-value-net`` runs one trial of it in this process (or with its
evaluation on Ray) and saves the champion as a player file.
"""

from __future__ import annotations

import functools

import numpy as np
from deap import base, tools

from evoplay.errors import ConfigError, EvoplayError
from evoplay.framework import config
from evoplay.framework.recipe import Context, Recipe
from evoplay.framework.streams import EVALUATE, INIT, VARIATE, stream
from evoplay.framework.trial import TrialRun
from evoplay.recipes.fogel.schema import check_player_spec, spec_files
from evoplay.tictactoe import board
from evoplay.tictactoe import engine
from evoplay.tictactoe.exact import FOGEL_PAYOFF, expected_payoff
from evoplay.tictactoe.mlp import MLP, Dense, Tanh
from evoplay.files.playerfile import arch_int, player_document
from evoplay.tictactoe.players import make_player, provide_files
from evoplay.tictactoe.trained.common import GreedyPlayer, Trained, exact_results, figure, greedy_player, just_moved, mlp_from_weights, save_figure

KIND = "ga-value-net"
DEFAULTS = {
    "hidden": 9,
    "population": 50,
    "generations": 200,
    "games": 100,
    "opponent": "logic",
    "payoff": FOGEL_PAYOFF,
    "cxpb": 0.5,
    "mutpb": 0.5,
    "sigma": 0.2,
    "indpb": 0.1,
    "tournsize": 3,
    "elite": 2,
    "init_scale": 1.0,
}


class Fitness(base.Fitness):
    """Single objective, maximised. Defined at module level so individuals pickle."""

    weights = (1.0,)


class Individual(list):
    """A genome (flat list of weights) carrying its fitness, like ``creator.create`` makes."""

    def __init__(self, genes=()):
        super().__init__(genes)
        self.fitness = Fitness()


def n_genes(hidden: int) -> int:
    return 9 * hidden + hidden + hidden + 1


def net_from_genome(genome, hidden: int) -> MLP:
    """The 9-hidden-1 tanh network encoded by a flat genome (W0, b0, W1, b1 in order)."""
    g = np.asarray(genome, dtype=np.float64)
    if g.shape != (n_genes(hidden),):
        raise ValueError(f"genome of {g.size} genes for hidden={hidden} (needs {n_genes(hidden)})")
    a, b, c = 9 * hidden, 10 * hidden, 11 * hidden
    params = [g[:a].reshape(9, hidden), g[a:b], g[b:c].reshape(hidden, 1), g[c:]]
    return MLP([Dense(9, hidden), Tanh(), Dense(hidden, 1), Tanh()], params)


def encode(codes) -> np.ndarray:
    """Inputs of boards seen by the player who just moved: own +1, other -1, empty 0."""
    return board.perspective(codes, just_moved(codes))


def score_fn(net: MLP):
    return lambda kids: net.forward(encode(kids))[:, 0]


def player_from_net(net: MLP, spec: str = KIND):
    return greedy_player(spec, score_fn(net))


# ---------------------------------------------------------------- operators


def init_individual(size: int, rng: np.random.Generator, scale: float) -> Individual:
    """Genes uniform in [-scale, scale]."""
    return Individual(rng.uniform(-scale, scale, size).tolist())


def cx_two_point(ind1, ind2, rng: np.random.Generator):
    """Swap the genes between two cut points (``tools.cxTwoPoint`` with an explicit rng)."""
    size = min(len(ind1), len(ind2))
    a, b = np.sort(rng.choice(np.arange(1, size + 1), 2, replace=False))
    ind1[a:b], ind2[a:b] = ind2[a:b], ind1[a:b]
    return ind1, ind2


def mut_gaussian(ind, rng: np.random.Generator, sigma: float, indpb: float):
    """Add N(0, sigma^2) to each gene with probability ``indpb`` (``tools.mutGaussian``)."""
    hit = rng.random(len(ind)) < indpb
    noise = rng.normal(0.0, sigma, len(ind))
    for i in np.flatnonzero(hit):
        ind[i] += float(noise[i])
    return (ind,)


def sel_tournament(individuals, k: int, rng: np.random.Generator, tournsize: int):
    """``k`` winners of tournaments among ``tournsize`` aspirants drawn with replacement."""
    chosen = []
    for _ in range(k):
        aspirants = rng.integers(0, len(individuals), tournsize)
        best = max(aspirants, key=lambda i: (individuals[i].fitness, -i))
        chosen.append(individuals[best])
    return chosen


def eval_task(task, hidden: int, opponent: str, games: int, payoff):
    """Fitness of one genome: payoff over ``games`` games as X against ``opponent``.

    ``task`` is ``(genome, (seed, trial, generation), index)``: the games use row ``index``
    of the generation's EVALUATE stream, whoever evaluates them.
    """
    genome, key, index = task
    u = stream(*key, EVALUATE, skip=int(index) * games * 9).random((games, 9))
    net = GreedyPlayer(KIND, score_fn(net_from_genome(genome, hidden)))
    result = engine.play(net, make_player(opponent), u)
    win, draw, loss = payoff
    return (
        float(win * (result == board.X_WIN).sum() + draw * (result == board.DRAW).sum() + loss * (result == board.O_WIN).sum()),
    )


def make_toolbox(s: dict) -> base.Toolbox:
    """The DEAP toolbox of the recipe; operators take the generation's rng, ``map`` is set per generation."""
    tb = base.Toolbox()
    tb.register("individual", init_individual, n_genes(s["hidden"]), scale=s["init_scale"])
    tb.register("mate", cx_two_point)
    tb.register("mutate", mut_gaussian, sigma=s["sigma"], indpb=s["indpb"])
    tb.register("select", sel_tournament, tournsize=s["tournsize"])
    tb.register("evaluate", eval_task, hidden=s["hidden"], opponent=s["opponent"], games=s["games"],
                payoff=(s["payoff_win"], s["payoff_draw"], s["payoff_loss"]))
    return tb


SCHEMA = {
    "ga": {
        "hidden": (int, 9, config.in_range(1, 64)),
        "population": (int, 50, config.in_range(2, 100_000)),
        "games": (int, 100, config.in_range(1, 100_000)),
        "opponent": (str, "logic", (check_player_spec, "a player spec")),
        "payoff_win": (float, FOGEL_PAYOFF[0], config.in_range(-1e6, 1e6)),
        "payoff_draw": (float, FOGEL_PAYOFF[1], config.in_range(-1e6, 1e6)),
        "payoff_loss": (float, FOGEL_PAYOFF[2], config.in_range(-1e6, 1e6)),
        "cxpb": (float, 0.5, config.in_range(0.0, 1.0)),
        "mutpb": (float, 0.5, config.in_range(0.0, 1.0)),
        "sigma": (float, 0.2, config.in_range(0.0, 1e3)),
        "indpb": (float, 0.1, config.in_range(0.0, 1.0)),
        "tournsize": (int, 3, config.in_range(1, 1000)),
        "elite": (int, 2, config.in_range(0, 100_000)),
        "init_scale": (float, 1.0, config.in_range(0.0, 1e3)),
    }
}


def _stats() -> tools.Statistics:
    stats = tools.Statistics(lambda ind: ind.fitness.values[0])
    for name, fn in (("max", np.max), ("mean", np.mean), ("min", np.min), ("std", np.std)):
        stats.register(name, fn)
    return stats


class GAValueNetRecipe(Recipe):
    """A genetic algorithm (DEAP) evolving the weights of a fixed-topology value network."""

    name = "ga-value-net"
    default_name = "ga-value-net"
    fitness_name = "payoff"
    schema = SCHEMA

    def __init__(self, cfg: dict):
        super().__init__(cfg)
        self.s = cfg["ga"]
        self.toolbox = make_toolbox(self.s)
        self.stats = _stats()

    @classmethod
    def check(cls, cfg: dict):
        if cfg["ga"]["elite"] >= cfg["ga"]["population"]:
            raise ConfigError("config key 'ga.elite' must be smaller than 'ga.population'")

    def generation_work(self) -> float:
        return self.s["population"] * self.s["games"]

    def ship(self) -> dict:
        return {"player_files": spec_files([self.s["opponent"]])}

    @classmethod
    def receive(cls, data: dict):
        provide_files(data.get("player_files", {}))

    def _evaluate(self, population, ctx: Context):
        tasks = [(list(ind), ctx.streams.key, i) for i, ind in enumerate(population)]
        size = -(-len(tasks) // max(1, ctx.chunks))
        chunks = [tasks[i : i + size] for i in range(0, len(tasks), size)]
        fits = ctx.map(functools.partial(_eval_many, evaluate=self.toolbox.evaluate), chunks)
        for ind, fit in zip(population, (f for part in fits for f in part)):
            ind.fitness.values = tuple(fit)

    def start(self, ctx: Context) -> dict:
        rng = ctx.stream(INIT)
        pop = [self.toolbox.individual(rng) for _ in range(self.s["population"])]
        self._evaluate(pop, ctx)
        hof = tools.HallOfFame(5)
        hof.update(pop)
        return {"population": pop, "hof": hof}

    def step(self, state: dict, ctx: Context) -> dict:
        s, tb, rng = self.s, self.toolbox, ctx.stream(VARIATE)
        pop = state["population"]
        elites = [tb.clone(ind) for ind in tools.selBest(pop, s["elite"])]
        offspring = [tb.clone(ind) for ind in tb.select(pop, len(pop) - s["elite"], rng)]
        for i in range(1, len(offspring), 2):
            if rng.random() < s["cxpb"]:
                tb.mate(offspring[i - 1], offspring[i], rng)
        for ind in offspring:
            if rng.random() < s["mutpb"]:
                tb.mutate(ind, rng)
        pop = elites + offspring
        self._evaluate(pop, ctx)
        state["hof"].update(pop)
        state["population"] = pop
        return {"gen": ctx.generation, "evals": len(pop), **{k: float(v) for k, v in self.stats.compile(pop).items()}}

    def to_data(self, state: dict) -> dict:
        def ind(i):
            return {"genes": list(i), "fitness": list(i.fitness.values)}

        return {"population": [ind(i) for i in state["population"]], "hof": [ind(i) for i in state["hof"]]}

    def from_data(self, data: dict) -> dict:
        size = n_genes(self.s["hidden"])

        def ind(d):
            genes = [float(g) for g in d["genes"]]
            if len(genes) != size or not np.isfinite(genes).all():
                raise EvoplayError(f"a genome in the checkpoint has {len(genes)} genes or a non-finite one (expected {size})")
            out = Individual(genes)
            out.fitness.values = tuple(float(f) for f in d["fitness"])
            return out

        hof = tools.HallOfFame(5)
        for d in data["hof"]:
            hof.insert(ind(d))
        return {"population": [ind(d) for d in data["population"]], "hof": hof}

    def champion(self, state: dict):
        """(network, exact expected payoff per game, all candidates' exact payoffs) of the best of population and hall of fame."""
        opponent = make_player(self.s["opponent"])
        payoff = (self.s["payoff_win"], self.s["payoff_draw"], self.s["payoff_loss"])
        candidates = list(state["population"]) + list(state["hof"])
        exact = [expected_payoff(player_from_net(net_from_genome(c, self.s["hidden"])), opponent, payoff) for c in candidates]
        best = int(np.argmax(exact))
        return net_from_genome(candidates[best], self.s["hidden"]), float(exact[best])

    def finish(self, state: dict, trial: int, logbook: list[dict]) -> tuple[dict, dict]:
        net, value = self.champion(state)
        provenance = {"config": self.cfg[""]["name"], "seed": self.cfg[""]["seed"], "trial": trial,
                      "generation": logbook[-1]["gen"], "expected_payoff_per_game": value, "settings": dict(self.s)}
        facts = {"champion_expected_payoff_per_game": value, "hall_of_fame_payoff": state["hof"][0].fitness.values[0],
                 "final_max": logbook[-1]["max"], "final_mean": logbook[-1]["mean"]}
        return player_document(KIND, architecture(self.s["hidden"]), net.weights(), provenance), facts

    def score(self, facts: dict) -> float:
        return facts["champion_expected_payoff_per_game"]

    def duel(self, first: dict, second: dict, openings: int, seed: int) -> dict:
        """Two champions of this run against each other, for a league (``evoplay.recipes.duel``)."""
        from evoplay.recipes.duel import duel

        return duel(self.game, first, second, openings, seed)


def _eval_many(chunk, evaluate):
    """A chunk of fitness evaluations (one ``toolbox.map`` item)."""
    return [evaluate(task) for task in chunk]


def check_settings(settings: dict) -> dict:
    """Settings of ``train`` (``[ga]`` keys plus ``generations``) checked like a config."""
    unknown = sorted(set(settings) - set(SCHEMA["ga"]) - {"generations", "payoff"})
    if unknown:
        raise EvoplayError(f"ga-value-net: unknown setting(s) {', '.join(unknown)}")
    return settings


def train(seed: int = 0, map_fn=map, progress: bool = False, **settings) -> Trained:
    """Evolve a value network: one trial of the recipe in this process; see the module doc.

    ``settings`` are ``[ga]`` config keys plus ``generations`` (default 200); with
    ``map_fn`` a ``RayMap``, evaluation fans out on Ray.
    """
    from tqdm import tqdm

    ga = dict(check_settings(settings))
    generations = ga.pop("generations", 200)
    if "payoff" in ga:
        ga["payoff_win"], ga["payoff_draw"], ga["payoff_loss"] = ga.pop("payoff")
    cfg = config.resolve({"recipe": "ga-value-net", "seed": seed, "trials": 1, "generations": generations, "ga": ga})
    recipe = GAValueNetRecipe(cfg)
    chunks = 1 if map_fn is map else recipe.s["population"]  # a RayMap groups them per CPU
    run = TrialRun(recipe, 0, map_fn=map_fn, chunks=chunks)
    for _ in tqdm(range(generations), unit="gen", desc=KIND, disable=not progress):
        run.step()
    net, value = recipe.champion(run.trial.state)
    player = player_from_net(net)
    rows = [dict(r) for r in run.logbook]
    settings_out = {**recipe.s, "generations": generations}
    metrics = {
        "settings": settings_out,
        "final_max_fitness": rows[-1]["max"],
        "final_mean_fitness": rows[-1]["mean"],
        "champion_exact_payoff": value,
        "exact": exact_results(player),
    }
    history = {k: [r[k] for r in rows] for k in ("max", "mean", "min", "std")}
    history["gen"] = [r["gen"] for r in rows]
    return Trained(KIND, architecture(recipe.s["hidden"]), net.weights(), player, history, metrics)


def architecture(hidden: int) -> dict:
    return {"hidden": hidden, "activation": "tanh", "input": "player who just moved: own +1, other -1, empty 0"}


def plot(history: dict, path) -> None:
    """Maximum, mean and minimum fitness per generation."""
    fig, ax = figure("ga-value-net evolution", "generation", "fitness (payoff over the games)")
    ax.plot(history["gen"], history["max"], label="max")
    ax.plot(history["gen"], history["mean"], label="mean")
    ax.plot(history["gen"], history["min"], lw=0.8, alpha=0.6, label="min")
    ax.legend(loc="lower right")
    save_figure(fig, path)


def player_from_file(architecture: dict, weights: dict):
    """Builder for the ``ga-value-net`` player-file kind."""
    hidden = arch_int(architecture, "hidden", 1, 1024)
    return player_from_net(mlp_from_weights(weights, [9, hidden, 1], "tanh", "tanh"))
