"""Benchmarks of the batched engine and the Fogel generation (``evoplay bench``).

Every figure is measured here, now, in this process (CPU time of one core unless said
otherwise); the full-run figure is an estimate from the per-generation time unless the
full experiment is run (``benchmarks/bench_fogel.py --full``).
"""

from __future__ import annotations

import time

import numpy as np

from evoplay.framework import config
from evoplay.framework.trial import TrialRun
from evoplay.recipes.fogel import operators
from evoplay.recipes.fogel.recipe import FogelRecipe
from evoplay.recipes.fogel.nets import init_population
from evoplay.recipes.fogel.reference import evaluate_generation, from_fogel_net

#: Generations in the full Fogel experiment: 20 trials x 800.
FULL_GENERATIONS = 20 * 800


def _timed(fn, repeat: int) -> float:
    """Seconds of CPU time per call (best of three rounds of ``repeat`` calls)."""
    fn()
    best = float("inf")
    for _ in range(3):
        t = time.process_time()
        for _ in range(repeat):
            fn()
        best = min(best, (time.process_time() - t) / repeat)
    return best


def warm_trial(cfg: dict, generations: int = 200) -> TrialRun:
    """A trial of the Fogel recipe evolved for a while, so the networks play like mid-run networks."""
    return TrialRun(FogelRecipe(cfg), 0).run(generations)


def generation_split(cfg: dict, evo: TrialRun, generations: int = 200) -> dict:
    """Milliseconds per generation by part, and in total: medians over real generations (the recipe's ``seconds``).

    The compiled path's parts are ``setup`` (the operators' arguments), ``compiled`` (the
    random numbers drawn, mutation, games, payoffs, tournament, selection's order) and
    ``survivors`` (the objects of the networks that live on, the logbook's figures); the
    general path's are ``mutation``, ``evaluation`` (drawing the games' random numbers
    included) and ``selection``.
    """
    times = []
    for _ in range(generations):  # no hook: a hook would have every network made as an object
        evo.step()
        times.append(evo.recipe.seconds)
    return {f"{k}_ms": 1e3 * float(np.median([t[k] for t in times])) for k in times[0]}


def parts_text(split: dict) -> str:
    """A split's parts in words, largest first: "compiled 0.60 ms, survivors 0.03 ms, ..." (the total left out)."""
    parts = sorted(((v, k[:-3]) for k, v in split.items() if k != "total_ms"), reverse=True)
    return ", ".join(f"{name} {v:.2f} ms" for v, name in parts)


def general_split(cfg: dict, evo: TrialRun, generations: int = 200) -> dict:
    """``generation_split`` of the general path: the same trial continued with an operator swapped for itself."""
    from evoplay.recipes.fogel.nets import mut_population

    recipe = FogelRecipe(cfg)
    recipe.toolbox.register("mutate", mut_population, **recipe.toolbox.mutate.keywords)
    twin = TrialRun(recipe, evo.trial.trial, evo.to_data()).run(evo.generation + 5)  # memos refilled
    return generation_split(cfg, twin, generations)


def _pool(evo: TrialRun):
    parents = evo.trial.state.parents
    return parents + evo.recipe.toolbox.mutate(parents, np.random.default_rng(1), ident0=0)


def raw_evaluation_ms(evo: TrialRun, repeat: int = 50) -> float:
    """One generation's evaluation by the engine alone (uniforms drawn beforehand, no DEAP fitness)."""
    pool = _pool(evo)
    u = np.random.default_rng(2).random((len(pool), evo.recipe.cfg["evaluation"]["games"], 9))
    return 1e3 * _timed(lambda: operators.eval_networks(pool, u, evo.recipe.opponent, evo.recipe.payoff), repeat)


def reference_speedup(cfg: dict, evo: TrialRun, repeat: int = 20) -> dict:
    """One generation's evaluation, batched engine against the per-game Python reference."""
    pool = _pool(evo)
    nets = [from_fogel_net(n) for n in pool]
    games = cfg["evaluation"]["games"]
    t = time.process_time()
    evaluate_generation(nets, games=games, seed=0)
    ref = time.process_time() - t
    u = np.random.default_rng(2).random((len(pool), games, 9))
    ours = _timed(lambda: operators.eval_networks(pool, u, evo.recipe.opponent, evo.recipe.payoff), repeat)
    return {"reference_ms": 1e3 * ref, "engine_ms": 1e3 * ours, "speedup": ref / ours}


