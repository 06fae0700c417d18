"""Fill numba's cache once (``make setup``), so no run and no Ray worker pays compile time."""

from __future__ import annotations

import importlib.util
import time

from evoplay.framework import config
from evoplay.framework.trial import TrialRun


def warm_compiled_code() -> float:
    """Compile (or load) every compiled kernel the built-in recipes use, filling numba's cache,
    and, where open_spiel is installed, the search that sets checkers positions up for ``openspiel-mcts``.

    ``make setup`` calls this once, so neither the first run on a fresh machine nor any
    Ray worker pays compile time (numba writes its cache next to the modules). Returns the
    seconds it took.
    """
    from evoplay.framework.runner import make_recipe

    t = time.perf_counter()
    from evoplay.checkers import engine as checkers_engine
    from evoplay.checkers import rules as checkers_rules
    from evoplay.checkers import search as checkers_search

    for name in ("fogel1993", "fogel-exact-sa-h30", "coevolution-hof", "ga-value-net", "blondie24-tiny"):
        cfg = config.override(config.load(name), generations=1, trials=1)
        TrialRun(make_recipe(cfg), 0).run(1)
    checkers_engine.perft(*checkers_engine.START, 2)
    checkers_search.search(checkers_rules.initial(), 2)
    if importlib.util.find_spec("pyspiel") is not None:  # an optional extra
        from evoplay.checkers import spielboard

        spielboard.setup(spielboard.cells(checkers_rules.initial()), checkers_rules.BLACK)
    return time.perf_counter() - t
