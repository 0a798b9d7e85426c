"""Actions: small frozen values with a text notation and a JSON form."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any, ClassVar

from pydantic import TypeAdapter, ValidationError

from gladiatorium.core.errors import IllegalAction

#: the longest text field an action read from JSON may hold
MAX_FIELD_CHARS = 200


def is_number(text: str, digits: int = 6) -> bool:
    """1 to ``digits`` ASCII digits. ``str.isdigit()`` also takes ``²`` and ``٣``, which
    ``int()`` refuses or reads as another number, and ``int()`` refuses 5,000 digits."""
    return 0 < len(text) <= digits and text.isascii() and text.isdigit()


@dataclasses.dataclass(frozen=True)
class Action:
    """Base of every game's actions. Subclasses are frozen dataclasses.

    ``str(action)`` is the notation typed in the terminal and stored in records;
    :meth:`to_json` gives the fields for machines.
    """

    type_name: ClassVar[str] = "action"

    def __str__(self) -> str:
        values = " ".join(str(getattr(self, f.name)) for f in dataclasses.fields(self))
        return f"{self.type_name} {values}".strip()

    def to_json(self) -> dict[str, Any]:
        fields = TypeAdapter(type(self)).dump_python(self, mode="json")
        return {"type": self.type_name, "notation": str(self), **fields}


def _hostile_field(fields: dict[str, Any]) -> str | None:
    """Texts an action never holds: over-long, or with digits other than 0-9 (which
    pydantic would read as numbers and notation parsers would choke on)."""
    stack: list[Any] = list(fields.values())
    while stack:
        value = stack.pop()
        if isinstance(value, list | tuple) and len(stack) < 1000:
            stack.extend(value)
        elif isinstance(value, str):
            if len(value) > MAX_FIELD_CHARS:
                return f"a text of {len(value)} characters (at most {MAX_FIELD_CHARS})"
            if any(c.isdigit() and not c.isascii() for c in value):
                return f"{value!r} holds a digit other than 0-9"
        elif not isinstance(value, bool | int | float | None):
            return f"{value!r} is not a value an action holds"
    return None


def action_from_json(types: Iterable[type[Action]], data: dict[str, Any]) -> Action:
    """Rebuild an action from :meth:`Action.to_json` output; names what is wrong."""
    by_name = {t.type_name: t for t in types}
    if not isinstance(data, dict):
        raise IllegalAction(f"an action is a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in by_name:
        raise IllegalAction(f"unknown action type {kind!r}; known: {', '.join(sorted(by_name))}")
    cls = by_name[str(kind)]
    fields = {f.name: data[f.name] for f in dataclasses.fields(cls) if f.name in data}
    problem = _hostile_field(fields)
    if problem is not None:
        raise IllegalAction(f"bad {kind} action: {problem}")
    try:
        return TypeAdapter(cls).validate_python(fields)
    except ValidationError as err:
        raise IllegalAction(f"bad {kind} action: {err}") from err
