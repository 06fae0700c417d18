"""The run's champion among its trials, by the rule fixed in the config (``run.champion``).

By default the highest score wins and tied trials go to the lowest number, as every committed
run chose; a league of the trials' champions (all of them, or those tied on the score) tells
tied trials apart. The league is seeded, so a run is the same on one and two workers, and the
summary records the rule and the league table.
"""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from evoplay.errors import ConfigError
from evoplay.framework import config, league

ROOT = Path(__file__).resolve().parents[1]
ENV = {**{k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}, "RAY_USAGE_STATS_ENABLED": "0"}

#: A recipe made by hand: every trial's champion has a strength and a final max fitness; trials
#: 0 and 1 tie on the max, trial 2 is behind on it but the strongest. A duel is won by the
#: first with probability strength / (sum of strengths), drawn from the league's seed.
STRENGTHS = '''
import numpy as np

from evoplay import Recipe

STRENGTH = (1.0, 2.0, 9.0)
FINAL_MAX = (5.0, 5.0, 4.0)


class Strengths(Recipe):
    default_name = "strengths"

    def start(self, ctx):
        return {"trial": ctx.trial}

    def step(self, state, ctx):
        best = FINAL_MAX[state["trial"]]
        return {"gen": ctx.generation, "max": best, "mean": best, "min": best}

    def to_data(self, state):
        return dict(state)

    def from_data(self, data):
        return dict(data)

    def finish(self, state, trial, logbook):
        return {"strength": STRENGTH[trial]}, {"final_max": logbook[-1]["max"]}

    def duel(self, first, second, openings, seed):
        a, b = first["strength"], second["strength"]
        rng = np.random.default_rng([seed, int(10 * a), int(10 * b)])
        won = float(np.mean(rng.random(2 * openings) < a / (a + b)))
        return {"games": 2 * openings, "win": won, "draw": 0.0, "loss": 1.0 - won}
'''


def test_the_rules_say_who_plays_the_league_and_who_is_the_champion():
    scores = {0: 5.0, 1: 5.0, 2: 4.0, 3: 5.0}
    assert league.entrants("score", scores) == []
    assert league.entrants("league", scores) == [0, 1, 2, 3]
    assert league.entrants("score-then-league", scores) == [0, 1, 3]
    assert league.entrants("score-then-league", {0: 1.0, 1: 3.0, 2: 2.0}) == []  # one trial leads alone
    assert league.pairs([0, 1, 3]) == [(0, 1), (0, 3), (1, 3)]
    # 1 beats 0 always; 3 draws everything; 0 and 3 draw
    results = [{"win": 0.0, "draw": 0.0, "loss": 1.0}, {"win": 0.0, "draw": 1.0, "loss": 0.0},
               {"win": 0.5, "draw": 0.0, "loss": 0.5}]
    table = league.standings([0, 1, 3], league.pairs([0, 1, 3]), results)
    assert table == [{"trial": 0, "duels": 2, "win": 0.0, "draw": 0.5, "loss": 0.5, "score": -0.5},
                     {"trial": 1, "duels": 2, "win": 0.75, "draw": 0.0, "loss": 0.25, "score": 0.5},
                     {"trial": 3, "duels": 2, "win": 0.25, "draw": 0.5, "loss": 0.25, "score": 0.0}]
    assert league.choose(scores, table) == 1
    assert league.choose(scores, []) == 0  # by score: the lowest of the tied trials
    # tied in the league too: the higher score, then the lowest trial
    even = [{"trial": t, "score": 0.0} for t in (0, 2, 3)]
    assert league.choose(scores, even) == 0 and league.choose({0: 4.0, 2: 4.0, 3: 5.0}, even) == 3


def test_the_rule_is_a_config_key_with_a_default_refused_where_champions_play_no_games():
    cfg = config.defaults("fogel")
    assert cfg["run"]["champion"] == "score" and cfg["run"]["league_openings"] == 10
    assert config.resolve({"recipe": "blondie24", "run": {"champion": "score-then-league"}})["run"]["champion"] == "score-then-league"
    with pytest.raises(ConfigError, match=r"config key 'run.champion' must be one of 'score', 'league', "
                                          r"'score-then-league', got 'best'"):
        config.resolve({"run": {"champion": "best"}})
    with pytest.raises(ConfigError) as refused:
        config.resolve({"recipe": str(ROOT / "examples" / "onemax_recipe.py") + ":OneMax", "run": {"champion": "league"}})
    assert str(refused.value) == ("config key 'run.champion' = 'league': recipe OneMax defines no duel between its "
                                  "champions, so they cannot play a league (use 'score')")


