"""Positions: the heroes' sheets as a round begins, written by hand in YAML, so that a
game (a puzzle, a lesson, a test) can start mid-way (``--position FILE``).

    round: 6                  # the round about to be rolled (1 to the last round)
    heroes:
      - name: Blaze           # optional (default: the option hero_names, else Hero N)
        power: grow           # the superpower chosen at set-up
        powers_left: 1        # optional (default: every use)
        location: 4           # where the hero stands: 1-6, or 0 for the middle
        marks:                # boxes filled, by location, in box order (0: empty)
          4: [3, 4, 5, 6, 5]
          1: [1, 0, 0, 0, 2]
        minions: {4: 2}       # robot minions defeated, by location
        wild_spent: 0         # wild dice already spent

The goals a sheet completes (honor, wild dice earned, bystanders) follow from its marks,
which must be marks the rules allow, filled in box order. Errors name the file, the
line and the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gladiatorium.core import OptionsError
from gladiatorium.core.files import FileRefused, compose_yaml, parse_yaml, yaml_line
from gladiatorium.games.super_dice_heroes.hero import MIDDLE, Hero, help_boxes
from gladiatorium.games.super_dice_heroes.sheet import Sheet

Power = Literal["shrink", "teleport", "ice", "fire", "shapeshift", "grow"]


class _HeroFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(None, min_length=1, max_length=40)
    power: Power
    powers_left: int | None = Field(None, ge=0)
    location: int = Field(MIDDLE, ge=0, le=6)
    marks: dict[int, list[int]] = {}
    minions: dict[int, int] = {}
    wild_spent: int = Field(0, ge=0)


class _PositionFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    round: int = Field(ge=1)
    heroes: list[_HeroFile] = Field(min_length=1)


@dataclass(frozen=True)
class Position:
    """A position as it was read: the round to roll and a hero per seat (seat 1 first)."""

    round: int
    heroes: tuple[Hero, ...]


def load_position(
    text: str, sheet: Sheet, power_uses: int, rounds: int, source: str = "position"
) -> Position:
    """Read a position; every error names ``source``, the line and the field."""
    try:  # the safe reader's limits: no aliases, numbers of at most a few digits
        data: Any = parse_yaml(text, source)
        root = compose_yaml(text, source)
    except FileRefused as err:
        raise OptionsError(str(err)) from err
    if data is None:
        raise OptionsError(f"{source}: the position is empty")

    def fail(path: tuple[int | str, ...], message: str) -> OptionsError:
        return OptionsError(f"{source}{yaml_line(root, path)}: {_field(path)}: {message}")

    try:
        parsed = _PositionFile.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        path = tuple(first["loc"])
        raise fail(path, first["msg"].removeprefix("Value error, ")) from err
    if parsed.round > rounds:
        raise fail(("round",), f"the game has {rounds} rounds")
    heroes = tuple(
        _hero(entry, ("heroes", i), sheet, power_uses, fail)
        for i, entry in enumerate(parsed.heroes)
    )
    return Position(parsed.round, heroes)


def _hero(
    entry: _HeroFile, path: tuple[int | str, ...], sheet: Sheet, uses: int, fail: Any
) -> Hero:
    """A hero whose sheet holds the marks given, its goals counted as they filled."""
    hero = Hero.new(entry.name or "", (entry.power, entry.power), sheet, uses)
    hero.power = entry.power
    if entry.powers_left is not None:
        if entry.powers_left > uses:
            raise fail((*path, "powers_left"), f"at most {uses} (option power_uses)")
        hero.powers_left = entry.powers_left
    for number, marks in sorted(entry.marks.items()):
        _mark_location(hero, sheet, number, marks, (*path, "marks", number), fail)
    for number, count in sorted(entry.minions.items()):
        where = (*path, "minions", number)
        if not 1 <= number <= 6:
            raise fail(where, "locations are numbered 1 to 6")
        most = sheet.location(number).minions
        if not 0 <= count <= most:
            raise fail(where, f"{sheet.location(number).name} has {most} minions")
        hero.minions[number - 1] = count
    if entry.wild_spent > hero.wild_earned:
        raise fail((*path, "wild_spent"), f"the marks earn {hero.wild_earned} wild dice")
    hero.wild_spent = entry.wild_spent
    hero.location = entry.location
    return hero


def _mark_location(
    hero: Hero,
    sheet: Sheet,
    number: int,
    marks: list[int],
    where: tuple[int | str, ...],
    fail: Any,
) -> None:
    """Fill the boxes in box order, each as the rules allow at that point."""
    if not 1 <= number <= 6:
        raise fail(where, "locations are numbered 1 to 6")
    loc = sheet.location(number)
    if len(marks) > loc.size:
        raise fail(where, f"{loc.name} has {loc.size} boxes")
    hero.location = number
    for box, value in enumerate(marks):
        if value == 0:
            continue
        if not 1 <= value <= 6:
            raise fail(where, f"box {box + 1}: a die shows 1 to 6 (0: an empty box)")
        if box not in help_boxes(loc, hero.marks[number - 1], value):
            raise fail(where, f"box {box + 1} of {loc.name} cannot hold {value} here")
        hero._mark(sheet, box, value)  # as a spend would: the goals it completes count


def _field(path: tuple[int | str, ...]) -> str:
    """``('heroes', 0, 'marks', 4)`` reads ``hero 1, marks, location 4``."""
    words: list[str] = []
    for part in path:
        if isinstance(part, int) and words and words[-1] == "heroes":
            words[-1] = f"hero {part + 1}"
        elif isinstance(part, int) and words and words[-1] in ("marks", "minions"):
            words.append(f"location {part}")
        else:
            words.append(str(part))
    return ", ".join(words) or "the position"
