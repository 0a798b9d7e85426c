"""The balance report: ``index.html``, ``balance.json``, ``balance.png`` and ``.svg``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from gladiatorium.core.report import percent, span, table, write_report
from gladiatorium.games.superhero_gladiators.lab.balance import LOPSIDED, Balance

#: the band a balanced hero's win rate against the field keeps to
FAIR_BAND = (0.35, 0.65)
VERDICT_COLOURS = {"dominates": "#b2182b", "dominated": "#2166ac", "even": "#444444"}


def short(name: str, width: int = 16) -> str:
    return name if len(name) <= width else name[: width - 1] + "…"


def draw_matrix(axes: Axes, result: Balance) -> None:
    """The win-rate heatmap: row hero's wins against the column hero, interval and
    draws written in each cell."""
    names = [e.name for e in result.entrants]
    grid = result.matrix()
    rates = np.full((len(names), len(names)), np.nan)
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if a != b:
                rates[i, j] = grid[a][b].win_rate
    axes.imshow(rates, cmap="RdBu_r", vmin=0.0, vmax=1.0)
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if a == b:
                continue
            record = grid[a][b]
            text = f"{percent(record.win_rate)}\n{span(record.interval)}"
            if record.draws:
                text += f"\nd {record.draws / record.games:.0%}"
            dark = abs(record.win_rate - 0.5) > 0.3
            axes.text(
                j,
                i,
                text,
                ha="center",
                va="center",
                fontsize=6.5,
                color="white" if dark else "black",
            )
    labels = [short(n) for n in names]
    axes.set_xticks(range(len(names)), labels, rotation=40, ha="right", fontsize=8)
    axes.set_yticks(range(len(names)), labels, fontsize=8)
    axes.set_xlabel("against")
    axes.set_title("win rate of the row hero (95% interval; d: draws)", fontsize=10)


def draw_strength(axes: Axes, result: Balance) -> None:
    """Each hero's win rate against the field (with its interval) over its cost."""
    overall = result.overall()
    axes.axhspan(*FAIR_BAND, color="#e8f4e8", zorder=0)
    axes.axhline(0.5, color="#999999", linewidth=0.8)
    for e in result.entrants:
        record = overall[e.name]
        low, high = record.interval
        colour = VERDICT_COLOURS[result.verdict(e.name)]
        axes.errorbar(
            e.points,
            record.win_rate,
            yerr=[[max(0.0, record.win_rate - low)], [max(0.0, high - record.win_rate)]],
            fmt="o",
            color=colour,
            capsize=3,
        )
        axes.annotate(
            short(e.name, 20),
            (e.points, record.win_rate),
            fontsize=7,
            xytext=(4, 3),
            textcoords="offset points",
            color=colour,
        )
    axes.set_ylim(0, 1)
    axes.set_xlabel("cost (power points)")
    axes.set_ylabel("win rate against the field")
    axes.set_title("strength and cost (red dominates, blue is dominated)", fontsize=10)


def draw_draws(axes: Axes, result: Balance) -> None:
    """The share of drawn games per pair of heroes (both sides, every map)."""
    grid = result.matrix()
    names = [e.name for e in result.entrants]
    pairs = [
        (f"{short(a, 12)} v {short(b, 12)}", grid[a][b].draws / grid[a][b].games)
        for i, a in enumerate(names)
        for b in names[i + 1 :]
        if grid[a][b].draws
    ]
    pairs.sort(key=lambda p: -p[1])
    pairs = pairs[:12]
    if not pairs:
        axes.text(0.5, 0.5, "no drawn games", ha="center", va="center")
        axes.set_axis_off()
        return
    axes.barh(range(len(pairs)), [share for _, share in pairs], color="#888888")
    axes.set_yticks(range(len(pairs)), [label for label, _ in pairs], fontsize=7)
    axes.invert_yaxis()
    axes.set_xlabel("share of games drawn")
    axes.set_title("duels that end in draws", fontsize=10)


def balance_figure(result: Balance) -> Figure:
    figure = Figure(figsize=(14, 7.5), layout="constrained")
    grid = figure.add_gridspec(2, 2, width_ratios=(1.35, 1))
    draw_matrix(figure.add_subplot(grid[:, 0]), result)
    draw_strength(figure.add_subplot(grid[0, 1]), result)
    draw_draws(figure.add_subplot(grid[1, 1]), result)
    figure.suptitle(
        f"Superhero Gladiators balance: {result.games} games per pairing and map, "
        f"maps {', '.join(result.maps)}, bot {result.bot}, seed {result.seed}",
        fontsize=11,
    )
    return figure


def sections(result: Balance) -> list[tuple[str, str]]:
    """The report's tables: heroes, the matrix, lopsided pairings, draws."""
    overall = result.overall()
    names = [e.name for e in result.entrants]
    heroes = table(
        ("hero", "points", "games", "wins", "draws", "win rate", "95% interval", "verdict"),
        [
            (
                e.name,
                e.points,
                r.games,
                r.wins,
                r.draws,
                percent(r.win_rate),
                span(r.interval),
                result.verdict(e.name),
            )
            for e in result.entrants
            for r in [overall[e.name]]
        ],
    )
    grid = result.matrix()
    matrix = table(
        ("row wins against", *names),
        [
            (
                a,
                *(
                    f"{percent(grid[a][b].win_rate)} ({span(grid[a][b].interval)})"
                    if a != b
                    else ""
                    for b in names
                ),
            )
            for a in names
        ],
    )
    lopsided = table(
        ("winner", "loser", "games", "wins", "win rate", "95% interval"),
        [
            (a, b, r.games, r.wins, percent(r.win_rate), span(r.interval))
            for a, b, r in result.lopsided()
        ],
    )
    drawn = table(
        ("team 1", "team 2", "map", "draws", "games"),
        [(p.first, p.second, p.map, d, g) for p, d, g in result.drawn()],
    )
    return [
        ("Heroes against the field", heroes),
        ("Win-rate matrix", matrix),
        (f"Pairings won more than {LOPSIDED:.0%} of the time by one side", lopsided),
        ("Duels that ended in draws", drawn),
    ]


def write_balance_report(result: Balance, folder: Path) -> list[Path]:
    """Write the four files into ``folder`` (made if missing); their paths."""
    title = "Superhero Gladiators balance"
    figure = balance_figure(result)
    return write_report(folder, "balance", title, figure, sections(result), result.to_json())
