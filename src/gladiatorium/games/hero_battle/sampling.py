"""Full Battles a player cannot tell from the true one (``Game.determinize``).

Drawn only from the player's view: every hero whose identity is hidden from the player
is dealt again, hero by hero, weighted by what the public record suggests (the
inferrer's chart), among the owners of hidden heroes, each keeping as many (with two
heroes a player, the hidden second hero of a player whose first is revealed is dealt
too); every other player's nemeses are dealt again (balanced, as the set-up deals them:
the player's own pair taken out of the slots); the teams the player is not on are dealt
again from their heroes (each team keeps its size, which the deal makes from the count
alone, and two teams stay intact while the teamwork bonus is unpaid); other players'
guesses of the round, their guess results and the hits of an anonymous round are
replaced. What the player knows (its own heroes, nemeses, team, revealed identities, the
posted moves) stays.

A world agrees with what the player has seen of identities and nemeses: no hero goes to
an owner the record rules out (its sign-up, an abstention hit or Random Player's hit on
it, the player's own wrong guesses), and the nemeses tell the story of the round posts'
nemesis bonuses (``bonus_record.py``: in every round where heroes died, each lead hero
alive gained the bonus once per dead nemesis of its player). Identities and nemeses are
dealt together until both fit; only a record no deal fits within the tries (none the
rules can make) falls back to a free deal. Not read: which team won the teamwork bonus
(beyond two teams staying intact while it is unpaid) and, with two heroes a player, that
a call-out never names the caller's own other hero.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from gladiatorium.core import Rng, Seat
from gladiatorium.core.observation import seat_copy
from gladiatorium.games.hero_battle.actions import MODERATOR, RANDOM_PLAYER, Move
from gladiatorium.games.hero_battle.bonus_record import (
    BonusRound,
    Want,
    bonus_rounds,
    leads_explain,
    pair_fits,
    wants,
)
from gladiatorium.games.hero_battle.bots import infer_identities
from gladiatorium.games.hero_battle.enumerate import enumerate_moves
from gladiatorium.games.hero_battle.setup import canonical
from gladiatorium.games.hero_battle.state import HeroBattleState

#: deals tried (of the identities, of the nemeses) before giving up on one that fits
DEAL_TRIES = 20
#: pairs a nemesis deal may try in all before it gives up
NEMESIS_STEPS = 2000
#: owners a searched deal of the identities may try in all before it gives up
SEARCH_STEPS = 2000
#: pairs of a kind drawn to try for one player, where a big Battle has too many to list
SAMPLED_PAIRS = 24


def determinize(state: HeroBattleState, seat: Seat, rng: Rng) -> HeroBattleState:
    """A Battle that ``seat`` cannot tell from ``state``, its secrets drawn from ``rng``."""
    world = seat_copy(state, seat, rng, own_history=True)
    assert isinstance(world, HeroBattleState)
    if seat == MODERATOR:
        return world
    deal_secrets(world, seat, rng)
    deal_teams(world, seat, rng)
    world.guesses = {s: g for s, g in world.guesses.items() if s == seat}
    world.guess_log = {s: (log if s == seat else []) for s, log in world.guess_log.items()}
    if world.anonymous:
        redraw_hits(world, seat, rng)
    return world


def hidden_places(world: HeroBattleState, seat: Seat) -> dict[str, int]:
    """Owners (players and Random Player) other than ``seat`` with heroes whose identity
    is hidden, and how many each: any of them may own any of those heroes, as far as
    ``seat`` can tell. Hidden heroes are alive (the dead are revealed), so an owner that
    keeps its count keeps its living heroes, and who is still awaited stays the same."""
    hidden = Counter(h.player for h in world.heroes.values() if not h.revealed)
    owners = [*world.player_seats, RANDOM_PLAYER]  # in table order, whoever holds what
    return {o: hidden[o] for o in owners if o != seat and hidden[o]}


def deal_secrets(world: HeroBattleState, seat: Seat, rng: Rng) -> None:
    """Identities and nemeses, dealt again together until the round posts' nemesis
    bonuses fit both; a free deal of the nemeses when no try fits."""
    rounds = bonus_rounds(world.reports, world.options.nemesis_bonus)
    hidden = hidden_deal(world, seat, rounds)
    for _ in range(DEAL_TRIES):
        if hidden is not None:
            deal_identities(world, hidden, rng)
        if not leads_explain(rounds, world.heroes):
            continue
        nemeses = deal_nemeses(world, seat, rng, rounds)
        if nemeses is not None:
            world.nemeses.update(nemeses)
            return
    world.nemeses.update(free_nemeses(world, seat, rng))


@dataclass(frozen=True)
class HiddenDeal:
    """The hidden heroes to deal, in name order; their possible owners with the
    number of places each; and each hero's weight at each owner."""

    heroes: list[str]
    places: dict[str, int]
    weights: dict[str, dict[str, float]]


