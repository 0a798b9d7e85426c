"""Options: every tunable rule of Electron Gladiators, defaults = rulebook + rulings."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from gladiatorium.games.electron_gladiators.setups import parse_setup, setup_text

#: the longest set-up text (a full set-up is about 2,000 characters)
MAX_SETUP_BYTES = 64 * 1024


class ElectronGladiatorsOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    setup: str = Field(
        "basic-1",
        max_length=MAX_SETUP_BYTES,
        description="shipped set-up (basic-1, basic-2, deluxe-1, deluxe-2) or set-up text "
        "(the CLI flag --setup FILE reads a file into it)",
    )
    overcome: Literal["greater", "greater-or-equal"] = Field(
        "greater", description="a gun total overcomes armour when greater (ruling R5)"
    )
    draw_after_quiet_turns: int = Field(
        60,
        ge=1,
        le=10_000,
        description="draw after this many turns in a row with no vehicle lost (R6)",
    )
    max_turns: int = Field(
        1000, ge=1, le=100_000, description="draw after this many turns in all (R6)"
    )
    scout_free_turns: bool = Field(
        True,
        description="a scout's 45/90-degree turn costs no point (never two in a row); "
        "false: one point each (R11)",
    )
    scout_free_turn_is_a_move: bool = Field(
        False,
        description="a Scout's free 45/90-degree turn alone is a move action of its own "
        "(R32); default: the move still needs a point spent",
    )
    flyers_pass_vehicles: bool = Field(
        True,
        description="flyers fly over any vehicle but stop on an empty square (R3); false: "
        "no vehicle enters or passes another's square (before version 3)",
    )
    inverter_field_is_attack: bool = Field(
        True,
        description="the Inverter's field is the turn's one attack: one vehicle destroyed, "
        "no other attack that turn (R33); false: it destroys every enemy it passes over "
        "and another vehicle may still attack (before version 3)",
    )
    mosquito_attacks_mosquitos: bool = Field(
        False,
        description="alone, a Mosquito may attack a Mosquito as well as a Scout (R16, "
        "before version 3); default: alone it attacks only Scouts",
    )
    self_spotting: bool = Field(
        False, description="a vehicle may spot its own parabolic shot (R13)"
    )
    scout_attack_angle: Literal[0, 90] = Field(
        0,
        description="the Scout's gun fires only straight ahead (0, the table's attack "
        "angle) or, like a tank's turret, 45 degrees either side (90) (R27)",
    )
    evasive_range: int = Field(
        6, ge=1, le=30, description="most spaces from which a Scout or Mosquito may be attacked"
    )
    tank_min_flyer_distance: int = Field(
        2, ge=1, le=30, description="tanks cannot fire at a flyer nearer than this"
    )
    parabolic_safe_flyer_distance: int = Field(
        2, ge=0, le=30, description="a parabolic shot passes friendly flyers this near the gun"
    )

    @field_validator("setup")
    @classmethod
    def _setup_parses(cls, value: str) -> str:
        parse_setup(setup_text(value), "setup")
        return value
