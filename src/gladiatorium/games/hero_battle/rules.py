"""Rule helpers that read the Battle without changing it: who moves, what a move needs,
which targets are allowed, which guesses are open."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from operator import attrgetter

from gladiatorium.core.kept import cached
from gladiatorium.games.hero_battle.actions import RANDOM_PLAYER
from gladiatorium.games.hero_battle.options import HeroBattleOptions
from gladiatorium.games.hero_battle.setup import Hero

STATUS = attrgetter("status")


@dataclass(frozen=True)
class Requirement:
    """What one player's move holds this round."""

    hits: int
    heals: int
    zombie: bool


def requirement(options: HeroBattleOptions, hero: Hero, effect: str | None) -> Requirement:
    """Two hits and one heal by default; Hand of God may add or remove some; a Zombie
    deals one hit and never heals."""
    if hero.status == "zombie":
        return Requirement(1, 0, True)
    hits = options.hits_per_round + (1 if effect == "extra-hit" else 0)
    heals = options.heals_per_round + (1 if effect == "extra-heal" else 0)
    if effect == "no-heals":
        heals = 0
    return Requirement(hits, heals, False)


def double_up_active(
    options: HeroBattleOptions, heroes: dict[str, Hero], effect: str | None
) -> bool:
    """The Double-Up rule: once half of all heroes (Random Player's included) are dead,
    hits may double up on one hero (optional rule: always; Hand of God: this round)."""
    if options.double_hits_always or effect == "double-up":
        return True
    if not options.double_up:
        return False
    share = _exact(options.double_up_dead_fraction)
    dead = len(heroes) - list(map(STATUS, heroes.values())).count("alive")
    return dead * share.denominator >= share.numerator * len(heroes)  # exact, in integers


@cached("hero_battle.rules.exact", "hero-battle", 64, "shares as exact numbers")
def _exact(share: float) -> Fraction:
    """The share as the exact number it holds (so the comparison is exact)."""
    return Fraction(share)


def move_problem(
    need: Requirement,
    hits: tuple[str, ...],
    heals: tuple[str, ...],
    heroes: dict[str, Hero],
    double_up: bool,
) -> str | None:
    """Why these hits and heals are not a valid move (None: valid).

    All targets on different heroes, except: with the Double-Up rule hits may repeat,
    and two hits may always land on one Zombie. A hero is never hit and healed at once.
    """
    if len(hits) != need.hits or len(heals) != need.heals:
        return (
            f"a move this round is {need.hits} hit(s) and {need.heals} heal(s), "
            f"not {len(hits)} and {len(heals)}"
        )
    for name in hits:
        hero = heroes.get(name)
        if hero is None:
            return f"no hero called {name!r}"
        if not hero.hittable:
            return f"{name} is dead and cannot be hit"
    for name in heals:
        hero = heroes.get(name)
        if hero is None:
            return f"no hero called {name!r}"
        if hero.status == "zombie":
            return f"{name} is a Zombie and can never gain HP"
        if not hero.alive:
            return f"{name} is dead and cannot be healed"
    if len(set(heals)) != len(heals):
        return "heals must be on different heroes"
    both = set(hits) & set(heals)
    if both:
        return f"{', '.join(sorted(both))}: a hero cannot be hit and healed in one round"
    for name in set(hits):
        if hits.count(name) > 1 and not double_up and heroes[name].status != "zombie":
            return f"{name} is hit twice: hits double up only under the Double-Up rule"
    return None


def hidden_heroes(heroes: dict[str, Hero]) -> list[str]:
    """Heroes whose secret identity is not public (all of them alive)."""
    return [h.name for h in heroes.values() if not h.revealed]


def open_players(heroes: dict[str, Hero], seat: str) -> list[str]:
    """Players a guess may name: those whose hero is still hidden, not the guesser.

    Listed in seat order (Random Player last), never in the order of their heroes:
    that order would give every secret identity away."""
    players = {h.player for h in heroes.values() if not h.revealed and h.player != seat}
    return sorted(players, key=seat_order)


def seat_order(player: str) -> tuple[int, str]:
    """Seats by number, then Random Player."""
    return (int(player), "") if player.isdecimal() and player.isascii() else (1 << 30, player)


def average_hp(heroes: dict[str, Hero]) -> int:
    """Average HP of living heroes, rounded to the nearest whole number (halves up) (R11)."""
    living = [h.hp for h in heroes.values() if h.alive]
    if not living:
        return 0
    mean = Fraction(sum(living), len(living))
    return int(mean + Fraction(1, 2)) if mean >= 0 else -int(-mean + Fraction(1, 2))


def is_random_player(player: str) -> bool:
    return player == RANDOM_PLAYER
