"""Terminal pictures of the arena: the board, and on request one vehicle's reach."""

from __future__ import annotations

from gladiatorium.games.electron_gladiators.arena import Arena
from gladiatorium.games.electron_gladiators.board import (
    COLUMNS,
    SIZE,
    Square,
    distance,
    in_arc,
    square_name,
)
from gladiatorium.games.electron_gladiators.options import ElectronGladiatorsOptions
from gladiatorium.games.electron_gladiators.vehicles import Vehicle

ARROWS = "↑↗→↘↓↙←↖"
SHORT = {
    "INV": "IN",
    "HT2": "H2",
    "HT1": "H1",
    "MT2": "M2",
    "MT1": "M1",
    "LT": "LT",
    "SC": "SC",
    "MQ": "MQ",
}
COLOURS = {"1": "bold cyan", "2": "bold magenta"}
#: between two cells of a row
CELL_GAP = " "


def vehicle_cell(vehicle: Vehicle, markup: bool) -> str:
    """Two letters for the type (seat 1 upper case, seat 2 lower case) and an arrow
    for the facing (``~`` for flyers, which ignore facing)."""
    code = SHORT[vehicle.code]
    code = code if vehicle.seat == "1" else code.lower()
    mark = "~" if vehicle.facing is None else ARROWS[vehicle.facing]
    text = f"{code}{mark}"
    return f"[{COLOURS[vehicle.seat]}]{text}[/]" if markup else text


def board_text(arena: Arena, marks: dict[Square, str] | None = None, markup: bool = True) -> str:
    """The 21x21 board: ``###`` obstacle, `` X `` 3D obstacle, `` . `` open ground;
    ``marks`` overlays a character on chosen open squares. Every cell is three
    characters wide and cells are kept apart by a space, so two vehicles side by side
    (``H1↓ M1↓``) never run together."""
    marks = marks or {}
    header = "    " + CELL_GAP.join(f" {c} " for c in COLUMNS)
    lines = [header]
    for r in range(SIZE):
        cells = []
        for c in range(SIZE):
            square = (c, r)
            vehicle = arena.vehicle_at(square)
            if vehicle is not None:
                cells.append(vehicle_cell(vehicle, markup))
            elif square in arena.walls:
                cells.append(" X ")
            elif square in arena.obstacles:
                cells.append("###")
            elif square in marks:
                cells.append(f" {marks[square]} ")
            else:
                cells.append(" . ")
        lines.append(f"{r + 1:>3} " + CELL_GAP.join(cells) + f" {r + 1}")
    lines.append(header)
    return "\n".join(lines)


def reach_marks(
    arena: Arena, vehicle: Vehicle, options: ElectronGladiatorsOptions | None = None
) -> dict[Square, str]:
    """Squares a vehicle reaches: ``d`` direct fire (attack angle, range, clear
    line), ``p`` parabolic band only (needs a spotter), ``s`` seen but out of its
    gun's reach, ``a`` in its arc of sight but neither seen nor reachable."""
    options = options or ElectronGladiatorsOptions()
    kind = vehicle.kind
    marks: dict[Square, str] = {}
    for c in range(SIZE):
        for r in range(SIZE):
            square = (c, r)
            if square == vehicle.square:
                continue
            gap = distance(vehicle.square, square)
            facing = vehicle.facing
            sight_arc = kind.flyer or (
                facing is not None and in_arc(vehicle.square, facing, square)
            )
            gun_arc = kind.gun > 0 and arena.gun_faces(vehicle, square, options)
            if kind.flyer and not arena.line_clear(vehicle.square, square, arena.is_wall, False):
                gun_arc = False  # a flyer's gun never fires past a 3D obstacle (R28)
            blocks = arena.is_wall if kind.flyer else arena.blocks_direct_fire
            if (
                gun_arc
                and gap <= kind.direct
                and arena.line_clear(vehicle.square, square, blocks, kind.scout)
            ):
                marks[square] = "d"
            elif gun_arc and kind.parabolic and kind.parabolic[0] <= gap <= kind.parabolic[1]:
                marks[square] = "p"
            elif arena.sees(vehicle, square):
                marks[square] = "s"
            elif sight_arc and not kind.flyer and gap <= max(kind.direct, kind.telemetry):
                marks[square] = "a"
    return marks


def reach_text(
    arena: Arena,
    vehicle: Vehicle,
    markup: bool = True,
    options: ElectronGladiatorsOptions | None = None,
) -> str:
    """The board with one vehicle's firing arc, ranges and line of sight."""
    kind = vehicle.kind
    options = options or ElectronGladiatorsOptions()
    angle = 0 if not kind.gun else 360 if kind.flyer else 90
    if kind.scout:
        angle = options.scout_attack_angle
    band = (
        f"parabolic {kind.parabolic[0]}-{kind.parabolic[1]}"
        if kind.parabolic
        else "no parabolic gun"
    )
    legend = (
        f"{kind.name} on {square_name(vehicle.square)} (seat {vehicle.seat}): gun {kind.gun} "
        f"(attack angle {angle}), direct {kind.direct}, {band}, telemetry {kind.telemetry}\n"
        "d = direct fire (arc, range, clear line)  p = parabolic band (needs a spotter)  "
        "s = seen only  a = in the arc, blocked"
    )
    return board_text(arena, reach_marks(arena, vehicle, options), markup) + "\n" + legend
