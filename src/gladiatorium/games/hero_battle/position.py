"""Positions: a Battle as a round is about to start, written by hand in YAML, so that a
moderator can take over a Battle already running on a forum (or set a puzzle, a lesson,
a test) with ``--position FILE``. The format (docs/rules/hero-battle.md, "Positions"):

    round: 6                            # the round about to start
    players:                            # one per seat, seat 1 first
      - name: ann                       # forum name (optional)
        signup: Captain Comet           # the hero ann submitted (optional)
        hero: Night Heron               # two heroes a player: heroes: [A, B]
        nemeses: [Glass Golem, Miss Mirage]
    heroes:                             # the HP table: every hero of the Battle
      Night Heron: {hp: 9}              # alive, identity hidden
      Miss Mirage: {hp: 4, revealed: true}
      Glass Golem: {hp: -1, status: dead}
    random_player: Iron Wasp            # option random_player: Random Player's hero
    teams: {Red: [...], Blue: [...]}    # option teams: every player's hero on one team

Without ``started`` the position is the state between two rounds: the round's start (a
scheduled resurrection, Hand of God, Random Player's hit, anonymity) happens after it,
drawn from the seed (``dice:`` first). With it the round is under way, its start as
drawn, and ``moves``, ``guesses``, ``guess_results``, ``reports``, ``over`` say where it
stands (``writer.py`` writes them; ``resume.py`` makes the round again). Everything is
checked against the rules and the options in force; errors name the source, the line and
the field.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gladiatorium.core import PositionError, Seat
from gladiatorium.core.files import FileRefused, parse_yaml_with_lines, yaml_line
from gladiatorium.games.hero_battle.actions import RANDOM_PLAYER
from gladiatorium.games.hero_battle.options import MAX_PLAYERS, check_name
from gladiatorium.games.hero_battle.setup import Hero, Setup, canonical

if TYPE_CHECKING:
    from gladiatorium.games.hero_battle.options import HeroBattleOptions

#: the team of the heroes a player's position leaves on teams it does not know
OPEN_TEAM = "?"
#: the largest HP (either sign) a position may give a hero
HP_LIMIT = 1_000_000
#: options that deal the Battle; a position is the deal, so they must be left empty
DEAL_OPTIONS = ("signups", "assign_heroes", "assign_nemeses", "extra_heroes", "random_player_hero")

Path = tuple[int | str, ...]
Fail = Callable[[Path, str], PositionError]


class _HeroFile(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    hp: int = Field(ge=-HP_LIMIT, le=HP_LIMIT)
    status: Literal["alive", "zombie", "dead"] = "alive"
    revealed: bool | None = None
    revived: bool = False


class _PlayerFile(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str | None = None
    signup: str | None = None
    hero: str | None = None
    heroes: list[str] | None = None
    nemeses: list[str] | None = Field(None, min_length=2, max_length=2)


class _StartedFile(BaseModel):
    """The round's start as it was drawn: nothing is drawn again on loading."""

    model_config = ConfigDict(extra="forbid", strict=True)
    hand_of_god: str | None = None
    forced_abstain: list[int] = Field(default_factory=list)
    random_player_hit: str | None = None
    anonymous: bool = False
    posted: list[str] | None = None


