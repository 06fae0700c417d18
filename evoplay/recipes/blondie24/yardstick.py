"""Yardsticks of Blondie24 networks that selection never sees.

Tic-tac-toe, every generation, exactly: the best network's player (network and search
depth, deterministic) as a move table over all boards, analysed with the exact analysis:
expected payoff per 32 games against ``logic`` moving first (Fogel's payoff table),
whether any line beats it as X and as O, its draw rate against ``minimax`` from both
seats. Checkers, at generation 1, every ``yardstick.every`` generations and at the last:
the best network against ``piece-difference`` searching as deep, over the committed
three-move ballots (the first ``yardstick.openings``; 0: all) from both colours, a game
drawn after ``game.max_plies`` plies; wins, draws, losses and the mean score per game
(+1 / 0 / -1) with its 95% interval. Those games go through ``toolbox.map`` in chunks.

Any other game (its ``yardstick`` is ``"baselines"``, the default), at the same
generations as checkers: the best network against the two players that need no knowledge
of the game, ``random`` and ``mcts:sims=yardstick.mcts_sims``, from both seats over
``yardstick.openings`` random openings (0: 50) of up to ``yardstick.random_plies`` uniform
random plies each; wins, draws, losses and the mean score per game with its 95%
interval, per opponent. The opponents' moves come from streams keyed by the game, so the
measurement repeats exactly. A game names its kind of yardstick (``exact``,
``piece-difference`` or ``baselines``) as its ``yardstick`` attribute.

Is a checkers run still improving? The best network of every measuring generation but
the last is kept; at the last, the final champion plays each of them over the same
ballots from both colours (``against_earlier``): a table of the latest against the earlier.
"""

from __future__ import annotations

import numpy as np

from evoplay.arena.match import play_game, random_opening
from evoplay.arena.specs import make_player
from evoplay.framework.stats import mean_ci
from evoplay.arena.game import capability
from evoplay.games import resolve_game
from evoplay.networks.evalnet import Evaluator
from evoplay.recipes.blondie24.play import play, ttt_move_table
from evoplay.tictactoe import exact
from evoplay.tictactoe.players import TablePlayer, onehot_table
from evoplay.tictactoe.players import make_player as table_player

TTT_COLUMNS = ("yard_logic32", "yard_unbeat_x", "yard_unbeat_o", "yard_mm_x_draw", "yard_mm_o_draw")
#: The game the piece-difference yardstick is defined on (its ballots and its material count).
PD_GAME = "checkers"
CHECKERS_COLUMNS = ("yard_gen", "yard_games", "yard_win", "yard_draw", "yard_loss", "yard_score", "yard_lo", "yard_hi")


def ttt_player(genome, sizes, king, depth: int) -> TablePlayer:
    """The tic-tac-toe table player of a network searching ``depth`` plies (for the exact analysis)."""
    return TablePlayer("blondie24", onehot_table(ttt_move_table(Evaluator(genome, sizes, king), depth)))


def ttt_facts(player) -> dict:
    """Exact yardstick of a tic-tac-toe player, as logbook columns (numbers; 0/1 for no/yes)."""
    minimax = table_player("minimax")
    return {
        "yard_logic32": 32 * exact.expected_payoff(player, table_player("logic")),
        "yard_unbeat_x": int(exact.unbeatable(player, as_x=True)),
        "yard_unbeat_o": int(exact.unbeatable(player, as_x=False)),
        "yard_mm_x_draw": exact.outcome(player, minimax).draw,
        "yard_mm_o_draw": exact.outcome(minimax, player).draw,
    }


def checkers_chunk(args):
    """``toolbox.map`` unit of work: the network's score (+1, 0, -1) in yardstick games ``first..last-1``.

    Game ``2 i + c`` starts from ballot ``i``; the network moves first (with the side to move
    after the ballot) when ``c = 0``, second when ``c = 1``. The opponent is
    ``("piece-difference", king value)`` or ``("network", genome, king)``, searching as deep;
    ``quiescence``: whether the networks extend captures (``searches_with_quiescence``).
    """
    from evoplay.recipes.blondie24.play import net_player

    genome, king, sizes, depth, quiescence, opponent, first, last, max_plies = args
    game = resolve_game(PD_GAME)
    net = net_player(game, genome, sizes, king, depth, quiescence)
    if opponent[0] == "piece-difference":
        other = piece_difference(game, depth, opponent[1])
    else:
        other = net_player(game, opponent[1], sizes, opponent[2], depth, quiescence)
    return ballot_scores(game, net, other, first, last, max_plies)


