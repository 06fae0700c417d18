"""The recipe interface: what an evolution algorithm says; the runner does the rest.

A recipe is a small class. The runner gives every recipe alike: trials as chained Ray
tasks, evaluation chunks through the ``map`` it hands over (DEAP's ``toolbox.map``
seam), streams keyed by (trial, generation, purpose), checkpoints and ``--resume`` to
identical bytes, the run directory with logbooks, champions, summary and curve.

A recipe supplies:

- ``schema``: its config sections, ``{section: {key: (type, default, check)}}``;
- ``start(ctx)``: a trial's initial state (its population and anything else it carries)
  drawn from ``ctx.stream(purpose)`` at generation 0;
- ``step(state, ctx)``: one generation (vary, evaluate through ``ctx.map`` in
  ``ctx.chunks`` pieces, select) with the streams of ``ctx``; it updates ``state`` in
  place and returns the generation's logbook record, a dict with at least ``gen`` and
  ``max`` (the curve plots the mean over trials of ``max``);
- ``to_data(state)`` / ``from_data(data)``: the state as plain JSON data and back, exactly
  (a resumed trial must continue bit for bit);
- ``finish(state, trial, logbook)``: at the end of a run, ``(champion, facts)``: the
  champion of the trial as a JSON document (written as ``champion.json``) and the
  trial's line of the summary (a dict; its ``score`` key, if any, ranks the champions);
- optionally ``ship()`` / ``receive(data)``: data a worker needs that it may not have
  (say, files the config names), sent with every task; ``run_facts()``: extra summary
  entries; ``detail(event)``: a text block of the optional detailed generation log;
- optionally its words: ``fitness_name``, what its fitness (the logbook's ``max``) is
  called ("payoff", "points", "games won"), and ``fitness_unit``, its unit if it needs
  one ("per 32 games"). The console, the curve's axis and title, the run summary (its
  ``mean_max_<name>`` entry) and the study tables use them; a recipe that declares none
  is reported in neutral words ("max fitness"). Fogel's recipes say "payoff";
- optionally ``duel(first, second, openings, seed)``: two champion documents against each
  other, so that a league of the trials' champions can choose the run's (``run.champion``);
- optionally ``figures(run_dir, curve)``: extra figures beside the curve (``evoplay plot``, the end of
  a run); ``report(run_dir)``: extra analyses of a finished run (``evoplay report``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from .streams import Streams


@dataclass
class Context:
    """What a recipe's generation is given: its streams, the map to evaluate with, how many chunks."""

    streams: Streams
    map: Callable = map
    chunks: int = 1
    detail: list | None = None  # append text here when the run keeps a detailed log

    @property
    def trial(self) -> int:
        return self.streams.trial

    @property
    def generation(self) -> int:
        return self.streams.generation

    def stream(self, purpose: int, skip: int = 0) -> np.random.Generator:
        """The generator of ``purpose`` for this (trial, generation)."""
        return self.streams(purpose, skip)

    def bounds(self, n: int) -> list[tuple[int, int]]:
        """``n`` items cut into ``chunks`` consecutive, non-empty (first, last) ranges."""
        cuts = np.linspace(0, n, max(1, self.chunks) + 1).astype(int)
        return [(int(a), int(b)) for a, b in zip(cuts[:-1], cuts[1:]) if b > a]


