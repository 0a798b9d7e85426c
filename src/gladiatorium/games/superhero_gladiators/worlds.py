"""What a seat cannot see into (G5), and the worlds a bot is handed in its place.

Until a team notices it, nothing tells it whether a foe's power has a hidden gizmo, no
gizmo or an invulnerable one. A seat's world (``Game.determinize``) draws each such
gizmo afresh, and the world's hero cards and its options (the teams' hero files) carry
the drawn gizmos, so the true ones are nowhere in it. Everything here is kept per
card, power and options object met before: a batch's worlds meet the same few.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import replace
from typing import Any, Final

from gladiatorium.core import Rng, Seat
from gladiatorium.core.kept import WRITING, Table
from gladiatorium.games.superhero_gladiators.actions import Reveal
from gladiatorium.games.superhero_gladiators.combat import Hit
from gladiatorium.games.superhero_gladiators.fighters import Fighter, unique_power_names
from gladiatorium.games.superhero_gladiators.heroes import Gizmo, Hero, Power
from gladiatorium.games.superhero_gladiators.options import SuperheroGladiatorsOptions
from gladiatorium.games.superhero_gladiators.state import LETTERS, SuperheroGladiatorsState

#: how often a power hides its gizmo, as worlds draw it and the greedy bot guesses it
#: (about one sample power in six)
HIDDEN_SHARE: Final = 0.2

#: a power's gizmo set in a world: (hero id, the power's place on its card, gizmo)
Change = tuple[str, int, Gizmo]


#: the gizmos a foe cannot tell apart until it notices them (G5)
UNSEEN_KINDS: Final = (Gizmo.HIDDEN, Gizmo.NONE, Gizmo.INVULNERABLE)


def unseen(state: SuperheroGladiatorsState, seat: Seat | None) -> Iterator[tuple[Fighter, int]]:
    """Every foe's power whose gizmo ``seat`` cannot see into (a hidden gizmo on it
    could not be told from none), as (hero, its place on the card), in table order:
    not destroyed, neither noticed by ``seat``'s team nor attacked in the open (G3-G5)."""
    known = set(state.exposed).union(state.noticed.get(seat, ()) if seat is not None else ())
    for g in state.fighters.values():
        if g.team == seat:
            continue
        for index, (name, power) in enumerate(g.powers.items()):
            if (
                power.gizmo in UNSEEN_KINDS
                and name not in g.destroyed
                and f"{g.id}:{name}" not in known
            ):
                yield g, index


def unseen_places(
    state: SuperheroGladiatorsState, seat: Seat | None
) -> tuple[tuple[str, int], ...]:
    """:func:`unseen` as (hero id, place on the card), kept by what it depends on: the
    cards (which follow from the options), the gizmos destroyed, those attacked in the
    open and those ``seat``'s team noticed."""
    return _unseen(state, seat).places


class _Unseen:
    """What a seat cannot see into, found once per options, seat, gizmos destroyed,
    exposed and noticed: the places, and the options as the seat may know them (made
    when first asked for)."""

    __slots__ = ("_seat_options", "options", "places")

    def __init__(
        self, options: SuperheroGladiatorsOptions, places: tuple[tuple[str, int], ...]
    ) -> None:
        self.options = options
        self.places = places
        self._seat_options: SuperheroGladiatorsOptions | None = None

    def seat_options(self) -> SuperheroGladiatorsOptions:
        if self._seat_options is None:
            changes = tuple((fid, index, Gizmo.NONE) for fid, index in self.places)
            self._seat_options = options_with(self.options, changes)
        return self._seat_options


def _unseen(state: SuperheroGladiatorsState, seat: Seat | None) -> _Unseen:
    options = state.options
    destroyed = tuple(tuple(g.destroyed) for g in state.fighters.values())
    key = (
        id(options),
        seat,
        destroyed,
        tuple(state.exposed),
        tuple(state.noticed.get(seat or "", ())),
    )
    known = _UNSEEN.get(key)
    if known is None or known.options is not options:
        places = tuple((g.id, index) for g, index in unseen(state, seat))
        known = _UNSEEN.keep(key, _Unseen(options, places))
    return known


