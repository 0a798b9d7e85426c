"""A game's options as a form: a control per option, read from the options model's
fields (their types, bounds and help), and the posted values read back, each problem
put on its field."""

from __future__ import annotations

import json
import types
import typing
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError
from starlette.datastructures import FormData

from gladiatorium.core import Game
from gladiatorium.server.pages.common import text_of


@dataclass
class OptionField:
    """One option of a game as a form control."""

    name: str
    kind: str  # checkbox, number, select, text, textarea, json
    value: Any
    help: str = ""
    choices: list[str] = field(default_factory=list)
    low: float | None = None
    high: float | None = None
    step: str = "1"
    nullable: bool = False
    error: str = ""

    @property
    def key(self) -> str:
        return f"opt.{self.name}"


def _unwrap(annotation: Any) -> tuple[Any, bool]:
    """``X | None`` -> (X, True)."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1 and len(args) < len(typing.get_args(annotation)):
            return args[0], True
    return annotation, False


def option_fields(game: Game[Any]) -> list[OptionField]:
    """A form control per option of ``game``, its default filled in."""
    defaults = game.make_options().model_dump(mode="json")
    out = []
    for name, info in game.options_type.model_fields.items():
        annotation, nullable = _unwrap(info.annotation)
        default = defaults.get(name)
        help_text = info.description or ""
        if annotation is bool:
            item = OptionField(name, "checkbox", bool(default), help_text)
        elif annotation in (int, float):
            item = OptionField(name, "number", "" if default is None else str(default), help_text)
            item.step = "1" if annotation is int else "any"
            for rule in info.metadata:
                for attr, bound in (("ge", "low"), ("gt", "low"), ("le", "high"), ("lt", "high")):
                    limit = getattr(rule, attr, None)
                    if isinstance(limit, int | float):
                        if annotation is int and attr in ("gt", "lt"):
                            limit = limit + 1 if attr == "gt" else limit - 1
                        setattr(item, bound, limit)
        elif typing.get_origin(annotation) is typing.Literal:
            choices = [str(a) for a in typing.get_args(annotation)]
            item = OptionField(name, "select", str(default), help_text, choices)
        elif annotation is str:
            kind = "textarea" if isinstance(default, str) and "\n" in default else "text"
            item = OptionField(name, kind, default or "", help_text)
        else:
            item = OptionField(name, "json", json.dumps(default, indent=1), help_text)
        item.nullable = nullable
        out.append(item)
    return out


def read_options(game: Game[Any], fields: list[OptionField], form: FormData) -> dict[str, Any]:
    """Option values that differ from the defaults; problems go on the fields."""
    defaults = game.make_options().model_dump(mode="json")
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
        if item.key not in form and (item.kind != "checkbox" or not whole):
            continue
        if item.kind == "checkbox":
            value = item.key in form
            item.value = value
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
    # the values that could be read are checked by the options model itself
    try:
        game.options_type.model_validate(values)
    except ValidationError as err:
        by_name = {item.name: item for item in fields}
        for problem_ in err.errors():
            loc = [str(p) for p in problem_["loc"]]
            target = by_name.get(loc[0]) if loc else None
            where = ".".join(loc[1:])
            message = f"{where}: {problem_['msg']}" if where else problem_["msg"]
            if target is not None and not target.error:
                target.error = message
    return values