class Recipe:
    """Base class of recipes (see the module doc); ``cfg`` is the resolved config."""

    #: Name used in configs (``recipe = "NAME"``) for built-in recipes.
    name: str = ""
    #: The game the champions play, by reference (``evoplay.games``); a recipe that plays
    #: another sets its own (the framework resolves no game: a reference is only text here).
    game: str = "tictactoe"
    #: Config sections: {section: {key: (type, default, check or None)}}.
    schema: dict = {}
    #: What the fitness (the logbook's ``max``) is called, in the recipe's words.
    fitness_name: str = "fitness"
    #: Its unit, if it needs one (say "per 32 games"); shown in parentheses after the name.
    fitness_unit: str = ""
    #: The files and folders ``report`` writes into a run besides analysis.json and analysis.md:
    #: a fresh run in the folder (``--overwrite``) removes them with the earlier run's outputs,
    #: so that no report of the earlier run is read as the new one's.
    report_files: tuple[str, ...] = ()

    def __init__(self, cfg: dict):
        self.cfg = cfg

    # -- what every recipe must say
    def start(self, ctx: Context) -> Any:
        raise NotImplementedError

    def step(self, state: Any, ctx: Context) -> dict:
        raise NotImplementedError

    def to_data(self, state: Any) -> dict:
        raise NotImplementedError

    def from_data(self, data: dict) -> Any:
        raise NotImplementedError

    def finish(self, state: Any, trial: int, logbook: list[dict]) -> tuple[dict, dict]:
        raise NotImplementedError

    # -- optional
    @classmethod
    def check(cls, cfg: dict) -> None:
        """Cross-key checks of a resolved config (raise ConfigError naming the key)."""

    def ship(self) -> dict:
        """Data every task of this run needs on whatever node it lands."""
        return {}

    @classmethod
    def receive(cls, data: dict) -> None:
        """Install what ``ship`` sent, on a worker, before the recipe is built."""

    def run_facts(self) -> dict:
        """Extra entries of the run summary (after ``generations``)."""
        return {}

    def figures(self, run_dir, curve) -> list:
        """Extra figures of a run, written beside its curve file ``curve`` (same format); their paths."""
        return []

    def report(self, run_dir) -> list[str]:
        """Extra analyses of a finished run, written into it; the lines ``evoplay report`` prints about them."""
        return []

    def champion_analysis(self, champion: dict) -> dict:
        """Facts about a champion document for study tables: numbers (averaged) and booleans (counted).

        Studies compare ``expected_payoff`` across variants when a recipe gives it.
        """
        return {}

    def trial_measures(self) -> dict[str, str]:
        """Facts of each trial's summary row (``per_trial``) that a study compares across variants
        beside the final max fitness, higher better: key -> what it measures, in words (say, the
        champion's score against a fixed opponent, where fitness scales differ between variants).
        {}: none."""
        return {}

    def reported_measures(self, run_dir) -> dict[str, dict]:
        """Per-trial figures that later analyses of the finished run (``evoplay report``'s
        options) wrote into ``run_dir``, which a study compares like ``trial_measures``,
        higher better: key -> ``{"label": what it measures, in words, "per_trial": a number
        a trial, in trial order}``. ``evoplay study ... --resume`` on a finished study
        compares them once every variant's runs have them. {}: none (or none written yet)."""
        return {}

    def payoff_scale(self) -> float:
        """Factor that puts this config's logbook payoffs on a common scale across a study's
        variants (say, per 32 games when variants play different numbers of games)."""
        return 1.0

    def notice(self, logbook: list[dict]) -> str | None:
        """A line the user should read about a trial's first generations (its logbook so far),
        e.g. that selection had no signal; None: nothing to say. The runner logs it once."""
        return None

    def generation_work(self) -> float | None:
        """Games (or like units) one generation evaluates: splitting pays above 20,000."""
        return None

    def score(self, facts: dict) -> float:
        """What ranks the trials' champions (highest wins): ``facts["score"]``, else the final max."""
        return facts.get("score", facts.get("final_max", 0.0))

    def duel(self, first: dict, second: dict, openings: int, seed: int) -> dict:
        """Two of the run's champion documents against each other, for a league of the trials'
        champions (``run.champion``, ``evoplay.framework.league``): from ``openings`` openings,
        each from both seats, every draw from ``seed``; the first's ``win``, ``draw`` and ``loss``
        fractions (and ``games`` played, None where computed exactly). A recipe whose champions
        play no games leaves it undefined, and a league is refused for it."""
        raise NotImplementedError

    @classmethod
    def plays_duels(cls) -> bool:
        """Whether the recipe defines ``duel``, so that its trials' champions can play a league."""
        return cls.duel is not Recipe.duel


@dataclass(frozen=True)
class FitnessWords:
    """How a run speaks of its fitness: the ``fitness_name`` and ``fitness_unit`` its recipe declares."""

    name: str = "fitness"
    unit: str = ""

    @classmethod
    def of(cls, recipe) -> "FitnessWords":
        """The words of a recipe (class or instance); neutral ones where it declares none."""
        def text(attr):
            return " ".join(str(getattr(recipe, attr, "") or "").split())

        return cls(text("fitness_name") or cls.name, text("fitness_unit"))

    @classmethod
    def common(cls, words) -> "FitnessWords":
        """The words several runs share, else neutral ones (say, runs of different recipes plotted together)."""
        found = set(words)
        return found.pop() if len(found) == 1 else cls()

    @property
    def summary_key(self) -> str:
        """The run summary's entry of the mean max curve: ``mean_max_payoff`` for "payoff"."""
        return "mean_max_" + (re.sub(r"[^0-9a-z]+", "_", self.name.lower()).strip("_") or "fitness")

    @property
    def with_unit(self) -> str:
        """The name followed by its unit in parentheses, when there is one."""
        return f"{self.name} ({self.unit})" if self.unit else self.name


@dataclass
class TrialState:
    """The runner's view of a trial: its number, generation, the recipe's state and logbook rows."""

    trial: int
    generation: int
    state: Any
    logbook: list = field(default_factory=list)
