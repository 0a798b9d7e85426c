"""A Hero Battle in progress: set-up, simultaneous rounds, compiling, views.

Seats are the players "1".."N" and the moderator. Every living player is awaited at
once; a move may be edited until the round closes, which happens when everyone has
moved (R6) or when the moderator closes it at the deadline.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from operator import attrgetter
from typing import Any, overload

from gladiatorium.core import Action, Copying, IllegalAction, LegalList, Outcome, Seat, State
from gladiatorium.games.hero_battle.actions import (
    MODERATOR,
    RANDOM_PLAYER,
    Abstain,
    Close,
    Guess,
    Move,
)
from gladiatorium.games.hero_battle.compile import ROUND_LIMIT, compile_round
from gladiatorium.games.hero_battle.enumerate import (
    Targets,
    move_targets,
    parse_guess,
    parse_move,
)
from gladiatorium.games.hero_battle.options import HeroBattleOptions
from gladiatorium.games.hero_battle.position import check_players, read_position
from gladiatorium.games.hero_battle.resume import resume_round
from gladiatorium.games.hero_battle.rules import (
    STATUS,
    Requirement,
    average_hp,
    double_up_active,
    hidden_heroes,
    move_problem,
    open_players,
    requirement,
    seat_order,
)
from gladiatorium.games.hero_battle.setup import Hero, build_setup, canonical


def identity_text(hero: str, name: str) -> str:
    """The one way a secret identity is written in text: ``Hero (Player 3)``."""
    return f"{hero} ({name})"


PLAYER = attrgetter("player")


class HeroBattleState(State[HeroBattleOptions]):
    #: a copy of the Battle (bots and searches copy it at every decision) shares what is
    #: never changed in place once made, and copies the heroes one by one and the
    #: containers that change (of values never changed in place: moves and guesses are
    #: frozen, a posted report or guess result is never edited)
    COPYING = Copying(
        shared=(
            *("signups", "names", "teams", "player_seats", "owners", "forced", "result"),
            *("round", "effect", "anonymous", "random_hit"),
            *("team_bonus_given", "death_last_round"),
        ),
        copied={
            "heroes": lambda heroes: {name: hero.copy() for name, hero in heroes.items()},
            **dict.fromkeys(("reports", "round_start"), list),
            **dict.fromkeys(("moves", "nemeses"), dict),
            "guesses": lambda guesses: {seat: list(sent) for seat, sent in guesses.items()},
            "guess_log": lambda logs: {seat: list(log) for seat, log in logs.items()},
        },
    )

    def __init__(self, options: HeroBattleOptions, players: int, seed: int) -> None:
        super().__init__(options, players, seed)
        position = None
        if options.position:
            position = read_position(options.position, options)
            check_players(position, players)
            setup = position.setup
        else:
            setup = build_setup(options, players, self.rng)
        self.signups = setup.signups
        self.names = setup.names
        self.heroes: dict[str, Hero] = setup.heroes
        self.nemeses = setup.nemeses
        self.teams = setup.teams
        self.player_seats: tuple[Seat, ...] = tuple(setup.signups)
        #: whoever may own a hero (the players and Random Player), in seat order
        self.owners = tuple(sorted({*self.player_seats, RANDOM_PLAYER}, key=seat_order))
        self.round = 0
        self.effect: str | None = None
        self.anonymous = False
        self.forced: tuple[Seat, ...] = ()
        self.random_hit: str | None = None
        self.round_start: list[str] = []
        self.moves: dict[Seat, Move | Abstain] = {}
        self.guesses: dict[Seat, list[Guess]] = {}
        self.guess_log: dict[Seat, list[dict[str, Any]]] = {s: [] for s in self.player_seats}
        self.reports: list[dict[str, Any]] = []
        self.team_bonus_given = False
        self.death_last_round = False
        self.result: Outcome | None = None
        if position is not None:
            self.round = position.round - 1  # start_round begins the position's round
            self.team_bonus_given = position.team_bonus_given
            self.death_last_round = position.death_last_round
            self.rng.queue(position.dice)
            self.reports = [dict(report) for report in position.reports]
            for seat, results in position.guess_results.items():
                self.guess_log[seat] = [dict(result) for result in results]
        self._announce_setup()
        if position is None or position.started is None:
            self.start_round()
        else:
            resume_round(self, position)

    # ----- who is who --------------------------------------------------------------
    @property
    def seats(self) -> tuple[Seat, ...]:
        return (*self.player_seats, MODERATOR)

    def heroes_of(self, player: str) -> list[Hero]:
        """Every hero of a player (two with heroes_per_player = 2), in name order."""
        return [h for h in self.heroes.values() if h.player == player]

    def hero_of(self, player: str) -> Hero | None:
        """A player's lead hero: the first living one, else the first Zombie, else the
        first (with one hero a player: that hero). It moves, guesses and takes the
        player's bonuses (R26). None if the player has no hero."""
        return _lead(self.heroes_of(player))

    def lead_heroes(self) -> dict[Seat, Hero]:
        """Every player's lead hero (:meth:`hero_of`), worked out in one pass."""
        owned: dict[str, list[Hero]] = {seat: [] for seat in self.player_seats}
        for hero in self.heroes.values():
            owned.setdefault(hero.player, []).append(hero)
        leads = {seat: _lead(owned[seat]) for seat in self.player_seats}
        return {seat: lead for seat, lead in leads.items() if lead is not None}

    def active_players(self) -> list[Seat]:
        """Players who still move: a hero of theirs is alive or a Zombie, not dead (then
        so is their lead hero)."""
        heroes = self.heroes.values()
        if "dead" in map(STATUS, heroes):
            moving = {hero.player for hero in heroes if hero.status != "dead"}
        else:  # nobody dead yet: every owner moves
            moving = set(map(PLAYER, heroes))
        if moving.issuperset(self.player_seats):
            return list(self.player_seats)
        return [seat for seat in self.player_seats if seat in moving]

    def name(self, player: str) -> str:
        return self.names[player]

    # ----- set-up and round start --------------------------------------------------
    def _announce_setup(self) -> None:
        """Private messages: each player's hero, nemeses and team; the moderator's list."""
        if self.options.position:
            text = f"{self.options.theme}: {len(self.heroes)} heroes, taken over from a "
            text += f"written position before round {self.round + 1}"
        else:
            text = f"{self.options.theme}: {len(self.heroes)} heroes, "
            text += f"{self.options.starting_hp} HP each"
        self.emit("battle", text, heroes=list(self.heroes))
        for seat in self.player_seats:
            mine = self.heroes_of(seat)
            text = f"You are {', '.join(identity_text(h.name, self.name(seat)) for h in mine)}. "
            text += f"Nemeses of {self.name(seat)}: {', '.join(self.nemeses[seat])}."
            for hero in mine:
                if hero.team is not None:
                    text += f" {hero.name}'s team {hero.team}: {', '.join(self.teams[hero.team])}."
            self.emit("assignment", text, to=[seat])
        lines = [identity_text(h.name, self.name(h.player)) for h in self.heroes.values()]
        lines += [f"Nemeses of {self.name(s)}: {', '.join(n)}" for s, n in self.nemeses.items()]
        lines += [f"Team {t}: {', '.join(m)}" for t, m in self.teams.items()]
        self.emit("assignment", "Set-up: " + "; ".join(lines), to=[MODERATOR])

    def start_round(self) -> None:
        """A new round: scheduled resurrection, Hand of God, anonymity, Random Player's hit."""
        self.round += 1
        self.moves = {}
        self.guesses = {}
        self.effect = None
        self.forced = ()
        self.random_hit = None
        self.round_start = []
        opts = self.options
        if (
            opts.resurrection_every and self.round % opts.resurrection_every == 0
        ) or self.round in opts.resurrection_rounds:
            self.resurrect(opts.resurrection_count)
        if opts.hand_of_god and self._hand_of_god_round():
            self.roll_hand_of_god()
        self.anonymous = (
            self.effect == "anonymous-round"
            or (opts.anonymous_every > 0 and self.round % opts.anonymous_every == 0)
            or self.round in opts.anonymous_rounds
            or (opts.anonymous_after_death and self.death_last_round)
        )
        if self.anonymous:
            self.round_start.append("This is an anonymous round: hits are sent privately.")
        self._random_player_hit()
        self._last_standing()
        text = f"Round {self.round} begins."
        if self.round_start:
            text += " " + " ".join(self.round_start)
        self.emit("round", text, round=self.round, effect=self.effect, anonymous=self.anonymous)

    def _hand_of_god_round(self) -> bool:
        opts = self.options
        if opts.hand_of_god_rounds:
            return self.round in opts.hand_of_god_rounds
        return self.round % opts.hand_of_god_every == 0

    def roll_hand_of_god(self) -> None:
        """The moderator rolls on the agreed table; the effect lasts this round."""
        table = self.options.hand_of_god_table
        self.effect = table[self.rng.randint(1, len(table)) - 1]
        self.round_start.append(f"Hand of God: {self.effect}.")
        if self.effect == "resurrection":
            self.resurrect(1)
        elif self.effect == "grant-hp":
            living = [h.name for h in self.heroes.values() if h.alive]
            if living:
                lucky = self.heroes[self.rng.choice(living)]
                lucky.hp += self.options.hand_of_god_grant_hp
                self.round_start.append(
                    f"{lucky.name} gains {self.options.hand_of_god_grant_hp} HP."
                )
        elif self.effect == "forced-abstain":
            able = [s for s in self.active_players() if self._seat_hero(s).alive]
            count = min(self.options.forced_abstainers, len(able))
            self.forced = tuple(sorted(self.rng.sample(able, count), key=int))
            for seat in self.forced:
                self.moves[seat] = Abstain()
            names = ", ".join(self.name(s) for s in self.forced)
            self.round_start.append(f"Forced to abstain: {names}.")

    def resurrect(self, count: int) -> None:
        """Random dead heroes (never one revived before) return with the average HP of
        the living, rounded to the nearest whole number (R11)."""
        for _ in range(count):
            dead = [h.name for h in self.heroes.values() if h.status == "dead" and not h.revived]
            if not dead:
                return
            hero = self.heroes[self.rng.choice(dead)]
            hero.hp = average_hp(self.heroes)
            hero.status = "alive"
            hero.revived = True
            self.round_start.append(f"{hero.name} is resurrected with {hero.hp} HP.")

    def _random_player_hit(self) -> None:
        """Random Player assigns one hit at random, never on its own hero (a Zombie
        Random Player may hit itself)."""
        hero = self.hero_of(RANDOM_PLAYER)
        if hero is None or not hero.hittable:
            return
        targets = [
            h.name
            for h in self.heroes.values()
            if h.hittable and (h.name != hero.name or hero.status == "zombie")
        ]
        if targets:
            self.random_hit = self.rng.choice(targets)
            self.round_start.append(f"Random Player hits {self.random_hit}.")

    def _last_standing(self) -> list[str]:
        """Last Man(s) Standing: one or two heroes left un-outed are revealed, with no
        bonus or penalty."""
        if not self.options.last_standing_reveal:
            return []
        hidden = hidden_heroes(self.heroes)
        if not 1 <= len(hidden) <= 2:
            return []
        for name in hidden:
            self.heroes[name].revealed = True
        lines = [identity_text(n, self.name(self.heroes[n].player)) for n in hidden]
        self.emit(
            "revealed",
            "Last Man(s) Standing: " + ", ".join(lines),
            revealed={n: self.heroes[n].player for n in hidden},
        )
        return hidden

    # ----- the contract ------------------------------------------------------------
    def _seat_hero(self, seat: Seat) -> Hero:
        hero = self.hero_of(seat)
        assert hero is not None
        return hero

    def _awaiting(self) -> tuple[Seat, ...]:
        if self.result is not None:
            return ()
        waiting: list[Seat] = []
        moved: list[Seat] = []
        for seat in self.active_players():
            (moved if seat in self.moves else waiting).append(seat)
        return (*waiting, MODERATOR, *moved)

    def deciding(self) -> tuple[Seat, ...]:
        """Players who have not moved: who has moved may still edit, and the moderator
        closes the round only at the deadline (or it closes when the last one moves)."""
        return tuple(s for s in self.awaiting() if s != MODERATOR and s not in self.moves)

    def need(self, seat: Seat) -> Requirement:
        return requirement(self.options, self._seat_hero(seat), self.effect)

    def double_up(self) -> bool:
        return double_up_active(self.options, self.heroes, self.effect)

    def legal_actions(self, seat: Seat) -> list[Action]:
        return list(self._legal_list(seat))

    def _legal_list(self, seat: Seat) -> Sequence[Action]:
        """Abstain, the moves, the open guesses (in that order), each built when read:
        a random draw builds one of the round's hundreds of moves."""
        if self.result is not None:
            return ()
        if seat == MODERATOR:
            return (Close(),)
        hero = self.hero_of(seat) if seat in self.signups else None
        if hero is None or not hero.hittable:
            return ()  # not a player, or one whose heroes are all dead: not awaited
        targets: Targets = []
        if seat not in self.forced:
            need = requirement(self.options, hero, self.effect)
            targets = move_targets(need, self.heroes, self.double_up())
        guesses = self._open_guesses(seat, hero)
        return LegalList(1 + len(targets) + len(guesses), partial(_nth_action, targets, guesses))

    def open_guesses(self, seat: Seat) -> list[Guess]:
        """Guesses this seat may still send this round."""
        return [Guess(hero, player) for hero, player in self._open_guesses(seat)]

    def _open_guesses(self, seat: Seat, hero: Hero | None = None) -> Sequence[tuple[str, str]]:
        """:meth:`open_guesses` as (hero, player), in the same order (``hero``: the
        seat's lead hero, when known)."""
        sides = self.guess_sides(seat, hero)
        if sides is None:
            return []
        heroes, players = sides
        sent = {(g.hero, g.player) for g in self.guesses.get(seat, ())}
        if not sent:
            return Pairs(heroes, players)
        return [(h, p) for h in heroes for p in players if (h, p) not in sent]

    def guess_sides(
        self, seat: Seat, hero: Hero | None = None
    ) -> tuple[list[str], list[str]] | None:
        """The heroes a guess of ``seat`` may name (hidden, not its own; in the heroes'
        order) and the players they may belong to (in seat order, as
        :func:`open_players` lists them); None when it may send no guess now."""
        if self.guess_problem(seat, hero) is not None:
            return None
        hidden = [h for h in self.heroes.values() if not h.revealed and h.player != seat]
        owners = {h.player for h in hidden}
        return [h.name for h in hidden], [p for p in self.owners if p in owners]

    def guess_problem(self, seat: Seat, hero: Hero | None = None) -> str | None:
        """Why ``seat`` may send no guess now (None: it may); ``hero``: the seat's lead
        hero, when known."""
        if not (hero or self._seat_hero(seat)).alive:
            return "a Zombie cannot guess identities"
        if self.effect == "no-guesses":
            return "Hand of God: no guesses this round"
        if len(self.guesses.get(seat, [])) >= self.options.guesses_per_round:
            return f"you have sent {self.options.guesses_per_round} guess(es) this round (R7)"
        return None

    def illegal_reason(self, seat: Seat, action: Action) -> str | None:
        if seat == MODERATOR:
            return None if isinstance(action, Close) else "the moderator can only 'close'"
        if isinstance(action, Close):
            return "only the moderator closes a round"
        if isinstance(action, Abstain):
            return None
        if isinstance(action, Move):
            if seat in self.forced:
                return "Hand of God forces you to abstain this round"
            return move_problem(
                self.need(seat), action.hits, action.heals, self.heroes, self.double_up()
            )
        if isinstance(action, Guess):
            return self._guess_reason(seat, action)
        return f"{action} is not a Hero Battle action"

    def _guess_reason(self, seat: Seat, guess: Guess) -> str | None:
        problem = self.guess_problem(seat)
        if problem is not None:
            return problem
        hero = self.heroes.get(guess.hero)
        if hero is None:
            return f"no hero called {guess.hero!r}"
        if hero.revealed:
            return f"{guess.hero}'s identity is already known"
        if hero.player == seat:
            return "you cannot call out your own hero"
        if guess.player not in open_players(self.heroes, seat):
            return f"{guess.player!r} is not a player whose hero is still hidden"
        if guess in self.guesses.get(seat, []):
            return "you already sent that guess this round"
        return None

    def parse(self, seat: Seat, text: str) -> Action:
        """The notation, with hits and heals in any order and any letter case. The action
        is read and checked directly: the move space of a big Battle is far too large to
        list (40 players with 5 hits a round)."""
        words = " ".join(text.split()).lower()
        if not words or seat not in self.awaiting():
            return super().parse(seat, text)  # the engine's refusal
        action = self._read(text, words)
        if action is None:
            raise IllegalAction(
                f"{text.strip()!r} is not a Hero Battle action: write 'hit HERO, HERO heal "
                "HERO', 'abstain', 'guess HERO=PLAYER' or (the moderator) 'close'; see help"
            )
        reason = self.illegal_reason(seat, action)
        if reason is not None:
            raise IllegalAction(f"{text.strip()!r}: {reason}")
        return action

    def _read(self, text: str, words: str) -> Action | None:
        """The action written as ``text`` (``words``: its lower-case words), unchecked."""
        if words == "abstain":
            return Abstain()
        if words == "close":
            return Close()
        action = parse_move(text, self.heroes) or parse_guess(text, self.heroes)
        if isinstance(action, Guess):
            return Guess(action.hero, self.seat_named(action.player))
        return action

    def seat_named(self, player: str) -> str:
        """A guess may name the player by seat or by forum name (any letter case)."""
        if player in self.names:
            return player
        by_name = {name.casefold(): owner for owner, name in self.names.items()}
        return by_name.get(" ".join(player.split()).casefold(), player)

    def _apply(self, seat: Seat, action: Action) -> None:
        if isinstance(action, Close):
            self.emit("closed", f"The moderator closes round {self.round}.")
            self.close_round()
            return
        if isinstance(action, Guess):
            self.guesses.setdefault(seat, []).append(action)
            text = f"{self.name(seat)} calls out {action.hero} as {self.name(action.player)}"
            self.emit("guess", f"Round {self.round}: {text} (private).", to=[seat, MODERATOR])
            return
        assert isinstance(action, Move | Abstain)
        previous = self.moves.get(seat)
        if isinstance(action, Move):
            action = Move(tuple(canonical(list(action.hits))), tuple(canonical(list(action.heals))))
        self.moves[seat] = action
        self._post_move(seat, action, previous)
        if self.options.close_when_all_moved and all(
            s in self.moves for s in self.active_players()
        ):
            self.close_round()

    def _post_move(
        self, seat: Seat, action: Move | Abstain, previous: Move | Abstain | None
    ) -> None:
        """The move as posted on the forum; in anonymous rounds the hits go privately
        (a new private message that leaves the public heals as they were posts nothing)."""
        who = f"Round {self.round}: {self.name(seat)}"
        verb = "" if previous is None else " edits:"
        if isinstance(action, Abstain):
            self.emit("move", f"{who}{verb} abstains.", seat=seat)
            return
        heals = f"heals {', '.join(action.heals)}" if action.heals else "no heal"
        if self.anonymous:
            if not (isinstance(previous, Move) and previous.heals == action.heals):
                self.emit("move", f"{who}{verb} {heals}; hits sent privately.", seat=seat)
            self.emit(
                "move",
                f"{who} hits {', '.join(action.hits)} (anonymous round).",
                to=[seat, MODERATOR],
                seat=seat,
            )
            return
        self.emit("move", f"{who}{verb} hits {', '.join(action.hits)}; {heals}.", seat=seat)

    def close_round(self) -> None:
        """Compile the round, post it, and start the next one unless the Battle is over."""
        report = compile_round(self)
        self.reports.append(report)
        if self.result is None and self.round >= self.options.max_rounds:
            self.result = Outcome.drawn(
                ROUND_LIMIT(heroes=len(self.active_players()), rounds=self.round),
                scores=self.scores(),
            )
        if self.result is None:
            self.start_round()

    def scores(self) -> dict[Seat, float]:
        """Each player's HP, all their heroes together (one pass over the heroes)."""
        totals = dict.fromkeys(self.player_seats, 0)
        for hero in self.heroes.values():
            if hero.player in totals:
                totals[hero.player] += hero.hp
        return {seat: float(hp) for seat, hp in totals.items()}

    def outcome(self) -> Outcome | None:
        return self.result

    def secrets_for(self, seat: Seat | None) -> set[str]:
        """Identities, nemeses, teams, guesses and anonymous hits ``seat`` may not know."""
        if seat == MODERATOR:
            return set()
        out: set[str] = set()
        for hero in self.heroes.values():
            if not hero.revealed and hero.player != seat:
                out.add(f'"{hero.name}": "{hero.player}"')
                out.add(identity_text(hero.name, self.name(hero.player)))
        for player, pair in self.nemeses.items():
            if player != seat:
                out.add(f"Nemeses of {self.name(player)}: {', '.join(pair)}")
                out.add(f'"{player}": ["{pair[0]}", "{pair[1]}"]')
        mine = {h.team for h in self.heroes_of(seat)} if seat is not None else set()
        for team, members in self.teams.items():
            if team not in mine:
                out.add(f"Team {team}: {', '.join(members)}")
        anonymous = [r["round"] for r in self.reports if r["anonymous"]]
        if self.anonymous:
            anonymous.append(self.round)
        for player in self.player_seats:
            if player != seat:
                out.add(f"{self.name(player)} calls out ")
                out.update(f"Round {r}: {self.name(player)} hits" for r in anonymous)
                out.update(f"Round {r}: {self.name(player)} random hit" for r in anonymous)
        return out

    # ----- views -------------------------------------------------------------------
    def view(self, seat: Seat | None) -> dict[str, Any]:
        from gladiatorium.games.hero_battle.views import build_view

        return build_view(self, seat)


