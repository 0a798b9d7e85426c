"""A Superhero Gladiators match: set-up, the six-segment turn, every action, the
defence reactions and the end (rules in docs/rules/superhero-gladiators.md)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from gladiatorium.core import Action, Copying, Ending, Outcome, Rng, Seat, State, Termination
from gladiatorium.core.errors import OptionsError
from gladiatorium.core.kept import WRITING, KeptByIdentity, Table
from gladiatorium.games.superhero_gladiators import combat, movement
from gladiatorium.games.superhero_gladiators.actions import (
    Attack,
    Defend,
    Escape,
    Heal,
    Move,
    Notice,
    Pass,
    Place,
    Reveal,
)
from gladiatorium.games.superhero_gladiators.arena import (
    PIT,
    Arena,
    Square,
    distance,
    parse_arena,
    parse_square,
    square_name,
)
from gladiatorium.games.superhero_gladiators.combat import Hit
from gladiatorium.games.superhero_gladiators.fighters import Fighter
from gladiatorium.games.superhero_gladiators.heroes import (
    DesignRules,
    Gizmo,
    Hero,
    Power,
    PowerType,
    Style,
    blast_radius,
    damage,
    initiative_order,
    placed_by_next_player,
    placement_order,
)
from gladiatorium.games.superhero_gladiators.options import (
    MAX_TEAMS,
    SuperheroGladiatorsOptions,
    team_heroes,
)
from gladiatorium.games.superhero_gladiators.position import apply_position, written_order

SEGMENTS = 6
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


#: the ways a match ends, each with the turn it ended on
TURN_LIMIT = Ending(Termination.TURN_LIMIT, "turn limit reached (turn {turn})")
KNOCKOUT = Ending(Termination.KNOCKOUT, "every opponent fainted (turn {turn})")
FELL_TOGETHER = Ending(Termination.FELL_TOGETHER, "the last heroes fainted together (turn {turn})")
NO_HARM = Ending(Termination.NO_HARM, "no side can harm another any more (turn {turn})")


class SuperheroGladiatorsState(State[SuperheroGladiatorsOptions]):
    """The match. Phases: ``place`` (set-up), ``fight``, ``over``."""

    #: a copy of the match shares the map, the design rules, the turn order by segment
    #: and the plain values, copies the heroes' changing parts and the match's lists,
    #: and starts without the legal lists and the actor's move options
    COPYING = Copying(
        shared=(
            *("arena", "rules", "acting_on", "phase", "turn", "segment", "actor"),
            *("flew", "was_airborne", "reveal_for", "result"),
        ),
        copied={
            "fighters": lambda heroes: {fid: f.copy() for fid, f in heroes.items()},
            "noticed": lambda noticed: {team: list(keys) for team, keys in noticed.items()},
            **dict.fromkeys(("acted", "pending", "exposed", "order", "to_place"), list),
        },
        caches={
            "_cache": dict,
            "_moves": lambda: None,
            "_move_list": lambda: None,
            "_turn": lambda: None,
            "_defence": lambda: None,
        },
    )

    def __init__(
        self, options: SuperheroGladiatorsOptions, players: int, seed: int, *, shell: bool = False
    ) -> None:
        """``shell``: an empty match, which a copy or a pickle fills in (``_shell``)."""
        if shell:
            return
        super().__init__(options, players, seed)
        if players != len(options.teams):
            raise OptionsError(
                f"{players} players but {len(options.teams)} teams; give one --team per player "
                f"(--players {len(options.teams)} for {len(options.teams)} teams)"
            )
        self.arena: Arena = parse_arena(options.map, options.map_name)
        self.rules, cards = _cards_of(options)
        self.fighters: dict[str, Fighter] = {
            fid: Fighter.of(fid, team, hero) for fid, team, hero in cards
        }
        self._check_starts()
        self.phase = "place"
        self.turn = 1
        self.segment = 1
        self.actor = ""
        self.acted: list[str] = []
        self.pending: list[Hit] = []
        self.reveal_for: tuple[str, str] = ("", "")  # (hero whose gizmo, noticing team)
        self.noticed: dict[str, list[str]] = {s: [] for s in self.seats}  # "2A:Power"
        self.exposed: list[str] = []  # hidden gizmos attacked in the open (G4)
        self.flew = False  # the acting hero used flight this action
        self.was_airborne = False  # the acting hero began its action in the air
        self.result: Outcome | None = None
        self._cache: dict[Seat, Sequence[Action]] = {}
        self._moves: dict[Move, movement.MoveOption] | None = None
        self._move_list: list[movement.MoveOption] | None = None
        self._turn: KeptTurn | None = None
        #: what is kept of the defence awaited (``kept_defence``), once asked for
        self._defence: KeptDefence | None = None
        written = written_order(options.position) if options.position else None
        self.order = (
            self._ordered(initiative_order, "initiative") if written is None else written[0]
        )
        #: the heroes that act on each segment, in initiative order (R4: cards never
        #: change, so neither does this)
        self.acting_on = {
            segment: tuple(fid for fid in self.order if segment in self.fighters[fid].segments)
            for segment in range(1, SEGMENTS + 1)
        }
        self.to_place = (
            self._ordered(placement_order, "placement") if written is None else written[1]
        )
        self.emit(
            "setup",
            "initiative: " + ", ".join(self.fighters[f].label for f in self.order),
            order=list(self.order),
        )
        if options.position:
            self._from_position(options.position)

    def _blank(self) -> SuperheroGladiatorsState:
        """An empty match, for a copy to fill in (compiled, the class is made only
        through its constructor)."""
        return _shell(self.options)

    def __reduce__(self) -> tuple[Any, ...]:
        """A pickle is made as a copy is: a shell, filled in (``__setstate__``)."""
        return (_shell, (self.options,), self.__getstate__())

    def _from_position(self, text: str) -> None:
        """Skip the placement: the heroes stand where the position says, and the first
        hero acting on its segment acts."""
        resume = apply_position(self, text, "position")
        if resume == "over":  # the turn limit, unless the heroes say otherwise
            if not self._check_end():
                self._finish(Outcome.drawn(TURN_LIMIT(turn=self.options.turn_limit)))
            return
        if resume != "begin":  # nothing to roll: the position says where the turn stands
            return
        turn, segment = self.turn, self.segment
        self.emit("turn", f"turn {turn}, segment {segment}", turn=turn, segment=segment)
        if not self._check_end():
            self._next_actor()

    # ------------------------------------------------------------------ set-up
    def _check_starts(self) -> None:
        for seat in self.seats:
            count = sum(f.team == seat for f in self.fighters.values())
            have = len(self.arena.starts.get(seat, ()))
            if have < count:
                raise OptionsError(
                    f"map {self.arena.name} has {have} start squares marked {seat} "
                    f"but team {seat} has {count} heroes"
                )

    def _ordered(
        self, grouping: Callable[[Sequence[Hero]], list[tuple[Hero, ...]]], what: str
    ) -> list[str]:
        """Order the heroes (initiative: Dex, Per, Size; placement: Per, Str); heroes
        still tied roll a d20 each, lowest first, then table order (S1, S3)."""
        order: list[str] = []
        for group in self._groups(grouping):
            ids = list(group)
            if len(ids) > 1:
                rolls = {fid: self.rng.d(20) for fid in ids}
                self.emit(
                    "roll",
                    f"{what} tie: "
                    + ", ".join(f"{self.fighters[i].label} rolls {r}" for i, r in rolls.items())
                    + " (lowest first)",
                    rolls=rolls,
                )
                ids.sort(key=lambda i: rolls[i])
            order += [i for i in ids if i not in order]
        return order

    def _groups(
        self, grouping: Callable[[Sequence[Hero]], list[tuple[Hero, ...]]]
    ) -> tuple[tuple[str, ...], ...]:
        """The heroes' ids in the groups of ``grouping``, in table order within each
        (worked out once per options object: every match of a batch has the same)."""

        def grouped() -> tuple[tuple[str, ...], ...]:
            heroes = [f.hero for f in self.fighters.values()]
            groups = []
            for group in grouping(heroes):
                members = {id(h) for h in group}
                groups.append(
                    tuple(fid for fid, f in self.fighters.items() if id(f.hero) in members)
                )
            return tuple(groups)

        return _GROUPS.made((id(self.options), grouping), self.options, grouped)

    def placer(self, fid: str) -> Seat:
        """Who places a hero: its owner, or the next player for Perception 1 (S2)."""
        f = self.fighters[fid]
        if not placed_by_next_player(f.hero):
            return f.team
        seats = self.seats
        return seats[(seats.index(f.team) + 1) % len(seats)]

    # ------------------------------------------------------------------ contract
    @property
    def seats(self) -> tuple[Seat, ...]:
        return _SEATS[len(self.options.teams)]

    def _awaiting(self) -> tuple[Seat, ...]:
        if self.result is not None:
            return ()
        if self.phase == "place":
            return (self.placer(self.to_place[0]),)
        if self.reveal_for[0]:
            return (self.fighters[self.reveal_for[0]].team,)
        if self.pending:
            return (self.fighters[self.pending[0].target].team,)
        return (self.fighters[self.actor].team,)

    def outcome(self) -> Outcome | None:
        return self.result

    def legal_actions(self, seat: Seat) -> list[Action]:
        if seat not in self.awaiting():
            return []
        if seat not in self._cache:
            self._cache[seat] = self._legal()
        return list(self._cache[seat])

    def _legal_list(self, seat: Seat) -> tuple[Action, ...]:
        """:meth:`legal_actions` as the cheap path keeps it, made once into a tuple."""
        turn = self._turn  # found by a bot that recalls (``worlds.situation``)
        if turn is not None:  # a hero's action is awaited: its team's
            return turn.actions if seat == self.fighters[self.actor].team else ()
        if seat not in self.awaiting():
            return ()
        kept = self._cache.get(seat)
        if kept is not None:
            return tuple(kept)
        if self.phase == "place":  # kept as a tuple already
            return self._placement_actions(self.to_place[0])
        return tuple(self._legal())

    def kept_turn(self) -> KeptTurn:
        """What is kept of the acting hero's turn as the match stands (a hero's action
        is awaited), found by everything it follows from (:meth:`_turn_key`): the duels
        of a batch meet the same turns over and over. Asked for only by the bots that
        recall (through ``worlds.situation``): random playouts on fresh matches meet few
        turns twice, and their legal list is worked out without the key."""
        kept = self._turn
        if kept is not None:
            return kept
        f = self.fighters[self.actor]
        key = self._turn_key(f)
        # an entry holds the options and cards its key names by id, so while it is kept
        # no other object has those ids: a key met again names the same ones
        kept = _TURNS.get(key)
        if kept is None:
            heroes = tuple([g.hero for g in self.fighters.values()])
            kept = _TURNS.keep(key, KeptTurn(self.options, heroes, tuple(self._turn_actions(f))))
        self._turn = kept
        return kept

    def kept_defence(self) -> KeptDefence:
        """What is kept of the defence awaited (a hit is pending): with the hero's turn
        it follows from when that turn was kept (see :meth:`_act`), so that the duels of
        a batch meet it again; else for this version of the match only."""
        if self._defence is None:
            self._defence = KeptDefence(tuple(self._cache.get(self._awaiting()[0], ())))
        return self._defence

    def known_turn(self) -> KeptTurn | None:
        """:meth:`kept_turn` if it was found for the match as it stands (a bot that
        recalls asked for the situation), else None."""
        return self._turn

    def _turn_key(self, f: Fighter) -> tuple[Any, ...]:
        """What the turn of hero ``f`` follows from: the options (the map and rules),
        the cards (by identity: their gizmos count), where each hero stands and how,
        which powers it may still use and has used, the gizmos noticed and attacked in
        the open, and the movement powers whose die worked this segment (M7)."""
        heroes = tuple(
            [
                (
                    id(g.hero),
                    g.square,
                    g.altitude,
                    g.flight_level,
                    g.fainted,
                    g.oomph,
                    g.usable_powers(),
                    tuple(g.destroyed),
                    tuple(g.used),
                    g.entangled,
                    g.copied,
                )
                for g in self.fighters.values()
            ]
        )
        hold = (f.clinging, f.cling_level, tuple(f.working_moves))
        gizmos = (tuple(self.exposed), tuple([tuple(keys) for keys in self.noticed.values()]))
        return (id(self.options), f.id, hold, gizmos, heroes)

    def _legal(self) -> list[Action]:
        if self.phase == "place":
            return list(self._placement_actions(self.to_place[0]))
        if self.reveal_for[0]:
            return [Reveal(n) for n in self._unnoticed_unused(*self.reveal_for)]
        if self.pending:
            return self._reactions(self.pending[0])
        return self._turn_actions(self.fighters[self.actor])

    def legal_count(self, seat: Seat) -> int:
        f = self._turn_of(seat)
        if f is None:
            return super().legal_count(seat)
        return len(self.move_list(f)) + len(self._other_actions(f))

    def sample_legal(self, seat: Seat, rng: Rng) -> Action:
        """As the core's draw (``rng.choice`` over the legal list, same order), but a
        hero's turn builds only the move drawn, not all of them."""
        f = self._turn_of(seat)
        if f is None:
            return super().sample_legal(seat, rng)
        moves, others = self.move_list(f), self._other_actions(f)
        pick = rng.randint(0, len(moves) + len(others) - 1)
        action = _move_of(moves[pick]) if pick < len(moves) else others[pick - len(moves)]
        self._vouch(seat, action)
        return action

    def _turn_of(self, seat: Seat) -> Fighter | None:
        """The hero whose action ``seat`` decides now, if it is a hero's turn."""
        if self.result is not None or self.phase == "place" or self.reveal_for[0]:
            return None
        if self.pending or seat not in self._awaiting():
            return None
        return self.fighters[self.actor]

    def _apply(self, seat: Seat, action: Action) -> None:
        turn = self._turn  # the hero's turn as kept, if it was (a bot that recalls)
        self._cache = {}
        self._turn = None
        self._defence = None
        if not isinstance(action, Move):
            self._forget_moves()
        if isinstance(action, Place):
            self._place(action)
        elif isinstance(action, Reveal):
            self._reveal(action)
        elif isinstance(action, Defend):
            self._defend(action)
        else:
            self._act(self.fighters[self.actor], action, turn)

    # ------------------------------------------------------------------ placement
    def placements(self, fid: str) -> list[Square]:
        """Where a hero may be placed: a free start square of its team (S3); a
        Perception 1 hero, placed by the next player, on any free floor square but
        another team's start squares, so every team keeps its own (S4)."""
        team = self.fighters[fid].team
        taken = self.occupied()
        anywhere = self.options.perception_1_placement == "anywhere"
        if not (anywhere and self.placer(fid) != team):
            return [s for s in self.arena.starts.get(team, ()) if s not in taken]
        others = {s for t, squares in self.arena.starts.items() if t != team for s in squares}
        return [
            s
            for s in self.arena.squares()
            if self.arena.is_floor(s) and s not in taken and s not in others
        ]

    def _placement_actions(self, fid: str) -> tuple[Action, ...]:
        """The actions placing hero ``fid`` on each of :meth:`placements`, kept by the
        map, the hero's team, who places it and the squares taken (every duel of a batch
        starts alike)."""
        team, placer, taken = self.fighters[fid].team, self.placer(fid), self.occupied()
        key = (id(self.arena), team, placer, self.options.perception_1_placement, *sorted(taken))
        return _PLACINGS.made(
            key,
            self.arena,
            lambda: tuple(made(Place, square_name(s)) for s in self.placements(fid)),
        )

    def occupied(self) -> set[Square]:
        return {f.square for f in self.fighters.values() if f.alive and f.square is not None}

    def _place(self, action: Place) -> None:
        fid = self.to_place.pop(0)
        square = parse_square(action.square)
        assert square is not None
        self.fighters[fid].square = square
        self.emit("place", f"{self.fighters[fid].label} is placed on {action.square}", hero=fid)
        if not self.to_place:
            self.phase = "fight"
            self.emit("turn", "turn 1, segment 1", turn=1, segment=1)
            self._next_actor()

    # ------------------------------------------------------------------ the turn
    def _next_actor(self) -> None:
        """The next hero to act: the soonest in initiative order that acts on this
        segment and has not acted; then the next segment, then the next turn (T1)."""
        while True:
            for fid in self.acting_on[self.segment]:
                f = self.fighters[fid]
                if fid not in self.acted and f.alive:
                    self.actor = fid
                    self.acted.append(fid)
                    self._begin(f)
                    return
            self.acted = []
            self.segment += 1
            if self.segment > SEGMENTS:
                self.segment = 1
                self.turn += 1
                if self.turn > self.options.turn_limit:
                    self._finish(Outcome.drawn(TURN_LIMIT(turn=self.options.turn_limit)))
                    return
            self.emit(
                "turn",
                f"turn {self.turn}, segment {self.segment}",
                turn=self.turn,
                segment=self.segment,
            )

    def _begin(self, f: Fighter) -> None:
        """Start of a hero's action: unreliable or wild movement powers roll a d20 to
        see whether they work this segment (M7)."""
        f.working_moves = []
        for name in f.of_type(PowerType.MOVEMENT):
            power = f.powers[name]
            if power.flaws:
                die = self.rng.d(20)
                works = combat.flaw_works(power, die, 0)
                need = combat.flaw_limit(power, 0)
                self.emit(
                    "roll",
                    f"{f.label} rolls for {name}: d20 = {die}, needs {need} or less: "
                    + ("works this segment" if works else "does not work this segment"),
                    hero=f.id,
                    die=die,
                    needs=need,
                )
                if works:
                    f.working_moves.append(name)

    def _act(self, f: Fighter, action: Action, turn: KeptTurn | None = None) -> None:
        """The acting hero's action; ``turn``: its turn as kept, if it was, with which
        the defence it leads to is kept (:meth:`_keep_defence`)."""
        was_airborne = f.altitude > 0
        self.flew = False
        if isinstance(action, Move):
            self._move(f, action)
        elif isinstance(action, Attack):
            self._attack(f, action)
        elif isinstance(action, Heal):
            self._heal(f, action)
        elif isinstance(action, Notice):
            self._notice(f, action)
        elif isinstance(action, Escape):
            self._escape(f, action)
        else:
            self.emit("pass", f"{f.label} waits", hero=f.id)
        self.was_airborne = was_airborne
        landed = len(self.pending)  # none were pending before the action
        self._continue()
        if turn is not None and self.pending and len(self.pending) == landed:
            self._keep_defence(turn, action)

    def _keep_defence(self, turn: KeptTurn, action: Action) -> None:
        """A hero's kept turn, an action and the hits it landed, all waiting for their
        defences (none taken on the way), are all that the defence awaited follows
        from: the situation (``worlds.situation``) and the legal reactions are kept
        with the turn, by the action and the hits."""
        if self.reveal_for[0]:
            return
        team = self.fighters[self.pending[0].target].team
        kept = turn.defence(action, tuple(self.pending), self._cache[team])
        self._defence = kept
        self._cache[team] = kept.actions  # the same list each time: recalled by identity

    def _continue(self) -> None:
        """Resolve hits that need no decision; stop at one that does (a defence
        reaction) or at a reveal choice; else end the action."""
        while self.pending:
            hit = self.pending[0]
            reactions = self._reactions(hit)
            if len(reactions) > 1:
                if not self.reveal_for[0]:  # the hit hero's team is awaited: its legal list
                    self._cache[self.fighters[hit.target].team] = reactions
                return
            self.pending.pop(0)
            self._take(hit)
        if self.reveal_for[0]:
            return
        self._end_action()

    def _end_action(self) -> None:
        """After the action: a hero that was in the air and did not fly falls (M5);
        heroes at zero oomph or less faint (T2); broken grapples end (C12); then the
        match may end, else the next hero acts."""
        f = self.fighters[self.actor]
        if f.alive and self.was_airborne and f.altitude > 0 and not self.flew:
            self._fall(f, f.flight_level, "did not use flight")
        self._faint()
        self._release_grapples()
        if self._check_end():
            return
        self._next_actor()

    def _fall(self, f: Fighter, loss: int, why: str) -> None:
        assert f.square is not None
        f.altitude = 0
        f.flight_level = 0
        f.clinging = False
        if self.arena.terrain(f.square) == PIT and self.options.pit_falls_faint:
            f.oomph = min(f.oomph, 0)
            self.emit("fall", f"{f.label} {why} and falls into the bottomless pit", hero=f.id)
            return
        f.oomph -= loss
        self.emit(
            "fall",
            f"{f.label} {why}, falls and loses {loss} oomph ({f.oomph} left)",
            hero=f.id,
            loss=loss,
        )

    def _faint(self) -> None:
        for f in self.fighters.values():
            if f.oomph <= 0 and f.alive:
                f.fainted = True
                f.square = None
                f.entangled = 0
                f.grappler = ""
                self.emit(
                    "faint", f"{f.label} faints ({f.oomph} oomph) and leaves the arena", hero=f.id
                )

    def _release_grapples(self) -> None:
        """A grapple ends when the grappler is no longer adjacent (or fainted) (C12)."""
        for f in self.fighters.values():
            if not (f.grappler and f.alive):
                continue
            g = self.fighters[f.grappler]
            if not g.alive or self.gap(f, g) > 1:
                f.entangled = 0
                f.grappler = ""
                self.emit("free", f"{g.label} lets go: {f.label} is no longer grappled", hero=f.id)

    def _check_end(self) -> bool:
        """Victory when one side is left (V1); a tie when everyone fainted together or
        no side can harm another any more (V2, C20)."""
        living = self.living()
        teams = {f.team for f in living}
        if len(teams) > 1 and _anyone_can_harm(living):  # the fight goes on (most actions)
            return self.result is not None
        standing = sorted(teams)
        if len(standing) == 1:
            self._finish(
                Outcome.win(
                    standing,
                    KNOCKOUT(turn=self.turn),
                    team=standing[0],
                    scores=self._scores(),
                )
            )
        elif not standing:
            self._finish(Outcome.drawn(FELL_TOGETHER(turn=self.turn)))
        else:  # sides are left, none of which can harm another
            self._finish(
                Outcome.drawn(
                    NO_HARM(turn=self.turn),
                    scores=self._scores(),
                )
            )
        return self.result is not None

    def _scores(self) -> dict[Seat, float]:
        """Each side's oomph left on its standing heroes."""
        return {
            s: float(
                sum(max(0, f.oomph) for f in self.fighters.values() if f.team == s and f.alive)
            )
            for s in self.seats
        }

    def _finish(self, outcome: Outcome) -> None:
        self.result = outcome
        self.phase = "over"
        self.pending = []
        self.emit("end", outcome.reason, winners=list(outcome.winners))

    # ------------------------------------------------------------------ geometry
    def gap(self, a: Fighter, b: Fighter) -> int:
        """Distance between two heroes, altitude included (A1)."""
        assert a.square is not None and b.square is not None
        return distance(a.square, b.square, a.altitude, b.altitude)

    def in_reach(self, f: Fighter, power: Power, target: Fighter) -> bool:
        """Close attacks reach adjacent heroes (one level up or down at most: two up is
        out of reach, A3); distance attacks 3 x level squares with line of sight."""
        assert target.square is not None
        return self.reaches(f, power, target.square, target.altitude)

    def reaches(self, f: Fighter, power: Power, square: Square, altitude: int = 0) -> bool:
        """Whether an attack of ``f`` with ``power`` reaches ``square`` at ``altitude``
        (see in_reach)."""
        assert f.square is not None
        gap = distance(f.square, square, f.altitude, altitude)
        return self._reaches_over(f.square, power, square, gap)

    def _reaches_over(self, here: Square, power: Power, square: Square, gap: int) -> bool:
        """Whether an attack with ``power`` from ``here`` reaches ``square``, ``gap``
        away (altitude included): see in_reach."""
        if power.type is PowerType.CLOSE:
            return gap == 1
        return 1 <= gap <= 3 * power.level and self.arena.sees(here, square)

    def reach_squares(self, f: Fighter, power: Power) -> list[Square]:
        """The floor squares a hero standing there would be reached on (the web page
        lights them for a chosen power)."""
        assert f.square is not None
        limit = 1 if power.type is PowerType.CLOSE else 3 * power.level
        return [
            s
            for s in self.arena.within(f.square, limit)
            if not self.arena.is_wall(s) and self.reaches(f, power, s)
        ]

    def living(self) -> list[Fighter]:
        return [f for f in self.fighters.values() if f.alive]

    def foes(self, f: Fighter) -> list[Fighter]:
        return [g for g in self.fighters.values() if g.team != f.team and g.alive]

    # ------------------------------------------------------------------ action lists
    def _turn_actions(self, f: Fighter) -> list[Action]:
        return [*self.move_options(f), *self._other_actions(f)]

    def _other_actions(self, f: Fighter) -> list[Action]:
        """A hero's actions after its moves: attacks, heals, looks, escapes, waiting."""
        foes = self.foes(f)
        targets: dict[str, list[str]] = {}  # each foe's gizmos the team may attack
        acts: list[Action] = self._attack_actions(f, foes, targets)
        for name in f.of_type(PowerType.HEALING):
            for g in self.living():
                if g.team == f.team and g.oomph < g.max_oomph and self.gap(f, g) <= 1:
                    acts.append(made(Heal, g.id, name))
        acts += self._notice_actions(f, foes, targets)
        if f.entangled:
            acts.append(made(Escape))
            acts += [made(Escape, n) for n in f.defenses(Style.SLIPPERY)]
        acts.append(made(Pass))
        return acts

    def move_options(self, f: Fighter) -> dict[Move, movement.MoveOption]:
        """The acting hero's moves (kept until the next action changes the state)."""
        if self._moves is None:
            self._moves = _move_table(self.move_list(f))
        return self._moves

    def move_list(self, f: Fighter) -> list[movement.MoveOption]:
        """The acting hero's move options in legal order (kept as :meth:`move_options`)."""
        if self._move_list is None:
            occupied = self.occupied() - {f.square}
            speedy = self.options.speedy_raises_cap
            self._move_list = movement.options(f, self.arena, occupied, speedy)
        return self._move_list

    def _move_option(self, f: Fighter, action: Move) -> movement.MoveOption:
        """The option a legal move takes (found without building every move)."""
        if self._moves is not None:
            return self._moves[action]
        square = parse_square(action.square)
        return next(
            o
            for o in self.move_list(f)
            if o.square == square and o.altitude == action.altitude and o.powers == action.powers
        )

    def take_moves_of(self, other: SuperheroGladiatorsState) -> None:
        """Take the moves of the hero to act worked out by ``other``, the same match at
        the same moment (a copy for a bot: moves follow from cards and places, which
        every seat sees; the lists are read only and shared between matches already)."""
        if self._move_list is None:
            self._move_list = other._move_list

    def _forget_moves(self) -> None:
        self._moves = None
        self._move_list = None

    def attacks_of(self, f: Fighter) -> list[tuple[str, Power, bool]]:
        found = [(n, f.powers[n], False) for n in f.attacks()]
        if f.copy_ready() is not None and f.copied is not None:
            found.append((f.copied.name, f.copied, True))
        return found

    def _attack_actions(
        self,
        f: Fighter,
        foes: list[Fighter] | None = None,
        targets: dict[str, list[str]] | None = None,
    ) -> list[Action]:
        """Each usable attack on each foe in reach, then on each gizmo of that foe the
        team may attack (``foes``: :meth:`foes` of ``f``; ``targets``: the gizmos
        found so far, by foe, filled in as they are needed)."""
        acts: list[Action] = []
        assert f.square is not None
        targets = {} if targets is None else targets
        foes = self.foes(f) if foes is None else foes
        gaps = [(g, _square_of(g), self.gap(f, g)) for g in foes]  # each foe's, once
        for name, power, copied in self.attacks_of(f):
            for g, square, gap in gaps:
                if not self._reaches_over(f.square, power, square, gap):
                    continue
                acts.append(made(Attack, g.id, name, "", copied))
                if power.entangles:
                    continue  # entangling attacks do no damage to gizmos (C13)
                gizmos = self._targets_of(f.team, g, targets)
                acts += [made(Attack, g.id, name, n, copied) for n in gizmos]
        return acts

    def _targets_of(self, team: str, g: Fighter, found: dict[str, list[str]]) -> list[str]:
        """:meth:`gizmo_targets`, kept in ``found`` for the rest of one listing."""
        gizmos = found.get(g.id)
        if gizmos is None:
            gizmos = found[g.id] = self.gizmo_targets(team, g)
        return gizmos

    def gizmo_targets(self, team: str, g: Fighter) -> list[str]:
        """Gizmos a team may attack: vulnerable ones, and hidden ones it noticed (C13)."""
        return [
            n
            for n, p in g.powers.items()
            if n not in g.destroyed
            and (
                p.gizmo is Gizmo.VULNERABLE
                or (p.gizmo is Gizmo.HIDDEN and f"{g.id}:{n}" in self.noticed[team])
            )
        ]

    def _unnoticed_unused(self, gid: str, team: str) -> list[str]:
        """Hidden gizmos of hero ``gid`` never used and not yet noticed by ``team``."""
        g = self.fighters[gid]
        return [
            n
            for n in g.hidden_gizmos()
            if n not in g.used and f"{gid}:{n}" not in self.noticed[team]
        ]

    def _notice_actions(
        self,
        f: Fighter,
        foes: list[Fighter] | None = None,
        targets: dict[str, list[str]] | None = None,
    ) -> list[Action]:
        """Noticing needs sight of the hero. Every used power whose gizmo the team
        cannot attack yet may be named, and ``unused`` tried while the hero has an
        unused power, whether or not a hidden gizmo is there (G1, G5): the list is
        built only from what the team knows (``foes`` and ``targets`` as in
        :meth:`_attack_actions`)."""
        acts: list[Action] = []
        assert f.square is not None
        targets = {} if targets is None else targets
        for g in self.foes(f) if foes is None else foes:
            assert g.square is not None
            if not self.arena.sees(f.square, g.square):
                continue
            known = self._targets_of(f.team, g, targets)
            acts += [
                made(Notice, g.id, n)
                for n in g.used
                if n not in known and n not in g.destroyed and g.powers[n].gizmo is not None
            ]
            if _has_unused(g):
                acts.append(made(Notice, g.id, "unused"))
        return acts

    def knows_gizmo(self, seat: Seat | None, g: Fighter, name: str) -> bool:
        """Whether ``seat`` may know that power ``name`` of ``g`` has a hidden gizmo: its
        owner does, a team that noticed it does (G3), and everyone once it has been
        attacked in the open (G4)."""
        key = f"{g.id}:{name}"
        return (
            seat == g.team
            or key in self.exposed
            or (seat is not None and key in self.noticed.get(seat, []))
        )

    def _reactions(self, hit: Hit) -> list[Action]:
        """The defences a hit hero may use now, after learning it was hit (D1-D4)."""
        g = self.fighters[hit.target]
        acts: list[Action] = [made(Defend, "take")]
        for name in g.of_type(PowerType.DEFENSE):
            power = g.powers[name]
            styles = power.styles
            if (
                (
                    Style.TOUGHNESS in styles
                    and not hit.piercing
                    and combat.toughness_stops(power.level, hit.damage)
                )
                or (
                    Style.MISSILE_DEFLECTION in styles
                    and hit.missile
                    and hit.power.level <= power.level
                )
                or (Style.SLIPPERY in styles and hit.entangle)
            ):
                acts.append(made(Defend, "use", name))
            elif Style.COPY_POWER in styles and self._copyable(hit, power):
                acts.append(made(Defend, "copy", name))
        return acts

    def _copyable(self, hit: Hit, copy: Power) -> bool:
        """Copy power works "after being damaged by attack": a hit that does the hero
        direct damage (not an entangling one) of the copy's level or lower (C18)."""
        damaged = hit.damage > 0 or self.options.copy_on_any_hit
        return damaged and hit.power.level <= copy.level

    # ------------------------------------------------------------------ movement
    def _move(self, f: Fighter, action: Move) -> None:
        opt = self._move_option(f, action)
        self._forget_moves()
        for name in opt.powers:
            f.spend(name)
        if opt.falls:
            why = "stops clinging without wall-walking" if f.clinging else "moves without flight"
            f.square = opt.start
            self._fall(f, opt.falls, why)
            if f.oomph <= 0:
                return
        flights = _levels(f, opt.powers, Style.FLIGHT)
        walls = _levels(f, opt.powers, Style.WALL_WALKING)
        f.square = opt.square
        f.altitude = opt.altitude
        self.flew = bool(flights)
        f.flight_level = max(flights) if opt.altitude > 0 and flights else 0
        f.clinging = self.arena.is_wall(opt.square) and opt.altitude == 0
        f.cling_level = max(walls) if f.clinging and walls else f.cling_level if f.clinging else 0
        where = action.square + (f" at altitude {opt.altitude}" if opt.altitude else "")
        how = f" with {' + '.join(opt.powers)}" if opt.powers else ""
        self.emit(
            "move",
            f"{f.label} moves to {where}{how}" + (" and clings to the wall" if f.clinging else ""),
            hero=f.id,
        )

    # ------------------------------------------------------------------ attacks
    def _attack(self, f: Fighter, action: Attack) -> None:
        power = self._power_used(f, action)
        target = self.fighters[action.target]
        if action.gizmo:
            self._attack_gizmo(f, action, power, target)
            return
        roll = self.rng.d(20)
        die = self.rng.d(20) if power.flaws else 0
        self.emit(
            "attack",
            f"{f.label} attacks {target.label} with {action.power}"
            + (" (copied)" if action.copied else ""),
            hero=f.id,
            target=target.id,
        )
        for victim, full in self.blast(f, power, target):
            foiblish = victim.perception if "foiblish" in power.flaws else 0
            number = combat.hit_number(f.combat, victim.combat, foiblish)
            self._resolve_roll(f, action.power, power, victim, full, roll, die, number)

    def _power_used(self, f: Fighter, action: Attack) -> Power:
        """Spend the use: the power's own, or (a copied attack) one of copy power (D4)."""
        if action.copied:
            copy = f.copy_ready()
            assert copy is not None and f.copied is not None
            power = f.copied
            f.spend(copy)
            f.copied = None
            return power
        f.spend(action.power)
        return f.powers[action.power]

    def _resolve_roll(
        self,
        f: Fighter,
        name: str,
        power: Power,
        victim: Fighter,
        full: bool,
        roll: int,
        die: int,
        number: int,
    ) -> None:
        hit = combat.hits(roll, number)
        double = combat.double_damage(roll, number)
        text = f"{f.label} rolls to hit {victim.label}: {combat.to_hit_text(roll, number)}"
        works = True
        if power.flaws:
            works = combat.flaw_works(power, die, victim.perception)
            text += "; " + combat.flaw_text(power, die, victim.perception)
        landed = hit and works
        text += ": " + ("double damage hit" if landed and double else "hit" if landed else "miss")
        self.emit(
            "roll",
            text,
            hero=f.id,
            target=victim.id,
            roll=roll,
            needs=number,
            die=die,
            hit=landed,
            double=landed and double,
        )
        if not landed:
            return
        entangle = power.level if power.entangles else 0
        self.pending.append(
            Hit(
                f.id,
                victim.id,
                power,
                name,
                roll,
                number,
                combat.hit_damage(power, double, full),
                double,
                full,
                entangle,
                Style.GRAPPLING in power.styles,
            )
        )

    def blast(self, f: Fighter, power: Power, target: Fighter) -> list[tuple[Fighter, bool]]:
        """Who the attack can hit: the target (full), and for area attacks everyone
        else within the blast (half): around the target square for distance attacks,
        the attacker too unless ``area_spares_attacker``, around the attacker for close
        ones (never the attacker itself); walls shelter (C7, C9, R10)."""
        radius = blast_radius(power, self.rules)
        if radius is None:
            return [(target, True)]
        centre = target if power.type is PowerType.DISTANCE else f
        assert centre.square is not None
        found = [(target, True)]
        for g in self.living():
            if g is target or (g is f and (centre is f or self.options.area_spares_attacker)):
                continue
            if g is not f and g.team == f.team and not self.options.friendly_fire:
                continue
            assert g.square is not None
            if self.gap(centre, g) <= radius and self.arena.sees(centre.square, g.square):
                found.append((g, False))
        return found

    def _attack_gizmo(self, f: Fighter, action: Attack, power: Power, target: Fighter) -> None:
        """To hit a gizmo: 2 x Perception - target's Perception; a hit destroys it and
        switches its power off; no defence protects a gizmo (C13)."""
        roll = self.rng.d(20)
        die = self.rng.d(20) if power.flaws else 0
        number = combat.gizmo_number(f.perception, target.perception)
        hit = combat.hits(roll, number)
        if target.powers[action.gizmo].gizmo is Gizmo.HIDDEN:
            self._expose(target, action.gizmo)
        text = (
            f"{f.label} attacks the gizmo of {target.label}'s {action.gizmo} with "
            f"{action.power}: {combat.to_hit_text(roll, number)}"
        )
        if power.flaws:
            works = combat.flaw_works(power, die, target.perception)
            text += "; " + combat.flaw_text(power, die, target.perception)
            hit = hit and works
        self.emit(
            "roll",
            text + (": destroyed" if hit else ": miss"),
            hero=f.id,
            target=target.id,
            roll=roll,
            needs=number,
            hit=hit,
        )
        if hit:
            target.destroy(action.gizmo)
            if target.copied is not None and not target.defenses(Style.COPY_POWER):
                target.copied = None

    # ------------------------------------------------------------------ defences
    def _defend(self, action: Defend) -> None:
        hit = self.pending.pop(0)
        g = self.fighters[hit.target]
        attacker = self.fighters[hit.attacker]
        if action.how == "take":
            self._take(hit)
        else:
            power = g.powers[action.power]
            g.spend(action.power)
            works = True
            if power.flaws:
                die = self.rng.d(20)
                works = combat.flaw_works(power, die, attacker.perception)
                self.emit(
                    "roll",
                    f"{g.label}, defending, rolls for {action.power}: "
                    + combat.flaw_text(power, die, attacker.perception),
                    hero=g.id,
                    die=die,
                )
            if action.how == "copy":
                if works:
                    g.copied = hit.power
                    self.emit(
                        "copy",
                        f"{g.label} copies {hit.power_name} (level {hit.power.level})",
                        hero=g.id,
                    )
                self._take(hit)
            elif not works:
                self._take(hit)
            elif Style.SLIPPERY in power.styles:
                self._slip(g, hit, power.level)
            else:
                self.emit("defend", f"{g.label}'s {action.power} stops {hit.power_name}", hero=g.id)
        self._continue()

    def _slip(self, g: Fighter, hit: Hit, level: int) -> None:
        """Slippery adds its level to the to-hit roll of an entangling attack; a 1
        still hits (D3)."""
        total = hit.roll + level
        if hit.roll != 1 and total > hit.number:
            self.emit(
                "defend",
                f"{g.label} slips free: {hit.roll} + {level} = {total} is over {hit.number}",
                hero=g.id,
            )
        else:
            self.emit(
                "defend",
                f"{g.label} is not slippery enough: {hit.roll} + {level} = "
                f"{total}, needs over {hit.number}" + (" (1 always hits)" if hit.roll == 1 else ""),
                hero=g.id,
            )
            self._take(hit)

    def _take(self, hit: Hit) -> None:
        """A hit lands: direct damage, or entanglement (a flyer drops and loses the
        level in oomph); a stronger entangle replaces a weaker (C8-C10)."""
        g = self.fighters[hit.target]
        if hit.damage:
            g.oomph -= hit.damage
            self.emit(
                "damage",
                f"{g.label} loses {hit.damage} oomph ({g.oomph} left)",
                hero=g.id,
                damage=hit.damage,
            )
        if hit.entangle:
            self._entangle(g, hit)

    def _entangle(self, g: Fighter, hit: Hit) -> None:
        if hit.entangle > g.entangled:
            g.entangled = hit.entangle
            g.grappler = hit.attacker if hit.grappling else ""
            self.emit(
                "entangle",
                f"{g.label} is entangled (level {hit.entangle})",
                hero=g.id,
                level=hit.entangle,
            )
        else:
            self.emit("entangle", f"{g.label} is already held at level {g.entangled}", hero=g.id)
        if g.altitude > 0:
            self._fall(g, hit.entangle, "is entangled in the air")

    # ------------------------------------------------------------------ other actions
    def _heal(self, f: Fighter, action: Heal) -> None:
        """Healing restores its level in oomph, never above the maximum (H1)."""
        f.spend(action.power)
        g = self.fighters[action.target]
        gain = min(f.powers[action.power].level, g.max_oomph - g.oomph)
        g.oomph += gain
        self.emit(
            "heal",
            f"{f.label} heals {g.label} with {action.power}: +{gain} oomph "
            f"({g.oomph}/{g.max_oomph})",
            hero=f.id,
            target=g.id,
            gain=gain,
        )

    def _notice(self, f: Fighter, action: Notice) -> None:
        """Notice a hidden gizmo: d20 under 3 x Perception for one already used, under
        Perception for an unused one (G1). Everyone sees the attempt; only the two
        teams concerned see the die and what came of it, and a miss reads the same
        whether or not a gizmo was there (G5). The owner picks among unused ones (G2)."""
        g = self.fighters[action.target]
        roll = self.rng.d(20)
        used = action.power != "unused"
        need = 3 * f.perception if used else f.perception
        self.emit(
            "notice",
            f"{f.label} looks for a hidden gizmo on {g.label} ({action.power})",
            hero=f.id,
            target=g.id,
        )
        found = self._noticeable(g, f.team, action.power) if roll < need else []
        self.emit(
            "roll",
            f"{f.label}'s look at {g.label}: d20 = {roll}, needs less than {need}: "
            + ("noticed" if found else "nothing"),
            to=(f.team, g.team),
            hero=f.id,
            target=g.id,
            power=action.power,
            roll=roll,
            needs=need,
            found=bool(found),
        )
        if not found:
            return
        if used:
            self._noticed(f.team, g, action.power)
        else:
            self.reveal_for = (g.id, f.team)

    def _noticeable(self, g: Fighter, team: str, power: str) -> list[str]:
        """The hidden gizmos a successful roll finds: the used power named, or every
        unused one the team has not noticed yet."""
        if power == "unused":
            return self._unnoticed_unused(g.id, team)
        hidden = power in g.hidden_gizmos() and f"{g.id}:{power}" not in self.noticed[team]
        return [power] if hidden else []

    def _reveal(self, action: Reveal) -> None:
        """The owner picks which unused hidden gizmo was noticed; it is asked even with
        one, so that the pause does not tell the noticers how many there are (G2)."""
        g = self.fighters[self.reveal_for[0]]
        team = self.reveal_for[1]
        self.reveal_for = ("", "")
        self._noticed(team, g, action.power)
        self._continue()

    def _noticed(self, team: str, g: Fighter, power: str) -> None:
        """Noticing is shared with the whole team, and with nobody else (G3)."""
        self.noticed[team].append(f"{g.id}:{power}")
        self.emit(
            "notice",
            f"team {team} notices the hidden gizmo of {g.label}'s {power}",
            to=(team, g.team),
            hero=g.id,
            power=power,
        )

    def _expose(self, g: Fighter, power: str) -> None:
        """A hidden gizmo attacked in the open is known to everyone from then on (G4)."""
        key = f"{g.id}:{power}"
        if key not in self.exposed:
            self.exposed.append(key)

    def _escape(self, f: Fighter, action: Escape) -> None:
        """Escape: spend oomph equal to the entangle level, then a d20 of at most
        10 - 3 x (level - Strength) frees; slippery subtracts its level (C11, D3)."""
        level = f.entangled
        f.oomph -= level
        bonus = 0
        if action.power:
            power = f.powers[action.power]
            f.spend(action.power)
            works = True
            if power.flaws:
                die = self.rng.d(20)
                works = combat.flaw_works(power, die, 0)
                self.emit(
                    "roll",
                    f"{f.label} rolls for {action.power}: " + combat.flaw_text(power, die, 0),
                    hero=f.id,
                    die=die,
                )
            bonus = power.level if works else 0
        roll = self.rng.d(20)
        need = combat.escape_number(level, f.strength)
        free = roll - bonus <= need
        shown = f"{roll} - {bonus} = {roll - bonus}" if bonus else str(roll)
        self.emit(
            "roll",
            f"{f.label} spends {level} oomph to escape: d20 = {shown}, needs "
            f"{need} or less: " + ("free" if free else "still held"),
            hero=f.id,
            roll=roll,
            needs=need,
        )
        if free:
            f.entangled = 0
            f.grappler = ""

    # ------------------------------------------------------------------ views
    def view(self, seat: Seat | None) -> dict[str, Any]:
        """Cards, positions and dice are open; a hidden gizmo shows only to those who
        may know it (G3-G5): its owner's team, a team that noticed it, everyone once
        it was attacked."""
        return {
            "phase": self.phase,
            "turn": self.turn,
            "segment": self.segment,
            "actor": self.actor if self.phase == "fight" else "",
            "placing": self.to_place[0] if self.phase == "place" else "",
            "map": list(self.arena.rows),
            "map_name": self.arena.name,
            "heroes": [self._hero_view(f, seat) for f in self.fighters.values()],
            "order": list(self.order),
            "pending": [
                {
                    "attacker": h.attacker,
                    "target": h.target,
                    "power": h.power_name,
                    "damage": h.damage,
                    "entangle": h.entangle,
                    "double": h.double,
                }
                for h in self.pending
            ],
            "reveal_for": self.reveal_for[0] if seat in self._revealing() else "",
            "noticed": {
                team: [k for k in keys if self._key_known(seat, k)]
                for team, keys in self.noticed.items()
            },
        }

    def _revealing(self) -> tuple[Seat, ...]:
        """The two teams that see an owner choose which gizmo was noticed (G2, G5)."""
        gid, team = self.reveal_for
        return (self.fighters[gid].team, team) if gid else ()

    def _key_known(self, seat: Seat | None, key: str) -> bool:
        gid, _, name = key.partition(":")
        return self.knows_gizmo(seat, self.fighters[gid], name)

    def known_gizmos(self, seat: Seat | None, f: Fighter) -> dict[str, str]:
        """The gizmo of each of ``f``'s powers as ``seat`` knows it: all of them for
        its own team; for others the vulnerable ones (in plain sight) and the hidden
        ones it may know (G3-G5). Nothing is said of the rest."""
        out: dict[str, str] = {}
        for name, power in f.powers.items():
            gizmo = power.gizmo
            if gizmo is None:
                continue
            plain = seat == f.team or gizmo is Gizmo.VULNERABLE
            if plain or (gizmo is Gizmo.HIDDEN and self.knows_gizmo(seat, f, name)):
                out[name] = gizmo.value
        return out

    def secrets_for(self, seat: Seat | None) -> set[str]:
        """Every hidden gizmo ``seat`` may not know, as it would show in a view, an
        event or the terminal (G5)."""
        out: set[str] = set()
        for g in self.fighters.values():
            for name, power in g.powers.items():
                if power.gizmo is Gizmo.HIDDEN and not self.knows_gizmo(seat, g, name):
                    out |= {
                        f"{g.id}:{name}",
                        f'"{name}": "hidden"',
                        f"gizmo of {g.label}'s {name}",
                        f"reveal {name}",
                    }
        return out

    def _hero_view(self, f: Fighter, seat: Seat | None) -> dict[str, Any]:
        return {
            "id": f.id,
            "name": f.name,
            "team": f.team,
            "square": square_name(f.square) if f.square is not None else None,
            "altitude": f.altitude,
            "oomph": f.oomph,
            "max_oomph": f.max_oomph,
            "combat": f.combat,
            "perception": f.perception,
            "movement": f.movement,
            "segments": list(f.segments),
            "entangled": f.entangled,
            "grappler": f.grappler,
            "clinging": f.clinging,
            "fainted": f.fainted,
            "uses": {n: u for n, u in f.uses.items()},
            "gizmos": self.known_gizmos(seat, f),
            "destroyed": list(f.destroyed),
            "used": list(f.used),
            "copied": f.copied.name if f.copied is not None else None,
            "flaws": {n: [x.value for x in p.flaws] for n, p in f.powers.items() if p.flaws},
            "damage": {n: d for n, p in f.powers.items() if (d := damage(p)) is not None},
            "copied_flaws": [x.value for x in f.copied.flaws] if f.copied is not None else [],
        }


