"""Gibson's softmax-minimax page: softmax-minimax tic-tac-toe, its win probabilities and first-move scores.

Both sides play softmax-minimax and know each other's temperature: a board's value is
its expected score for X (+1 X wins, -1 O wins, 0 draw) when X moves at ``t_x`` and O at
``t_o`` (``players.softmax_values``), and each side picks a move with probability
proportional to ``exp(+-value / t)`` of the boards it can move to. In evoplay's players
that is X = ``softmax:t=t_x,model_t=t_o`` against O = ``softmax:t=t_o,model_t=t_x``.

The page's figures, from 1,000 sampled games per point:

1. the probabilities that X wins, that O wins and of a draw, against O's temperature,
   for X's temperature 1 and 0.1;
2. the expected score (X's view) of X's first move, corner (square 0), centre (4) or
   edge (1), against O's temperature: the softmax value of the board after that move.

evoplay computes both exactly over the game tree and, beside them, samples 1,000 games
per point (seeded) as the page did. O's temperature runs over ``T_O``: 31 log-spaced
values from 0.01 to 10 (ten per decade).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from evoplay.published.common import pyplot, save_figure, write_json
from evoplay.files.atomic import write_text
from evoplay.tictactoe import board
from evoplay.tictactoe import engine, exact
from evoplay.tictactoe import players as ttt_players
from evoplay.arena.match import keyed_rng
from evoplay.framework.stats import wilson_interval

#: O's temperatures: 10 ** (-2 + k / 10) for k = 0..30.
T_O = tuple(float(f"{10 ** (-2 + k / 10):.6g}") for k in range(31))
T_X = (1.0, 0.1)
GAMES = 1000  # per point, as on the page
SEED = 0
FIRST_MOVES = {"corner": 0, "centre": 4, "edge": 1}
#: The page's check position: X to move at t = 0.2 against O at 1.0.
CHECK_BOARD = "X X . / O O . / X O ."
CHECK_TEMPS = (0.2, 1.0)
CHECK_PUBLISHED = {"value": 0.9813, "move_percent": {"2": 97.46, "5": 2.52, "8": 0.02}}


def players(t_x: float, t_o: float):
    """The two softmax players, each knowing the other's temperature (not cached)."""
    return ttt_players.make_softmax(t_x, t_o), ttt_players.make_softmax(t_o, t_x)


def opening(first: int, x_player) -> ttt_players.TablePlayer:
    """``x_player`` forced to open on square ``first`` (for sampling a first move's score)."""
    table = np.array(x_player.table)
    table[0] = 0.0
    table[0, first] = 1.0
    return ttt_players.TablePlayer(f"{x_player.spec}+open{first}", table)


def exact_point(t_x: float, t_o: float) -> dict:
    """Exact win probabilities and first-move scores at one pair of temperatures."""
    x, o = players(t_x, t_o)
    out = exact.outcome(x, o)
    values = ttt_players.softmax_values(t_x, t_o)
    return {
        "x_win": out.x_win, "draw": out.draw, "o_win": out.o_win,
        "score": {name: float(values[board.play(0, sq)]) for name, sq in FIRST_MOVES.items()},
    }


def sampled_point(t_x: float, t_o: float, games: int, seed: int, key: tuple) -> dict:
    """The same figures from ``games`` sampled games each (stream ``seed``/``key``)."""
    x, o = players(t_x, t_o)
    counts = engine.tally(engine.play(x, o, keyed_rng(seed, *key, 0).random((games, 9))))
    out = {k: counts[k] / games for k in ("x_win", "draw", "o_win")}
    out["interval"] = {k: wilson_interval(counts[k], games) for k in ("x_win", "draw", "o_win")}
    out["score"], out["score_interval"] = {}, {}
    for j, (name, sq) in enumerate(FIRST_MOVES.items(), start=1):
        res = engine.tally(engine.play(opening(sq, x), o, keyed_rng(seed, *key, j).random((games, 9))))
        scores = np.repeat([1.0, 0.0, -1.0], [res["x_win"], res["draw"], res["o_win"]])
        mean, half = scores.mean(), 1.96 * scores.std(ddof=1) / math.sqrt(games)
        out["score"][name] = float(mean)
        out["score_interval"][name] = (float(mean - half), float(mean + half))
    return out


