"""A printable index card for a hero, as SVG: attributes, traits, the segments it acts
on, a box to tick for each point of oomph, and each power with a box per use.

The card is 5 inches wide (127 mm); it grows taller than an index card's 3 inches
only when a hero has a lot of oomph or uses to tick. ``core.printing`` turns it into
a PNG or PDF.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from gladiatorium.games.superhero_gladiators.heroes import (
    INFINITE,
    SEGMENT_SPEED,
    Hero,
    Power,
    points,
    traits,
)
from gladiatorium.games.superhero_gladiators.render import attributes_text, effect_text, kind_text

WIDTH = 127.0  # mm, 5 inches: the long side of a 5 x 3 index card, the short of a 5 x 8
CARD_HEIGHTS = (76.2, 203.2)  # mm: a 5 x 3 inch card, else a 5 x 8 inch one
MARGIN = 5.0
BOX = 2.8  # side of a tick box, mm
PITCH = 3.4  # box plus gap
GROUP_GAP = 1.2  # extra gap after every five boxes, to count quickly
PER_ROW = 30


@dataclass
class _Sheet:
    """SVG elements laid out top to bottom; ``y`` is where the next line goes."""

    y: float = MARGIN
    parts: list[str] = field(default_factory=list)

    def text(
        self, x: float, words: str, size: float = 3.2, weight: str = "normal", style: str = ""
    ) -> None:
        italic = f' font-style="{style}"' if style else ""
        self.parts.append(
            f'<text x="{x:.1f}" y="{self.y:.1f}" font-size="{size}" font-weight="{weight}"'
            f"{italic}>{escape(words)}</text>"
        )

    def box(self, x: float, y: float, side: float = BOX, filled: bool = False) -> None:
        fill = "#ddd" if filled else "none"
        self.parts.append(
            f'<rect x="{x:.2f}" y="{y:.2f}" width="{side}" height="{side}" '
            f'fill="{fill}" stroke="black" stroke-width="0.25"/>'
        )

    def line(self) -> None:
        self.parts.append(
            f'<line x1="{MARGIN}" y1="{self.y:.1f}" x2="{WIDTH - MARGIN}" y2="{self.y:.1f}" '
            'stroke="black" stroke-width="0.2"/>'
        )

    def boxes(self, count: int, x0: float = MARGIN) -> None:
        """``count`` tick boxes in rows of thirty, grouped by five."""
        for i in range(count):
            row, col = divmod(i, PER_ROW)
            x = x0 + col * PITCH + (col // 5) * GROUP_GAP
            self.box(x, self.y + row * PITCH)
        rows = -(-count // PER_ROW)
        self.y += rows * PITCH + 1.5


def _header(sheet: _Sheet, hero: Hero) -> None:
    sheet.y += 5
    size = min(5.5, (WIDTH - 2 * MARGIN) / (0.6 * max(len(hero.name), 1)))
    sheet.text(MARGIN, hero.name, size=round(size, 2), weight="bold")
    sheet.y += 5
    sheet.text(MARGIN, attributes_text(hero, sep="  \u00b7  "), size=3)


def _traits(sheet: _Sheet, hero: Hero) -> None:
    t = traits(hero)
    sheet.y += 5
    sheet.text(
        MARGIN, f"Combat {t.combat}  \u00b7  Speed {t.speed}  \u00b7  Movement {t.movement}", size=3
    )
    x = 80.0
    sheet.text(x, "Segments", size=3)
    for n in SEGMENT_SPEED:
        bx = x + 16 + (n - 1) * 4.2
        sheet.box(bx, sheet.y - 2.9, side=3.4, filled=n in t.segments)
        label = str(n) if n in t.segments else "-"
        sheet.parts.append(
            f'<text x="{bx + 1.7:.1f}" y="{sheet.y - 0.3:.1f}" font-size="2.6" '
            f'text-anchor="middle">{label}</text>'
        )
    sheet.y += 5
    sheet.text(
        MARGIN, f"Oomph (max {t.max_oomph}): tick one box per point lost", size=3, weight="bold"
    )
    spent = points(hero)
    sheet.parts.append(
        f'<text x="{WIDTH - MARGIN}" y="{sheet.y:.1f}" font-size="2.8" text-anchor="end">'
        f"{spent.total} of {spent.budget} power points</text>"
    )
    sheet.y += 1.5
    sheet.boxes(t.max_oomph)


def _power(sheet: _Sheet, power: Power) -> None:
    sheet.y += 4
    sheet.text(MARGIN, _clip(f"{power.name} (level {power.level})", 60), size=3.2, weight="bold")
    sheet.y += 3.6
    sheet.text(MARGIN, kind_text(power), size=2.6)
    uses = "uses: infinite" if power.uses == INFINITE else f"uses: {power.uses}"
    sheet.y += 3.4
    sheet.text(MARGIN, "; ".join(w for w in (effect_text(power), uses) if w), size=2.6)
    if power.look:
        sheet.y += 3.4
        sheet.text(MARGIN, _clip(power.look), size=2.4, style="italic")
    if power.uses != INFINITE:
        sheet.y += 1.2
        sheet.boxes(int(power.uses))
    else:
        sheet.y += 1.5


def _clip(words: str, limit: int = 90) -> str:
    """Free text cut to what fits on one line of the card."""
    return words if len(words) <= limit else words[: limit - 3].rstrip() + "..."


def card_height(needed: float) -> float:
    """The height of the smallest index card 5 inches wide that holds ``needed`` mm
    (a hero too long for a 5 x 8 card gets a card as tall as it needs)."""
    return next((h for h in CARD_HEIGHTS if needed <= h), needed)


def card_svg(hero: Hero) -> str:
    """The hero's card as an SVG document (millimetre units, 5 inches wide)."""
    sheet = _Sheet()
    _header(sheet, hero)
    _traits(sheet, hero)
    sheet.line()
    for power in hero.powers:
        _power(sheet, power)
    height = card_height(sheet.y + MARGIN)
    body = "\n  ".join(sheet.parts)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}mm" height="{height:.1f}mm" '
        f'viewBox="0 0 {WIDTH} {height:.1f}" font-family="Helvetica, Arial, sans-serif">\n'
        f'  <rect x="0.5" y="0.5" width="{WIDTH - 1}" height="{height - 1:.1f}" rx="3" '
        'fill="white" stroke="black" stroke-width="0.4"/>\n'
        f"  {body}\n</svg>\n"
    )
