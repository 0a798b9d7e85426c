"""The web picture of an Electron Gladiators match: the 21 x 21 arena as SVG (obstacles,
walls, vehicles with their facing, flyers), whose move it is and the speed points left.
Click a vehicle to list what it may do (drive, turn, fly, fire) with its targets lit; a
target then narrows to the shots at it. Built only from ``view(seat)`` and the seat's
legal actions; every name escaped."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from gladiatorium.games.web_parts import TEAM_FILLS, acts_attr, button, e

COLUMNS = "ABCDEFGHIJKLMNOPQRSTU"
SIZE = 21
CELL = 30
PAD = 18
FIRE = re.compile(r"^fire (\w+) at (\w+)(?: with (\w+))?$")
DRIVE = re.compile(r"^([A-U]\d+) (fwd|rev|turn|fly) ")
ANGLE = {"N": 0, "NE": 45, "E": 90, "SE": 135, "S": 180, "SW": 225, "W": 270, "NW": 315}
FLYERS = {"INV", "MQ"}


def web_picture(view: dict[str, Any], legal: Sequence[str]) -> str:
    acts: dict[str, list[str]] = {}
    targets: dict[str, list[str]] = {}
    other: list[str] = []
    for action in legal:
        if m := DRIVE.match(action):
            acts.setdefault(m[1], []).append(action)
        elif m := FIRE.match(action):
            acts.setdefault(m[1], []).append(action)
            targets.setdefault(m[2], []).append(action)
            if m[3]:
                acts.setdefault(m[3], []).append(action)
        elif action.startswith("dodge "):
            acts.setdefault(action.split()[1], []).append(action)
            other.append(action)
        else:
            other.append(action)
    parts = ['<div class="eg">']
    head = f"{e(view['setup'])}: turn {e(view['turn'])}; seat {e(view['to_move'])} to move"
    if view.get("mover"):
        head += f"; moving {e(view['mover'])}, {e(view['points_left'])} speed points left"
    if view.get("pending_dodge"):
        head += f"; a missed Scout may dodge ({e(view['pending_dodge'])})"
    parts.append(f'<p class="pic-head">{head}</p>')
    if other:
        labels = {"end": "End (the move, or pass up the attack)"}
        buttons = "".join(button(labels.get(a, a), [a], a) for a in other)
        parts.append(f'<div class="pic-prompt"><div class="buttons">{buttons}</div></div>')
    parts.append(arena(view, acts, targets))
    parts.append(
        '<ul class="legend plain"><li>hatched: obstacle</li><li>dark: wall</li>'
        "<li>square token with a pointer: a tank and its facing</li>"
        "<li>diamond: a flyer</li><li>click a vehicle, then a lit target or a choice</li></ul>"
    )
    parts.append("</div>")
    return "".join(parts)


def arena(view: dict[str, Any], acts: dict[str, list[str]], targets: dict[str, list[str]]) -> str:
    side = PAD + SIZE * CELL + 2
    obstacles, walls = set(view["obstacles"]), set(view["walls"])
    at = {v["square"]: v for v in view["vehicles"]}
    out = [
        f'<svg class="egarena" viewBox="0 0 {side} {side}" role="img" '
        'aria-label="The arena, 21 by 21 squares, row 1 at the top" '
        f'style="max-width:{side * 1.3:.0f}px">'
        '<defs><pattern id="eghatch" width="5" height="5" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="5" height="5" fill="#bbbbbb"/>'
        '<line x1="0" y1="0" x2="0" y2="5" stroke="#555" stroke-width="2"/></pattern></defs>'
    ]
    for c in range(SIZE):
        x = PAD + c * CELL + CELL / 2
        out.append(f'<text class="coord" x="{x}" y="13">{COLUMNS[c]}</text>')
    for r in range(SIZE):
        out.append(f'<text class="coord" x="9" y="{PAD + r * CELL + CELL / 2 + 4}">{r + 1}</text>')
    for r in range(SIZE):
        for c in range(SIZE):
            name = f"{COLUMNS[c]}{r + 1}"
            x, y = PAD + c * CELL, PAD + r * CELL
            mine = acts.get(name, [])
            shots = targets.get(name, [])
            vehicle = at.get(name)
            title = name
            if vehicle is not None:
                title += f" seat {vehicle['seat']} {vehicle['type']}"
                if vehicle["facing"]:
                    title += f" facing {vehicle['facing']}"
            attr = acts_attr(mine + shots, then=not mine)
            fill = (
                'fill="url(#eghatch)"'
                if name in obstacles
                else 'fill="#444"'
                if name in walls
                else 'class="floor"'
            )
            out.append(
                f'<g class="sq" data-sq="{name}"{attr}><title>{e(title)}</title>'
                f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" {fill} '
                'stroke="#c9c4b8" stroke-width="0.5"/>'
            )
            if vehicle is not None:
                out.append(token(vehicle, x, y))
            out.append(
                f'<rect class="mark" x="{x + 1.5}" y="{y + 1.5}" width="{CELL - 3}" '
                f'height="{CELL - 3}" rx="3"/></g>'
            )
    out.append("</svg>")
    return "".join(out)


def token(vehicle: dict[str, Any], x: float, y: float) -> str:
    seat = str(vehicle["seat"])
    colour = TEAM_FILLS[(int(seat) - 1) % len(TEAM_FILLS)] if seat.isdigit() else "#999"
    cx, cy = x + CELL / 2, y + CELL / 2
    kind = str(vehicle["type"])
    out = ['<g pointer-events="none">']
    if kind in FLYERS or not vehicle["facing"]:
        h = CELL / 2 - 2
        out.append(
            f'<polygon points="{cx},{cy - h} {cx + h},{cy} {cx},{cy + h} {cx - h},{cy}" '
            f'fill="{colour}" stroke="#000" stroke-width="1"/>'
        )
    else:
        out.append(
            f'<rect x="{x + 3}" y="{y + 3}" width="{CELL - 6}" height="{CELL - 6}" rx="3" '
            f'fill="{colour}" stroke="#000" stroke-width="1"/>'
        )
        angle = ANGLE.get(str(vehicle["facing"]), 0)
        out.append(
            f'<polygon points="{cx},{y - 1} {cx - 4},{y + 5} {cx + 4},{y + 5}" fill="#000" '
            f'transform="rotate({angle} {cx} {cy})"/>'
        )
    out.append(f'<text class="egtok" x="{cx}" y="{cy + 3.5}">{e(kind)}</text></g>')
    return "".join(out)
