"""Superhero Gladiators: the rules (info, options, a match, bots, worlds, a library of
heroes); shown by ``terminal.py`` and ``web.py``."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any

from gladiatorium.core import Game, GameInfo, Rng, Seat, State, standing
from gladiatorium.core.errors import OptionsError
from gladiatorium.core.game import BotFactory
from gladiatorium.core.observation import seat_copy
from gladiatorium.games.superhero_gladiators.actions import ACTION_TYPES
from gladiatorium.games.superhero_gladiators.bots import GreedyBot
from gladiatorium.games.superhero_gladiators.hero_files import (
    hero_to_data,
    read_hero_text,
)
from gladiatorium.games.superhero_gladiators.heroes import Gizmo
from gladiatorium.games.superhero_gladiators.options import (
    SuperheroGladiatorsOptions,
    defaults_for,
)
from gladiatorium.games.superhero_gladiators.position import apply_position, write_position
from gladiatorium.games.superhero_gladiators.state import SuperheroGladiatorsState
from gladiatorium.games.superhero_gladiators.terminal import SuperheroGladiatorsTerminal
from gladiatorium.games.superhero_gladiators.web import SuperheroGladiatorsWeb
from gladiatorium.games.superhero_gladiators.worlds import (
    forget_borrowed_gizmos,
    forget_others_notices,
    invent_gizmos,
    seat_options,
    set_gizmos,
    situation,
    unseen,
)


class SuperheroGladiators(Game[SuperheroGladiatorsOptions]):
    info = GameInfo(
        slug="superhero-gladiators",
        name="Superhero Gladiators",
        summary="Design superheroes, then fight them segment by segment in an arena.",
        min_players=2,
        max_players=9,
        default_players=2,
        hidden_information=True,  # hidden gizmos (ruling G5)
        simultaneous=False,
        version="8",
    )
    options_type = SuperheroGladiatorsOptions
    action_types = ACTION_TYPES
    terminal_presenter = SuperheroGladiatorsTerminal
    web_presenter = SuperheroGladiatorsWeb

    def new_state(
        self, options: SuperheroGladiatorsOptions, players: int, seed: int
    ) -> SuperheroGladiatorsState:
        return SuperheroGladiatorsState(options, players, seed)

    def defaults_for(self, players: int) -> dict[str, Any]:
        """More than two teams: further samples, on a map with room for them."""
        return defaults_for(players)

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

    library_kind = "hero"

    def check_library_item(self, text: str, source: str) -> tuple[str, dict[str, Any]]:
        """An uploaded hero file, checked as ``hero check`` does (every error named)."""
        result = read_hero_text(text, Path(source))
        if not result.valid or result.hero is None:
            raise OptionsError("; ".join(str(e) for e in result.errors))
        return result.hero.name, hero_to_data(result.hero)

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

    def write_position(
        self, state: State[SuperheroGladiatorsOptions], seat: Seat | None = None
    ) -> str:
        """The match at any decision (docs/rules/superhero-gladiators.md, "Positions");
        a seat's position leaves out the hidden gizmos others noticed that it may not
        know."""
        assert isinstance(state, SuperheroGladiatorsState)
        return write_position(state, seat)
