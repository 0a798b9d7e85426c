"""Who may attack whom: the attack rules shared by the match and the bots."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from gladiatorium.games.electron_gladiators.arena import Arena
from gladiatorium.games.electron_gladiators.board import distance, side_hit, square_name
from gladiatorium.games.electron_gladiators.options import ElectronGladiatorsOptions
from gladiatorium.games.electron_gladiators.vehicles import Vehicle


def evasive(target: Vehicle) -> bool:
    """Scouts and Mosquitos are hit only on a die roll."""
    return target.code in ("SC", "MQ")


def mosquito_prey(options: ElectronGladiatorsOptions) -> tuple[str, ...]:
    """What a Mosquito attacks alone: its Air-To-Surface gun targets a Scout (R16);
    under ``mosquito_attacks_mosquitos`` a Mosquito too."""
    return ("SC", "MQ") if options.mosquito_attacks_mosquitos else ("SC",)


def can_lead(
    gun: Vehicle, target: Vehicle, mover: int | None, options: ElectronGladiatorsOptions
) -> bool:
    """May ``gun`` (which already reaches the target) lead an attack on it?"""
    return lead_refusal(gun, target, mover, options) is None


def lead_refusal(
    gun: Vehicle, target: Vehicle, mover: int | None, options: ElectronGladiatorsOptions
) -> str | None:
    """Why ``gun`` may not lead an attack on ``target`` (None: it may): a Mosquito
    leads only on a Scout (R16), a Scout only on a Scout (R29); on a
    Mosquito only a parabolic gun; on a Scout or a Mosquito only from within 6
    spaces, by a vehicle that has not moved this turn (R18)."""
    prey = mosquito_prey(options)
    if gun.code == "MQ" and target.code not in prey:
        named = " and ".join({"SC": "Scouts", "MQ": "Mosquitos"}[code] for code in prey)
        return f"alone, a Mosquito attacks only {named}; it may add its gun"
    if gun.code == "SC" and target.code != "SC":
        return "alone, a Scout attacks only Scouts; it may add its gun"
    if not evasive(target):
        return None
    if target.code == "MQ" and gun.kind.parabolic is None:
        return "only a vehicle with a parabolic gun may attack a Mosquito"
    gap = distance(gun.square, target.square)
    if gap > options.evasive_range:
        return (
            f"a {target.kind.name} is attacked only from within {options.evasive_range} "
            f"spaces; this is {gap}"
        )
    if gun.ident == mover:
        return (
            f"the {gun.code} moved this turn; only a vehicle that has not moved may "
            f"attack a {target.kind.name}"
        )
    return None


def can_help(gun: Vehicle, target: Vehicle) -> bool:
    """A second gun joins only against armour (Scouts and Mosquitos have none, R17)."""
    return not evasive(target)


@dataclass(frozen=True)
class AttackOption:
    """One legal attack with its chance to destroy the target."""

    lead: Vehicle
    target: Vehicle
    helper: Vehicle | None
    chance: float


def kill_chance(
    lead: Vehicle, target: Vehicle, helper: Vehicle | None, options: ElectronGladiatorsOptions
) -> float:
    """The chance the attack destroys the target: the d6 against the distance for a
    Scout or Mosquito, else 1 or 0 by gun total against the armour facing the lead."""
    if evasive(target):
        return max(0, 7 - max(1, distance(lead.square, target.square))) / 6
    side = side_hit(target.square, target.facing, lead.square)
    armour = target.kind.armour_on(side)
    total = lead.kind.gun + (helper.kind.gun if helper else 0)
    if total > armour or (options.overcome == "greater-or-equal" and total == armour):
        return 1.0
    return 0.0


def _reaching(
    arena: Arena,
    seat: str,
    mover: int | None,
    options: ElectronGladiatorsOptions,
) -> Iterator[tuple[Vehicle, list[Vehicle], list[Vehicle]]]:
    """Per enemy (by ident) whose some gun of ``seat`` reaches: the target, the guns
    that may lead on it and the guns that may help (all by ident)."""
    for target, guns in _guns_on_enemies(arena, seat, options):
        leads = [gun for gun in guns if can_lead(gun, target, mover, options)]
        if leads:
            yield target, leads, [gun for gun in guns if can_help(gun, target)]


def _guns_on_enemies(
    arena: Arena, seat: str, options: ElectronGladiatorsOptions
) -> Iterator[tuple[Vehicle, list[Vehicle]]]:
    """Per enemy (by ident): the guns of ``seat`` that reach it (by ident), directly or
    parabolically with a spotter; enemies no gun reaches are left out."""
    vehicles = arena.vehicles
    reach = arena.guns_in_reach(options)  # only the vehicles some gun reaches
    for target_ident in sorted(reach):  # by ident, as the vehicles are listed
        target = vehicles[target_ident]
        if target.seat == seat:
            continue
        in_reach = reach[target_ident]
        spotters: list[Vehicle] | None = None  # found only when a shot needs them
        guns: list[Vehicle] = []
        for ident in sorted(in_reach):  # the guns by ident
            gun = vehicles[ident]
            settled = arena.settle_aim(gun, target, in_reach[ident])
            if settled is None:
                continue
            direct, in_band = settled
            if not direct:
                if not in_band:
                    continue
                if spotters is None:
                    spotters = arena.spotters(seat, target.square)
                if not any(s.ident != gun.ident or options.self_spotting for s in spotters):
                    continue
            guns.append(gun)
        if guns:
            yield target, guns


def no_attack_reason(
    arena: Arena, seat: str, mover: int | None, options: ElectronGladiatorsOptions
) -> str:
    """Why ``seat`` has no attack (it has none): the rule that stops the first gun that
    reaches an enemy (a vehicle that moved against a Scout, a Mosquito alone against
    armour ...), else that no gun reaches an enemy."""
    for target, guns in _guns_on_enemies(arena, seat, options):
        for gun in guns:
            refusal = lead_refusal(gun, target, mover, options)
            if refusal is not None:
                gun_at, target_at = square_name(gun.square), square_name(target.square)
                reaches = f"the {gun.code} on {gun_at} reaches the {target.code} on {target_at}"
                return f"{reaches}, but {refusal}"
    return "no gun reaches an enemy"


def attack_choices(
    arena: Arena, seat: str, mover: int | None, options: ElectronGladiatorsOptions
) -> Iterator[tuple[Vehicle, Vehicle, Vehicle | None]]:
    """Every legal attack of ``seat`` as (lead gun, target, second gun or None), in the
    order of :func:`attack_options`."""
    for target, leads, helpers in _reaching(arena, seat, mover, options):
        for lead in leads:
            yield lead, target, None
            for helper in helpers:
                if helper.ident != lead.ident:
                    yield lead, target, helper


def attack_options(
    arena: Arena, seat: str, mover: int | None, options: ElectronGladiatorsOptions
) -> list[AttackOption]:
    """Every legal attack of ``seat``: a lead gun on a target, alone or with a second
    gun, with its chance to destroy the target."""
    return [
        AttackOption(lead, target, helper, kill_chance(lead, target, helper, options))
        for lead, target, helper in attack_choices(arena, seat, mover, options)
    ]
