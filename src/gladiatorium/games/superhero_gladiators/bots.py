"""The greedy bot: attacks where the expected damage is best, moves into range,
defends when a defence stops the hit, escapes, heals when it pays, hunts gizmos.

Cards, positions and dice are open in this game, so the bot reads the heroes and map of
its observation's world (whose dice are a fresh stream); of a foe's gizmos it uses only
what its legal actions show, and in that world a hidden gizmo its team has not noticed
is invented (ruling G5, ``Game.determinize``)."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from gladiatorium.core import Action, Event, Observation, Rng, Seat
from gladiatorium.core.kept import Table, cached
from gladiatorium.games.superhero_gladiators import combat
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
from gladiatorium.games.superhero_gladiators.arena import PIT, Square, distance, parse_square
from gladiatorium.games.superhero_gladiators.fighters import Fighter
from gladiatorium.games.superhero_gladiators.heroes import (
    Flaw,
    Power,
    PowerType,
    Style,
    damage,
)
from gladiatorium.games.superhero_gladiators.movement import MoveOption
from gladiatorium.games.superhero_gladiators.state import SuperheroGladiatorsState
from gladiatorium.games.superhero_gladiators.worlds import HIDDEN_SHARE, MAX_KEPT, OWNER


@cached("superhero_gladiators.bots.chance", OWNER, 256, "a d20's chance to hit")
def chance(number: int) -> float:
    """Probability that a d20 hits a To-Hit Number (1 always, 20 never)."""
    return sum(combat.hits(r, number) for r in range(1, 21)) / 20


@cached("superhero_gladiators.bots.double_chance", OWNER, 256, "a d20's double damage")
def double_chance(number: int) -> float:
    return sum(combat.double_damage(r, number) for r in range(1, 21)) / 20


def works_chance(power: Power, foe_perception: int) -> float:
    """Probability that a flawed power's second die works against a foe (1: no flaw)."""
    return flaws_chance(power.flaws, foe_perception)


@cached("superhero_gladiators.bots.flaws_chance", OWNER, 1024, "a flawed die's chance")
def flaws_chance(flaws: tuple[Flaw, ...], foe_perception: int) -> float:
    limit = combat.flaws_limit(flaws, foe_perception)
    return sum(d <= limit for d in range(1, 21)) / 20


