"""`evoplay report` for a checkers run: its champions' yardsticks, written as analysis.md and analysis.json.

Checkers cannot be analysed exactly, so the report is what the run measured with games:
each trial's champion against ``piece-difference`` searching as deep over the three-move
ballots from both colours (wins, draws, losses, mean score with its 95% interval), and
the champion against the best networks of the earlier measuring generations; and, once
``evoplay report RUN --league N`` has played it (``league``), the last parents' league and
its champion against piece difference.
"""

from __future__ import annotations

from evoplay.files.atomic import write_text
from evoplay.framework.rundir import RunDir
from evoplay.recipes.blondie24 import duels as _duels
from evoplay.recipes.blondie24 import league as _league

YARD = ("games", "win", "draw", "loss", "score", "lo", "hi")


def analyze_checkers_run(run_dir, summary: dict, depth: int) -> dict:
    """The champions' yardsticks from the run's summary; analysis.json and analysis.md written into the run."""
    rd = RunDir(run_dir)
    rows = []
    for facts in summary["per_trial"]:
        # a TDLeaf run's summary holds no king (K is fixed): its champion's file does
        king = facts["champion_king"] if "champion_king" in facts else _file_king(rd, facts["trial"])
        row = {"trial": facts["trial"], "king": king,
               **{k: facts[f"champion_{k}"] for k in YARD}, "vs_earlier": facts.get("champion_vs_earlier", [])}
        rows.append(row)
    result = {"run": summary["name"], "seed": summary["seed"], "game": "checkers", "depth": depth,
              "best_trial": summary["best_trial"], "champions": rows}
    league = _league.read_league(run_dir)
    if league:
        result["league"] = league
    duels = _duels.read_duels(run_dir)
    if duels:
        result["duels"] = duels
    rd.write_json(rd.root / "analysis.json", result)
    write_text(rd.root / "analysis.md", markdown(result))
    return result


def _file_king(rd: RunDir, trial: int) -> float:
    """The king value K in a trial's champion file (checked when the run wrote it)."""
    import json

    return float(json.loads(rd.champion(trial).read_text())["weights"]["king"][0])


def _score(r: dict) -> str:
    return f"{r['score']:+.3f} [{r['lo']:+.3f}, {r['hi']:+.3f}]"


def markdown(result: dict) -> str:
    d = result["depth"]
    lines = [f"# Champions of `{result['run']}` (seed {result['seed']}), checkers at depth {d}", "",
             f"Against `piece-difference:depth={d}` over the three-move ballots, from both colours: "
             "score per game +1 win, 0 draw, -1 loss, with its 95% interval.", "",
             "| trial | king value | games | wins | draws | losses | mean score [95% interval] |",
             "|---:|---:|---:|---:|---:|---:|---:|"]
    for r in result["champions"]:
        star = " (best)" if r["trial"] == result["best_trial"] else ""
        lines.append(f"| {r['trial']}{star} | {r['king']:.3f} | {r['games']} | {r['win']} | {r['draw']} | {r['loss']} | {_score(r)} |")
    for r in result["champions"]:
        if r["vs_earlier"]:
            lines += ["", f"## Trial {r['trial']}: the champion against the earlier champions", "",
                      "The best network of each earlier measuring generation, over the same ballots from both colours; "
                      "the score is the final champion's.", "",
                      "| earlier generation | games | wins | draws | losses | mean score [95% interval] |",
                      "|---:|---:|---:|---:|---:|---:|"]
            lines += [f"| {e['gen']} | {e['games']} | {e['win']} | {e['draw']} | {e['loss']} | {_score(e)} |" for e in r["vs_earlier"]]
    lines += _league.markdown(result.get("league", {}))
    lines += _duels.markdown(result.get("duels", {}))
    return "\n".join(lines) + "\n"


def summary_lines(run_dir, result: dict) -> list[str]:
    """What ``evoplay report`` prints about a checkers run."""
    root = RunDir(run_dir).root
    best = next(r for r in result["champions"] if r["trial"] == result["best_trial"])
    lines = [f"curve: {root / 'curve.png'} (and curve.svg)",
             f"analysis: {root / 'analysis.md'}",
             f"champion: {root / 'champion.json'} (trial {best['trial']}, checkers, depth {result['depth']})",
             f"  vs piece-difference (depth {result['depth']}, {best['games']} games from the ballots, both colours): "
             f"{best['win']} wins, {best['draw']} draws, {best['loss']} losses; mean score {_score(best)}"]
    if best["vs_earlier"]:
        lines.append("  vs earlier champions (generation: score): "
                     + ", ".join(f"{e['gen']}: {e['score']:+.3f}" for e in best["vs_earlier"]))
    for t in result.get("league", {}).get("trials", []):
        v = t["vs_piece_difference"]
        path = root / "league-champions" / f"trial_{t['trial']:02d}.json"
        lines.append(f"league champion: {path} (trial {t['trial']}, network {t['champion_id']}): "
                     f"{v['win']} wins, {v['draw']} draws, {v['loss']} losses vs piece-difference; mean score {_score(v)}")
    for t in result.get("duels", {}).get("trials", []):
        for r in t["duels"]:
            lines.append(f"  trial {t['trial']} champion vs {r['opponent']} (depth {r['depth']} / {r['opponent_depth']}): "
                         f"{r['win']} wins, {r['draw']} draws, {r['loss']} losses; mean score {_score(r)}")
    return lines
