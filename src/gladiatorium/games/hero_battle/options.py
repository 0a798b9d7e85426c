"""Options: every number and rule of Hero Battle, defaults = rulebook + our rulings.

Row numbers (R1, R2 ...) point at the rulings table in docs/rules/hero-battle.md.
"""

from __future__ import annotations

from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from gladiatorium.core.kept import cached

#: Hand of God effects the engine knows (each lasts one round)
HAND_OF_GOD_EFFECTS: dict[str, str] = {
    "anonymous-round": "hits go to the moderator privately this round",
    "double-heals": "every heal restores twice as much this round",
    "extra-hit": "every living player assigns one extra hit this round",
    "forced-abstain": "two random living players must abstain this round",
    "grant-hp": "one random living hero gains HP at once",
    "resurrection": "one random dead hero comes back at once",
    "extra-heal": "every living player assigns one extra heal this round",
    "no-heals": "nobody heals this round",
    "double-up": "hits may double up on one hero this round",
    "no-guesses": "no identity guesses this round",
    "double-nemesis-bonus": "nemesis bonuses are doubled this round",
    "calm": "nothing happens",
}

DEFAULT_HAND_OF_GOD = tuple(HAND_OF_GOD_EFFECTS)

#: bounds of every number and list a moderator may set (far above any forum Battle)
MAX_PLAYERS = 100
MAX_HP = 1000
MAX_ROUNDS = 10_000
#: the longest position text (a 100-player Battle is about 20,000 characters)
MAX_POSITION_CHARS = 64 * 1024

#: characters a hero or player name may not hold (they delimit the notation or BBCode)
FORBIDDEN_IN_NAMES = ",;=[]()|*\n"


