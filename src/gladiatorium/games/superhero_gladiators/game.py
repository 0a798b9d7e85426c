"""The Superhero Gladiators game definition: info, options, bots, render, CLI flags."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from gladiatorium.core import Game, GameInfo, Rng, Seat, State, is_number, standing
from gladiatorium.core.errors import GladiatoriumError, OptionsError
from gladiatorium.core.game import BotFactory, Design
from gladiatorium.core.observation import seat_copy
from gladiatorium.games.superhero_gladiators import designer
from gladiatorium.games.superhero_gladiators.actions import ACTION_TYPES
from gladiatorium.games.superhero_gladiators.arena import parse_arena, square_name
from gladiatorium.games.superhero_gladiators.arena_render import render_state
from gladiatorium.games.superhero_gladiators.bots import GreedyBot
from gladiatorium.games.superhero_gladiators.fighters import Fighter
from gladiatorium.games.superhero_gladiators.hero_files import (
    hero_to_data,
    load_hero_file,
    read_hero_text,
    resolve_hero_path,
)
from gladiatorium.games.superhero_gladiators.heroes import Gizmo
from gladiatorium.games.superhero_gladiators.map_files import map_text
from gladiatorium.games.superhero_gladiators.odds import attack_notes
from gladiatorium.games.superhero_gladiators.options import SuperheroGladiatorsOptions
from gladiatorium.games.superhero_gladiators.position import apply_position
from gladiatorium.games.superhero_gladiators.render import effect_text, kind_text
from gladiatorium.games.superhero_gladiators.state import SuperheroGladiatorsState
from gladiatorium.games.superhero_gladiators.web import web_picture
from gladiatorium.games.superhero_gladiators.worlds import (
    forget_borrowed_gizmos,
    forget_others_notices,
    invent_gizmos,
    seat_options,
    set_gizmos,
    situation,
    unseen,
)

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
    cli_flags: ClassVar[dict[str, str]] = {
        "team": "N=HERO,HERO... a side's heroes (a sample's name or a hero file)",
        "map": "FILE the arena (a shipped map's name or a map file)",
    }
    info = GameInfo(
        slug="superhero-gladiators",
        name="Superhero Gladiators",
        summary="Design superheroes, then fight them segment by segment in an arena.",
        min_players=2,
        max_players=9,
        default_players=2,
        hidden_information=True,  # hidden gizmos (ruling G5)
        simultaneous=False,
        version="7",
    )
    options_type = SuperheroGladiatorsOptions
    action_types = ACTION_TYPES

    def commands(self) -> Mapping[str, object]:
        """``gladiatorium hero ...`` (the designer) and ``gladiatorium duel``."""
        from gladiatorium.games.superhero_gladiators.commands import duel, hero

        return {"hero": hero.hero_app, "duel": duel.duel}

    def new_state(
        self, options: SuperheroGladiatorsOptions, players: int, seed: int
    ) -> SuperheroGladiatorsState:
        return SuperheroGladiatorsState(options, players, seed)

    def evaluate(self, state: State[SuperheroGladiatorsOptions]) -> dict[Seat, float]:
        """Each team's oomph still standing against the best other team's."""
        assert isinstance(state, SuperheroGladiatorsState)
        points = dict.fromkeys(state.seats, 0.0)
        for f in state.fighters.values():
            if f.alive:
                points[f.team] += max(0, f.oomph)
        return standing(points, 6.0)

    def bots(self) -> Mapping[str, BotFactory]:
        return {"greedy": GreedyBot}

    def render(self, state: State[SuperheroGladiatorsOptions], seat: Seat | None) -> str:
        """The map and heroes as ``seat`` sees them, then what it may do if it is to act
        (another seat's list could name a gizmo this one may not know of, G5)."""
        return render_state(state.view(seat)) + options_line(state, seat)

    def web_picture(
        self, state: State[SuperheroGladiatorsOptions], seat: Seat | None
    ) -> str | None:
        """The arena and hero cards for the web page (from the view, the legal list and
        the events the seat may see)."""
        assert isinstance(state, SuperheroGladiatorsState)
        legal = [str(a) for a in state.legal_actions(seat)] if seat is not None else []
        recent = [event.text for event in state.events_for(seat)[-6:]]
        return web_picture(state.view(seat), legal, seat, recent, attack_reach(state, legal))

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

    def secret_twin(
        self, state: State[SuperheroGladiatorsOptions], seat: Seat | None
    ) -> SuperheroGladiatorsState | None:
        """The same fight in which a foe's power that ``seat`` cannot see into has a
        hidden gizmo where it had none, or none where it had one (G5: until noticed, a
        foe's card says nothing of hidden gizmos); None when there is no such power."""
        assert isinstance(state, SuperheroGladiatorsState)
        for g, index in unseen(state, seat):
            twin = state.clone()
            power = list(g.powers.values())[index]
            swapped = Gizmo.NONE if power.gizmo is Gizmo.HIDDEN else Gizmo.HIDDEN
            set_gizmos(twin, ((g.id, index, swapped),))
            return twin
        return None

    def determinize(
        self, state: State[SuperheroGladiatorsOptions], seat: Seat, rng: Rng
    ) -> SuperheroGladiatorsState:
        """The same fight in which every foe's power that ``seat`` cannot see into has a
        hidden gizmo drawn afresh, one time in five (about the sample heroes' share), or
        none (G5); the world's cards and options carry the gizmos drawn, never the true
        ones (nor do a copied attack and a hit waiting for its defence), and it keeps only the
        notices of other teams the seat saw (``worlds.py``)."""
        assert isinstance(state, SuperheroGladiatorsState)
        world = seat_copy(state, seat, rng)
        assert isinstance(world, SuperheroGladiatorsState)
        forget_others_notices(world, seat)
        invent_gizmos(world, seat, rng)
        forget_borrowed_gizmos(world)
        world.take_moves_of(state)
        return world

    def situation(self, state: State[SuperheroGladiatorsOptions], seat: Seat) -> Hashable | None:
        """A placement, a hero's action or a defence as every seat sees it, hidden
        gizmos aside (``worlds.py``)."""
        assert isinstance(state, SuperheroGladiatorsState)
        return situation(state)

    def seat_options(
        self, state: State[SuperheroGladiatorsOptions], seat: Seat
    ) -> SuperheroGladiatorsOptions:
        """The options with every gizmo ``seat`` cannot see into reading ``none`` in the
        teams' hero files (G5)."""
        assert isinstance(state, SuperheroGladiatorsState)
        return seat_options(state, seat)

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

    def load_position(
        self,
        options: SuperheroGladiatorsOptions,
        players: int,
        seed: int,
        text: str,
        source: str,
    ) -> SuperheroGladiatorsState:
        """A fight in progress written by hand (docs/rules/superhero-gladiators.md,
        "Positions"), checked against the match's teams and map; errors name ``source``.
        The text is kept in the ``position`` option, so the state rebuilds from options."""
        fresh = options.model_copy(update={"position": ""})
        apply_position(SuperheroGladiatorsState(fresh, players, 0), text, source)
        return self.new_state(fresh.model_copy(update={"position": text}), players, seed)


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


def hero_data(given: str) -> dict[str, Any]:
    """A hero file (or shipped sample name) as option data; errors name the file."""
    result = load_hero_file(resolve_hero_path(given))
    if not result.valid or result.hero is None:
        problems = "; ".join(str(e) for e in result.errors)
        raise OptionsError(f"hero file {result.path}: {problems}")
    return hero_to_data(result.hero)


def attack_reach(state: SuperheroGladiatorsState, legal: Sequence[str]) -> dict[str, list[str]]:
    """The squares each attack power of the acting hero reaches (cards and positions are
    open), for the powers the seat may use now."""
    actor = state.fighters.get(state.actor) if state.phase == "fight" else None
    if actor is None or actor.square is None or not legal:
        return {}
    used = {a.rsplit(" with ", 1)[1] for a in legal if a.startswith("attack ") and " with " in a}
    return {
        name: [square_name(s) for s in state.reach_squares(actor, power)]
        for name, power in actor.powers.items()
        if name in used and power.is_attack
    }
