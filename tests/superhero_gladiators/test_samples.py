"""The shipped sample heroes: all legal, together covering every power type, style, flaw
and gizmo, and reproducing both orders the rulebook states for them."""

from __future__ import annotations

from pathlib import Path

import pytest

from gladiatorium.games.superhero_gladiators.hero_files import (
    hero_from_data,
    hero_to_data,
    load_hero_file,
    sample_files,
)
from gladiatorium.games.superhero_gladiators.heroes import (
    INFINITE,
    STYLE_COST,
    Flaw,
    Gizmo,
    Hero,
    PowerType,
    damage,
    initiative_order,
    placed_by_next_player,
    placement_order,
    points,
    traits,
)

BOOK_NAMES = {
    "Wizard of the Wild Hair Cult",
    "Stranger of Solarium",
    "Barbarian",
    "Porcupine Boar Guy",
    "Cowboy",
    "Giant Rubber Cement Archer",
    "Perseus",
    "Fred the Giant",
}


def samples() -> list[Hero]:
    heroes = []
    for path in sample_files():
        result = load_hero_file(path)
        assert result.hero is not None
        heroes.append(result.hero)
    return heroes


@pytest.mark.parametrize("path", sample_files(), ids=lambda p: p.stem)
def test_every_sample_hero_is_valid(path: Path) -> None:
    result = load_hero_file(path)
    assert [str(e) for e in result.errors] == []
    assert result.valid and result.hero is not None
    assert points(result.hero).total <= 200


def test_the_eight_heroes_the_rulebook_names_are_shipped() -> None:
    assert {h.name for h in samples()} >= BOOK_NAMES


def test_samples_use_every_power_type_style_flaw_and_gizmo() -> None:
    powers = [p for h in samples() for p in h.powers]
    assert {p.type for p in powers} == set(PowerType)
    for kind in PowerType:
        used = {s for p in powers if p.type is kind for s in p.styles}
        assert used == set(STYLE_COST[kind]), kind
    assert {f for p in powers for f in p.flaws} == set(Flaw)
    assert {p.gizmo for p in powers if p.gizmo is not None} == set(Gizmo)


def test_every_sample_carries_an_attack_that_could_fell_the_sturdiest_sample() -> None:
    """Design goal (docs: why the samples are built this way): any two samples can end
    their match with a faint. Each sample has one attack whose uses, all hitting, do at
    least the largest Max Oomph among the samples (90); infinite uses always do."""
    sturdiest = max(traits(h).max_oomph for h in samples())
    assert sturdiest == 90
    for hero in samples():
        most = max(
            float("inf") if p.uses == INFINITE else int(p.uses) * (damage(p) or 0)
            for p in hero.powers
            if p.is_attack
        )
        assert most >= sturdiest, hero.name


def test_acting_order_is_the_rulebooks() -> None:
    """'who attacks soonest': Wizard, Stranger, Barbarian, Porcupine Boar Guy, Cowboy,
    Archer, Perseus, Fred; no die needed."""
    groups = initiative_order(samples())
    assert [[h.name for h in g] for g in groups] == [
        ["Wizard of the Wild Hair Cult"],
        ["Stranger of Solarium"],
        ["Barbarian"],
        ["Porcupine Boar Guy"],
        ["Cowboy"],
        ["Giant Rubber Cement Archer"],
        ["Perseus"],
        ["Fred the Giant"],
    ]


def test_placement_order_is_the_rulebooks_r19() -> None:
    """'placed on the map first': Cowboy and Porcupine Boar Guy (by another player), a
    die between the Barbarian and the Archer, Wizard, Perseus, Stranger; Fred last (R19)."""
    groups = placement_order(samples())
    assert [sorted(h.name for h in g) for g in groups] == [
        ["Cowboy"],
        ["Porcupine Boar Guy"],
        ["Barbarian", "Giant Rubber Cement Archer"],
        ["Wizard of the Wild Hair Cult"],
        ["Perseus"],
        ["Stranger of Solarium"],
        ["Fred the Giant"],
    ]
    by_other = {h.name for h in samples() if placed_by_next_player(h)}
    assert by_other == {"Cowboy", "Porcupine Boar Guy"}


def test_orders_use_tie_breaks() -> None:
    """The samples exercise the Perception and Size tie-breaks of the acting order."""
    by_name = {h.name: h.effective for h in samples()}
    barbarian, porcupine, cowboy = (
        by_name["Barbarian"],
        by_name["Porcupine Boar Guy"],
        by_name["Cowboy"],
    )
    assert barbarian.dexterity == porcupine.dexterity == cowboy.dexterity == 5
    assert barbarian.perception > porcupine.perception == cowboy.perception
    assert porcupine.size > cowboy.size


@pytest.mark.parametrize("path", sample_files(), ids=lambda p: p.stem)
def test_sample_round_trips_through_plain_data(path: Path) -> None:
    hero = load_hero_file(path).hero
    assert hero is not None
    again = hero_from_data(hero_to_data(hero))
    assert again.errors == () and again.hero == hero