class _GuessResultFile(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    round: int = Field(ge=1)
    hero: str
    player: str
    correct: bool


class _DeathFile(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)
    hero: str
    player: str


class _ReportFile(BaseModel):
    """What the rules read again of a posted round report (the rest is kept as written)."""

    model_config = ConfigDict(extra="allow", strict=True)
    round: int = Field(ge=1)
    deaths: list[_DeathFile]


class _PositionFile(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    round: int = Field(ge=1)
    seat: int | None = Field(None, ge=1)
    started: _StartedFile | None = None
    moves: dict[int, str] = Field(default_factory=dict)
    guesses: dict[int, list[str]] = Field(default_factory=dict)
    guess_results: dict[int, list[_GuessResultFile]] = Field(default_factory=dict)
    reports: list[dict[str, Any]] = Field(default_factory=list)
    over: bool = False
    dice: list[int] = Field(default_factory=list)
    players: list[_PlayerFile] = Field(min_length=1, max_length=MAX_PLAYERS)
    heroes: dict[str, _HeroFile] = Field(min_length=1, max_length=3 * MAX_PLAYERS)
    random_player: str | None = None
    teams: dict[str, list[str]] | None = None
    team_bonus_given: bool | None = None
    death_last_round: bool = False


@dataclass(frozen=True)
class Started:
    """A round already started: Hand of God's effect, the players it forces to
    abstain, Random Player's hit, anonymity and the lines of the start post (None:
    the usual lines for these)."""

    effect: str | None
    forced: tuple[Seat, ...]
    random_hit: str | None
    anonymous: bool
    posted: tuple[str, ...] | None


@dataclass(frozen=True)
class Position:
    """A position as it was read: the round (about to start, or started with
    ``started``) and the Battle's deal and HP table (the heroes in canonical order,
    each with its owner); the round's moves and guesses so far (notation, checked
    against the Battle when it is built: ``fail`` names their line), the players'
    guess results, the round reports posted, the match over, the next dice."""

    round: int
    setup: Setup
    team_bonus_given: bool
    death_last_round: bool
    started: Started | None = None
    moves: dict[Seat, str] = field(default_factory=dict)
    guesses: dict[Seat, list[str]] = field(default_factory=dict)
    guess_results: dict[Seat, list[dict[str, Any]]] = field(default_factory=dict)
    reports: list[dict[str, Any]] = field(default_factory=list)
    over: bool = False
    dice: tuple[int, ...] = ()
    fail: Fail | None = None
    seat: Seat | None = None

    @property
    def players(self) -> int:
        return len(self.setup.signups)


def read_position(text: str, options: HeroBattleOptions, source: str = "position") -> Position:
    """Read and check a position under ``options``; every error names ``source``,
    the line and the field."""
    data, root = _parse(text, source)

    def fail(path: Path, message: str) -> PositionError:
        return PositionError(f"{source}{yaml_line(root, path)}: {_field(path)}: {message}")

    try:
        parsed = _PositionFile.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        raise fail(tuple(first["loc"]), first["msg"].removeprefix("Value error, ")) from None
    for name in DEAL_OPTIONS:
        if getattr(options, name):
            raise PositionError(
                f"{source}: the position deals the Battle (heroes, nemeses, sign-ups): "
                f"leave the option {name} empty"
            )
    if parsed.round > options.max_rounds:
        raise fail(("round",), f"a Battle is drawn after {options.max_rounds} rounds (max_rounds)")
    return _Reader(parsed, options, fail).position()


class _Reader:
    """The checks, in the order a moderator would make them."""

    def __init__(self, parsed: _PositionFile, options: HeroBattleOptions, fail: Fail) -> None:
        self.file = parsed
        self.options = options
        self.fail = fail
        self.by_fold: dict[str, str] = {}
        self.owners: dict[str, str] = {}
        #: a player's position (``seat:``): the other players' secrets are left open
        self.seat = None if parsed.seat is None else str(parsed.seat)
        if parsed.seat is not None and parsed.seat > len(parsed.players):
            raise fail(("seat",), f"no player {parsed.seat}")

    def open_for(self, seat: Seat) -> bool:
        """Whether ``seat``'s secrets may be left open (a player's position, another
        player's)."""
        return self.seat is not None and seat != self.seat

    def position(self) -> Position:
        self._hero_names()
        names, signups = self._players()
        self._random_player()
        nemeses = self._nemeses()
        heroes = self._heroes()
        teams = self._teams(heroes)
        self._over(heroes)
        setup = Setup(signups, names, heroes, nemeses, teams)
        seats = {str(n) for n in range(1, len(self.file.players) + 1)}
        return Position(
            self.file.round,
            setup,
            self._team_bonus(heroes, teams),
            self._death_last_round(),
            self._started(heroes, seats),
            self._by_seat(self.file.moves, "moves", seats),
            self._by_seat(self.file.guesses, "guesses", seats),
            self._guess_results(seats),
            self._reports(),
            self.file.over,
            tuple(self._dice()),
            self.fail,
            self.seat,
        )

    def _over(self, heroes: dict[str, Hero]) -> None:
        """A Battle going on has two players' (or Random Player's) heroes alive; one
        over (``over: true``) has fewer, or has played its last round."""
        living = {h.player for h in heroes.values() if h.alive}
        if self.file.over:
            if len(living) >= 2 and self.file.round < self.options.max_rounds:
                raise self.fail(
                    ("over",),
                    f"{len(living)} players' heroes alive before the last round "
                    f"({self.options.max_rounds}, max_rounds): the Battle goes on",
                )
            if self.file.started is None:
                raise self.fail(("over",), "a Battle over ended in a round: give started")
            return
        if len(living) < 2:
            raise self.fail(
                ("heroes",),
                "the Battle is over: no hero is alive, or only one player's (or Random "
                "Player's); write over: true",
            )

    # ----- names ---------------------------------------------------------------------
    def _hero_names(self) -> None:
        for name in self.file.heroes:
            self._check_name(name, ("heroes", name))
            folded = name.casefold()
            if folded in self.by_fold:
                raise self.fail(("heroes", name), f"also written {self.by_fold[folded]!r}")
            self.by_fold[folded] = name

    def _check_name(self, name: str, path: Path) -> None:
        try:
            check_name(name, "name")
        except ValueError as err:
            raise self.fail(path, str(err).removeprefix("name: ")) from None

    def hero(self, name: str, path: Path) -> str:
        """The hero of the HP table that ``name`` means (any letter case)."""
        hero = self.by_fold.get(name.casefold())
        if hero is None:
            raise self.fail(path, f"{name!r} is not in heroes (the HP table)")
        return hero

    # ----- players -------------------------------------------------------------------
    def _players(self) -> tuple[dict[str, str], dict[Seat, str]]:
        """Forum names, heroes (each owned once) and sign-ups, by seat."""
        options, each = self.options, self.options.heroes_per_player
        count = len(self.file.players)
        if options.player_names and len(options.player_names) != count:
            raise self.fail(
                ("players",),
                f"{count} players but the option player_names gives "
                f"{len(options.player_names)} names",
            )
        names: dict[str, str] = {}
        for index, player in enumerate(self.file.players):
            seat, path = str(index + 1), ("players", index)
            if player.name is not None:
                self._check_name(player.name, (*path, "name"))
            name = player.name or (options.player_names[index] if options.player_names else "")
            name = name or f"Player {seat}"
            taken = {n.casefold(): s for s, n in names.items()}
            if name.casefold() in taken:
                raise self.fail((*path, "name"), f"{name!r} is player {taken[name.casefold()]}'s")
            names[seat] = name
            both = player.hero is not None and player.heroes is not None
            if both or (player.hero is None and player.heroes is None and not self.open_for(seat)):
                raise self.fail(path, "give hero: NAME (two heroes a player: heroes: [A, B])")
            field = "hero" if player.heroes is None else "heroes"
            listed = [player.hero] if player.hero is not None else list(player.heroes or [])
            if len(listed) != each and not (self.open_for(seat) and len(listed) < each):
                raise self.fail(
                    (*path, field), f"{each} hero(es) a player (option heroes_per_player)"
                )
            for written in listed:
                hero = self.hero(written, (*path, field))
                if hero in self.owners:
                    raise self.fail((*path, field), f"{hero} is player {self.owners[hero]}'s")
                self.owners[hero] = seat
        signups: dict[Seat, str] = {}
        for index, player in enumerate(self.file.players):
            seat, where = str(index + 1), ("players", index, "signup")
            if player.signup is None:
                signups[seat] = ""
                continue
            hero = self.hero(player.signup, where)
            if self.owners.get(hero) == seat:
                raise self.fail(where, f"nobody plays the hero they submitted ({hero})")
            twice = [s for s, h in signups.items() if h == hero]
            if twice:
                raise self.fail(where, f"{hero} is player {twice[0]}'s sign-up")
            signups[seat] = hero
        names[RANDOM_PLAYER] = "Random Player"
        return names, signups

    def _nemeses(self) -> dict[Seat, tuple[str, ...]]:
        """Two different heroes of other players for each player (R4, R26)."""
        out: dict[Seat, tuple[str, ...]] = {}
        for index, player in enumerate(self.file.players):
            seat, path = str(index + 1), ("players", index, "nemeses")
            if player.nemeses is None:
                if not self.open_for(seat):
                    raise self.fail(path, "give nemeses: [A, B]")
                others = [h for h, o in self.owners.items() if o not in (seat, RANDOM_PLAYER)]
                out[seat] = tuple(canonical(others)[:2])  # left open: any two will do
                continue
            pair = [self.hero(name, path) for name in player.nemeses]
            if pair[0] == pair[1]:
                raise self.fail(path, "two different nemeses")
            for hero in pair:
                owner = self.owners.get(hero)
                if owner == seat:
                    raise self.fail(path, f"{hero} is this player's own hero")
                if owner is None:
                    raise self.fail(path, f"{hero} is Random Player's, nobody's nemesis")
            out[seat] = tuple(canonical(pair))
        return out

    def _random_player(self) -> None:
        given = self.file.random_player
        if not self.options.random_player:
            if given is not None:
                raise self.fail(("random_player",), "the option random_player is off")
        elif given is None:
            if self.seat is None:
                raise self.fail(
                    ("random_player",), "the option random_player is on: name Random Player's hero"
                )
        else:
            hero = self.hero(given, ("random_player",))
            if hero in self.owners:
                raise self.fail(("random_player",), f"{hero} is player {self.owners[hero]}'s")
            self.owners[hero] = RANDOM_PLAYER
        if self.seat is not None:
            self._deal_open()
        for name in self.file.heroes:
            if name not in self.owners:
                raise self.fail(
                    ("heroes", name),
                    "nobody plays this hero: give it to a player (hero:)"
                    + (
                        " or to Random Player (random_player:)"
                        if self.options.random_player
                        else ""
                    ),
                )

    def _deal_open(self) -> None:
        """A player's position: the heroes it leaves open go to the players whose
        heroes it leaves open and to Random Player, as the rules allow (nobody plays
        the hero they submitted, the seat's nemeses are players' heroes): any such deal
        will do, the position's seat knowing none of it (Random Player's hit falls on
        another's hero); the first in name and seat order is taken."""
        each = self.options.heroes_per_player
        open_heroes = [h for h in canonical(list(self.file.heroes)) if h not in self.owners]
        places = [
            str(index + 1)
            for index in range(len(self.file.players))
            for _ in range(each - list(self.owners.values()).count(str(index + 1)))
        ]
        if self.options.random_player and RANDOM_PLAYER not in self.owners.values():
            places.append(RANDOM_PLAYER)
        nemeses = self.file.players[int(self.seat or 1) - 1].nemeses or []
        barred = {RANDOM_PLAYER: {n.casefold() for n in nemeses}}
        started = self.file.started
        if started is not None and started.random_player_hit is not None:
            barred[RANDOM_PLAYER].add(started.random_player_hit.casefold())  # not its own
        for index, player in enumerate(self.file.players):
            if player.signup is not None:
                barred[str(index + 1)] = {player.signup.casefold()}
        dealt = _deal(places, open_heroes, barred)
        if dealt is not None:
            self.owners.update(dealt)

    # ----- the HP table --------------------------------------------------------------
    def _heroes(self) -> dict[str, Hero]:
        options = self.options
        heroes: dict[str, Hero] = {}
        for name in canonical(list(self.file.heroes)):
            entry, path = self.file.heroes[name], ("heroes", name)
            status = entry.status
            if status == "alive" and entry.hp < 1:
                raise self.fail((*path, "hp"), "a living hero has 1 HP or more (else status: dead)")
            if status != "alive" and entry.hp > 0:
                raise self.fail((*path, "hp"), f"a {status} hero has 0 HP or less")
            if status == "zombie" and not options.zombies:
                raise self.fail((*path, "status"), "Zombies need the option zombies")
            if status == "zombie" and entry.hp <= options.zombie_dead_dead_hp:
                raise self.fail(
                    (*path, "hp"),
                    f"a Zombie at {options.zombie_dead_dead_hp} HP or less is gone "
                    "(option zombie_dead_dead_hp): status: dead",
                )
            revealed = status != "alive" if entry.revealed is None else entry.revealed
            if status != "alive" and not revealed:
                raise self.fail((*path, "revealed"), "a death reveals the hero's identity")
            if entry.revived and not can_resurrect(options):
                raise self.fail(
                    (*path, "revived"),
                    "no hero is ever resurrected under these options (resurrection_every, "
                    "resurrection_rounds, or Hand of God with resurrection)",
                )
            heroes[name] = Hero(
                name, self.owners[name], entry.hp, status, revealed, revived=entry.revived
            )
        return heroes

    def _teams(self, heroes: dict[str, Hero]) -> dict[str, tuple[str, ...]]:
        """Team Affiliation: every player's hero on exactly one team (R16)."""
        given = self.file.teams
        if not self.options.teams:
            if given is not None:
                raise self.fail(("teams",), "the option teams is off")
            return {}
        if given is None:
            raise self.fail(("teams",), "the option teams is on: list each team's heroes")
        teams: dict[str, tuple[str, ...]] = {}
        team_of: dict[str, str] = {}
        for team, members in given.items():
            path = ("teams", team)
            self._check_name(team, path)
            if team.casefold() in {t.casefold() for t in teams}:
                raise self.fail(path, "two teams of one name")
            if not members:
                raise self.fail(path, "a team has heroes")
            for name in members:
                hero = self.hero(name, path)
                if self.owners[hero] == RANDOM_PLAYER:
                    raise self.fail(path, f"{hero} is Random Player's, on no team")
                if hero in team_of:
                    raise self.fail(path, f"{hero} is already on team {team_of[hero]}")
                team_of[hero] = team
            teams[team] = tuple(canonical([h for h, t in team_of.items() if t == team]))
        missing = [h for h in heroes if self.owners[h] != RANDOM_PLAYER and h not in team_of]
        if missing and self.seat is not None:  # the other teams, left open: one will do
            team_of.update(dict.fromkeys(missing, OPEN_TEAM))
            teams[OPEN_TEAM] = tuple(missing)
            missing = []
        if missing:
            raise self.fail(("teams",), f"{', '.join(missing)}: every player's hero is on a team")
        for hero, team in team_of.items():
            heroes[hero].team = team
        return teams

    def _team_bonus(self, heroes: dict[str, Hero], teams: dict[str, tuple[str, ...]]) -> bool:
        """Whether the teamwork bonus was paid: it is, once a compile leaves one team
        (or none) with every hero alive (R16)."""
        given = self.file.team_bonus_given
        if not teams:
            if given is not None:
                raise self.fail(("team_bonus_given",), "the option teams is off")
            return False
        intact = [t for t, members in teams.items() if all(heroes[m].alive for m in members)]
        paid = self.file.round > 1 and len(intact) <= 1
        if given is None:
            return paid
        if paid and not given:
            raise self.fail(
                ("team_bonus_given",),
                f"{len(intact)} team(s) with every hero alive: the bonus was paid (true)",
            )
        if given and len(intact) > 1 and not can_resurrect(self.options):
            raise self.fail(
                ("team_bonus_given",),
                f"{len(intact)} teams have every hero alive: no bonus yet (false)",
            )
        return given

    def _death_last_round(self) -> bool:
        if not self.file.death_last_round:
            return False
        path: Path = ("death_last_round",)
        if self.file.round == 1:
            raise self.fail(path, "round 1 has no round before it")
        if self.file.started is not None:
            raise self.fail(path, "the round has started: its anonymity is written (anonymous)")
        if all(entry.status == "alive" for entry in self.file.heroes.values()):
            raise self.fail(path, "no hero is dead")
        return True

    # ----- the round started, its moves and guesses ------------------------------------
    def _started(self, heroes: dict[str, Hero], seats: set[str]) -> Started | None:
        """The round's start as drawn: an effect of the agreed table, the players it
        forces to abstain (living ones), Random Player's hit on a hero it may hit."""
        given, options = self.file.started, self.options
        if given is None:
            for name in ("moves", "guesses"):
                if getattr(self.file, name):
                    raise self.fail((name,), "the round has not started: give started")
            return None
        path: Path = ("started",)
        effect = given.hand_of_god
        if effect is not None and not options.hand_of_god:
            raise self.fail((*path, "hand_of_god"), "the option hand_of_god is off")
        if effect is not None and effect not in options.hand_of_god_table:
            table = ", ".join(options.hand_of_god_table)
            raise self.fail((*path, "hand_of_god"), f"not on the table ({table})")
        forced = tuple(sorted({str(s) for s in given.forced_abstain}, key=int))
        if forced and effect != "forced-abstain":
            raise self.fail((*path, "forced_abstain"), "only with hand_of_god: forced-abstain")
        if len(forced) > options.forced_abstainers:
            raise self.fail(
                (*path, "forced_abstain"),
                f"at most {options.forced_abstainers} (option forced_abstainers)",
            )
        for seat in forced:
            alive = [h for h in heroes.values() if h.player == seat and h.alive]
            if seat not in seats or not alive:
                raise self.fail(
                    (*path, "forced_abstain"), f"{seat} is no player with a living hero"
                )
        return Started(
            effect,
            forced,
            self._random_hit(heroes),
            given.anonymous,
            None if given.posted is None else tuple(given.posted),
        )

    def _random_hit(self, heroes: dict[str, Hero]) -> str | None:
        given = self.file.started
        assert given is not None
        if given.random_player_hit is None:
            return None
        path: Path = ("started", "random_player_hit")
        if not self.options.random_player:
            raise self.fail(path, "the option random_player is off")
        hero = heroes[self.hero(given.random_player_hit, path)]
        own = next(h for h in heroes.values() if h.player == RANDOM_PLAYER)
        if self.file.over:  # hit before the last compile, which may have killed it
            return hero.name
        if not hero.hittable or (hero is own and own.status != "zombie"):
            raise self.fail(path, f"Random Player cannot hit {hero.name}")
        return hero.name

    def _by_seat(self, given: dict[int, Any], name: str, seats: set[str]) -> dict[Seat, Any]:
        """A field written by seat number: seats of the Battle, in seat order."""
        for seat in given:
            if str(seat) not in seats:
                raise self.fail((name, seat), f"no player {seat}")
        return {str(seat): given[seat] for seat in sorted(given)}

    def _guess_results(self, seats: set[str]) -> dict[Seat, list[dict[str, Any]]]:
        given = self._by_seat(self.file.guess_results, "guess_results", seats)
        out: dict[Seat, list[dict[str, Any]]] = {}
        for seat, results in given.items():
            for index, result in enumerate(results):
                path: Path = ("guess_results", int(seat), index)
                if result.round >= self.file.round + self.file.over:
                    raise self.fail((*path, "round"), "a round already compiled")
                self.hero(result.hero, (*path, "hero"))
            out[seat] = [r.model_dump() for r in results]
        return out

    def _reports(self) -> list[dict[str, Any]]:
        """The round reports posted, one a round, in order, before this round (or up
        to it, the Battle over)."""
        last = 0
        for index, report in enumerate(self.file.reports):
            path: Path = ("reports", index)
            try:
                read = _ReportFile.model_validate(report)
            except ValidationError as err:
                first = err.errors()[0]
                raise self.fail((*path, *first["loc"]), first["msg"]) from None
            if read.round <= last or read.round >= self.file.round + self.file.over:
                raise self.fail((*path, "round"), "one report a round, in order, before this one")
            last = read.round
            for death in read.deaths:
                self.hero(death.hero, (*path, "deaths"))
        return [dict(report) for report in self.file.reports]

    def _dice(self) -> list[int]:
        for index, value in enumerate(self.file.dice):
            if value < 0:
                raise self.fail(("dice", index), "a die or a draw is 0 or more")
        return list(self.file.dice)


def _deal(
    places: list[str], heroes: list[str], barred: dict[str, set[str]]
) -> dict[str, str] | None:
    """Each place (an owner, once a hero) a hero of ``heroes``, none barred to it
    (``barred``: owner -> folded names), the first such deal in order; None if none."""
    if not places or not heroes:
        return {}
    place = places[0]
    for hero in heroes:
        if hero.casefold() in barred.get(place, set()):
            continue
        rest = _deal(places[1:], [h for h in heroes if h != hero], barred)
        if rest is not None:
            return {hero: place, **rest}
    return None


def can_resurrect(options: HeroBattleOptions) -> bool:
    """Whether a hero may ever come back under these options (R11, R14)."""
    return bool(
        options.resurrection_every
        or options.resurrection_rounds
        or (options.hand_of_god and "resurrection" in options.hand_of_god_table)
    )


def check_players(position: Position, players: int, source: str = "position") -> None:
    """One seat for each player of the position."""
    if position.players != players:
        raise PositionError(
            f"{source}: the position has {position.players} players but the Battle "
            f"{players}: give --players {position.players}"
        )


# ----- reading YAML ------------------------------------------------------------------
def _parse(text: str, source: str) -> tuple[Any, yaml.Node | None]:
    """The data and the node tree (for lines), through the project's safe reader (no
    aliases, bounded depth and numbers); a key written twice is refused."""
    try:
        data, root = parse_yaml_with_lines(text, source)
    except FileRefused as err:
        raise PositionError(str(err)) from None
    if data is None:
        raise PositionError(f"{source}: the position is empty")
    if not isinstance(data, dict):
        raise PositionError(f"{source}: a position is a YAML mapping (round, players, heroes)")
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.MappingNode):
            seen: set[str] = set()
            for key, value in node.value:
                if key.value in seen:
                    line = key.start_mark.line + 1
                    raise PositionError(f"{source}:{line}: {key.value}: written twice")
                seen.add(key.value)
                stack.append(value)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
    return data, root


def _field(path: Path) -> str:
    """``('players', 2, 'nemeses')`` reads ``player 3, nemeses``; ``('heroes', 'Ant',
    'hp')`` reads ``hero Ant, hp``; list indexes inside a field are left out."""
    words: list[str] = []
    single = {"players": "player", "heroes": "hero", "teams": "team"}
    for index, part in enumerate(path):
        if index == 1 and path[0] in single:
            number = part + 1 if isinstance(part, int) and path[0] == "players" else part
            words[-1] = f"{single[str(path[0])]} {number}"
        elif isinstance(part, str):
            words.append(part)
    return ", ".join(words) or "the position"