def invent_gizmos(world: SuperheroGladiatorsState, seat: Seat, rng: Rng) -> None:
    """Draw afresh each gizmo ``seat`` cannot see into: hidden one time in five, else
    none; on the cards and in the options alike."""
    changes = tuple(
        (fid, index, Gizmo.HIDDEN if rng.randint(1, 1000) <= HIDDEN_SHARE * 1000 else Gizmo.NONE)
        for fid, index in unseen_places(world, seat)
    )
    set_gizmos(world, changes)


def forget_borrowed_gizmos(world: SuperheroGladiatorsState) -> None:
    """A copied attack (C18) and a hit waiting for its defence hold the attacker's power
    as it is, gizmo included, which the rules never read there: ``world`` holds them
    without a gizmo, so a foe's hidden gizmo leaves no trace through them either."""
    for g in world.fighters.values():
        if g.copied is not None:
            g.copied = without_gizmo(g.copied)
    if world.pending:
        world.pending = [hit._replace(power=without_gizmo(hit.power)) for hit in world.pending]


def situation(state: SuperheroGladiatorsState) -> tuple[Any, ...] | None:
    """A hero's action or a defence as every seat sees it (``Game.situation``): the map,
    the rules of blasts, the hero to act, the hits waiting for a defence (rolled in the
    open), and every hero's card without its gizmos (G5: nothing tells a foe a hidden
    gizmo from none) and how it stands, its uses told only as unlimited, some or none
    left (the game's bots never count them). While placing, the map, whose hero is
    placed and who places it (S2; the free squares are the legal actions); None at a
    reveal."""
    if state.phase == "place":
        fid = state.to_place[0]
        return ("place", state.arena.rows, state.fighters[fid].team, state.placer(fid))
    if state.phase != "fight" or state.reveal_for[0]:
        return None
    if state.pending:  # a defence: kept with the turn it follows from, if it was
        defence = state.kept_defence()
        if defence.situation is None:
            situation = _situation(state)
            with WRITING:  # threads share the kept turns: the first situation stays
                if defence.situation is None:
                    defence.situation = situation
        return defence.situation
    kept = state.kept_turn()  # the hero's turn met before, its legal actions with it
    if kept.situation is None:  # the same for every match where the turn is the same
        situation = _situation(state)
        with WRITING:
            if kept.situation is None:
                kept.situation = situation
    return kept.situation


def _situation(state: SuperheroGladiatorsState) -> tuple[Any, ...]:
    """:func:`situation` worked out."""
    heroes = tuple(
        (
            g.id,
            g.team,
            card_number(g.hero),
            g.square,
            g.altitude,
            g.oomph,
            tuple([None if u is None else u > 0 for u in g.uses.values()]),
            tuple(g.destroyed),
            g.entangled,
            None if g.copied is None else without_gizmo(g.copied),
            g.flight_level,
            g.fainted,
        )
        for g in state.fighters.values()
    )
    rules = (
        state.arena.rows,
        state.options.friendly_fire,
        state.options.area_spares_attacker,
        state.rules.area_radius,
    )
    hits = tuple(_struck(hit) for hit in state.pending) if state.pending else ()
    return (rules, state.actor, hits, heroes)


def _struck(hit: Hit) -> tuple[Any, ...]:
    """A hit waiting for a defence, its power without a gizmo."""
    return (
        hit.attacker,
        hit.target,
        without_gizmo(hit.power),
        hit.power_name,
        hit.roll,
        hit.number,
        hit.damage,
        hit.double,
        hit.full,
        hit.entangle,
        hit.grappling,
    )