#: the seats of a match of N teams, by N
#: the owner of the tables this module keeps
OWNER = "superhero-gladiators"
_SEATS = tuple(tuple(str(t) for t in range(1, n + 1)) for n in range(MAX_TEAMS + 1))


def _shell(options: SuperheroGladiatorsOptions) -> SuperheroGladiatorsState:
    """An empty match, for a copy or a pickle to fill in."""
    return SuperheroGladiatorsState(options, 0, 0, shell=True)


def _cards_of(
    options: SuperheroGladiatorsOptions,
) -> tuple[DesignRules, tuple[tuple[str, Seat, Hero], ...]]:
    """The design rules and each hero's id in the match (``1A``, ``1B``, ``2A``...),
    team and card, read once per options object: every match of a batch has the same."""

    def read() -> tuple[DesignRules, tuple[tuple[str, Seat, Hero], ...]]:
        rules = options.design_rules
        cards = tuple(
            (f"{t}{LETTERS[h]}", str(t), team_heroes(data, f"team {t}", rules))
            for t, team in enumerate(options.teams, start=1)
            for h, data in enumerate(team)
        )
        return rules, cards

    return _CARDS.made(id(options), options, read)


#: the design rules and cards of the options met, by the options' id
_CARDS: KeptByIdentity[int, tuple[DesignRules, tuple[tuple[str, Seat, Hero], ...]]] = (
    KeptByIdentity("superhero_gladiators.state.cards", OWNER, 64, "the cards of options met")
)

