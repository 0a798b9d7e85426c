"""What one seat may know, handed to its bot: the seat's picture of the match and,
for search, full states consistent with it (determinization).

A bot never holds the live match. An :class:`Observation` is made from it once, when
the seat must decide, and keeps only what the seat may know: its view and events,
its legal actions, who is awaited, the options (as the seat may know them) and
players, and a *world*: a full state built by the game's
:meth:`~gladiatorium.core.game.Game.determinize` hook, in which every fact hidden from
the seat is invented (drawn from a seed derived from the seat's own picture) and the
dice roll a fresh stream. The true secrets are gone by the time a bot runs, so a bot
cannot read them however it is written.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from gladiatorium.core.action import Action
from gladiatorium.core.events import Event, Seat
from gladiatorium.core.kept import Table
from gladiatorium.core.rng import Rng, derive_seed
from gladiatorium.core.state import State

if TYPE_CHECKING:
    from gladiatorium.core.game import Game


class Observation:
    """One seat's picture of a match at one decision (see the module docstring)."""

    def __init__(
        self,
        game: Game[Any],
        state: State[Any],
        seat: Seat,
        *,
        world: bool = True,
        awaiting: tuple[Seat, ...] | None = None,
    ) -> None:
        """``awaiting``: ``state.awaiting()`` when the caller has just asked."""
        self.game = game
        self.seat = seat
        self.players = state.players
        self.seats: tuple[Seat, ...] = tuple(state.seats)
        self.awaiting: tuple[Seat, ...] = state.awaiting() if awaiting is None else awaiting
        # the match's kept list: an action taken from it is applied without a second check
        self.legal_actions: Sequence[Action] = state.legal_now(seat)
        self._world: State[Any] | None = None
        # what is read from the world when first asked for (see the properties)
        self._view: dict[str, Any] | None = None
        self._events: tuple[Event, ...] | None = None
        self._situation: Hashable | None = None
        self._situation_known = False
        if world:  # a bot that reads only its legal actions is spared the copy
            # what the seat has seen so far is the only input of the invented secrets
            seen = state.count_events_for(seat)
            self._world = game.determinize(state, seat, Rng.remembered(world_seed(seat, seen)))
        #: the options as the seat may know them: its world's (where a secret of the
        #: options, such as a foe's hidden gizmo, is invented), else the game's
        #: ``seat_options``
        self.options: Any = (
            game.seat_options(state, seat) if self._world is None else self._world.options
        )

    @classmethod
    def for_bot(
        cls,
        game: Game[Any],
        state: State[Any],
        seat: Seat,
        bot: object,
        awaiting: tuple[Seat, ...] | None = None,
    ) -> Observation:
        """The observation ``bot`` is handed: without a world when the bot says it reads
        only its legal actions (``reads_world = False``, as the random bot does).
        ``awaiting``: ``state.awaiting()`` when the caller has just asked."""
        world = getattr(bot, "reads_world", True)
        return cls(game, state, seat, world=world, awaiting=awaiting)

    @classmethod
    def glance(
        cls,
        game: Game[Any],
        state: State[Any],
        seat: Seat,
        awaiting: tuple[Seat, ...] | None = None,
    ) -> Observation:
        """An observation without a world, for a bot that may recall its choice
        (``Bot.recall``): its legal actions, options as the seat may know them, events
        and the game's :meth:`~gladiatorium.core.game.Game.situation`, taken from the
        match (what the seat's world would give). The situation is asked for first,
        and once, so that a game may keep the legal list it follows from with it."""
        situation = game.situation(state, seat)
        observation = cls(game, state, seat, world=False, awaiting=awaiting)
        observation.know_situation(situation)
        observation._events = tuple(state.events_for(seat))
        return observation

    @classmethod
    def of(cls, state: State[Any], seat: Seat, game: Game[Any] | None = None) -> Observation:
        """The observation of ``seat`` in ``state`` (its game found in the registry
        when not given)."""
        from gladiatorium.core.registry import game_of

        return cls(game_of(state) if game is None else game, state, seat)

    @property
    def view(self) -> dict[str, Any]:
        """The seat's view (``State.view``), the same as the true match gives it."""
        if self._view is None:
            self._view = self.world().view(self.seat)
        return self._view

    @property
    def events(self) -> tuple[Event, ...]:
        """The events the seat was told, in order."""
        if self._events is None:
            self._events = tuple(self.world().events_for(self.seat))
        return self._events

    @property
    def situation(self) -> Hashable | None:
        """The game's :meth:`~gladiatorium.core.game.Game.situation` of the seat (read
        from its world: the match gives the same)."""
        if not self._situation_known:
            self.know_situation(self.game.situation(self.world(), self.seat))
        return self._situation

    def know_situation(self, situation: Hashable | None) -> None:
        """The seat's situation, found already (from the match, which gives the same as
        the world)."""
        self._situation, self._situation_known = situation, True

    def world(self) -> State[Any]:
        """A full state the seat cannot tell from the true one: what it may know is
        true, what it may not is invented, the dice are a fresh stream. Bots read it
        freely but must not change it (search on ``determinize`` or a clone)."""
        if self._world is None:
            raise RuntimeError("this observation was made for a bot that reads no world")
        return self._world

    def determinize(self, rng: Rng) -> State[Any]:
        """A fresh full state consistent with the observation, its hidden facts drawn
        from ``rng`` (the same ``rng`` gives the same state), safe to play on."""
        return self.game.determinize(self.world(), self.seat, rng)

    def sample_states(self, rng: Rng, count: int) -> list[State[Any]]:
        """``count`` states drawn by :meth:`determinize`, one after the other."""
        return [self.determinize(rng) for _ in range(count)]


def world_seed(seat: Seat, seen: int) -> int:
    """The seed of the secrets invented in the world of ``seat`` once it has seen
    ``seen`` events (derived once per seat and count: the matches of a batch ask for
    the same few)."""
    key = (seat, seen)
    seed = _WORLD_SEEDS.get(key)
    if seed is None:
        seed = _WORLD_SEEDS.keep(key, derive_seed("world", seat, seen))
    return seed


MAX_WORLD_SEEDS = 4096
#: the seeds of worlds, by seat and events seen
_WORLD_SEEDS: Table[tuple[Seat, int], int] = Table(
    "core.observation.world_seeds", "core", MAX_WORLD_SEEDS, "the seeds of bots' worlds"
)


def seat_copy(state: State[Any], seat: Seat, rng: Rng, own_history: bool = False) -> State[Any]:
    """A copy of ``state`` that keeps only the events ``seat`` was told and rolls a
    fresh stream drawn from ``rng`` (its seed, which could redo a secret deal, is
    replaced too). With ``own_history`` the copy's action history keeps only the
    seat's own actions (games whose actions are secret until revealed). The basis of
    every game's :meth:`~gladiatorium.core.game.Game.determinize`."""
    fresh = rng.randint(0, 2**62)
    copy = state.clone(reseed=fresh)
    copy.seed = fresh
    copy.events = state.events_for(seat)
    if own_history:
        copy.history = [(s, a) for s, a in state.history if s == seat]
    copy.position, copy.options = None, without_position(state.options)
    return copy


def without_position(options: Any) -> Any:
    """The options without the written position the match started from (its text may
    hold secrets: a Hero Battle's identities); the match has no further use for it."""
    if not vars(options).get("position"):  # none, or empty: nothing to leave
        return options
    return options.model_copy(update={"position": None})
