"""Positions: the heroes' sheets at any decision of a game, in YAML, so that a game (a
puzzle, a lesson, a test, a bug report) can start mid-way (``--position FILE``); the
match writes its own (:func:`write_position`).

    round: 6                  # the round (0: the set-up, each hero choosing a power)
    roll: [3, 6, 6, 1]        # optional: the round's dice, rolled already (else rolled
                              # on loading, the named ``dice`` first)
    heroes:
      - name: Blaze           # optional (default: the option hero_names, else Hero N)
        choices: [ice, grow]  # optional: the two powers rolled at set-up
        power: grow           # the superpower chosen at set-up (none during the set-up)
        powers_left: 1        # optional (default: every use)
        location: 4           # where the hero stands: 1-6, or 0 for the middle
        marks:                # boxes filled, by location, in box order (0: empty)
          4: [3, 4, 5, 6, 5]
          1: [1, 0, 0, 0, 2]
        minions: {4: 2}       # robot minions defeated, by location
        wild_spent: 0         # wild dice already spent
        chosen: [help 3 at 5] # optional: the hero's choices of this round so far
        done: true            # optional: the hero is done with the round
    dice: [4, 2]              # optional: the next dice rolled, before the seed's

The sheets are as the round began; the heroes' choices of the round (``chosen``, then
``done``) are made again on loading, so each hero's dice and sheet are as they were.
A match over writes ``over: true``, each sheet as it ended and the dice each hero held
(``held: [[rolled, shows, spent], ...]``). The goals a sheet completes (honor, wild
dice earned, bystanders) follow from its marks, which must be marks the rules allow,
filled in box order. Errors name the file, the line and the field.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gladiatorium.core import OptionsError, Seat
from gladiatorium.core.files import FileRefused, parse_yaml_with_lines, yaml_line
from gladiatorium.games.super_dice_heroes.hero import MIDDLE, Die, Hero, help_boxes
from gladiatorium.games.super_dice_heroes.sheet import Sheet

if TYPE_CHECKING:
    from gladiatorium.games.super_dice_heroes.state import SuperDiceHeroesState

Power = Literal["shrink", "teleport", "ice", "fire", "shapeshift", "grow"]


class _HeroFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(None, min_length=1, max_length=40)
    choices: tuple[Power, Power] | None = None
    power: Power | None = None
    powers_left: int | None = Field(None, ge=0)
    location: int = Field(MIDDLE, ge=0, le=6)
    marks: dict[int, list[int]] = {}
    minions: dict[int, int] = {}
    wild_spent: int = Field(0, ge=0)
    chosen: list[str] = Field([], max_length=60)
    done: bool = False
    held: list[tuple[int, int, bool]] | None = Field(None, max_length=20)


class _PositionFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    round: int = Field(ge=0)
    roll: list[int] | None = Field(None, max_length=20)
    over: bool = False
    heroes: list[_HeroFile] = Field(min_length=1)
    dice: list[int] = Field([], max_length=200)


@dataclass(frozen=True)
class Position:
    """A position as it was read: the round (to roll, without ``roll``), a hero per
    seat (seat 1 first) with its choices of the round and whether it is done, a
    match over, and the next dice."""

    round: int
    heroes: tuple[Hero, ...]
    roll: tuple[int, ...] | None = None
    chosen: tuple[tuple[str, ...], ...] = ()
    done: tuple[bool, ...] = ()
    over: bool = False
    dice: tuple[int, ...] = ()
    #: where each of ``chosen`` is written ("FILE:LINE: hero N, chosen M"), for errors
    chosen_at: tuple[tuple[str, ...], ...] = ()


def load_position(
    text: str, sheet: Sheet, power_uses: int, rounds: int, source: str = "position"
) -> Position:
    """Read a position; every error names ``source``, the line and the field."""
    try:  # the safe reader's limits: no aliases, numbers of at most a few digits
        data, root = parse_yaml_with_lines(text, source)
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
    _check_round(parsed, rounds, fail)
    heroes = tuple(
        _hero(entry, ("heroes", i), sheet, power_uses, fail)
        for i, entry in enumerate(parsed.heroes)
    )
    if parsed.over:
        for i, (hero, entry) in enumerate(zip(heroes, parsed.heroes, strict=True)):
            hero.dice = _held(entry, ("heroes", i), fail)
            hero.done = True
    return Position(
        parsed.round,
        heroes,
        None if parsed.roll is None else tuple(parsed.roll),
        tuple(tuple(entry.chosen) for entry in parsed.heroes),
        tuple(entry.done for entry in parsed.heroes),
        parsed.over,
        tuple(parsed.dice),
        tuple(
            tuple(
                f"{source}{yaml_line(root, ('heroes', i, 'chosen', j))}: "
                f"{_field(('heroes', i, 'chosen'))} {j + 1}"
                for j in range(len(entry.chosen))
            )
            for i, entry in enumerate(parsed.heroes)
        ),
    )


def _check_round(parsed: _PositionFile, rounds: int, fail: Any) -> None:
    """The round, its roll and what the heroes did in it fit together."""
    if parsed.round > rounds:
        raise fail(("round",), f"the game has {rounds} rounds")
    for index, value in enumerate([*(parsed.roll or ()), *parsed.dice]):
        if not 1 <= value <= 6:
            field = "roll" if index < len(parsed.roll or ()) else "dice"
            raise fail((field,), f"a die shows 1 to 6, not {value}")
    if parsed.round == 0 and parsed.roll is not None:
        raise fail(("roll",), "the set-up (round 0) rolls no dice")
    if parsed.over and (parsed.round != rounds or parsed.roll is None):
        raise fail(("over",), f"a match over is at round {rounds}, with its roll")
    for i, entry in enumerate(parsed.heroes):
        where = ("heroes", i)
        if parsed.round == 0 and entry.choices is None:
            raise fail((*where, "choices"), "the set-up needs the two powers rolled")
        if parsed.round > 0 and entry.power is None:
            raise fail((*where, "power"), "Field required")
        if (entry.chosen or entry.done) and parsed.roll is None and parsed.round > 0:
            raise fail((*where, "chosen"), "choices of a round need its roll")
        if (entry.held is not None) != parsed.over:
            raise fail((*where, "held"), "the dice held are written for a match over only")
    if not parsed.over and parsed.round == rounds and all(e.done for e in parsed.heroes):
        raise fail(("heroes",), "every hero is done: the match is over (write over: true)")
    if not parsed.over and parsed.round > 0 and all(e.done for e in parsed.heroes):
        raise fail(("heroes",), "every hero is done: write the next round")


def _held(entry: _HeroFile, path: tuple[int | str, ...], fail: Any) -> list[Die]:
    """The dice a hero held when the match ended."""
    dice = []
    for rolled, shows, spent in entry.held or ():
        if not (1 <= rolled <= 6 and 1 <= shows <= 6):
            raise fail((*path, "held"), f"a die shows 1 to 6, not {rolled} or {shows}")
        dice.append(Die(rolled, shows, spent))
    return dice


def _hero(
    entry: _HeroFile, path: tuple[int | str, ...], sheet: Sheet, uses: int, fail: Any
) -> Hero:
    """A hero whose sheet holds the marks given, its goals counted as they filled."""
    power = entry.power
    choices = entry.choices or (power or "grow", power or "grow")
    hero = Hero.new(entry.name or "", choices, sheet, uses)
    hero.power = power
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


# ----- writing ---------------------------------------------------------------------------
def write_position(state: SuperDiceHeroesState, seat: Seat | None = None) -> str:
    """The match at its decision as a position: the sheets as the round began, the
    round's roll, each hero's choices of the round (with a seat: only its own; the
    others' are left open, each other hero only done or not) and the next dice."""
    over = state.outcome() is not None
    lines = [
        '# Super Dice Heroes position (docs/rules/super-dice-heroes.md, "Positions")',
        f"round: {state.round}",
    ]
    if state.round > 0:
        lines.append(f"roll: {_flow(state.roll)}")
    if over:
        lines.append("over: true")
    lines.append("heroes:")
    for each, hero in state.heroes.items():
        sheet_hero = hero if over else state.round_heroes[each]
        lines += _hero_lines(state.sheet, sheet_hero)
        if over:
            lines.append(f"    held: {_flow([[d.rolled, d.value, d.spent] for d in hero.dice])}")
            continue
        chosen = state.choices_made[each] if seat in (None, each) else []
        if chosen:
            lines.append(f"    chosen: {_flow(chosen)}")
        if each not in state.pending:
            lines.append("    done: true")
    dice = state.rng.next_dice()
    if dice:
        lines.append(f"dice: {_flow(dice)}")
    return "\n".join(lines) + "\n"


def _hero_lines(sheet: Sheet, hero: Hero) -> list[str]:
    """A hero's sheet: its name, powers, place, marks, minions and wild dice spent."""
    lines = [f"  - name: {json.dumps(hero.name)}", f"    choices: {_flow(list(hero.choices))}"]
    if hero.power is not None:
        lines.append(f"    power: {hero.power}")
    lines += [f"    powers_left: {hero.powers_left}", f"    location: {hero.location}"]
    marked = {
        loc.number: list(row)
        for loc, row in zip(sheet.locations, hero.marks, strict=True)
        if any(row)
    }
    if marked:
        lines.append("    marks:")
        lines += [f"      {number}: {_flow(row)}" for number, row in marked.items()]
    minions = {n + 1: count for n, count in enumerate(hero.minions) if count}
    if minions:
        lines.append(f"    minions: {{{', '.join(f'{n}: {c}' for n, c in minions.items())}}}")
    lines.append(f"    wild_spent: {hero.wild_spent}")
    return lines


def _flow(values: list[Any]) -> str:
    """A YAML flow list (JSON is YAML): numbers, words and booleans as JSON writes them."""
    return json.dumps(values)
