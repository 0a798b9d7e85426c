"""A game's options as a form: a control per option, read from the options model's
fields (their types, bounds and help) and the game's web presenter (options picked from
a list, each with a drawing), and the posted values read back, each problem put on its
field."""

from __future__ import annotations

import json
import types
import typing
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from pydantic import ValidationError
from starlette.datastructures import FormData

from gladiatorium.core import Game, GladiatoriumError, OptionChoice
from gladiatorium.server.pages.common import text_of

#: the controls: a box, a number, a list to choose from, one line, several lines, JSON,
#: a list of shipped things with drawings (``pick``), a number per name (``table``),
#: one value per line (``lines``), numbers in a row (``numbers``), pairs one per line
KINDS = ("checkbox", "number", "select", "text", "textarea", "json", "pick", "table")
LISTS = ("lines", "numbers", "pairs")


@dataclass
class OptionField:
    """One option of a game as a form control."""

    name: str
    kind: str  # KINDS or LISTS
    value: Any
    help: str = ""
    choices: list[str] = field(default_factory=list)
    low: float | None = None
    high: float | None = None
    step: str = "1"
    nullable: bool = False
    error: str = ""
    #: a ``pick``: the things to pick from; the text of one's own (key ``''``)
    picks: list[OptionChoice] = field(default_factory=list)
    own: str = ""

    @property
    def key(self) -> str:
        return f"opt.{self.name}"

    @property
    def label(self) -> str:
        """The option's name in words (``turn_limit``: turn limit)."""
        return self.name.replace("_", " ")


def _unwrap(annotation: Any) -> tuple[Any, bool]:
    """``X | None`` -> (X, True)."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1 and len(args) < len(typing.get_args(annotation)):
            return args[0], True
    return annotation, False


def _list_kind(annotation: Any) -> str | None:
    """``tuple[str, ...]``: lines; ``tuple[int, ...]``: numbers; ``tuple[tuple[str,
    str], ...]``: pairs; None for anything else."""
    if typing.get_origin(annotation) is not tuple:
        return None
    args = typing.get_args(annotation)
    if len(args) != 2 or args[1] is not Ellipsis:
        return None
    inner = args[0]
    if inner is str:
        return "lines"
    if inner is int:
        return "numbers"
    if typing.get_origin(inner) is tuple and typing.get_args(inner) == (str, str):
        return "pairs"
    return None


def _is_table(annotation: Any) -> bool:
    return typing.get_origin(annotation) is dict and typing.get_args(annotation) == (str, int)


def list_text(kind: str, value: Any) -> str:
    """A list option's value as its control shows it."""
    items = list(value or ())
    if kind == "numbers":
        return ", ".join(str(v) for v in items)
    if kind == "pairs":
        return "\n".join(", ".join(pair) for pair in items)
    return "\n".join(str(v) for v in items)


@cache
def picked_options(game: Game[Any]) -> dict[str, list[OptionChoice]]:
    """The options a game's presenter offers as lists to pick from (drawn once)."""
    return game.web.option_choices()


@cache
def library_option_names(game: Game[Any]) -> frozenset[str]:
    """The options that the teams picked from libraries set (Superhero Gladiators'
    ``teams``): the form shows them as the teams' pickers, not as options."""
    if not game.library_kind:
        return frozenset()
    samples = list(game.web.design_samples().items())
    if not samples:
        return frozenset()
    try:
        data = game.check_library_item(samples[0][1], samples[0][0])[1]
        start = game.start(None, game.info.default_players, 0)
        chosen = {seat: [data] for seat in start.seats[: start.players]}
        return frozenset(game.library_options(chosen))
    except GladiatoriumError:
        return frozenset()


def _chosen_key(picks: list[OptionChoice], defaults: dict[str, Any]) -> str:
    for choice in picks:
        if choice.key and all(defaults.get(k) == v for k, v in choice.values.items()):
            return choice.key
    return ""


