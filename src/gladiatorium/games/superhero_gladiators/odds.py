"""The chance to hit and to double the damage, in words, before a player attacks (C1-C3):
for ``look`` in the terminal and the web pages. Built from open information only."""

from __future__ import annotations

from fractions import Fraction

from gladiatorium.games.superhero_gladiators.combat import double_damage, hits


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
