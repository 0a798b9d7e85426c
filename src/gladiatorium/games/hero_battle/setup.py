"""Setting up a Battle: sign-ups, the hero pool, secret identities, nemeses, teams."""

from __future__ import annotations

from dataclasses import dataclass, field

from gladiatorium.core import OptionsError, Rng, Seat
from gladiatorium.games.hero_battle.actions import RANDOM_PLAYER
from gladiatorium.games.hero_battle.options import HeroBattleOptions, theme_heroes

#: rejection-sampling tries before the balanced nemesis deal falls back to a free deal
NEMESIS_TRIES = 2000


@dataclass
class Hero:
    """One hero of the Battle. ``player`` is its secret identity (a seat or Random Player)."""

    name: str
    player: str
    hp: int
    status: str = "alive"  # alive | zombie | dead
    revealed: bool = False
    team: str | None = None
    revived: bool = False

    def copy(self) -> Hero:
        """An independent copy (a copy of the Battle copies every hero; this is several
        times quicker than a generic copy)."""
        twin = object.__new__(Hero)
        twin.__dict__.update(self.__dict__)
        return twin

    @property
    def alive(self) -> bool:
        return self.status == "alive"

    @property
    def hittable(self) -> bool:
        """Living heroes and Zombies may be hit."""
        return self.status in ("alive", "zombie")


@dataclass
class Setup:
    signups: dict[Seat, str]
    names: dict[str, str]
    heroes: dict[str, Hero]
    nemeses: dict[Seat, tuple[str, ...]]
    teams: dict[str, tuple[str, ...]] = field(default_factory=dict)


def canonical(names: list[str] | tuple[str, ...] | set[str]) -> list[str]:
    """Heroes in the one order every list, table and notation uses (alphabetical)."""
    return sorted(names, key=lambda n: (n.casefold(), n))


def player_names(options: HeroBattleOptions, players: int) -> dict[str, str]:
    """Display names by seat (and Random Player's)."""
    if options.player_names and len(options.player_names) != players:
        raise OptionsError(f"player_names: {len(options.player_names)} names for {players} players")
    names = {
        str(i): (options.player_names[i - 1] if options.player_names else f"Player {i}")
        for i in range(1, players + 1)
    }
    names[RANDOM_PLAYER] = "Random Player"
    return names


def signups_of(options: HeroBattleOptions, players: int) -> dict[Seat, str]:
    """The hero each seat submitted: the option, or the theme's list in order."""
    if options.signups:
        if len(options.signups) != players:
            raise OptionsError(f"signups: {len(options.signups)} heroes for {players} players")
        chosen = options.signups
    else:
        names = theme_heroes()
        if players > len(names):
            raise OptionsError(f"signups: the theme lists {len(names)} heroes; give {players}")
        chosen = names[:players]
    return {str(i): chosen[i - 1] for i in range(1, players + 1)}


def extra_name(options: HeroBattleOptions, taken: set[str]) -> str:
    """The moderator's extra pool name for Random Player."""
    if options.random_player_hero:
        if options.random_player_hero.casefold() in {t.casefold() for t in taken}:
            raise OptionsError(f"random_player_hero: {options.random_player_hero!r} signed up")
        return options.random_player_hero
    for name in theme_heroes():
        if name.casefold() not in {t.casefold() for t in taken}:
            return name
    raise OptionsError("random_player_hero: the theme list has no name left; give one")


def moderator_names(options: HeroBattleOptions, taken: set[str], count: int) -> list[str]:
    """With two heroes a player, the moderator tops the pool up from the theme list (R26)."""
    folded = {t.casefold() for t in taken} | {options.random_player_hero.casefold()}
    source = options.extra_heroes or theme_heroes()
    names = [n for n in source if n.casefold() not in folded][:count]
    if len(names) < count:
        raise OptionsError(f"extra_heroes: {count - len(names)} more names are needed")
    return names


def assign_heroes(
    options: HeroBattleOptions, signups: dict[Seat, str], pool: list[str], rng: Rng
) -> dict[str, str]:
    """Hero -> owner. Nobody gets the hero they submitted; Random Player (if any) may
    get any hero, the extra name included (R3)."""
    each = options.heroes_per_player
    owners = [s for s in signups for _ in range(each)]
    owners += [RANDOM_PLAYER] if len(pool) > len(owners) else []
    if options.assign_heroes:
        return _given_assignment(options.assign_heroes, signups, pool, owners)
    while True:
        deal = list(pool)
        rng.shuffle(deal)
        if all(deal[i] != signups.get(owner) for i, owner in enumerate(owners)):
            return {deal[i]: owner for i, owner in enumerate(owners)}