def hidden_deal(world: HeroBattleState, seat: Seat, rounds: list[BonusRound]) -> HiddenDeal | None:
    """What a deal of the heroes hidden from ``seat`` draws from, weighted by the chart
    of the public record; an owner the record rules out (a sign-up, a wrong guess, an
    abstention hit; Random Player for a hero that gained a nemesis bonus) weighs
    nothing. None when there is nothing to deal."""
    places = hidden_places(world, seat)
    if len(places) < 2:
        return None
    heroes = canonical([h.name for h in world.heroes.values() if h.player in places])
    heroes = [h for h in heroes if not world.heroes[h].revealed]
    chart = infer_identities(world.view(seat), seat)
    gained = {h for bonus_round in rounds for h in bonus_round.gained}
    weights = {
        hero: {
            owner: 0.0
            if owner == RANDOM_PLAYER and hero in gained
            else chart.get(owner, {}).get(hero, 1.0)
            for owner in places
        }
        for hero in heroes
    }
    return HiddenDeal(heroes, places, weights)


def deal_identities(world: HeroBattleState, hidden: HiddenDeal, rng: Rng) -> None:
    """Deal the hidden heroes among their possible owners, each hero to an owner with a
    place left, drawn by weight, never to an owner the record rules out: when a free
    deal keeps hitting one, the deal is searched for."""
    heroes, places, weights = hidden.heroes, hidden.places, hidden.weights
    deal: dict[str, str] | None = None
    for _ in range(DEAL_TRIES):
        deal = _deal_once(heroes, places, weights, rng)
        if deal is not None:
            break
    if deal is None:
        searched = _deal_searched(heroes, dict(places), weights, rng, [SEARCH_STEPS])
        deal = searched or _deal_free(heroes, places, rng)
    for hero, owner in deal.items():
        world.heroes[hero].player = owner


def _deal_once(
    heroes: list[str], places: dict[str, int], weights: dict[str, dict[str, float]], rng: Rng
) -> dict[str, str] | None:
    """Each hero in turn to an owner with a place left, drawn by weight; None at a hero
    whose every such owner is ruled out."""
    left = dict(places)
    deal: dict[str, str] = {}
    for hero in heroes:
        open_owners = [o for o, n in left.items() if n > 0]
        chances = [weights[hero][o] for o in open_owners]
        if sum(chances) <= 1e-12:
            return None
        owner = _weighted(open_owners, chances, rng)
        deal[hero] = owner
        left[owner] -= 1
    return deal


def _deal_searched(
    heroes: list[str],
    left: dict[str, int],
    weights: dict[str, dict[str, float]],
    rng: Rng,
    steps: list[int],
) -> dict[str, str] | None:
    """A deal with no hero at an owner ruled out, searched for hero by hero (each
    hero's owners tried in an order drawn by weight); None when there is none or the
    ``steps`` left run out."""
    if not heroes:
        return {}
    hero, rest = heroes[0], heroes[1:]
    owners = [o for o, n in left.items() if n > 0 and weights[hero][o] > 1e-12]
    while owners and steps[0] > 0:
        steps[0] -= 1
        owner = _weighted(owners, [weights[hero][o] for o in owners], rng)
        owners.remove(owner)
        left[owner] -= 1
        deal = _deal_searched(rest, left, weights, rng, steps)
        left[owner] += 1
        if deal is not None:
            return {hero: owner, **deal}
    return None


