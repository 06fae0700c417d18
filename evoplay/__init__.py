"""evoplay: distributed evolutionary computation on DEAP and Ray.

The public API (``evoplay.__all__``):

- ``RayMap``: a drop-in for DEAP's ``toolbox.register("map", ...)`` that runs chunks of
  any map as Ray tasks (ordered, retried on worker death, the user's exception re-raised);
  ``init_ray``/``shutdown_ray`` start or join Ray.
- ``stream``/``Streams``: random streams keyed by (trial, generation, purpose).
- ``Recipe``/``Context``: the recipe interface; ``FogelRecipe``, ``GAValueNetRecipe``.
- ``run``/``resume``: a recipe into a run directory on Ray; ``load_run``: read one back;
  ``TrialRun``: one trial in this process; ``load_config``/``resolve_config``.
- ``make_player``/``Player``/``TablePlayer``/``load_player``/``save_player``: players;
  ``outcome``/``expected_payoff``/``best_response_payoff``/``unbeatable``/
  ``minimax_agreement``: exact analysis.

Names are imported on first use, so ``import evoplay`` stays light (Ray loads only when
a Ray-backed name is used).
"""

__version__ = "0.1.0"

import importlib as _importlib

_EXPORTS = {
    "RayMap": "evoplay.framework.distributed",
    "init_ray": "evoplay.framework.distributed",
    "shutdown_ray": "evoplay.framework.distributed",
    "stream": "evoplay.framework.streams",
    "Streams": "evoplay.framework.streams",
    "Recipe": "evoplay.framework.recipe",
    "Context": "evoplay.framework.recipe",
    "run": "evoplay.framework.runner",
    "resume": "evoplay.framework.runner",
    "TrialRun": "evoplay.framework.trial",
    "load_run": ("evoplay.framework.rundir", "Run"),
    "Run": "evoplay.framework.rundir",
    "load_config": ("evoplay.framework.config", "load"),
    "resolve_config": ("evoplay.framework.config", "resolve"),
    "FogelRecipe": "evoplay.recipes.fogel.recipe",
    "GAValueNetRecipe": "evoplay.recipes.ga_value_net",
    "make_player": "evoplay.tictactoe.players",
    "Player": "evoplay.tictactoe.players",
    "TablePlayer": "evoplay.tictactoe.players",
    "load_player": "evoplay.files.playerfile",
    "save_player": "evoplay.files.playerfile",
    "outcome": "evoplay.tictactoe.exact",
    "expected_payoff": "evoplay.tictactoe.exact",
    "best_response_payoff": "evoplay.tictactoe.exact",
    "unbeatable": "evoplay.tictactoe.exact",
    "minimax_agreement": "evoplay.tictactoe.exact",
    "EvoplayError": "evoplay.errors",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name):
    target = _EXPORTS.get(name)
    if target is None:
        raise AttributeError(f"module 'evoplay' has no attribute {name!r}")
    module, attr = target if isinstance(target, tuple) else (target, name)
    value = getattr(_importlib.import_module(module), attr)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
