"""Curves: the mean over trials of the max payoff per generation, with a 95% band."""

from __future__ import annotations

import io
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from evoplay.atomic import write_bytes  # noqa: E402
from evoplay.framework.rundir import RunDir  # noqa: E402
from evoplay.framework.summary import mean_band  # noqa: E402


def _save(fig, path: Path):
    for suffix in (".png", ".svg"):
        buf = io.BytesIO()
        fig.savefig(buf, format=suffix[1:], dpi=120, metadata={"Date": None} if suffix == ".svg" else {})
        write_bytes(path.with_suffix(suffix), buf.getvalue())


def plot_runs(run_dirs, out) -> list[Path]:
    """Plot one or more runs (overlaid, with a legend) to ``out`` as PNG and SVG."""
    import numpy as np

    out = Path(out)
    fig, ax = plt.subplots(figsize=(8, 5))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for k, root in enumerate(run_dirs):
        rd = RunDir(root)
        summary = rd.read_summary() if rd.summary.is_file() else None
        trials = range(summary["trials"]) if summary else sorted(
            int(p.name.split("_")[1]) for p in (rd.root / "trials").glob("trial_*")
        )
        curves = np.array([rd.read_logbook(t)["max"] for t in trials])
        gens = np.arange(1, curves.shape[1] + 1)
        color = colors[k % len(colors)]
        for c in curves:
            ax.plot(gens, c, color=color, alpha=0.12, linewidth=0.6)
        mean, half = mean_band(curves)
        label = f"{summary['name'] if summary else rd.root.name} ({len(curves)} trials)"
        ax.plot(gens, mean, color=color, linewidth=2, label=label)
        ax.fill_between(gens, mean - half, mean + half, color=color, alpha=0.25, linewidth=0)
    ax.set_xlabel("generation")
    ax.set_ylabel("max payoff in the population")
    ax.set_title("Mean over trials of the maximum payoff (95% band)")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    _save(fig, out)
    plt.close(fig)
    return [out.with_suffix(".png"), out.with_suffix(".svg")]