def _deal_free(heroes: list[str], places: dict[str, int], rng: Rng) -> dict[str, str]:
    """Any deal that keeps every owner's count (a record no deal fits: none the rules
    can make)."""
    slots = [o for o, n in places.items() for _ in range(n)]
    rng.shuffle(slots)
    return dict(zip(heroes, slots, strict=True))


def _weighted(items: list[str], weights: list[float], rng: Rng) -> str:
    total = sum(weights)
    point = rng.randint(0, 999_999) / 1_000_000 * total
    for item, weight in zip(items, weights, strict=True):
        point -= weight
        if point < 0:
            return item
    return items[-1]


def deal_nemeses(
    world: HeroBattleState, seat: Seat, rng: Rng, rounds: list[BonusRound]
) -> dict[Seat, tuple[str, ...]] | None:
    """Two nemeses for every other player, from the heroes of other players, that tell
    the round posts' story of nemesis bonuses: a balanced deal (every hero the nemesis
    of as many players) when the rules make one. None when no deal fits."""
    players = {h.name: h.player for h in world.heroes.values() if h.player != RANDOM_PLAYER}
    owned: dict[str, list[str]] = {}
    for hero in world.heroes.values():
        owned.setdefault(hero.player, []).append(hero.name)
    pairs: dict[Seat, Pairs] = {}
    for other in (s for s in world.nemeses if s != seat):
        wanted = wants(rounds, owned.get(other, []))
        if wanted is None:
            return None
        pairs[other] = Pairs.fitting(players, other, wanted)
    slots = _balanced_slots(world, seat, players)
    order = sorted(pairs, key=lambda s: pairs[s].size())  # the most bound first
    steps = [NEMESIS_STEPS]
    return _deal_pairs(order, pairs, slots, rng, steps)


@dataclass(frozen=True)
class Pairs:
    """The nemesis pairs of one player that fit the posts, kept by kind so that a big
    Battle needs no list of every pair: pairs of heroes that died in a round where the
    player's lead hero was alive (``dead``), such a hero with any hero that did not
    (``singles``, with ``free``), and two heroes that did not (when ``free_pair``)."""

    dead: list[tuple[str, str]]
    singles: list[str]
    free: list[str]
    free_pair: bool

    @classmethod
    def fitting(cls, players: dict[str, str], other: Seat, wanted: list[Want]) -> Pairs:
        """The pairs of heroes of players other than ``other`` that fit ``wanted``."""
        candidates = canonical([h for h, o in players.items() if o != other])
        died = set().union(*(d for d, _ in wanted))
        dead = [h for h in candidates if h in died]
        free = [h for h in candidates if h not in died]
        return cls(
            dead=[
                (a, b)
                for i, a in enumerate(dead)
                for b in dead[i + 1 :]
                if pair_fits((a, b), wanted)
            ],
            singles=[h for h in dead if free and pair_fits((h, free[0]), wanted)],
            free=free,
            free_pair=pair_fits(free[:2], wanted),
        )

    def size(self) -> int:
        """How many pairs fit."""
        free = len(self.free)
        return len(self.dead) + len(self.singles) * free + self.free_pair * free * (free - 1) // 2

    def tries(self, slots: Counter[str] | None, rng: Rng) -> list[tuple[str, str]]:
        """Pairs to try, in a random order, both heroes with a slot left (when
        balanced): every such pair of dead heroes, and up to ``SAMPLED_PAIRS`` drawn
        of each other kind."""

        def open_(hero: str) -> bool:
            return slots is None or slots[hero] > 0

        free = [h for h in self.free if open_(h)]
        out = [p for p in self.dead if open_(p[0]) and open_(p[1])]
        for hero in (h for h in self.singles if open_(h)):
            out += [_pair(hero, f) for f in rng.sample(free, min(SAMPLED_PAIRS, len(free)))]
        if self.free_pair and len(free) >= 2:
            every = len(free) * (len(free) - 1) // 2
            if every <= SAMPLED_PAIRS:
                out += [(a, b) for i, a in enumerate(free) for b in free[i + 1 :]]
            else:
                out += list(
                    dict.fromkeys(_pair(*rng.sample(free, 2)) for _ in range(SAMPLED_PAIRS))
                )
        rng.shuffle(out)
        return out


