"""The lab's pictures, drawn with matplotlib's Agg renderer (no display needed)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gladiatorium.lab.sweep import SweepResult, shown


def sweep_plot(result: SweepResult, folder: Path) -> list[Path]:
    """One panel per figure (first side's share of decided games against the fair
    share, draw rate, mean length in actions, and in rounds where the game has
    rounds), each combination a point with its 95% interval; ``sweep.png`` and
    ``sweep.svg`` in ``folder``."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    rows = result.rows
    labels, axis_name = tick_labels(result)
    panels: list[tuple[str, list[tuple[float, float, float]], float | None]] = [
        ("first side's share of decided games", [f.first_share for _, f in rows], None),
        ("draw rate", [f.draw_rate for _, f in rows], None),
        ("mean length (actions)", [f.length for _, f in rows], None),
    ]
    fair = {1 / len(combo.sides) for combo, _ in rows}
    if len(fair) == 1:
        panels[0] = (panels[0][0], panels[0][1], fair.pop())
    rounds = [f.rounds for _, f in rows]
    if all(r is not None for r in rounds):
        panels.append(("mean length (rounds)", [r for r in rounds if r is not None], None))
    # fixed ids and no date in the SVG, so the same sweep draws the same file
    with matplotlib.rc_context({"svg.hashsalt": "gladiatorium", "svg.fonttype": "none"}):
        figure = Figure(figsize=(4.2 * len(panels), 4.2), layout="constrained")
        axes = figure.subplots(1, len(panels), squeeze=False)[0]
        for ax, (title, values, line) in zip(axes, panels, strict=True):
            _panel(ax, title, labels, values, line)
            ax.set_xlabel(axis_name, fontsize="small")
        figure.suptitle(f"{result.sweep.game}: {result.sweep.games} games per combination")
        paths = [folder / "sweep.png", folder / "sweep.svg"]
        figure.savefig(paths[0], dpi=110, metadata={"Software": None})
        figure.savefig(paths[1], metadata={"Date": None, "Creator": None})
    return paths


def tick_labels(result: SweepResult) -> tuple[list[str], str]:
    """A label under each combination, and one for the axis: with one option swept, its
    values under the points and its name below; with several, ``key=value`` a line."""
    keys = [key for key, _ in result.sweep.axes]
    if len(keys) == 1:
        return [shown(combo.values[0][1]) for combo, _ in result.rows], keys[0]
    lines = [[f"{k}={shown(v)}" for k, v in combo.values] for combo, _ in result.rows]
    return ["\n".join(line) or "defaults" for line in lines], ""


def _panel(
    ax: Any,
    title: str,
    labels: Sequence[str],
    values: Sequence[tuple[float, float, float]],
    line: float | None,
) -> None:
    x = list(range(len(values)))
    mids = [v[0] for v in values]
    below = [v[0] - v[1] for v in values]
    above = [v[2] - v[0] for v in values]
    ax.errorbar(x, mids, yerr=[below, above], fmt="o", capsize=5, color="tab:blue")
    if title.endswith(("games", "rate")):
        ax.set_ylim(-0.03, 1.03)
    if line is not None:
        ax.axhline(line, color="grey", linestyle="--", linewidth=1, label="fair share")
        ax.legend(loc="best", fontsize="small")
    ax.set_title(title, fontsize="medium")
    ax.set_xticks(x, labels, fontsize="small")
    ax.set_xlim(-0.5, len(values) - 0.5)
    ax.grid(axis="y", alpha=0.3)