def option_fields(game: Game[Any], players: int | None = None) -> list[OptionField]:
    """A form control per option of ``game``, its default for ``players`` filled in
    (options that a pick or the teams set go with them: no control of their own)."""
    defaults = game.default_options(players).model_dump(mode="json")
    lists = picked_options(game)
    covered = set(library_option_names(game))
    for name, picks in lists.items():
        covered |= {k for c in picks for k in c.values if k != name}
    out = []
    for name, info in game.options_type.model_fields.items():
        if name in covered:
            continue
        annotation, nullable = _unwrap(info.annotation)
        default = defaults.get(name)
        help_text = info.description or ""
        listed = _list_kind(annotation)
        if name in lists:
            picks = lists[name]
            key = _chosen_key(picks, defaults)
            item = OptionField(name, "pick", key, help_text, picks=picks)
            item.own = "" if key else str(default or "")
        elif annotation is bool:
            item = OptionField(name, "checkbox", bool(default), help_text)
        elif annotation in (int, float):
            item = OptionField(name, "number", "" if default is None else str(default), help_text)
            item.step = "1" if annotation is int else "any"
            _bounds(item, info.metadata, annotation is int)
        elif typing.get_origin(annotation) is typing.Literal:
            choices = [str(a) for a in typing.get_args(annotation)]
            item = OptionField(name, "select", str(default), help_text, choices)
        elif annotation is str:
            kind = "textarea" if isinstance(default, str) and "\n" in default else "text"
            if name == "position" or (info.metadata and _longest(info.metadata) > 200):
                kind = "textarea"
            item = OptionField(name, kind, default or "", help_text)
        elif listed is not None:
            item = OptionField(name, listed, list_text(listed, default), help_text)
        elif _is_table(annotation):
            item = OptionField(name, "table", {k: str(v) for k, v in default.items()}, help_text)
        else:
            item = OptionField(name, "json", json.dumps(default, indent=1), help_text)
        item.nullable = nullable
        out.append(item)
    return out


def _longest(metadata: list[Any]) -> int:
    return max((getattr(rule, "max_length", 0) or 0 for rule in metadata), default=0)


def _bounds(item: OptionField, metadata: list[Any], whole: bool) -> None:
    for rule in metadata:
        for attr, bound in (("ge", "low"), ("gt", "low"), ("le", "high"), ("lt", "high")):
            limit = getattr(rule, attr, None)
            if isinstance(limit, int | float):
                if whole and attr in ("gt", "lt"):
                    limit = limit + 1 if attr == "gt" else limit - 1
                setattr(item, bound, limit)


def _read_list(item: OptionField, raw: str) -> Any:
    """A list control's text as the option's value; raises ValueError naming the
    problem."""
    if item.kind == "numbers":
        words = [w.strip() for w in raw.replace("\n", ",").split(",") if w.strip()]
        bad = [w for w in words if not w.lstrip("-").isdecimal()]
        if bad:
            raise ValueError(f"expected whole numbers separated by commas, got {bad[0]!r}")
        return [int(w) for w in words]
    lines = [line.strip() for line in raw.split("\n") if line.strip()]
    if item.kind == "pairs":
        pairs = [[part.strip() for part in line.split(",")] for line in lines]
        for n, pair in enumerate(pairs, start=1):
            if len(pair) != 2:
                raise ValueError(f"line {n}: expected two names separated by a comma")
        return pairs
    return lines


def _read_table(item: OptionField, form: FormData) -> dict[str, int]:
    table: dict[str, int] = {}
    shown: dict[str, str] = {}
    for name in item.value:
        raw = text_of(form, f"{item.key}.{name}").strip()
        shown[name] = raw
        if not raw.lstrip("-").isdecimal():
            item.error = item.error or f"{name}: expected a whole number, got {raw!r}"
            continue
        table[name] = int(raw)
    item.value = shown
    return table


