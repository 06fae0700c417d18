"""A finished checkers run's champions measured further: deeper, and against other networks.

``evoplay report RUN --depths 4,6,8 --versus FILE ...`` plays each trial's champion (its
player file, so the champion by the run's own rule) over the yardstick's ballots from both
colours (all 157, 314 games, when ``yardstick.openings = 0``; game ``2 b`` from ballot ``b`` with the champion moving first,
``2 b + 1`` second; +1 / 0 / -1 a game for the champion):

- against ``piece-difference`` (kings worth ``yardstick.pd_king``) with both sides
  searching each depth of ``--depths``, the champion's network at that depth;
- against each ``--versus`` network (a Blondie24 checkers player file, or a run directory
  for its champion), each side searching its own file's depth.

The games run on Ray (embedded, or the cluster at ``--address``), one task per slice of
20 games, through the recipe's ``toolbox.map``. Every player is deterministic, so the
figures repeat exactly. The results go to the run's ``duels.json`` (and into
``analysis.md``): wins, draws, losses and the mean score with its 95% interval per
opponent.
"""

from __future__ import annotations

import numpy as np

from evoplay.errors import EvoplayError, PlayerFileError
from evoplay.framework.rundir import RunDir
from evoplay.recipes.blondie24 import yardstick

#: The deepest search a duel may ask (as the player files' and piece difference's).
MAX_DEPTH = 12


def network_of(path) -> dict:
    """A checkers network's descriptor (genome, sizes, king, depth) from a player file or a run
    directory's champion, checked; a one-line error for anything else."""
    from evoplay.files.playerfile import player_path, read_document
    from evoplay.recipes.blondie24.playerfile import BUILTIN_KINDS, KIND, network_parts

    file = player_path(str(path))
    doc = read_document(file)
    if doc["kind"] not in {KIND, *BUILTIN_KINDS.values()}:
        raise PlayerFileError(f"{path}: a {doc['kind']} file, not a Blondie24 checkers network")
    game, sizes, depth, genome, king = network_parts(doc["architecture"], doc["weights"])
    if game != yardstick.PD_GAME:
        raise PlayerFileError(f"{path}: a network of {game[:60]}, not of {yardstick.PD_GAME}")
    return {"file": str(file), "genome": genome, "sizes": tuple(sizes), "king": float(king), "depth": int(depth)}


def net_spec(net: dict, depth: int, quiescence: bool) -> tuple:
    return ("network", net["genome"], net["sizes"], net["king"], int(depth), bool(quiescence))


def duel_chunk(args):
    """``toolbox.map`` unit of work: the first player's scores (+1, 0, -1) in ballot games ``first..last-1``
    against the second. A player is ``("network", genome, sizes, king, depth, quiescence)`` or
    ``("piece-difference", depth, king)``."""
    from evoplay.games import resolve_game

    a, b, first, last, max_plies = args
    game = resolve_game(yardstick.PD_GAME)
    return yardstick.ballot_scores(game, _player(game, a), _player(game, b), first, last, max_plies)


def _player(game, spec: tuple):
    from evoplay.recipes.blondie24.play import net_player

    if spec[0] == "piece-difference":
        return yardstick.piece_difference(game, spec[1], spec[2])
    _, genome, sizes, king, depth, quiescence = spec
    return net_player(game, genome, sizes, king, depth, quiescence)


def play_duel(recipe, mine: tuple, theirs: tuple, bounds: list) -> dict:
    """``mine``'s games against ``theirs`` (``duel_chunk``'s players) over the ballot games ``bounds``, through
    ``recipe.toolbox.map``: games, wins, draws, losses and the mean score with its 95% interval (lo, hi)."""
    jobs = [(mine, theirs, a, b, recipe.cfg["game"]["max_plies"]) for a, b in bounds]
    facts = yardstick.summarize(np.concatenate(list(recipe.toolbox.map(duel_chunk, jobs))), 0)
    return {k.removeprefix("yard_"): v for k, v in facts.items() if k != "yard_gen"}