def _given_assignment(
    given: tuple[str, ...], signups: dict[Seat, str], pool: list[str], owners: list[str]
) -> dict[str, str]:
    seats = [o for o in owners if o != RANDOM_PLAYER]
    if len(given) != len(seats):
        raise OptionsError(f"assign_heroes: {len(given)} heroes for {len(seats)} hero places")
    by_fold = {p.casefold(): p for p in pool}
    out: dict[str, str] = {}
    for index, (seat, name) in enumerate(zip(seats, given, strict=True)):
        hero = by_fold.get(name.casefold())
        if hero is None:
            raise OptionsError(f"assign_heroes[{index}]: {name!r} is not in the pool")
        if hero == signups[seat]:
            raise OptionsError(f"assign_heroes[{index}]: seat {seat} submitted {hero!r}")
        out[hero] = seat
    left = [p for p in pool if p not in out]
    if RANDOM_PLAYER in owners:
        out[left[0]] = RANDOM_PLAYER
    return out


def deal_nemeses(
    options: HeroBattleOptions, owners: dict[str, str], rng: Rng
) -> dict[Seat, tuple[str, ...]]:
    """Two nemeses per player from the heroes of other players (never Random Player's)."""
    seats = sorted({o for o in owners.values() if o != RANDOM_PLAYER}, key=int)
    own = {s: {h for h, o in owners.items() if o == s} for s in seats}
    if options.assign_nemeses:
        return _given_nemeses(options.assign_nemeses, seats, owners)
    candidates = canonical([h for h, o in owners.items() if o != RANDOM_PLAYER])
    if options.balanced_nemeses:
        copies = -(-2 * len(seats) // len(candidates))
        for _ in range(NEMESIS_TRIES):
            slots = (candidates * copies)[: 2 * len(seats)]
            rng.shuffle(slots)
            pairs = {s: (slots[2 * i], slots[2 * i + 1]) for i, s in enumerate(seats)}
            if all(a != b and not own[s] & {a, b} for s, (a, b) in pairs.items()):
                return {s: tuple(canonical(list(pair))) for s, pair in pairs.items()}
    out: dict[Seat, tuple[str, ...]] = {}
    for seat in seats:
        others = [h for h in candidates if h not in own[seat]]
        out[seat] = tuple(canonical(rng.sample(others, 2)))
    return out


def _given_nemeses(
    given: tuple[tuple[str, str], ...], seats: list[Seat], owners: dict[str, str]
) -> dict[Seat, tuple[str, ...]]:
    if len(given) != len(seats):
        raise OptionsError(f"assign_nemeses: {len(given)} pairs for {len(seats)} players")
    by_fold = {h.casefold(): h for h, o in owners.items() if o != RANDOM_PLAYER}
    out: dict[Seat, tuple[str, ...]] = {}
    for index, (seat, pair) in enumerate(zip(seats, given, strict=True)):
        heroes = [by_fold.get(n.casefold()) for n in pair]
        for name, hero in zip(pair, heroes, strict=True):
            if hero is None:
                raise OptionsError(f"assign_nemeses[{index}]: {name!r} is no player's hero")
            if owners.get(hero or "") == seat:
                raise OptionsError(f"assign_nemeses[{index}]: seat {seat}'s own hero {hero!r}")
        if heroes[0] == heroes[1]:
            raise OptionsError(f"assign_nemeses[{index}]: two different nemeses are needed")
        out[seat] = tuple(canonical([h for h in heroes if h is not None]))
    return out


def deal_teams(
    options: HeroBattleOptions, owners: dict[str, str], rng: Rng
) -> dict[str, tuple[str, ...]]:
    """Team Affiliation: players' heroes dealt at random into teams of about four or
    five (Random Player's hero is never on a team)."""
    heroes = canonical([h for h, o in owners.items() if o != RANDOM_PLAYER])
    count = options.team_count or max(2, len(heroes) // 4)
    if count > len(options.team_names):
        raise OptionsError(f"team_names: {count} teams need {count} names")
    rng.shuffle(heroes)
    names = options.team_names[:count]
    return {name: tuple(canonical(heroes[i::count])) for i, name in enumerate(names)}


def build_setup(options: HeroBattleOptions, players: int, rng: Rng) -> Setup:
    """Everything the moderator decides before round 1."""
    signups = signups_of(options, players)
    pool = list(signups.values())
    if options.heroes_per_player > 1:
        pool += moderator_names(options, set(pool), players * (options.heroes_per_player - 1))
    if options.random_player:
        pool.append(extra_name(options, set(pool)))
    owners = assign_heroes(options, signups, pool, rng)
    nemeses = deal_nemeses(options, owners, rng)
    heroes = {
        name: Hero(name, owners[name], options.starting_hp) for name in canonical(list(owners))
    }
    teams: dict[str, tuple[str, ...]] = {}
    if options.teams:
        teams = deal_teams(options, owners, rng)
        for team, members in teams.items():
            for member in members:
                heroes[member].team = team
    return Setup(signups, player_names(options, players), heroes, nemeses, teams)
