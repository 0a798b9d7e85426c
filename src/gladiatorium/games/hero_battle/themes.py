"""Themes: a moderator's hero list and house rules, written as a YAML file, published on
the server and picked when a Battle is created.

A theme file::

    name: The Hundred           # the Battle's theme, shown in posts
    heroes: [Captain Aurora, ...]   # sign-ups in order; the rest tops the pool up
    restrictions: {starting_hp: 14} # optional: any option but the deal's
    teams: [Red, Blue, ...]     # optional: Team Affiliation with these team names
    hand_of_god: [calm, ...]    # optional: Hand of God with this table

A Battle of N players takes the first N heroes as sign-ups and the rest as the
moderator's extra names (two heroes a player, Random Player). The theme is checked by
the game's own options, every problem named by field and line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from importlib import resources
from typing import Any, Final

from pydantic import ValidationError

from gladiatorium.core.errors import OptionsError
from gladiatorium.core.files import parse_yaml_with_lines, yaml_line
from gladiatorium.core.kept import cached
from gladiatorium.games.hero_battle.options import MAX_PLAYERS, HeroBattleOptions, check_name

THEME_FIELDS: Final = ("name", "heroes", "restrictions", "teams", "hand_of_god")
#: options a theme's restrictions may not set: the deal, the teams and the table (their
#: own fields), and a position (a Battle taken over)
DEAL_OPTIONS: Final = (
    "theme",
    "signups",
    "player_names",
    "assign_heroes",
    "assign_nemeses",
    "extra_heroes",
    "random_player_hero",
    "teams",
    "team_names",
    "hand_of_god",
    "hand_of_god_table",
    "position",
)
#: the most heroes a theme lists: a hundred players with two heroes each
MAX_THEME_HEROES: Final = 2 * MAX_PLAYERS
#: the fewest: a Battle of the fewest players
MIN_THEME_HEROES: Final = 8
#: a problem of a theme: its place in the YAML, its field, what is wrong
Problem = tuple[tuple[str | int, ...], str, str]
_INDEXED = re.compile(r"^(\w+)\[(\d+)\]")


def shipped_themes() -> dict[str, str]:
    """The themes in ``data/themes``, by file name (without ``.yaml``)."""
    folder = resources.files("gladiatorium.games.hero_battle").joinpath("data", "themes")
    found = {}
    for entry in folder.iterdir():
        if entry.name.endswith(".yaml"):
            found[entry.name.removesuffix(".yaml")] = entry.read_text(encoding="utf-8")
    return dict(sorted(found.items()))


#: the shipped theme whose heroes sign up, in order, for more players than the default
#: list holds
LONG_THEME: Final = "the-hundred"


@cached("hero_battle.themes.long_signups", "hero-battle", 1, "a shipped theme's heroes")
def long_heroes() -> tuple[str, ...]:
    """The heroes of :data:`LONG_THEME`, in order."""
    _, data = check_theme(shipped_themes()[LONG_THEME], f"{LONG_THEME}.yaml")
    return tuple(data["heroes"])


def theme_options(data: Mapping[str, Any], players: int) -> dict[str, Any]:
    """Option values for a Battle of ``players`` in the theme ``data`` (as
    :func:`check_theme` made it): the first heroes sign up, the rest are extra names."""
    heroes = list(data["heroes"])
    if players > len(heroes):
        raise OptionsError(
            f"players: the theme {data['name']!r} lists {len(heroes)} heroes; "
            f"a Battle of {players} players needs {players}"
        )
    values: dict[str, Any] = dict(data.get("restrictions") or {})
    values.update(theme=data["name"], signups=heroes[:players])
    rest = heroes[players:]
    if rest:
        values.update(extra_heroes=rest, random_player_hero=rest[0])
    if data.get("teams"):
        values.update(teams=True, team_names=list(data["teams"]))
        # teams of about four, as many as the theme names at most
        values.setdefault("team_count", min(len(data["teams"]), max(2, players // 4)))
    if data.get("hand_of_god"):
        values.update(hand_of_god=True, hand_of_god_table=list(data["hand_of_god"]))
    return values


def check_theme(text: str, source: str) -> tuple[str, dict[str, Any]]:
    """A theme file read and checked: its name and data, or an OptionsError naming
    ``source``, and each problem's field and line."""
    data, root = parse_yaml_with_lines(text, source)
    problems = [
        f"{source}{yaml_line(root, loc)}: {where}: {message}"
        for loc, where, message in _problems(data)
    ]
    if problems:
        raise OptionsError("; ".join(problems))
    theme = {key: data[key] for key in THEME_FIELDS if key in data}
    return str(data["name"]), theme