class GreedyBot:
    """One-action look-ahead on expected damage (see the module docstring)."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self._threats: list[tuple[Power, Fighter, float]] = []
        self._dangers: list[tuple[Square, int, int, float]] = []
        self._unlimited_best = 0.0
        self._guns: list[tuple[Square, int, list[tuple[int, bool, float]]]] | None = None
        self._placed: _Placed | None = None
        #: expected worth of attacks, by (attacker, power, target, full), this decision
        self._expectations: dict[tuple[str, int, str, bool], float] = {}
        #: what each hero's attack worth depends on, this decision (see ``_at``)
        self._ats: dict[str, tuple[Any, ...]] = {}
        #: the match whose events were read: its first event, and the seat
        self._match: tuple[Event | None, Seat] = (None, "")
        self._read = 0  # events of the match read so far
        self._nothing: set[tuple[str, str]] = set()  # (hero, power) looked at: no gizmo

    def choose(self, observation: Observation) -> Action:
        state, seat = observation.world(), observation.seat
        assert isinstance(state, SuperheroGladiatorsState)
        self._read_notices(state.events, seat)
        # the match's own list (a tuple): an action taken from it is applied without a check
        legal = tuple(observation.legal_actions)
        first = legal[0]
        if isinstance(first, Reveal):
            return self._reveal(state, legal)
        situation = observation.situation
        assert situation is not None  # a placement, a hero's action or a defence
        if isinstance(first, Place):
            best = legal.index(self._place(state, seat, legal))
        elif isinstance(first, Defend):
            best = legal.index(self._defend(state, legal))
        else:
            best = self._best(state, state.fighters[state.actor], legal)
        return self._keep(situation, legal, best)

    def _read_notices(self, events: Sequence[Event], seat: Seat) -> None:
        """Remember the looks of this seat's team whose die succeeded and found nothing:
        no hidden gizmo is left to find there (G5; only ``events``, those this seat
        sees)."""
        # a match is known by its first event, which every world of it shares: the
        # events of each world are those of the last and more
        first = events[0] if events else None
        known = self._match[0] is first and self._match[1] == seat
        if self._read > len(events) or not known:
            self._match, self._read, self._nothing = (first, seat), 0, set()  # another match
        for event in events[self._read :]:
            data = event.data
            looked = event.kind == "roll" and "found" in data and event.visible_to(seat)
            if looked and data["roll"] < data["needs"] and not data["found"]:
                self._nothing.add((data["target"], data["power"]))
        self._read = len(events)

    # ----- set-up and reactions
    def _place(
        self, state: SuperheroGladiatorsState, seat: Seat, legal: Sequence[Action]
    ) -> Action:
        """Its own heroes near the centre; a foe's Perception 1 hero (S4) as far from
        this seat's start squares as the map allows (worked out once per map, seat and
        free squares: every duel of a batch starts alike)."""
        arena, foes = state.arena, state.fighters[state.to_place[0]].team != seat
        key = (id(arena), seat, foes, tuple(_placed_on(a) for a in legal))
        known = _PLACED.get(key)
        if known is None or known[0] is not arena:
            known = _PLACED.keep(key, (arena, _placing(state, seat, foes, key[3])))
        return legal[known[1]]

    def _reveal(self, state: SuperheroGladiatorsState, legal: Sequence[Action]) -> Action:
        """Give away the gizmo that matters least: used up first, then the lowest level."""
        g = state.fighters[state.reveal_for[0]]

        def worth(action: Action) -> tuple[int, int]:
            assert isinstance(action, Reveal)
            return (g.uses[action.power] != 0, g.powers[action.power].level)

        return min(legal, key=worth)

    def _defend(self, state: SuperheroGladiatorsState, legal: Sequence[Action]) -> Action:
        hit = state.pending[0]
        g = state.fighters[hit.target]
        for action in legal:
            assert isinstance(action, Defend)
            if action.how != "use":
                continue
            power = g.powers[action.power]
            if Style.SLIPPERY in power.styles and (
                hit.roll == 1 or hit.roll + power.level <= hit.number
            ):
                continue
            return action
        copies = [a for a in legal if isinstance(a, Defend) and a.how == "copy"]
        if copies and g.copied is None and (damage(hit.power) or 0) > 0:
            return copies[0]
        return legal[0]

    # ----- a placement, a hero's action or a defence weighed before
    def recall(self, observation: Observation) -> Action | None:
        """The choice made before in this situation among the same legal actions, if
        any: the duels of a batch meet the same situations over and over (every one
        starts alike, and a hit or a miss leads to few places), and the choice follows
        from the situation (``Game.situation``), the looks that found nothing and the
        legal actions alone."""
        situation = observation.situation
        if situation is None:
            return None
        self._read_notices(observation.events, observation.seat)
        legal, looked = tuple(observation.legal_actions), self._looked()
        # a hero's turn met again hands the very situation and legal list it kept
        last = _LAST.get(id(situation))
        if last is not None and last[0] is situation and last[1] is legal and last[2] == looked:
            return legal[last[3]]
        for known, best in _CHOSEN.get((situation, looked)) or ():
            if known is legal or known == legal:
                _remember(situation, legal, looked, best)
                return legal[best]
        return None

    def _keep(self, situation: Hashable, legal: tuple[Action, ...], best: int) -> Action:
        """The action at ``best`` in ``legal``, the choice kept for :meth:`recall`
        beside those made among other legal actions in the same situation (the moves
        differ with the movement dice of the segment, which the situation leaves out)."""
        key = (situation, self._looked())
        others = _CHOSEN.entries.get(key, ())
        _CHOSEN.keep(key, ((legal, best), *others[: MAX_CHOICES - 1]))  # the oldest goes
        _remember(situation, legal, key[1], best)
        return legal[best]

    def _looked(self) -> tuple[tuple[str, str], ...]:
        """The looks that found nothing, as a value."""
        return tuple(sorted(self._nothing)) if self._nothing else ()

    def _best(self, state: SuperheroGladiatorsState, f: Fighter, legal: Sequence[Action]) -> int:
        """The index of the best action of hero ``f`` in ``legal``."""
        self._expectations, self._ats = {}, {}
        foes = state.foes(f)
        self._threats = [
            (power, g, self._expected(state, f, power, g, True))
            for _, power, _c in state.attacks_of(f)
            for g in foes
        ]
        self._dangers = self._danger_sources(state, f)
        self._guns = None
        self._unlimited_best = max(
            (
                self._expected(state, f, f.powers[a.power], state.fighters[a.target], True)
                for a in legal
                if isinstance(a, Attack)
                and not a.gizmo
                and not a.copied
                and f.uses[a.power] is None
            ),
            default=0.0,
        )
        self._placed = _Placed(state, f, foes, self._threats)
        moves = self._move_values(state, f, legal)
        # the best value wins, the first in the list among equals (moves come first)
        best, value = -1, -math.inf
        if moves:
            best = max(range(len(moves)), key=moves.__getitem__)
            value = moves[best]
        for index in range(len(moves), len(legal)):
            worth = self._value(state, f, legal[index])
            if worth > value:
                best, value = index, worth
        return best

    def _value(self, state: SuperheroGladiatorsState, f: Fighter, action: Action) -> float:
        if isinstance(action, Attack):
            return self._attack_value(state, f, action) - self._fall_cost(state, f)
        if isinstance(action, Move):
            return self._move_value(state, f, state.move_options(f)[action])
        if isinstance(action, Heal):
            g = state.fighters[action.target]
            missing = g.max_oomph - g.oomph
            gain = min(f.powers[action.power].level, missing)
            return gain * 0.9 if g.oomph * 2 < g.max_oomph else gain * 0.2
        if isinstance(action, Escape):
            return self._escape_value(f, action)
        if isinstance(action, Notice):
            return self._notice_value(f, action)
        assert isinstance(action, Pass)
        return 0.0

    def _notice_value(self, f: Fighter, action: Notice) -> float:
        """A look for a hidden gizmo, weighed by the chance to roll it and by how often
        a power hides its gizmo (the bot cannot know whether this one does, G5); a look
        whose die succeeded and found nothing is not tried again."""
        if (action.target, action.power) in self._nothing:
            return 0.0
        need = 3 * f.perception if action.power != "unused" else f.perception
        return 0.05 * max(0, need - 1) * HIDDEN_SHARE

    def _fall_cost(self, state: SuperheroGladiatorsState, f: Fighter) -> float:
        if f.altitude <= 0:
            return 0.0
        assert f.square is not None
        if state.arena.terrain(f.square) == PIT:
            return 1000.0
        return float(f.flight_level) * 1.5

    def _attack_value(self, state: SuperheroGladiatorsState, f: Fighter, action: Attack) -> float:
        power = f.copied if action.copied and f.copied is not None else f.powers[action.power]
        target = state.fighters[action.target]
        if action.gizmo:
            p = chance(combat.gizmo_number(f.perception, target.perception))
            p *= works_chance(power, target.perception)
            broken = target.powers[action.gizmo]
            worth = float(damage(broken) or 0) if broken.is_attack else 2.0
            if target.uses[action.gizmo] == 0:
                worth = 0.0
            if f.uses.get(action.power, 1) is not None or action.copied:
                worth *= 0.3  # a limited use is better spent on the hero
            return p * worth * 0.5
        value = self._expected(state, f, power, target, True)
        for victim, full in state.blast(f, power, target)[1:]:
            value += self._expected(state, f, power, victim, full) * (
                1 if victim.team != f.team else -1.5
            )
        if action.copied or f.uses[action.power] is not None:
            value -= (
                0.15 + 0.7 * self._unlimited_best
            )  # save limited uses when a free attack will do
        return value

    def _expected(
        self, state: SuperheroGladiatorsState, f: Fighter, power: Power, g: Fighter, full: bool
    ) -> float:
        """Expected worth of ``f``'s attack with ``power`` on ``g`` (worked out once per
        decision: nothing changes while the bot decides)."""
        key = (f.id, id(power), g.id, full)
        known = self._expectations.get(key)
        if known is None:
            known = self._expectations[key] = self._expect_as_before(f, power, g, full)
        return known

    def _expect_as_before(self, f: Fighter, power: Power, g: Fighter, full: bool) -> float:
        """:meth:`_expect`, taken from the attacks weighed before (in this batch) whose
        worth depended on the same numbers: the heroes' combat and perception, the
        target's entanglement, height, oomph and usable defences."""
        key = (id(power), full, f.combat, *self._at(g))
        known = _EXPECTED.get(key)
        if known is None or known[0] is not power:
            known = _EXPECTED.keep(key, (power, self._expect(f, power, g, full)))
        return known[1]

    def _at(self, g: Fighter) -> tuple[Any, ...]:
        """What an attack's worth on ``g`` depends on besides the attack: its combat,
        perception, entanglement, height, oomph and usable defences (once a decision)."""
        known = self._ats.get(g.id)
        if known is None:
            at = (g.combat, g.perception, g.entangled, g.altitude > 0, g.oomph)
            known = self._ats[g.id] = (*at, *_guard(g))
        return known

    def _expect(self, f: Fighter, power: Power, g: Fighter, full: bool) -> float:
        foiblish = g.perception if Flaw.FOIBLISH in power.flaws else 0
        number = combat.hit_number(f.combat, g.combat, foiblish)
        works = works_chance(power, g.perception)
        p = chance(number) * works
        pd = double_chance(number) * works
        if power.entangles:
            if power.level <= g.entangled:
                return 0.0
            worth = 2.5 + (power.level * 1.5 if g.altitude > 0 else 0.0)
            if g.defenses(Style.SLIPPERY):
                worth *= 0.5
            return p * worth
        dmg = combat.hit_damage(power, False, full)
        dbl = combat.hit_damage(power, True, full)
        expected = (p - pd) * self._worth(g, dmg, power) + pd * self._worth(g, dbl, power)
        return expected

    def _worth(self, g: Fighter, dmg: int, power: Power) -> float:
        """Damage as it will land: a defence the target will use stops it."""
        for name in g.of_type(PowerType.DEFENSE):
            d = g.powers[name]
            if (
                Style.TOUGHNESS in d.styles
                and Style.PIERCING not in power.styles
                and combat.toughness_stops(d.level, dmg)
            ):
                return dmg * 0.15
            if (
                Style.MISSILE_DEFLECTION in d.styles
                and Style.MISSILE in power.styles
                and power.level <= d.level
            ):
                return dmg * 0.15
        kill = 6.0 if dmg >= g.oomph else 0.0
        return min(dmg, g.oomph + 2) + kill

    def _escape_value(self, f: Fighter, action: Escape) -> float:
        need = combat.escape_number(f.entangled, f.strength)
        bonus = f.powers[action.power].level if action.power else 0
        p = sum(r - bonus <= need for r in range(1, 21)) / 20
        if f.oomph <= f.entangled:
            return -10.0
        return p * 3.0 - 0.3 * f.entangled - (0.2 if action.power else 0.0)

    def _move_values(
        self, state: SuperheroGladiatorsState, f: Fighter, legal: Sequence[Action]
    ) -> list[float]:
        """The worth of the moves that open the legal list (a hero's moves come first),
        in their order. A hero that can still harm weighs its moves only by the foes'
        places, its threats and the dangers, so moves met before in the same situation
        (every duel of a batch starts alike) are weighed once."""
        options = state.move_list(f)
        if not options or not isinstance(legal[0], Move):
            return []
        placed = self._placed
        assert placed is not None
        if not placed.harms:
            return [self._move_value(state, f, o) for o in options]
        key = (id(options), state.arena, placed.key(), tuple(self._dangers))
        known = _WORTH.get(key)
        if known is not None and known[0] is options:
            return known[1]
        values = [self._move_value(state, f, o) for o in options]
        _WORTH.keep(key, (options, values))
        return values

    def _move_value(self, state: SuperheroGladiatorsState, f: Fighter, move: MoveOption) -> float:
        """How well placed the hero is after the move: the best attack it could make
        from there, less distance to the foes, less the powers spent."""
        placed = self._placed
        assert placed is not None
        if not placed.foes:
            return 0.0
        square = move.square
        altitude = move.altitude
        best = placed.best_threat(square, altitude)
        near = placed.nearest(square, altitude)
        cost = 0.4 * len(move.powers) + (0.8 * altitude)
        if altitude and state.arena.terrain(square) == PIT:
            cost += 5
        if not placed.harms:  # nothing left to hit with: keep away, out of sight
            assert f.square is not None
            safer = self._exposure(state, f, f.square, f.altitude) - self._exposure(
                state, f, square, altitude
            )
            return 0.5 * near - cost + safer
        danger = self._danger(square, altitude)
        return 0.6 * best + 0.3 * (placed.now - near) - cost - 0.5 - danger

    def _danger_sources(
        self, state: SuperheroGladiatorsState, f: Fighter
    ) -> list[tuple[Square, int, int, float]]:
        """Foes whose close attacks threaten a shooter: (square, altitude, reach, harm).
        Only foes the hero can outshoot count: a shooter whose damaging distance attacks
        all fall within a foe's reach must step into it to shoot (keeping away would only
        run the match to the turn limit)."""
        ranges = [
            3 * p.level
            for _, p, _c in state.attacks_of(f)
            if p.type is PowerType.DISTANCE and (damage(p) or 0) > 0
        ]
        found = []
        for g in state.foes(f):
            assert g.square is not None
            if max(ranges, default=0) <= g.movement + 1:
                continue
            harm = max(
                (
                    self._expected(state, g, g.powers[n], f, True)
                    for n in g.attacks()
                    if g.powers[n].type is PowerType.CLOSE
                ),
                default=0.0,
            )
            if harm:
                found.append((g.square, g.altitude, g.movement + 1, 0.3 * harm))
        return found

    def _exposure(
        self, state: SuperheroGladiatorsState, f: Fighter, square: Square, alt: int
    ) -> float:
        """Expected harm waiting at a square for a hero that cannot strike back: each
        foe's best damaging attack that could reach it next (a distance attack in
        range and sight, a close attack within a move)."""
        if self._guns is None:  # once per decision: the foes' damaging attacks on f
            self._guns = [_gun(state, f, g, self._expected) for g in state.foes(f)]
        total = 0.0
        for where, height, attacks in self._guns:
            gap = distance(square, where, alt, height)
            total += max(
                (
                    harm
                    for reach, sight, harm in attacks
                    if gap <= reach and (not sight or state.arena.sees(square, where))
                ),
                default=0.0,
            )
        return total

    def _danger(self, square: Square, alt: int) -> float:
        """Expected harm from foes' close attacks if the hero stands here."""
        worst = None
        col, row = square
        for (c, r), a, reach, harm in self._dangers:
            if max(abs(col - c), abs(row - r), abs(alt - a)) <= reach and (
                worst is None or harm > worst
            ):
                worst = harm
        return 0.0 if worst is None else worst


