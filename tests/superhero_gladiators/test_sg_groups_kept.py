"""The initiative and placement groups are worked out once per options object: matches
of other options in the same process (the same hero ids on other cards) still group
their own heroes."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gladiatorium.games.superhero_gladiators import SuperheroGladiators
from gladiatorium.games.superhero_gladiators.commands.duel import duel_options
from gladiatorium.games.superhero_gladiators.heroes import (
    Hero,
    initiative_order,
    placement_order,
)
from gladiatorium.games.superhero_gladiators.state import SuperheroGladiatorsState

GAME = SuperheroGladiators()
Grouping = Callable[[Sequence[Hero]], list[tuple[Hero, ...]]]


def groups_of(state: SuperheroGladiatorsState, grouping: Grouping) -> list[tuple[str, ...]]:
    """The groups worked out afresh, as ids in table order."""
    heroes = [f.hero for f in state.fighters.values()]
    return [
        tuple(fid for fid, f in state.fighters.items() if any(f.hero is h for h in group))
        for group in grouping(heroes)
    ]


def test_each_options_object_groups_its_own_heroes() -> None:
    lineups = [["cowboy", "barbarian"], ["barbarian", "cowboy"], ["perseus", "perseus"]]
    for _ in range(2):  # the second time from what was kept
        for heroes in lineups:
            options = GAME.make_options(duel_options(heroes, [], None))
            for seed in range(3):
                state = GAME.start(options, 2, seed)
                assert isinstance(state, SuperheroGladiatorsState)
                for grouping in (initiative_order, placement_order):
                    assert list(state._groups(grouping)) == groups_of(state, grouping)
    tied = GAME.start(GAME.make_options(duel_options(["perseus", "perseus"], [], None)), 2, 0)
    assert isinstance(tied, SuperheroGladiatorsState)
    assert tied._groups(initiative_order) == (("1A", "2A"),)  # one group: they roll
    assert tied.events[0].text.startswith("initiative tie")