def card_number(hero: Hero) -> int:
    """A number for ``hero``'s card without its gizmos: cards that differ only in their
    gizmos get the same number, and a number is never given to another card."""
    known = _CARD_NUMBERS.get(id(hero))
    if known is None or known[0] is not hero:
        plain = replace(hero, powers=tuple(without_gizmo(p) for p in hero.powers))
        number = _PLAIN_NUMBERS.get(plain)
        if number is None:
            number = _PLAIN_NUMBERS.keep(plain, next(_NUMBERS))
        known = _CARD_NUMBERS.keep(id(hero), (hero, number))
    return known[1]


def without_gizmo(power: Power) -> Power:
    """``power`` with no gizmo at all (the same object for the same power)."""
    known = _BARE.get(id(power))
    if known is None or known[0] is not power:
        known = _BARE.keep(id(power), (power, replace(power, gizmo=None)))
    return known[1]


def forget_others_notices(world: SuperheroGladiatorsState, seat: Seat) -> None:
    """With three teams or more, what another team noticed of a third team's gizmos is
    theirs alone (G3): ``seat``'s world keeps of the other teams' notices only those of
    its own heroes' gizmos and of gizmos attacked in the open, and of the owners' choices
    which unused gizmo was noticed (``reveal``) only those it saw (G2)."""
    if len(world.seats) <= 2:
        return  # both teams see every notice: the noticers and the owners
    for team, keys in world.noticed.items():
        if team != seat:
            world.noticed[team] = [k for k in keys if _notice_seen(world, seat, k)]
    history = world.history
    world.history = [
        (owner, action)
        for index, (owner, action) in enumerate(history)
        # a reveal answers the look just before it: its owner and the noticers saw it
        if not isinstance(action, Reveal) or seat in (owner, history[index - 1][0])
    ]


def _notice_seen(world: SuperheroGladiatorsState, seat: Seat, key: str) -> bool:
    hero, _, _ = key.partition(":")
    return world.fighters[hero].team == seat or key in world.exposed


def seat_options(state: SuperheroGladiatorsState, seat: Seat | None) -> SuperheroGladiatorsOptions:
    """The match's options as ``seat`` may know them: every gizmo it cannot see into
    reads ``none`` in the teams' hero files (kept with a hero's turn once found)."""
    turn = state.known_turn()  # a hero's turn found by its situation
    if turn is None:
        return _unseen(state, seat).seat_options()
    options = turn.seat_options.get(seat)
    if options is None:
        found = _unseen(state, seat).seat_options()
        with WRITING:  # threads share the kept turns: the first options found stay
            options = turn.seat_options.setdefault(seat, found)
    return options


def set_gizmos(state: SuperheroGladiatorsState, changes: tuple[Change, ...]) -> None:
    """Give the powers named the gizmos named, on the heroes' cards and in the
    options, so that no trace of the gizmo they had is left in ``state``."""
    wanted: dict[str, list[tuple[int, Gizmo]]] = {}
    for fid, index, gizmo in changes:
        wanted.setdefault(fid, []).append((index, gizmo))
    for fid, gizmos in wanted.items():
        g = state.fighters[fid]
        g.hero, powers = card_with(g.hero, tuple(gizmos))
        g.powers.update(powers)
    state.options = options_with(state.options, changes)


def card_with(hero: Hero, gizmos: tuple[tuple[int, Gizmo], ...]) -> tuple[Hero, dict[str, Power]]:
    """``hero``'s card whose powers at the places named have the gizmos named, and
    those powers by name (the same objects each time: the tables kept per card and
    power, such as moves and the bot's weights, serve every world)."""
    key = (id(hero), gizmos)
    known = _CARDS.get(key)
    if known is None or known[0] is not hero:
        powers = list(hero.powers)
        for index, gizmo in gizmos:
            powers[index] = with_gizmo(powers[index], gizmo)
        names = list(unique_power_names(hero))
        changed = {names[i]: powers[i] for i, _ in gizmos}
        card = hero if powers == list(hero.powers) else replace(hero, powers=tuple(powers))
        known = _CARDS.keep(key, (hero, card, changed))
    return known[1], known[2]


