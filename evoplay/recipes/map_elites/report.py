"""Every cell's elite of a MAP-Elites run, analysed exactly: what ``evoplay report`` adds for such a run.

The final archive of each trial is read from its checkpoint (the run's state at its last
generation). For the best elite of every occupied cell: the cell, the network's id and
hidden units, its fitness, and the champion analysis of ``fogel.report`` (expected payoff
per 32 games against ``logic``, unbeatable as X, minimax agreement, exact results against
``logic`` and ``random``). Writes archive.json and archive.md into the run directory.
"""

from __future__ import annotations

from evoplay.files.atomic import write_text
from evoplay.framework.rundir import RunDir
from evoplay.recipes.fogel.nets import net_player
from evoplay.recipes.fogel.report import champion_row
from evoplay.recipes.map_elites.descriptors import cell_labels


def analyze_archive(recipe, root) -> dict:
    """Analyse the best elite of every cell of every trial exactly; write archive.json and archive.md into the run."""
    rd = RunDir(root)
    rows = []
    for t, archive in enumerate(state.archive for state in rd.final_states(recipe)):
        best_cell = archive.best()[0]
        for k in archive.occupied():
            elite = archive.cells[k][0]
            row = champion_row(net_player(elite), t, elite.h)
            rows.append({"trial": t, "cell": list(archive.cell(k)), "cell_labels": cell_labels(recipe.names, archive.cell(k)),
                         "elites_in_cell": len(archive.cells[k]), "network_id": elite.ident, "fitness": elite.fitness.values[0],
                         "champion": k == best_cell, **{key: v for key, v in row.items() if key != "trial"}})
    result = {"run": recipe.cfg[""]["name"], "seed": recipe.cfg[""]["seed"], "descriptors": recipe.names, "elites": rows}
    rd.write_json(rd.root / "archive.json", result)
    write_text(rd.root / "archive.md", markdown(result))
    return result


def markdown(result: dict) -> str:
    lines = [
        f"# Archive of `{result['run']}` (seed {result['seed']}): the best elite of every cell, computed exactly",
        "",
        f"Cells: {', '.join(result['descriptors'])}. The trial's champion is marked *.",
        "",
        "| trial | cell | elites | id | H | fitness | expected payoff / 32 games vs logic | unbeatable as X | minimax agreement (X to move) |",
        "|---:|:---|---:|---:|---:|---:|---:|:---:|---:|",
    ]
    for r in result["elites"]:
        star = " *" if r["champion"] else ""
        lines.append(f"| {r['trial']}{star} | {r['cell_labels']} | {r['elites_in_cell']} | {r['network_id']} | {r['hidden']} | "
                     f"{r['fitness']:.2f} | {r['expected_payoff_32_vs_logic']:.2f} | {'yes' if r['unbeatable_as_x'] else 'no'} | "
                     f"{100 * r['minimax_agreement_x']:.1f}% |")
    return "\n".join(lines) + "\n"


def summary_lines(root, result: dict) -> list[str]:
    """What ``evoplay report`` prints about the archive: where the table is, and the best elite per value of the first descriptor."""
    rows = result["elites"]
    trials = len({r["trial"] for r in rows})
    lines = [f"archive: {RunDir(root).root / 'archive.md'} ({len(rows)} cell elites over {trials} trials, analysed exactly)"]
    first = result["descriptors"][0]
    by = {}
    for r in rows:
        label = r["cell_labels"].split(", ")[0]
        by.setdefault(label, []).append(r)
    for label, group in by.items():
        best = max(group, key=lambda r: r["expected_payoff_32_vs_logic"])
        unbeaten = sum(r["unbeatable_as_x"] for r in group)
        lines.append(f"  {label}: {len(group)} elites, best {best['expected_payoff_32_vs_logic']:.2f} per 32 games vs logic "
                     f"(trial {best['trial']}), {unbeaten} unbeatable as X")
    lines.insert(1, f"  by {first}:")
    return lines