def check(recipe, run_dir, depths, versus) -> tuple[list[dict], list[dict]]:
    """(champions, opponents): every trial's champion and every ``--versus`` network, read and checked
    before any game is played; a one-line error for a run or a file that cannot take part."""
    for d in depths:
        if not 1 <= d <= MAX_DEPTH:
            raise EvoplayError(f"--depths: a depth must be in 1..{MAX_DEPTH}, got {d}")
    rd = RunDir(run_dir)
    champions = [network_of(rd.champion(t)) for t in range(rd.read_summary()["trials"])]
    opponents = []
    for path in versus:
        try:
            opponents.append({"name": str(path), **network_of(path)})
        except (PlayerFileError, OSError) as e:
            raise EvoplayError(f"--versus: {e}") from None
    return champions, opponents


def run_duels(recipe, run_dir, depths, versus) -> dict:
    """Play every trial champion's duels through ``recipe.toolbox.map``; write duels.json into the run."""
    champions, opponents = check(recipe, run_dir, depths, versus)
    g, y = recipe.cfg["game"], recipe.cfg["yardstick"]
    n = yardstick.n_games(recipe)
    bounds = yardstick.slices(n)
    out = {"run": recipe.cfg[""]["name"], "games": n, "max_plies": g["max_plies"], "pd_king": y["pd_king"], "trials": []}
    for t, champ in enumerate(champions):
        rows = []
        duels = [(f"piece-difference:depth={d}", d, net_spec(champ, d, yardstick.searches_with_quiescence(recipe, pd)), pd)
                 for d in depths for pd in [("piece-difference", d, y["pd_king"])]]
        duels += [(o["name"], champ["depth"], net_spec(champ, champ["depth"], g["quiescence"]),
                   net_spec(o, o["depth"], g["quiescence"])) for o in opponents]
        for name, depth, mine, theirs in duels:
            rows.append({"opponent": name, "depth": depth, "opponent_depth": theirs[1] if theirs[0] == "piece-difference" else theirs[4],
                         **play_duel(recipe, mine, theirs, bounds)})
        out["trials"].append({"trial": t, "duels": rows})
    rd = RunDir(run_dir)
    rd.write_json(rd.root / "duels.json", out)
    return out


def read_duels(run_dir) -> dict:
    """The run's duels.json (written by ``run_duels``), or {} when there is none; a damaged one is refused."""
    from evoplay.recipes.blondie24.league import read_report_file

    return read_report_file(run_dir, "duels.json", markdown, "--depths ... --versus ...")


def measures(run_dir, scored_depth: int | None = None) -> dict[str, dict]:
    """Every duel each trial's champion played (``duels.json``) as a study's per-trial measure
    (``Recipe.reported_measures``): ``duel:OPPONENT`` -> its label and the trials' scores in
    trial order; {} without duels.json. The duel against piece difference at ``scored_depth``
    on both sides is left out: it replays the games of the champion's score."""
    duels = read_duels(run_dir)
    trials = duels.get("trials", [])
    by_opponent = {}
    for t in trials:
        for r in t["duels"]:
            by_opponent.setdefault(r["opponent"], []).append(r)
    out = {}
    for name, rows in by_opponent.items():
        if len(rows) != len(trials):
            continue
        pd = name.startswith("piece-difference:")
        if pd and rows[0]["depth"] == rows[0]["opponent_depth"] == scored_depth:
            continue
        if pd:
            label = f"champion's score against piece difference at depth {rows[0]['opponent_depth']} (searching {rows[0]['depth']} itself)"
        else:
            label = f"champion's score against {name} (each searching its own file's depth)"
        out[f"duel:{name}"] = {"label": label, "per_trial": [float(r["score"]) for r in rows]}
    return out


def markdown(duels: dict) -> list[str]:
    """analysis.md's section on the duels (empty without any)."""
    if not duels:
        return []
    lines = ["", "## The champion deeper, and against other networks", "",
             f"Each trial's champion over all {duels['games']} ballot games (both colours, a game drawn after "
             f"{duels['max_plies']} plies): against piece difference (kings {duels['pd_king']:g}) with both sides "
             "searching the depth given, and against other networks each searching its own file's depth.", "",
             "| trial | opponent | depth (champion / opponent) | wins | draws | losses | mean score [95% interval] |",
             "|---:|---|---:|---:|---:|---:|---:|"]
    for t in duels["trials"]:
        for r in t["duels"]:
            lines.append(f"| {t['trial']} | `{r['opponent']}` | {r['depth']} / {r['opponent_depth']} | {r['win']} | {r['draw']} "
                         f"| {r['loss']} | {r['score']:+.3f} [{r['lo']:+.3f}, {r['hi']:+.3f}] |")
    return lines
