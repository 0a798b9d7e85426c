"""Warnings a player must not miss, from the public view: a King in check and the
countdown of a captured queen (held ``queen_hold_turns`` whole turns, she wins the
game for her captors). For the terminal's prompt and the web pages."""

from __future__ import annotations

from typing import Any


def warnings_of(view: dict[str, Any], hold_turns: int) -> list[str]:
    out = [f"{team} King in check" for team, check in view.get("in_check", {}).items() if check]
    for team, held in view.get("captive_queens", {}).items():
        left = hold_turns - int(held.get("held_turns", 0))
        where = f" on {held['square']}" if held.get("square") else ""
        turns = "turn" if left == 1 else "turns"
        out.append(
            f"the {team} Queen is held by the {held.get('captor')}{where}: "
            f"{max(left, 0)} {turns} until her captors win"
        )
    return out