def with_gizmo(power: Power, gizmo: Gizmo) -> Power:
    """``power`` with ``gizmo`` (the same object each time it is asked for)."""
    if power.gizmo is gizmo:
        return power
    key = (id(power), gizmo)
    known = _POWERS.get(key)
    if known is None or known[0] is not power:
        known = _POWERS.keep(key, (power, replace(power, gizmo=gizmo)))
    return known[1]


def options_with(
    options: SuperheroGladiatorsOptions, changes: tuple[Change, ...]
) -> SuperheroGladiatorsOptions:
    """``options`` whose hero files give the powers named the gizmos named (heroes are
    numbered as in the match: ``2A`` is team 2's first)."""
    if not changes:
        return options
    key = (id(options), changes)
    known = _OPTIONS.get(key)
    if known is not None and known[0] is options:
        return known[1]
    wanted: dict[str, dict[int, str]] = {}
    for fid, index, gizmo in changes:
        wanted.setdefault(fid, {})[index] = gizmo.value
    teams = tuple(
        tuple(_hero_data(data, wanted.get(f"{t}{LETTERS[h]}", {})) for h, data in enumerate(team))
        for t, team in enumerate(options.teams, start=1)
    )
    return _OPTIONS.keep(key, (options, options.model_copy(update={"teams": teams})))[1]


def _hero_data(data: dict[str, object], gizmos: dict[int, str]) -> dict[str, object]:
    """A hero file's data with the powers at the places named given those gizmos."""
    if not gizmos:
        return data
    powers = data["powers"]
    assert isinstance(powers, list | tuple)
    changed = [
        {**power, "gizmo": gizmos[index]} if index in gizmos else power
        for index, power in enumerate(powers)
    ]
    return {**data, "powers": changed}


#: what was made before, by the ids of what it was made from (each entry holds those)
MAX_KEPT: Final = 4096
OWNER: Final = "superhero-gladiators"
_POWERS: Table[tuple[int, Gizmo], tuple[Power, Power]] = Table(
    "superhero_gladiators.worlds.powers", OWNER, MAX_KEPT, "powers given a gizmo"
)
_CARDS: Table[tuple[int, tuple[tuple[int, Gizmo], ...]], tuple[Hero, Hero, dict[str, Power]]] = (
    Table("superhero_gladiators.worlds.cards", OWNER, MAX_KEPT, "cards given gizmos")
)
_OPTIONS: Table[
    tuple[int, tuple[Change, ...]],
    tuple[SuperheroGladiatorsOptions, SuperheroGladiatorsOptions],
] = Table("superhero_gladiators.worlds.options", OWNER, MAX_KEPT, "options of worlds")
#: each card met, by id: the card and its number (see ``card_number``)
_CARD_NUMBERS: Table[int, tuple[Hero, int]] = Table(
    "superhero_gladiators.worlds.card_numbers", OWNER, MAX_KEPT, "each card's number"
)
#: the numbers given, by card without gizmos (never given twice, even after the table
#: is emptied: a number kept in a table of situations never stands for another card
#: after this one is forgotten)
_PLAIN_NUMBERS: Table[Hero, int] = Table(
    "superhero_gladiators.worlds.plain_numbers", OWNER, MAX_KEPT, "the numbers of cards"
)
_NUMBERS = itertools.count()
#: each power met, by id, and the same without a gizmo
_BARE: Table[int, tuple[Power, Power]] = Table(
    "superhero_gladiators.worlds.bare", OWNER, MAX_KEPT, "powers without their gizmo"
)
_UNSEEN: Table[tuple[Any, ...], _Unseen] = Table(
    "superhero_gladiators.worlds.unseen", OWNER, MAX_KEPT, "the gizmos a seat has not seen"
)