def _read_pick(item: OptionField, form: FormData, values: dict[str, Any]) -> None:
    key = text_of(form, item.key)
    item.own = text_of(form, f"{item.key}.own").replace("\r\n", "\n")
    chosen = [c for c in item.picks if c.key == key]
    if not chosen:
        item.error = f"choose one of {', '.join(c.key for c in item.picks if c.key)}"
        return
    item.value = key
    values.update(chosen[0].values)
    if not key:
        if not item.own.strip():
            item.error = "write your own, or pick one above"
            return
        values[item.name] = item.own


def read_options(
    game: Game[Any], fields: list[OptionField], form: FormData, players: int | None = None
) -> dict[str, Any]:
    """Option values that differ from the defaults for ``players`` (what the match
    starts from: :meth:`Game.start`); problems go on the fields."""
    defaults = game.default_options(players).model_dump(mode="json")
    literals = {
        name: typing.get_args(_unwrap(info.annotation)[0])
        for name, info in game.options_type.model_fields.items()
    }
    values: dict[str, Any] = {}
    # the page's form sends every option (an unticked box is left out: false); a
    # shorter post from elsewhere keeps the defaults of the options it leaves out
    whole = "options" in form
    for item in fields:
        raw = text_of(form, item.key).replace("\r\n", "\n")
        value: Any
        present = item.key in form or (
            item.kind == "table" and any(f"{item.key}.{k}" in form for k in item.value)
        )
        if not present and (item.kind != "checkbox" or not whole):
            continue
        if item.kind == "pick":
            picked: dict[str, Any] = {}
            _read_pick(item, form, picked)
            values.update({k: v for k, v in picked.items() if v != defaults.get(k)})
            continue
        if item.kind == "checkbox":
            value = item.key in form
            item.value = value
        elif item.kind == "table":
            value = _read_table(item, form)
            if item.error:
                continue
        else:
            item.value = raw
            if raw.strip() == "" and item.kind in ("number", "json", "select"):
                if item.nullable:
                    value = None
                else:
                    item.error = "give a value"
                    continue
            elif item.kind == "number":
                try:
                    value = int(raw) if item.step == "1" else float(raw)
                except ValueError:
                    kind = "a whole number" if item.step == "1" else "a number"
                    item.error = f"expected {kind}, got {raw!r}"
                    continue
            elif item.kind == "select":
                matches = [v for v in literals[item.name] if str(v) == raw]
                if not matches:
                    item.error = f"choose one of {', '.join(item.choices)}"
                    continue
                value = matches[0]
            elif item.kind in LISTS:
                try:
                    value = _read_list(item, raw)
                except ValueError as err:
                    item.error = str(err)
                    continue
            elif item.kind == "json":
                try:
                    value = json.loads(raw)
                except (json.JSONDecodeError, RecursionError) as err:
                    item.error = f"not valid JSON: {err}"
                    continue
            else:
                value = raw
        if value != defaults.get(item.name):
            values[item.name] = value
    check_options(game, fields, values)
    return values


def check_options(game: Game[Any], fields: list[OptionField], values: dict[str, Any]) -> None:
    """The values that could be read, checked by the options model itself; each problem
    goes on the field it names (a problem of an option without a control of its own on
    the field that sets it: the map's on the map's pick)."""
    by_name = {item.name: item for item in fields}
    try:
        game.options_type.model_validate(values)
    except GladiatoriumError as err:  # a game's own check (a map's) that names the option
        target = by_name.get(str(err).split(" ", 1)[0].rstrip(":"))
        if target is not None and not target.error:
            target.error = str(err)
    except ValidationError as err:
        for problem_ in err.errors():
            loc = [str(p) for p in problem_["loc"]]
            target = by_name.get(loc[0]) if loc else None
            where = ".".join(loc[1:])
            message = f"{where}: {problem_['msg']}" if where else problem_["msg"]
            if target is not None and not target.error:
                target.error = message
