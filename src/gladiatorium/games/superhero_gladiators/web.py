"""The web picture of a Superhero Gladiators match: the arena as SVG with each hero's
token (a flyer lifted over its shadow, an entangled hero ringed with dashes), the heroes'
cards (oomph bar, entanglement, altitude, powers), the segment track and the prompts
(placing, the defence question, which gizmo was noticed). Choosing one of the acting
hero's attack powers lights every square it reaches. Built only from ``view(seat)``, the
seat's legal actions and the reach of the acting hero's open cards; every name is
escaped."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from gladiatorium.core import Code, ItemFacts, OptionChoice, Seat, State, WebPresenter
from gladiatorium.core.presenters import Design
from gladiatorium.core.web_parts import TEAM_FILLS, acts_attr, button, e
from gladiatorium.games.superhero_gladiators import designer
from gladiatorium.games.superhero_gladiators.arena import COLUMNS, FIRE, PIT, WALL, square_name
from gladiatorium.games.superhero_gladiators.hero_files import hero_from_data
from gladiatorium.games.superhero_gladiators.heroes import points
from gladiatorium.games.superhero_gladiators.map_files import shipped_maps
from gladiatorium.games.superhero_gladiators.options import SuperheroGladiatorsOptions
from gladiatorium.games.superhero_gladiators.state import SuperheroGladiatorsState
from gladiatorium.games.superhero_gladiators.view_text import standing

CELL = 36
HERO_ID = re.compile(r"(?<![\w])([1-9][A-Z])(?![\w])")
SEGMENTS = (1, 2, 3, 4, 5, 6)


def fill(team: str) -> str:
    return TEAM_FILLS[(int(team) - 1) % len(TEAM_FILLS)] if team.isdigit() else "#999999"


def web_picture(
    view: dict[str, Any],
    legal: Sequence[str],
    seat: str | None,
    recent: Sequence[str] = (),
    reach: Mapping[str, Sequence[str]] | None = None,
    over: bool = False,
    notes: Mapping[str, str] | None = None,
) -> str:
    """``reach``: the squares each attack power of the acting hero reaches, drawn when
    the power is chosen; ``over``: the match has ended (the final position, nobody acts);
    ``notes``: each attack's chance to hit, by notation (the terminal's ``action_notes``),
    shown by the power and on each choice of target."""
    heroes = view["heroes"]
    by_id = {h["id"]: h for h in heroes}
    square_acts: dict[str, list[str]] = {}
    main_of: dict[str, str] = {}
    hero_acts: dict[str, list[str]] = {}
    power_acts: dict[str, list[str]] = {}
    other: list[str] = []
    for action in legal:
        words = action.split()
        placed = False
        if words[0] in ("move", "place") and len(words) > 1:
            square_acts.setdefault(words[1], []).append(action)
            if len(words) == 2:
                main_of[words[1]] = action
            placed = True
        for hid in HERO_ID.findall(action):
            if hid in by_id:
                hero_acts.setdefault(hid, []).append(action)
                placed = True
        if " with " in action:
            power_acts.setdefault(action.rsplit(" with ", 1)[1], []).append(action)
        if not placed:
            other.append(action)
    for hid, acts in hero_acts.items():
        square = by_id[hid]["square"]
        if square and not by_id[hid]["fainted"]:
            square_acts.setdefault(square, []).extend(acts)
    actor = view["actor"]
    if actor and actor in by_id and by_id[actor]["square"]:
        square_acts.setdefault(by_id[actor]["square"], []).extend(legal)

    parts = ['<div class="sg">']
    head = f"{e(view['map_name'])}: turn {e(view['turn'])}, segment {e(view['segment'])}"
    if over:
        head += "; the match is over: the final position"
    elif actor:
        head += f"; <strong>{e(actor)} {e(by_id[actor]['name'])}</strong> acts"
    parts.append(f'<p class="pic-head">{head}</p>')
    parts.append(prompt(view, legal, by_id, other, seat, recent))
    parts.append('<div class="sg-grid">')
    parts.append('<div class="sg-board">')
    parts.append(arena_svg(view, square_acts, main_of))
    parts.append(
        '<p class="look-caption" id="look-caption" aria-live="polite">'
        "Choose a power to light the squares it reaches.</p></div>"
        if reach
        else "</div>"
    )
    parts.append('<div class="sg-side">')
    parts.append(segment_track(view, by_id))
    parts.append('<ul class="plain hero-cards">')
    for hero in heroes:
        mine = hero["id"] == actor and bool(legal)
        parts.append(
            hero_card(
                hero,
                view,
                power_acts if mine else {},
                hero["id"] == actor,
                reach or {},
                notes or {},
            )
        )
    parts.append("</ul></div></div>")
    parts.append(legend(view["map"]))
    parts.append("</div>")
    return "".join(parts)


def prompt(
    view: dict[str, Any],
    legal: Sequence[str],
    by_id: dict[str, dict[str, Any]],
    other: list[str],
    seat: str | None,
    recent: Sequence[str] = (),
) -> str:
    """What the match asks now, with buttons for the awaited seat."""
    lines: list[str] = []
    if view["placing"]:
        who = by_id.get(view["placing"], {}).get("name", "")
        text = f"Placing {e(view['placing'])} {e(who)}"
        if legal:
            text += ": click a lit start square."
        lines.append(f"<p>{text}</p>")
    for hit in view["pending"][:1]:
        what = f"{hit['damage']} damage" if hit["damage"] else ""
        if hit["entangle"]:
            what += (" and " if what else "") + f"entangle {hit['entangle']}"
        text = (
            f"<strong>{e(hit['target'])} is hit</strong> by {e(hit['attacker'])}'s "
            f"{e(hit['power'])} ({e(what or 'no damage')})"
            + (" twice" if hit.get("double") else "")
        )
        if legal:
            text += ": how do you defend?"
        lines.append(f"<p>{text}</p>")
        rolls = [r for r in recent if " needs " in r]
        if rolls:  # the attack's roll, with what it needed
            lines.append(f'<p class="roll">Roll: {e(rolls[-1])}</p>')
    if view["reveal_for"]:
        lines.append(
            f"<p>{e(view['reveal_for'])}: choose which unused hidden gizmo was noticed.</p>"
        )
    if other:
        lines.append(
            '<div class="buttons">'
            + "".join(button(label(a), [a], a, "other") for a in other)
            + "</div>"
        )
    if not lines:
        return ""
    return '<div class="pic-prompt" role="status">' + "".join(lines) + "</div>"


def label(action: str) -> str:
    return {"pass": "Pass (do nothing this segment)", "take hit": "Take the hit"}.get(
        action, action[0].upper() + action[1:]
    )


def arena_svg(
    view: dict[str, Any], square_acts: dict[str, list[str]], main_of: dict[str, str]
) -> str:
    rows: list[str] = view["map"]
    width, height = len(rows[0]), len(rows)
    pad = 18
    w, h = pad + width * CELL + 2, pad + height * CELL + 2
    out = [
        f'<svg class="arena" viewBox="0 0 {w} {h}" role="group" '
        f'aria-label="Arena {e(view["map_name"])}, {width} by {height} squares" '
        f'style="max-width:{w * 1.6:.0f}px">',
        '<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="6" height="6" fill="#555"/>'
        '<line x1="0" y1="0" x2="0" y2="6" stroke="#888" stroke-width="2"/></pattern></defs>',
    ]
    for c in range(width):
        out.append(
            f'<text class="coord" x="{pad + c * CELL + CELL / 2}" y="13">{COLUMNS[c]}</text>'
        )
    for r in range(height):
        out.append(f'<text class="coord" x="9" y="{pad + r * CELL + CELL / 2 + 4}">{r + 1}</text>')
    for r, row in enumerate(rows):
        for c, mark in enumerate(row):
            name = f"{COLUMNS[c]}{r + 1}"
            x, y = pad + c * CELL, pad + r * CELL
            acts = square_acts.get(name, [])
            out.append(
                f'<g class="sq" data-sq="{name}"{acts_attr(acts, main_of.get(name))}>'
                f"<title>{name} {e(terrain_word(mark))}</title>"
            )
            out.append(cell(mark, x, y))
            out.append(
                f'<rect class="mark" x="{x + 2}" y="{y + 2}" width="{CELL - 4}" '
                f'height="{CELL - 4}" rx="3"/></g>'
            )
    for hero in view["heroes"]:
        if hero["square"] and not hero["fainted"]:
            out.append(token(hero, pad, view["actor"]))
    out.append("</svg>")
    return "".join(out)


def terrain_word(mark: str) -> str:
    if mark == WALL:
        return "wall"
    if mark == PIT:
        return "bottomless pit"
    if mark == FIRE:
        return "cloud of fire"
    if mark.isdigit():
        return f"start square of team {mark}"
    return "floor"


def cell(mark: str, x: int, y: int) -> str:
    base = f'x="{x}" y="{y}" width="{CELL}" height="{CELL}"'
    mid_x, mid_y = x + CELL / 2, y + CELL / 2 + 5
    if mark == WALL:
        return f'<rect class="wall" {base} fill="url(#hatch)"/>'
    if mark == PIT:
        return (
            f'<rect class="pit" {base}/>'
            f'<text class="glyph pit-glyph" x="{mid_x}" y="{mid_y}">~ ~</text>'
        )
    if mark == FIRE:
        return (
            f'<rect class="fire" {base}/>'
            f'<text class="glyph fire-glyph" x="{mid_x}" y="{mid_y}">^^</text>'
        )
    if mark.isdigit():
        return (
            f'<rect class="floor" {base}/>'
            f'<rect {base} fill="{fill(mark)}" opacity="0.25"/>'
            f'<text class="glyph start" x="{x + 6}" y="{y + 13}">{mark}</text>'
        )
    return f'<rect class="floor" {base}/>'


def token(hero: dict[str, Any], pad: int, actor: str) -> str:
    square = hero["square"]
    c, r = COLUMNS.index(square[0]), int(square[1:]) - 1
    x, y = pad + c * CELL + CELL / 2, pad + r * CELL + CELL / 2
    ring = ' stroke="#000" stroke-width="3"' if hero["id"] == actor else ' stroke="#fff"'
    dash = ' stroke-dasharray="3 2"' if hero["entangled"] else ""
    title = f"{hero['id']} {hero['name']}"
    out = [f'<g class="token" data-hero="{e(hero["id"])}" pointer-events="none">']
    if hero["altitude"]:  # in the air: its shadow on the ground, the token lifted
        title += f", flying at altitude {hero['altitude']}"
        out.append(
            f'<ellipse cx="{x}" cy="{y + CELL / 2 - 5}" rx="{CELL / 2 - 6}" ry="3" '
            'fill="#000" opacity="0.45"/>'
        )
        y -= min(6, 2 * int(hero["altitude"]))
    if hero["entangled"]:
        title += f", entangled {hero['entangled']}"
    out += [
        f"<title>{e(title)}</title>",
        f'<circle cx="{x}" cy="{y}" r="{CELL / 2 - 3}" fill="{fill(hero["team"])}"{ring}{dash}/>',
        f'<text class="tok" x="{x}" y="{y + 5}">{e(hero["id"])}</text>',
    ]
    if hero["altitude"]:
        out.append(
            f'<text class="tag" x="{x + CELL / 2 - 2}" y="{y - CELL / 2 + 9}">'
            f"^{hero['altitude']}</text>"
        )
    if hero["entangled"]:
        out.append(
            f'<text class="tag" x="{x + CELL / 2 - 2}" y="{y + CELL / 2 - 2}">'
            f"E{hero['entangled']}</text>"
        )
    out.append("</g>")
    return "".join(out)


def segment_track(view: dict[str, Any], by_id: dict[str, dict[str, Any]]) -> str:
    order = [h for h in view["order"] if h in by_id] or list(by_id)
    rows = []
    for n in SEGMENTS:
        acting = [by_id[h] for h in order if n in by_id[h]["segments"] and not by_id[h]["fainted"]]
        now = n == view["segment"] and view["phase"] == "fight"
        who = (
            " ".join(
                f'<span class="chip" style="border-color:{fill(h["team"])}">{e(h["id"])}</span>'
                for h in acting
            )
            or '<span class="muted">nobody</span>'
        )
        rows.append(
            f'<li{" class=now" if now else ""}><span class="seg">{n}</span> {who}'
            + (' <strong class="badge">now</strong>' if now else "")
            + "</li>"
        )
    return (
        '<div class="segments"><h3>Segments (who acts when)</h3><ul class="plain track">'
        + "".join(rows)
        + "</ul></div>"
    )


def hero_card(
    hero: dict[str, Any],
    view: dict[str, Any],
    power_acts: dict[str, list[str]],
    acting: bool,
    reach: Mapping[str, Sequence[str]],
    odds: Mapping[str, str] | None = None,
) -> str:
    hid = e(hero["id"])
    top = max(1, int(hero["max_oomph"]))
    share = max(0, min(1, hero["oomph"] / top))
    state = standing(hero)
    noticed = {
        key.split(":", 1)[1]: team
        for team, keys in view["noticed"].items()
        for key in keys
        if key.split(":", 1)[0] == hero["id"]
    }
    powers = []
    for name, uses in hero["uses"].items():
        left = "∞" if uses is None else str(uses)
        notes = []
        if name in hero["destroyed"]:
            notes.append("gizmo destroyed")
        if name in noticed:
            notes.append(f"gizmo noticed by team {noticed[name]}")
        note = f' <span class="muted">({e(", ".join(notes))})</span>' if notes else ""
        acts = power_acts.get(name, [])
        if acts:
            extra: dict[str, str] = {}
            chances = {a: (odds or {})[a] for a in acts if a in (odds or {})}
            if chances:  # each target's chance, by the power and on each choice of target
                labels = {a: f"{a}: {chance}" for a, chance in chances.items()}
                extra["data-labels"] = json.dumps(labels, sort_keys=True)
                note += (
                    '<span class="odds">'
                    + "".join(
                        f"<span>{e(a.rsplit(' with ', 1)[0])}: {e(chance)}</span>"
                        for a, chance in sorted(chances.items())
                    )
                    + "</span>"
                )
            if name in reach:  # choosing the power lights the squares it reaches
                extra |= {
                    "data-look": f"{hero['id']}:{name}",
                    "data-marks": json.dumps({"r": list(reach[name])}, separators=(",", ":")),
                    "data-marks-title": f"{name} reaches the dashed squares ({len(reach[name])})",
                }
            powers.append(f"<li>{button(f'{name} · {left}', acts, extra=extra)}{note}</li>")
        else:
            powers.append(f"<li>{e(name)} · {e(left)} left{note}</li>")
    if hero["copied"]:
        powers.append(f"<li>copied: {e(hero['copied'])}</li>")
    klass = "card hero-card" + (" acting" if acting else "") + (" out" if hero["fainted"] else "")
    return (
        f'<li class="{klass}" data-hero="{hid}">'
        f'<h3><span class="chip" style="border-color:{fill(hero["team"])}">{hid}</span> '
        f'{e(hero["name"])} <span class="muted">team {e(hero["team"])}</span>'
        + (' <strong class="badge">acting</strong>' if acting else "")
        + "</h3>"
        f'<div class="oomph" role="meter" aria-label="oomph of {hid}" aria-valuemin="0" '
        f'aria-valuemax="{top}" aria-valuenow="{e(hero["oomph"])}">'
        f'<span style="width:{share * 100:.0f}%"></span></div>'
        f"<p>oomph {e(hero['oomph'])}/{e(hero['max_oomph'])} · combat {e(hero['combat'])} · "
        f"move {e(hero['movement'])} · {e(', '.join(state))}</p>"
        f'<ul class="plain powers">{"".join(powers)}</ul></li>'
    )


def legend(rows: list[str]) -> str:
    marks = "".join(rows)
    items = [
        "<li>circle: a hero (its id; ^N flying at altitude N, lifted over its shadow; "
        "EN and a dashed ring: entangled N)</li>"
    ]
    if WALL in marks:
        items.append("<li>hatched: wall</li>")
    if PIT in marks:
        items.append("<li>~ ~ on black: bottomless pit</li>")
    if FIRE in marks:
        items.append("<li>^^ on orange: cloud of fire</li>")
    if any(m.isdigit() for m in marks):
        items.append("<li>number in a corner: a team's start square</li>")
    items.append("<li>dotted outline: a square you may click</li>")
    return f'<ul class="legend plain">{"".join(items)}</ul>'


class SuperheroGladiatorsWeb(WebPresenter):
    """Superhero Gladiators on the web pages: the arena and hero cards on the match page,
    and the hero designer (``/heroes/new``)."""

    def picture(self, state: State[SuperheroGladiatorsOptions], seat: Seat | None) -> str | None:
        """The arena and hero cards for the web page (from the view, the legal list and
        the events the seat may see)."""
        assert isinstance(state, SuperheroGladiatorsState)
        legal = [str(a) for a in state.legal_actions(seat)] if seat is not None else []
        recent = [event.text for event in state.events_for(seat)[-6:]]
        over = state.outcome() is not None
        reach = attack_reach(state, legal)
        notes = self.game.terminal.action_notes(state, seat) if legal and seat else {}
        view = state.view(seat)
        return web_picture(view, legal, seat, recent, reach, over=over, notes=notes)

    def design(
        self, fields: Mapping[str, Sequence[str]] | None = None, text: str | None = None
    ) -> Design:
        """The hero designer: every field, the live cost and errors, the card preview."""
        return designer.design(fields, text)

    def codes(self) -> tuple[Code, ...]:
        """The designer's styles, flaws and gizmos, each with what it does to the cost."""
        return designer.CHOICE_CODES

    def design_samples(self) -> dict[str, str]:
        """The shipped sample heroes, by file name."""
        return designer.samples()

    def item_facts(self, kind: str, data: Mapping[str, Any]) -> ItemFacts:
        """A published hero's card for the hall: power points spent, its powers' types,
        styles and flaws, and its traits."""
        hero = hero_from_data(dict(data)).hero
        if kind != "hero" or hero is None:
            return ItemFacts()
        words: list[str] = []
        for power in hero.powers:
            words += [power.type.value, *(s.value for s in power.styles)]
            words += [f.value for f in power.flaws]
        traits = hero.traits
        numbers = {
            "combat": traits.combat,
            "oomph": traits.max_oomph,
            "speed": traits.speed,
            "movement": traits.movement,
        }
        return ItemFacts(points(hero).total, tuple(dict.fromkeys(words)), numbers)

    def option_choices(self) -> dict[str, list[OptionChoice]]:
        """The shipped maps, each drawn as the match page draws its arena, and a map of
        the player's own (its text, as in a map file)."""
        return {"map": map_choices()}


