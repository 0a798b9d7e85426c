"""Actions: small frozen values with a text notation and a JSON form."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any, ClassVar

from pydantic import TypeAdapter, ValidationError

from gladiatorium.core.errors import IllegalAction


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


def action_from_json(types: Iterable[type[Action]], data: dict[str, Any]) -> Action:
    """Rebuild an action from :meth:`Action.to_json` output; names what is wrong."""
    by_name = {t.type_name: t for t in types}
    kind = data.get("type")
    if kind not in by_name:
        raise IllegalAction(f"unknown action type {kind!r}; known: {', '.join(sorted(by_name))}")
    cls = by_name[str(kind)]
    fields = {f.name: data[f.name] for f in dataclasses.fields(cls) if f.name in data}
    try:
        return TypeAdapter(cls).validate_python(fields)
    except ValidationError as err:
        raise IllegalAction(f"bad {kind} action: {err}") from err
