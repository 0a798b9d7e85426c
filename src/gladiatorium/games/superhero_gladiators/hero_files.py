"""Hero files: one hero per YAML (or JSON) file, read into a :class:`Hero` with every
problem named by file, field and, for YAML, line.

A file is *unreadable* when it cannot be opened or is not YAML/JSON at all (a syntax
error); it is *invalid* when it reads but breaks the design rules or the file format.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, Final, TypeVar

import yaml

from gladiatorium.core.errors import OptionsError
from gladiatorium.core.files import FileRefused, compose_yaml, parse_json, parse_yaml, read_text
from gladiatorium.games.superhero_gladiators.heroes import (
    INFINITE,
    RULES,
    Attribute,
    Attributes,
    DesignRules,
    Flaw,
    Gizmo,
    Hero,
    Power,
    PowerType,
    RuleError,
    Style,
    Uses,
    attribute_errors,
    budget_errors,
    power_errors,
)

SAMPLES_DIR: Final = Path(__file__).parent / "data" / "heroes"
#: the largest hero file read (a hero with many powers is a few kilobytes)
MAX_HERO_FILE_BYTES: Final = 256 * 1024
HERO_FIELDS: Final = ("name", "attributes", "bought", "powers")
POWER_FIELDS: Final = ("name", "type", "styles", "flaws", "gizmo", "level", "uses", "look")

E = TypeVar("E", bound=StrEnum)


@dataclass(frozen=True)
class FileError:
    """A problem in a hero file: the field (``powers[1].uses``; empty for the whole
    file), what is wrong, and the line in the file when known."""

    field: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = self.field or "(file)"
        line = f" (line {self.line})" if self.line else ""
        return f"{where}{line}: {self.message}"


@dataclass(frozen=True)
class PowerEntry:
    """One entry of the file's ``powers`` list. ``power`` is ``None`` when the entry
    lacks what a power needs (a known type, a whole-number level, uses); ``complete``
    is false when part of it was not understood, so it has no price."""

    name: str
    type: str
    power: Power | None
    complete: bool


@dataclass(frozen=True)
class ParsedHero:
    """A hero read from plain data, as far as it could be, with every error."""

    hero: Hero | None
    entries: tuple[PowerEntry, ...]
    errors: tuple[RuleError, ...]


@dataclass(frozen=True)
class HeroFile:
    """The result of reading one hero file."""

    path: Path
    hero: Hero | None
    entries: tuple[PowerEntry, ...]
    errors: tuple[FileError, ...]
    readable: bool

    @property
    def valid(self) -> bool:
        return self.readable and self.hero is not None and not self.errors

    @property
    def exit_code(self) -> int:
        """0 valid, 1 invalid, 2 unreadable."""
        return 0 if self.valid else 1 if self.readable else 2


# --------------------------------------------------------------------------- data -> hero


class _Reader:
    """Collects format errors while turning plain data into hero values."""

    def __init__(self) -> None:
        self.errors: list[RuleError] = []

    def error(self, field: str, message: str) -> None:
        self.errors.append(RuleError(field, message))

    def unknown_keys(self, data: Mapping[Any, Any], known: Sequence[str], where: str) -> None:
        for key in data:
            if key not in known:
                path = f"{where}.{key}" if where else str(key)
                self.error(path, f"unknown field (known: {', '.join(known)})")

    def text(self, data: Mapping[Any, Any], key: str, where: str, required: bool = True) -> str:
        value = data.get(key)
        if value is None:
            if required:
                self.error(where, "missing")
            return ""
        if not isinstance(value, str):
            self.error(where, "must be text")
            return ""
        return value

    def whole(self, value: object, where: str) -> int | None:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        self.error(where, "missing" if value is None else f"must be a whole number, not {value!r}")
        return None

    def choice(self, value: object, kind: type[E], where: str, what: str) -> E | None:
        try:
            if not isinstance(value, str):
                raise ValueError(value)
            return kind(value)
        except ValueError:
            names = ", ".join(k.value for k in kind)
            self.error(where, f"unknown {what} {value!r} (one of: {names})")
            return None

    def choices(self, value: object, kind: type[E], where: str, what: str) -> tuple[E, ...] | None:
        """A list of names (a single name is a list of one). The known names are kept;
        ``None`` only when the value is not a list at all."""
        if value is None:
            return ()
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list):
            self.error(where, f"must be a list of {what}s")
            return None
        found = [self.choice(v, kind, f"{where}[{i}]", what) for i, v in enumerate(items)]
        return tuple(f for f in found if f is not None)


def _mapping(reader: _Reader, data: object, where: str) -> Mapping[Any, Any]:
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        reader.error(where, "must be a mapping of names to values")
        return {}
    return data


def _attributes(reader: _Reader, data: object, where: str, required: bool) -> Attributes:
    mapping = _mapping(reader, data, where)
    reader.unknown_keys(mapping, [a.value for a in Attribute], where)
    values = []
    for a in Attribute:
        path = f"{where}.{a.value}"
        value = reader.whole(mapping.get(a.value), path) if required or a.value in mapping else 0
        values.append(value or 0)
    return Attributes(*values)


def _uses(reader: _Reader, value: object, where: str) -> Uses | None:
    if isinstance(value, str) and value.strip().lower() in (INFINITE, "inf", "unlimited"):
        return INFINITE
    if isinstance(value, float) and math.isinf(value) and value > 0:
        return INFINITE
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    reader.error(where, f"must be a whole number or {INFINITE}, not {value!r}")
    return None


def _power(reader: _Reader, data: object, where: str) -> PowerEntry:
    mapping = _mapping(reader, data, where)
    errors_before = len(reader.errors)
    name = reader.text(mapping, "name", f"{where}.name")
    raw_type = mapping.get("type")
    kind = reader.choice(raw_type, PowerType, f"{where}.type", "power type")
    level = reader.whole(mapping.get("level"), f"{where}.level")
    uses = _uses(reader, mapping.get("uses"), f"{where}.uses")
    styles = reader.choices(mapping.get("styles"), Style, f"{where}.styles", "style")
    flaws = reader.choices(mapping.get("flaws"), Flaw, f"{where}.flaws", "flaw")
    gizmo: Gizmo | None = None
    if "gizmo" in mapping:
        gizmo = reader.choice(mapping["gizmo"], Gizmo, f"{where}.gizmo", "gizmo")
    elif kind is not PowerType.HEALING:
        gizmo = Gizmo.VULNERABLE  # the standard power has a vulnerable gizmo (R5)
    look = reader.text(mapping, "look", f"{where}.look", required=False)
    reader.unknown_keys(
        mapping, POWER_FIELDS, where
    )  # a misspelt key (flaw:) leaves the price unknown
    complete = len(reader.errors) == errors_before
    if kind is None or level is None or uses is None:
        return PowerEntry(name, str(raw_type or ""), None, False)
    power = Power(name, kind, level, uses, styles or (), flaws or (), gizmo, look)
    return PowerEntry(name, kind.value, power, complete)


def _powers(reader: _Reader, data: object) -> tuple[PowerEntry, ...]:
    if data is None:
        return ()
    if not isinstance(data, list):
        reader.error("powers", "must be a list of powers")
        return ()
    return tuple(_power(reader, item, f"powers[{i}]") for i, item in enumerate(data))


def _overlaps(rule_field: str, format_fields: set[str]) -> bool:
    """A rule error repeats a format error when they are about the same field."""
    return any(
        f == rule_field or f.startswith(f"{rule_field}.") or rule_field.startswith(f"{f}.")
        for f in format_fields
    )


def hero_from_data(data: object, rules: DesignRules = RULES) -> ParsedHero:
    """Read a hero from plain data (what YAML or JSON loads to) and check every rule.
    As much of the hero as could be understood is kept, for reports."""
    reader = _Reader()
    if not isinstance(data, Mapping):
        reader.error("", "a hero file holds one mapping with name, attributes and powers")
        return ParsedHero(None, (), tuple(reader.errors))
    reader.unknown_keys(data, HERO_FIELDS, "")
    name = reader.text(data, "name", "name")
    attributes = _attributes(reader, data.get("attributes"), "attributes", required=True)
    bought = _attributes(reader, data.get("bought"), "bought", required=False)
    entries = _powers(reader, data.get("powers"))
    powers = tuple(e.power for e in entries if e.power is not None)
    hero = Hero(name, attributes, bought, powers)
    return ParsedHero(
        hero, entries, tuple(reader.errors + _rule_errors(hero, entries, reader, rules))
    )


def _rule_errors(
    hero: Hero, entries: Sequence[PowerEntry], reader: _Reader, rules: DesignRules
) -> list[RuleError]:
    found: list[RuleError] = []
    if not hero.name.strip() and not any(e.field == "name" for e in reader.errors):
        found.append(RuleError("name", "a hero needs a name"))
    found += attribute_errors(hero, rules)
    for index, entry in enumerate(entries):
        if entry.power is not None:
            found += [e.under(f"powers[{index}]") for e in power_errors(entry.power)]
    found += budget_errors(hero, rules)
    seen = {e.field for e in reader.errors}
    return [e for e in found if not _overlaps(e.field, seen)]


# --------------------------------------------------------------------------- files


_PATH_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _line_marks(text: str) -> dict[str, int]:
    """1-based line of every field path in a YAML (or JSON) text; empty if it does
    not compose."""
    try:
        root = compose_yaml(text, "hero")
    except FileRefused:
        return {}
    marks: dict[str, int] = {}

    def walk(node: yaml.Node | None, path: str) -> None:
        if node is None:
            return
        marks[path] = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                name = str(key.value)
                child = f"{path}.{name}" if path else name
                marks[child] = key.start_mark.line + 1
                walk(value, child)
                marks[child] = key.start_mark.line + 1
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                walk(item, f"{path}[{i}]")

    walk(root, "")
    return marks


def _line_of(field: str, marks: Mapping[str, int]) -> int | None:
    """The line of a field, or of the nearest enclosing field that is in the file."""
    parts = [m.group(0) for m in _PATH_PART.finditer(field)]
    while parts:
        path = "".join(p if p.startswith("[") else f".{p}" for p in parts).lstrip(".")
        if path in marks:
            return marks[path]
        parts.pop()
    return None


def _unreadable(path: Path, message: str, line: int | None = None) -> HeroFile:
    return HeroFile(path, None, (), (FileError("", message, line),), readable=False)


def _load_data(path: Path, text: str) -> object:
    if path.suffix.lower() == ".json":
        return parse_json(text, path)
    return parse_yaml(text, path)


def read_hero_text(text: str, path: Path, rules: DesignRules = RULES) -> HeroFile:
    """Read a hero from the text of a file (JSON when the path ends in .json)."""
    try:
        data = _load_data(path, text)
    except FileRefused as exc:
        return _unreadable(path, exc.reason, exc.line)
    if data is None:
        return HeroFile(path, None, (), (FileError("", "the file is empty"),), readable=True)
    parsed = hero_from_data(data, rules)
    # the lines are found only for errors (composing the text again costs as much as
    # reading it)
    marks = _line_marks(text) if parsed.errors else {}
    errors = [FileError(e.field, e.message, _line_of(e.field, marks)) for e in parsed.errors]
    errors.sort(key=lambda e: e.line or 0)
    return HeroFile(path, parsed.hero, parsed.entries, tuple(errors), readable=True)


def load_hero_file(path: Path, rules: DesignRules = RULES) -> HeroFile:
    """Read and check one hero file."""
    try:
        text = read_text(path, MAX_HERO_FILE_BYTES)
    except FileRefused as exc:
        return _unreadable(path, exc.reason, exc.line)
    return read_hero_text(text, path, rules)


# --------------------------------------------------------------------------- samples


def sample_files() -> list[Path]:
    """The sample heroes shipped with the game."""
    return sorted(SAMPLES_DIR.glob("*.yaml"))


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def find_sample(name: str) -> Path | None:
    """A shipped sample hero by file name or hero name, exact or by a unique part
    (``cowboy``, ``cowboy.yaml``, ``fred``, ``Perseus``); ``None`` if none or several match."""
    wanted = _slug(re.sub(r"\.(ya?ml|json)$", "", name, flags=re.IGNORECASE))
    if not wanted:
        return None
    files = sample_files()
    for path in files:
        if path.stem == wanted:
            return path
    matches = [p for p in files if wanted in p.stem]
    return matches[0] if len(matches) == 1 else None


def resolve_hero_path(given: str) -> Path:
    """The file named, or failing that a shipped sample of that name."""
    path = Path(given)
    if path.exists():
        return path
    return find_sample(given) or path


# --------------------------------------------------------------------------- writing


def hero_to_data(hero: Hero) -> dict[str, Any]:
    """Plain data for a hero file; defaults (no styles, no flaws, a vulnerable gizmo
    on a power that has one) are left out to keep files short."""
    data: dict[str, Any] = {
        "name": hero.name,
        "attributes": {a.value: hero.attributes[a] for a in Attribute},
    }
    bought = {a.value: hero.bought[a] for a in Attribute if hero.bought[a]}
    if bought:
        data["bought"] = bought
    data["powers"] = [_power_data(p) for p in hero.powers]
    return data


def _power_data(power: Power) -> dict[str, Any]:
    data: dict[str, Any] = {"name": power.name, "type": power.type.value}
    if power.styles:
        data["styles"] = [s.value for s in power.styles]
    if power.flaws:
        data["flaws"] = [f.value for f in power.flaws]
    if power.gizmo is not None and power.gizmo is not Gizmo.VULNERABLE:
        data["gizmo"] = power.gizmo.value
    data["level"] = power.level
    data["uses"] = power.uses
    if power.look:
        data["look"] = power.look
    return data


def hero_yaml(hero: Hero) -> str:
    """The hero as the text of a YAML hero file."""
    return yaml.safe_dump(hero_to_data(hero), sort_keys=False, allow_unicode=True)


def hero_data(given: str) -> dict[str, Any]:
    """A hero file (or shipped sample name) as option data; errors name the file."""
    result = load_hero_file(resolve_hero_path(given))
    if not result.valid or result.hero is None:
        problems = "; ".join(str(e) for e in result.errors)
        raise OptionsError(f"hero file {result.path}: {problems}")
    return hero_to_data(result.hero)
