"""Builders for arena scenario tests: heroes from plain numbers, a match on a small map
with heroes placed where the test says, dice forced by the test."""

from __future__ import annotations

from typing import Any

from sg_helpers import power

from gladiatorium.games.superhero_gladiators import GAME
from gladiatorium.games.superhero_gladiators.actions import Place
from gladiatorium.games.superhero_gladiators.hero_files import hero_to_data
from gladiatorium.games.superhero_gladiators.heroes import Attributes, Hero, Power
from gladiatorium.games.superhero_gladiators.state import SuperheroGladiatorsState

__all__ = ["arena_hero", "duel", "from_position", "power"]

#: An open 8 x 5 arena; team 1 starts in column a, team 2 in column h.
OPEN = "1......2\n1......2\n1......2\n1......2\n1......2"


def arena_hero(
    name: str,
    *powers: Power,
    strength: int = 3,
    dexterity: int = 4,
    size: int = 4,
    perception: int = 4,
    extra: Attributes | None = None,
) -> Hero:
    """A hero whose starting attributes total 15 (the rest goes into ``extra``,
    bought points). Default: Str 3 Dex 4 Size 4 Per 4: Combat 11, oomph 36, Speed 16
    (segments 1, 3, 5, 6), Movement 4."""
    base = Attributes(strength, dexterity, size, perception)
    return Hero(name, base, extra or Attributes(), powers)


def duel(
    team1: list[Hero],
    team2: list[Hero],
    at: dict[str, str],
    arena: str = OPEN,
    **options: Any,
) -> SuperheroGladiatorsState:
    """A match with every hero placed on ``at[id]`` (ids 1A, 1B, 2A ...), ready for
    the first hero's action. Budgets are lifted so test heroes may be strong."""
    values = {
        "teams": [[hero_to_data(h) for h in team1], [hero_to_data(h) for h in team2]],
        "map": arena,
        "power_points": 100_000,
        **options,
    }
    state = GAME.start(values, 2, 0)
    assert isinstance(state, SuperheroGladiatorsState)
    while state.phase == "place":
        fid = state.to_place[0]
        state.apply(state.placer(fid), Place(at[fid]))
    return state


def from_position(
    team1: list[Hero], team2: list[Hero], arena: str, position: str, **options: Any
) -> SuperheroGladiatorsState:
    """A match that starts from ``position``, in the format of ``--position FILE``
    (docs/rules/superhero-gladiators.md, "Positions"). Budgets are lifted."""
    values = {
        "teams": [[hero_to_data(h) for h in team1], [hero_to_data(h) for h in team2]],
        "map": arena,
        "power_points": 100_000,
        "position": position,
        **options,
    }
    state = GAME.start(values, 2, 0)
    assert isinstance(state, SuperheroGladiatorsState)
    return state


def act(state: SuperheroGladiatorsState, text: str, dice: list[int] | None = None) -> None:
    """The awaited seat plays ``text`` with the dice forced (none left over)."""
    if dice is not None:
        state.rng.force(dice)
    state.act(state.awaiting()[0], text)
    if dice is not None:
        assert state.rng.forced_left == 0, "not every forced die was used"


def texts(state: SuperheroGladiatorsState, start: int = 0) -> list[str]:
    return [e.text for e in state.events[start:]]


def skip_to(state: SuperheroGladiatorsState, fid: str, limit: int = 30) -> None:
    """Every other hero passes until ``fid`` is to act."""
    for _ in range(limit):
        if state.actor == fid and not state.pending:
            return
        state.act(state.awaiting()[0], "pass")
    raise AssertionError(f"{fid} never came to act")


def legal(state: SuperheroGladiatorsState) -> list[str]:
    return [str(a) for a in state.legal_actions(state.awaiting()[0])]


#: The usual attacker: Str 3 Dex 5 Size 3 Per 4 -> Combat 13, oomph 27, Speed 15
#: (segments 1, 3, 5), Movement 5; it acts before the usual defender.
ATTACKER = {"strength": 3, "dexterity": 5, "size": 3, "perception": 4}
#: The usual defender: Str 3 Dex 4 Size 4 Per 4 -> Combat 11, oomph 36, Speed 16
#: (segments 1, 3, 5, 6), Movement 4. The attacker's To-Hit Number against it is 17.
DEFENDER = {"strength": 3, "dexterity": 4, "size": 4, "perception": 4}


def attacker(*powers: Power, name: str = "Attacker") -> Hero:
    return arena_hero(name, *powers, **ATTACKER)


def defender(*powers: Power, name: str = "Defender") -> Hero:
    return arena_hero(name, *powers, **DEFENDER)
