"""Any game's champions against the players every game has (random, mcts), from both seats.

The yardstick table that ``evoplay report`` writes as analysis.md and analysis.json for a
game without an exact analysis, and that ``evoplay analyze`` prints for a player of one.

A champion plays each opponent (the game's yardstick players ``random`` and
``mcts:sims=N``, which need no knowledge of the game) from both seats over random
openings: opening ``i`` is up to ``random_plies`` uniform random plies from the initial
position, drawn from the stream keyed ``(seed, i)`` (an opening that ended the game is
replaced by the initial position); game ``2 i + c`` starts from opening ``i`` with the
champion on the side that moved first when ``c = 0``, on the other when ``c = 1``, the
players' own draws from the stream keyed ``(seed, 1, g)``. These are the games Blondie24's
yardstick plays (``recipes.blondie24.yardstick.baseline_chunk``). Per opponent: wins,
draws, losses, the mean score per game (+1, 0, -1) and its 95% interval by
``framework.stats.score_interval`` (Wilson's interval for the share of points), which
cannot leave [-1, 1], where a t-interval of the scores does at 100% wins.

A run whose recipe recorded its champions' yardstick games (Blondie24 on any game but
tic-tac-toe and checkers) is reported from them; another run's champions play them when
the report is made (``played``).
"""

from __future__ import annotations

from evoplay.arena.game import capability, game_ref
from evoplay.arena.match import keyed_rng, play_game, random_opening
from evoplay.arena.specs import make_player
from evoplay.files.atomic import write_text
from evoplay.framework.rundir import RunDir
from evoplay.framework.stats import score_interval

#: Random openings of a table played now, each from both seats (Blondie24's default too).
OPENINGS = 50
#: Most uniform random plies of an opening (Blondie24's ``yardstick.random_plies`` default).
RANDOM_PLIES = 2
#: Simulations of the ``mcts`` yardstick player (Blondie24's ``yardstick.mcts_sims`` default).
MCTS_SIMS = 100


def opponents(mcts_sims: int = MCTS_SIMS) -> list[str]:
    """The game's yardstick players: uniform random, and UCT with ``mcts_sims`` random playouts."""
    return ["random", f"mcts:sims={mcts_sims}"]


def row(opponent: str, win: int, draw: int, loss: int) -> dict:
    """One opponent's line of the table: the counts, the mean score and its 95% interval."""
    games = win + draw + loss
    lo, hi = score_interval(win, draw, loss)
    return {"opponent": opponent, "games": games, "win": win, "draw": draw, "loss": loss,
            "score": (win - loss) / games if games else 0.0, "lo": lo, "hi": hi}


def play(game, player, opponent: str, openings: int, random_plies: int, seed: int, max_plies: int | None = None,
         progress=None) -> dict:
    """``player`` against the player ``opponent`` names, ``2 * openings`` games from both seats: its row
    (``progress(1)`` told after each game)."""
    other = make_player(game, opponent)
    counts = {1: 0, 0: 0, -1: 0}
    for g in range(2 * openings):
        state = random_opening(game, keyed_rng(seed, g // 2), random_plies)
        mine = g % 2
        players = (player, other) if mine == 0 else (other, player)
        score = play_game(game, *players, state, keyed_rng(seed, 1, g), max_plies=max_plies)[0]
        counts[score if mine == 0 else -score] += 1
        if progress is not None:
            progress(1)
    return row(opponent, counts[1], counts[0], counts[-1])


def recorded_rows(facts: dict, names: dict[str, str]) -> list[dict] | None:
    """A champion's rows from the facts a run recorded of its yardstick games (``champion_games``
    per opponent and ``champion_NAME_win``/``_draw``/``_loss`` fractions), ``names`` mapping each
    recorded NAME to its opponent's spec; None when the facts lack them."""
    games = facts.get("champion_games")
    keys = [f"champion_{name}_{k}" for name in names for k in ("win", "draw", "loss")]
    if not isinstance(games, int) or not all(isinstance(facts.get(k), (int, float)) for k in keys):
        return None
    return [row(spec, *(round(facts[f"champion_{name}_{k}"] * games) for k in ("win", "draw", "loss")))
            for name, spec in names.items()]


def analyze_run(run_dir, summary: dict, game, rows: dict[int, list[dict]], how: dict) -> dict:
    """The table of every trial's champion (``rows`` by trial); analysis.json and analysis.md
    written into the run. ``how`` says how the games were played (``source``: ``recorded`` by
    the run or ``played`` now; ``openings``, ``random_plies``)."""
    rd = RunDir(run_dir)
    result = {"run": summary["name"], "seed": summary["seed"], "game": game_ref(game), "title": title(game),
              "best_trial": summary["best_trial"],
              **how, "champions": [{"trial": t, "opponents": rows[t]} for t in sorted(rows)]}
    rd.write_json(rd.root / "analysis.json", result)
    write_text(rd.root / "analysis.md", markdown(result))
    return result


def title(game) -> str:
    """The name people know the game by (its declared ``title``), else its reference."""
    return capability(game, "title") or game_ref(game)


def interval_text(r: dict) -> str:
    return f"{r['score']:+.3f} [{r['lo']:+.3f}, {r['hi']:+.3f}]"


def _how_words(result: dict) -> str:
    source = "recorded by the run" if result["source"] == "recorded" else "played for this report"
    return (f"{counted(result['openings'], 'random opening')} of up to {counted(result['random_plies'], 'ply')}, "
            f"each from both seats, {source}")


def markdown(result: dict) -> str:
    """analysis.md: one table row per champion and opponent."""
    lines = [f"# Champions of `{result['run']}` (seed {result['seed']}), {result['title']}", "",
             f"Each trial's champion against the players every game has ({_how_words(result)}): "
             "score per game +1 win, 0 draw, -1 loss, with its 95% interval (Wilson's, for the share of points).", "",
             "| trial | opponent | games | wins | draws | losses | mean score [95% interval] |",
             "|---:|:---|---:|---:|---:|---:|---:|"]
    for champion in result["champions"]:
        star = " (best)" if champion["trial"] == result["best_trial"] else ""
        for r in champion["opponents"]:
            lines.append(f"| {champion['trial']}{star} | `{r['opponent']}` | {r['games']} | {r['win']} | {r['draw']} | "
                         f"{r['loss']} | {interval_text(r)} |")
    return "\n".join(lines) + "\n"


def summary_lines(run_dir, result: dict) -> list[str]:
    """What ``evoplay report`` prints of the table: where it is and each champion's rows."""
    root = RunDir(run_dir).root
    lines = [f"analysis: {root / 'analysis.md'}",
             f"champions against random and mcts ({result['title']}; {_how_words(result)}; mean score, 95% interval):"]
    for champion in result["champions"]:
        star = " (best)" if champion["trial"] == result["best_trial"] else ""
        lines.append(f"  trial {champion['trial']}{star}: " + "; ".join(
            f"vs {r['opponent']}: {counted(r['win'], 'win')}, {counted(r['draw'], 'draw')}, {counted(r['loss'], 'loss')}, "
            f"{interval_text(r)}" for r in champion["opponents"]))
    return lines


def counted(n: int, word: str) -> str:
    """``1 win``, ``2 wins``, ``0 losses``, ``2 plies``: a count and its word, plural where English wants it."""
    if n == 1:
        return f"{n} {word}"
    if word.endswith("y"):
        return f"{n} {word[:-1]}ies"
    return f"{n} {word}{'es' if word.endswith('s') else 's'}"
