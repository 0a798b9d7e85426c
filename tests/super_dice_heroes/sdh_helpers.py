"""Scenario helpers: games with forced set-up dice and forced shared rolls."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gladiatorium.core import Rng
from gladiatorium.games.super_dice_heroes import GAME, SuperDiceHeroesState
from gladiatorium.games.super_dice_heroes.actions import POWER_NUMBERS
from gladiatorium.games.super_dice_heroes.hero import Hero


def start(
    powers: Sequence[str] = ("grow",),
    rolls: Sequence[Sequence[int]] = ((1, 2, 3, 4),),
    **options: Any,
) -> SuperDiceHeroesState:
    """A game whose seat N rolls powers[N-1] (and a different second choice), picks it,
    and whose shared rolls are ``rolls`` in order (round 1 first).

    Scenarios end a round with ``done`` as soon as they have shown their point, so
    they play with the house rule ``may_waste_dice`` unless they say otherwise (the
    rulebook's default, every die spent, is tested with ``may_waste_dice=False``)."""
    options.setdefault("may_waste_dice", True)
    setup: list[int] = []
    for power in powers:
        number = POWER_NUMBERS[power]
        setup += [number, 1 if number != 1 else 2]
    forced = Rng.forced([*setup, *(d for roll in rolls for d in roll)])
    state = SuperDiceHeroesState(GAME.make_options(options), len(powers), 0, rng=forced)
    for seat, power in zip(state.seats, powers, strict=True):
        state.act(seat, f"choose {power}")
    return state


def hero(state: SuperDiceHeroesState, seat: str = "1") -> Hero:
    return state.heroes[seat]


def place(state: SuperDiceHeroesState, location: int, seat: str = "1") -> None:
    """Scenario set-up: stand the hero on ``location``."""
    state.heroes[seat].location = location


def preset(
    state: SuperDiceHeroesState, location: int, marks: Sequence[int], seat: str = "1"
) -> None:
    """Scenario set-up: boxes already filled at ``location`` (no goal counted yet)."""
    state.heroes[seat].marks[location - 1] = tuple(marks)


def acts(state: SuperDiceHeroesState, *texts: str, seat: str = "1") -> None:
    for text in texts:
        state.act(seat, text)


def legal(state: SuperDiceHeroesState, seat: str = "1") -> set[str]:
    return {str(a) for a in state.legal_actions(seat)}
