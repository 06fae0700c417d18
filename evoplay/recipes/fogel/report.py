"""Exact analysis of a run's champions: what ``evoplay report RUN_DIR`` computes and writes.

For each trial's champion, computed exactly (no sampling): expected payoff per 32 games
against ``logic``, whether it is unbeatable as X, its minimax agreement (X to move), and
its win/draw/loss against ``random`` and ``logic`` moving first. Writes analysis.md and
analysis.json into the run directory, beside two references: the best-response ceiling
against ``logic`` and the payoff of ``minimax`` against ``logic``.
"""

from __future__ import annotations

import sys

from evoplay.tictactoe import board
from evoplay.tictactoe import exact
from evoplay.files.atomic import write_text
from evoplay.tictactoe.players import make_player
from evoplay.files.playerfile import build_player, read_document
from evoplay.framework.rundir import RunDir

GAMES = 32


def hidden_label(architecture: dict):
    """A champion's hidden size as the report shows it: Fogel's H, ``40-10`` for layers, ``-`` for none."""
    hidden = architecture.get("hidden")
    if isinstance(hidden, list):
        return "-".join(str(h) for h in hidden)
    return "-" if hidden is None else hidden


def hidden_words(label) -> str:
    """The summary's words for a champion's hidden size: ``, H=10``, ``, H=40-10``, and nothing
    for a network without one (``-``), rather than ``H=-`` or ``H=None``."""
    return "" if label in ("-", None) else f", H={label}"


def champion_row(player, trial: int, hidden: int) -> dict:
    logic, rnd = make_player("logic"), make_player("random")
    vs_logic, vs_random = exact.outcome(player, logic), exact.outcome(player, rnd)
    return {
        "trial": trial,
        "hidden": hidden,
        "expected_payoff_32_vs_logic": GAMES * vs_logic.payoff(),
        "unbeatable_as_x": exact.unbeatable(player, as_x=True),
        "minimax_agreement_x": exact.minimax_agreement(player, mark=board.X),
        "vs_logic": [vs_logic.x_win, vs_logic.draw, vs_logic.o_win],
        "vs_random": [vs_random.x_win, vs_random.draw, vs_random.o_win],
    }


def analyze_run(root, summary: dict | None = None) -> dict:
    """Analyse every trial's champion exactly; write analysis.json and analysis.md into the run.

    ``summary`` is the run's summary.json when the caller has read (and checked) it.
    """
    rd = RunDir(root)
    summary = rd.read_summary() if summary is None else summary
    rows = []
    for t in range(summary["trials"]):
        doc = read_document(rd.champion(t))
        rows.append(champion_row(build_player(doc, rd.champion(t)), t, hidden_label(doc["architecture"])))
    logic = make_player("logic")
    refs = {
        "best_response_32_vs_logic": GAMES * exact.best_response_payoff(logic),
        "minimax_32_vs_logic": GAMES * exact.expected_payoff(make_player("minimax"), logic),
    }
    result = {"run": summary["name"], "seed": summary["seed"], "best_trial": summary["best_trial"], "references": refs, "champions": rows}
    rd.write_json(rd.root / "analysis.json", result)
    write_text(rd.root / "analysis.md", markdown(result))
    return result


def _wdl(p):
    return "/".join(f"{100 * x:.1f}" for x in p)


def markdown(result: dict) -> str:
    refs = result["references"]
    lines = [
        f"# Champions of `{result['run']}` (seed {result['seed']}), computed exactly",
        "",
        f"References: best-response ceiling against `logic` **{refs['best_response_32_vs_logic']:.2f}** per 32 games; "
        f"`minimax` against `logic` **{refs['minimax_32_vs_logic']:.2f}** per 32 games.",
        "",
        "| trial | H | expected payoff / 32 games vs logic | unbeatable as X | minimax agreement (X to move) | vs logic W/D/L % | vs random W/D/L % |",
        "|---:|---:|---:|:---:|---:|---:|---:|",
    ]
    for r in result["champions"]:
        star = " (best)" if r["trial"] == result["best_trial"] else ""
        lines.append(
            f"| {r['trial']}{star} | {r['hidden']} | {r['expected_payoff_32_vs_logic']:.2f} | {'yes' if r['unbeatable_as_x'] else 'no'} | "
            f"{100 * r['minimax_agreement_x']:.1f}% | {_wdl(r['vs_logic'])} | {_wdl(r['vs_random'])} |"
        )
    return "\n".join(lines) + "\n"


def summary_lines(root, result: dict) -> list[str]:
    """What ``evoplay report`` prints: where the files are and the best champion's facts."""
    root = RunDir(root).root
    best = result["champions"][result["best_trial"]]
    refs = result["references"]
    wdl = {k: "  ".join(f"{n} {p:.4f}" for n, p in zip(("win", "draw", "loss"), best[k])) for k in ("vs_logic", "vs_random")}
    return [
        f"curve: {root / 'curve.png'} (and curve.svg)",
        f"analysis: {root / 'analysis.md'}",
        f"champion: {root / 'champion.json'} (trial {best['trial']}{hidden_words(best['hidden'])})",
        f"  exact vs logic (moving first):  {wdl['vs_logic']}",
        f"  exact vs random (moving first): {wdl['vs_random']}",
        f"  expected payoff per 32 games vs logic: {best['expected_payoff_32_vs_logic']:.2f} "
        f"(best response {refs['best_response_32_vs_logic']:.2f}, minimax {refs['minimax_32_vs_logic']:.2f})",
        f"  unbeatable as X: {'yes' if best['unbeatable_as_x'] else 'no'}; "
        f"minimax agreement (X to move): {100 * best['minimax_agreement_x']:.1f}%",
    ]


if __name__ == "__main__":  # the command line lives in evoplay.cli; a recipe never imports it
    print("evoplay: error: run `evoplay report RUN_DIR` (or `python -m evoplay report RUN_DIR`)", file=sys.stderr)
    sys.exit(2)
