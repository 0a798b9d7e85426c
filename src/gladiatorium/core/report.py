"""Writing a lab report: a figure (PNG and SVG, matplotlib without a display), the JSON
and a self-contained HTML page that holds the SVG inline. Figures come out the same for
the same numbers: no dates in the files, fixed SVG ids."""

from __future__ import annotations

import html
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib
from matplotlib.figure import Figure

#: what a figure's files carry: no creation date, so a rerun writes the same bytes
SVG_METADATA: dict[str, Any] = {"Date": None, "Creator": "gladiatorium"}
PNG_METADATA: dict[str, Any] = {"Software": "gladiatorium"}


def save_figure(figure: Figure, folder: Path, stem: str) -> tuple[Path, Path]:
    """``stem.png`` and ``stem.svg`` in ``folder``."""
    png, svg = folder / f"{stem}.png", folder / f"{stem}.svg"
    with matplotlib.rc_context({"svg.hashsalt": stem, "svg.fonttype": "path"}):
        figure.savefig(png, dpi=110, metadata=PNG_METADATA)
        figure.savefig(svg, metadata=SVG_METADATA)
    return png, svg


def percent(rate: float) -> str:
    return f"{rate:.0%}" if not math.isnan(rate) else "-"


def span(interval: Sequence[float]) -> str:
    return f"{interval[0]:.0%}-{interval[1]:.0%}"


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """An HTML table; every cell is escaped."""
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


STYLE = """
body { font-family: sans-serif; max-width: 72em; margin: 2em auto; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
td, th { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th { background: #f4f4f4; }
td:first-child, th:first-child { text-align: left; }
figure svg { max-width: 100%; height: auto; }
"""


def page(title: str, svg: Path, sections: Sequence[tuple[str, str]], data: Any) -> str:
    """A self-contained HTML page: the title, the figure inline, the sections (a heading
    and ready HTML each) and the JSON at the end."""
    picture = svg.read_text(encoding="utf-8")
    picture = picture[picture.index("<svg") :]
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<figure>{picture}</figure>",
    ]
    for heading, body in sections:
        parts.append(f"<h2>{html.escape(heading)}</h2>{body}")
    dumped = html.escape(json.dumps(data, indent=1))
    parts.append(f"<details><summary>The figures as JSON</summary><pre>{dumped}</pre></details>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write_json(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def write_report(
    folder: Path,
    stem: str,
    title: str,
    figure: Figure,
    sections: Sequence[tuple[str, str]],
    data: Any,
) -> list[Path]:
    """A lab report in ``folder`` (made if missing): ``index.html``, ``stem.json`` and the
    figure as ``stem.png`` and ``stem.svg``; their paths, the page first."""
    folder.mkdir(parents=True, exist_ok=True)
    write_json(folder / f"{stem}.json", data)
    png, svg = save_figure(figure, folder, stem)
    index = folder / "index.html"
    index.write_text(page(title, svg, sections, data), encoding="utf-8")
    return [index, folder / f"{stem}.json", png, svg]
