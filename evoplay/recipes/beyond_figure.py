"""The yardstick curves of several runs in one figure, and the per-champion exact analysis of each.

``python -m evoplay.recipes.beyond_figure OUT.png RUN_DIR...`` reads each run's logbooks
(recipes ``fogel-exact``, ``fogel-selfadaptive`` and ``coevolution`` log the yardstick of
every generation's best network, see ``evoplay.recipes.fogel.exact_yardstick``) and draws, per run:
the mean over trials of the best network's exact payoff per 32 games against ``logic``
(with a 95% band), and the share of trials whose best network is unbeatable as X and as
O. The references are ``minimax``'s payoff against ``logic`` and the best-response ceiling.
With ``--analyze`` it also writes each run's per-champion exact table (analysis.md and
analysis.json, as ``evoplay report``) before drawing; with ``--table`` it prints one
Markdown line per run: its champions' mean and best exact payoff against ``logic``, how
many are unbeatable as X, as O and from both seats, and their draws against ``minimax``;
with ``--openings``, the champions of all the runs by opening square beside the best
payoff any policy gets against ``logic`` after that opening.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from evoplay.errors import EvoplayError
from evoplay.framework.plotting import FORMATS, plt, render
from evoplay.framework.rundir import RunDir, read_run_file
from evoplay.framework.stats import mean_band
from evoplay.files.atomic import write_bytes
from evoplay.tictactoe import board
from evoplay.tictactoe import exact
from evoplay.tictactoe.players import make_player


def yardstick_curves(root) -> dict:
    """Per generation, over the trials: mean and 95% half-width of ``yard_logic32``, shares unbeatable as X / O."""
    rd = RunDir(root)
    trials = rd.trials_present()
    if not trials:
        raise EvoplayError(f"{root}: no trial logbooks")
    books = [rd.read_logbook(t) for t in trials]
    if "yard_logic32" not in books[0]:
        raise EvoplayError(f"{root}: its logbooks have no yardstick columns (run it with fogel-exact, fogel-selfadaptive or coevolution)")
    n = min(len(b["gen"]) for b in books)
    logic = np.stack([b["yard_logic32"][:n] for b in books])
    mean, half = mean_band(logic)
    return {
        "name": rd.read_summary()["name"] if (rd.root / "summary.json").exists() else Path(root).name,
        "trials": len(trials),
        "gen": books[0]["gen"][:n],
        "logic32": mean,
        "band": half,
        "unbeat_x": np.stack([b["yard_unbeat_x"][:n] for b in books]).mean(0),
        "unbeat_o": np.stack([b["yard_unbeat_o"][:n] for b in books]).mean(0),
    }


def figure(out, roots) -> Path:
    out = Path(out)
    if out.suffix not in FORMATS:
        raise EvoplayError(f"{out}: the figure must end in {', '.join(FORMATS)}")
    curves = [yardstick_curves(r) for r in roots]
    logic = make_player("logic")
    ceiling = 32 * exact.best_response_payoff(logic)
    mm = 32 * exact.expected_payoff(make_player("minimax"), logic)
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 8), sharex=True, gridspec_kw={"height_ratios": [3, 2]})
    floor = -60.0  # far below this a curve is off the scale; its label says where it ends
    for i, c in enumerate(curves):
        color = f"C{i}"
        label = f"{c['name']} ({c['trials']} trials)"
        if c["logic32"][-1] < floor:
            label += f": ends at {c['logic32'][-1]:.1f}, below the axis"
        top.plot(c["gen"], c["logic32"], color=color, lw=1.2, label=label)
        top.fill_between(c["gen"], c["logic32"] - c["band"], c["logic32"] + c["band"], color=color, alpha=0.15, lw=0)
        bottom.plot(c["gen"], 100 * c["unbeat_x"], color=color, lw=1.2)
        bottom.plot(c["gen"], 100 * c["unbeat_o"], color=color, lw=1.2, ls="--")
    top.axhline(ceiling, color="k", ls=":", lw=1, label=f"best response to logic {ceiling:.2f}")
    top.axhline(mm, color="k", ls="--", lw=1, label=f"minimax {mm:.2f}")
    top.set_ylabel("best network: exact payoff / 32 games vs logic")
    lo = min(float(np.min(c["logic32"][len(c["gen"]) // 10 :])) for c in curves)
    top.set_ylim(max(lo - 10, floor), ceiling + 5)
    top.legend(fontsize=8, loc="lower right")
    top.set_title("Yardstick of every generation's best network (exact; selection never sees it)")
    bottom.set_ylabel("% of trials unbeatable")
    bottom.set_xlabel("generation")
    bottom.set_ylim(-3, 103)
    bottom.plot([], [], color="k", lw=1.2, label="unbeatable as X")
    bottom.plot([], [], color="k", lw=1.2, ls="--", label="unbeatable as O")
    bottom.legend(fontsize=8, loc="center right")  # colours as above
    fig.tight_layout()
    write_bytes(out, render(fig, out.suffix))
    plt.close(fig)
    return out


def champion_table(roots) -> str:
    """Markdown: per run, its champions' exact payoff per 32 games against logic (mean, best), unbeatable counts, draws against minimax.

    Reads each run's analysis.json (``evoplay report`` / ``--analyze``) and champion files.
    """
    from evoplay.recipes.fogel import exact_yardstick
    from evoplay.recipes.fogel.nets import net_from_file
    from evoplay.files.playerfile import read_document

    lines = [
        "| run | generations | mean payoff / 32 vs logic | best | unbeatable as X | unbeatable as O | both seats | mean P(draw) vs minimax as X / as O |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for root in roots:
        rd = RunDir(root)
        analysis = read_run_file(rd.root / "analysis.json")
        summary = rd.read_summary()
        yards = []
        for t in range(summary["trials"]):
            doc = read_document(rd.champion(t))
            yards.append(exact_yardstick.record(net_from_file(doc["architecture"], doc["weights"])))
        pay = np.array([c["expected_payoff_32_vs_logic"] for c in analysis["champions"]])
        ux = np.array([y["yard_unbeat_x"] for y in yards])
        uo = np.array([y["yard_unbeat_o"] for y in yards])
        n = len(pay)
        lines.append(
            f"| `{summary['name']}` | {summary['generations']} | {pay.mean():.2f} | {pay.max():.2f} | {ux.sum()}/{n} | {uo.sum()}/{n} | {(ux & uo).sum()}/{n} | "
            f"{np.mean([y['yard_mm_x_draw'] for y in yards]):.2f} / {np.mean([y['yard_mm_o_draw'] for y in yards]):.2f} |"
        )
    return "\n".join(lines) + "\n"


def opening_values(opponent, table=exact.FOGEL_PAYOFF) -> np.ndarray:
    """Best-response payoff per game of X against ``opponent`` after each opening square (9 values).

    ``exact.best_response_payoff`` is the largest of them: the expectimax value of the
    empty board; these are the values of its nine children.
    """
    win, draw, loss = table
    value = np.zeros(board.N_CODES)
    value[board.OUTCOME == board.DRAW], value[board.OUTCOME == board.X_WIN], value[board.OUTCOME == board.O_WIN] = draw, win, loss
    probs = opponent.probs(np.arange(board.N_CODES))
    for n in range(8, 0, -1):
        layer = np.flatnonzero((board.N_MARKS == n) & (board.OUTCOME == board.ONGOING))
        kids = np.where(board.LEGAL[layer], value[np.maximum(board.CHILD[layer], 0)], np.nan)
        best = np.nanmax(kids, axis=1)
        mean = np.nansum(kids * probs[layer], axis=1)
        value[layer] = np.where(board.TO_MOVE[layer] == board.X, best, mean)
    return value[board.CHILD[0]]


def opening_table(roots) -> str:
    """Markdown: champions of the runs by opening square, with the best any policy can do after that opening."""
    from evoplay.files.playerfile import build_player, read_document

    logic = make_player("logic")
    ceiling = 32 * opening_values(logic)
    rows = {}
    for root in roots:
        rd = RunDir(root)
        for t in range(rd.read_summary()["trials"]):
            player = build_player(read_document(rd.champion(t)), rd.champion(t))
            rows.setdefault(int(np.argmax(player.probs([0])[0])), []).append(32 * exact.expected_payoff(player, logic))
    kinds = {0: "corner", 2: "corner", 6: "corner", 8: "corner", 4: "centre"}
    lines = ["| opening | champions | their mean | their best | best response after this opening |", "|---|---:|---:|---:|---:|"]
    for sq in sorted(rows):
        v = np.array(rows[sq])
        lines.append(f"| {sq} ({kinds.get(sq, 'edge')}) | {len(v)} | {v.mean():.2f} | {v.max():.2f} | {ceiling[sq]:.2f} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    analyze, table, openings = "--analyze" in argv, "--table" in argv, "--openings" in argv
    args = [a for a in argv if a not in ("--analyze", "--table", "--openings")]
    if len(args) < 2:
        print("usage: python -m evoplay.recipes.beyond_figure [--analyze] [--table] [--openings] OUT.png RUN_DIR...", file=sys.stderr)
        return 2
    try:
        if analyze:
            from evoplay.recipes.fogel.report import analyze_run

            for root in args[1:]:
                analyze_run(root)
        print(figure(args[0], args[1:]))
        if table:
            print(champion_table(args[1:]), end="")
        if openings:
            print(opening_table(args[1:]), end="")
    except EvoplayError as e:
        print(f"evoplay: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
