"""Options: every tunable rule of Gladiator Chess; defaults = rulebook + rulings
(docs/rules/gladiator-chess.md)."""

from __future__ import annotations

from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from gladiatorium.games.gladiator_chess.board import WIDTH
from gladiatorium.games.gladiator_chess.pieces import KINDS, KING, QUEEN

#: combat dice per piece (King 2, Mounted Knight 2, Footman 2, Champion 2, ...)
DEFAULT_DICE = {"K": 5, "MK": 3, "F": 1, "C": 4, "W": 2, "BK": 4, "S": 3, "KK": 4, "SQ": 1}
#: hit points per piece
DEFAULT_HIT_POINTS = {
    "K": 30,
    "MK": 16,
    "F": 4,
    "C": 20,
    "W": 6,
    "BK": 20,
    "S": 12,
    "KK": 20,
    "SQ": 2,
}
#: the most dice a roll may use, and the most hit points a piece may have (bounds that
#: keep a fight quick; the rulebook's numbers are far below them)
MAX_DICE = 20
MAX_HIT_POINTS = 100
#: ruling R1: the set-up list read as a symmetric 12-file back rank
DEFAULT_BACK_RANK = ("W", "W", "KK", "S", "BK", "K", "Q", "C", "S", "MK", "W", "W")
DEFAULT_SECOND_RANK = ("F", "SQ") * 6
FIGHTERS = tuple(k for k in KINDS if k != QUEEN)


class GladiatorChessOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    order: Literal["alternate", "team-blocks"] = Field(
        "alternate",
        description="alternate: white King, black King, white Queen, black Queen, ... (R2); "
        "team-blocks: each team makes its four moves in a row",
    )
    turn_limit: int = Field(
        100, ge=1, le=10_000, description="the game is drawn after this many turns (R20)"
    )
    queen_hold_turns: int = Field(
        5,
        ge=1,
        le=100,
        description="whole turns a captive queen must be held to win (Queen 6, R14)",
    )
    king_may_override: bool = Field(
        True,
        description="the King may override any other commander (R17); false: only one "
        "who cannot move (General 7)",
    )
    king_slot_moves_any: bool = Field(
        False,
        description="in his own slot a King whose own pieces cannot move moves any unmoved "
        "piece of his team (R3, R28; before version 3); default: the slot passes (King 8)",
    )
    check_answer: Literal["must-work", "as-if-won"] = Field(
        "must-work",
        description="must-work: an attack answers check only if a roll could fell the "
        "defender, and a failed answer is checkmate (R16); as-if-won: any attack answers "
        "as if won, and after a failed one the next slot must answer (before version 3)",
    )
    queen_freezes_queen: bool = Field(
        True,
        description="a Queen may freeze the other Queen (Queen 3, R15); false: never "
        "(before version 3)",
    )
    champion_leaps: bool = Field(
        False, description="the Champion jumps over pieces on his path (R4: he does not)"
    )
    fight_to_the_fall: bool = Field(
        False,
        description="keep rolling until one piece falls; default: one exchange, a "
        "surviving loser stays where it was (R6)",
    )
    queen_heal_amount: int = Field(
        0,
        ge=0,
        le=100,
        description="hit points the Queen restores to each adjacent friend; 0 = fully (R7)",
    )
    attack_bonus_dice: int = Field(
        1, ge=0, le=MAX_DICE, description="extra d6 for the attacker (General 9)"
    )
    frozen_bonus_dice: int = Field(
        1,
        ge=0,
        le=MAX_DICE,
        description="extra d6 against a piece frozen by the attacker's queen (Queen 10)",
    )
    dice: dict[str, int] = Field(
        default_factory=lambda: dict(DEFAULT_DICE),
        max_length=64,
        description=f"combat d6 per piece code (1 to {MAX_DICE})",
    )
    hit_points: dict[str, int] = Field(
        default_factory=lambda: dict(DEFAULT_HIT_POINTS),
        max_length=64,
        description=f"hit points per piece code (1 to {MAX_HIT_POINTS})",
    )
    back_rank: tuple[str, ...] = Field(
        DEFAULT_BACK_RANK,
        max_length=WIDTH,
        description="piece codes on rank 1 (and 10) from file a (R1)",
    )
    second_rank: tuple[str, ...] = Field(
        DEFAULT_SECOND_RANK,
        max_length=WIDTH,
        description="piece codes on rank 2 (and 9) from file a (R1)",
    )

    @field_validator("dice", "hit_points", mode="before")
    @classmethod
    def _over_the_table(cls, value: object, info: ValidationInfo) -> object:
        """``dice={"K": 6}`` changes the King's dice and keeps the rest of the table."""
        if not isinstance(value, dict):
            return value
        table = DEFAULT_DICE if info.field_name == "dice" else DEFAULT_HIT_POINTS
        return {**table, **{str(k).strip().upper(): v for k, v in value.items()}}

    @field_validator("dice", "hit_points")
    @classmethod
    def _every_fighter(cls, value: dict[str, int], info: ValidationInfo) -> dict[str, int]:
        unknown = [k for k in value if k not in FIGHTERS]
        if unknown:
            raise ValueError(
                f"no fighting piece {', '.join(unknown)}; codes: {', '.join(FIGHTERS)} "
                "(the Queen never fights)"
            )
        bad = [k for k, v in value.items() if v < 1]
        if bad:
            raise ValueError(f"must be at least 1 for {', '.join(bad)}")
        high = MAX_DICE if info.field_name == "dice" else MAX_HIT_POINTS
        over = [k for k, v in value.items() if v > high]
        if over:
            raise ValueError(f"must be at most {high} for {', '.join(over)}")
        return value

    @field_validator("back_rank", "second_rank")
    @classmethod
    def _rank_of_pieces(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        codes = tuple(v.strip().upper() for v in value)
        if len(codes) != WIDTH:
            raise ValueError(f"needs {WIDTH} piece codes (files a-l), got {len(codes)}")
        for file, code in zip("abcdefghijkl", codes, strict=True):
            if code not in KINDS and code not in {"", "-"}:
                raise ValueError(f"file {file}: unknown piece code {code!r}; codes: {KINDS}")
        return codes

    @model_validator(mode="after")
    def _one_king_one_queen(self) -> GladiatorChessOptions:
        both = self.back_rank + self.second_rank
        for code in (KING, QUEEN):
            if both.count(code) != 1:
                raise ValueError(f"the set-up needs exactly one {code}, has {both.count(code)}")
        return self
