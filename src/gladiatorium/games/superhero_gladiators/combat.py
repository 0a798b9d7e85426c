"""The combat formulas: to-hit numbers, damage, defences, escape (C1-C19). Pure."""

from __future__ import annotations

from collections.abc import Collection
from typing import NamedTuple

from gladiatorium.core.kept import cached
from gladiatorium.games.superhero_gladiators.heroes import (
    Flaw,
    Power,
    Style,
)


def hit_number(attacker_combat: int, target_combat: int, foiblish_perception: int = 0) -> int:
    """To-Hit Number against a hero: 15 + attacker's Combat - target's Combat, minus
    the target's Perception for a foiblish attack (C1)."""
    return 15 + attacker_combat - target_combat - foiblish_perception


def gizmo_number(attacker_perception: int, target_perception: int) -> int:
    """To-Hit Number against a gizmo: 2 x attacker's Perception - target's (C13)."""
    return 2 * attacker_perception - target_perception


def hits(roll: int, number: int) -> bool:
    """A 1 always hits, a 20 always misses, otherwise roll at most the number (C2)."""
    return roll == 1 or (roll != 20 and roll <= number)


def double_damage(roll: int, number: int) -> bool:
    """A hit rolled 10 or more under the To-Hit Number does double damage (C3)."""
    return hits(roll, number) and roll <= number - 10


@cached("superhero_gladiators.combat.to_hit_text", "superhero-gladiators", 1024, "to-hit texts")
def to_hit_text(roll: int, number: int) -> str:
    """A to-hit die as shown to the players: the roll and what it needed to hit and
    to double the damage (C2, C3)."""
    text = f"d20 = {roll}, needs {min(number, 19)} or less"  # a 20 always misses
    text += f" ({min(number - 10, 19)} or less doubles)" if number - 10 >= 1 else ""
    return text + (" (1 always hits)" if roll == 1 else " (20 always misses)" if roll == 20 else "")


def escape_number(entangle_level: int, strength: int) -> int:
    """Escape from entanglement on a d20 of at most 10 - 3 x (level - Strength) (C11)."""
    return 10 - 3 * (entangle_level - strength)


def flaw_limit(power: Power, other_perception: int) -> int:
    """The highest second die on which a flawed power works (C4, C5, C17)."""
    return _kept_limit(power.flaws, other_perception)


@cached("superhero_gladiators.combat.kept_limit", "superhero-gladiators", 1024, "flaw limits")
def _kept_limit(flaws: tuple[Flaw, ...], other_perception: int) -> int:
    return flaws_limit(flaws, other_perception)


def flaws_limit(flaws: Collection[str], other_perception: int) -> int:
    """The highest second die on which a power with ``flaws`` works: 15 (unreliable),
    10 (wild), 14 minus the other hero's Perception (foiblish: less than 15 -
    Perception), the lowest of those that apply (C4, C5, C17)."""
    limits = [20]
    if Flaw.UNRELIABLE in flaws:
        limits.append(15)
    if Flaw.WILD in flaws:
        limits.append(10)
    if Flaw.FOIBLISH in flaws:
        limits.append(14 - other_perception)
    return min(limits)


def flaw_works(power: Power, die: int, other_perception: int) -> bool:
    """The second die of a flawed power (attack, defence or movement) works at or under
    its limit; the other hero is the target of an attack, the attacker for a defence."""
    return die <= flaw_limit(power, other_perception)


def flaw_text(power: Power, die: int, other_perception: int) -> str:
    """The second die as shown to the players: the roll, what it needed, the result."""
    return _flaw_text(flaw_limit(power, other_perception), die)


@cached("superhero_gladiators.combat.flaw_text", "superhero-gladiators", 1024, "flaw texts")
def _flaw_text(need: int, die: int) -> str:
    works = die <= need
    return f"flaw die = {die}, needs {need} or less, " + ("works" if works else "the power fails")


def toughness_stops(level: int, hit_damage: int) -> bool:
    """Toughness nullifies direct damage of at most 4 x its level (C14)."""
    return 0 < hit_damage <= 4 * level


class Hit(NamedTuple):
    """One hero hit by one attack, waiting for its defence decision.

    ``full``: in the target square (not splash); ``damage`` already doubled and halved
    as it applies to this hero; ``entangle`` the entangling level (0: none). A named
    tuple: most attacks land one, made at a third of a frozen dataclass's cost."""

    attacker: str
    target: str
    power: Power
    power_name: str
    roll: int
    number: int
    damage: int
    double: bool
    full: bool
    entangle: int
    grappling: bool

    @property
    def missile(self) -> bool:
        return Style.MISSILE in self.power.styles

    @property
    def piercing(self) -> bool:
        return Style.PIERCING in self.power.styles


def hit_damage(power: Power, doubled: bool, full: bool) -> int:
    """Oomph lost by one hero: the power's damage, doubled on a super-successful roll,
    halved (rounded, R2) outside the target square (C3, C7)."""
    base = (power.damage or 0) * (2 if doubled else 1)
    return base if full else (base + 1) // 2  # round_half_up(base / 2), in integers