def _pair(a: str, b: str) -> tuple[str, str]:
    first, second = canonical([a, b])
    return first, second


def _balanced_slots(
    world: HeroBattleState, seat: Seat, players: dict[str, str]
) -> Counter[str] | None:
    """How many more players each hero is the nemesis of, in the set-up's balanced deal
    (``setup.deal_nemeses``) with ``seat``'s own pair taken out; None when the rules
    deal otherwise."""
    options = world.options
    if not options.balanced_nemeses or options.assign_nemeses or options.position:
        return None
    candidates = canonical(list(players))
    copies = -(-2 * len(world.nemeses) // len(candidates))
    slots = Counter((candidates * copies)[: 2 * len(world.nemeses)])
    for hero in world.nemeses[seat]:
        if not slots[hero]:
            return None
        slots[hero] -= 1
    return slots


def _deal_pairs(
    order: list[Seat],
    pairs: dict[Seat, Pairs],
    slots: Counter[str] | None,
    rng: Rng,
    steps: list[int],
) -> dict[Seat, tuple[str, ...]] | None:
    """Each player in ``order`` a fitting pair with both heroes in ``slots`` (when
    balanced), tried in a random order, backtracking; None when none fits or the
    ``steps`` left run out."""
    if not order:
        return {}
    other, rest = order[0], order[1:]
    for pair in pairs[other].tries(slots, rng):
        steps[0] -= 1
        if steps[0] < 0:
            return None
        if slots is not None:
            slots.subtract(pair)
        deal = _deal_pairs(rest, pairs, slots, rng, steps)
        if slots is not None:
            slots.update(pair)
        if deal is not None:
            return {other: pair, **deal}
        if steps[0] < 0:
            return None
    return None


def free_nemeses(world: HeroBattleState, seat: Seat, rng: Rng) -> dict[Seat, tuple[str, ...]]:
    """Two nemeses for every other player from the heroes of other players, whatever
    the posts say (a record no deal fits)."""
    players = {h.name: h.player for h in world.heroes.values() if h.player != RANDOM_PLAYER}
    out: dict[Seat, tuple[str, ...]] = {}
    for other in (s for s in world.nemeses if s != seat):
        candidates = canonical([h for h, o in players.items() if o != other])
        out[other] = tuple(canonical(rng.sample(candidates, 2)))
    return out


def deal_teams(world: HeroBattleState, seat: Seat, rng: Rng) -> None:
    """The heroes of the teams ``seat`` is not on, dealt among those teams again, each
    keeping its size; while the teamwork bonus is unpaid, two teams are still intact."""
    mine = {h.team for h in world.heroes_of(seat)}
    others = [t for t in world.teams if t not in mine]
    if len(others) < 2:
        return
    heroes = canonical([h for t in others for h in world.teams[t]])
    intact_mine = [t for t in mine if t and all(world.heroes[h].alive for h in world.teams[t])]
    for _ in range(DEAL_TRIES):
        rng.shuffle(heroes)
        teams: dict[str, tuple[str, ...]] = {}
        start = 0
        for team in others:
            size = len(world.teams[team])
            teams[team] = tuple(canonical(heroes[start : start + size]))
            start += size
        intact = [t for t, m in teams.items() if all(world.heroes[h].alive for h in m)]
        if world.team_bonus_given or len(intact) + len(intact_mine) >= 2:
            break
    world.teams = {**world.teams, **teams}  # a new table: a copy shares the match's
    for team, members in teams.items():
        for member in members:
            world.heroes[member].team = team


def redraw_hits(world: HeroBattleState, seat: Seat, rng: Rng) -> None:
    """In an anonymous round the other players' hits are secret: each posted move
    gets hits drawn among the moves with the same heals."""
    for other, move in list(world.moves.items()):
        if other == seat or not isinstance(move, Move):
            continue
        shaped = [
            m
            for m in enumerate_moves(world.need(other), world.heroes, world.double_up())
            if isinstance(m, Move) and m.heals == move.heals
        ]
        if shaped:
            world.moves[other] = rng.choice(shaped)
