"""The score sheet: six locations, their boxes, goals and rewards, read from data.

The printed sheet is lost, so it lives in a data file (``data/standard.yaml``) that
a player who owns the sheet can correct without touching code. This module reads
and checks that file; the rules of each kind of location are in :mod:`.locations`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from importlib import resources
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from gladiatorium.core import OptionsError
from gladiatorium.core.files import FileRefused, parse_yaml_with_lines, yaml_line
from gladiatorium.core.kept import cached

#: sheets shipped with the game, by name
SHIPPED = {"standard": "standard.yaml"}


class Kind(StrEnum):
    """How a location is helped (see the header of ``data/standard.yaml``)."""

    GRID = "grid"  # printed numbers, an X with a matching die, any order
    PAIRS = "pairs"  # same-number pairs
    RUN = "run"  # one number for the whole run, from box 1 up
    STEP = "step"  # each number one above or below the last
    CLIMB = "climb"  # each number equal to or higher than the last


@dataclass(frozen=True)
class Goal:
    """Boxes that, once all filled, pay honor, wild dice and bystanders."""

    name: str
    boxes: tuple[int, ...]  # 0-based
    honor: int
    wild: int
    bystander: int


@dataclass(frozen=True)
class Location:
    """One of the six locations of the sheet."""

    number: int
    name: str
    kind: Kind
    size: int
    numbers: tuple[int, ...]  # printed numbers (grid only)
    width: int
    minions: int
    goals: tuple[Goal, ...]

    @cached_property
    def goals_of_box(self) -> tuple[tuple[int, ...], ...]:
        """For each box (0-based), the indexes of the goals that hold it (worked out
        once per location: marking a box checks only these goals)."""
        return tuple(
            tuple(g for g, goal in enumerate(self.goals) if box in goal.boxes)
            for box in range(self.size)
        )

    @cached_property
    def boxes_by_number(self) -> tuple[tuple[int, ...], ...]:
        """A grid's boxes (0-based) by their printed number (index 0: none)."""
        return tuple(
            tuple(box for box, n in enumerate(self.numbers) if n == number) for number in range(7)
        )

    @cached_property
    def chain_helps(self) -> dict[tuple[int, int], Any]:
        """A chain's open boxes and their spends, by the boxes filled and the last
        number filled, kept by ``hero.py`` as play meets them (at most one for each
        box and number)."""
        return {}

    @cached_property
    def spend_values(self) -> list[Any]:
        """The spends that fill a box here, made once by ``hero.py`` when play first
        needs them (one value for each die and box)."""
        return []


@dataclass(frozen=True)
class Sheet:
    """The whole sheet: locations 1-6 in order, reward values and solo titles."""

    name: str
    bystander_honor: int
    minion_honor: int
    locations: tuple[Location, ...]
    solo_ranks: tuple[tuple[int, str], ...]

    def location(self, number: int) -> Location:
        return self.locations[number - 1]

    def __deepcopy__(self, memo: dict[int, Any]) -> Sheet:
        return self  # immutable: clones of a match share it

    def solo_title(self, score: int) -> str:
        """The title of the highest solo rank ``score`` reaches."""
        title = self.solo_ranks[0][1]
        for lowest, name in self.solo_ranks:
            if score >= lowest:
                title = name
        return title


# ----- the file format (validated with pydantic so errors name the field) ------------
class _GoalFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    boxes: list[int] = Field(min_length=1)
    honor: int = Field(0, ge=0)
    wild: int = Field(0, ge=0)
    bystander: int = Field(0, ge=0)


class _LocationFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    number: int = Field(ge=1, le=6)
    name: str
    kind: Kind
    boxes: int | None = Field(None, ge=1, le=40)
    numbers: list[int] | None = None
    width: int = Field(0, ge=0)
    minions: int = Field(3, ge=0)
    goals: list[_GoalFile] = []

    @model_validator(mode="after")
    def _boxes_fit(self) -> _LocationFile:
        if self.kind is Kind.GRID:
            if not self.numbers:
                raise ValueError("a grid location needs 'numbers' (the printed number per box)")
            if any(not 1 <= n <= 6 for n in self.numbers):
                raise ValueError("grid numbers must be 1 to 6")
            if self.width <= 0 or len(self.numbers) % self.width:
                raise ValueError(f"width {self.width} does not divide {len(self.numbers)} boxes")
        else:
            if self.boxes is None:
                raise ValueError(f"a {self.kind} location needs 'boxes' (how many)")
            if self.numbers is not None:
                raise ValueError(f"a {self.kind} location has no printed 'numbers'")
            if self.kind is Kind.PAIRS and self.boxes % 2:
                raise ValueError("a pairs location needs an even number of boxes")
        size = self.size
        for index, goal in enumerate(self.goals):
            bad = [b for b in goal.boxes if not 1 <= b <= size]
            if bad:
                where = f"goal {index + 1} ({goal.name})"
                raise ValueError(f"{where}: no box {bad[0]} (boxes 1-{size})")
        return self

    @property
    def size(self) -> int:
        return len(self.numbers) if self.numbers else (self.boxes or 0)


