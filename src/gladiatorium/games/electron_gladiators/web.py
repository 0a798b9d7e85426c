"""The web picture of an Electron Gladiators match: the 21 x 21 arena as SVG (obstacles,
walls, vehicles with their facing, flyers), whose move it is and the speed points left.

Selecting any vehicle (a click, or Enter on it) draws its reach as ``look`` does: the
squares its gun hits directly (``d``), its parabolic band (``p``, needs a spotter), what
it only sees (``s``, so it spots for the others) and its arc where terrain blocks
(``a``); each kind is a letter as well as a colour. A vehicle of the seat to move also
opens its controls: drive, turn and fly buttons with what each costs and the speed
points left, and its shots (alone or with a second gun, direct or parabolic with the
spotters named, the chance to destroy). The Scout's owner gets the dodge question.

Everything on this board is open to both players; the picture is built from
``view(seat)`` (the arena is rebuilt from it), the match options and the seat's legal
actions; every name is escaped."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gladiatorium.core import Action, Code, OptionChoice, Seat, State, WebPresenter
from gladiatorium.core.web_parts import TEAM_FILLS, acts_attr, button, e
from gladiatorium.games.electron_gladiators.actions import Drive, Fly, Turn
from gladiatorium.games.electron_gladiators.arena import Arena
from gladiatorium.games.electron_gladiators.attacks import (
    AttackOption,
    attack_options,
    no_attack_reason,
)
from gladiatorium.games.electron_gladiators.board import FACINGS, parse_square, square_name
from gladiatorium.games.electron_gladiators.explain import why_not
from gladiatorium.games.electron_gladiators.options import ElectronGladiatorsOptions
from gladiatorium.games.electron_gladiators.render import reach_marks
from gladiatorium.games.electron_gladiators.setups import SHIPPED
from gladiatorium.games.electron_gladiators.state import ElectronGladiatorsState
from gladiatorium.games.electron_gladiators.terminal import NOTATION
from gladiatorium.games.electron_gladiators.vehicles import TYPES, Vehicle, type_line

COLUMNS = "ABCDEFGHIJKLMNOPQRSTU"
SIZE = 21
CELL = 30
PAD = 18
FIRE = re.compile(r"^fire (\w+) at (\w+)(?: with (\w+))?$")
STEP = re.compile(r"^([A-U]\d+) (fwd|rev|turn|fly) (.+)$")
ANGLE = {"N": 0, "NE": 45, "E": 90, "SE": 135, "S": 180, "SW": 225, "W": 270, "NW": 315}
#: the reach marks, as ``look`` names them: (letter, what it means, fill)
MARKS = (
    ("d", "direct fire", "#ee6677"),
    ("p", "parabolic band (needs a spotter)", "#ccbb44"),
    ("s", "seen only (spots for the others)", "#66ccee"),
    ("a", "in the arc, blocked", "#bbbbbb"),
)


@dataclass(frozen=True)
class Controls:
    """What one vehicle of the seat to move may do now, by kind of step."""

    vehicle: Vehicle
    points: int
    steps: dict[str, list[str]]  # "fwd" / "rev" / "turn" / "fly" -> actions
    shots: list[str]


def arena_of(view: Mapping[str, Any]) -> Arena:
    """The arena as the view shows it (idents follow the view's order)."""
    arena = Arena(
        frozenset(parse_square(s) for s in view["obstacles"]),
        frozenset(parse_square(s) for s in view["walls"]),
    )
    for ident, v in enumerate(view["vehicles"], start=1):
        facing = None if v["facing"] is None else FACINGS.index(v["facing"])
        arena.place(Vehicle(ident, str(v["seat"]), v["type"], parse_square(v["square"]), facing))
    return arena


def web_picture(
    view: Mapping[str, Any],
    legal: Sequence[str],
    options: ElectronGladiatorsOptions,
    costs: Mapping[str, int],
    why: Callable[[str], str | None] = lambda text: None,
    over: bool = False,
) -> str:
    """The page's picture; ``costs``: the speed points each legal step costs; ``why``:
    the engine's reason a typed action is refused (explain.why_not), told beside a
    vehicle's controls for the steps it lacks."""
    arena = arena_of(view)
    acts: dict[str, list[str]] = {}
    targets: dict[str, list[str]] = {}
    other: list[str] = []
    for action in legal:
        if m := STEP.match(action):
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
    parts = ['<div class="eg">', head(view, over)]
    if other:
        parts.append(prompt(view, other))
    parts.append('<div class="eg-grid"><div class="eg-board">')
    parts.append(arena_svg(view, arena, options, acts, targets))
    parts.append(reach_legend())
    parts.append('</div><div class="eg-side">')
    parts.append(controls(view, arena, options, legal, costs, why))
    parts.append(roster(view))
    parts.append("</div></div></div>")
    return "".join(parts)


def head(view: Mapping[str, Any], over: bool = False) -> str:
    """Whose move it is and how far it went; once the match is over, that it is (the
    view's turn has moved past the last one played when a turn's end drew the match, so
    the result, which names the limit, says how far it went)."""
    if over:
        return f'<p class="pic-head">{e(view["setup"])}: the match is over; the final position</p>'
    text = f"{e(view['setup'])}: turn {e(view['turn'])}; seat {e(view['to_move'])} to move"
    if view.get("mover"):
        text += (
            f"; moving <strong>{e(view['mover'])}</strong>, "
            f'<strong class="points-left">{e(view["points_left"])} speed points left</strong>'
        )
    text += "; attack made" if view.get("attacked") else "; attack open"
    if view.get("pending_dodge"):
        text += f"; the Scout on {e(view['pending_dodge']['scout'])} was missed and may dodge"
    return f'<p class="pic-head">{text}</p>'


def prompt(view: Mapping[str, Any], other: list[str]) -> str:
    """The dodge question, or ending the move / passing up the attack."""
    lines = []
    dodge = view.get("pending_dodge")
    if dodge:
        lines.append(
            f"<p><strong>Your Scout on {e(dodge['scout'])} was missed</strong>: it dodges one "
            "square forward or 45 degrees aside. Choose where (lit on the board).</p>"
        )
    ending = (
        "End the move (the attack may follow)"
        if view.get("mover") and not view.get("move_over")
        else "End the turn (pass up the attack)"
    )
    labels = {"end": ending}
    buttons = "".join(
        button(labels.get(a, f"Dodge to {a.split()[1]}" if a.startswith("dodge ") else a), [a], a)
        for a in other
    )
    lines.append(f'<div class="buttons">{buttons}</div>')
    return f'<div class="pic-prompt" role="status">{"".join(lines)}</div>'


def reach_of(arena: Arena, vehicle: Vehicle, options: ElectronGladiatorsOptions) -> str:
    """The ``data-marks`` of a vehicle: its reach, square names by mark."""
    marks: dict[str, list[str]] = {letter: [] for letter, _, _ in MARKS}
    for square, letter in sorted(reach_marks(arena, vehicle, options).items()):
        if not arena.is_obstacle(square):  # as look draws it: terrain shows through
            marks[letter].append(square_name(square))
    return e(json.dumps({k: v for k, v in marks.items() if v}, separators=(",", ":")))


def describe(vehicle: Vehicle) -> str:
    """A vehicle's tip: its seat, name, square and facing, its code and the type's line."""
    kind = vehicle.kind
    facing = f" facing {FACINGS[vehicle.facing]}" if vehicle.facing is not None else ""
    return (
        f"seat {vehicle.seat} {kind.name} on {square_name(vehicle.square)}{facing} "
        f"({kind.code}: {type_line(kind)})"
    )


def arena_svg(
    view: Mapping[str, Any],
    arena: Arena,
    options: ElectronGladiatorsOptions,
    acts: dict[str, list[str]],
    targets: dict[str, list[str]],
    looked: bool = True,
) -> str:
    """The arena as SVG; ``looked``: each vehicle may be selected to draw its reach (not
    on a small drawing of a set-up)."""
    side = PAD + SIZE * CELL + 2
    obstacles, walls = set(view["obstacles"]), set(view["walls"])
    out = [
        f'<svg class="egarena" viewBox="0 0 {side} {side}" role="group" '
        'aria-label="The arena, 21 by 21 squares, row 1 at the top" '
        f'style="max-width:{side * 1.3:.0f}px">',
        defs(),
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
            mine, shots = acts.get(name, []), targets.get(name, [])
            vehicle = arena.vehicle_at((c, r))
            attr = acts_attr(mine + shots, then=not mine)
            title = name
            if vehicle is not None:
                title = describe(vehicle)
            if vehicle is not None and looked:
                attr += f' data-marks="{reach_of(arena, vehicle, options)}"'
                attr += f' data-marks-title="{e("Reach of the " + title)}"'
                attr += ' data-tip=""'  # a tap shows the vehicle's line (codes.js)
                if "tabindex" in attr:  # every vehicle can be looked at from the keyboard
                    attr = attr.replace('tabindex="-1"', 'tabindex="0"')
                else:
                    attr += ' tabindex="0" role="button"'
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


def defs() -> str:
    """The obstacle hatching and one fill per reach mark: its colour and its letter, so
    a mark is told by its letter as well as its colour."""
    out = [
        '<defs><pattern id="eghatch" width="5" height="5" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="5" height="5" fill="#bbbbbb"/>'
        '<line x1="0" y1="0" x2="0" y2="5" stroke="#555" stroke-width="2"/></pattern>'
    ]
    for letter, _, colour in MARKS:
        out.append(
            f'<pattern id="egm-{letter}" x="{PAD}" y="{PAD}" width="{CELL}" height="{CELL}" '
            f'patternUnits="userSpaceOnUse"><rect width="{CELL}" height="{CELL}" '
            f'fill="{colour}" fill-opacity="0.5"/><text x="4" y="11" class="egmark">{letter}'
            "</text></pattern>"
        )
    out.append("</defs>")
    return "".join(out)


def reach_legend() -> str:
    items = "".join(
        f'<li><span class="chip" style="border-color:{colour}">{letter}</span> {what}</li>'
        for letter, what, colour in MARKS
    )
    return (
        '<p class="look-caption" id="look-caption" aria-live="polite">'
        "Select a vehicle to draw its arc, ranges and line of sight.</p>"
        f'<ul class="legend plain">{items}<li>hatched: obstacle</li><li>dark: wall</li>'
        "<li>square token with a pointer: a tank and its facing</li>"
        "<li>diamond: a flyer</li></ul>"
    )


def token(vehicle: Vehicle, x: float, y: float) -> str:
    seat = vehicle.seat
    colour = TEAM_FILLS[(int(seat) - 1) % len(TEAM_FILLS)] if seat.isdigit() else "#999"
    cx, cy = x + CELL / 2, y + CELL / 2
    out = ['<g pointer-events="none">']
    if vehicle.facing is None:
        h = CELL / 2 - 2
        out.append(
            f'<polygon points="{cx},{cy - h} {cx + h},{cy} {cx},{cy + h} {cx - h},{cy}" '
            f'fill="{colour}" stroke="#000" stroke-width="1"/>'
        )
    else:
        # seat 2's tanks are drawn with a dashed edge: a team is never told by colour alone
        dash = ' stroke-dasharray="3 1.5"' if seat == "2" else ""
        out.append(
            f'<rect x="{x + 3}" y="{y + 3}" width="{CELL - 6}" height="{CELL - 6}" rx="3" '
            f'fill="{colour}" stroke="#000" stroke-width="1"{dash}/>'
        )
        angle = ANGLE[FACINGS[vehicle.facing]]
        out.append(
            f'<polygon points="{cx},{y - 1} {cx - 4},{y + 5} {cx + 4},{y + 5}" fill="#000" '
            f'transform="rotate({angle} {cx} {cy})"/>'
        )
    label = vehicle.code if seat == "1" else vehicle.code.lower()
    out.append(f'<text class="egtok" x="{cx}" y="{cy + 3.5}">{e(label)}</text></g>')
    return "".join(out)


# ----- the controls of the seat to move --------------------------------------------------
def controls(
    view: Mapping[str, Any],
    arena: Arena,
    options: ElectronGladiatorsOptions,
    legal: Sequence[str],
    costs: Mapping[str, int],
    why: Callable[[str], str | None],
) -> str:
    """A panel per vehicle of the seat to move, shown once the vehicle is selected, each
    saying why it lacks a step; and, when no attack is open, the rule that stops it."""
    if not legal:
        return ""
    mover = arena.vehicle_at(parse_square(view["mover"])) if view.get("mover") else None
    mover_ident = None if mover is None else mover.ident
    seat = str(view["to_move"])
    shots = attack_options(arena, seat, mover_ident, options)
    no_attack = ""
    if not shots and not view["attacked"] and not view.get("pending_dodge"):
        reason = no_attack_reason(arena, seat, mover_ident, options)
        no_attack = f'<p class="eg-why" id="eg-no-attack">No attack now: {e(reason)}.</p>'
    by_lead: dict[str, list[AttackOption]] = {}
    for shot in shots:
        by_lead.setdefault(square_name(shot.lead.square), []).append(shot)
    panels = []
    for vehicle in sorted(arena.side(str(view["to_move"])), key=lambda v: v.square[::-1]):
        name = square_name(vehicle.square)
        steps: dict[str, list[str]] = {}
        for action in legal:
            if (m := STEP.match(action)) and m[1] == name:
                steps.setdefault(m[2], []).append(action)
        lead = [s for s in by_lead.get(name, []) if fire_text(s) in legal]
        if not steps and not lead:
            continue
        points = view["points_left"] if mover is vehicle else vehicle.kind.speed
        chosen = Controls(vehicle, points, steps, [fire_text(s) for s in lead])
        reasons = missing_steps(vehicle, steps, legal, why)
        panels.append(panel(chosen, costs, reasons + shot_list(lead, arena, options)))
    if not panels:
        return no_attack
    return (
        '<section class="eg-controls" aria-label="Controls of the selected vehicle">'
        '<p class="muted eg-hint">Select one of your vehicles for its drive, turn, fly and '
        "fire controls.</p>" + no_attack + "".join(panels) + "</section>"
    )


#: the steps a ground vehicle may lack, tried as typed to hear the engine's reason
TRIED_STEPS = (("fwd", "fwd 1"), ("rev", "rev 1"), ("turn", "turn r45"), ("turn", "turn l45"))


def missing_steps(
    vehicle: Vehicle,
    steps: Mapping[str, list[str]],
    legal: Sequence[str],
    why: Callable[[str], str | None],
) -> str:
    """Why a ground vehicle lacks a step (driving ahead, reversing, a 45-degree turn),
    in the engine's words: a Scout left with only 'turn 180' says why."""
    if vehicle.kind.flyer:
        return ""
    name = square_name(vehicle.square)
    reasons: list[str] = []
    for kind, words in TRIED_STEPS:
        text = f"{name} {words}"
        if text in legal or (kind != "turn" and kind in steps):
            continue
        reason = why(text)
        if reason and reason not in reasons:
            reasons.append(reason)
    if not reasons:
        return ""
    items = "".join(f"<li>{e(r)}</li>" for r in reasons)
    return f'<ul class="eg-why plain" aria-label="Why not">{items}</ul>'


def fire_text(shot: AttackOption) -> str:
    helper = f" with {square_name(shot.helper.square)}" if shot.helper else ""
    return f"fire {square_name(shot.lead.square)} at {square_name(shot.target.square)}{helper}"


STEP_WORDS = {"fwd": "Drive forward", "rev": "Reverse", "turn": "Turn", "fly": "Fly"}


def panel(c: Controls, costs: Mapping[str, int], shots: str) -> str:
    """One vehicle's controls: its steps with their cost, then ``shots`` (its fire)."""
    every = [a for acts in c.steps.values() for a in acts] + c.shots
    name = square_name(c.vehicle.square)
    out = [
        f'<div class="hint vehicle-controls" data-vehicle="{name}"{acts_attr(every, focus=False)}>'
        f"<h3>{e(c.vehicle.kind.name)} on {name}: "
        f'<span class="points-left">{c.points} speed points left</span></h3>'
    ]
    for kind, acts in c.steps.items():
        buttons = []
        for action in acts:
            words = action.split(maxsplit=2)[2]  # "2", "r45", "SE 3"
            cost = costs.get(action)
            price = "free" if cost == 0 else f"{cost} pt" if cost == 1 else f"{cost} pts"
            buttons.append(button(f"{words} · {price}", [action], action, f"step {kind}"))
        out.append(
            f'<p class="step-row"><span class="step-kind">{STEP_WORDS[kind]}</span> '
            f'<span class="buttons">{"".join(buttons)}</span></p>'
        )
    out.append(f"{shots}</div>")
    return "".join(out)


def shot_list(shots: list[AttackOption], arena: Arena, options: ElectronGladiatorsOptions) -> str:
    """Each shot of the lead gun: alone or with a second gun, how it reaches the target
    (direct, or parabolic and who spots), the chance to destroy it."""
    if not shots:
        return ""
    rows = []
    for shot in shots:
        target = square_name(shot.target.square)
        aim = arena.gun_aim(shot.lead, shot.target, options)
        if aim is not None and aim[0]:
            how = "direct"
        else:
            spotters = [
                square_name(s.square)
                for s in arena.spotters(shot.lead.seat, shot.target.square)
                if s.ident != shot.lead.ident or options.self_spotting
            ]
            how = f"parabolic, spotted by {', '.join(spotters)}"
        helper = f" + second gun {square_name(shot.helper.square)}" if shot.helper else ""
        label = (
            f"Fire at {shot.target.code} on {target}{helper} ({how}; "
            f"destroys {round(shot.chance * 100)}%)"
        )
        kind = "fire second-gun" if shot.helper else "fire"
        tip = {
            "title": f"{shot.target.code}: {shot.target.kind.name}: {type_line(shot.target.kind)}"
        }
        rows.append(button(label, [fire_text(shot)], fire_text(shot), kind, tip))
    return (
        '<p class="step-row"><span class="step-kind">Fire</span></p>'
        f'<div class="buttons shots">{"".join(rows)}</div>'
    )


def roster(view: Mapping[str, Any]) -> str:
    counts = {s: sum(1 for v in view["vehicles"] if v["seat"] == s) for s in ("1", "2")}
    return (
        f'<p class="eg-roster">Vehicles: seat 1 {counts["1"]} (upper case, solid edge), '
        f"seat 2 {counts['2']} (lower case, dashed edge); {e(view['quiet_turns'])} turns "
        "without a loss.</p>"
    )


#: the web board, told after the actions' notation (the terminal tells its ASCII board)
WEB_BOARD = """Board: seat 1's vehicles in one colour, seat 2's in the other, each with its
code and an arrow for its facing; hatched squares are obstacles, dark ones walls.
Select a vehicle (click, or Enter on it) to see its reach (d direct, p parabolic,
s sight only, a arc) and, on your move, its drive, turn, fly and fire buttons with
their costs. The rules: /rules/electron-gladiators (the arena, set-ups, rulings)."""


class ElectronGladiatorsWeb(WebPresenter):
    """Electron Gladiators on the match page: the arena as SVG with every control."""

    def codes(self) -> tuple[Code, ...]:
        """The eight vehicle types: codes, names and lines (the game's vehicle table)."""
        return tuple(
            Code(t.code, t.name, type_line(t), "the-rules-in-our-words") for t in TYPES.values()
        )

    def option_choices(self) -> dict[str, list[OptionChoice]]:
        """The shipped set-ups, each drawn as the match page draws the arena at the
        start, and a set-up of the player's own (its text, as in a set-up file)."""
        choices = [
            OptionChoice(name, name, {"setup": name}, setup_preview(self.game, name))
            for name in SHIPPED
        ]
        choices.append(OptionChoice("", "my own set-up (its text, as in a set-up file)", {}))
        return {"setup": choices}

    def notation_help(self) -> str:
        """The terminal's notation for typed actions, then the web board's words."""
        return NOTATION.split("\nBoard:", 1)[0] + "\n" + WEB_BOARD

    def picture(self, state: State[ElectronGladiatorsOptions], seat: Seat | None) -> str | None:
        """The arena, its vehicles and what the seat may do, for the web page."""
        assert isinstance(state, ElectronGladiatorsState)
        actions = state.legal_actions(seat) if seat is not None else []
        return web_picture(
            state.view(seat),
            [str(a) for a in actions],
            state.options,
            {str(a): cost for a in actions if (cost := step_cost(state, a)) is not None},
            (lambda text: why_not(state, seat, text)) if seat is not None else lambda text: None,
            over=state.outcome() is not None,
        )


def setup_preview(game: Any, name: str) -> str:
    """The arena as a match of the shipped set-up ``name`` starts (nothing to click)."""
    state = game.start({"setup": name}, 2, 0)
    view = state.view(None)
    return arena_svg(view, arena_of(view), state.options, {}, {}, looked=False)


def step_cost(state: ElectronGladiatorsState, action: Action) -> int | None:
    """The speed points a drive, turn or flight costs (None: not a step)."""
    if isinstance(action, Drive | Fly):
        return action.squares
    if isinstance(action, Turn):
        vehicle = state.arena.vehicle_at(parse_square(action.at))
        return None if vehicle is None else state.turn_cost(vehicle, action.turn)
    return None
