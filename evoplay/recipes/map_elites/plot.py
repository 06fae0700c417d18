"""The archive of a MAP-Elites run drawn from its logbooks: ``evoplay plot`` puts it beside the curve.

Three panels: the final archive as a heat map of the best fitness per cell (mean over
the trials that filled the cell, and how many did), the same per cell over the
generations, and the coverage curve (occupied cells, mean over trials with a 95% band).
Fitness is per 32 games, as the curves of a study.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from evoplay.errors import EvoplayError
from evoplay.framework.rundir import RunDir
from evoplay.framework.stats import mean_band
from evoplay.recipes.map_elites.descriptors import DESCRIPTORS

#: Most generation columns drawn in the heat map over generations (longer runs are sampled).
MAX_COLUMNS = 300


def read_archive_columns(rd: RunDir, trials) -> tuple[np.ndarray, np.ndarray]:
    """(best fitness, elite count) per trial, generation and cell, cut to the generations every trial reached."""
    best, count = [], []
    for t in trials:
        book = rd.read_logbook(t)
        if "cell_best" not in book or "cell_count" not in book:
            raise EvoplayError(f"logbook {rd.logbook(t)} has no archive columns (cell_best, cell_count): not a map-elites run")
        best.append(np.asarray(book["cell_best"].tolist(), dtype=np.float64))
        count.append(np.asarray(book["cell_count"].tolist(), dtype=np.float64))
    n = min(len(b) for b in best)
    return np.array([b[:n] for b in best]), np.array([c[:n] for c in count])


def _grid_labels(names: list[str]) -> tuple[list[str], list[str]]:
    """Row labels (every descriptor but the last, combined) and column labels (the last)."""
    *rows, last = names
    row_labels = [""]
    for n in rows:
        row_labels = [f"{r}{', ' if r else ''}{lab}" for r in row_labels for lab in DESCRIPTORS[n].labels]
    return row_labels, list(DESCRIPTORS[last].labels)


def archive_figure(title: str, names: list[str], best: np.ndarray, count: np.ndarray, scale: float):
    """The figure of ``best``/``count`` arrays (trials, generations, cells) of an archive over ``names``."""
    import matplotlib.pyplot as plt

    trials, gens, cells = best.shape
    filled = count > 0
    with np.errstate(invalid="ignore"):
        mean_best = scale * np.where(filled, best, 0.0).sum(0) / filled.sum(0)  # NaN where no trial filled the cell
    row_labels, col_labels = _grid_labels(names)
    fig, axes = plt.subplots(1, 3, figsize=(17, 5.5), gridspec_kw={"width_ratios": [1.1, 1.4, 1.0]})
    ax = axes[0]
    final = mean_best[-1].reshape(len(row_labels), len(col_labels))
    im = ax.imshow(final, cmap="viridis", aspect="auto")
    n_filled = filled[:, -1].sum(0).reshape(final.shape)
    for (i, j), v in np.ndenumerate(final):
        text = "empty" if np.isnan(v) else f"{v:.1f}\n{n_filled[i, j]}/{trials}"
        ax.text(j, i, text, ha="center", va="center", fontsize=6, color="white" if np.isnan(v) or v < np.nanmean(final) else "black")
    ax.set_xticks(range(len(col_labels)), col_labels, rotation=30, ha="right", fontsize=7)
    ax.set_yticks(range(len(row_labels)), row_labels, fontsize=7)
    ax.set_xlabel(names[-1])
    if len(names) > 1:
        ax.set_ylabel(", ".join(names[:-1]))
    ax.set_title("final archive: best payoff per 32 games\n(mean over the trials that fill the cell)", fontsize=9)
    fig.colorbar(im, ax=ax, fraction=0.046)
    ax = axes[1]
    step = max(1, -(-gens // MAX_COLUMNS))
    shown = mean_best[::step].T
    im = ax.imshow(shown, cmap="viridis", aspect="auto", interpolation="nearest",
                   extent=(0.5, gens + 0.5, cells - 0.5, -0.5))
    labels = [f"{r}{', ' if r else ''}{c}" for r in row_labels for c in col_labels]
    ax.set_yticks(range(cells), labels, fontsize=max(4, 8 - cells // 10))
    ax.set_xlabel("generation")
    ax.set_title("best payoff per cell over the generations (mean over trials)", fontsize=9)
    fig.colorbar(im, ax=ax, fraction=0.046)
    ax = axes[2]
    occupied = filled.sum(2).astype(np.float64)
    mean, half = mean_band(occupied)
    x = np.arange(1, gens + 1)
    ax.fill_between(x, mean - half, mean + half, alpha=0.4, label="95% band")
    ax.plot(x, mean, linewidth=1.0, label=f"mean over {trials} trials")
    ax.set_ylim(0, cells + 0.5)  # the band may reach past the grid: a few trials, far apart
    ax.set_xlabel("generation")
    ax.set_ylabel(f"occupied cells (of {cells})")
    ax.set_title("coverage", fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize="small")
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def plot_archive(root, out, title: str, names: list[str], scale: float) -> Path:
    """Write the archive figure of the run in ``root`` to ``out`` (format by extension)."""
    import matplotlib.pyplot as plt

    from evoplay.files.atomic import write_bytes
    from evoplay.framework.plotting import render

    rd = RunDir(root)
    trials = rd.trials_present()
    if not trials:
        raise EvoplayError(f"run {rd.root} has no logbook yet")
    best, count = read_archive_columns(rd, trials)
    fig = archive_figure(title, names, best, count, scale)
    try:
        return write_bytes(Path(out), render(fig, Path(out).suffix.lower()))
    finally:
        plt.close(fig)
