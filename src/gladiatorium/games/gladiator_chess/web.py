"""The web picture of a Gladiator Chess match: the 12 x 10 board as SVG (pieces with hit
points, moved marks, frozen pieces under their queen), the tally, whose command moves
next, the last fight's dice and the King's controls (let / override). Clicking one of
my pieces lights its moves; each fight shows the odds that ``look`` gives. Built from
the view, the seat's legal actions and ``look`` (all public in this game)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from gladiatorium.core import Code, Seat, State, WebPresenter
from gladiatorium.core.web_parts import abbr, acts_attr, button, e
from gladiatorium.games.gladiator_chess.board import FILES, HEIGHT, WIDTH
from gladiatorium.games.gladiator_chess.look import look
from gladiatorium.games.gladiator_chess.options import GladiatorChessOptions
from gladiatorium.games.gladiator_chess.pieces import KIND_LINES, KIND_NAMES, KINDS
from gladiatorium.games.gladiator_chess.state import GladiatorChessState

CELL = 44
PAD = 18
MOVE = re.compile(
    r"^(?P<who>[^:]+): (?P<kind>[A-Z]+) (?P<frm>[a-l]\d+)(?P<sep>[-x])(?P<to>[a-l]\d+)"
)
TARGET = re.compile(r"([a-l]\d+)(?: \(([^)]*)\))?")
KILLS = re.compile(r"kills it (\d+%)")
#: the rules page's section on the pieces
PIECES_RULE = "the-rules-in-our-words"
#: the ten pieces as codes (the game's pieces table), by code
PIECE_CODES = {k: Code(k, KIND_NAMES[k], KIND_LINES[k], PIECES_RULE) for k in KINDS}


def web_picture(
    view: dict[str, Any], legal: Sequence[str], look: Callable[[str], str], over: bool = False
) -> str:
    from_acts: dict[str, list[str]] = {}
    to_acts: dict[str, list[str]] = {}
    overrides: dict[str, list[str]] = {}
    other: list[str] = []
    fights: dict[str, tuple[str, str]] = {}  # action -> (target, odds text)
    for action in legal:
        m = MOVE.match(action)
        if m is None:
            other.append(action)
            continue
        from_acts.setdefault(m["frm"], []).append(action)
        to_acts.setdefault(m["to"], []).append(action)
        if " overrides " in m["who"]:
            overrides.setdefault(m["who"].split(" overrides ", 1)[1], []).append(action)
        if m["sep"] == "x":
            fights[action] = (m["to"], "")
    # the odds of each fight, as 'look' tells them
    seen: dict[str, dict[str, str]] = {}
    for action, (target, _) in list(fights.items()):
        frm = MOVE.match(action)["frm"]  # type: ignore[index]
        if frm not in seen:
            seen[frm] = {sq: what or "" for sq, what in TARGET.findall(look_tail(look, frm))}
        fights[action] = (target, seen[frm].get(target, ""))

    parts = ['<div class="gc">']
    whose = f"{view['team']} {view['commander']}"
    head = f"Turn {e(view['turn'])}"
    if view.get("turn_limit"):
        head += f" of {e(view['turn_limit'])}"
    if over:
        head += "; the match is over: the final position"
    else:
        head += f"; the <strong>{e(whose)}</strong>'s command moves next"
    if view["phase"] == "override" and not over and view.get("override_forced"):
        head += (
            f": the {e(view['commander'])} has no move, so his King must override him and "
            "move any unmoved piece of the team (General 7)"
        )
    elif view["phase"] == "override" and not over:
        head += " (the King may let him or override him)"
    elif view.get("king_moves_any") and not over:
        head += (
            ": his own pieces cannot move, so he moves any unmoved piece of his team (General 7)"
        )
    parts.append(f'<p class="pic-head">{head}</p>')
    controls = []
    for action in other:
        if action.startswith("let "):
            controls.append(button(f"Let the {action[4:]} commander move", [action], action))
        else:
            controls.append(button(action, [action], action))
    for who, acts in overrides.items():
        controls.append(
            button(f"Override the {who}: move any unmoved piece of his", acts, None, "override")
        )
    if controls:
        parts.append('<div class="pic-prompt"><div class="buttons">' + "".join(controls))
        parts.append("</div></div>")
    parts.append('<div class="gc-grid">')
    parts.append(board_svg(view, from_acts, to_acts, fights))
    parts.append(side(view))
    parts.append("</div></div>")
    return "".join(parts)


def look_tail(look: Callable[[str], str], square: str) -> str:
    try:
        text = look(square)
    except Exception:  # look refuses: no odds shown
        return ""
    _, _, tail = text.partition("may go to: ")
    return tail


def board_svg(
    view: dict[str, Any],
    from_acts: dict[str, list[str]],
    to_acts: dict[str, list[str]],
    fights: dict[str, tuple[str, str]],
) -> str:
    w, h = PAD * 2 + WIDTH * CELL, PAD * 2 + HEIGHT * CELL
    at = {p["square"]: p for p in view["pieces"]}
    held = {f["square"]: f for f in view["frozen"].values()}
    out = [
        f'<svg class="gcboard" viewBox="0 0 {w} {h}" role="group" '
        f'aria-label="The board, rank 10 at the top" style="max-width:{w * 1.4:.0f}px">'
    ]
    for f in range(WIDTH):
        x = PAD + f * CELL + CELL / 2
        out.append(f'<text class="coord" x="{x}" y="13">{FILES[f]}</text>')
        out.append(f'<text class="coord" x="{x}" y="{h - 4}">{FILES[f]}</text>')
    for rank in range(HEIGHT, 0, -1):
        y = PAD + (HEIGHT - rank) * CELL
        out.append(f'<text class="coord" x="9" y="{y + CELL / 2 + 4}">{rank}</text>')
        for f in range(WIDTH):
            name = f"{FILES[f]}{rank}"
            x = PAD + f * CELL
            acts = from_acts.get(name, []) + to_acts.get(name, [])
            shade = "dark" if (f + rank) % 2 == 0 else "light"
            piece = at.get(name)
            title = name
            if piece is not None:
                title += f" {piece['team']} {KIND_NAMES.get(piece['piece'], piece['piece'])}"
                title += f", {piece['hp']}/{piece['max_hp']} hit points"
                if piece["moved"]:
                    title += ", has moved this turn"
                title += f" ({piece['piece']}: {KIND_LINES.get(piece['piece'], '')})"
            if name in held:
                fr = held[name]
                title += f"; holding frozen the {fr['team']} {fr['piece']} ({fr['hp']} hp)"
            attr = acts_attr(acts, then=name not in from_acts)
            if piece is not None:  # a tap or the keyboard shows the piece's line (codes.js)
                attr += ' data-tip=""' + ("" if "tabindex" in attr else ' tabindex="0"')
            out.append(
                f'<g class="sq" data-sq="{name}"{attr}><title>{e(title)}</title>'
                f'<rect class="{shade}" x="{x}" y="{y}" width="{CELL}" height="{CELL}"/>'
            )
            if piece is not None:
                out.append(piece_svg(piece, x, y, name in held))
            out.append(
                f'<rect class="mark" x="{x + 2}" y="{y + 2}" width="{CELL - 4}" '
                f'height="{CELL - 4}" rx="3"/></g>'
            )
    for action, (target, what) in fights.items():
        kill = KILLS.search(what)
        if kill is None:
            continue
        f, rank = FILES.index(target[0]), int(target[1:])
        x, y = PAD + f * CELL + CELL / 2, PAD + (HEIGHT - rank) * CELL + CELL - 3
        out.append(
            f'<g class="hint"{acts_attr([action], focus=False)}>'
            f'<text class="odds" x="{x}" y="{y}">win {e(kill.group(1))}</text>'
            f"<title>{e(what)}</title></g>"
        )
    out.append("</svg>")
    return "".join(out)


def piece_svg(piece: dict[str, Any], x: float, y: float, holding: bool) -> str:
    white = piece["team"] == "white"
    cx, cy = x + CELL / 2, y + CELL / 2 - 3
    shape = "piece-w" if white else "piece-b"
    text = "label-w" if white else "label-b"
    out = [
        f'<g pointer-events="none"><rect class="{shape}" x="{cx - 16}" y="{cy - 12}" '
        f'width="32" height="22" rx="{11 if piece["piece"] in ("K", "Q") else 4}"/>',
        f'<text class="{text}" x="{cx}" y="{cy + 4}">{e(piece["piece"])}</text>',
    ]
    if piece["piece"] != "Q":
        out.append(
            f'<text class="hp" x="{cx}" y="{y + CELL - 3}">'
            f"{e(piece['hp'])}/{e(piece['max_hp'])}</text>"
        )
    if piece["moved"]:
        out.append(f'<circle cx="{x + CELL - 6}" cy="{y + 6}" r="3.5" fill="#994f00"/>')
        out.append(f'<text class="hp" x="{x + 6}" y="{y + 9}">m</text>')
    if holding:
        out.append(
            f'<rect x="{x + 1.5}" y="{y + 1.5}" width="{CELL - 3}" height="{CELL - 3}" '
            'fill="none" stroke="#0077bb" stroke-width="3" stroke-dasharray="2 2"/>'
        )
        out.append(f'<text class="hp" x="{x + CELL - 7}" y="{y + CELL - 3}">fz</text>')
    out.append("</g>")
    return "".join(out)


def side(view: dict[str, Any]) -> str:
    lines = []
    awaiting = ", ".join(view.get("awaiting") or []) or "nobody"
    lines.append(f"<p>Waiting for the seat: <strong>{e(awaiting)}</strong></p>")
    lines.append("<h3>Tally</h3>")
    for team in ("white", "black"):
        states = []
        if view["in_check"].get(team):
            states.append("in check")
        if view["protected"].get(team):
            states.append("protected")
        lost = view["lost"].get(team) or []
        lost_text = ", ".join(abbr(kind, PIECE_CODES.get(kind)) for kind in lost) or "none"
        lines.append(
            f"<p><strong>{team.title()}</strong>"
            f"{(' (' + e(', '.join(states)) + ')') if states else ''}"
            f": lost {lost_text}</p>"
        )
    for holder, fr in sorted(view["frozen"].items()):
        lines.append(
            f"<p>Frozen under the {e(holder)} Queen on {e(fr['square'])}: the {e(fr['team'])} "
            f"{e(KIND_NAMES.get(fr['piece'], fr['piece']))} ({e(fr['hp'])} hp)</p>"
        )
    if not view["frozen"]:
        lines.append('<p class="muted">Frozen: none.</p>')
    for team, info in sorted(view["captive_queens"].items()):
        where = info["square"] or "off the board"
        lines.append(
            f"<p>Captive: the {e(team)} Queen, held by the {e(info['captor'])} on {e(where)} "
            f"for {e(info['held_turns'])} turn(s)</p>"
        )
    if not view["captive_queens"]:
        lines.append('<p class="muted">Captive queens: none.</p>')
    if view["last_combat"]:
        fights = "".join(f"<li>{e(t)}</li>" for t in view["last_combat"])
        lines.append(f'<h3>Last fight</h3><ul class="plain fights">{fights}</ul>')
    else:
        lines.append('<p class="muted">No fight this turn yet.</p>')
    lines.append(
        '<p class="muted">White: light pieces, Black: dark pieces; the number is hit '
        "points; m: moved this turn; fz: a queen holding a frozen piece; "
        "'win N%': one roll kills the defender.</p>"
    )
    return '<div class="gc-side">' + "".join(lines) + "</div>"


class GladiatorChessWeb(WebPresenter):
    """Gladiator Chess on the match page: the board, the tally and the controls."""

    def codes(self) -> tuple[Code, ...]:
        """The ten pieces: their codes, names and lines (the game's pieces table)."""
        return tuple(PIECE_CODES.values())

    def picture(self, state: State[GladiatorChessOptions], seat: Seat | None) -> str | None:
        """The board, tally and controls for the web page (all public information)."""
        if not isinstance(state, GladiatorChessState):
            return None
        legal = [str(a) for a in state.legal_actions(seat)] if seat is not None else []
        return web_picture(
            state.view(seat),
            legal,
            lambda square: look(state, square),
            over=state.outcome() is not None,
        )