#: the heroes' ids by initiative or placement group (``_groups``), by the options' id
#: and the grouping
_GROUPS: KeptByIdentity[
    tuple[int, Callable[[Sequence[Hero]], list[tuple[Hero, ...]]]], tuple[tuple[str, ...], ...]
] = KeptByIdentity("superhero_gladiators.state.groups", OWNER, 64, "the heroes by group")


#: the moves of move-option lists met before (lists are shared by the situations that
#: give them, see ``movement.options``), by the list's id; each entry holds its list
MAX_MOVE_TABLES = 4096
_MOVE_TABLES: Table[int, tuple[list[movement.MoveOption], dict[Move, movement.MoveOption]]] = Table(
    "superhero_gladiators.state.move_tables", OWNER, MAX_MOVE_TABLES, "the moves of move lists"
)


class KeptTurn:
    """What follows from a hero's turn as the match stands (the options, the cards,
    how every hero stands): its legal actions, and the situation as every seat sees it
    (``worlds.situation``) and each seat's options as it may know them
    (``worlds.seat_options``), filled in when first asked for. It holds the options and
    cards its key names by id."""

    __slots__ = ("actions", "defences", "heroes", "options", "seat_options", "situation")

    def __init__(
        self,
        options: SuperheroGladiatorsOptions,
        heroes: tuple[Hero, ...],
        actions: tuple[Action, ...],
    ) -> None:
        self.options = options
        self.heroes = heroes
        self.actions = actions
        self.situation: tuple[Any, ...] | None = None
        self.seat_options: dict[Seat | None, SuperheroGladiatorsOptions] = {}
        #: the defences this turn led to, by the action and the hits waiting for them
        self.defences: dict[tuple[Action, tuple[Hit, ...]], KeptDefence] = {}

    def defence(
        self, action: Action, hits: tuple[Hit, ...], reactions: Sequence[Action]
    ) -> KeptDefence:
        """What is kept of the defence that ``action`` led to, ``hits`` waiting for
        their defences (``reactions``: the legal ones, kept the first time)."""
        key = (action, hits)
        kept = self.defences.get(key)
        if kept is None:
            with WRITING:  # threads share the kept turns
                if len(self.defences) >= MAX_DEFENCES:
                    self.defences.clear()
                kept = self.defences.setdefault(key, KeptDefence(tuple(reactions)))
        return kept


