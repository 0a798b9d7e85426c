"""The hero designer of the web pages (``WebPresenter.design``): every field of a hero file as
form controls, the live check (points spent and left, traits, each power's price, every
error beside its field) and the card preview, the same SVG as ``hero card``."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml

from gladiatorium.core.presenters import Code, Design
from gladiatorium.core.web_parts import e
from gladiatorium.games.superhero_gladiators.card import card_svg
from gladiatorium.games.superhero_gladiators.hero_files import (
    HeroFile,
    read_hero_text,
    sample_files,
)
from gladiatorium.games.superhero_gladiators.heroes import (
    CHOICE_LINES,
    FLAW_COST,
    GIZMO_COST,
    STYLE_COST,
    Attribute,
    Flaw,
    Gizmo,
    PowerType,
    Style,
    points,
    traits,
)
from gladiatorium.games.superhero_gladiators.render import price_line, segments_text

ATTRIBUTES = tuple(a.value for a in Attribute)
MIN_ROWS = 5
MAX_ROWS = 16
WHOLE = re.compile(r"-?\d{1,6}")
POWER = re.compile(r"powers\[(\d+)\](?:\.(\w+))?")

Values = dict[str, list[str]]


# ----- form values <-> hero data ------------------------------------------------------------
def _one(values: Mapping[str, Sequence[str]], key: str) -> str:
    got = values.get(key) or [""]
    return str(got[-1]).strip()[:200]


def _number(text: str) -> int | str:
    return int(text) if WHOLE.fullmatch(text) else text


def rows_of(values: Mapping[str, Sequence[str]]) -> int:
    asked = _one(values, "rows")
    used = [int(m.group(1)) for k in values if (m := re.fullmatch(r"p(\d+)\.\w+", k))]
    count = max([MIN_ROWS, (max(used) + 1) if used else 0])
    if asked.isdigit():
        count = max(count, int(asked))
    return min(count, MAX_ROWS)


def data_from_values(values: Mapping[str, Sequence[str]]) -> tuple[dict[str, Any], list[int]]:
    """The hero file's data from the form, and the form row of each power."""
    data: dict[str, Any] = {"name": _one(values, "name")}
    data["attributes"] = {
        a: _number(_one(values, f"attr.{a}")) for a in ATTRIBUTES if _one(values, f"attr.{a}")
    }
    bought = {
        a: _number(_one(values, f"bought.{a}"))
        for a in ATTRIBUTES
        if _one(values, f"bought.{a}") not in ("", "0")
    }
    if bought:
        data["bought"] = bought
    powers, rows = [], []
    for i in range(rows_of(values)):
        get = {f: _one(values, f"p{i}.{f}") for f in ("name", "type", "gizmo", "level", "uses")}
        look = _one(values, f"p{i}.look")
        styles = [s for s in values.get(f"p{i}.styles", []) if s]
        flaws = [f for f in values.get(f"p{i}.flaws", []) if f]
        if not (get["name"] or get["type"] or get["level"] or get["uses"] or styles or flaws):
            continue
        power: dict[str, Any] = {"name": get["name"], "type": get["type"]}
        if styles:
            power["styles"] = styles
        if flaws:
            power["flaws"] = flaws
        if get["gizmo"]:
            power["gizmo"] = get["gizmo"]
        power["level"] = _number(get["level"])
        uses = get["uses"].lower()
        power["uses"] = "infinite" if uses in ("infinite", "inf", "∞") else _number(get["uses"])
        if look:
            power["look"] = look
        powers.append(power)
        rows.append(i)
    data["powers"] = powers
    return data, rows


