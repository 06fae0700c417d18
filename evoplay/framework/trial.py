"""One trial of a recipe driven in this process, generation by generation.

The runner's segment tasks use it on Ray workers; a user can use it directly for a trial
without Ray or a run directory. It owns the trial's DEAP Logbook and hands the recipe a
``Context`` per generation (streams keyed by (trial, generation, purpose), the map).
"""

from __future__ import annotations

from deap import tools

from evoplay.errors import EvoplayError
from evoplay.framework.recipe import Context, Recipe, TrialState
from evoplay.framework.streams import Streams


class TrialRun:
    """One trial of a recipe, driven in this process: ``step()`` runs one generation.

    The segment tasks of a run use it; so can a user who wants a trial without Ray or a
    run directory (``map_fn`` defaults to the builtin ``map``).
    """

    def __init__(self, recipe: Recipe, trial: int, data: dict | None = None, map_fn=map, chunks: int = 1, detail=None):
        self.recipe = recipe
        self.seed = recipe.cfg[""]["seed"]
        self.map_fn, self.chunks, self.detail = map_fn, max(1, chunks), detail
        self.logbook = tools.Logbook()
        if data is None:
            state = recipe.start(Context(Streams(self.seed, trial, 0), map_fn, self.chunks))
            self.trial = TrialState(trial, 0, state, self.logbook)
        else:
            try:
                state = recipe.from_data(data["state"])
                records = [dict(rec) for rec in data["logbook"]]
                if [r.get("gen") for r in records] != list(range(1, data["generation"] + 1)):
                    raise ValueError("its logbook does not count generations 1..N")
            except EvoplayError:
                raise
            except (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError) as e:
                raise EvoplayError(f"the state of trial {trial} does not fit recipe {type(recipe).__name__}: "
                                   f"{type(e).__name__}: {str(e)[:200]}") from None
            for rec in records:
                self.logbook.record(**rec)
            self.trial = TrialState(trial, data["generation"], state, self.logbook)

    @property
    def generation(self) -> int:
        return self.trial.generation

    def step(self) -> dict:
        """Run the next generation; return its logbook record."""
        gen = self.trial.generation + 1
        ctx = Context(Streams(self.seed, self.trial.trial, gen), self.map_fn, self.chunks, self.detail)
        record = self.recipe.step(self.trial.state, ctx)
        if not isinstance(record, dict) or record.get("gen") != gen or "max" not in record:
            raise EvoplayError(f"recipe {type(self.recipe).__name__}.step must return a dict with 'gen' = {gen} and 'max'")
        self.logbook.record(**record)
        self.trial.generation = gen
        return record

    def run(self, until: int):
        """Run generations until ``until`` have been completed."""
        while self.trial.generation < until:
            self.step()
        return self

    def finish(self) -> tuple[dict, dict]:
        """The trial's end as its recipe concludes it: (champion document, facts); see ``Recipe.finish``."""
        return self.recipe.finish(self.trial.state, self.trial.trial, [dict(r) for r in self.logbook])

    def to_data(self) -> dict:
        return {
            "trial": self.trial.trial,
            "generation": self.trial.generation,
            "logbook": [dict(r) for r in self.logbook],
            "state": self.recipe.to_data(self.trial.state),
        }
