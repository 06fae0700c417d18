"""Helpers shared by the reproductions of published programs: figures, JSON and Markdown written atomically."""

from __future__ import annotations

import io
import json
from pathlib import Path

from evoplay.files.atomic import write_bytes, write_text


def pyplot():
    """matplotlib.pyplot on the non-interactive backend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig, path) -> list[Path]:
    """Write a figure as PNG and SVG (same stem; no timestamp and fixed SVG ids, so a rerun
    gives the same SVG)."""
    plt = pyplot()
    path = Path(path)
    out = []
    for suffix in (".png", ".svg"):
        buf = io.BytesIO()
        with plt.rc_context({"svg.hashsalt": "evoplay"}):
            fig.savefig(buf, format=suffix[1:], dpi=110, bbox_inches="tight",
                        metadata={"Date": None} if suffix == ".svg" else {})
        out.append(write_bytes(path.with_suffix(suffix), buf.getvalue()))
    plt.close(fig)
    return out


def write_json(path, data) -> Path:
    return write_text(path, json.dumps(data, indent=1) + "\n")


def pct(x: float, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f}"


def wdl(r: dict, digits: int = 1) -> str:
    """``win / draw / loss`` percentages of a result dict."""
    return " / ".join(pct(r[k], digits) for k in ("win", "draw", "loss"))
