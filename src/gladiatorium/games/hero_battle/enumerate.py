"""Listing and reading moves.

A round's move space is every multiset of hits with every set of heals; with many heroes
it is large, so :func:`enumerate_moves` lists all of it up to :data:`MAX_LISTED` moves and
beyond that an evenly spaced sample: every k-th multiset of hits in canonical order (the
skipped ones are never built, so 40 players with 5 hits a round list quickly), each with
an evenly spaced share of its heals. Any valid move is still accepted: legality is
checked directly (``illegal_reason``) and typed moves are read by :func:`parse_move`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement, islice
from math import comb
from operator import attrgetter
from typing import TYPE_CHECKING

from gladiatorium.core import Choose, LegalForm, Pair, Pick, Seat
from gladiatorium.core.kept import Table
from gladiatorium.games.hero_battle.actions import MODERATOR, Guess, Move
from gladiatorium.games.hero_battle.rules import Requirement, requirement
from gladiatorium.games.hero_battle.setup import Hero, canonical

if TYPE_CHECKING:
    from gladiatorium.games.hero_battle.state import HeroBattleState

#: the most moves ``legal_actions`` lists for one seat
MAX_LISTED = 5000


def _all_targets(
    need: Requirement, heroes: dict[str, Hero], double_up: bool, hit_step: int, heal_step: int
) -> Iterator[tuple[tuple[str, ...], tuple[str, ...]]]:
    """(hits, heals) of valid moves in canonical order: every ``hit_step``-th multiset of
    hits, each with every ``heal_step``-th set of heals (steps of 1: every move)."""
    hittable = [h.name for h in heroes.values() if h.hittable]
    healable = [h.name for h in heroes.values() if h.alive]
    every_hits = combinations_with_replacement(hittable, need.hits)
    for hits in islice(every_hits, 0, None, hit_step):
        repeats = not double_up and len(set(hits)) < len(hits)
        if repeats and not all(
            hits.count(n) == 1 or heroes[n].status == "zombie" for n in set(hits)
        ):
            continue
        rest = [h for h in healable if h not in hits]
        for heals in islice(combinations(rest, need.heals), 0, None, heal_step):
            yield hits, heals


def enumerate_moves(need: Requirement, heroes: dict[str, Hero], double_up: bool) -> list[Move]:
    """Every valid move in canonical order, or an evenly spaced sample of them."""
    return [Move(hits, heals) for hits, heals in move_targets(need, heroes, double_up)]


Targets = list[tuple[tuple[str, ...], tuple[str, ...]]]

#: the targets of :func:`move_targets` met before, by all they depend on: the move's
#: requirement, Double-Up, and each hero's name and status (every player of a round
#: with the same requirement shares them)
MAX_KNOWN = 1024
_KNOWN: Table[tuple[object, ...], Targets] = Table(
    "hero_battle.enumerate.known", "hero-battle", MAX_KNOWN, "the targets of requirements"
)
NAME_AND_STATUS = attrgetter("name", "status")


def move_targets(need: Requirement, heroes: dict[str, Hero], double_up: bool) -> Targets:
    """The (hits, heals) of :func:`enumerate_moves`, in its order, without the moves.
    The list is shared with later calls in the same situation: read it, never edit it."""
    key = (
        need,
        double_up,
        tuple(map(NAME_AND_STATUS, heroes.values())),
    )
    known = _KNOWN.get(key)
    if known is None:
        known = _KNOWN.keep(key, list(_targets(need, heroes, double_up)))
    return known


def _targets(
    need: Requirement, heroes: dict[str, Hero], double_up: bool
) -> Iterator[tuple[tuple[str, ...], tuple[str, ...]]]:
    hittable = sum(1 for h in heroes.values() if h.hittable)
    healable = sum(1 for h in heroes.values() if h.alive)
    hit_sets = comb(hittable + need.hits - 1, need.hits)
    heal_sets = comb(healable, need.heals)
    if hit_sets * heal_sets <= MAX_LISTED:
        return _all_targets(need, heroes, double_up, 1, 1)
    hits_listed = max(1, min(hit_sets, MAX_LISTED // heal_sets))
    hit_step = -(-hit_sets // hits_listed)
    heal_step = max(1, -(-heal_sets * hits_listed // MAX_LISTED))
    return _all_targets(need, heroes, double_up, hit_step, heal_step)


def legal_form(state: HeroBattleState, seat: Seat) -> LegalForm | None:
    """A player's legal actions as choices (``core/legal_form.py``): abstain, a move of
    ``hits`` heroes to hit (a hero more than once only under Double-Up, or a Zombie) and
    ``heals`` others to heal, and a guess of a hidden hero (not one's own) by a player
    whose hero is hidden, those sent this round left out. Every name list is in the one
    public order (heroes alphabetical, players by seat), so it tells no more than the
    sorted legal list: the heroes anyone may hit or heal, and the seat's own heroes and
    guesses. It stands for every valid move, where the list of a big Battle is a sample
    (:data:`MAX_LISTED`). None for the moderator (``close``) and a seat not awaited."""
    if state.result is not None or seat == MODERATOR or seat not in state.signups:
        return None
    hero = state.hero_of(seat)
    if hero is None or not hero.hittable:
        return None
    parts: list[Choose | Pair] = []
    names = target_names(state.heroes)
    if seat not in state.forced:
        need = requirement(state.options, hero, state.effect)
        repeat = names.hittable if state.double_up() else names.zombies
        picks = (
            Pick("hit", need.hits, names.hittable, repeat),
            Pick("heal", need.heals, names.healable),
        )
        parts.append(Choose(picks))
    sides = state.guess_sides(seat, hero)
    if sides is not None:
        sent = tuple((g.hero, g.player) for g in state.guesses.get(seat, ()))
        left = tuple(sorted(sides[0], key=names.rank.__getitem__))
        parts.append(Pair("guess", left, tuple(sides[1]), "=", sent))
    return LegalForm(("abstain",), tuple(parts))


@dataclass(frozen=True)
class Names:
    """The heroes a move may name, in the one order (``canonical``): those that may be
    hit, the Zombies among them, those that may be healed; and each hero's place."""

    hittable: tuple[str, ...]
    zombies: tuple[str, ...]
    healable: tuple[str, ...]
    rank: dict[str, int]


#: :class:`Names` by every hero's name and status (every player of a round shares them)
_NAMES: Table[tuple[object, ...], Names] = Table(
    "hero_battle.enumerate.names", "hero-battle", 64, "the heroes a move may name"
)


def target_names(heroes: dict[str, Hero]) -> Names:
    """The :class:`Names` of these heroes, worked out once for every seat."""
    key = tuple(map(NAME_AND_STATUS, heroes.values()))
    known = _NAMES.get(key)
    if known is None:
        order = canonical(list(heroes))
        hittable = tuple(n for n in order if heroes[n].hittable)
        zombies = tuple(n for n in hittable if heroes[n].status == "zombie")
        healable = tuple(n for n in order if heroes[n].alive)
        rank = {name: place for place, name in enumerate(order)}
        known = _NAMES.keep(key, Names(hittable, zombies, healable, rank))
    return known


def parse_move(text: str, heroes: dict[str, Hero]) -> Move | None:
    """``hit A, B heal C`` in any order and letter case; None if it does not read."""
    words = " ".join(text.split())
    lowered = words.lower()
    by_fold = {" ".join(n.split()).casefold(): n for n in heroes}
    hits_text, heals_text = "", ""
    if lowered.startswith("hit "):
        body = words[4:]
        at = body.lower().find(" heal ")
        hits_text, heals_text = (body, "") if at < 0 else (body[:at], body[at + 6 :])
    elif lowered.startswith("heal "):
        body = words[5:]
        at = body.lower().find(" hit ")
        heals_text, hits_text = (body, "") if at < 0 else (body[:at], body[at + 5 :])
    else:
        return None

    def names(part: str) -> list[str]:
        """Heroes by name; an unknown name is kept as typed, so the refusal names it."""
        return [by_fold.get(item.strip().casefold(), item.strip()) for item in part.split(",")]

    hits = names(hits_text) if hits_text else []
    heals = names(heals_text) if heals_text else []
    return Move(tuple(canonical(hits)), tuple(canonical(heals)))


def parse_guess(text: str, heroes: dict[str, Hero]) -> Guess | None:
    """``guess HERO=PLAYER`` in any letter case; None if it does not read."""
    words = " ".join(text.split())
    if not words.lower().startswith("guess ") or "=" not in words:
        return None
    name, _, player = words[6:].rpartition("=")
    by_fold = {" ".join(n.split()).casefold(): n for n in heroes}
    hero = by_fold.get(name.strip().casefold())
    if hero is None:
        return Guess(name.strip(), player.strip().lower())
    return Guess(hero, player.strip().lower())
