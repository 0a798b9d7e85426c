"""One hero's sheet and this round's dice, and the rules of spending them.

Everything a player does touches only their own sheet, so the rules live here, on a
small copyable object that the state keeps per seat and the bots copy to plan.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, NamedTuple

from gladiatorium.games.super_dice_heroes.actions import (
    ChangeDie,
    Defeat,
    Help,
    Move,
    Teleport,
    WildDefeat,
    WildHelp,
    WildMove,
)
from gladiatorium.games.super_dice_heroes.sheet import Goal, Kind, Location, Sheet

#: where every hero starts, and never returns to
MIDDLE = 0
LOCATIONS = (1, 2, 3, 4, 5, 6)
FACES = (1, 2, 3, 4, 5, 6)

SpendAction = Move | Help | Defeat | WildMove | WildHelp | WildDefeat | ChangeDie | Teleport


class Die(NamedTuple):
    """One of this round's shared dice as this hero uses it: the number rolled, the
    number it shows now (superpowers change it) and whether it is spent."""

    rolled: int
    value: int
    spent: bool = False


# ----- the rule of each kind of location ---------------------------------------------
#: the boxes (0-based) a die may fill, by the number it shows (index 0: no die)
Openings = tuple[tuple[int, ...], ...]


def open_boxes(location: Location, marks: Sequence[int]) -> Openings:
    """The boxes (0-based) a die may fill at ``location`` now, for each number it may
    show: ``open_boxes(loc, marks)[die]``, low box first."""
    kind = location.kind
    if kind is Kind.GRID:
        # Mark an X on an empty box whose printed number matches the die, any order.
        return tuple(tuple(i for i in boxes if not marks[i]) for boxes in location.boxes_by_number)
    if kind is Kind.PAIRS:
        return _pair_boxes(marks)
    filled = _filled_count(marks)
    if filled == len(marks):
        return NO_BOXES
    if filled == 0:
        return FIRST_BOX  # every chain starts with any number in its first box
    last = marks[filled - 1]
    if kind is Kind.RUN:
        fits = [die == marks[0] for die in FACES]  # the same number for the entire run
    elif kind is Kind.STEP:
        fits = [abs(die - last) == 1 for die in FACES]  # one higher or lower, never the same
    else:
        fits = [die >= last for die in FACES]  # equal to or higher than the previous number
    box = (filled,)
    return ((), *(box if ok else () for ok in fits))


def help_boxes(location: Location, marks: Sequence[int], die: int) -> list[int]:
    """The boxes (0-based) a die showing ``die`` may fill at ``location`` now."""
    return list(open_boxes(location, marks)[die])


#: no box open for any number, and the first box open for every number
NO_BOXES: Openings = ((),) * 7
FIRST_BOX: Openings = ((), *((0,),) * 6)


def _pair_boxes(marks: Sequence[int]) -> Openings:
    """Same-number pairs: start any empty pair with any number (its first box), or
    finish a started pair whose first box holds this number; any order."""
    out: list[list[int]] = [[] for _ in range(7)]
    for first in range(0, len(marks), 2):
        a = marks[first]
        if not a:
            for boxes in out:
                boxes.append(first)
        elif not marks[first + 1]:
            out[a].append(first + 1)
    out[0] = []
    return tuple(map(tuple, out))


def _filled_count(marks: Sequence[int]) -> int:
    for i, value in enumerate(marks):
        if not value:
            return i
    return len(marks)


class Helps(NamedTuple):
    """The boxes open at a location with given marks, and the spends that fill them."""

    openings: Openings  # by the number a die shows
    by_die: tuple[tuple[SpendAction, ...], ...]  # a rolled die showing each number


def helps_for(location: Location, marks: tuple[int, ...]) -> Helps:
    """The helps at ``location`` with ``marks``: the open boxes as spends, each one a
    value made once per die and box (``help_spends``)."""
    if location.kind in CHAINS:
        return chain_helps(location, marks)
    return _helps_of(location, open_boxes(location, marks))


def _helps_of(location: Location, openings: Openings) -> Helps:
    made = help_spends(location)[0]
    by_die = [tuple([made[n][box] for box in boxes]) for n, boxes in enumerate(openings)]
    return Helps(openings, tuple(by_die))


#: the kinds of location filled box after box, from the first
CHAINS = frozenset({Kind.RUN, Kind.STEP, Kind.CLIMB})


def chain_helps(location: Location, marks: tuple[int, ...]) -> Helps:
    """The helps at a chain: they follow from how many boxes are filled and the last
    number filled (which a die is compared with; a run's are all its first), so each
    location keeps them by those two (at most one for each box and number)."""
    filled = _filled_count(marks)
    last = marks[filled - 1] if filled else 0
    kept = location.chain_helps
    helps = kept.get((filled, last))
    if helps is None:
        helps = kept[filled, last] = _helps_of(location, open_boxes(location, marks))
    return helps


def helps_after_mark(location: Location, before: Helps, marks: tuple[int, ...], box: int) -> Helps:
    """The helps at ``location`` once ``box`` (0-based) is marked, ``marks`` the marks
    now, from the helps just before (``before``). In a grid the box was open to its
    printed number only; in a pair, the first box was open to every number and the
    pair's second box opens in its place to the number written; the second box was open
    to that number only. Only those numbers are worked out again; a chain opens its
    next box to other numbers, and its location keeps its helps (``chain_helps``)."""
    kind = location.kind
    if kind is Kind.GRID:
        numbers: Sequence[int] = (location.numbers[box],)
    elif kind is Kind.PAIRS:
        numbers = FACES if box % 2 == 0 else (marks[box],)
    else:
        return chain_helps(location, marks)
    openings, by_die = list(before.openings), list(before.by_die)
    second = box + 1 if kind is Kind.PAIRS and box % 2 == 0 else None
    made = help_spends(location)[0]
    for number in numbers:
        boxes, spends = openings[number], by_die[number]
        i = boxes.index(box)
        if second is not None and number == marks[box]:
            openings[number] = (*boxes[:i], second, *boxes[i + 1 :])
            by_die[number] = (*spends[:i], made[number][second], *spends[i + 1 :])
        else:
            openings[number] = boxes[:i] + boxes[i + 1 :]
            by_die[number] = spends[:i] + spends[i + 1 :]
    return Helps(tuple(openings), tuple(by_die))


def wild_helps(location: Location, openings: Openings) -> list[SpendAction]:
    """A wild die, as any number, on each box open for that number."""
    made = help_spends(location)[1]
    return [made[face][box] for face in FACES for box in openings[face]]


def help_spends(location: Location) -> tuple[HelpTable, HelpTable]:
    """``Help(die, box)`` and ``WildHelp(die, box)`` at ``location``, made once:
    ``[die][box - 1]`` (index 0: no die)."""
    made = location.spend_values
    if not made:
        boxes = range(1, location.size + 1)
        made.append(tuple(tuple(Help(die, box) for box in boxes) for die in (0, *FACES)))
        made.append(tuple(tuple(WildHelp(die, box) for box in boxes) for die in (0, *FACES)))
    return made[0], made[1]


#: spends by die and box (index 0: no die)
HelpTable = tuple[tuple[SpendAction, ...], ...]


def move_targets(here: int, die: int) -> list[int]:
    """Where a die moves a hero: to the location of its number, or, if it matches the
    location the hero stands on, to any other location."""
    if die == here:
        return [loc for loc in LOCATIONS if loc != here]
    return [die]


def changed_value(power: str, die: int) -> int | None:
    """The number a die shows after shrink, ice, fire or grow (None: no change)."""
    if power == "shrink":
        return 1 if die != 1 else None
    if power == "ice":
        return die - 1 if die > 1 else None  # 1s cannot be changed
    if power == "fire":
        return die + 1 if die < 6 else None  # 6s cannot be changed
    if power == "grow":
        return 6 if die != 6 else None
    return None


@dataclass(slots=True)
class Hero:
    """A player's sheet (marks, minions, position, powers, wild dice, bystanders) and
    the dice of the current round."""

    name: str
    choices: tuple[str, str]
    power: str | None = None
    powers_left: int = 3
    location: int = MIDDLE
    marks: list[tuple[int, ...]] = field(default_factory=list)  # 0: empty box
    goals_done: list[tuple[bool, ...]] = field(default_factory=list)
    minions: list[int] = field(default_factory=lambda: [0] * 6)
    wild_earned: int = 0
    wild_spent: int = 0
    bystanders: int = 0
    goal_honor: int = 0
    dice: list[Die] = field(default_factory=list)
    done: bool = False
    minions_last_resort: bool = False  # option: a minion only with a die that cannot help
    #: the helps at each location, for the marks there when they were worked out
    _helps: list[Helps | None] = field(
        default_factory=lambda: [None] * len(LOCATIONS), init=False, repr=False, compare=False
    )
    _helps_marks: list[tuple[int, ...]] = field(
        default_factory=lambda: [()] * len(LOCATIONS), init=False, repr=False, compare=False
    )

    @classmethod
    def new(
        cls,
        name: str,
        choices: tuple[str, str],
        sheet: Sheet,
        uses: int,
        minions_last_resort: bool = False,
    ) -> Hero:
        return cls(
            name=name,
            choices=choices,
            powers_left=uses,
            minions_last_resort=minions_last_resort,
            marks=[(0,) * loc.size for loc in sheet.locations],
            goals_done=[(False,) * len(loc.goals) for loc in sheet.locations],
        )

    def copy(self) -> Hero:
        """An independent copy (for bots that plan; called often, so it copies the
        slots directly instead of going through ``__init__``)."""
        new = object.__new__(Hero)
        new.name, new.choices, new.power = self.name, self.choices, self.power
        new.powers_left, new.location = self.powers_left, self.location
        new.marks = self.marks[:]  # rows are tuples, replaced when marked
        new.goals_done = self.goals_done[:]
        new.minions = self.minions[:]
        new.wild_earned, new.wild_spent = self.wild_earned, self.wild_spent
        new.bystanders, new.goal_honor = self.bystanders, self.goal_honor
        new.dice = self.dice[:]
        new.done, new.minions_last_resort = self.done, self.minions_last_resort
        new._helps, new._helps_marks = self._helps[:], self._helps_marks[:]
        return new

    # ----- what the hero holds ---------------------------------------------------------
    @property
    def wild_left(self) -> int:
        return self.wild_earned - self.wild_spent

    def unspent(self) -> list[int]:
        """The distinct numbers on this round's unspent dice, low to high."""
        return sorted({d.value for d in self.dice if not d.spent})

    def has_die(self, value: int) -> bool:
        return any(not d.spent and d.value == value for d in self.dice)

    def score(self, sheet: Sheet) -> int:
        """Honor now: goals met, plus bystanders and defeated minions."""
        return (
            self.goal_honor
            + self.bystanders * sheet.bystander_honor
            + sum(self.minions) * sheet.minion_honor
        )

    def location_honor(self, sheet: Sheet, number: int) -> int:
        """Honor earned at one location: its goals, its bystanders, its minions."""
        loc = sheet.location(number)
        done = self.goals_done[number - 1]
        goals = [g for g, ok in zip(loc.goals, done, strict=True) if ok]
        return (
            sum(g.honor + g.bystander * sheet.bystander_honor for g in goals)
            + self.minions[number - 1] * sheet.minion_honor
        )

    # ----- the choices of a spend --------------------------------------------------------
    def shapeshift_targets(self, value: int) -> list[int]:
        """Numbers an unspent die showing ``value`` may shapeshift to: the numbers
        rolled this round on the other dice (spent or not)."""
        out: set[int] = set()
        for i, die in enumerate(self.dice):
            if die.spent or die.value != value:
                continue
            out.update(d.rolled for j, d in enumerate(self.dice) if j != i)
        out.discard(value)
        return sorted(out)

    def spend_actions(self, sheet: Sheet) -> list[SpendAction]:
        """Every way to spend a die, a wild die or a superpower now."""
        return self.spends(sheet)

    def spends(self, sheet: Sheet, values: list[int] | None = None) -> list[SpendAction]:
        """Every way to spend a die, a wild die or a superpower now, in a new list
        (``values``: :meth:`unspent`, when the caller has it). The actions are values
        taken from tables worked out once (a spend follows from where the hero stands,
        a die's number and the marks there), so listing them builds none."""
        here = self.location
        if values is None:
            values = self.unspent()
        out: list[SpendAction] = []
        moves = DIE_MOVES[here]
        if here == MIDDLE:
            for value in values:
                out += moves[value]
        else:
            loc = sheet.locations[here - 1]
            helps = self._helps_here(loc).by_die
            minion_left = self.minions[here - 1] < loc.minions
            last_resort = self.minions_last_resort
            for value in values:
                out += moves[value]
                boxes = helps[value]
                out += boxes
                if minion_left and not (boxes and last_resort):
                    out.append(DEFEATS[value])
        if self.wild_earned > self.wild_spent:
            out += WILD_MOVES[here]
            if here != MIDDLE:
                out += self._wild_helps_and_defeat(sheet)
        if self.powers_left and self.power is not None:
            out += self._power_spends(values)
        return out

    def _wild_helps_and_defeat(self, sheet: Sheet) -> list[SpendAction]:
        """A wild die, as any number, on a box here; or on a robot minion here."""
        loc = sheet.location(self.location)
        out = wild_helps(loc, self._helps_here(loc).openings)
        if self._minion_left(sheet) and not (out and self.minions_last_resort):
            out.append(WILD_DEFEAT)
        return out

    def _helps_here(self, location: Location) -> Helps:
        """The helps at ``location``, worked out once for the hero's marks there (a hero
        decides several times a round on the same marks, and comes back to them)."""
        index = location.number - 1
        marks = self.marks[index]
        helps = self._helps[index]
        if helps is None or self._helps_marks[index] is not marks:
            helps = self._helps[index] = helps_for(location, marks)
            self._helps_marks[index] = marks
        return helps

    def _minion_left(self, sheet: Sheet) -> bool:
        """Whether a robot minion still stands where the hero is."""
        here = self.location
        return here != MIDDLE and self.minions[here - 1] < sheet.location(here).minions

    def _power_spends(self, values: list[int]) -> list[SpendAction]:
        """The superpower on each number showing (``values``: the unspent numbers)."""
        power = self.power
        out: list[SpendAction] = []
        if power == "shapeshift":
            for value in values:
                out += [SHAPESHIFTS[value][to] for to in self.shapeshift_targets(value)]
        elif power is not None:
            made = TELEPORTS[self.location] if power == "teleport" else POWER_CHANGES[power]
            for value in values:
                out += made[value]
        return out

    def can_spend_a_die(self) -> bool:
        """Whether some rolled die can still be spent (moving or helping): whether one
        is unspent, as an unspent die can always move the hero (to the location of its
        number, or, showing where the hero stands, to any other)."""
        return any(not die.spent for die in self.dice)

    def spend_problem(self, sheet: Sheet, action: SpendAction) -> str | None:
        """Why ``action`` cannot be done now, or None (a direct check, no listing)."""
        if isinstance(action, Move | Help | Defeat | Teleport | ChangeDie) and not self.has_die(
            action.die
        ):
            return f"no unspent die shows {action.die}"
        if isinstance(action, WildMove | WildHelp | WildDefeat) and not self.wild_left:
            return "no wild die to spend"
        if isinstance(action, ChangeDie | Teleport):
            power = action.power if isinstance(action, ChangeDie) else "teleport"
            if self.power != power:
                return f"{self.name}'s superpower is {self.power}, not {power}"
            if not self.powers_left:
                return "no superpower uses left"
        if action in self.spend_actions(sheet):
            return None
        last_resort = self.minions_last_resort and self._minion_left(sheet)
        if isinstance(action, Defeat | WildDefeat) and last_resort:
            return f"{action}: minions are a last resort, and that die can fill a box here"
        return f"{action} is not possible here"

    # ----- doing it ----------------------------------------------------------------------
    def spend(self, sheet: Sheet, action: SpendAction) -> list[Goal]:
        """Carry out a legal spend; returns the goals it completed."""
        # the action types are final: each is told by its type, quicker than isinstance
        if type(action) is Move:
            self._use_die(action.die)
            self.location = action.location
        elif type(action) is Help:
            self._use_die(action.die)
            return self._mark(sheet, action.box - 1, action.die)
        elif type(action) is Defeat:
            self._use_die(action.die)
            self.minions[self.location - 1] += 1
        elif type(action) is ChangeDie:
            self._change_die(action)
        elif type(action) is Teleport:
            self._use_die(action.die)
            self.powers_left -= 1
            self.location = action.location
        elif type(action) is WildMove:
            self.wild_spent += 1
            self.location = action.location
        elif type(action) is WildHelp:
            self.wild_spent += 1
            return self._mark(sheet, action.box - 1, action.die)
        else:  # WildDefeat
            self.wild_spent += 1
            self.minions[self.location - 1] += 1
        return []

    def _use_die(self, value: int) -> None:
        """Spend one unspent die showing ``value`` (equal dice are interchangeable;
        the first rolled is taken)."""
        for i, die in enumerate(self.dice):
            if not die.spent and die.value == value:
                self.dice[i] = Die(die.rolled, die.value, True)
                return

    def _change_die(self, action: ChangeDie) -> None:
        self.powers_left -= 1
        for i, die in enumerate(self.dice):
            if die.spent or die.value != action.die:
                continue
            if action.power == "shapeshift" and not any(
                d.rolled == action.to for j, d in enumerate(self.dice) if j != i
            ):
                continue
            self.dice[i] = die._replace(value=action.to)
            return

    def _mark(self, sheet: Sheet, box: int, value: int) -> list[Goal]:
        """Write ``value`` in ``box`` here and collect the goals now complete."""
        index = self.location - 1
        row = self.marks[index]
        marks = (*row[:box], value, *row[box + 1 :])
        self.marks[index] = marks
        loc = sheet.locations[index]
        helps = self._helps[index]
        if helps is not None and self._helps_marks[index] is row:  # kept up to date
            self._helps[index] = helps_after_mark(loc, helps, marks, box)
            self._helps_marks[index] = marks
        done = self.goals_done[index]
        met = [
            g
            for g in loc.goals_of_box[box]
            if not done[g] and all(map(marks.__getitem__, loc.goals[g].boxes))
        ]
        if not met:
            return []
        for g in met:
            goal = loc.goals[g]
            self.goal_honor += goal.honor
            self.wild_earned += goal.wild
            self.bystanders += goal.bystander
        self.goals_done[index] = tuple(ok or g in met for g, ok in enumerate(done))
        return [loc.goals[g] for g in met]


def _changes(power: str, value: int) -> list[SpendAction]:
    new = changed_value(power, value)
    return [] if new is None else [ChangeDie(power, value, new)]


#: the spends that never depend on more than where the hero stands and a die's number,
#: made once: a die's moves, a wild die's moves, teleports, the other powers, defeats
DIE_MOVES: dict[int, dict[int, list[SpendAction]]] = {
    here: {value: [Move(to, value) for to in move_targets(here, value)] for value in FACES}
    for here in (MIDDLE, *LOCATIONS)
}
WILD_MOVES: dict[int, list[SpendAction]] = {
    here: [WildMove(to) for to in LOCATIONS if to != here] for here in (MIDDLE, *LOCATIONS)
}
TELEPORTS: dict[int, dict[int, list[SpendAction]]] = {
    here: {value: [Teleport(to, value) for to in LOCATIONS if to != here] for value in FACES}
    for here in (MIDDLE, *LOCATIONS)
}
POWER_CHANGES: dict[str, dict[int, list[SpendAction]]] = {
    power: {value: _changes(power, value) for value in FACES}
    for power in ("shrink", "ice", "fire", "grow")
}
SHAPESHIFTS: dict[int, dict[int, ChangeDie]] = {
    value: {to: ChangeDie("shapeshift", value, to) for to in FACES if to != value}
    for value in FACES
}
DEFEATS: dict[int, Defeat] = {value: Defeat(value) for value in FACES}
WILD_DEFEAT: Final = WildDefeat()