def _guard(g: Fighter) -> tuple[bool, int, int]:
    """What of ``g``'s usable defences an attack's worth depends on: whether one is
    slippery, the highest toughness and the highest missile deflection (0: none); a
    defence stops a hit when the highest of its kind does (see ``_worth``)."""
    slippery, toughness, deflection = False, 0, 0
    for name in g.of_type(PowerType.DEFENSE):
        d = g.powers[name]
        slippery = slippery or Style.SLIPPERY in d.styles
        if Style.TOUGHNESS in d.styles:
            toughness = max(toughness, d.level)
        if Style.MISSILE_DEFLECTION in d.styles:
            deflection = max(deflection, d.level)
    return slippery, toughness, deflection


#: the expected worth of attacks weighed before, by what it depends on (see
#: ``GreedyBot._expect_as_before``); each entry holds its power
_EXPECTED: Table[tuple[Any, ...], tuple[Power, float]] = Table(
    "superhero_gladiators.bots.expected",
    OWNER,
    MAX_KEPT,
    "the worth of attacks weighed",
)

#: the choices made in each situation met before (see ``GreedyBot.recall``), by the
#: game's situation and the looks that found nothing: for each list of legal actions
#: met there (the latest first), the list and the index of the action chosen
MAX_CHOSEN = 8192  # about a kilobyte each
MAX_CHOICES = 4  # legal lists kept by situation
_CHOSEN: Table[
    tuple[Hashable, tuple[tuple[str, str], ...]], tuple[tuple[tuple[Action, ...], int], ...]
] = Table(
    "superhero_gladiators.bots.chosen",
    OWNER,
    MAX_CHOSEN,
    "the greedy bot's choices by situation",
    oldest_out=True,
)

