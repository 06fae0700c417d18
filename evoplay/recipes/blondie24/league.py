"""The final parents' league: the strongest network of a finished checkers run, judged by games among themselves.

A generation's best network is the one with the most points in that generation's few
games (Blondie24: 5, as the first player), so the run's champion is a noisy pick. After
the run, ``evoplay report RUN --league N`` lets each trial's last parents (the survivors
of the last generation, read from the checkpoint) play a round robin: every pair over the
first ``N`` three-move ballots from both colours, searching the run's depth, a game drawn
after ``game.max_plies`` plies, both players scoring the recipe's points table. No
hand-made opponent takes part. The network with the most points (ties: the one listed
first in the checkpoint) is the league's champion; it is written as a player file and,
like the run's champion, measured against ``piece-difference`` over all the yardstick's
ballots from both colours. The league's games and the measurement run on Ray (embedded,
or the cluster at ``--address``), one task per pair and per slice of the ballots.

The same league can be the run's own rule for its champion, fixed in the config before the
run (``champion.rule = "league"``, ``champion.ballots = N``): the recipe plays it at the end
of the last generation (``play_league``, through its ``toolbox.map``) and the league's
winner is the champion written to ``champion.json``; no pick is made after the fact.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from evoplay.errors import EvoplayError
from evoplay.games import resolve_game
from evoplay.framework.rundir import RunDir
from evoplay.recipes.blondie24 import yardstick
from evoplay.recipes.blondie24.playerfile import network_document


def final_parents(recipe, rd: RunDir) -> list:
    """Each trial's parents at the run's last generation, from the checkpoints (checked on load)."""
    return [state.parents for state in rd.final_states(recipe)]


def league_jobs(recipe, nets: list, openings: int) -> tuple[list, list]:
    """(pairs, jobs): every pair ``(i, j)``, ``i < j``, and its ``checkers_chunk`` job: ``i``'s scores over
    the first ``openings`` ballots, game ``2 b`` with ``i`` moving first from ballot ``b``, ``2 b + 1`` second."""
    g = recipe.cfg["game"]
    pairs = list(combinations(range(len(nets)), 2))
    jobs = [(nets[i].genome, nets[i].king, recipe.sizes, recipe.depth, g["quiescence"],
             ("network", nets[j].genome, nets[j].king), 0, 2 * openings, g["max_plies"]) for i, j in pairs]
    return pairs, jobs


def standings(n: int, pairs: list, scores: list, points) -> list[dict]:
    """Every network's points (the recipe's table, both players scoring) and wins, draws, losses; in the
    order of the networks. ``scores[k]`` are the first network's of ``pairs[k]`` (+1, 0, -1 a game)."""
    win, draw, loss = points
    table = {1: win, 0: draw, -1: loss}
    rows = [{"points": 0.0, "win": 0, "draw": 0, "loss": 0} for _ in range(n)]
    for (i, j), s in zip(pairs, scores):
        for who, sign in ((i, 1), (j, -1)):
            for x in (sign * np.asarray(s)).tolist():
                rows[who]["points"] += table[x]
                rows[who]["win" if x == 1 else "draw" if x == 0 else "loss"] += 1
    return rows


def winner(rows: list[dict]) -> int:
    """The index of the most points; ties to the lowest index."""
    return max(range(len(rows)), key=lambda k: (rows[k]["points"], -k))


def words(openings: int) -> str:
    """How a league champion was chosen, for its player file's provenance."""
    return f"round robin of the last parents over {openings} ballots from both colours"


def play_league(recipe, nets: list, openings: int) -> tuple[list[dict], int]:
    """(table, winner) of a league among ``nets`` over the first ``openings`` ballots from both colours,
    its games through ``recipe.toolbox.map`` (one job per pair): each network's row of ``standings``
    with its place in ``nets``, id and king value; the winner by ``winner``."""
    pairs, jobs = league_jobs(recipe, nets, openings)
    rows = standings(len(nets), pairs, list(recipe.toolbox.map(yardstick.checkers_chunk, jobs)), recipe.points)
    for k, (net, row) in enumerate(zip(nets, rows)):
        row.update(rank_in_checkpoint=k, network_id=net.ident, king=net.king)
    return rows, winner(rows)