def _problems(data: Any) -> list[Problem]:
    """(YAML path, field, message) of every problem of a theme's data."""
    if not isinstance(data, dict):
        return [((), "(file)", "a theme is a mapping: name, heroes, restrictions, ...")]
    found: list[Problem] = [
        ((str(k),), str(k), f"unknown field; a theme has {', '.join(THEME_FIELDS)}")
        for k in data
        if k not in THEME_FIELDS
    ]
    name = data.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 80:
        found.append((("name",), "name", "give the theme's name (1 to 80 characters)"))
    heroes = data.get("heroes")
    if not isinstance(heroes, list) or not MIN_THEME_HEROES <= len(heroes) <= MAX_THEME_HEROES:
        count = len(heroes) if isinstance(heroes, list) else 0
        found.append(
            (
                ("heroes",),
                "heroes",
                f"list {MIN_THEME_HEROES} to {MAX_THEME_HEROES} hero names (got {count})",
            )
        )
        return found
    found += _hero_problems(heroes)
    restrictions = data.get("restrictions") or {}
    if not isinstance(restrictions, dict):
        found.append((("restrictions",), "restrictions", "a mapping of option: value"))
        return found
    for key in restrictions:
        if key in DEAL_OPTIONS:
            found.append(
                (
                    ("restrictions", key),
                    f"restrictions.{key}",
                    "set by the theme's own fields, not a restriction",
                )
            )
    for key, kind in (("teams", "team names"), ("hand_of_god", "Hand of God effects")):
        value = data.get(key)
        if value is not None and not (
            isinstance(value, list) and all(isinstance(v, str) for v in value)
        ):
            found.append(((key,), key, f"a list of {kind}"))
    if found or not isinstance(name, str):
        return found
    return _option_problems(data)


def _hero_problems(heroes: list[Any]) -> list[Problem]:
    found: list[Problem] = []
    seen: set[str] = set()
    for index, hero in enumerate(heroes):
        where = f"heroes[{index}]"
        if not isinstance(hero, str):
            found.append((("heroes", index), where, "a hero's name"))
            continue
        try:
            check_name(hero, where)
        except ValueError as err:
            found.append((("heroes", index), where, str(err).removeprefix(f"{where}: ")))
        if hero.casefold() in seen:
            found.append((("heroes", index), where, f"{hero!r} is listed twice"))
        seen.add(hero.casefold())
    return found


def _option_problems(data: Mapping[str, Any]) -> list[Problem]:
    """The theme as a Battle of as many players as it can hold, checked by the options."""
    players = min(len(data["heroes"]), MAX_PLAYERS)
    try:
        HeroBattleOptions.model_validate(theme_options(data, players))
    except ValidationError as err:
        return [_theme_place(error, players) for error in err.errors()]
    return []


def _theme_place(error: Any, players: int) -> Problem:
    """Where in the theme an option's error lies: its own field, or a restriction."""
    option = str(error["loc"][0]) if error["loc"] else ""
    message = str(error["msg"]).removeprefix("Value error, ")
    indexed = _INDEXED.match(message)
    index = int(indexed.group(2)) if indexed else None
    if indexed:
        message = message[indexed.end() :].removeprefix(": ")
    message = message.removeprefix(f"{option}: ")
    if option == "team_names":
        return ("teams",) if index is None else ("teams", index), "teams", message
    if option == "hand_of_god_table":
        place: tuple[str | int, ...] = ("hand_of_god",) if index is None else ("hand_of_god", index)
        return place, "hand_of_god", message
    if option in ("signups", "extra_heroes"):
        offset = 0 if option == "signups" else players
        spot = offset + (index or 0)
        return ("heroes", spot), f"heroes[{spot}]", message
    if option:
        return ("restrictions", option), f"restrictions.{option}", message
    return (), "restrictions", message