#: the last choice recalled or made in each situation object, by its id: the
#: situation (held, so that its id names no other), the legal list, the looks that
#: found nothing and the index chosen (a hero's turn met again hands the same objects,
#: found without hashing the situation)
_LAST: Table[int, tuple[Hashable, tuple[Action, ...], tuple[tuple[str, str], ...], int]] = Table(
    "superhero_gladiators.bots.last",
    OWNER,
    MAX_CHOSEN,
    "the last choice in each situation",
)


def _remember(
    situation: Hashable, legal: tuple[Action, ...], looked: tuple[tuple[str, str], ...], best: int
) -> None:
    """Keep ``best`` as the last choice in ``situation`` (see ``_LAST``)."""
    _LAST.keep(id(situation), (situation, legal, looked, best))


#: the worth of move lists met before, by the list's id, the map and the situation
#: (the foes' places, the hero's threats, how near it stands, the dangers); each entry
#: holds its list
MAX_WORTH = 4096
_WORTH: Table[tuple[Any, ...], tuple[list[MoveOption], list[float]]] = Table(
    "superhero_gladiators.bots.worth", OWNER, MAX_WORTH, "the worth of move lists"
)

#: square names read so far (a map has few squares; names never change meaning)
_SQUARES: Table[str, Square] = Table(
    "superhero_gladiators.bots.squares", OWNER, 4096, "square names read"
)


