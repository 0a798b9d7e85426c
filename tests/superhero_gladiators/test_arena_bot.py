"""The greedy bot's decisions in set positions."""

from __future__ import annotations

from typing import Any

import pytest
from arena_helpers import act, attacker, defender, duel, power

from gladiatorium.core import Observation, Rng
from gladiatorium.games.superhero_gladiators import SuperheroGladiators
from gladiatorium.games.superhero_gladiators.bots import GreedyBot, chance

GAME = SuperheroGladiators()

BOLT = power("distance", level=2, name="Bolt")
PUNCH = power("close", level=2, name="Punch")
AT = {"1A": "a1", "2A": "d1"}


def choice(state: object) -> str:
    seat = state.awaiting()[0]  # type: ignore[attr-defined]
    return str(GreedyBot(Rng(0)).choose(Observation.of(state, seat)))  # type: ignore[arg-type]


def test_chance_counts_automatic_hits_and_misses() -> None:
    assert chance(-5) == 0.05 and chance(25) == 0.95 and chance(10) == 0.5


def test_bot_attacks_a_hero_in_range() -> None:
    state = duel([attacker(BOLT)], [defender()], AT, "1..2")
    assert choice(state) == "attack 2A with Bolt"


def test_bot_walks_into_reach_of_its_close_attack() -> None:
    state = duel([attacker(PUNCH)], [defender()], {"1A": "a1", "2A": "h1"}, "1......2")
    act(state, choice(state))
    assert state.fighters["1A"].square == (5, 0)


def test_bot_uses_a_defence_that_stops_the_hit() -> None:
    tough = power("defense", "toughness", level=2, uses=3, name="Hide")
    state = duel([attacker(BOLT)], [defender(tough)], AT, "1..2")
    act(state, "attack 2A with Bolt", [17])
    assert choice(state) == "use Hide"


def test_bot_uses_slippery_only_when_it_turns_the_hit_into_a_miss() -> None:
    slick = power("defense", "slippery", level=2, uses=3, name="Slick")
    net = power("distance", "entangling", level=2, name="Net")
    state = duel([attacker(net, PUNCH)], [defender(slick)], AT, "1..2")
    act(state, "attack 2A with Net", [16])
    assert choice(state) == "use Slick"
    state = duel([attacker(net, PUNCH)], [defender(slick)], AT, "1..2")
    act(state, "attack 2A with Net", [10])
    assert choice(state) == "take hit"


def test_bot_copies_a_damaging_attack() -> None:
    mirror = power("defense", "copy-power", level=2, uses=3, name="Mirror")
    state = duel([attacker(BOLT)], [defender(mirror)], AT, "1..2")
    act(state, "attack 2A with Bolt", [17])
    assert choice(state) == "copy Mirror"


def test_bot_reveals_its_least_useful_hidden_gizmo() -> None:
    cloak = power("defense", "toughness", gizmo="hidden", level=3, uses=2, name="Cloak")
    ring = power("movement", "speedy", gizmo="hidden", level=1, uses=2, name="Ring")
    state = duel([attacker(BOLT)], [defender(cloak, ring)], AT, "1..2")
    act(state, "notice 2A unused", [1])
    assert choice(state) == "reveal Ring"


def test_bot_escapes_when_held_and_nothing_is_in_reach() -> None:
    net = power("distance", "entangling", level=1, name="Net")
    state = duel([attacker(net, BOLT)], [defender(PUNCH)], AT, "1..2")
    act(state, "attack 2A with Net", [17])
    assert choice(state) == "escape"


def test_bot_with_nothing_left_to_hit_with_hides_from_the_foes_guns() -> None:
    """A hero that cannot harm anyone any more leaves the sight of a foe's shot."""
    salve = power("healing", gizmo=None, level=1, uses=2, name="Salve")
    arena = "...1...\n.......\n..#...2"  # a1, the farthest square, is in sight of g3
    state = duel([attacker(salve)], [defender(BOLT)], {"1A": "d1", "2A": "g3"}, arena)
    hider, gun = state.fighters["1A"], state.fighters["2A"]
    assert hider.square is not None and gun.square is not None
    assert state.arena.sees(hider.square, gun.square)
    act(state, choice(state))
    assert hider.square is not None
    assert not state.arena.sees(hider.square, gun.square)


