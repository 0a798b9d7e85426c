"""Pig at the terminal: the banked points and the turn, in two lines."""

from __future__ import annotations

from typing import Any

from gladiatorium.core import Seat, State, TerminalPresenter


class PigTerminal(TerminalPresenter):
    def render(self, state: State[Any], seat: Seat | None) -> str:
        view = state.view(seat)
        banked = "  ".join(f"{s}: {points}" for s, points in view["banked"].items())
        return f"banked  {banked}\nseat {view['to_move']} to move, {view['turn_total']} this turn"
