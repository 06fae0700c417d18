"""Curves: the mean over trials of the max fitness per generation, with a 95% band.

The axis and the title call the fitness what the run's recipe calls it (``FitnessWords``:
"payoff" for Fogel's recipes, "fitness" for a recipe that names it nothing). Files are
byte-for-byte reproducible: the SVG carries no date and a fixed id salt, the PDF no
creation date.
"""

from __future__ import annotations

import io
import tomllib
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from evoplay.files.atomic import write_bytes  # noqa: E402
from evoplay.errors import EvoplayError  # noqa: E402
from evoplay.framework.recipe import FitnessWords  # noqa: E402
from evoplay.framework.rundir import RunDir  # noqa: E402
from evoplay.framework.stats import mean_band  # noqa: E402

#: Image formats by file extension.
FORMATS = {".png": "png", ".pdf": "pdf", ".svg": "svg"}
#: What each format stamps by default that would make two identical plots differ.
_METADATA = {"png": {}, "pdf": {"CreationDate": None}, "svg": {"Date": None}}


def render(fig, suffix: str) -> bytes:
    """The figure as the bytes of one image format, reproducibly."""
    fmt = FORMATS[suffix]
    buf = io.BytesIO()
    with plt.rc_context({"svg.hashsalt": "evoplay"}):
        fig.savefig(buf, format=fmt, dpi=120, metadata=_METADATA[fmt])
    return buf.getvalue()


def warm():
    """Draw and render a tiny figure, as PNG and SVG, to nowhere: a run's curve then finds
    the fonts and renderers loaded (about 0.2 s). The runner calls it on a thread while it
    waits for Ray tasks, and waits for it before drawing anything itself."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(1, 1))
    ax = fig.subplots()
    ax.plot([0, 1], [0, 1], label="warm")
    ax.fill_between([0, 1], [0, 0], [1, 1], alpha=0.5)
    ax.set_title("warm")
    ax.legend(fontsize="small")
    for suffix in (".png", ".svg"):
        render(fig, suffix)


def run_label(summary: dict | None, root: Path, trials: int) -> str:
    """Legend label of a run: its name and seed (the folder name without a summary)."""
    if summary is None:
        return f"{Path(root).name} ({trials} trials)"
    return f"{summary['name']}, seed {summary['seed']} ({trials} trials)"


def distinct_labels(labels: list[str], roots: list) -> list[str]:
    """Labels made unique: a label shared by several runs gets each run's folder added."""
    return [f"{lab} [{root}]" if labels.count(lab) > 1 else lab for lab, root in zip(labels, roots)]


def run_words(root) -> FitnessWords:
    """The fitness words of a run directory's recipe, read from its config.toml (neutral
    words when the config or its recipe cannot be read: a damaged or foreign directory)."""
    from evoplay.framework import config

    try:
        with open(RunDir(root).config, "rb") as f:
            ref = tomllib.loads(f.read(config.MAX_CONFIG_BYTES).decode()).get("recipe", config.DEFAULT_RECIPE)
        return FitnessWords.of(config.recipe_class(ref))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, EvoplayError, TypeError, ValueError):
        return FitnessWords()


#: ``evoplay plot --x``: what the curve is drawn against, and the axis' words.
X_AXES = {"generation": "generation", "games": "games played a trial", "cpu": "worker-CPU seconds a trial"}


def curve_figure(runs: list[tuple[str, np.ndarray]], words: FitnessWords = FitnessWords(),
                 per_generation: list[float] | None = None, x: str = "generation"):
    """Figure of ``(label, curves)`` runs, ``curves`` of shape (trials, generations).

    Each trial is a faint line; the mean over trials is drawn on top with its 95% band
    (filled and edged, above the trial lines so that it stays visible among many trials).
    ``per_generation``: each run's games or CPU seconds a generation, for an ``x`` of
    ``X_AXES`` other than the generation (the curve at generation g drawn at g times it).
    """
    fig, ax = plt.subplots(figsize=(8, 5))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for k, (label, curves) in enumerate(runs):
        gens = np.arange(1, curves.shape[1] + 1) * (1 if per_generation is None else per_generation[k])
        color = colors[k % len(colors)]
        for c in curves:
            ax.plot(gens, c, color=color, alpha=0.07, linewidth=0.4, zorder=1)
        mean, half = mean_band(curves)
        ax.fill_between(gens, mean - half, mean + half, facecolor=color, alpha=0.45, edgecolor=color,
                        linewidth=0.6, zorder=3, label=f"{label}: 95% band")
        ax.plot(gens, mean, color=color, linewidth=1.0, zorder=5, label=f"{label}: mean")
    ax.set_xlabel(X_AXES[x])
    ax.set_ylabel(f"max {words.name} in the population" + (f" ({words.unit})" if words.unit else ""))
    ax.set_title(f"Mean over trials of the maximum {words.name}, 95% band (faint: single trials)")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize="small")
    fig.tight_layout()
    return fig


def plot_curves(runs: list[tuple[str, np.ndarray]], outputs, words: FitnessWords = FitnessWords(),
                per_generation: list[float] | None = None, x: str = "generation") -> list[Path]:
    """Write the curve figure of ``runs`` to each path of ``outputs`` (format by extension)."""
    fig = curve_figure(runs, words, per_generation, x)
    try:
        written = [write_bytes(Path(p), render(fig, Path(p).suffix.lower())) for p in outputs]
    finally:
        plt.close(fig)
    return written


def plot_runs(run_dirs, out, words: FitnessWords | None = None) -> list[Path]:
    """Plot the finished runs in ``run_dirs`` (overlaid) to ``out`` as PNG and SVG.

    For one run this draws again, from its files, the RUN/curve.png and curve.svg the runner
    wrote at its end (from the curves in memory, with the same label and words); ``words``
    default to those of the runs' recipes (when they share them).
    """
    runs, roots, labels = [], [], []
    for root in run_dirs:
        rd = RunDir(root)
        summary = rd.read_summary() if rd.summary.is_file() else None
        trials = range(summary["trials"]) if summary else sorted(
            int(p.name.split("_")[1]) for p in (rd.root / "trials").glob("trial_*")
        )
        curves = np.array([rd.read_logbook(t, ("max",))["max"] for t in trials])
        runs.append(curves)
        roots.append(rd.root)
        labels.append(run_label(summary, rd.root, len(curves)))
    out = Path(out)
    labelled = list(zip(distinct_labels(labels, roots), runs))
    words = words or FitnessWords.common(run_words(root) for root in run_dirs)
    return plot_curves(labelled, [out.with_suffix(".png"), out.with_suffix(".svg")], words)
