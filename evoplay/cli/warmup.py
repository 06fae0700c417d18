"""Fill numba's cache once (``make setup``), so no run and no Ray worker pays compile time."""

from __future__ import annotations

import time

from evoplay.arena.game import capability
from evoplay.framework import config
from evoplay.framework.trial import TrialRun
from evoplay.games import BUILTIN_GAMES, resolve_game


def warm_compiled_code() -> float:
    """Compile (or load) every compiled kernel the built-in recipes use, filling numba's cache,
    and each built-in game's own (its ``warm_up``: checkers' engine and searches).

    ``make setup`` calls this once, so neither the first run on a fresh machine nor any
    Ray worker pays compile time (numba writes its cache next to the modules). Returns the
    seconds it took.
    """
    from evoplay.framework.runner import make_recipe

    t = time.perf_counter()
    for name in ("fogel1993", "fogel-exact-sa-h30", "coevolution-hof", "ga-value-net", "blondie24-tiny"):
        cfg = config.override(config.load(name), generations=1, trials=1)
        TrialRun(make_recipe(cfg), 0).run(1)
    for name in BUILTIN_GAMES:
        warm = capability(resolve_game(name), "warm_up")
        if warm is not None:
            warm()
    return time.perf_counter() - t
