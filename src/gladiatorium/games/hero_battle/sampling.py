"""Full Battles a player cannot tell from the true one (``Game.determinize``).

Drawn only from the player's view: the hidden players' identities are dealt again,
hero by hero, weighted by what the public record suggests (the inferrer's chart); every
other player's nemeses are dealt again; other players' guesses of the round, their
guess results and the hits of an anonymous round are replaced. What the player knows
(its own heroes, nemeses, team, revealed identities, the posted moves) stays.
"""

from __future__ import annotations

from gladiatorium.core import Rng, Seat
from gladiatorium.core.observation import seat_copy
from gladiatorium.games.hero_battle.actions import MODERATOR, RANDOM_PLAYER, Move
from gladiatorium.games.hero_battle.bots import infer_identities
from gladiatorium.games.hero_battle.enumerate import enumerate_moves
from gladiatorium.games.hero_battle.setup import canonical
from gladiatorium.games.hero_battle.state import HeroBattleState

#: deals of the identities tried before one that the record rules out is kept
DEAL_TRIES = 20


def determinize(state: HeroBattleState, seat: Seat, rng: Rng) -> HeroBattleState:
    """A Battle that ``seat`` cannot tell from ``state``, its secrets drawn from ``rng``."""
    world = seat_copy(state, seat, rng, own_history=True)
    assert isinstance(world, HeroBattleState)
    if seat == MODERATOR:
        return world
    deal_identities(world, seat, rng)
    deal_nemeses(world, seat, rng)
    world.guesses = {s: g for s, g in world.guesses.items() if s == seat}
    world.guess_log = {s: (log if s == seat else []) for s, log in world.guess_log.items()}
    if world.anonymous:
        redraw_hits(world, seat, rng)
    return world


def hidden_owners(world: HeroBattleState, seat: Seat) -> list[str]:
    """Owners (players and Random Player) other than ``seat`` whose heroes are all
    alive and unrevealed: any of them may own any of those heroes, as far as ``seat``
    can tell (who is still awaited stays the same)."""
    owners = [*world.player_seats, RANDOM_PLAYER]
    return [
        o
        for o in owners
        if o != seat
        and world.heroes_of(o)
        and all(h.alive and not h.revealed for h in world.heroes_of(o))
    ]


def deal_identities(world: HeroBattleState, seat: Seat, rng: Rng) -> None:
    """Deal the hidden owners' heroes among them, each hero to an owner with a place
    left, weighted by the chart of the public record; a deal the record rules out (a
    sign-up, a wrong guess, an abstention hit) is dealt again."""
    owners = hidden_owners(world, seat)
    if len(owners) < 2:
        return
    places = {o: len(world.heroes_of(o)) for o in owners}
    heroes = canonical([h.name for o in owners for h in world.heroes_of(o)])
    chart = infer_identities(world.view(seat), seat)
    deal: dict[str, str] = {}
    for _ in range(DEAL_TRIES):
        deal, possible = _deal_once(heroes, places, chart, rng)
        if possible:
            break
    for hero, owner in deal.items():
        world.heroes[hero].player = owner


def _deal_once(
    heroes: list[str], places: dict[str, int], chart: dict[str, dict[str, float]], rng: Rng
) -> tuple[dict[str, str], bool]:
    left = dict(places)
    deal: dict[str, str] = {}
    possible = True
    for hero in heroes:
        open_owners = [o for o, n in left.items() if n > 0]
        weights = [chart.get(o, {}).get(hero, 1.0) for o in open_owners]
        if sum(weights) <= 1e-12:
            possible, weights = False, [1.0] * len(open_owners)
        owner = _weighted(open_owners, weights, rng)
        deal[hero] = owner
        left[owner] -= 1
    return deal, possible


def _weighted(items: list[str], weights: list[float], rng: Rng) -> str:
    total = sum(weights)
    point = rng.randint(0, 999_999) / 1_000_000 * total
    for item, weight in zip(items, weights, strict=True):
        point -= weight
        if point < 0:
            return item
    return items[-1]


def deal_nemeses(world: HeroBattleState, seat: Seat, rng: Rng) -> None:
    """Two nemeses for every other player, from the heroes of the other players."""
    players = {h.name: h.player for h in world.heroes.values() if h.player != RANDOM_PLAYER}
    for other in world.nemeses:
        if other != seat:
            candidates = canonical([h for h, o in players.items() if o != other])
            world.nemeses[other] = tuple(canonical(rng.sample(candidates, 2)))


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
