"""DEAP's OneMax with ``eaSimple``, its evaluations spread over Ray by ``evoplay.RayMap``.

The classic example from DEAP's documentation with one line changed: the toolbox's map.
Run it with ``python examples/onemax_ray.py`` (embedded Ray on this machine), or with
``RAY_ADDRESS=HEAD:6379`` set to use a cluster. With ``--seed`` fixed, the result is the
same on any number of workers: DEAP's operators draw from ``random``, seeded here, and
only the evaluation (a pure function of the individual) runs remotely.
"""

import argparse
import random

import numpy as np
from deap import algorithms, base, creator, tools

import evoplay

creator.create("FitnessMax", base.Fitness, weights=(1.0,))
creator.create("Individual", list, fitness=creator.FitnessMax)


def eval_one_max(individual):
    """The number of ones: a pure function, so it can run anywhere."""
    return (sum(individual),)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=64)
    ap.add_argument("--generations", type=int, default=40)
    ap.add_argument("--workers", type=int, default=None, help="CPUs of embedded Ray (default: all)")
    args = ap.parse_args(argv)

    random.seed(args.seed)
    toolbox = base.Toolbox()
    toolbox.register("attr_bool", random.randint, 0, 1)
    toolbox.register("individual", tools.initRepeat, creator.Individual, toolbox.attr_bool, 100)
    toolbox.register("population", tools.initRepeat, list, toolbox.individual)
    toolbox.register("evaluate", eval_one_max)
    toolbox.register("mate", tools.cxTwoPoint)
    toolbox.register("mutate", tools.mutFlipBit, indpb=0.05)
    toolbox.register("select", tools.selTournament, tournsize=3)

    evoplay.init_ray(workers=args.workers)
    toolbox.register("map", evoplay.RayMap())  # the one line that makes it distributed

    pop = toolbox.population(n=300)
    hof = tools.HallOfFame(1)
    stats = tools.Statistics(lambda ind: ind.fitness.values)
    stats.register("avg", np.mean)
    stats.register("max", np.max)
    pop, log = algorithms.eaSimple(pop, toolbox, cxpb=0.5, mutpb=0.2, ngen=args.generations,
                                   stats=stats, halloffame=hof, verbose=False)
    print(f"best individual: {sum(hof[0])} ones of 100 after {args.generations} generations")
    print(f"max fitness per generation: {' '.join(str(int(r['max'])) for r in log)}")
    evoplay.shutdown_ray()
    return pop, log, hof


if __name__ == "__main__":
    main()