def values_from_data(data: object) -> Values:
    """Form values from a hero file's data (tolerant: anything odd is shown as text)."""
    values: Values = {}
    if not isinstance(data, dict):
        return values
    values["name"] = [str(data.get("name") or "")]
    for key, prefix in (("attributes", "attr"), ("bought", "bought")):
        given = data.get(key)
        if isinstance(given, dict):
            for a in ATTRIBUTES:
                if a in given:
                    values[f"{prefix}.{a}"] = [str(given[a])]
    powers = data.get("powers")
    if isinstance(powers, list):
        for i, power in enumerate(powers[:MAX_ROWS]):
            if not isinstance(power, dict):
                continue
            for f in ("name", "type", "gizmo", "level", "uses", "look"):
                if power.get(f) is not None:
                    values[f"p{i}.{f}"] = [str(power[f])]
            for f in ("styles", "flaws"):
                listed = power.get(f)
                if isinstance(listed, list):
                    values[f"p{i}.{f}"] = [str(x) for x in listed]
                elif isinstance(listed, str):
                    values[f"p{i}.{f}"] = [listed]
        values["rows"] = [str(max(MIN_ROWS, len(powers) + 1))]
    return values


# ----- errors beside their fields -------------------------------------------------------------
def slot_of(field: str, rows: Sequence[int]) -> str:
    """The id of the error slot beside the form field a checker's error names."""
    m = POWER.fullmatch(field)
    if m:
        index = int(m.group(1))
        row = rows[index] if index < len(rows) else index
        part = m.group(2)
        if part in ("name", "type", "styles", "flaws", "gizmo", "level", "uses", "look"):
            return f"err-p{row}-{part}"
        return f"err-p{row}"
    if field == "name":
        return "err-name"
    if field.startswith("attributes"):
        return "err-attributes"
    if field.startswith("bought"):
        return "err-bought"
    return "err-hero"


def all_slots(rows: int) -> list[str]:
    slots = ["err-hero", "err-name", "err-attributes", "err-bought"]
    for i in range(rows):
        slots.append(f"err-p{i}")
        slots += [
            f"err-p{i}-{f}"
            for f in ("name", "type", "styles", "flaws", "gizmo", "level", "uses", "look")
        ]
    return slots


def slot_html(slot: str, messages: Sequence[str], oob: bool = False) -> str:
    mark = ' hx-swap-oob="true"' if oob else ""
    hidden = "" if messages else " hidden"
    text = "; ".join(messages)
    return (
        f'<span class="field-error error" id="{slot}" role="alert"{mark}{hidden}>{e(text)}</span>'
    )


# ----- the page parts ----------------------------------------------------------------------------
def _input(name: str, value: str, label: str, kind: str = "text", extra: str = "") -> str:
    return (
        f'<label>{e(label)} <input type="{kind}" name="{e(name)}" value="{e(value)}"'
        f' autocomplete="off"{extra}></label>'
    )


def _times(factor: Fraction) -> str:
    return f"x{float(factor):g}"


def _cost_words(choice: Style | Flaw | Gizmo) -> str:
    """What a style, flaw or gizmo does to a power's cost, from the cost tables."""
    if isinstance(choice, Gizmo):
        return f"cost {_times(GIZMO_COST[choice])}"
    table = STYLE_COST if isinstance(choice, Style) else FLAW_COST
    each = [
        f"{_times(by_type[choice])} on a {kind.value} power"  # type: ignore[index]
        for kind, by_type in table.items()
        if choice in by_type
    ]
    return "cost " + ", ".join(each)


def choice_codes() -> tuple[Code, ...]:
    """The designer's styles, flaws and gizmos: each one's line and its cost."""
    groups: tuple[type[Style] | type[Flaw] | type[Gizmo], ...] = (Style, Flaw, Gizmo)
    return tuple(
        Code(
            choice.value,
            f"{choice.value} ({group.__name__.lower()})",
            f"{CHOICE_LINES[choice]}; {_cost_words(choice)}",
            "the-rules-in-our-words",
        )
        for group in groups
        for choice in group
    )


CHOICE_CODES = choice_codes()