def test_a_league_picks_the_stronger_of_two_champions_tied_on_their_score():
    """Two Blondie24 tic-tac-toe champions made by hand with the same network: one searches 1 ply,
    the other the whole game. Tied on their score, the score rule keeps the first; the league,
    computed exactly (tic-tac-toe's matches are), picks the full search, which never loses."""
    from evoplay.recipes.blondie24.playerfile import network_document
    from evoplay.recipes.blondie24.recipe import Blondie24Recipe

    recipe = Blondie24Recipe(config.resolve({"recipe": "blondie24", "game": {"name": "tictactoe"},
                                             "run": {"champion": "score-then-league"}}))
    genome = np.random.default_rng(3).normal(0.0, 0.2, recipe.n_weights)
    shallow, deep = (network_document("tictactoe", recipe.sizes, depth, genome, 2.0, {}) for depth in (1, 9))
    result = recipe.duel(shallow, deep, 10, league.seed(recipe.cfg))
    assert result["games"] is None and result["win"] == 0.0 and result["loss"] > 0.0
    assert result["win"] + result["draw"] + result["loss"] == pytest.approx(1.0)
    scores = {0: 5.0, 1: 5.0}
    players = league.entrants(recipe.cfg["run"]["champion"], scores)
    table = league.standings(players, league.pairs(players), [result])
    assert league.choose(scores, []) == 0 and league.choose(scores, table) == 1
    assert table[1]["score"] == result["loss"] == -table[0]["score"]


def _run_rules(tmp_path: Path, workers: int, rules: list[str]) -> dict:
    """Run the hand-made recipe once per rule in one process on ``workers`` embedded Ray CPUs;
    the summaries by rule."""
    (tmp_path / "strengths.py").write_text(STRENGTHS)
    script = textwrap.dedent(f"""
        import sys
        from evoplay.framework.runner import run
        for rule in {rules!r}:
            run({{"recipe": "strengths.py:Strengths", "trials": 3, "generations": 2, "seed": 11,
                 "run": {{"champion": rule, "league_openings": 200, "checkpoint_every": 1}}}},
                f"w{workers}-{{rule}}", workers={workers})
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return {rule: (tmp_path / f"w{workers}-{rule}" / "summary.json").read_bytes() for rule in rules}


def test_each_rule_chooses_its_champion_and_a_league_is_recorded_and_the_same_on_one_and_two_workers(tmp_path):
    rules = ["score", "league", "score-then-league"]
    two = _run_rules(tmp_path, 2, rules)
    summaries = {rule: json.loads(text) for rule, text in two.items()}
    assert {rule: s["best_trial"] for rule, s in summaries.items()} == {"score": 0, "league": 2, "score-then-league": 1}
    assert "champion_rule" not in summaries["score"]  # the default: the summary every run wrote before
    everyone = summaries["league"]["champion_rule"]
    assert everyone["rule"] == "league" and everyone["openings"] == 200
    assert [row["trial"] for row in everyone["table"]] == [0, 1, 2] and all(row["duels"] == 2 for row in everyone["table"])
    assert max(everyone["table"], key=lambda row: row["score"])["trial"] == 2
    tied = summaries["score-then-league"]["champion_rule"]
    assert [row["trial"] for row in tied["table"]] == [0, 1] and tied["table"][1]["score"] > 0 > tied["table"][0]["score"]
    for rule, s in summaries.items():  # the run's champion file is the chosen trial's
        run = tmp_path / f"w2-{rule}"
        assert (run / "champion.json").read_bytes() == (run / "trials" / f"trial_{s['best_trial']:02d}" / "champion.json").read_bytes()
    # on one worker, from the command line: the same summary, and the console says how the champion was chosen
    (tmp_path / "tied.toml").write_text('recipe = "strengths.py:Strengths"\ntrials = 3\ngenerations = 2\nseed = 11\n\n'
                                        '[run]\nchampion = "score-then-league"\nleague_openings = 200\ncheckpoint_every = 1\n')
    done = subprocess.run([sys.executable, "-m", "evoplay", "evolve", "tied.toml", "--out", "w1", "--workers", "1", "-q"],
                          cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines()[-1].endswith("champion: w1/champion.json (trial 1, chosen by a league of 2 trials' champions)")
    assert (tmp_path / "w1" / "summary.json").read_bytes() == two["score-then-league"]