def _sq(name: str) -> Square:
    square = _SQUARES.get(name)
    if square is None:
        found = parse_square(name)
        assert found is not None
        square = _SQUARES.keep(name, found)
    return square


def _placed_on(action: Action) -> Square:
    assert isinstance(action, Place)
    return _sq(action.square)


def _placing(
    state: SuperheroGladiatorsState, seat: Seat, foes: bool, squares: tuple[Square, ...]
) -> int:
    """The index of the square to place on among ``squares`` (see ``GreedyBot._place``;
    ``foes``: the hero is a foe's); the first of the best."""
    indices = range(len(squares))
    if foes:
        ours = state.arena.starts.get(seat, ())
        return max(indices, key=lambda i: min(distance(squares[i], s) for s in ours))
    centre = (state.arena.width // 2, state.arena.height // 2)
    return min(indices, key=lambda i: distance(squares[i], centre))


#: the square chosen by map, seat, whose hero and the free squares (see ``_place``):
#: the map, and the index of the square
_PLACED: Table[tuple[Any, ...], tuple[Any, int]] = Table(
    "superhero_gladiators.bots.placed",
    OWNER,
    MAX_KEPT,
    "the square chosen to place on",
)


class _Placed:
    """What a move is weighed against, worked out once per decision: the foes' places,
    the threats the hero could make (value, close?, range, foe's square, altitude),
    how near the nearest foe is now and whether the hero can still harm anyone."""

    def __init__(
        self,
        state: SuperheroGladiatorsState,
        f: Fighter,
        foes: list[Fighter],
        threats: list[tuple[Power, Fighter, float]],
    ) -> None:
        self.state = state
        self.foes = [(g.square, g.altitude) for g in foes if g.square is not None]
        self.threats = [
            (value, power.type is PowerType.CLOSE, 3 * power.level, g.square, g.altitude)
            for power, g, value in threats
            if g.square is not None
        ]
        self.harms = f.can_harm()
        self.now = 0
        if self.harms and self.foes:
            assert f.square is not None
            self.now = self.nearest(f.square, f.altitude)

    def key(self) -> tuple[Any, ...]:
        """All a move's worth depends on here, besides the move and the dangers."""
        return (tuple(self.foes), tuple(self.threats), self.harms, self.now)

    def nearest(self, square: Square, alt: int) -> int:
        """Distance to the nearest foe from ``square`` at altitude ``alt`` (A1)."""
        col, row = square
        best = -1
        for (c, r), height in self.foes:
            gap = max(abs(col - c), abs(row - r), abs(alt - height))
            if best < 0 or gap < best:
                best = gap
        return best

    def best_threat(self, square: Square, alt: int) -> float:
        """The best expected attack the hero could make from ``square`` (0: none)."""
        best = 0.0
        sees = self.state.arena.sees
        col, row = square
        for value, close, reach, where, height in self.threats:
            if value <= best:
                continue
            gap = max(abs(col - where[0]), abs(row - where[1]), abs(alt - height))  # A1
            if (gap == 1) if close else (1 <= gap <= reach and sees(square, where)):
                best = value
        return best


Expect = Callable[[SuperheroGladiatorsState, Fighter, Power, Fighter, bool], float]


def _gun(
    state: SuperheroGladiatorsState, f: Fighter, g: Fighter, expected: Expect
) -> tuple[Square, int, list[tuple[int, bool, float]]]:
    """Foe ``g``'s damaging attacks on ``f`` as (reach, needs sight, expected harm): a
    distance attack reaches 3 x level in sight, a close one a move and a step away."""
    assert g.square is not None
    attacks = [
        (
            g.movement + 1 if power.type is PowerType.CLOSE else 3 * power.level,
            power.type is not PowerType.CLOSE,
            expected(state, g, power, f, True),
        )
        for power in (g.powers[n] for n in g.attacks())
        if (damage(power) or 0) > 0
    ]
    return g.square, g.altitude, attacks