def scaling(base: dict, parents=(25, 50, 100, 200), games=(8, 16, 32, 64), repeat: int = 10) -> dict:
    """Evaluation time per generation (engine alone) as population and games grow."""
    out = {"parents": {}, "games": {}}
    for key, values in (("parents", parents), ("games", games)):
        for v in values:
            p = v if key == "parents" else base["population"]["parents"]
            g = v if key == "games" else base["evaluation"]["games"]
            pool = init_population(2 * p, np.random.default_rng(2))
            u = np.random.default_rng(3).random((2 * p, g, 9))
            ev = base["evaluation"]
            out[key][v] = 1e3 * _timed(lambda pool=pool, u=u, ev=ev: operators.eval_networks(pool, u, ev["opponent"]), repeat)
    return out


def _with(cfg: dict, parents=None, games=None) -> dict:
    raw = {k: dict(v) for k, v in cfg.items() if k}
    raw.update(cfg[""])
    if parents:
        raw["population"]["parents"] = parents
    if games:
        raw["evaluation"]["games"] = games
    return config.resolve(raw)


def _silent(stage: str):
    pass


def engine_figures(cfg: dict | None = None, quick: bool = False, progress=_silent) -> dict:
    """Throughput, generation split, speed-up over the reference, scaling, full-run estimate.

    ``progress(stage)`` is called with a few words as each stage begins.
    """
    cfg = cfg or config.defaults()
    progress(f"warming a trial ({50 if quick else 200} generations)")
    evo = warm_trial(cfg, 50 if quick else 200)
    progress(f"timing {100 if quick else 400} generations")
    split = generation_split(cfg, evo, generations=100 if quick else 400)
    progress(f"timing {100 if quick else 400} generations of the general path")
    general = general_split(cfg, evo, generations=100 if quick else 400)
    games_per_gen = 2 * cfg["population"]["parents"] * cfg["evaluation"]["games"]
    full_gens = FULL_GENERATIONS
    progress("timing the engine alone")
    raw = raw_evaluation_ms(evo, repeat=10 if quick else 50)
    progress("timing the per-game Python reference")
    reference = reference_speedup(cfg, evo, repeat=5 if quick else 20)
    result = {
        "games_per_second_per_core": games_per_gen / (split["total_ms"] / 1e3),
        "games_per_second_per_core_engine_alone": games_per_gen / (raw / 1e3),
        "generations_per_second_per_core": 1e3 / split["total_ms"],
        "generation": split,
        "generation_general_path": general,
        "reference": reference,
        "full_run_estimate_s": {"1_core": full_gens * split["total_ms"] / 1e3, "2_cores": full_gens * split["total_ms"] / 2e3},
    }
    if not quick:
        progress("timing evaluation as parents and games grow")
        result["scaling_evaluation_ms"] = scaling(cfg)
    return result


def ray_scaling(trials: int = 4, generations: int = 400, big_parents: int = 2000, progress=_silent) -> dict:
    """Wall seconds with 1 and 2 local Ray workers, for trial-level and evaluation-level fan-out.

    Trial level: ``trials`` small trials. Evaluation level: one trial of a big population
    whose evaluation is split into 1 or 2 chunks per generation.
    """
    import tempfile

    from evoplay.framework import distributed
    from evoplay.framework import runner

    base = config.override(config.defaults(), trials=trials, generations=generations)
    big = _with(config.override(config.defaults(), trials=1, generations=40), parents=big_parents)
    out = {"trial_level": {}, "evaluation_level": {}}
    for workers in (1, 2):
        progress(f"timing Ray runs with {workers} worker{'s' if workers > 1 else ''}")
        with tempfile.TemporaryDirectory() as tmp:
            distributed.init_ray(workers=workers)
            try:
                # Warm the worker processes (imports, tables) before timing.
                runner.evolve(config.override(base, trials=2 * workers, generations=2), f"{tmp}/warm", workers=workers, overwrite=True)
                warm = {**big, "": {**big[""], "generations": 1}, "run": {**big["run"], "eval_chunks": workers}}
                runner.evolve(warm, f"{tmp}/warm", workers=workers, overwrite=True)
                t = time.perf_counter()
                runner.evolve(base, f"{tmp}/trials", workers=workers)
                out["trial_level"][workers] = time.perf_counter() - t
                cfg = {**big, "run": {**big["run"], "eval_chunks": workers}}
                t = time.perf_counter()
                runner.evolve(cfg, f"{tmp}/chunks", workers=workers)
                out["evaluation_level"][workers] = time.perf_counter() - t
            finally:
                distributed.shutdown_ray()
    for level in ("trial_level", "evaluation_level"):
        out[level]["speedup"] = out[level][1] / out[level][2]
    out["setup"] = {"trial_level": f"{trials} trials x {generations} generations, 50 parents",
                    "evaluation_level": f"1 trial x {big['']['generations']} generations, {big_parents} parents"}
    return out