class _RankFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    score: int = Field(ge=0)
    title: str


class _SheetFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    bystander_honor: int = Field(5, ge=0)
    minion_honor: int = Field(1, ge=0)
    solo_ranks: list[_RankFile] = Field(min_length=1)
    locations: list[_LocationFile] = Field(min_length=6, max_length=6)

    @model_validator(mode="after")
    def _six_locations(self) -> _SheetFile:
        numbers = [loc.number for loc in self.locations]
        if numbers != [1, 2, 3, 4, 5, 6]:
            raise ValueError(f"locations must be numbered 1 to 6 in order, not {numbers}")
        scores = [rank.score for rank in self.solo_ranks]
        if scores != sorted(scores) or scores[0] != 0:
            raise ValueError("solo_ranks must rise in score and start at 0")
        return self


def sheet_text(value: str) -> str:
    """The YAML of a shipped sheet name, or ``value`` itself if it is sheet text."""
    if value in SHIPPED:
        folder = resources.files("gladiatorium.games.super_dice_heroes") / "data"
        return (folder / SHIPPED[value]).read_text(encoding="utf-8")
    if "\n" not in value:
        known = ", ".join(sorted(SHIPPED))
        raise OptionsError(f"no shipped sheet {value!r} (shipped: {known}); or give sheet YAML")
    return value


@cached("super_dice_heroes.sheet.load_sheet", "super-dice-heroes", 16, "sheets read")
def load_sheet(value: str, source: str = "sheet") -> Sheet:
    """Parse a sheet (a shipped name or YAML text); errors name ``source``, the line
    and the field, e.g. ``my.yaml:45: location 1 (City Hall), goal 3 (bottom row),
    honor: ...``."""
    text = sheet_text(value)
    try:
        data, root = parse_yaml_with_lines(text, source)
    except FileRefused as err:
        raise OptionsError(str(err)) from err
    if data is None:
        raise OptionsError(f"{source}: the sheet is empty")
    try:
        parsed = _SheetFile.model_validate(data)
    except ValidationError as err:
        problems = "; ".join(
            f"{source}{yaml_line(root, e['loc'])}: {_field(data, e['loc'])}: {_message(e['msg'])}"
            for e in err.errors()
        )
        raise OptionsError(problems) from err
    return Sheet(
        name=parsed.name,
        bystander_honor=parsed.bystander_honor,
        minion_honor=parsed.minion_honor,
        solo_ranks=tuple((r.score, r.title) for r in parsed.solo_ranks),
        locations=tuple(_location(loc) for loc in parsed.locations),
    )


def _location(loc: _LocationFile) -> Location:
    return Location(
        number=loc.number,
        name=loc.name,
        kind=loc.kind,
        size=loc.size,
        numbers=tuple(loc.numbers or ()),
        width=loc.width,
        minions=loc.minions,
        goals=tuple(
            Goal(g.name, tuple(b - 1 for b in g.boxes), g.honor, g.wild, g.bystander)
            for g in loc.goals
        ),
    )


def _message(text: str) -> str:
    """A pydantic message without the words about our internal classes."""
    text = text.removeprefix("Value error, ")
    return re.sub(r" or instance of _\w+", "", text)


def _field(data: Any, loc: tuple[int | str, ...]) -> str:
    """A pydantic error location in the sheet's words: ``locations.0.goals.2.honor``
    reads ``location 1 (City Hall), goal 3 (bottom row), honor``."""
    words: list[str] = []
    node = data
    parent: int | str = ""
    for part in loc:
        if isinstance(part, int):
            node = node[part] if isinstance(node, list) and part < len(node) else None
            name = node.get("name") if isinstance(node, dict) else None
            label = {"locations": "location", "goals": "goal", "solo_ranks": "solo rank"}
            words[-1:] = [f"{label.get(str(parent), str(parent))} {part + 1}"]
            if name is not None:
                words[-1] += f" ({name})"
        else:
            node = node.get(part) if isinstance(node, dict) else None
            words.append(part)
        parent = part
    return ", ".join(words) or "the sheet"
