"""Options of a Superhero Gladiators match: the teams (hero data embedded so a record
replays alone), the map (its text) and every rule knob."""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from gladiatorium.core.errors import OptionsError
from gladiatorium.core.kept import Table, cached
from gladiatorium.games.superhero_gladiators.arena import parse_arena
from gladiatorium.games.superhero_gladiators.hero_files import (
    SAMPLES_DIR,
    hero_from_data,
    hero_to_data,
    load_hero_file,
    sample_files,
)
from gladiatorium.games.superhero_gladiators.heroes import RULES, DesignRules, Hero
from gladiatorium.games.superhero_gladiators.map_files import shipped_maps

#: The default map (the shipped ``small`` map): two teams at either end.
DEFAULT_MAP: Final = "1......2\n1......2\n1..##..2\n........"


def _sample_team(stem: str) -> tuple[dict[str, Any], ...]:
    """A team of one shipped sample hero, as option data (a record embeds it, so a saved
    match never depends on the files)."""
    hero = load_hero_file(SAMPLES_DIR / f"{stem}.yaml").hero
    if hero is None:
        raise ValueError(f"the sample hero {stem!r} is not valid")
    return (hero_to_data(hero),)


#: The default teams: the sample Cowboy against the sample Perseus (data/heroes), two of
#: the balanced samples (the Cowboy wins 58 times in 100: docs/lab-balance.md).
DEFAULT_SAMPLES: Final = ("cowboy", "perseus")
DEFAULT_TEAMS: Final[tuple[tuple[dict[str, Any], ...], ...]] = tuple(
    _sample_team(stem) for stem in DEFAULT_SAMPLES
)


#: bounds: teams are marked 1-9 on a map, heroes of a team lettered A-Z (``1A``); a map
#: of the largest size (26 columns, 99 rows) with its line ends
MAX_TEAMS = 9
MAX_TEAM_SIZE = 26
MAX_MAP_CHARS = 27 * 99


class SuperheroGladiatorsOptions(BaseModel):
    """Every tunable rule; defaults are the rulebook plus our rulings (docs/rules)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    teams: tuple[Annotated[tuple[dict[str, Any], ...], Field(max_length=MAX_TEAM_SIZE)], ...] = (
        Field(
            DEFAULT_TEAMS,
            max_length=MAX_TEAMS,
            description="one list of hero data (as in a hero file) per team/seat",
        )
    )
    map: str = Field(
        DEFAULT_MAP, max_length=MAX_MAP_CHARS, description="the arena map text (see the legend)"
    )
    map_name: str = Field("small", max_length=60, description="the map's name, for display")
    area_radius: Literal["prose", "table"] = Field(
        "prose", description="area/superarea reach 1/2 squares (prose) or 2/3 (table), R10"
    )
    turn_limit: int = Field(
        40,
        ge=1,
        le=10_000,
        description="after this many turns the match is a tie (last resort, C20)",
    )
    friendly_fire: bool = Field(
        True, description="area attacks hurt everyone in the blast, teammates too (C9)"
    )
    area_spares_attacker: bool = Field(
        False,
        description="an attacker within the blast of its own distance area attack takes no "
        "damage (false: it takes half, like everyone adjacent) (C9)",
    )
    pit_falls_faint: bool = Field(
        True, description="a hero that falls into a bottomless pit faints at once (A4)"
    )

    perception_1_placement: Literal["anywhere", "start-squares"] = Field(
        "anywhere",
        description="where the next player may place a Perception 1 hero: any free floor "
        "square but another team's start squares, or only its own team's (S4)",
    )
    speedy_raises_cap: bool = Field(
        True,
        description="speedy adds to the Movement trait that caps flight, wall-walking and "
        "line-of-sight moves (false: the cap is the bare trait) (M3)",
    )
    copy_on_any_hit: bool = Field(
        False,
        description="copy power may copy any attack that hits, entangling ones too (false: "
        "only an attack that does the hero direct damage) (C18)",
    )

    position: str = Field(
        "",
        max_length=64 * 1024,
        description="start from this fight in progress (YAML: turn, segment, where each hero "
        "stands; the CLI flag --position FILE reads a file into it); empty: placement",
    )

    power_points: int = Field(
        200,
        ge=0,
        le=1_000_000,
        description="power points a hero may spend (house heroes may go over)",
    )

    @field_validator("map")
    @classmethod
    def _map_parses(cls, text: str) -> str:
        parse_arena(text)
        return text

    @model_validator(mode="after")
    def _teams_valid(self) -> SuperheroGladiatorsOptions:
        if len(self.teams) < 2:
            raise ValueError("at least two teams")
        for t, team in enumerate(self.teams, start=1):
            if not team:
                raise ValueError(f"team {t} has no hero")
            for h, data in enumerate(team):
                team_heroes(data, f"team {t} hero {h + 1}", self.design_rules)
        return self

    @property
    def design_rules(self) -> DesignRules:
        return DesignRules(power_points=self.power_points, area_radius=self.area_radius)


def team_heroes(data: dict[str, Any], where: str, rules: DesignRules = RULES) -> Hero:
    """A hero from option data; every design error is named with ``where``. Heroes are
    values, so data read before (every match of a batch reads the same teams) gives
    the hero read the first time."""
    key = (repr(data), where, rules)
    hero = _READ.get(key)
    if hero is None:
        hero = _READ.keep(key, _team_hero(data, where, rules))
    return hero


#: heroes read from option data, by the data's repr (plain data: types and order show)
MAX_READ: Final = 512
_READ: Table[tuple[str, str, DesignRules], Hero] = Table(
    "superhero_gladiators.options.read", "superhero-gladiators", MAX_READ, "heroes read from files"
)


def _team_hero(data: dict[str, Any], where: str, rules: DesignRules) -> Hero:
    parsed = hero_from_data(data, rules)
    if parsed.hero is None or parsed.errors:
        problems = "; ".join(f"{e.field or '(hero)'}: {e.message}" for e in parsed.errors)
        raise ValueError(f"{where}: {problems}")
    return parsed.hero


def defaults_for(players: int) -> dict[str, Any]:
    """Option values for ``players`` teams with every other option at its default: two
    are the defaults; more are the default two and the other samples in name order
    (one hero a team, from the first again past the eighth), on the smallest shipped
    map with a start square for every team."""
    if players == len(DEFAULT_TEAMS):
        return {}
    teams, name, text = _defaults_for(players)
    return {"teams": teams, "map": text, "map_name": name}


@cached(
    "superhero_gladiators.options.defaults_for",
    "superhero-gladiators",
    MAX_TEAMS,
    "sample teams and shipped map by players (files read)",
)
def _defaults_for(players: int) -> tuple[tuple[tuple[dict[str, Any], ...], ...], str, str]:
    others = [p.stem for p in sample_files() if p.stem not in DEFAULT_SAMPLES]
    stems = [*DEFAULT_SAMPLES, *others]
    teams = tuple(_sample_team(stems[t % len(stems)]) for t in range(players))
    return (teams, *_smallest_map_for(players))


def _smallest_map_for(teams: int) -> tuple[str, str]:
    """The shipped map of fewest squares with start squares for teams 1 to ``teams``."""
    fits = []
    for name, path in shipped_maps().items():
        text = path.read_text(encoding="utf-8").strip("\n")  # as the form's pick has it
        arena = parse_arena(text, name)
        if all(arena.starts.get(str(t)) for t in range(1, teams + 1)):
            fits.append((arena.width * arena.height, name, text))
    if not fits:
        raise OptionsError(f"no shipped map has start squares for {teams} teams")
    _, name, text = min(fits)
    return name, text