def ballot_scores(game, net, other, first: int, last: int, max_plies: int) -> np.ndarray:
    """``net``'s scores (+1, 0, -1) against ``other`` in ballot games ``first..last-1``: game ``2 i + c``
    from ballot ``i``, ``net`` moving first when ``c = 0``, second when ``c = 1``."""
    openings = game.openings()
    out = []
    for g in range(first, last):
        state = openings[g // 2]
        if g % 2 == 0:
            out.append(play(game, net, other, state, max_plies)[0])
        else:
            out.append(-play(game, other, net, state, max_plies)[0])
    return np.array(out, dtype=np.int64)


def checkers_scores(recipe, net, bounds, opponents=None) -> list[np.ndarray]:
    """Scores of ``net`` in the yardstick games against each opponent (default: piece
    difference alone), through the recipe's map: one job per opponent and chunk."""
    y = recipe.cfg["yardstick"]
    g = recipe.cfg["game"]
    opponents = opponents or [("piece-difference", y["pd_king"])]
    jobs = [(net.genome, net.king, recipe.sizes, recipe.depth, searches_with_quiescence(recipe, o), o, a, b,
             g["max_plies"]) for o in opponents for a, b in bounds]
    scores = list(recipe.toolbox.map(checkers_chunk, jobs))
    k = len(bounds)
    return [np.concatenate(scores[i * k:(i + 1) * k]) for i in range(len(opponents))]


def searches_with_quiescence(recipe, opponent) -> bool:
    """Whether the network extends captures past its horizon in games against ``opponent``:
    against piece difference never (it searches a fixed depth, and so does the network, as
    its player file plays: the score is the evaluations' difference, not the searches');
    against another network as the run's games do (``game.quiescence``), both alike."""
    return opponent[0] != "piece-difference" and bool(recipe.cfg["game"]["quiescence"])


def n_games(recipe) -> int:
    k, ballots = recipe.cfg["yardstick"]["openings"], len(resolve_game(PD_GAME).openings())
    return 2 * (min(k, ballots) if k else ballots)


def piece_difference(game, depth: int, king: float):
    """The game's own ``piece-difference`` player searching ``depth`` plies, kings worth ``king``
    (built from its spec, the float written so that it reads back the same)."""
    return make_player(game, f"piece-difference:depth={int(depth)},king={float(king)!r}")


#: Yardstick games in one task when a run's end (the league's champion, the duels) measures a network.
SLICE = 20


def slices(n: int) -> list[tuple[int, int]]:
    """The games 0..n-1 as consecutive (first, last) slices of ``SLICE`` games, one task each."""
    return [(a, min(a + SLICE, n)) for a in range(0, n, SLICE)]


def summarize(scores: np.ndarray, gen: int) -> dict:
    mean, lo, hi = mean_ci(scores)
    return {"yard_gen": gen, "yard_games": int(len(scores)), "yard_win": int((scores == 1).sum()),
            "yard_draw": int((scores == 0).sum()), "yard_loss": int((scores == -1).sum()),
            "yard_score": float(mean), "yard_lo": float(lo), "yard_hi": float(hi)}


def measure(recipe, best, ctx, last: dict) -> dict:
    """The generation's yardstick columns (by games: the last measurement between measuring generations)."""
    if kind(recipe) == "exact":
        return ttt_facts(ttt_player(best.genome, recipe.sizes, best.king, recipe.depth))
    if not (measuring(recipe, ctx.generation) or not last):
        return dict(last)
    if kind(recipe) == "baselines":
        return baseline_facts(recipe, best, ctx)
    return summarize(checkers_scores(recipe, best, ctx.bounds(n_games(recipe)))[0], ctx.generation)


def kind(recipe) -> str:
    """The game's kind of yardstick: ``exact``, ``piece-difference`` or ``baselines`` (the default)."""
    return capability(resolve_game(recipe.game), "yardstick")


def by_matches(recipe) -> bool:
    """Whether the yardstick plays games (every ``yardstick.every`` generations), not exact analysis."""
    return kind(recipe) != "exact"


def measuring(recipe, gen: int) -> bool:
    """Whether generation ``gen`` measures a yardstick by games: the first, every ``every``-th, the last."""
    return gen == 1 or gen % recipe.cfg["yardstick"]["every"] == 0 or gen == recipe.cfg[""]["generations"]


def against_earlier(recipe, best, earlier: list[dict], ctx) -> list[dict]:
    """The final champion against each kept earlier champion, over the yardstick's ballots from both colours:
    one row per earlier champion (its generation, the latest's wins, draws, losses, mean score and interval)."""
    if not earlier:
        return []
    opponents = [("network", np.array(e["genome"], dtype=np.float64), float(e["king"])) for e in earlier]
    scores = checkers_scores(recipe, best, ctx.bounds(n_games(recipe)), opponents)
    rows = []
    for e, s in zip(earlier, scores):
        row = summarize(s, e["gen"])
        rows.append({"gen": e["gen"], **{k.removeprefix("yard_"): v for k, v in row.items() if k != "yard_gen"}})
    return rows


def champion_facts(recipe, champ) -> dict:
    """The yardstick of a trial's champion (the best network of the last generation) as summary facts."""
    if kind(recipe) == "exact":
        y = ttt_facts(ttt_player(champ.genome, recipe.sizes, champ.king, recipe.depth))
        return {"champion_logic32": y["yard_logic32"], "champion_unbeatable_as_x": bool(y["yard_unbeat_x"]),
                "champion_unbeatable_as_o": bool(y["yard_unbeat_o"]), "champion_vs_minimax_as_x_draw": y["yard_mm_x_draw"],
                "champion_vs_minimax_as_o_draw": y["yard_mm_o_draw"], "score": y["yard_logic32"]}
    return {}


def analysis(game: str, sizes, depth: int, genome, king: float) -> dict:
    """Facts of a champion file for study tables (games judged exactly only: cheap)."""
    if not capability(resolve_game(game), "exact"):
        return {}
    y = ttt_facts(ttt_player(genome, sizes, king, depth))
    return {"expected_payoff": y["yard_logic32"], "unbeatable_as_x": bool(y["yard_unbeat_x"]),
            "unbeatable_as_o": bool(y["yard_unbeat_o"])}


# ---------------------------------------------------------------- any game: random and mcts

BASELINES = ("random", "mcts")
#: Stream purpose of the baselines' yardstick (after the recipe's PAIRING and OPENING).
YARDSTICK = 7
#: Random openings of the baselines' yardstick when ``yardstick.openings`` is 0.
BASELINE_OPENINGS = 50


def baseline_opponents(recipe) -> list[str]:
    return ["random", f"mcts:sims={recipe.cfg['yardstick']['mcts_sims']}"]


def baseline_openings(recipe) -> int:
    return recipe.cfg["yardstick"]["openings"] or BASELINE_OPENINGS


def baseline_chunk(args):
    """``toolbox.map`` unit of work: the network's score (+1, 0, -1) in baseline games ``first..last-1``
    against ``opponent`` (a spec of the game's). Game ``2 i + c`` starts from random opening ``i``
    (up to ``plies`` uniform plies, drawn from the stream keyed ``(seed, i)``); the network plays
    the side that moved first when ``c = 0``, the other when ``c = 1``; the opponent's draws come
    from the stream keyed ``(seed, 1, g)``."""
    from evoplay.arena.match import keyed_rng
    from evoplay.arena.specs import make_player
    from evoplay.recipes.blondie24.play import net_player

    ref, genome, king, sizes, depth, quiescence, opponent, seed, plies, first, last, max_plies = args
    game = resolve_game(ref)
    net = net_player(game, genome, sizes, king, depth, quiescence)
    other = make_player(game, opponent)
    out = []
    for g in range(first, last):
        state = random_opening(game, keyed_rng(seed, g // 2), plies)
        mine = g % 2  # the network's side
        players = {mine: net, 1 - mine: other}
        out.append(_score_as(game, players, state, mine, keyed_rng(seed, 1, g), max_plies))
    return np.array(out, dtype=np.int64)


def _score_as(game, players: dict, state, side: int, rng, max_plies: int) -> int:
    """The final score of ``side`` (+1, 0, -1) with ``players`` by side, drawn after ``max_plies``."""
    score = play_game(game, players[0], players[1], state, rng, max_plies=max_plies)[0]
    return score if side == 0 else -score


def baseline_facts(recipe, net, ctx) -> dict:
    """The best network against random and mcts: per opponent the win, draw and loss fractions,
    the mean score and its 95% interval, as logbook columns."""
    g = recipe.cfg["game"]
    seed = int(ctx.stream(YARDSTICK).integers(2**63))  # the yardstick's own stream: selection never sees it
    n = 2 * baseline_openings(recipe)
    opponents = baseline_opponents(recipe)
    bounds = ctx.bounds(n)
    jobs = [(recipe.game, net.genome, net.king, recipe.sizes, recipe.depth, g["quiescence"], o, seed,
             recipe.cfg["yardstick"]["random_plies"], a, b, g["max_plies"]) for o in opponents for a, b in bounds]
    scores = list(recipe.toolbox.map(baseline_chunk, jobs))
    k = len(bounds)
    facts = {"yard_gen": ctx.generation, "yard_games": n}
    for name, i in zip(BASELINES, range(len(opponents))):
        s = np.concatenate(scores[i * k:(i + 1) * k])
        mean, lo, hi = mean_ci(s)
        facts |= {f"yard_{name}_win": float((s == 1).mean()), f"yard_{name}_draw": float((s == 0).mean()),
                  f"yard_{name}_loss": float((s == -1).mean()), f"yard_{name}_score": float(mean),
                  f"yard_{name}_lo": float(lo), f"yard_{name}_hi": float(hi)}
    return facts


def baseline_report(recipe, run_dir) -> list[str]:
    """``evoplay report`` of a run judged against the baselines: the table of its champions'
    recorded yardstick games (``recipes.yardstick_table``), written as analysis.md and
    analysis.json; no lines (the command plays the games then) when a trial lacks them."""
    from evoplay.framework.rundir import RunDir
    from evoplay.recipes import yardstick_table

    summary = RunDir(run_dir).read_summary()
    names = dict(zip(BASELINES, baseline_opponents(recipe)))
    rows = {}
    for facts in summary.get("per_trial", []):
        found = yardstick_table.recorded_rows(facts, names) if isinstance(facts, dict) else None
        if found is None:
            return []
        rows[facts["trial"]] = found
    how = {"source": "recorded", "openings": baseline_openings(recipe), "random_plies": recipe.cfg["yardstick"]["random_plies"]}
    result = yardstick_table.analyze_run(run_dir, summary, resolve_game(recipe.game), rows, how)
    return yardstick_table.summary_lines(run_dir, result)
