"""The score sheet to print and play on paper beside the shared roll: an A4 page (SVG)
with the six locations drawn from the sheet data (boxes, printed numbers, rewards,
minions, goals), the superpower and its uses, wild dice, bystanders and the final sum;
and the same as plain text. Built from a :class:`Sheet` only; no rules here."""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from gladiatorium.games.super_dice_heroes.actions import POWER_NUMBERS
from gladiatorium.games.super_dice_heroes.render import location_lines
from gladiatorium.games.super_dice_heroes.sheet import Goal, Kind, Location, Sheet

WIDTH = 210.0  # mm, an A4 page
MIN_HEIGHT = 297.0
MARGIN = 10.0
COLUMN_GAP = 6.0
COLUMN = (WIDTH - 2 * MARGIN - COLUMN_GAP) / 2
BOX = 8.0  # side of a box, mm
GAP = 1.2  # between two boxes
PAIR_GAP = 4.0  # between two Hospital pairs
TICK = 4.0  # side of a tick box (uses, wild dice, bystanders, minions)
#: the most boxes a chain location draws in one row before it wraps
PER_ROW = 10
#: how each kind of location is filled, in a line under its name
HOW = {
    Kind.GRID: "mark an X on a box whose number a die shows, any order",
    Kind.PAIRS: "write any number in a pair; its partner takes the same number",
    Kind.RUN: "from box 1 up: every box takes the number written in box 1",
    Kind.STEP: "from box 1 on: each number one above or below the last",
    Kind.CLIMB: "from box 1 on: each number equal to or higher than the last",
}
#: tick boxes for wild dice and bystanders (more than a game gives on this sheet)
TALLY = 12


def reward_text(goal: Goal) -> str:
    """``+4``, ``W`` (a wild die), ``B`` (a bystander), or several together."""
    parts = [f"+{goal.honor}"] if goal.honor else []
    return " ".join(parts + ["W"] * goal.wild + ["B"] * goal.bystander) or "-"