@cached("hero_battle.options.theme_heroes", "hero-battle", None, "shipped hero lists read")
def theme_heroes(theme_file: str = "superhero.txt") -> tuple[str, ...]:
    """The default theme's hero list from data/ (comments and blank lines skipped; read
    once: every Battle's start asks for it)."""
    text = resources.files("gladiatorium.games.hero_battle").joinpath("data", theme_file)
    lines = text.read_text(encoding="utf-8").splitlines()
    return tuple(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def check_name(name: str, where: str) -> None:
    """A hero or player name: 1-40 characters, none of the notation's delimiters."""
    if not name.strip() or len(name) > 40 or name != name.strip():
        raise ValueError(f"{where}: {name!r} must be 1 to 40 characters without edge spaces")
    bad = [c for c in FORBIDDEN_IN_NAMES if c in name]
    if bad:
        raise ValueError(f"{where}: {name!r} may not contain {''.join(bad)!r}")
    words = name.lower().split()
    if "heal" in words or "hit" in words:
        raise ValueError(f"{where}: {name!r} may not contain the word 'hit' or 'heal'")


class HeroBattleOptions(BaseModel):
    """Every tunable rule. Numbers default to the rulebook's Adjusting HP section."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # ----- set-up -----------------------------------------------------------------
    theme: str = Field(
        "Superhero Battle", max_length=80, description="the Battle's theme (shown in posts)"
    )
    signups: tuple[str, ...] = Field(
        (),
        max_length=MAX_PLAYERS,
        description="the hero each player submitted, seat 1 first; empty: the theme list in order",
    )
    player_names: tuple[str, ...] = Field(
        (), max_length=MAX_PLAYERS, description="forum names by seat; empty: 'Player N'"
    )
    assign_heroes: tuple[str, ...] = Field(
        (),
        max_length=2 * MAX_PLAYERS,
        description="moderator's assignment: hero of each seat (empty: random) (R3)",
    )
    assign_nemeses: tuple[tuple[str, str], ...] = Field(
        (), max_length=MAX_PLAYERS, description="moderator's nemeses of each seat (empty: random)"
    )
    balanced_nemeses: bool = Field(
        True, description="every hero is the nemesis of the same number of players (R4)"
    )
    # ----- numbers ----------------------------------------------------------------
    starting_hp: int = Field(12, ge=1, le=1000, description="HP every hero starts with")
    hits_per_round: int = Field(2, ge=0, le=5, description="hits each player assigns")
    heals_per_round: int = Field(1, ge=0, le=5, description="heals each player assigns")
    hp_per_hit: int = Field(1, ge=0, le=MAX_HP, description="HP a hit removes")
    hp_per_heal: int = Field(1, ge=0, le=MAX_HP, description="HP a heal restores")
    nemesis_bonus: int = Field(
        3, ge=0, le=MAX_HP, description="HP gained when one of your nemeses dies"
    )
    outing_penalty: int = Field(4, ge=0, le=MAX_HP, description="HP an outed hero loses")
    correct_guess_bonus: int = Field(
        3,
        ge=0,
        le=MAX_HP,
        description="HP the correct guesser's hero gains (3 as first stated) (R1)",
    )
    bad_call_penalty: int = Field(2, ge=0, le=MAX_HP, description="HP a wrong guesser's hero loses")
    shared_guess_reduction: int = Field(
        1,
        ge=0,
        le=MAX_HP,
        description="bonus reduction per extra player making the same correct guess",
    )
    # ----- default rules that may be switched -------------------------------------
    close_when_all_moved: bool = Field(
        True, description="the round closes as soon as every living player has moved (R6)"
    )
    double_up: bool = Field(True, description="Double-Up rule after half the heroes died")
    double_up_dead_fraction: float = Field(
        0.5, gt=0, le=1, description="share of dead heroes that starts the Double-Up rule"
    )
    last_standing_reveal: bool = Field(
        True, description="Last Man(s) Standing: reveal the last one or two hidden heroes"
    )
    tie: Literal["shared", "highest-hp", "draw"] = Field(
        "shared", description="the last heroes die together: share the win, most HP, draw (R9)"
    )
    max_rounds: int = Field(
        200, ge=1, le=MAX_ROUNDS, description="a battle still going after this is drawn"
    )
    # ----- other optional rules ---------------------------------------------------
    double_hits_always: bool = Field(False, description="hits may double up from round 1")
    guesses_per_round: int = Field(
        1, ge=1, le=20, description="identity guesses per player per round (more: optional rule)"
    )
    abstainers_get_no_move: bool = Field(
        False, description="optional: an abstainer deals no random hit"
    )
    public_guesses: bool = Field(
        False, description="optional: a wrong guess is announced with the player named"
    )
    outing_kills: bool = Field(
        False, description="optional: a correct call-out kills the outed hero"
    )
    heroes_per_player: int = Field(
        1, ge=1, le=2, description="optional: two heroes for each player (R26)"
    )
    # ----- the server's talk ------------------------------------------------------
    private_messages: bool = Field(
        True,
        description="players may message each other privately (deals); off: only the "
        "thread and a word with the moderator",
    )
    extra_heroes: tuple[str, ...] = Field(
        (),
        max_length=2 * MAX_PLAYERS,
        description="with two heroes each: the moderator's extra names (empty: theme list)",
    )
    # ----- Random Player ----------------------------------------------------------
    random_player: bool = Field(False, description="optional: Random Player takes a hero")
    random_player_hero: str = Field(
        "",
        max_length=40,
        description="the moderator's extra name for the pool (empty: next theme name)",
    )
    # ----- Anonymous play ---------------------------------------------------------
    anonymous_every: int = Field(
        0, ge=0, le=MAX_ROUNDS, description="every Nth round is anonymous (0: never)"
    )
    anonymous_rounds: tuple[int, ...] = Field(
        (), max_length=MAX_ROUNDS, description="these rounds are anonymous"
    )
    anonymous_after_death: bool = Field(False, description="the round after a death is anonymous")
    # ----- Resurrection -----------------------------------------------------------
    resurrection_every: int = Field(
        0,
        ge=0,
        le=MAX_ROUNDS,
        description="at the start of every Nth round a dead hero returns (0: never)",
    )
    resurrection_rounds: tuple[int, ...] = Field(
        (), max_length=MAX_ROUNDS, description="rounds that start with one"
    )
    resurrection_count: int = Field(
        1, ge=1, le=MAX_PLAYERS, description="heroes brought back each time"
    )
    # ----- Team Affiliation -------------------------------------------------------
    teams: bool = Field(False, description="optional: Team Affiliation")
    team_names: tuple[str, ...] = Field(
        ("Red", "Blue", "Green", "Gold", "Silver", "Violet", "Orange", "Black", "White", "Teal"),
        max_length=50,
        description="team names, used in order",
    )
    team_count: int = Field(0, ge=0, le=50, description="number of teams (0: players // 4)")
    team_bonus: int = Field(
        3, ge=0, le=MAX_HP, description="HP for each hero of the last intact team"
    )
    team_tie_bonus: int = Field(1, ge=0, le=MAX_HP, description="HP each when two teams tie")
    # ----- Hand of God ------------------------------------------------------------
    hand_of_god: bool = Field(False, description="optional: Hand of God")
    hand_of_god_every: int = Field(
        3, ge=1, le=MAX_ROUNDS, description="roll at the start of every Nth round"
    )
    hand_of_god_rounds: tuple[int, ...] = Field(
        (),
        max_length=MAX_ROUNDS,
        description="roll at the start of these rounds instead (empty: every Nth)",
    )
    hand_of_god_table: tuple[str, ...] = Field(
        DEFAULT_HAND_OF_GOD,
        max_length=100,
        description="the agreed table (10 or more effects) (R14)",
    )
    hand_of_god_grant_hp: int = Field(
        3, ge=0, le=MAX_HP, description="HP the grant-hp effect gives"
    )
    forced_abstainers: int = Field(
        2, ge=1, le=MAX_PLAYERS, description="players the forced-abstain effect picks"
    )
    # ----- Zombies ----------------------------------------------------------------
    zombies: bool = Field(False, description="optional: dead heroes become Zombies")
    zombie_dead_dead_hp: int = Field(-5, le=0, description="a Zombie at or below this is gone")
    # ----- a Battle taken over ----------------------------------------------------
    position: str = Field(
        "",
        max_length=MAX_POSITION_CHARS,
        description="start from this position (YAML: the deal and the HP table as a round "
        "is about to start; the CLI flag --position FILE reads a file into it); empty: a "
        "new Battle",
    )

    @field_validator("signups", "assign_heroes", "extra_heroes")
    @classmethod
    def _hero_names(cls, value: tuple[str, ...], info: object) -> tuple[str, ...]:
        field = getattr(info, "field_name", "heroes")
        for index, name in enumerate(value):
            check_name(name, f"{field}[{index}]")
        lowered = [n.casefold() for n in value]
        for index, name in enumerate(lowered):
            if name in lowered[:index]:
                raise ValueError(f"{field}[{index}]: {value[index]!r} is listed twice")
        return value

    @field_validator("player_names", "team_names")
    @classmethod
    def _names(cls, value: tuple[str, ...], info: object) -> tuple[str, ...]:
        field = getattr(info, "field_name", "names")
        for index, name in enumerate(value):
            check_name(name, f"{field}[{index}]")
        if len({n.casefold() for n in value}) != len(value):
            raise ValueError(f"{field}: names must be different")
        return value

    @field_validator("random_player_hero")
    @classmethod
    def _rp_name(cls, value: str) -> str:
        if value:
            check_name(value, "random_player_hero")
        return value

    @field_validator("hand_of_god_table")
    @classmethod
    def _table(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for index, effect in enumerate(value):
            if effect not in HAND_OF_GOD_EFFECTS:
                known = ", ".join(HAND_OF_GOD_EFFECTS)
                raise ValueError(f"hand_of_god_table[{index}]: unknown effect {effect!r}; {known}")
        if len(value) < 10:
            raise ValueError("hand_of_god_table: the table needs at least 10 entries (R14)")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> HeroBattleOptions:
        if self.heals_per_round + self.hits_per_round == 0:
            raise ValueError("hits_per_round + heals_per_round: a move needs at least one target")
        if self.position:
            from gladiatorium.games.hero_battle.position import read_position

            read_position(self.position, self)
        return self
