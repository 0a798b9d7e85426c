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
posted moves) stays. Not read: which heroes gained a nemesis bonus (a hint about the
dead heroes' hunters).
"""

from __future__ import annotations

from collections import Counter

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


def deal_identities(world: HeroBattleState, seat: Seat, rng: Rng) -> None:
    """Deal the hidden heroes among their possible owners, each hero to an owner with a
    place left, weighted by the chart of the public record; a deal the record rules out
    (a sign-up, a wrong guess, an abstention hit) is dealt again."""
    places = hidden_places(world, seat)
    if len(places) < 2:
        return
    heroes = canonical([h.name for h in world.heroes.values() if h.player in places])
    heroes = [h for h in heroes if not world.heroes[h].revealed]
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
    """Two nemeses for every other player, from the heroes of other players: a balanced
    deal (every hero the nemesis of as many players) when the rules make one, else any."""
    players = {h.name: h.player for h in world.heroes.values() if h.player != RANDOM_PLAYER}
    others = [s for s in world.nemeses if s != seat]
    balanced = _balanced_nemeses(world, seat, players, others, rng)
    if balanced is not None:
        world.nemeses.update(balanced)
        return
    for other in others:
        candidates = canonical([h for h, o in players.items() if o != other])
        world.nemeses[other] = tuple(canonical(rng.sample(candidates, 2)))


def _balanced_nemeses(
    world: HeroBattleState, seat: Seat, players: dict[str, str], others: list[Seat], rng: Rng
) -> dict[Seat, tuple[str, ...]] | None:
    """The set-up's balanced deal (``setup.deal_nemeses``) with ``seat``'s own pair taken
    out of the slots; None when the rules deal otherwise or no try fits."""
    options = world.options
    if not options.balanced_nemeses or options.assign_nemeses or options.position:
        return None
    candidates = canonical(list(players))
    copies = -(-2 * len(world.nemeses) // len(candidates))
    slots = (candidates * copies)[: 2 * len(world.nemeses)]
    for hero in world.nemeses[seat]:
        if hero not in slots:
            return None
        slots.remove(hero)
    for _ in range(DEAL_TRIES):
        pairs = _deal_pairs(Counter(slots), players, others, rng)
        if pairs is not None:
            return pairs
    return None


def _deal_pairs(
    left: Counter[str], players: dict[str, str], others: list[Seat], rng: Rng
) -> dict[Seat, tuple[str, ...]] | None:
    """Each player in turn draws two different heroes left in the slots, none its own;
    None when a player is left with no such pair."""
    pairs: dict[Seat, tuple[str, ...]] = {}
    for other in others:
        allowed = [h for h in canonical(list(left)) if left[h] > 0 and players[h] != other]
        if len(allowed) < 2:
            return None
        pair = tuple(canonical(rng.sample(allowed, 2)))
        left.subtract(pair)
        pairs[other] = pair
    return pairs


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
