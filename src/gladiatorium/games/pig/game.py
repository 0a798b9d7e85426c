"""Pig: the tiny example game that shows the whole contract (docs/architecture.md).

On your turn roll a die as often as you like: a 1 loses this turn's points and
ends your turn; anything else adds to them. Hold to bank them. First to the
target wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from gladiatorium.core import (
    Action,
    Copying,
    Ending,
    Game,
    GameInfo,
    Outcome,
    Seat,
    State,
    Termination,
    standing,
)
from gladiatorium.games.pig.terminal import PigTerminal


class PigOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    target: int = Field(30, ge=1, le=10_000, description="banked points that win")
    sides: int = Field(6, ge=2, le=1000, description="faces on the die")


@dataclass(frozen=True)
class Roll(Action):
    type_name: ClassVar[str] = "roll"


@dataclass(frozen=True)
class Hold(Action):
    type_name: ClassVar[str] = "hold"


#: the one way a match ends
TARGET_REACHED = Ending(Termination.TARGET, "reached the target")


class PigState(State[PigOptions]):
    #: a copy shares the plain values and copies the banked points
    COPYING = Copying(shared=("turn_total", "to_move"), copied={"banked": dict})

    def __init__(self, options: PigOptions, players: int, seed: int) -> None:
        super().__init__(options, players, seed)
        self.banked = {str(n): 0 for n in range(1, players + 1)}
        self.turn_total = 0
        self.to_move = "1"

    @property
    def seats(self) -> tuple[Seat, ...]:
        return tuple(self.banked)

    def _awaiting(self) -> tuple[Seat, ...]:
        return (self.to_move,)

    def legal_actions(self, seat: Seat) -> list[Action]:
        if seat != self.to_move or self.is_over:
            return []
        return [Roll(), Hold()] if self.turn_total else [Roll()]

    def _apply(self, seat: Seat, action: Action) -> None:
        if isinstance(action, Hold):
            self.banked[seat] += self.turn_total
            self.emit("hold", f"{seat} banks {self.turn_total}", seat=seat, points=self.turn_total)
            self._pass_turn()
            return
        face = self.rng.d(self.options.sides)
        self.emit("roll", f"{seat} rolls {face}", seat=seat, face=face)
        if face == 1:
            self._pass_turn()
        else:
            self.turn_total += face

    def _pass_turn(self) -> None:
        self.turn_total = 0
        self.to_move = str(int(self.to_move) % self.players + 1)

    def outcome(self) -> Outcome | None:
        leaders = [s for s, points in self.banked.items() if points >= self.options.target]
        return Outcome.win(leaders, TARGET_REACHED()) if leaders else None

    def view(self, seat: Seat | None) -> dict[str, Any]:
        return {"banked": dict(self.banked), "turn_total": self.turn_total, "to_move": self.to_move}


class Pig(Game[PigOptions]):
    info = GameInfo(
        slug="pig",
        name="Pig",
        summary="The tiny dice example: roll to build points, hold to bank them.",
        min_players=2,
        max_players=8,
        default_players=2,
        hidden_information=False,
        simultaneous=False,
        version="1",
    )
    options_type = PigOptions
    action_types = (Roll, Hold)
    search_iterations = 200  # a decision is cheap; the dice need many samples
    terminal_presenter = PigTerminal  # terminal.py; on the web, the generic page

    def new_state(self, options: PigOptions, players: int, seed: int) -> PigState:
        return PigState(options, players, seed)

    def evaluate(self, state: State[PigOptions]) -> dict[Seat, float]:
        """Banked points (and the turn's, for the seat rolling) against the best other."""
        assert isinstance(state, PigState)
        points = {s: float(b) for s, b in state.banked.items()}
        points[state.to_move] += state.turn_total
        return standing(points, state.options.target / 4)
