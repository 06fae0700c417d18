"""ga-value-net: a value network whose weights a genetic algorithm evolves (SPEC §3, second recipe).

Network: 9 inputs, one tanh hidden layer of ``hidden`` units, one tanh output. It scores
the board after each candidate move, seen by the player who just moved (own marks +1,
other's -1, empty 0); the player takes the best (ties: the lowest square).

Genetic algorithm (DEAP toolbox, operators drawing from an explicit numpy Generator):
a genome is the flat list of weights; two-point crossover, Gaussian mutation, tournament
selection, a few elites copied unchanged. Fitness is the total payoff of 100 games against
an opponent (default ``logic``), the network moving first; the games run in the batched
engine with uniforms drawn from ``SeedSequence(seed, spawn_key=(EVAL, generation, index))``,
so a result never depends on how ``toolbox.map`` spreads the work. Every individual is
re-evaluated each generation (the fitness is noisy). The champion is the member of the
last population or of the hall of fame with the highest *exact* expected payoff against
the opponent.
"""

from __future__ import annotations


import numpy as np
from deap import base, tools

from evoplay.tictactoe import board as B
from evoplay.tictactoe import engine
from evoplay.errors import EvoplayError
from evoplay.tictactoe.exact import FOGEL_PAYOFF, expected_payoff
from evoplay.tictactoe.mlp import MLP, Dense, Tanh
from evoplay.tictactoe.playerfile import arch_int
from evoplay.tictactoe.players import make_player
from evoplay.tictactoe.trained import GreedyPlayer, Trained, exact_results, figure, greedy_player, just_moved, mlp_from_weights, save_figure

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
# SeedSequence spawn keys by purpose.
VARIATION, EVAL = 0, 1


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
    return B.perspective(codes, just_moved(codes))


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


def eval_task(task, hidden: int, opponent: str, games: int, payoff, seed: int):
    """Fitness of one genome: payoff over ``games`` games as X against ``opponent``.

    ``task`` is ``(genome, generation, index)``; the games' uniforms depend only on the run
    seed, the generation and the index.
    """
    genome, generation, index = task
    seq = np.random.SeedSequence(seed, spawn_key=(EVAL, generation, index))
    u = np.random.default_rng(seq).random((games, 9))
    net = GreedyPlayer(KIND, score_fn(net_from_genome(genome, hidden)))
    result = engine.play(net, make_player(opponent), u)
    win, draw, loss = payoff
    return (
        float(win * (result == B.X_WIN).sum() + draw * (result == B.DRAW).sum() + loss * (result == B.O_WIN).sum()),
    )


def make_toolbox(settings: dict, seed: int, rng: np.random.Generator, map_fn=map) -> base.Toolbox:
    """The DEAP toolbox of a run; ``map_fn`` is where evaluation fans out (e.g. on Ray)."""
    s = settings
    tb = base.Toolbox()
    tb.register("individual", init_individual, n_genes(s["hidden"]), rng, s["init_scale"])
    tb.register("mate", cx_two_point, rng=rng)
    tb.register("mutate", mut_gaussian, rng=rng, sigma=s["sigma"], indpb=s["indpb"])
    tb.register("select", sel_tournament, rng=rng, tournsize=s["tournsize"])
    tb.register(
        "evaluate", eval_task, hidden=s["hidden"], opponent=s["opponent"], games=s["games"],
        payoff=tuple(s["payoff"]), seed=seed,
    )
    tb.register("map", map_fn)
    return tb


def evaluate(toolbox, population, generation: int) -> None:
    tasks = [(list(ind), generation, i) for i, ind in enumerate(population)]
    for ind, fit in zip(population, toolbox.map(toolbox.evaluate, tasks)):
        ind.fitness.values = tuple(fit)


def check_settings(settings: dict) -> dict:
    s = {**DEFAULTS, **settings}
    unknown = sorted(set(settings) - set(DEFAULTS))
    if unknown:
        raise EvoplayError(f"ga-value-net: unknown setting(s) {', '.join(unknown)}")
    for key, lo in (("hidden", 1), ("population", 2), ("generations", 0), ("games", 1), ("tournsize", 1), ("elite", 0)):
        if not isinstance(s[key], int) or s[key] < lo:
            raise EvoplayError(f"ga-value-net: {key} must be an integer >= {lo}, got {s[key]!r}")
    if s["elite"] >= s["population"]:
        raise EvoplayError("ga-value-net: elite must be smaller than population")
    for key in ("cxpb", "mutpb", "indpb"):
        if not 0.0 <= s[key] <= 1.0:
            raise EvoplayError(f"ga-value-net: {key} must be in [0, 1], got {s[key]!r}")
    if not len(s["payoff"]) == 3:
        raise EvoplayError("ga-value-net: payoff needs three numbers (win, draw, loss)")
    make_player(s["opponent"])  # a bad spec fails now, not inside a worker
    return s


def train(seed: int = 0, map_fn=map, progress: bool = False, **settings) -> Trained:
    """Evolve a value network; ``settings`` override ``DEFAULTS``; see the module doc."""
    from tqdm import tqdm

    s = check_settings(settings)
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(VARIATION,)))
    tb = make_toolbox(s, seed, rng, map_fn)
    stats = tools.Statistics(lambda ind: ind.fitness.values[0])
    for name, fn in (("max", np.max), ("mean", np.mean), ("min", np.min), ("std", np.std)):
        stats.register(name, fn)
    logbook = tools.Logbook()
    logbook.header = ["gen", "evals", "max", "mean", "min", "std"]
    hof = tools.HallOfFame(5)

    pop = [tb.individual() for _ in range(s["population"])]
    evaluate(tb, pop, 0)
    hof.update(pop)
    logbook.record(gen=0, evals=len(pop), **stats.compile(pop))
    for gen in tqdm(range(1, s["generations"] + 1), unit="gen", desc=KIND, disable=not progress):
        elites = [tb.clone(ind) for ind in tools.selBest(pop, s["elite"])]
        offspring = [tb.clone(ind) for ind in tb.select(pop, len(pop) - s["elite"])]
        for i in range(1, len(offspring), 2):
            if rng.random() < s["cxpb"]:
                tb.mate(offspring[i - 1], offspring[i])
        for ind in offspring:
            if rng.random() < s["mutpb"]:
                tb.mutate(ind)
        pop = elites + offspring
        evaluate(tb, pop, gen)
        hof.update(pop)
        logbook.record(gen=gen, evals=len(pop), **stats.compile(pop))

    opponent = make_player(s["opponent"])
    candidates = list(pop) + list(hof)
    payoff = tuple(s["payoff"])
    exact = [expected_payoff(player_from_net(net_from_genome(c, s["hidden"])), opponent, payoff) for c in candidates]
    best = int(np.argmax(exact))
    net = net_from_genome(candidates[best], s["hidden"])
    player = player_from_net(net)
    settings_out = {k: (list(v) if isinstance(v, tuple) else v) for k, v in s.items()}
    metrics = {
        "settings": settings_out,
        "final_max_fitness": float(logbook[-1]["max"]),
        "final_mean_fitness": float(logbook[-1]["mean"]),
        "champion_exact_payoff": float(exact[best]),
        "exact": exact_results(player),
    }
    history = {k: [float(v) for v in logbook.select(k)] for k in ("max", "mean", "min", "std")}
    history["gen"] = logbook.select("gen")
    return Trained(KIND, architecture(s["hidden"]), net.weights(), player, history, metrics)


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
