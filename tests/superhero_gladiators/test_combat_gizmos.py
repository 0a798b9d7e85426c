"""Gizmos: attacking them, destroyed gizmos switch powers off, noticing hidden ones
(C13, G1-G3), and healing (H1)."""

from __future__ import annotations

import pytest
from arena_helpers import (
    act,
    attacker,
    defender,
    duel,
    from_position,
    legal,
    power,
    skip_to,
    texts,
)

from gladiatorium.core import IllegalAction

LINE = "1..2"
AT = {"1A": "a1", "2A": "d1"}
BOLT = power("distance", level=2, name="Bolt")
NET = power("distance", "entangling", level=2, name="Net")


def test_c13_gizmo_to_hit_is_twice_perception_minus_theirs_and_a_hit_destroys_it() -> None:
    """C13: 2 x 4 - 4 = 4; the destroyed flight gizmo switches flight off."""
    wings = power("movement", "flight", level=3, uses=5, name="Wings")
    state = duel([attacker(BOLT)], [defender(wings)], AT, LINE)
    act(state, "attack 2A gizmo Wings with Bolt", [5])
    assert state.fighters["2A"].destroyed == []
    skip_to(state, "1A")
    act(state, "attack 2A gizmo Wings with Bolt", [4])
    assert state.fighters["2A"].destroyed == ["Wings"]
    assert any("needs 4 or less: destroyed" in t for t in texts(state))
    skip_to(state, "2A")
    assert not any("Wings" in a for a in legal(state))


def test_c13_invulnerable_and_no_gizmo_cannot_be_targeted_nor_by_entangling() -> None:
    safe = power("movement", "flight", gizmo="invulnerable", level=3, name="Wings")
    none = power("movement", "speedy", gizmo="none", level=3, name="Legs")
    open_ = power("movement", "speedy", level=3, name="Boots")
    state = duel([attacker(BOLT, NET)], [defender(safe, none, open_)], AT, LINE)
    gizmo_attacks = [a for a in legal(state) if "gizmo" in a]
    assert gizmo_attacks == ["attack 2A gizmo Boots with Bolt"]


def test_c13_a_one_hits_a_gizmo_even_when_the_number_is_below_one() -> None:
    """C13 with C2: Perception 1 against 4: 2 - 4 = -2, only a 1 hits."""
    from gladiatorium.games.superhero_gladiators.heroes import Attributes, Hero

    dull = Hero("Dull", Attributes(3, 5, 6, 1), powers=(BOLT,))
    boots = power("movement", "speedy", level=3, name="Boots")
    state = duel([dull], [defender(boots)], AT, LINE)
    act(state, "attack 2A gizmo Boots with Bolt", [1])
    assert state.fighters["2A"].destroyed == ["Boots"]


def test_g1_hidden_gizmo_unused_needs_under_perception() -> None:
    """G1: unused: a d20 under Perception (4) notices; then the gizmo can be attacked
    by the noticer's whole team (G3)."""
    cloak = power("defense", "toughness", gizmo="hidden", level=2, uses=2, name="Cloak")
    friend = defender(BOLT, name="Friend")
    state = duel([attacker(BOLT), friend], [defender(cloak)], {**AT, "1B": "a2"}, "1..2\n1...")
    assert not any("gizmo Cloak" in a for a in legal(state))
    act(state, "notice 2A unused", [4])
    assert state.noticed["1"] == []
    skip_to(state, "1A")
    act(state, "notice 2A unused", [3])
    act(state, "reveal Cloak")  # the owner is asked even with one (G2)
    assert state.noticed["1"] == ["2A:Cloak"]
    skip_to(state, "1B")
    assert "attack 2A gizmo Cloak with Bolt" in legal(state)


def test_g1_a_used_hidden_gizmo_needs_under_three_times_perception() -> None:
    cloak = power("defense", "toughness", gizmo="hidden", level=2, uses=3, name="Cloak")
    state = duel([attacker(BOLT)], [defender(cloak)], AT, LINE)
    act(state, "attack 2A with Bolt", [17])
    act(state, "use Cloak")
    skip_to(state, "1A")
    assert "notice 2A Cloak" in legal(state)
    act(state, "notice 2A Cloak", [12])
    assert state.noticed["1"] == []
    skip_to(state, "1A")
    act(state, "notice 2A Cloak", [11])
    assert state.noticed["1"] == ["2A:Cloak"]


