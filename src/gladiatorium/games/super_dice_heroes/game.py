"""Super Dice Heroes: the rules (info, options, a match, bots, worlds, deadlines); shown by
``terminal.py`` and ``web.py``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gladiatorium.core import (
    Action,
    BotFactory,
    Game,
    GameInfo,
    OptionsError,
    Rng,
    Seat,
    State,
    standing,
)
from gladiatorium.core.observation import seat_copy
from gladiatorium.games.super_dice_heroes.actions import ACTION_TYPES, Done
from gladiatorium.games.super_dice_heroes.bots import BOTS
from gladiatorium.games.super_dice_heroes.hero import SpendAction
from gladiatorium.games.super_dice_heroes.options import (
    SuperDiceHeroesOptions,
)
from gladiatorium.games.super_dice_heroes.position import load_position, write_position
from gladiatorium.games.super_dice_heroes.sheet import load_sheet
from gladiatorium.games.super_dice_heroes.state import SuperDiceHeroesState
from gladiatorium.games.super_dice_heroes.terminal import SuperDiceHeroesTerminal
from gladiatorium.games.super_dice_heroes.web import SuperDiceHeroesWeb


class SuperDiceHeroes(Game[SuperDiceHeroesOptions]):
    info = GameInfo(
        slug="super-dice-heroes",
        name="Super Dice Heroes",
        summary="Roll-and-write for 1-100 heroes: one shared roll, ten rounds, save the city.",
        min_players=1,
        max_players=100,
        default_players=2,
        hidden_information=True,
        simultaneous=True,
        version="3",
    )
    options_type = SuperDiceHeroesOptions
    action_types = ACTION_TYPES
    terminal_presenter = SuperDiceHeroesTerminal
    web_presenter = SuperDiceHeroesWeb

    def new_state(
        self, options: SuperDiceHeroesOptions, players: int, seed: int
    ) -> SuperDiceHeroesState:
        named = len(options.hero_names)
        if named > players:
            raise OptionsError(f"hero_names: a name for seat {named}, but {players} players")
        return SuperDiceHeroesState(options, players, seed)

    def evaluate(self, state: State[SuperDiceHeroesOptions]) -> dict[Seat, float]:
        """Each hero's honor against the best other hero's (alone: against the
        solo target)."""
        assert isinstance(state, SuperDiceHeroesState)
        points = {s: float(p) for s, p in state.scores().items()}
        if state.players == 1 and state.options.solo_target is not None:
            points["target"] = float(state.options.solo_target)
        return {s: v for s, v in standing(points, 5.0).items() if s in state.heroes}

    def revealed_at_end(self, state: State[SuperDiceHeroesOptions]) -> tuple[Seat, ...]:
        """Every hero's choices were revealed when their round resolved (R12), the last
        round's too when the match played to its end: then nothing is secret any more.
        A match stopped in a round (a clock ran out) keeps that round's choices secret."""
        return tuple(state.seats) if state.is_over else ()

    def bots(self) -> Mapping[str, BotFactory]:
        return BOTS

    def secret_twin(
        self, state: State[SuperDiceHeroesOptions], seat: Seat | None
    ) -> SuperDiceHeroesState | None:
        """The same match in which another hero still deciding this round has spent a
        die (a choice nobody else learns before the round resolves, R12); None when no
        other hero has a die to spend."""
        assert isinstance(state, SuperDiceHeroesState)
        for other in state.pending:
            spends = [a for a in state.legal_actions(other) if isinstance(a, SpendAction)]
            if other != seat and spends:
                twin = state.clone()
                twin.apply(other, spends[len(spends) // 2])
                return twin
        return None

    def determinize(
        self, state: State[SuperDiceHeroesOptions], seat: Seat, rng: Rng
    ) -> SuperDiceHeroesState:
        """The same match in which the other heroes' undisclosed choices of the round
        are taken back (R12): a hero still deciding has made none yet, a hero that is
        done ends the round with its dice unspent. The dice to come are drawn from
        ``rng``."""
        assert isinstance(state, SuperDiceHeroesState)
        world = seat_copy(state, seat, rng, own_history=True)
        assert isinstance(world, SuperDiceHeroesState)
        world.unsaid(seat)
        return world

    def shared_view(self, state: State[SuperDiceHeroesOptions]) -> Any:
        """Every sheet as the round began, which every seat sees alike."""
        assert isinstance(state, SuperDiceHeroesState)
        return state.shared_view()

    def seat_view(
        self, state: State[SuperDiceHeroesOptions], seat: Seat | None, shared: Any
    ) -> dict[str, Any]:
        """The shared sheets with the seat's own as it is now."""
        assert isinstance(state, SuperDiceHeroesState)
        return state.seat_view(seat, shared)

    def round_number(self, state: State[SuperDiceHeroesOptions]) -> int | None:
        return int(getattr(state, "round", 0))

    def timeout_actions(self, state: State[SuperDiceHeroesOptions], seat: Seat) -> list[Action]:
        """A hero whose player misses the round's time limit ends the round: the power
        offered first at set-up, otherwise ``done`` (unspent dice are lost) where the
        options allow it, else the first listed spend until the hero is done."""
        if not isinstance(state, SuperDiceHeroesState):
            return []
        trial = state.clone()
        start = trial.round
        taken: list[Action] = []
        while seat in trial.pending and trial.round == start and trial.outcome() is None:
            legal = trial.legal_actions(seat)
            action = Done() if Done() in legal else legal[0]
            trial.apply(seat, action)
            taken.append(action)
        return taken

    def load_position(
        self,
        options: SuperDiceHeroesOptions,
        players: int,
        seed: int,
        text: str,
        source: str,
    ) -> SuperDiceHeroesState:
        """The sheets as a round begins, written by hand (docs/rules/super-dice-heroes.md,
        "Positions"); errors name ``source``. The text is kept in the ``position``
        option, so the state rebuilds from options."""
        load_position(text, load_sheet(options.sheet), options.power_uses, options.rounds, source)
        try:
            return self.new_state(options.model_copy(update={"position": text}), players, seed)
        except OptionsError as err:  # a choice of the round the rules refuse, by its line
            said = str(err)
            if said.startswith("position:"):
                raise OptionsError(source + said.removeprefix("position")) from err
            raise

    def write_position(self, state: State[SuperDiceHeroesOptions], seat: Seat | None = None) -> str:
        """The match at any decision (docs/rules/super-dice-heroes.md, "Positions"); a
        seat's position leaves the other heroes' choices of the round open."""
        assert isinstance(state, SuperDiceHeroesState)
        return write_position(state, seat)
