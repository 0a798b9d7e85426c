"""Options: every tunable rule of Super Dice Heroes, defaults = rulebook + rulings."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from gladiatorium.games.super_dice_heroes.position import load_position
from gladiatorium.games.super_dice_heroes.sheet import load_sheet

#: the longest sheet text (the standard sheet is about 5,000 characters)
MAX_SHEET_BYTES = 64 * 1024
ROUNDS_MAX = 50
POWER_USES_MAX = 10


class SuperDiceHeroesOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    sheet: str = Field(
        "standard",
        max_length=MAX_SHEET_BYTES,
        description="shipped score sheet (standard) or sheet YAML text "
        "(the CLI flag --sheet FILE reads a file into it) (S1)",
    )
    rounds: int = Field(10, ge=1, le=ROUNDS_MAX, description="rounds in a game")
    dice_per_round: int = Field(4, ge=1, le=8, description="shared dice rolled each round")
    power_uses: int = Field(3, ge=0, le=POWER_USES_MAX, description="superpower uses per game")
    reroll_power_doubles: bool = Field(
        True, description="reroll the two set-up power dice until they differ"
    )
    hero_names: tuple[str, ...] = Field(
        (),
        max_length=100,
        description="hero names by seat (seat 1 first); unnamed seats get 'Hero N' (R2)",
    )
    may_waste_dice: bool = Field(
        False,
        description="house rule: a hero may finish a round with dice unspent, which are lost "
        "(the rulebook spends all four) (R6)",
    )
    minions_last_resort: bool = Field(
        False,
        description="a robot minion may be defeated only with a die that can fill no box "
        "where the hero stands (a wild die: only when no box there can be filled) (R18)",
    )
    ties: Literal["shared", "bystanders"] = Field(
        "shared",
        description="equal top honor: share the win, or most bystanders first (R14)",
    )
    solo_target: int | None = Field(
        None,
        ge=0,
        le=10_000,
        description="house rule for solo play: honor needed to save the city; short of it "
        "the game is lost (none: the rulebook's ranking, a title and no loss) (R15)",
    )

    position: str = Field(
        "",
        max_length=64 * 1024,
        description="start from this position (YAML: the sheets as a round begins; the CLI "
        "flag --position FILE reads a file into it); empty: a new game",
    )

    @field_validator("sheet")
    @classmethod
    def _sheet_loads(cls, value: str) -> str:
        load_sheet(value)
        return value

    @field_validator("hero_names")
    @classmethod
    def _names_fit(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for index, name in enumerate(value):
            if not name.strip() or len(name) > 40 or "\n" in name:
                raise ValueError(f"hero_names[{index}]: a name is 1 to 40 characters on one line")
        return value

    @model_validator(mode="after")
    def _position_fits(self) -> SuperDiceHeroesOptions:
        if self.position:
            load_position(self.position, load_sheet(self.sheet), self.power_uses, self.rounds)
        return self