@dataclass
class _Page:
    """SVG elements; each column keeps the height it has reached."""

    parts: list[str] = field(default_factory=list)

    def text(
        self,
        x: float,
        y: float,
        words: str,
        size: float = 3.2,
        weight: str = "normal",
        anchor: str = "start",
        fill: str = "black",
    ) -> None:
        self.parts.append(
            f'<text x="{x:.2f}" y="{y:.2f}" font-size="{size}" font-weight="{weight}" '
            f'text-anchor="{anchor}" fill="{fill}">{escape(words)}</text>'
        )

    def box(self, x: float, y: float, side: float = BOX) -> None:
        self.parts.append(
            f'<rect x="{x:.2f}" y="{y:.2f}" width="{side}" height="{side}" '
            'fill="white" stroke="black" stroke-width="0.3"/>'
        )

    def ticks(self, x: float, y: float, count: int) -> float:
        """``count`` small tick boxes in a row from ``x``; where the row ends."""
        for i in range(count):
            self.box(x + i * (TICK + 1) + (i // 5) * 1.5, y - TICK + 0.8, TICK)
        return x + count * (TICK + 1) + ((count - 1) // 5) * 1.5

    def rule(self, x: float, y: float, width: float) -> None:
        self.parts.append(
            f'<line x1="{x:.2f}" y1="{y:.2f}" x2="{x + width:.2f}" y2="{y:.2f}" '
            'stroke="black" stroke-width="0.3"/>'
        )


def _box_places(loc: Location) -> list[tuple[float, float]]:
    """Where each box of a location is drawn, relative to the top left of its boxes."""
    places = []
    for i in range(loc.size):
        if loc.kind is Kind.GRID:
            row, col = divmod(i, loc.width)
            places.append((col * (BOX + GAP), row * (BOX + GAP + 1)))
        elif loc.kind is Kind.PAIRS:
            pair, partner = divmod(i, 2)
            row, slot = divmod(pair, 3)
            x = slot * (2 * BOX + GAP + PAIR_GAP) + partner * (BOX + GAP)
            places.append((x, row * (BOX + 6)))
        else:
            row, col = divmod(i, PER_ROW)
            places.append((col * (BOX + GAP), row * (BOX + 6)))
    return places


def _under(goal: Goal, loc: Location) -> bool:
    """A goal whose reward is printed under its boxes (one box, or one pair), not
    listed below the location."""
    return loc.kind is not Kind.GRID and len(goal.boxes) <= 2


def _location(page: _Page, loc: Location, x: float, y: float) -> float:
    """Draw one location from its top left; return the height it took."""
    page.text(x, y + 5, f"{loc.number}  {loc.name}", size=5, weight="bold")
    page.text(x, y + 9.5, HOW[loc.kind], size=2.6, fill="#333")
    top = y + 12
    places = _box_places(loc)
    for i, (bx, by) in enumerate(places):
        page.box(x + bx, top + by)
        if loc.kind is Kind.GRID:
            number = str(loc.numbers[i])  # printed grey, to be crossed out
            page.text(x + bx + BOX / 2, top + by + BOX - 2, number, 5.5, "bold", "middle", "#bbb")
        else:
            page.text(x + bx + 0.8, top + by + 2.4, str(i + 1), 2, fill="#888")
    for goal in loc.goals:
        if _under(goal, loc):
            spots = [places[b] for b in goal.boxes]
            middle = sum(px for px, _ in spots) / len(spots) + BOX / 2
            below = max(py for _, py in spots) + BOX + 3.6
            page.text(x + middle, top + below, reward_text(goal), 2.8, anchor="middle")
    bottom = top + max(py for _, py in places) + BOX + (5 if loc.kind is not Kind.GRID else 2)
    listed = [g for g in loc.goals if not _under(g, loc)]
    for i, goal in enumerate(listed):  # two to a line
        bottom += 4 if i % 2 == 0 else 0
        page.text(x + (i % 2) * COLUMN / 2, bottom, f"{goal.name}: {reward_text(goal)}", 2.8)
    bottom += 6
    page.text(x, bottom, "minions", 2.8)
    page.ticks(x + 13, bottom, loc.minions)
    page.text(x + COLUMN - 28, bottom, "honor ______", 2.8)
    return bottom + 5 - y


def _header(page: _Page, sheet: Sheet, name: str, power_uses: int) -> float:
    """Title, hero, superpower with its uses, wild dice and bystanders; the height."""
    y = MARGIN + 7
    page.text(MARGIN, y, "Super Dice Heroes", size=8, weight="bold")
    page.text(WIDTH - MARGIN, y, f"{sheet.name} sheet", size=3, anchor="end", fill="#555")
    y += 9
    page.text(MARGIN, y, f"Hero: {name}" if name else "Hero: " + "_" * 30, size=4)
    y += 8
    powers = "   ".join(f"{n} {p}" for p, n in sorted(POWER_NUMBERS.items(), key=lambda x: x[1]))
    page.text(MARGIN, y, f"Superpower (circle one): {powers}", size=3.2)
    y += 6
    page.text(MARGIN, y, f"uses ({power_uses})", size=3.2)
    page.ticks(MARGIN + 14, y, power_uses)
    page.text(MARGIN + 80, y, "wild dice", size=3.2)
    page.ticks(MARGIN + 100, y, TALLY)
    y += 6
    page.text(MARGIN, y, "rounds", size=3.2)
    page.ticks(MARGIN + 14, y, 10)
    page.text(MARGIN + 80, y, "bystanders", size=3.2)
    page.ticks(MARGIN + 100, y, TALLY)
    page.rule(MARGIN, y + 4, WIDTH - 2 * MARGIN)
    return y + 8


def _footer(page: _Page, sheet: Sheet, y: float) -> float:
    """The final sum, and the solo titles; the height."""
    page.rule(MARGIN, y, WIDTH - 2 * MARGIN)
    y += 8
    page.text(
        MARGIN,
        y,
        f"locations ______ + bystanders ___ x {sheet.bystander_honor} + minions ___ x "
        f"{sheet.minion_honor} = honor ______",
        size=3.6,
        weight="bold",
    )
    y += 6
    titles = ", ".join(f"{title} {score}+" for score, title in sheet.solo_ranks)
    page.text(MARGIN, y, f"Solo titles: {titles}", size=3, fill="#333")
    return y + MARGIN


def sheet_svg(sheet: Sheet, name: str = "", power_uses: int = 3) -> str:
    """The sheet as an SVG document in millimetres: an A4 page, taller only for a
    sheet file with more to draw. Locations 1, 3, 5 down the left, 2, 4, 6 down the
    right."""
    page = _Page()
    top = _header(page, sheet, name, power_uses)
    heights = [top, top]
    for loc in sheet.locations:
        side = (loc.number - 1) % 2
        x = MARGIN + side * (COLUMN + COLUMN_GAP)
        heights[side] += _location(page, loc, x, heights[side]) + 4
    height = max(MIN_HEIGHT, _footer(page, sheet, max(heights)))
    body = "\n  ".join(page.parts)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}mm" height="{height:.1f}mm" '
        f'viewBox="0 0 {WIDTH} {height:.1f}" font-family="Helvetica, Arial, sans-serif">\n'
        f'  <rect width="{WIDTH}" height="{height:.1f}" fill="white"/>\n'
        f"  {body}\n</svg>\n"
    )


def sheet_plain_text(sheet: Sheet, name: str = "", power_uses: int = 3) -> str:
    """The sheet as plain text, to print from any editor: the same boxes and goals as
    the terminal's whole sheet, empty, with lines to write on."""
    powers = ", ".join(f"{n} {p}" for p, n in sorted(POWER_NUMBERS.items(), key=lambda x: x[1]))
    lines = [
        f"Super Dice Heroes ({sheet.name} sheet)",
        f"Hero: {name or '_' * 30}",
        f"Superpower (circle one): {powers}",
        f"uses {'[ ]' * power_uses}   wild dice {'[ ]' * 8}   bystanders {'[ ]' * 8}",
        f"rounds {'[ ]' * 10}",
        "",
    ]
    for loc in sheet.locations:
        block = location_lines(loc, [0] * loc.size, [False] * len(loc.goals), 0)
        lines += [block[0], f"   {HOW[loc.kind]}", *block[1:], "   honor ______", ""]
    lines.append(
        f"locations ______ + bystanders ___ x {sheet.bystander_honor} + minions ___ x "
        f"{sheet.minion_honor} = honor ______"
    )
    lines.append(
        "Solo titles: " + ", ".join(f"{title} {score}+" for score, title in sheet.solo_ranks)
    )
    return "\n".join(lines) + "\n"
