"""What the round posts say about nemeses, for a world a player cannot tell from the
true one (``sampling.py``).

After deaths are final, each player's lead hero, if alive, gains the nemesis bonus once
per nemesis of the player that died in that compile, and the post names every hero that
gained it, with the amount (R20). So a player's nemeses are whatever pair holds, in
every compiled round where a hero died, exactly as many of the dead as the bonus its
lead hero gained says; and a hero named in a bonus is its owner's lead hero then (a
player's: Random Player has no nemeses).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gladiatorium.games.hero_battle.actions import RANDOM_PLAYER
from gladiatorium.games.hero_battle.setup import Hero

#: a player's nemeses must hold, of ``died``, exactly this many
Want = tuple[frozenset[str], int]


@dataclass(frozen=True)
class BonusRound:
    """One compiled round in which heroes died: who died, what one dead nemesis paid,
    which heroes gained the bonus and how much, and every hero's status after it."""

    died: frozenset[str]
    per_nemesis: int
    gained: Mapping[str, int]
    status: Mapping[str, str]


def bonus_rounds(reports: Sequence[dict[str, Any]], nemesis_bonus: int) -> list[BonusRound]:
    """The compiled rounds that say something about nemeses: a hero died and a dead
    nemesis paid a bonus (Hand of God's double-nemesis-bonus doubles it)."""
    rounds = []
    for report in reports:
        per = nemesis_bonus * (2 if report["effect"] == "double-nemesis-bonus" else 1)
        died = frozenset(death["hero"] for death in report["deaths"])
        if per and died:
            rounds.append(BonusRound(died, per, report["nemesis_bonus"], report["status"]))
    return rounds


def lead_after(heroes: Sequence[str], status: Mapping[str, str]) -> str | None:
    """A player's lead hero after a compile if it is alive (it takes the bonus), else
    None: the first living hero by name (R26), the only hero with one a player."""
    return next((h for h in heroes if status[h] == "alive"), None)


def wants(rounds: Sequence[BonusRound], owned: Sequence[str]) -> list[Want] | None:
    """What the posts say of the nemeses of the player who owns ``owned`` (in name
    order): for each round where its lead hero was alive, how many of the dead they
    hold. None when no pair can explain a bonus (not a whole number of nemeses)."""
    out: list[Want] = []
    for bonus_round in rounds:
        lead = lead_after(owned, bonus_round.status)
        if lead is None:
            continue
        count, left = divmod(bonus_round.gained.get(lead, 0), bonus_round.per_nemesis)
        if left:
            return None
        out.append((bonus_round.died, count))
    return out


def pair_fits(pair: Sequence[str], wanted: Sequence[Want]) -> bool:
    """Whether nemeses ``pair`` tell the story the posts tell."""
    return all(len(died.intersection(pair)) == count for died, count in wanted)


def leads_explain(rounds: Sequence[BonusRound], heroes: Mapping[str, Hero]) -> bool:
    """Whether every hero that gained a bonus was then its owner's lead hero, and its
    owner a player (who owns what as ``heroes`` says)."""
    owned: dict[str, list[str]] = {}
    for hero in heroes.values():
        owned.setdefault(hero.player, []).append(hero.name)
    for bonus_round in rounds:
        for name in bonus_round.gained:
            owner = heroes[name].player
            if owner == RANDOM_PLAYER or lead_after(owned[owner], bonus_round.status) != name:
                return False
    return True