def check(recipe, run_dir, openings: int) -> list:
    """The last parents of every trial, once the league is known to be possible (one-line errors otherwise)."""
    if yardstick.kind(recipe) != "piece-difference":
        raise EvoplayError(f"--league is for runs judged against piece difference over ballots (checkers); this run "
                           f"plays {recipe.game[:60]} (its champions have their own yardstick)")
    ballots = len(resolve_game(recipe.game).openings())
    if not 1 <= openings <= ballots:
        raise EvoplayError(f"--league takes 1 to {ballots} ballots, got {openings}")
    return final_parents(recipe, RunDir(run_dir))


def run_league(recipe, run_dir, openings: int) -> dict:
    """Play every trial's league through ``recipe.toolbox.map`` and measure its champion; write league.json
    and a player file per trial (``league-champions/trial_NN.json``) into the run."""
    trials = check(recipe, run_dir, openings)
    rd = RunDir(run_dir)
    bounds = yardstick.slices(yardstick.n_games(recipe))
    out = {"run": recipe.cfg[""]["name"], "seed": recipe.cfg[""]["seed"], "depth": recipe.depth, "openings": openings,
           "points": list(recipe.points), "trials": []}
    for t, nets in enumerate(trials):
        rows, best = play_league(recipe, nets, openings)
        champ = nets[best]
        measured = yardstick.summarize(yardstick.checkers_scores(recipe, champ, bounds)[0], recipe.cfg[""]["generations"])
        out["trials"].append({"trial": t, "games_per_pair": 2 * openings, "table": rows, "champion": best,
                              "champion_id": champ.ident,
                              "vs_piece_difference": {k.removeprefix("yard_"): v for k, v in measured.items() if k != "yard_gen"}})
        provenance = {"config": recipe.cfg[""]["name"], "seed": recipe.cfg[""]["seed"], "trial": t,
                      "generation": recipe.cfg[""]["generations"], "network_id": champ.ident,
                      "league": words(openings)}
        doc = network_document(recipe.game, recipe.sizes, recipe.depth, champ.genome, champ.king, provenance)
        (rd.root / "league-champions").mkdir(exist_ok=True)
        rd.write_json(rd.root / "league-champions" / f"trial_{t:02d}.json", doc)
    rd.write_json(rd.root / "league.json", out)
    return out


def read_league(run_dir) -> dict:
    """The run's league.json (written by ``run_league``), or {} when there is none; a damaged one is refused."""
    return read_report_file(run_dir, "league.json", markdown, "--league N")


def read_report_file(run_dir, name: str, markdown, option: str) -> dict:
    """A file ``evoplay report`` wrote into the run (``name``), or {} when there is none; refused in one line
    when ``markdown``, which reads every field the report uses, cannot read it."""
    from evoplay.files import jsondata

    path = RunDir(run_dir).root / name
    if not path.is_file():
        return {}
    try:
        doc = jsondata.loads(path.read_text())
        markdown(doc)
    except jsondata.NumberError as e:
        raise EvoplayError(f"{path} is damaged (it holds {e}): run `evoplay report RUN {option}` again") from None
    except (OSError, UnicodeDecodeError, ValueError, KeyError, IndexError, TypeError) as e:
        raise EvoplayError(f"{path} is damaged ({type(e).__name__}): run `evoplay report RUN {option}` again") from None
    return doc


def markdown(league: dict) -> list[str]:
    """analysis.md's section on the league (empty without one)."""
    if not league:
        return []
    d = league["depth"]
    lines = ["", "## The last parents' league", "",
             f"Each trial's last parents played a round robin over the first {league['openings']} ballots from both "
             f"colours (points {league['points'][0]:+g} / {league['points'][1]:+g} / {league['points'][2]:+g}, both "
             f"players scoring); the network with the most points is the league's champion "
             f"(`league-champions/trial_NN.json`), measured against `piece-difference:depth={d}` as above.", "",
             "| trial | champion (id) | league points | league W / D / L | games | wins | draws | losses | mean score [95% interval] |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for t in league["trials"]:
        row, v = t["table"][t["champion"]], t["vs_piece_difference"]
        lines.append(f"| {t['trial']} | {t['champion_id']} | {row['points']:g} | {row['win']} / {row['draw']} / {row['loss']} "
                     f"| {v['games']} | {v['win']} | {v['draw']} | {v['loss']} | {v['score']:+.3f} [{v['lo']:+.3f}, {v['hi']:+.3f}] |")
    return lines