def map_choices() -> list[OptionChoice]:
    """Each shipped map with its drawing (the map picks its name too), then one's own."""
    choices = []
    for name, path in shipped_maps().items():
        text = path.read_text(encoding="utf-8").strip("\n")
        view = {"map": text.splitlines(), "map_name": name, "heroes": [], "actor": ""}
        rows = len(view["map"])
        label = f"{name} ({len(view['map'][0])} by {rows} squares)"
        values = {"map": text, "map_name": name}
        choices.append(OptionChoice(name, label, values, arena_svg(view, {}, {})))
    own = {"map_name": "own map"}
    choices.append(OptionChoice("", "my own map (its text: the legend is in the rules)", own))
    return choices


def attack_reach(state: SuperheroGladiatorsState, legal: Sequence[str]) -> dict[str, list[str]]:
    """The squares each attack power of the acting hero reaches (cards and positions are
    open), for the powers the seat may use now."""
    actor = state.fighters.get(state.actor) if state.phase == "fight" else None
    if actor is None or actor.square is None or not legal:
        return {}
    used = {a.rsplit(" with ", 1)[1] for a in legal if a.startswith("attack ") and " with " in a}
    return {
        name: [square_name(s) for s in state.reach_squares(actor, power)]
        for name, power in actor.powers.items()
        if name in used and power.is_attack
    }
