"""Parsing shared by the sub-commands: options, seats, game-specific flags."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from gladiatorium.core import Game, OptionsError, Seat, best_bot, get_bot


def parse_pairs(values: Sequence[str], what: str) -> dict[str, str]:
    """``["K=V", ...]`` to a dict; a pair without ``=`` is an error naming it."""
    out: dict[str, str] = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise OptionsError(f"--{what} {item!r}: expected KEY=VALUE")
        out[key.strip()] = value.strip()
    return out


def option_value(text: str) -> Any:
    """An option value: JSON if it parses (numbers, true, lists), else the text."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def parse_extra_flags(args: Sequence[str]) -> dict[str, list[str]]:
    """Game-specific ``--flag value`` pairs left over by the common parser."""
    flags: dict[str, list[str]] = {}
    items = list(args)
    while items:
        flag = items.pop(0)
        if not flag.startswith("--") or len(flag) < 3:
            raise OptionsError(f"unexpected argument {flag!r}")
        name, sep, value = flag[2:].partition("=")
        if not sep:
            if not items or items[0].startswith("--"):
                raise OptionsError(f"--{name} needs a value")
            value = items.pop(0)
        flags.setdefault(name, []).append(value)
    return flags


def build_options(game: Game[Any], option: Sequence[str], extra: Sequence[str]) -> dict[str, Any]:
    values = {k: option_value(v) for k, v in parse_pairs(option, "option").items()}
    values.update(game.cli_options(parse_extra_flags(extra)))
    return values


def seat_controllers(
    game: Game[Any], seats: Sequence[Seat], given: Sequence[str], default: str
) -> dict[Seat, str]:
    """``--seat N=human|BOT`` for each seat; others get ``default`` (``best``: the
    game's best bot). Unknown seats and bots are errors that list the known ones."""
    chosen = parse_pairs(given, "seat")
    for seat in chosen:
        if seat not in seats:
            raise OptionsError(f"--seat {seat}: no such seat; seats are {', '.join(seats)}")
    out = {}
    for seat in seats:
        name = chosen.get(seat, default)
        if name == "best":
            name = best_bot(game)
        if name != "human":
            get_bot(game, name)
        out[seat] = name
    return out
