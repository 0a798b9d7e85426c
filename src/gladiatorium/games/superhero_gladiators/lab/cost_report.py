"""The cost report: ``index.html``, ``cost.json``, ``cost.png`` and ``cost.svg``."""

from __future__ import annotations

from pathlib import Path

from matplotlib.figure import Figure

from gladiatorium.core.report import percent, span, table, write_report
from gladiatorium.games.superhero_gladiators.lab.cost import CostStudy, Worth, worth

COLOURS = ("#1b7837", "#b2182b", "#2166ac", "#762a83", "#e08214")


def worth_text(w: Worth) -> str:
    """``x1.05 (0.80-1.40); the table charges x1.40``; an open end reads ``...``."""
    low = f"{w.low:.2f}" if w.low is not None else "..."
    high = f"{w.high:.2f}" if w.high is not None else "..."
    return f"x{w.factor:.2f} ({low}-{high}); the table charges x{w.charged:.2f}"


def cost_figure(study: CostStudy) -> Figure:
    """Win rate against the field over the hero's points, a fitted curve per series."""
    figure = Figure(figsize=(9, 5.5), layout="constrained")
    axes = figure.add_subplot()
    xs = [lv.hero_points for s in study.series for lv in s.levels]
    grid = [min(xs) + (max(xs) - min(xs)) * i / 100 for i in range(101)]
    for colour, series in zip(COLOURS * 4, study.series, strict=False):
        fit = series.fit
        points = [lv.hero_points for lv in series.levels]
        rates = [lv.record.win_rate for lv in series.levels]
        errors = [
            [
                max(0.0, r - lv.record.interval[0])
                for r, lv in zip(rates, series.levels, strict=True)
            ],
            [
                max(0.0, lv.record.interval[1] - r)
                for r, lv in zip(rates, series.levels, strict=True)
            ],
        ]
        label = f"{series.spec.text} ({fit.per_ten_points:+.1%} per 10 points)"
        axes.errorbar(points, rates, yerr=errors, fmt="o", color=colour, capsize=3, label=label)
        axes.plot(grid, [fit.rate(x) for x in grid], color=colour, linewidth=1)
        for lv in series.levels:
            axes.annotate(
                f"L{lv.level}",
                (lv.hero_points, lv.record.win_rate),
                fontsize=7,
                xytext=(4, -9),
                textcoords="offset points",
                color=colour,
            )
    axes.axhline(0.5, color="#999999", linewidth=0.8)
    axes.set_ylim(0, 1)
    axes.set_xlabel(f"{study.hero}'s points")
    axes.set_ylabel("win rate against the field")
    axes.legend(fontsize=8, loc="upper left")
    lines = [
        f"{s.spec.text}: worth {worth_text(worth(study.series[0], s))}" for s in study.series[1:]
    ]
    title = f"What a power is worth: {study.hero} against {len(study.field)} heroes"
    axes.set_title("\n".join([title, *lines]), fontsize=9)
    return figure


def sections(study: CostStudy) -> list[tuple[str, str]]:
    rows = [
        (
            s.spec.text,
            lv.level,
            lv.power_points,
            lv.hero_points,
            lv.record.games,
            lv.record.wins,
            lv.record.draws,
            percent(lv.record.win_rate),
            span(lv.record.interval),
        )
        for s in study.series
        for lv in s.levels
    ]
    levels = table(
        (
            "power",
            "level",
            "power points",
            "hero points",
            "games",
            "wins",
            "draws",
            "win rate",
            "95% interval",
        ),
        rows,
    )
    fits = table(
        ("power", "win rate per 10 points", "slope per point", "standard error", "worth"),
        [
            (
                s.spec.text,
                f"{s.fit.per_ten_points:+.1%}",
                f"{s.fit.slope:.4f}",
                f"{s.fit.slope_se:.4f}",
                "reference" if i == 0 else worth_text(worth(study.series[0], s)),
            )
            for i, s in enumerate(study.series)
        ],
    )
    field = table(("field",), [(name,) for name in study.field])
    return [("Levels", levels), ("Fits", fits), ("The field", field)]


def write_cost_report(study: CostStudy, folder: Path) -> list[Path]:
    """Write the four files into ``folder`` (made if missing); their paths."""
    title = f"What a power is worth: {study.hero}"
    return write_report(folder, "cost", title, cost_figure(study), sections(study), study.to_json())
