"""Pictures of a match (matplotlib, Agg backend: files only, no display needed).

Three figures people would rather look at than read: the distribution of IMPs per board
(is the mean carried by a few big swings?), the two systems' opening frequencies side by
side, and the HCP range behind each opening (what the openings really show).
"""

from __future__ import annotations

from collections.abc import Sequence
from io import BytesIO
from pathlib import Path
from typing import Any

import numpy as np

from bidbox.files import write_file
from bidbox.sim.match import BoardResult
from bidbox.sim.report import MatchReport, opening_hcp, opening_weight

COLOURS = {"a": "#1f77b4", "b": "#d62728"}


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_imps(results: Sequence[BoardResult], report: MatchReport, path: Path) -> Path:
    """Histogram of IMPs per board (to A), with the mean and its 95% interval."""
    plt = _pyplot()
    values = np.array([r.imps for r in results], dtype=int)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    edges = np.arange(-24.5, 25.5, 1.0)
    ax.hist(values, bins=edges, color="#4c72b0", edgecolor="white", zorder=2)
    lo, hi = report.ci95
    ax.axvspan(lo, hi, color="orange", alpha=0.35, zorder=1,
               label=f"95% interval of the mean [{lo:+.2f}, {hi:+.2f}]")
    ax.axvline(report.imps_per_board, color="black", linewidth=1.5, zorder=3,
               label=f"mean {report.imps_per_board:+.2f} IMPs/board")
    names = report.extra["systems"]
    ax.set_xlabel(f"IMPs per board to A ({names['a']}) against B ({names['b']})")
    ax.set_ylabel("boards")
    ax.set_title(f"IMP distribution over {report.boards} boards ({report.extra['mode']})")
    ax.set_xlim(-max(3, int(np.abs(values).max(initial=0)) + 1),
                max(3, int(np.abs(values).max(initial=0)) + 1))
    ax.legend(loc="upper left", fontsize=8)
    return _save(fig, path)


def plot_openings(report: MatchReport, path: Path) -> Path:
    """Opening frequencies of A and B side by side, calls in ladder order (pass first)."""
    plt = _pyplot()
    freq = report.opening_frequencies
    calls = sorted(set(freq["a"]) | set(freq["b"]), key=opening_weight)
    x = np.arange(len(calls))
    width = 0.4
    fig, ax = plt.subplots(figsize=(max(6.0, 0.55 * len(calls) + 2), 4.5))
    names = report.extra["systems"]
    for offset, s in ((-width / 2, "a"), (width / 2, "b")):
        shares = [100 * freq[s].get(c, 0.0) for c in calls]
        ax.bar(x + offset, shares, width, color=COLOURS[s],
               label=f"{s.upper()}: {names[s]} (aggressiveness {report.aggressiveness[s]:.2f})")
    ax.set_xticks(x)
    ax.set_xticklabels(calls, rotation=45 if len(calls) > 14 else 0)
    ax.set_ylabel("% of opening opportunities")
    ax.set_title("Opening frequencies (every hand in its seat, earlier seats passing)")
    ax.legend(fontsize=8)
    return _save(fig, path)


def plot_opening_hcp(results: Sequence[BoardResult], report: MatchReport, path: Path) -> Path:
    """Box plots of the HCP behind each opening, one panel per system."""
    plt = _pyplot()
    fig, axes = plt.subplots(2, 1, figsize=(9, 7.5), sharey=True)
    names = report.extra["systems"]
    for ax, s in zip(axes, ("a", "b"), strict=True):
        by_call = opening_hcp(results, s)
        calls = list(by_call)
        if calls:
            ax.boxplot([by_call[c] for c in calls], whis=(0, 100), widths=0.6)
            ax.set_xticks(np.arange(1, len(calls) + 1))
            ax.set_xticklabels([f"{c}\n{len(by_call[c])}" for c in calls], fontsize=8)
        ax.set_title(f"{s.upper()}: {names[s]}", fontsize=10, color=COLOURS[s])
        ax.set_ylabel("HCP")
        ax.grid(axis="y", alpha=0.3)
    axes[1].set_xlabel("opening call (and number of hands); whiskers span min to max")
    fig.suptitle("HCP distribution of each opening")
    return _save(fig, path)


def plot_hcp(results: Sequence[BoardResult], report: MatchReport, path: Path) -> Path:
    """HCP of all hands, the 8-12 band that weak-opening systems aim at shaded."""
    plt = _pyplot()
    values = np.array([h for r in results for h in r.hcp], dtype=int)
    fig, ax = plt.subplots(figsize=(8, 4))
    counts = np.bincount(values, minlength=38)[:38] / max(len(values), 1)
    ax.bar(np.arange(38), 100 * counts, color="#7f7f7f")
    ax.axvspan(7.5, 12.5, color="green", alpha=0.2,
               label=f"8-12 HCP: {report.extra['hcp_8_12_share']['measured']:.1%} of hands "
                     "(notes: about 45%)")
    ax.set_xlim(-0.5, 30.5)
    ax.set_xlabel("HCP")
    ax.set_ylabel("% of hands")
    ax.set_title(f"HCP of the {len(values)} hands played")
    ax.legend(fontsize=8)
    return _save(fig, path)


def _save(fig: Any, path: Path) -> Path:
    """Draw into memory, then write the file whole (:func:`bidbox.files.write_file`): a
    full disk leaves no cut-short PNG and keeps an earlier run's complete one."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    buffer = BytesIO()
    try:
        fig.savefig(buffer, format="png", dpi=110)
    finally:
        plt.close(fig)
    write_file(path, buffer.getvalue())
    return path


def write_plots(results: Sequence[BoardResult], report: MatchReport, folder: Path,
                written: list[Path] | None = None) -> list[Path]:
    """Every figure of a match, as PNG files in ``folder``. Each file is appended to
    ``written`` as soon as it is complete, so a caller that meets an ``OSError`` half-way
    can say which plots were saved."""
    folder.mkdir(parents=True, exist_ok=True)
    done = written if written is not None else []
    if not results:
        return done
    drawers: list[tuple[str, Any]] = [
        ("imps.png", lambda path: plot_imps(results, report, path)),
        ("openings.png", lambda path: plot_openings(report, path)),
        ("opening_hcp.png", lambda path: plot_opening_hcp(results, report, path)),
        ("hcp.png", lambda path: plot_hcp(results, report, path)),
    ]
    for name, draw in drawers:
        done.append(draw(folder / name))
    return done


__all__ = ["plot_hcp", "plot_imps", "plot_opening_hcp", "plot_openings", "write_plots"]
