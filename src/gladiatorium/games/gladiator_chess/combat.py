"""Dice combat (General 8-9): attacker's dice + 1d6 (+1d6 against a piece its queen
froze), defender's dice, the defender wins ties, the loser loses the difference."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from gladiatorium.core import Rng
from gladiatorium.core.kept import cached
from gladiatorium.games.gladiator_chess.pieces import KIND_NAMES

#: one fight as told: the attacker's team, kind and dice, the defender's team, kind and dice
Fight = tuple[str, str, tuple[int, ...], str, str, tuple[int, ...]]


@dataclass(frozen=True)
class Exchange:
    """One roll of both sides and what it did."""

    attack_rolls: tuple[int, ...]
    defence_rolls: tuple[int, ...]
    attacker_won: bool
    damage: int

    @property
    def attack_total(self) -> int:
        return sum(self.attack_rolls)

    @property
    def defence_total(self) -> int:
        return sum(self.defence_rolls)


@dataclass(frozen=True)
class CombatNumbers:
    """The dice of each piece and the attacker's bonus dice: enough to tell whether
    an attack can fell its defender at all (R16)."""

    dice: Mapping[str, int]
    attack_bonus: int = 1
    frozen_bonus: int = 1
    to_the_fall: bool = False

    def can_fell(self, attacker: str, defender: str, defender_hp: int, frozen: bool) -> bool:
        """Whether the attacker's best roll against the defender's worst takes all the
        defender's hit points (always, when the fight goes on until one falls)."""
        if self.to_the_fall:
            return True
        dice = self.dice[attacker] + self.attack_bonus + (self.frozen_bonus if frozen else 0)
        return 6 * dice - self.dice[defender] >= defender_hp


def exchange(rng: Rng, attack_dice: int, defence_dice: int) -> Exchange:
    """Roll the attacker's dice first, then the defender's; ties go to the defender
    and the loser takes the difference as damage."""
    attack = tuple(rng.roll(attack_dice, 6))
    defence = tuple(rng.roll(defence_dice, 6))
    won = sum(attack) > sum(defence)
    return Exchange(attack, defence, won, abs(sum(attack) - sum(defence)))


def combat_text(
    attacker_team: str,
    attacker: str,
    attack: tuple[int, ...],
    defender_team: str,
    defender: str,
    defence: tuple[int, ...],
) -> str:
    """A fight in words, as the event log and the view tell it (the defender wins ties;
    the loser loses the difference)."""
    a, d = sum(attack), sum(defence)
    loser = (defender_team, defender) if a > d else (attacker_team, attacker)
    return (
        f"{attacker_team} {KIND_NAMES[attacker]} attacks {defender_team} {KIND_NAMES[defender]}: "
        f"{'+'.join(map(str, attack))}={a} against {'+'.join(map(str, defence))}={d}; "
        f"{loser[0]} {KIND_NAMES[loser[1]]} loses {abs(a - d)}"
    )


#: a fight as :func:`combat_text` tells it, read back (see :func:`fight_of`)
_TOLD = re.compile(r"(\w+) (.+) attacks (\w+) (.+): ([\d+]+)=\d+ against ([\d+]+)=\d+; ")
_CODES = {name: code for code, name in KIND_NAMES.items()}


def fight_of(text: str) -> Fight | None:
    """The fight a :func:`combat_text` tells (None for other words): how a match
    pickled when fights were kept as words reads them."""
    found = _TOLD.match(text)
    if found is None or found[2] not in _CODES or found[4] not in _CODES:
        return None
    attack, defence = (tuple(int(d) for d in found[g].split("+")) for g in (5, 6))
    return found[1], _CODES[found[2]], attack, found[3], _CODES[found[4]], defence


@cached("gladiator_chess.combat.sum_distribution", "gladiator-chess", 4096, "dice totals")
def _sum_distribution(dice: int) -> tuple[float, ...]:
    """Probability of each total of ``dice`` d6 (index = total)."""
    dist = [1.0]
    for _ in range(dice):
        new = [0.0] * (len(dist) + 6)
        for total, p in enumerate(dist):
            if p:
                for face in range(1, 7):
                    new[total + face] += p / 6
        dist = new
    return tuple(dist)


@cached("gladiator_chess.combat.odds", "gladiator-chess", 65536, "a fight's odds")
def odds(
    attack_dice: int, defence_dice: int, defender_hp: int, attacker_hp: int
) -> tuple[float, float]:
    """(chance the defender falls, chance the attacker falls) in one exchange; for
    bots and the docs."""
    a, d = _sum_distribution(attack_dice), _sum_distribution(defence_dice)
    kill = fall = 0.0
    for at, pa in enumerate(a):
        if not pa:
            continue
        for dt, pd in enumerate(d):
            if not pd:
                continue
            if at - dt >= defender_hp:
                kill += pa * pd
            elif at <= dt and dt - at >= attacker_hp:
                fall += pa * pd
    return kill, fall
