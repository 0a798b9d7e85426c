"""Positions at the decisions beyond a segment's start (data/positions): a hit waiting
for its defence, a copied attack held, the order a tie's dice chose, an unreliable
movement already rolled; each loads with the exact actions the rules allow and rolls
nothing while it loads."""

from __future__ import annotations

from importlib import resources
from typing import Any

import pytest
from arena_helpers import arena_hero, from_position, power

from gladiatorium.core import OptionsError
from gladiatorium.games.superhero_gladiators import GAME
from gladiatorium.games.superhero_gladiators.hero_files import (
    SAMPLES_DIR,
    hero_to_data,
    load_hero_file,
)
from gladiatorium.games.superhero_gladiators.state import SuperheroGladiatorsState

SHIPPED = resources.files("gladiatorium.games.superhero_gladiators") / "data" / "positions"


def text(name: str) -> str:
    return (SHIPPED / name).read_text(encoding="utf-8")


def sample(stem: str) -> list[dict[str, Any]]:
    hero = load_hero_file(SAMPLES_DIR / f"{stem}.yaml").hero
    assert hero is not None
    return [hero_to_data(hero)]


def loaded(name: str, teams: list[list[dict[str, Any]]] | None = None, seed: int = 0) -> Any:
    options = GAME.make_options({} if teams is None else {"teams": teams})
    state = GAME.load_position(options, 2, seed, text(name), name)
    assert isinstance(state, SuperheroGladiatorsState)
    return state


def rolled(state: SuperheroGladiatorsState) -> list[str]:
    """The dice rolled so far (loading a position written at a decision rolls none)."""
    return [e.text for e in state.events if e.kind == "roll"]


def test_a_hit_waits_for_its_defence() -> None:
    """defence.yaml: the Six-shooter (a missile, level 3) hit Perseus for 6; his Polished
    shield (missile deflection, level 3) may stop it, or he takes it (D2)."""
    state = loaded("defence.yaml")
    assert (state.awaiting(), rolled(state)) == (("2",), [])
    assert [str(a) for a in state.legal_actions("2")] == ["take hit", "use Polished shield"]
    state.act("2", "take hit")
    assert state.fighters["2A"].oomph == 60 - 6
    again = loaded("defence.yaml")
    again.act("2", "use Polished shield")
    assert again.fighters["2A"].oomph == 60 and again.fighters["2A"].uses["Polished shield"] == 4


def test_a_copied_attack_is_held_and_offered() -> None:
    """copied.yaml: the first Wizard holds the other's Static sparks, copied: it may
    attack with it, a use of its Mirror of the cult paying (D4)."""
    wizard = sample("wizard-of-the-wild-hair-cult")
    state = loaded("copied.yaml", [wizard, wizard])
    me = state.fighters["1A"]
    assert me.copied is not None and me.copied.name == "Static sparks"
    legal = [str(a) for a in state.legal_actions("1")]
    assert "attack 2A with copied Static sparks" in legal
    assert "attack 2A with Static sparks" in legal and rolled(state) == []
    uses = me.uses["Mirror of the cult"]
    state.act("1", "attack 2A with copied Static sparks")
    assert me.copied is None and me.uses["Mirror of the cult"] == (uses or 0) - 1


def test_the_order_a_tie_chose_is_kept_and_nothing_is_rolled() -> None:
    """tie-order.yaml: two Cowboys tie for initiative (S1); the position's order puts
    the second first, so 2A acts first and no tie die is rolled again."""
    cowboy = sample("cowboy")
    fresh = GAME.start({"teams": [cowboy, cowboy]}, 2, 1)
    assert any("initiative tie" in line for line in rolled(fresh))  # a new match rolls
    for seed in (1, 2, 3):
        state = loaded("tie-order.yaml", [cowboy, cowboy], seed)
        assert state.order == ["2A", "1A"] and rolled(state) == []
        assert state.actor == "2A" and state.awaiting() == ("2",)


def test_an_unreliable_movement_already_rolled_is_not_rolled_again() -> None:
    """movement-rolled.yaml: the Spring boots (unreliable) worked this segment: their
    moves are offered at once, and nothing is rolled while loading."""
    boots = power("movement", "speedy", flaws=("unreliable",), level=2, name="Spring boots")
    jumper = arena_hero("Jumper", boots)
    other = arena_hero("Other", power("distance", name="Zap"))
    arena = "\n".join(["1......2"] * 5)
    state = from_position([jumper], [other], arena, text("movement-rolled.yaml"))
    assert rolled(state) == [] and state.fighters["1A"].working_moves == ["Spring boots"]
    moves = [str(a) for a in state.legal_actions("1") if str(a).startswith("move")]
    assert any("with Spring boots" in m for m in moves)
    unrolled = from_position(
        [jumper], [other], arena, text("movement-rolled.yaml").replace("working", "used")
    )
    assert not any("Spring boots" in str(a) for a in unrolled.legal_actions("1"))


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("order: [1A, 2A]", "order: [1A, 1A]", "pos.yaml:8: order: every hero once"),
        ("order: [1A, 2A]", "order: [2A, 1A]", "pos.yaml:8: order: the initiative order, only"),
        ("actor: 1A", "actor: 3C", "pos.yaml:9: actor: '3C' is no hero on the map"),
        ("target: 2A, power: Six-shooter", "target: 2A, power: Whip", "pos.yaml:12: pending"),
    ],
)
def test_errors_of_a_decision_name_the_line_and_the_field(old: str, new: str, message: str) -> None:
    changed = text("defence.yaml").replace(old, new)
    assert changed != text("defence.yaml")
    with pytest.raises(OptionsError) as err:
        GAME.load_position(GAME.make_options({}), 2, 0, changed, "pos.yaml")
    assert message in str(err.value)
