"""The Superhero Gladiators game definition: info, options, bots, render, CLI flags."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from gladiatorium.core import Game, GameInfo, Seat, State
from gladiatorium.core.errors import GladiatoriumError, OptionsError
from gladiatorium.core.game import BotFactory, Design
from gladiatorium.games.superhero_gladiators import designer
from gladiatorium.games.superhero_gladiators.actions import ACTION_TYPES
from gladiatorium.games.superhero_gladiators.arena import parse_arena
from gladiatorium.games.superhero_gladiators.arena_render import render_state
from gladiatorium.games.superhero_gladiators.bots import GreedyBot
from gladiatorium.games.superhero_gladiators.fighters import Fighter
from gladiatorium.games.superhero_gladiators.hero_files import (
    hero_to_data,
    load_hero_file,
    read_hero_text,
    resolve_hero_path,
)
from gladiatorium.games.superhero_gladiators.map_files import map_text
from gladiatorium.games.superhero_gladiators.options import SuperheroGladiatorsOptions
from gladiatorium.games.superhero_gladiators.render import effect_text, kind_text
from gladiatorium.games.superhero_gladiators.state import SuperheroGladiatorsState
from gladiatorium.games.superhero_gladiators.web import web_picture

NOTATION = """\
Squares are a column letter and a row number (a1 is the top left).
  place c2                          put the hero being placed on a start square
  move d4                           walk
  move d4 up 2 with Winged sandals  move using movement powers (up N: altitude)
  attack 2A with Six-shooter        attack hero 2A (team 2's first hero)
  attack 2A gizmo Harpe with Lasso  attack the gizmo of 2A's power Harpe
  heal 1B with Mead horn            heal yourself or an adjacent teammate
  notice 2A unused                  look for a hidden gizmo (or name a used one)
  escape / escape with Rubbery body try to get free of entanglement
  pass                              do nothing this segment
When hit:  take hit | use <defence> | copy <copy power>
When a hidden gizmo of yours is noticed and you have several unused: reveal <power>
Type 'legal' to list every action."""


class SuperheroGladiators(Game[SuperheroGladiatorsOptions]):
    info = GameInfo(
        slug="superhero-gladiators",
        name="Superhero Gladiators",
        summary="Design superheroes, then fight them segment by segment in an arena.",
        min_players=2,
        max_players=9,
        default_players=2,
        hidden_information=False,
        simultaneous=False,
        version="5",
    )
    options_type = SuperheroGladiatorsOptions
    action_types = ACTION_TYPES

    def new_state(
        self, options: SuperheroGladiatorsOptions, players: int, seed: int
    ) -> SuperheroGladiatorsState:
        return SuperheroGladiatorsState(options, players, seed)

    def bots(self) -> Mapping[str, BotFactory]:
        return {"greedy": GreedyBot}

    def render(self, state: State[SuperheroGladiatorsOptions], seat: Seat | None) -> str:
        """The map and heroes, then what the awaited seat may do (all open information)."""
        return render_state(state.view(seat)) + options_line(state)

    def web_picture(
        self, state: State[SuperheroGladiatorsOptions], seat: Seat | None
    ) -> str | None:
        """The arena and hero cards for the web page (from the view, the legal list and
        the events the seat may see)."""
        legal = [str(a) for a in state.legal_actions(seat)] if seat is not None else []
        recent = [event.text for event in state.events_for(seat)[-6:]]
        return web_picture(state.view(seat), legal, seat, recent)

    def notation_help(self) -> str:
        return NOTATION

    def look_help(self) -> str | None:
        return "'look 2A': a hero's card in play: traits, powers, uses left, what they do"

    def look(self, state: State[SuperheroGladiatorsOptions], seat: Seat | None, query: str) -> str:
        """A hero's card as it stands now (all open information)."""
        assert isinstance(state, SuperheroGladiatorsState)
        fighter = state.fighters.get(query.strip().upper())
        if fighter is None:
            raise GladiatoriumError(
                f"no hero {query.strip()!r}; heroes: {', '.join(state.fighters)}"
            )
        return hero_card(fighter)

    library_kind = "hero"

    def check_library_item(self, text: str, source: str) -> tuple[str, dict[str, Any]]:
        """An uploaded hero file, checked as ``hero check`` does (every error named)."""
        result = read_hero_text(text, Path(source))
        if not result.valid or result.hero is None:
            raise OptionsError("; ".join(str(e) for e in result.errors))
        return result.hero.name, hero_to_data(result.hero)

    def design(
        self, fields: Mapping[str, Sequence[str]] | None = None, text: str | None = None
    ) -> Design:
        """The hero designer: every field, the live cost and errors, the card preview."""
        return designer.design(fields, text)

    def design_samples(self) -> dict[str, str]:
        """The shipped sample heroes, by file name."""
        return designer.samples()

    def library_options(self, chosen: Mapping[Seat, Sequence[dict[str, Any]]]) -> dict[str, Any]:
        """Heroes chosen per seat (team ``1``, ``2`` ...) become the ``teams`` option."""
        numbers = sorted(chosen, key=lambda seat: int(seat) if seat.isdecimal() else 0)
        if [n for n in numbers if not chosen[n]] or not numbers:
            raise OptionsError("every team needs at least one hero")
        if numbers != [str(n) for n in range(1, len(numbers) + 1)]:
            raise OptionsError(f"teams must be numbered 1..{len(numbers)}, got {numbers}")
        return {"teams": [list(chosen[n]) for n in numbers]}

    def cli_options(self, flags: Mapping[str, Sequence[str]]) -> dict[str, Any]:
        """``--team 1=cowboy.yaml,perseus.yaml`` (sample names resolve to the shipped
        heroes) and ``--map FILE`` (or a shipped map name) into option values."""
        values: dict[str, Any] = {}
        unknown = sorted(set(flags) - {"team", "map"})
        if unknown:
            raise OptionsError(
                f"superhero-gladiators takes --team N=HERO[,HERO...] and --map FILE, "
                f"not --{unknown[0]}"
            )
        if "team" in flags:
            values["teams"] = teams_from_flags(flags["team"])
        if "map" in flags:
            given = flags["map"][-1]
            values["map"] = map_text(given)
            values["map_name"] = given.rsplit("/", 1)[-1].removesuffix(".txt")
            parse_arena(values["map"], given)  # errors name the file and the square
        return values


def hero_card(f: Fighter) -> str:
    """Traits and every power with its uses left and effect."""
    lines = [
        f"{f.label}, team {f.team}: combat {f.combat}, oomph {f.oomph}/{f.max_oomph}, "
        f"movement {f.movement}, segments {' '.join(map(str, f.segments))}, "
        f"perception {f.perception}, strength {f.strength}"
    ]
    for name, power in f.powers.items():
        left = "infinite" if f.uses[name] is None else f"{f.uses[name]} left"
        broken = ", GIZMO DESTROYED" if name in f.destroyed else ""
        lines.append(
            f"  {name} (level {power.level}, {kind_text(power)}; {left}{broken}): "
            f"{effect_text(power)}"
        )
    if f.copied is not None:
        lines.append(f"  copied: {f.copied.name} (level {f.copied.level}): {effect_text(f.copied)}")
    return "\n".join(lines)


def options_line(state: State[SuperheroGladiatorsOptions]) -> str:
    """``to act: ...``: the awaited seat's actions, moves counted, the rest listed."""
    awaited = state.awaiting()
    if not awaited:
        return ""
    legal = [str(a) for a in state.legal_actions(awaited[0])]
    moves = [a for a in legal if a.startswith("move ")]
    rest = [a for a in legal if not a.startswith("move ")]
    parts = ([f"{len(moves)} moves"] if moves else []) + rest
    return f"\nseat {awaited[0]} to act: " + "; ".join(parts)


def teams_from_flags(given: Sequence[str]) -> tuple[tuple[dict[str, Any], ...], ...]:
    """``1=a.yaml,b.yaml`` entries into team hero data, numbered 1..N without gaps."""
    teams: dict[int, tuple[dict[str, Any], ...]] = {}
    for entry in given:
        number, sep, files = entry.partition("=")
        if not sep or not number.strip().isdigit():
            raise OptionsError(f"--team {entry!r}: write --team N=HERO.yaml[,HERO.yaml...]")
        teams[int(number)] = tuple(hero_data(f.strip()) for f in files.split(",") if f.strip())
        if not teams[int(number)]:
            raise OptionsError(f"--team {entry!r}: no hero file given")
    if sorted(teams) != list(range(1, len(teams) + 1)):
        raise OptionsError(f"--team numbers must be 1..{len(teams)}, got {sorted(teams)}")
    if len(teams) < 2:
        raise OptionsError("give at least two teams: --team 1=... --team 2=...")
    return tuple(teams[n] for n in sorted(teams))


def hero_data(given: str) -> dict[str, Any]:
    """A hero file (or shipped sample name) as option data; errors name the file."""
    result = load_hero_file(resolve_hero_path(given))
    if not result.valid or result.hero is None:
        problems = "; ".join(str(e) for e in result.errors)
        raise OptionsError(f"hero file {result.path}: {problems}")
    return hero_to_data(result.hero)