def check_position() -> dict:
    """The page's check position: its value and X's move probabilities (percent)."""
    code = board.parse(CHECK_BOARD)
    t, model_t = CHECK_TEMPS
    probs = ttt_players.make_softmax(t, model_t).probs([code])[0]
    return {
        "board": CHECK_BOARD,
        "value": float(ttt_players.softmax_values(t, model_t)[code]),
        "move_percent": {str(s): float(100 * probs[s]) for s in np.flatnonzero(probs)},  # by square
    }


def compute(t_o=T_O, t_x=T_X, games: int = GAMES, seed: int = SEED) -> dict:
    """Every point of both figure families, exact and sampled."""
    panels = []
    for i, tx in enumerate(t_x):
        points = []
        for j, to in enumerate(t_o):
            points.append({"t_o": to, "exact": exact_point(tx, to), "sampled": sampled_point(tx, to, games, seed, (i, j))})
        panels.append({"t_x": tx, "points": points})
    return {
        "t_o": list(t_o), "t_x": list(t_x), "games_per_point": games, "seed": seed,
        "first_moves": FIRST_MOVES, "check_position": check_position(), "check_published": CHECK_PUBLISHED,
        "panels": panels,
    }


def plot_wins(data: dict, path) -> None:
    plt = pyplot()
    panels = data["panels"]
    fig, axes = plt.subplots(1, len(panels), figsize=(6.5 * len(panels), 4.6), sharey=True, squeeze=False)
    series = (("x_win", "X wins", "tab:blue"), ("o_win", "O wins", "tab:red"), ("draw", "draw", "tab:green"))
    for ax, panel in zip(axes[0], panels):
        t = np.array([p["t_o"] for p in panel["points"]])
        for key, label, color in series:
            ax.plot(t, [p["exact"][key] for p in panel["points"]], color=color, lw=1.6, label=f"{label} (exact)")
            s = np.array([p["sampled"][key] for p in panel["points"]])
            lo, hi = np.array([p["sampled"]["interval"][key] for p in panel["points"]]).T
            ax.errorbar(t, s, yerr=[s - lo, hi - s], fmt="o", ms=3, color=color, alpha=0.6, elinewidth=0.8,
                        label=f"{label} ({data['games_per_point']:,} games, 95%)")
        ax.set_xscale("log")
        ax.set_title(f"X's temperature {panel['t_x']:g}")
        ax.set_xlabel("O's temperature")
        ax.grid(alpha=0.3, which="both")
    axes[0][0].set_ylabel("probability")
    axes[0][0].set_ylim(-0.02, 1.02)
    axes[0][-1].legend(fontsize=7, loc="center right")
    fig.suptitle("Softmax-minimax against softmax-minimax: result probabilities")
    save_figure(fig, path)


