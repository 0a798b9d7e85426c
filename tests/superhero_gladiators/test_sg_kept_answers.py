"""What Superhero Gladiators keeps from decision to decision changes no answer: at every
decision of seeded random matches, a hero's usable powers, each seat's options as it may
know them, the situation and the legal actions the cheap path keeps (a hero's turn by
what it follows from, met in earlier matches too, looked for only when the situation is
asked for; a placement's by the squares taken) are those worked out afresh, through
spent uses, destroyed gizmos, notices and gizmos attacked in the open."""

from __future__ import annotations

from typing import Any

from sample_matches import MATCHES, players

from gladiatorium.core import Action, Observation, Rng
from gladiatorium.core.match import decide
from gladiatorium.games.superhero_gladiators import SuperheroGladiators
from gladiatorium.games.superhero_gladiators.actions import Place
from gladiatorium.games.superhero_gladiators.arena import square_name
from gladiatorium.games.superhero_gladiators.bots import GreedyBot
from gladiatorium.games.superhero_gladiators.heroes import Gizmo
from gladiatorium.games.superhero_gladiators.state import SuperheroGladiatorsState
from gladiatorium.games.superhero_gladiators.worlds import (
    _situation,
    options_with,
    seat_options,
    situation,
    unseen,
)

GAME = SuperheroGladiators()


def afresh(state: SuperheroGladiatorsState, seat: str) -> Any:
    """The seat's options worked out with nothing kept."""
    changes = tuple((g.id, index, Gizmo.NONE) for g, index in unseen(state, seat))
    return options_with(state.options, changes)


def check_playout(match: str, seed: int, seen: dict[str, int]) -> None:
    options = MATCHES[match]
    state = GAME.start(options or None, players(options), seed)
    assert isinstance(state, SuperheroGladiatorsState)
    rng = Rng(seed)
    while state.awaiting():
        seat = state.awaiting()[0]
        hero_turn = state.phase == "fight" and not state.reveal_for[0] and not state.pending
        if len(state.history) % 2:  # as a bot that recalls: the situation first
            found = situation(state)
            kept_legal = tuple(state.legal_now(seat))  # first: legal_actions keeps its own
            turn = state.known_turn()
            assert (turn is not None) == hero_turn
            if turn is not None:  # the kept turn's very list, for the acting team alone
                assert turn.actions is state.legal_now(seat) and turn.situation is found
                assert all(not state.legal_now(s) for s in state.seats if s != seat)
        else:  # as the random bot: the legal list alone, no turn looked for
            kept_legal = tuple(state.legal_now(seat))
            assert state.known_turn() is None
        for each in state.seats:  # kept with a hero's turn once its actions are listed
            assert seat_options(state, each) == afresh(state, each)
        for f in state.fighters.values():
            kept = {kind: f.of_type(kind) for kind in {p.type for p in f.powers.values()}}
            kept_attacks, kept_harm, kept_usable = f.attacks(), f.can_harm(), f.usable_powers()
            f.forget_usable()
            assert kept == {kind: f.of_type(kind) for kind in kept}
            assert (kept_attacks, kept_harm) == (f.attacks(), f.can_harm())
            assert kept_usable == tuple(n for n in f.powers if f.usable(n))
        legal = state.legal_actions(seat)
        assert kept_legal == tuple(legal)
        if state.phase == "place":  # kept by map, team, placer and squares taken
            squares = state.placements(state.to_place[0])
            assert kept_legal == tuple(Place(square_name(s)) for s in squares)
        if state.phase == "fight" and not state.reveal_for[0]:
            assert situation(state) == _situation(state)
            assert (state.known_turn() is not None) == hero_turn  # found by the situation
        state.apply(seat, rng.choice(legal))
    seen["destroyed"] += sum(len(f.destroyed) for f in state.fighters.values())
    seen["noticed"] += sum(len(keys) for keys in state.noticed.values())
    seen["exposed"] += len(state.exposed)
    seen["spent"] += sum(u == 0 for f in state.fighters.values() for u in f.uses.values())


def test_kept_powers_and_options_are_those_worked_out_afresh() -> None:
    seen = dict.fromkeys(("destroyed", "noticed", "exposed", "spent"), 0)
    for seed in range(4):
        check_playout("default", seed, seen)
    check_playout("four on the chasm", 0, seen)
    check_playout("house rules on the pillars", 1, seen)
    assert all(seen.values()), seen  # every way a kept answer changes happened


class Glancing:
    """The greedy bot, keeping the last glance it was handed (it holds one: the bot is
    compiled, and a compiled class has no interpreted subclasses)."""

    def __init__(self, rng: Rng) -> None:
        self.bot = GreedyBot(rng)
        self.glance: Observation | None = None

    def recall(self, observation: Observation) -> Action | None:
        self.glance = observation
        return self.bot.recall(observation)

    def choose(self, observation: Observation) -> Action:
        return self.bot.choose(observation)


def test_the_glance_run_match_hands_a_bot_is_observation_glance() -> None:
    """``decide`` asks for the situation first (a hero's turn is then looked up, and its
    legal list is the one handed out): the glance holds what ``Observation.glance``
    gives at that moment, the very legal list of the match."""
    state = GAME.start(None, None, 3)
    assert isinstance(state, SuperheroGladiatorsState)
    bots = {seat: Glancing(Rng(7)) for seat in state.seats}
    turns = 0
    while state.awaiting():
        seat = state.awaiting()[0]
        action = decide(GAME, state, seat, bots[seat])
        glance, expected = bots[seat].glance, Observation.glance(GAME, state, seat)
        assert glance is not None and glance.legal_actions is state.legal_now(seat)
        assert (glance.situation, glance.events) == (expected.situation, expected.events)
        assert (glance.options, glance.awaiting) == (expected.options, expected.awaiting)
        assert (glance.seats, glance.players) == (expected.seats, expected.players)
        turn = state.known_turn()
        if turn is not None:  # found before the legal list was made: the turn's own
            assert glance.legal_actions is turn.actions
            turns += 1
        state.apply(seat, action)
    assert turns > 10  # hero's turns were looked up by their situation