def _select(name: str, value: str, label: str, choices: Sequence[str], blank: str) -> str:
    options = [f'<option value=""{" selected" if not value else ""}>{e(blank)}</option>']
    tips = {code.code: code.tip for code in CHOICE_CODES}
    for c in choices:
        tip = f' title="{e(tips[c])}"' if c in tips else ""
        chosen = " selected" if c == value else ""
        options.append(f'<option value="{e(c)}"{chosen}{tip}>{e(c)}</option>')
    if value and value not in choices:
        options.append(f'<option value="{e(value)}" selected>{e(value)} (unknown)</option>')
    return f'<label>{e(label)} <select name="{e(name)}">{"".join(options)}</select></label>'


def _checks(name: str, chosen: Sequence[str], choices: Sequence[str], legend: str) -> str:
    tips = {code.code: code.tip for code in CHOICE_CODES}
    boxes = "".join(
        f'<label class="check" title="{e(tips.get(c, c))}" data-tip="">'
        f'<input type="checkbox" name="{e(name)}" value="{e(c)}"'
        f"{' checked' if c in chosen else ''}> {e(c)}</label>"
        for c in choices
    )
    return f'<fieldset class="checks"><legend>{e(legend)}</legend>{boxes}</fieldset>'


def form_html(values: Mapping[str, Sequence[str]], errors: Mapping[str, list[str]]) -> str:
    def slot(name: str) -> str:
        return slot_html(name, errors.get(name, []))

    rows = rows_of(values)
    out = [f'<input type="hidden" name="rows" value="{rows}">', slot("err-hero")]
    name = _input("name", _one(values, "name"), "Hero name", extra=' maxlength="80"')
    out.append(name + slot("err-name"))
    attrs = "".join(
        _input(f"attr.{a}", _one(values, f"attr.{a}"), a.title(), "number", ' min="1" max="15"')
        for a in ATTRIBUTES
    )
    out.append(
        '<fieldset class="attrs"><legend>Attributes (the four total 15, each at least 1)'
        f"</legend>{attrs}{slot('err-attributes')}</fieldset>"
    )
    bought = "".join(
        _input(f"bought.{a}", _one(values, f"bought.{a}"), a.title(), "number", ' min="0"')
        for a in ATTRIBUTES
    )
    out.append(
        '<fieldset class="attrs"><legend>Attribute points bought (30 power points each)'
        f"</legend>{bought}{slot('err-bought')}</fieldset>"
    )
    types = [t.value for t in PowerType]
    for i in range(rows):
        p = f"p{i}"
        cells = [
            _input(f"{p}.name", _one(values, f"{p}.name"), "Name", extra=' maxlength="80"')
            + slot(f"err-{p}-name"),
            _select(f"{p}.type", _one(values, f"{p}.type"), "Type", types, "(none)")
            + slot(f"err-{p}-type"),
            _input(f"{p}.level", _one(values, f"{p}.level"), "Level", "number", ' min="1" max="8"')
            + slot(f"err-{p}-level"),
            _input(
                f"{p}.uses",
                _one(values, f"{p}.uses"),
                "Uses (a number or infinite)",
                extra=' list="uses-list"',
            )
            + slot(f"err-{p}-uses"),
            _select(
                f"{p}.gizmo",
                _one(values, f"{p}.gizmo"),
                "Gizmo",
                [g.value for g in Gizmo],
                "(default: vulnerable)",
            )
            + slot(f"err-{p}-gizmo"),
            _checks(
                f"{p}.styles", values.get(f"{p}.styles", []), [s.value for s in Style], "Styles"
            )
            + slot(f"err-{p}-styles"),
            _checks(f"{p}.flaws", values.get(f"{p}.flaws", []), [f.value for f in Flaw], "Flaws")
            + slot(f"err-{p}-flaws"),
            _input(f"{p}.look", _one(values, f"{p}.look"), "Look (free text)")
            + slot(f"err-{p}-look"),
        ]
        cells = [
            f'<div class="field{" wide" if "<fieldset" in c else ""}">{c}</div>' for c in cells
        ]
        filled = bool(_one(values, f"{p}.name") or _one(values, f"{p}.type"))
        out.append(
            f'<details class="power-row" id="{p}"{" open" if filled or i == 0 else ""}>'
            f"<summary>Power {i + 1}{': ' + e(_one(values, f'{p}.name')) if filled else ''}"
            f'</summary><div class="power-fields">{"".join(cells)}</div>'
            f"{slot(f'err-{p}')}</details>"
        )
    out.append('<datalist id="uses-list"><option value="infinite"></option></datalist>')
    return "".join(out)