def plot_scores(data: dict, path) -> None:
    plt = pyplot()
    panels = data["panels"]
    fig, axes = plt.subplots(1, len(panels), figsize=(6.5 * len(panels), 4.6), sharey=True, squeeze=False)
    colors = {"corner": "tab:purple", "centre": "tab:orange", "edge": "tab:gray"}
    for ax, panel in zip(axes[0], panels):
        t = np.array([p["t_o"] for p in panel["points"]])
        for name, sq in data["first_moves"].items():
            ax.plot(t, [p["exact"]["score"][name] for p in panel["points"]], color=colors[name], lw=1.6,
                    label=f"{name} ({sq}), exact")
            s = np.array([p["sampled"]["score"][name] for p in panel["points"]])
            lo, hi = np.array([p["sampled"]["score_interval"][name] for p in panel["points"]]).T
            ax.errorbar(t, s, yerr=[s - lo, hi - s], fmt="o", ms=3, color=colors[name], alpha=0.6, elinewidth=0.8,
                        label=f"{name}, {data['games_per_point']:,} games (95%)")
        ax.set_xscale("log")
        ax.set_title(f"X's temperature {panel['t_x']:g}")
        ax.set_xlabel("O's temperature")
        ax.grid(alpha=0.3, which="both")
    axes[0][0].set_ylabel("expected score for X (+1 win, 0 draw, -1 loss)")
    axes[0][-1].legend(fontsize=7, loc="lower right")
    fig.suptitle("Expected score of X's first move")
    save_figure(fig, path)


def table(data: dict) -> str:
    """Published figure, evoplay's figure, and how it was obtained, at a few temperatures."""
    chk, pub = data["check_position"], data["check_published"]
    moves = " / ".join(f"{chk['move_percent'][s]:.2f}" for s in "258")
    n = data["games_per_point"]
    lines = [
        "| figure | published | evoplay | how |",
        "|---|---|---|---|",
        f"| check position `{chk['board']}`, X at t=0.2, O at 1.0: value | {pub['value']} | {chk['value']:.4f} | exact |",
        f"| same: X's move to 2 / 5 / 8, % | 97.46 / 2.52 / 0.02 | {moves} | exact |",
    ]
    shown = [0.01, 0.1, 1.0, 10.0]
    for panel in data["panels"]:
        for p in panel["points"]:
            if p["t_o"] not in shown:
                continue
            e, s = p["exact"], p["sampled"]
            iv = s["interval"]
            lines.append(
                f"| X wins / draw / O wins %, t_x={panel['t_x']:g}, t_o={p['t_o']:g} | figure 1 ({n:,} games per point) | "
                f"{100 * e['x_win']:.1f} / {100 * e['draw']:.1f} / {100 * e['o_win']:.1f} exact; sampled "
                f"{100 * s['x_win']:.1f} [{100 * iv['x_win'][0]:.1f}, {100 * iv['x_win'][1]:.1f}] / "
                f"{100 * s['draw']:.1f} [{100 * iv['draw'][0]:.1f}, {100 * iv['draw'][1]:.1f}] / "
                f"{100 * s['o_win']:.1f} [{100 * iv['o_win'][0]:.1f}, {100 * iv['o_win'][1]:.1f}] | "
                f"exact; sampled, {n:,} games, 95% Wilson |"
            )
    for panel in data["panels"]:
        for p in panel["points"]:
            if p["t_o"] not in shown:
                continue
            e, s = p["exact"]["score"], p["sampled"]
            cells = " / ".join(f"{_signed(e[k])}" for k in FIRST_MOVES)
            samp = " / ".join(f"{_signed(s['score'][k])} [{_signed(s['score_interval'][k][0])}, "
                              f"{_signed(s['score_interval'][k][1])}]" for k in FIRST_MOVES)
            lines.append(
                f"| first-move score corner / centre / edge, t_x={panel['t_x']:g}, t_o={p['t_o']:g} | "
                f"figure 2 ({n:,} games per point) | {cells} exact; sampled {samp} | exact; sampled, {n:,} games, 95% normal |"
            )
    return "\n".join(lines) + "\n"


def _signed(x: float) -> str:
    return f"{round(x, 3) + 0.0:+.3f}"  # no "-0.000"


def write_results(out, data: dict, command: str) -> list[Path]:
    out = Path(out)
    data = {"command": command, **data}
    paths = [write_json(out / "gibson.json", data)]
    plot_wins(data, out / "win_probabilities")
    plot_scores(data, out / "first_move_scores")
    paths.append(write_text(out / "table.md", table(data)))
    return paths