def test_bot_fears_a_foes_fists_only_when_it_can_outshoot_them() -> None:
    """A shooter keeps out of a foe's close reach (a move and a step) only when one of
    its shots reaches farther; otherwise keeping away would only run out the clock."""
    short_bolt = power("distance", level=1, name="Short bolt")  # range 3
    long_bolt = power("distance", level=4, name="Long bolt")  # range 12
    for shots, feared in (((short_bolt,), False), ((short_bolt, long_bolt), True)):
        state = duel([attacker(*shots)], [defender(PUNCH)], {"1A": "a1", "2A": "h1"}, "1......2")
        brute = state.fighters["2A"]
        assert 3 * short_bolt.level <= brute.movement + 1 < 3 * long_bolt.level
        bot = GreedyBot(Rng(0))
        dangers = bot._danger_sources(state, state.fighters["1A"])
        assert (dangers != []) is feared
        if feared:
            assert [(sq, reach) for sq, _alt, reach, _h in dangers] == [
                (brute.square, brute.movement + 1)
            ]


def test_bot_recalls_a_choice_in_the_same_situation_without_a_world() -> None:
    """A second match in the same situation gets the choice the first one weighed,
    from an observation without a world; a situation that differs (the foe a square
    away) is not recalled."""
    from gladiatorium.games.superhero_gladiators import bots

    bots._CHOSEN.empty()
    first = duel([attacker(BOLT)], [defender()], AT, "1.22")
    assert GreedyBot(Rng(0)).recall(Observation.glance(GAME, first, "1")) is None
    assert choice(first) == "attack 2A with Bolt"
    again = duel([attacker(BOLT)], [defender()], AT, "1.22")
    glance = Observation.glance(GAME, again, "1")
    recalled = GreedyBot(Rng(0)).recall(glance)
    assert str(recalled) == "attack 2A with Bolt" and recalled in glance.legal_actions
    with pytest.raises(RuntimeError):
        glance.world()
    nearer = duel([attacker(BOLT)], [defender()], {"1A": "a1", "2A": "c1"}, "1.22")
    assert GreedyBot(Rng(0)).recall(Observation.glance(GAME, nearer, "1")) is None


def test_bot_recalls_the_choice_made_among_the_same_legal_actions() -> None:
    """One situation may come with other legal actions (the moves differ with the
    movement dice of the segment, which the situation leaves out): each list's own
    choice is recalled, and a list never met is not."""
    from gladiatorium.games.superhero_gladiators import bots

    bots._CHOSEN.empty()
    state = duel([attacker(BOLT)], [defender()], AT, "1.22")
    glance, bot = Observation.glance(GAME, state, "1"), GreedyBot(Rng(0))
    legal = tuple(glance.legal_actions)
    fewer, other = legal[1:], legal[:-1]
    bot._keep(glance.situation, legal, 0)
    bot._keep(glance.situation, fewer, 2)
    assert bot.recall(glance) is legal[0]
    glance.legal_actions = fewer
    assert bot.recall(glance) is fewer[2]
    glance.legal_actions = other
    assert bot.recall(glance) is None


def test_cards_that_differ_only_in_their_gizmos_count_as_one_in_a_situation() -> None:
    """A world invents the foes' unseen gizmos afresh each time; the bots never read
    them, so a situation counts those cards as the same card, and another card not."""
    from gladiatorium.games.superhero_gladiators.worlds import card_number

    hidden = attacker(power("distance", level=2, name="Bolt", gizmo="hidden"))
    plain = attacker(power("distance", level=2, name="Bolt", gizmo="none"))
    stronger = attacker(power("distance", level=3, name="Bolt", gizmo="none"))
    assert card_number(hidden) == card_number(plain) != card_number(stronger)


def test_bot_recalls_a_defence_and_the_situation_holds_the_hit() -> None:
    """A defence is recalled like an action; a hit rolled otherwise (a double) is
    another situation."""
    tough = power("defense", "toughness", level=2, uses=3, name="Hide")

    def hit(roll: int) -> Any:
        state = duel([attacker(BOLT)], [defender(tough)], AT, "1.22")
        act(state, "attack 2A with Bolt", [roll])
        return state

    assert choice(hit(12)) == "use Hide"
    assert str(GreedyBot(Rng(0)).recall(Observation.glance(GAME, hit(12), "2"))) == "use Hide"
    assert GAME.situation(hit(12), "2") != GAME.situation(hit(1), "2")