def test_g2_the_owner_picks_which_of_several_unused_hidden_gizmos_is_noticed() -> None:
    cloak = power("defense", "toughness", gizmo="hidden", level=2, uses=2, name="Cloak")
    ring = power("movement", "speedy", gizmo="hidden", level=2, uses=2, name="Ring")
    state = duel([attacker(BOLT)], [defender(cloak, ring)], AT, LINE)
    act(state, "notice 2A unused", [1])
    assert state.awaiting() == ("2",)
    assert legal(state) == ["reveal Cloak", "reveal Ring"]
    act(state, "reveal Ring")
    assert state.noticed["1"] == ["2A:Ring"]
    assert state.actor == "2A"


def test_h1_healing_restores_its_level_up_to_the_maximum_self_or_adjacent_teammate() -> None:
    salve = power("healing", gizmo=None, level=3, uses=3, name="Salve")
    team1 = [attacker(BOLT, salve), defender(name="Friend")]
    state = duel(team1, [defender(BOLT)], {**AT, "1B": "a2"}, "1..2\n1...")
    assert not any(a.startswith("heal") for a in legal(state))  # nobody is hurt
    hurt = "heroes: {1A: {square: a1, oomph: 20}, 1B: {square: a2, oomph: 35}, 2A: {square: d1}}"
    state = from_position(team1, [defender(BOLT)], "1..2\n1...", hurt)
    assert {"heal 1A with Salve", "heal 1B with Salve"} <= set(legal(state))
    act(state, "heal 1B with Salve")
    assert state.fighters["1B"].oomph == 36  # not above the maximum
    skip_to(state, "1A")
    act(state, "heal 1A with Salve")
    assert state.fighters["1A"].oomph == 23


def test_h1_no_healing_at_a_distance() -> None:
    salve = power("healing", gizmo=None, level=3, uses=3, name="Salve")
    state = from_position(
        [attacker(BOLT, salve), defender(name="Far")],
        [defender(BOLT)],
        "1..2\n....\n1...",
        "heroes: {1A: {square: a1}, 1B: {square: a3, oomph: 20}, 2A: {square: d1}}",
    )
    with pytest.raises(IllegalAction):
        state.act("1", "heal 1B with Salve")


def test_g2_the_owner_never_picks_a_gizmo_already_noticed() -> None:
    cloak = power("defense", "toughness", gizmo="hidden", level=2, uses=2, name="Cloak")
    ring = power("movement", "speedy", gizmo="hidden", level=2, uses=2, name="Ring")
    hat = power("defense", "slippery", gizmo="hidden", level=2, uses=2, name="Hat")
    state = duel([attacker(BOLT)], [defender(cloak, ring, hat)], AT, LINE)
    act(state, "notice 2A unused", [1])
    act(state, "reveal Ring")
    skip_to(state, "1A")
    act(state, "notice 2A unused", [1])
    assert legal(state) == ["reveal Cloak", "reveal Hat"]
    act(state, "reveal Hat")
    skip_to(state, "1A")
    act(state, "notice 2A unused", [1])
    assert legal(state) == ["reveal Cloak"]  # one left: asked all the same (G2, G5)
    act(state, "reveal Cloak")
    assert state.noticed["1"] == ["2A:Ring", "2A:Hat", "2A:Cloak"]
    skip_to(state, "1A")
    assert "notice 2A unused" in legal(state)  # still offered: nothing tells it is empty
    act(state, "notice 2A unused", [1])
    assert state.reveal_for == ("", "") and len(state.noticed["1"]) == 3
    assert texts(state)[-2:] == [
        "Attacker (1A) looks for a hidden gizmo on Defender (2A) (unused)",
        "Attacker (1A)'s look at Defender (2A): d20 = 1, needs less than 4: nothing",
    ]