def _nth_action(targets: Targets, guesses: Sequence[tuple[str, str]], index: int) -> Action:
    """The action at ``index`` of a player's legal list: abstain, the moves, the guesses."""
    if index == 0:
        return Abstain()
    if index <= len(targets):
        return Move(*targets[index - 1])
    return Guess(*guesses[index - 1 - len(targets)])


class Pairs(Sequence[tuple[str, str]]):
    """Every (hero, player) pair, heroes first, without building them all."""

    def __init__(self, heroes: list[str], players: list[str]) -> None:
        self.heroes, self.players = heroes, players

    def __len__(self) -> int:
        return len(self.heroes) * len(self.players)

    @overload
    def __getitem__(self, index: int) -> tuple[str, str]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[str, str]]: ...

    def __getitem__(self, index: int | slice) -> tuple[str, str] | list[tuple[str, str]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        hero, player = divmod(index, len(self.players))
        return self.heroes[hero], self.players[player]


def _lead(heroes: list[Hero]) -> Hero | None:
    """The lead hero among a player's heroes (see :meth:`HeroBattleState.hero_of`)."""
    if len(heroes) == 1:
        return heroes[0]  # one hero a player: that hero, whatever its status
    for status in ("alive", "zombie"):
        for hero in heroes:
            if hero.status == status:
                return hero
    return heroes[0] if heroes else None