def check_html(result: HeroFile, messages: Sequence[str]) -> str:
    hero = result.hero
    out = ['<div class="design-check">']
    if hero is not None:
        spent = points(hero)
        t = traits(hero)
        state = "over budget" if spent.left < 0 else "left"
        out.append(
            f'<p class="points" id="points" data-left="{spent.left}">Points: '
            f"{spent.attributes} on attributes + {spent.powers} on powers = "
            f"<strong>{spent.total}</strong> of {spent.budget}: "
            f'<strong id="points-left">{abs(spent.left)} {state}</strong></p>'
            f"<p>Combat {t.combat} · max oomph {t.max_oomph} · speed {t.speed} · "
            f"movement {t.movement} · segments {e(segments_text(t.segments))}</p>"
        )
        costs = []
        for entry in result.entries:
            if entry.power is not None and entry.complete:
                costs.append(f"<li>{e(entry.power.name)}: {e(price_line(entry.power))}</li>")
            else:
                costs.append(f"<li>{e(entry.name or '?')}: no price yet</li>")
        if costs:
            out.append(f'<ul class="plain costs">{"".join(costs)}</ul>')
    verdict = (
        "valid: ready to save"
        if result.valid
        else f"{len(messages)} problem{'s' if len(messages) != 1 else ''}"
    )
    out.append(
        f'<p class="verdict" id="verdict" data-valid="{"yes" if result.valid else "no"}">'
        f"<strong>{e(verdict)}</strong></p>"
    )
    if messages:
        out.append(
            '<ul class="design-errors">' + "".join(f"<li>{e(m)}</li>" for m in messages) + "</ul>"
        )
    if hero is not None and hero.powers:
        try:
            svg = card_svg(hero)
        except Exception:  # a hero too odd to draw: no preview
            svg = ""
        if svg:
            svg = svg.split("?>", 1)[-1].strip()
            svg = re.sub(r'width="[\d.]+mm" height="[\d.]+mm"', 'class="card-svg"', svg, count=1)
            out.append(
                '<figure class="card-preview"><figcaption>The card (as <code>hero card</code> '
                f"draws it)</figcaption>{svg}</figure>"
            )
    out.append("</div>")
    return "".join(out)


def design(fields: Mapping[str, Sequence[str]] | None, text: str | None) -> Design:
    if text is not None:
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError:
            data = None
        values = values_from_data(data)
        rows = list(range(len(data.get("powers") or []))) if isinstance(data, dict) else []
        source = text
    else:
        values = {k: list(v) for k, v in (fields or {}).items()}
        data, rows = data_from_values(values)
        source = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    name = _one(values, "name")
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "hero"
    result = read_hero_text(source, Path(f"{slug}.yaml"))
    errors: dict[str, list[str]] = {}
    messages = []
    for err in result.errors:
        errors.setdefault(slot_of(err.field, rows), []).append(err.message)
        # a form has no lines: name the field only
        messages.append(str(err) if text is not None else f"{err.field or '(hero)'}: {err.message}")
    count = rows_of(values)
    slots = "".join(slot_html(s, errors.get(s, []), oob=True) for s in all_slots(count))
    return Design(
        form=form_html(values, errors),
        check=check_html(result, messages),
        slots=slots,
        text=source,
        name=name,
        valid=result.valid,
    )


def samples() -> dict[str, str]:
    out = {}
    for path in sample_files():
        out[path.stem] = path.read_text(encoding="utf-8")
    return out
