"""Superhero Gladiators at the terminal: the map and heroes in text with what the seat may
do (each attack's chance to hit), the notation, ``look 2A`` (a hero's card), refusals
that say why, ``--team`` and ``--map`` (and the menu's sample heroes and maps), and the
game's own commands (``gladiatorium hero ...``, ``gladiatorium duel``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from gladiatorium.core import (
    GladiatoriumError,
    OptionsError,
    Seat,
    State,
    TerminalPresenter,
    is_number,
)
from gladiatorium.games.superhero_gladiators.arena import parse_arena
from gladiatorium.games.superhero_gladiators.arena_render import render_state
from gladiatorium.games.superhero_gladiators.fighters import Fighter
from gladiatorium.games.superhero_gladiators.hero_files import hero_data
from gladiatorium.games.superhero_gladiators.map_files import map_text
from gladiatorium.games.superhero_gladiators.odds import attack_notes
from gladiatorium.games.superhero_gladiators.options import SuperheroGladiatorsOptions
from gladiatorium.games.superhero_gladiators.render import effect_text, kind_text
from gladiatorium.games.superhero_gladiators.state import SuperheroGladiatorsState

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


class SuperheroGladiatorsTerminal(TerminalPresenter):
    """Superhero Gladiators at the terminal."""

    cli_flags: ClassVar[dict[str, str]] = {
        "team": "N=HERO,HERO... a side's heroes (a sample's name or a hero file)",
        "map": "FILE the arena (a shipped map's name or a map file)",
    }

    def commands(self) -> Mapping[str, object]:
        """``gladiatorium hero ...`` (the designer) and ``gladiatorium duel``."""
        from gladiatorium.games.superhero_gladiators.commands import duel, hero

        return {"hero": hero.hero_app, "duel": duel.duel}

    def render(self, state: State[SuperheroGladiatorsOptions], seat: Seat | None) -> str:
        """The map and heroes as ``seat`` sees them, then what it may do if it is to act
        (another seat's list could name a gizmo this one may not know of, G5)."""
        return render_state(state.view(seat)) + options_line(state, seat)

    def notation_help(self) -> str:
        return NOTATION

    def menu_choices(self, flag: str) -> list[str]:
        """The sample heroes (by name) and the shipped maps, for the menu."""
        from gladiatorium.games.superhero_gladiators.hero_files import sample_files

        if flag == "team":
            return [path.stem for path in sample_files()]
        if flag == "map":
            folder = Path(__file__).parent / "data" / "maps"
            return sorted(path.stem for path in folder.glob("*.txt"))
        return []

    def explain_refusal(
        self, state: State[SuperheroGladiatorsOptions], seat: Seat, text: str
    ) -> str | None:
        """Why a typed action is refused: a missing movement power, a power with no
        uses left, a wall, a hero out of reach (see ``refusals.py``)."""
        from gladiatorium.games.superhero_gladiators.refusals import why_refused

        legal = [str(a) for a in state.legal_actions(seat)]
        return why_refused(state.view(seat), legal, text) or super().explain_refusal(
            state, seat, text
        )

    def action_notes(self, state: State[SuperheroGladiatorsOptions], seat: Seat) -> dict[str, str]:
        """Each attack's chance to hit (and to double), from the seat's view alone."""
        return attack_notes(state.view(seat), state.legal_actions(seat))

    def look_help(self) -> str | None:
        return (
            "'look 2A': a hero's card in play: traits, powers, uses left, what they do, "
            "and the chance that the hero to act hits it"
        )

    def look(self, state: State[SuperheroGladiatorsOptions], seat: Seat | None, query: str) -> str:
        """A hero's card as it stands now, with the gizmos ``seat`` may know of (G5)."""
        assert isinstance(state, SuperheroGladiatorsState)
        fighter = state.fighters.get(query.strip().upper())
        if fighter is None:
            raise GladiatoriumError(
                f"no hero {query.strip()!r}; heroes: {', '.join(state.fighters)}"
            )
        return hero_card(fighter, state.known_gizmos(seat, fighter)) + self._odds(state, fighter)

    def _odds(self, state: SuperheroGladiatorsState, fighter: Any) -> str:
        """The chance that the hero whose turn it is hits ``fighter`` (C1-C3), when
        they are on opposite teams."""
        from gladiatorium.games.superhero_gladiators.combat import hit_number
        from gladiatorium.games.superhero_gladiators.odds import odds_text

        view = state.view(None)
        heroes = {h["id"]: h for h in view.get("heroes", [])}
        actor, target = heroes.get(view.get("actor", "")), heroes.get(fighter.id)
        if actor is None or target is None or actor["team"] == target["team"]:
            return ""
        number = hit_number(actor["combat"], target["combat"])
        return "\n" + odds_text(f"{actor['id']} {actor['name']}", target["id"], number)

    def cli_options(self, flags: Mapping[str, Sequence[str]]) -> dict[str, Any]:
        """``--team 1=cowboy.yaml,perseus.yaml`` (sample names resolve to the shipped
        heroes) and ``--map FILE`` (or a shipped map name) into option values."""
        values: dict[str, Any] = {}
        unknown = sorted(set(flags) - {"team", "map"})
        if unknown:
            raise OptionsError(
                f"superhero-gladiators takes --team N=HERO[,HERO...], --map FILE and "
                f"--position FILE, not --{unknown[0]}"
            )
        if "team" in flags:
            values["teams"] = teams_from_flags(flags["team"])
        if "map" in flags:
            given = flags["map"][-1]
            values["map"] = map_text(given)
            values["map_name"] = given.rsplit("/", 1)[-1].removesuffix(".txt")
            parse_arena(values["map"], given)  # errors name the file and the square
        return values


def hero_card(f: Fighter, gizmos: Mapping[str, str]) -> str:
    """Traits and every power with its uses left and effect; of the gizmos, only those
    named in ``gizmos`` (what the reader knows: a foe's card says nothing of a hidden
    gizmo it has not noticed, nor of one that is not there, G5)."""
    lines = [
        f"{f.label}, team {f.team}: combat {f.combat}, oomph {f.oomph}/{f.max_oomph}, "
        f"movement {f.movement}, segments {' '.join(map(str, f.segments))}, "
        f"perception {f.perception}, strength {f.strength}"
    ]
    for name, power in f.powers.items():
        left = "infinite" if f.uses[name] is None else f"{f.uses[name]} left"
        broken = ", GIZMO DESTROYED" if name in f.destroyed else ""
        kind = kind_text(power, gizmo=False)
        if name in gizmos:
            gizmo = "no gizmo" if gizmos[name] == "none" else f"{gizmos[name]} gizmo"
            kind += (", " if ":" in kind else ": ") + gizmo
        effect = effect_text(power)
        lines.append(f"  {name} (level {power.level}, {kind}; {left}{broken}): {effect}")
    if f.copied is not None:
        lines.append(f"  copied: {f.copied.name} (level {f.copied.level}): {effect_text(f.copied)}")
    return "\n".join(lines)


def options_line(state: State[SuperheroGladiatorsOptions], seat: Seat | None) -> str:
    """``to act: ...``: the actions of ``seat`` if it is to act, moves counted, the
    rest listed; otherwise only whose turn it is."""
    awaited = state.awaiting()
    if not awaited:
        return ""
    if seat not in awaited:
        return f"\nseat {awaited[0]} to act"
    actions = state.legal_actions(seat)
    notes = attack_notes(state.view(seat), actions)
    legal = [str(a) for a in actions]
    moves = [a for a in legal if a.startswith("move ")]
    rest = [f"{a} ({notes[a]})" if a in notes else a for a in legal if not a.startswith("move ")]
    parts = ([f"{len(moves)} moves"] if moves else []) + rest
    return f"\nseat {awaited[0]} to act: " + "; ".join(parts)


def teams_from_flags(given: Sequence[str]) -> tuple[tuple[dict[str, Any], ...], ...]:
    """``1=a.yaml,b.yaml`` entries into team hero data, numbered 1..N without gaps."""
    teams: dict[int, tuple[dict[str, Any], ...]] = {}
    for entry in given:
        number, sep, files = entry.partition("=")
        if not sep or not is_number(number.strip(), 1):
            raise OptionsError(f"--team {entry!r}: write --team N=HERO.yaml[,HERO.yaml...]")
        teams[int(number)] = tuple(hero_data(f.strip()) for f in files.split(",") if f.strip())
        if not teams[int(number)]:
            raise OptionsError(f"--team {entry!r}: no hero file given")
    if sorted(teams) != list(range(1, len(teams) + 1)):
        raise OptionsError(f"--team numbers must be 1..{len(teams)}, got {sorted(teams)}")
    if len(teams) < 2:
        raise OptionsError("give at least two teams: --team 1=... --team 2=...")
    return tuple(teams[n] for n in sorted(teams))
