"""The chance to hit and to double the damage, in words, before a player attacks (C1-C3):
for ``look`` and the action list in the terminal and the web pages. Built from open
information only: a seat's view (traits and flaws are on the open cards; a gizmo only
decides what may be attacked, never the odds)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from gladiatorium.core import Action
from gladiatorium.games.superhero_gladiators.actions import Attack
from gladiatorium.games.superhero_gladiators.combat import (
    double_damage,
    flaws_limit,
    gizmo_number,
    hit_number,
    hits,
)


def chances(number: int) -> tuple[Fraction, Fraction]:
    """The chance that a d20 hits and that it doubles against To-Hit Number ``number``
    (a 1 always hits, a 20 always misses)."""
    rolls = range(1, 21)
    hit = sum(hits(r, number) for r in rolls)
    double = sum(double_damage(r, number) for r in rolls)
    return Fraction(hit, 20), Fraction(double, 20)


def odds_text(attacker: str, target: str, number: int) -> str:
    hit, double = chances(number)
    text = f"{attacker} attacking {target}: hits on a d20 of {max(min(number, 19), 1)} or less"
    if number < 2:
        text = f"{attacker} attacking {target}: hits only on a 1"
    text += f" ({float(hit):.0%})"
    if double:
        text += f", doubles the damage on {min(number - 10, 19)} or less ({float(double):.0%})"
    else:
        text += ", cannot double the damage"
    return text + " (before a power's flaws and the target's defences)"


def attack_notes(view: dict[str, Any], legal: Sequence[Action]) -> dict[str, str]:
    """The chance of each attack among ``legal`` (the acting hero's), by notation,
    from ``view`` alone."""
    heroes = {h["id"]: h for h in view["heroes"]}
    attacker = heroes.get(view["actor"])
    if attacker is None:
        return {}
    return {
        str(action): attack_note(attacker, heroes[action.target], action)
        for action in legal
        if isinstance(action, Attack) and action.target in heroes
    }


def attack_note(attacker: dict[str, Any], target: dict[str, Any], attack: Attack) -> str:
    """``67% to hit with the flaw die, 30% double damage``: the chance that the attack
    lands (its to-hit die, and the flaw die of a flawed power: C1-C5, C13, C17) before
    the target's defences, and that it doubles its direct damage (a copied power always
    has some, C18; entangling has none)."""
    flaws = attacker["copied_flaws"] if attack.copied else attacker["flaws"].get(attack.power, [])
    if attack.gizmo:
        number = gizmo_number(attacker["perception"], target["perception"])
    else:
        foiblish = target["perception"] if "foiblish" in flaws else 0
        number = hit_number(attacker["combat"], target["combat"], foiblish)
    hit, double = chances(number)
    works = Fraction(max(0, min(20, flaws_limit(flaws, target["perception"]))), 20)
    text = f"{float(hit * works):.0%} to hit" + (" with the flaw die" if flaws else "")
    deals_damage = attack.copied or attacker["damage"].get(attack.power, 0) > 0
    if double and deals_damage and not attack.gizmo:
        text += f", {float(double * works):.0%} double damage"
    return text
