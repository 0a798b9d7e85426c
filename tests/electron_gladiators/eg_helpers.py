"""Small arenas for scenario tests: a few vehicles, a few obstacles, exact dice."""

from __future__ import annotations

from typing import Any

from gladiatorium.games.electron_gladiators import ElectronGladiators, ElectronGladiatorsState
from gladiatorium.games.electron_gladiators.board import SIZE, parse_square

GAME = ElectronGladiators()


def setup_text(vehicles: list[str], obstacles: str = "", walls: str = "") -> str:
    """``vehicles`` as 'SEAT TYPE SQUARE FACING' lines; obstacles and walls as square lists."""
    grid = [["."] * SIZE for _ in range(SIZE)]
    for name in obstacles.split():
        c, r = parse_square(name)
        grid[r][c] = "O"
    for name in walls.split():
        c, r = parse_square(name)
        grid[r][c] = "X"
    lines = ["name test arena", "map"]
    lines += [f"{r + 1} {''.join(row)}" for r, row in enumerate(grid)]
    lines += [f"vehicle {v}" for v in vehicles]
    return "\n".join(lines) + "\n"


def arena(
    vehicles: list[str], obstacles: str = "", walls: str = "", **options: Any
) -> ElectronGladiatorsState:
    state = GAME.start({"setup": setup_text(vehicles, obstacles, walls), **options}, None, 1)
    assert isinstance(state, ElectronGladiatorsState)
    return state


def legal(state: ElectronGladiatorsState, seat: str | None = None) -> set[str]:
    return {str(a) for a in state.legal_actions(seat or state.awaiting()[0])}


def where(state: ElectronGladiatorsState) -> dict[str, str]:
    """square -> 'seat TYPE FACING' for every vehicle."""
    return {
        v["square"]: f"{v['seat']} {v['type']} {v['facing']}" for v in state.view(None)["vehicles"]
    }
