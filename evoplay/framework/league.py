"""The run's champion among its trials, by the rule its config fixes before the run (``run.champion``).

Each trial ends with its own champion; one of them is the run's (``best_trial`` in the
summary, ``champion.json``, what ``evoplay export`` writes when no ``--trial`` is named):

- ``"score"`` (the default): the highest score of a trial's champion (``Recipe.score``: an
  exact analysis where the recipe has one, as Fogel's expected payoff, else the trial's
  final max fitness); trials tied on it go to the lowest trial number. Cheap, and what
  every run did before the rule could be chosen, so a run's summary names the rule only
  when it is another one.
- ``"league"``: the champions of all trials play a round robin; the run's champion is the
  one with the best mean score (win 1, draw 0, loss -1) over its duels. Ties in the league
  go to the higher ``score``, then to the lowest trial.
- ``"score-then-league"``: the highest score, as ``"score"``; trials tied on it (a max
  fitness that reaches its ceiling in several trials, say) play the round robin among
  themselves. No league is played when one trial leads alone.

A duel is the recipe's (``Recipe.duel``): the two champion documents meet from
``run.league_openings`` openings, each from both seats, and the first's win, draw and loss
fractions come back. Every duel is one Ray task; its draws come from the stream keyed by
``LEAGUE`` of the run's seed, the same for every pair, so the league is the same whatever
ran where and however many workers there were. A recipe whose champions play no games
(it defines no ``duel``) is refused the league rules when its config is read.

The summary records a league rule as ``champion_rule``: the rule, the openings and the
table (each entrant's duels, mean win, draw and loss fractions and score, in trial order).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from evoplay.errors import ConfigError, EvoplayError

#: The rules a config may name as ``run.champion``; the first is the default.
RULES = ("score", "league", "score-then-league")
DEFAULT = RULES[0]
#: The spawn key of the league's stream of the run's seed (trials' streams are keyed by three numbers).
LEAGUE = (7,)


def check(recipe_class, cfg: dict) -> None:
    """Refuse a league rule for a recipe whose champions play no duels (one line, naming the key)."""
    rule = cfg["run"]["champion"]
    if rule != DEFAULT and not recipe_class.plays_duels():
        raise ConfigError(f"config key 'run.champion' = {rule!r}: recipe {recipe_class.__name__} defines no duel "
                          f"between its champions, so they cannot play a league (use {DEFAULT!r})")


def seed(cfg: dict) -> int:
    """The league's seed: drawn from the stream keyed ``LEAGUE`` of the run's seed."""
    sequence = np.random.SeedSequence(cfg[""]["seed"], spawn_key=LEAGUE)
    return int(sequence.generate_state(1, np.uint64)[0] >> np.uint64(1))


def entrants(rule: str, scores: dict) -> list[int]:
    """The trials that play the league under ``rule`` (none under ``"score"``, nor when one trial
    leads alone under ``"score-then-league"``); ``scores`` maps each trial to its score."""
    if rule == "league":
        return sorted(scores)
    if rule == "score-then-league":
        top = max(scores.values())
        tied = sorted(t for t, s in scores.items() if s == top)
        return tied if len(tied) > 1 else []
    return []


def pairs(players: list[int]) -> list[tuple[int, int]]:
    """Every pair of entrants once, the lower trial first: the league's duels, in order."""
    return list(combinations(players, 2))


def standings(players: list[int], duels: list[tuple[int, int]], results: list[dict]) -> list[dict]:
    """The league table: per entrant (in trial order) its duels and the mean of its win, draw and
    loss fractions over them (``results[k]`` is the first's of ``duels[k]``), and its score."""
    sums = {t: np.zeros(3) for t in players}
    count = {t: 0 for t in players}
    for (first, second), result in zip(duels, results):
        outcome = np.array([result["win"], result["draw"], result["loss"]], dtype=np.float64)
        sums[first] += outcome
        sums[second] += outcome[::-1]
        count[first] += 1
        count[second] += 1
    rows = []
    for t in players:
        win, draw, loss = (sums[t] / max(count[t], 1)).tolist()
        rows.append({"trial": t, "duels": count[t], "win": win, "draw": draw, "loss": loss, "score": win - loss})
    return rows


def choose(scores: dict, table: list[dict]) -> int:
    """The run's champion: the league's best score where a league was played (ties: the higher
    recipe score, then the lowest trial), else the highest recipe score (ties: the lowest trial)."""
    if table:
        return max(table, key=lambda row: (row["score"], scores[row["trial"]], -row["trial"]))["trial"]
    return max(scores, key=lambda t: (scores[t], -t))


def record(cfg: dict, table: list[dict]) -> dict | None:
    """The summary's ``champion_rule`` entry: None under the default rule (the summary is then
    what it always was), else the rule, the openings and the league table (empty: none played)."""
    rule = cfg["run"]["champion"]
    if rule == DEFAULT:
        return None
    return {"rule": rule, "openings": cfg["run"]["league_openings"], "table": table}


def check_result(result, first: int, second: int) -> dict:
    """A duel's result as the recipe returned it, checked: win, draw and loss fractions in [0, 1]."""
    if not isinstance(result, dict) or not all(k in result for k in ("win", "draw", "loss")):
        raise EvoplayError(f"the duel of trials {first} and {second} gave {type(result).__name__}, "
                         "not a dict of win, draw and loss fractions")
    values = [float(result[k]) for k in ("win", "draw", "loss")]
    if not all(0.0 <= v <= 1.0 for v in values):
        raise EvoplayError(f"the duel of trials {first} and {second} gave fractions outside [0, 1]: {values}")
    return {"win": values[0], "draw": values[1], "loss": values[2]}


def scores(recipe, ends: dict) -> dict:
    """Each trial's score (``Recipe.score`` of its summary line), from its end ``(champion, facts)``."""
    return {t: recipe.score({"trial": t, **ends[t][1]}) for t in sorted(ends)}


def play(runs: list[tuple], duel_task) -> list[list[dict]]:
    """The league tables of finished runs, each ``(cfg, recipe, shipment, ends)``: every duel of every
    run is one Ray task ``duel_task(cfg, shipment, first, second)`` (the runner's, which builds the
    run's recipe on the worker), all side by side; a run whose rule plays no league gets an empty table."""
    from evoplay.framework import distributed

    tasks, owners, players = [], [], []
    for k, (cfg, recipe, shipment, ends) in enumerate(runs):
        entered = entrants(cfg["run"]["champion"], scores(recipe, ends))
        players.append(entered)
        for first, second in pairs(entered):
            tasks.append((cfg, shipment, ends[first][0], ends[second][0]))
            owners.append((k, first, second))
    results = distributed.run_tasks(duel_task, tasks) if tasks else []
    tables = []
    for k, entered in enumerate(players):
        mine = [(first, second, result) for (owner, first, second), result in zip(owners, results) if owner == k]
        checked = [check_result(result, first, second) for first, second, result in mine]
        tables.append(standings(entered, [(first, second) for first, second, _ in mine], checked))
    return tables
