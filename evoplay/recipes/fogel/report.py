"""Exact analysis of a run's champions: ``python -m evoplay.recipes.fogel.report RUN_DIR``.

For each trial's champion, computed exactly (no sampling): expected payoff per 32 games
against ``logic``, whether it is unbeatable as X, its minimax agreement (X to move), and
its win/draw/loss against ``random`` and ``logic`` moving first. Writes analysis.md and
analysis.json into the run directory, beside two references: the best-response ceiling
against ``logic`` and the payoff of ``minimax`` against ``logic``.
"""

from __future__ import annotations

import json
import sys

from evoplay.tictactoe import board as B
from evoplay.tictactoe import exact
from evoplay.atomic import write_text
from evoplay.errors import EvoplayError
from evoplay.tictactoe.players import make_player
from evoplay.tictactoe.playerfile import load_player
from evoplay.framework.rundir import RunDir

GAMES = 32


def champion_row(player, trial: int, hidden: int) -> dict:
    logic, rnd = make_player("logic"), make_player("random")
    vs_logic, vs_random = exact.outcome(player, logic), exact.outcome(player, rnd)
    return {
        "trial": trial,
        "hidden": hidden,
        "expected_payoff_32_vs_logic": GAMES * vs_logic.payoff(),
        "unbeatable_as_x": exact.unbeatable(player, as_x=True),
        "minimax_agreement_x": exact.minimax_agreement(player, mark=B.X),
        "vs_logic": [vs_logic.x_win, vs_logic.draw, vs_logic.o_win],
        "vs_random": [vs_random.x_win, vs_random.draw, vs_random.o_win],
    }


def analyze_run(root) -> dict:
    rd = RunDir(root)
    summary = rd.read_summary()
    rows = []
    for t in range(summary["trials"]):
        hidden = json.loads(rd.champion(t).read_text())["architecture"]["hidden"]
        rows.append(champion_row(load_player(rd.champion(t)), t, hidden))
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


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python -m evoplay.recipes.fogel.report RUN_DIR", file=sys.stderr)
        return 2
    try:
        result = analyze_run(argv[0])
    except EvoplayError as e:
        print(f"evoplay: error: {e}", file=sys.stderr)
        return 2
    root = RunDir(argv[0]).root
    best = result["champions"][result["best_trial"]]
    refs = result["references"]
    print(f"curve: {root / 'curve.png'} (and curve.svg)")
    print(f"analysis: {root / 'analysis.md'}")
    print(f"champion: {root / 'champion.json'} (trial {best['trial']}, H={best['hidden']})")
    print(f"  exact vs logic (moving first):  win {best['vs_logic'][0]:.4f}  draw {best['vs_logic'][1]:.4f}  loss {best['vs_logic'][2]:.4f}")
    print(f"  exact vs random (moving first): win {best['vs_random'][0]:.4f}  draw {best['vs_random'][1]:.4f}  loss {best['vs_random'][2]:.4f}")
    print(f"  expected payoff per 32 games vs logic: {best['expected_payoff_32_vs_logic']:.2f} "
          f"(best response {refs['best_response_32_vs_logic']:.2f}, minimax {refs['minimax_32_vs_logic']:.2f})")
    print(f"  unbeatable as X: {'yes' if best['unbeatable_as_x'] else 'no'}; minimax agreement (X to move): {100 * best['minimax_agreement_x']:.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