class KeptDefence:
    """What follows from a defence awaited: its legal reactions and the situation as
    every seat sees it (``worlds.situation``, filled in when first asked for)."""

    __slots__ = ("actions", "situation")

    def __init__(self, actions: tuple[Action, ...]) -> None:
        self.actions = actions
        self.situation: tuple[Any, ...] | None = None


#: the defences kept with one hero's turn, at most
MAX_DEFENCES = 64


#: the placements met before, by map, team, placer, rule and squares taken (see
#: ``SuperheroGladiatorsState._placement_actions``)
_PLACINGS: KeptByIdentity[tuple[Any, ...], tuple[Action, ...]] = KeptByIdentity(
    "superhero_gladiators.state.placings", OWNER, 1024, "the placements met"
)


#: the hero's turns met before, by :meth:`SuperheroGladiatorsState._turn_key`
MAX_TURNS = 4096
_TURNS: Table[tuple[Any, ...], KeptTurn] = Table(
    "superhero_gladiators.state.turns", OWNER, MAX_TURNS, "the heroes' turns met"
)


#: the actions made so far, by kind and fields: actions are values, and a hero's
#: attacks, looks and defences recur from decision to decision and match to match
MAX_ACTIONS = 16384
_ACTIONS: Table[tuple[Any, ...], Action] = Table(
    "superhero_gladiators.state.actions", OWNER, MAX_ACTIONS, "the actions made"
)
ActionT = TypeVar("ActionT", bound=Action)


