"""Small builders for Superhero Gladiators tests."""

from __future__ import annotations

from gladiatorium.games.superhero_gladiators.heroes import (
    Attributes,
    Flaw,
    Gizmo,
    Hero,
    Power,
    PowerType,
    Style,
    Uses,
)


def power(
    kind: str,
    *styles: str,
    flaws: tuple[str, ...] = (),
    gizmo: str | None = "vulnerable",
    level: int = 4,
    uses: Uses = "infinite",
    name: str = "Power",
) -> Power:
    """A power from plain names; level 4 with infinite uses has base cost 100."""
    return Power(
        name,
        PowerType(kind),
        level,
        uses,
        tuple(Style(s) for s in styles),
        tuple(Flaw(f) for f in flaws),
        None if gizmo is None else Gizmo(gizmo),
    )


def hero(
    strength: int = 4,
    dexterity: int = 4,
    size: int = 4,
    perception: int = 3,
    *powers: Power,
    bought: Attributes | None = None,
    name: str = "Test Hero",
) -> Hero:
    return Hero(
        name, Attributes(strength, dexterity, size, perception), bought or Attributes(), powers
    )