def made(kind: type[ActionT], *fields: Any) -> ActionT:
    """The action ``kind(*fields)``, the same object each time it is asked for."""
    key = (kind, *fields)
    action = _ACTIONS.get(key)
    if action is None:
        action = _ACTIONS.keep(key, kind(*fields))
    return action  # type: ignore[return-value]


def _anyone_can_harm(heroes: list[Fighter]) -> bool:
    """One of ``heroes`` has an attack left that does damage (C20)."""
    for f in heroes:  # noqa: SIM110 (a loop is quicker than any() over a generator)
        if f.can_harm():
            return True
    return False


def _has_unused(g: Fighter) -> bool:
    """``g`` has a power with a gizmo that it has not used yet."""
    # a loop, not any() over a generator: three times quicker, and asked every action
    for name, power in g.powers.items():  # noqa: SIM110
        if power.gizmo is not None and name not in g.used:
            return True
    return False


def _square_of(f: Fighter) -> Square:
    """Where a hero on the map stands."""
    assert f.square is not None
    return f.square


def _levels(f: Fighter, names: tuple[str, ...], style: Style) -> list[int]:
    """The levels of ``f``'s powers named that have ``style``."""
    if not names:  # most moves are walks
        return []
    return [f.powers[n].level for n in names if style in f.powers[n].styles]


def _move_of(option: movement.MoveOption) -> Move:
    """The move action that takes ``option``."""
    return Move(square_name(option.square), option.altitude, option.powers)


def _move_table(options: list[movement.MoveOption]) -> dict[Move, movement.MoveOption]:
    """The moves of ``options`` (in their order), each to its option; read only."""
    known = _MOVE_TABLES.get(id(options))
    if known is not None and known[0] is options:
        return known[1]
    # the same move object wherever the same move is listed, so that lists of the same
    # moves compare by identity (a bot's recall)
    table = {made(Move, square_name(o.square), o.altitude, o.powers): o for o in options}
    _MOVE_TABLES.keep(id(options), (options, table))
    return table
