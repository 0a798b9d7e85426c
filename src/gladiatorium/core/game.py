"""A game's rules: declared info, typed options, a state factory, its bots, the hooks
the lab and the server ask of a match; and the presenters that show it (see
``core/presenters.py``)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, ValidationError

from gladiatorium.core.action import Action, action_from_json
from gladiatorium.core.channels import Channel, public_channels
from gladiatorium.core.errors import GladiatoriumError, OptionsError
from gladiatorium.core.events import Event, Seat
from gladiatorium.core.legal_form import LegalForm
from gladiatorium.core.observation import Observation, seat_copy, without_position
from gladiatorium.core.outcome import side_places
from gladiatorium.core.presenters import TerminalPresenter, WebPresenter
from gladiatorium.core.rng import Rng
from gladiatorium.core.state import State

OptT = TypeVar("OptT", bound=BaseModel)


@dataclass(frozen=True)
class GameInfo:
    """What a game declares about itself (OpenSpiel's GameType)."""

    slug: str
    name: str
    summary: str
    min_players: int
    max_players: int
    default_players: int
    hidden_information: bool
    simultaneous: bool
    version: str


class Bot(Protocol):
    """Anything that picks an action for its seat from the seat's :class:`Observation`:
    its view, events and legal actions, and full states consistent with them
    (``observation.world()``, ``observation.determinize(rng)``) in which every secret
    of other seats is invented. A bot never holds the live match, so it cannot read
    another seat's secrets or the future dice; the conformance suite still checks
    that its choice is the same in two worlds that differ only in such a secret
    (``Game.secret_twin``)."""

    def choose(self, observation: Observation) -> Action: ...

    # and, optionally, ``recall(observation) -> Action | None``: the choice it made before
    # in the same situation (``observation.situation``, ``Game.situation``) among the
    # same legal actions, or None; it is handed an observation without a world first
    # (``Observation.glance``) and ``choose`` only when it recalls nothing;
    # and ``draws_uniformly = True`` for a bot whose choice is exactly
    # ``self.rng.choice(observation.legal_actions)``: ``run_match`` then draws for it with
    # ``State.sample_legal(seat, bot.rng)`` (the same draw) and makes no observation


BotFactory = Callable[[Rng], Bot]


@runtime_checkable
class Person(Protocol):
    """A seat played by someone at this table (the terminal): it is shown the match
    only through the seat's view and answers with an action. Unlike a bot it is handed
    the live match, which it needs to take back moves."""

    def decide(self, state: State[Any], seat: Seat) -> Action: ...


class Game(ABC, Generic[OptT]):
    """One game's rules (what OpenSpiel's Game and State hold): options, a fresh or
    written match, the bots, the worlds a bot is handed, how each seat stands, and the
    hooks of the lab and the server. Subclasses set the class attributes and implement
    :meth:`new_state`. How the game is shown is its presenters' part
    (``core/presenters.py``): ``terminal`` and ``web``, made from
    :attr:`terminal_presenter` and :attr:`web_presenter` (the generic ones unless the
    game names its own)."""

    info: ClassVar[GameInfo]
    options_type: ClassVar[type[BaseModel]]
    action_types: ClassVar[tuple[type[Action], ...]]
    #: the game at the terminal: its own presenter class, or the generic one
    terminal_presenter: ClassVar[type[TerminalPresenter]] = TerminalPresenter
    #: the game on the web pages: its own presenter class, or the generic one
    web_presenter: ClassVar[type[WebPresenter]] = WebPresenter

    def __init__(self) -> None:
        self.terminal: TerminalPresenter = self.terminal_presenter(self)
        self.web: WebPresenter = self.web_presenter(self)

    @abstractmethod
    def new_state(self, options: OptT, players: int, seed: int) -> State[OptT]:
        """A fresh match with ``players`` players, its dice seeded by ``seed``."""

    def load_position(
        self, options: OptT, players: int, seed: int, text: str, source: str
    ) -> State[OptT]:
        """A match that starts from the position written in ``text`` in the game's
        documented position format; errors name ``source``, the line and the field.
        Games without a position format refuse."""
        raise OptionsError(f"{self.info.slug} has no position format ({source})")

    def write_position(self, state: State[OptT], seat: Seat | None = None) -> str:
        """``state`` written in the game's position format, at any decision point (a
        reaction or a die pending included), so that :meth:`load_position` gives back a
        state with the same legal actions, the same views for every seat and, for the
        same seed, the same continuation. Dice the state will draw whatever its seed
        (forced or queued: ``state.rng.next_dice()``) are written as its ``dice``.

        With ``seat`` None it is the whole truth (every secret: the moderator's or the
        analyst's file, never shown to a seat); with a seat it writes only what that
        seat may know (its view as a position, the others' secrets left open), so a
        player can share it without leaking. Games without a position format refuse."""
        raise OptionsError(f"{self.info.slug} has no position format")

    def bots(self) -> Mapping[str, BotFactory]:
        """This game's own bots by name, best first (the random bot is added by the
        bot registry for every game)."""
        return {}

    def secret_twin(self, state: State[OptT], seat: Seat | None) -> State[OptT] | None:
        """A copy of ``state`` that differs from it only in facts ``seat`` may not know
        (who plays which hero, a choice not yet revealed), or None when nothing is hidden
        from ``seat`` now. Everything ``seat`` receives from the two (view, events,
        rendering, legal actions in order, refusals, a bot's choice) must be the same;
        the conformance suite checks it, so every game with hidden information
        implements this."""
        return None

    def determinize(self, state: State[OptT], seat: Seat, rng: Rng) -> State[OptT]:
        """A full state that ``seat`` cannot tell from ``state``: what it may know kept,
        every fact hidden from it (another seat's secret, a choice not yet revealed)
        drawn from ``rng`` without reading the true one, so the same picture and the
        same ``rng`` always give the same state; fresh dice; only the events ``seat``
        was told. Bots see the match only through such states (:class:`Observation`).
        The default, for games with nothing hidden, is a copy with fresh dice; every
        game with hidden information overrides it (the conformance suite checks that
        a state and its :meth:`secret_twin` give the same samples)."""
        return seat_copy(state, seat, rng)

    def seat_options(self, state: State[OptT], seat: Seat) -> OptT:
        """The match's options as ``seat`` may know them, which an observation without a
        world carries (one with a world carries its world's). The default leaves out the
        written position the match started from; a game whose options hold a secret
        (Superhero Gladiators' hidden gizmos, in the teams' hero files) leaves it out."""
        return without_position(state.options)

    def situation(self, state: State[OptT], seat: Seat) -> Hashable | None:
        """What ``seat`` may know of the match that a bot's choice follows from, with its
        legal actions, as a value (None: the game offers none, or none now). It holds
        nothing the seat may not know: a state and its :meth:`secret_twin` give equal
        situations, and so do the match and the seat's world. A bot that weighs a
        situation once and recalls its choice (``Bot.recall``) keys it by this value,
        and is spared the world when it recalls."""
        return None

    #: iterations per decision of the search bot ``mcts`` by default: what keeps a whole
    #: match against random quick (docs/lab.md, "Search bots")
    search_iterations: ClassVar[int] = 16
    #: random actions ``mcts`` plays after its tree before it scores the position by
    #: default (0: score the position the tree reached)
    search_rollout: ClassVar[int] = 10

    def evaluate(self, state: State[OptT]) -> dict[Seat, float]:
        """How well each seat stands in ``state``, from 0 (lost) to 1 (won), for a search
        that stops before the end (``mcts``); read from a full state it was handed. The
        default knows nothing: a half each."""
        return dict.fromkeys(state.seats, 0.5)

    def timeout_actions(self, state: State[OptT], seat: Seat) -> list[Action]:
        """What ``seat`` does, in order, when it misses a deadline while awaited (Hero
        Battle's moderator closes the round; a Super Dice Heroes hero ends its round).
        Empty: nothing (the default)."""
        return []

    def moderator_seats(self, state: State[OptT]) -> list[Seat]:
        """The seats beside the players' that act only when timed out (Hero Battle's
        moderator): a server or an environment may run them itself."""
        return [s for s in state.seats[state.players :] if self.timeout_actions(state, s)]

    def round_number(self, state: State[OptT]) -> int | None:
        """The round in progress for games played in rounds with a deadline each
        (Hero Battle, Super Dice Heroes); None for the others."""
        return None

    def sides(self, state: State[OptT]) -> tuple[tuple[Seat, ...], ...]:
        """The seats that win or lose together, side by side (Gladiator Chess: each
        team's four commanders); by default every seat is a side of its own. A seat
        in no side (Hero Battle's moderator) runs the game and plays for nobody. A lab
        tournament seats one bot on each side."""
        return tuple((seat,) for seat in state.seats)

    def places(self, state: State[OptT]) -> list[tuple[tuple[Seat, ...], int]]:
        """Each side (:meth:`sides`) with its place in a finished match, 1 the best,
        ties shared, for ratings of people: by default the winning side first, then
        the others by score where the game keeps one (Super Dice Heroes' honor), every
        side level in a draw (:func:`side_places`). A game that ranks everyone another
        way (Hero Battle: by order of death) says so. Empty while the match goes on."""
        outcome = state.outcome()
        if outcome is None:
            return []
        sides = self.sides(state)
        places = side_places(outcome.winners, dict(outcome.scores), sides)
        return list(zip(sides, places, strict=True))

    def channels(self, state: State[OptT], seat: Seat | None, over: bool) -> list[Channel]:
        """The talk channels ``seat`` (None: a spectator) may read, in the order they are
        shown, each saying whether the seat may post in it (``core/channels.py``);
        ``over``: the match has ended (the server may end it on time too). Decided only
        from what the seat may know: a state and its :meth:`secret_twin` give the same
        channels in the same order. The default: ``all`` (players post, spectators
        read) and ``spectators`` (spectators post; players read it once the match is
        over). A game whose sides know each other adds ``team``; one whose seats may
        deal in private adds ``seat:S``."""
        return public_channels(seat, over)

    # ----- replays: what each seat knew, and what the end makes public ---------------
    def action_seen_by(
        self,
        state: State[OptT],
        actor: Seat,
        action: Action,
        made: Sequence[Event],
        seat: Seat | None,
    ) -> str | None:
        """How ``seat`` (None: a spectator) may know the action ``actor`` played, which
        made the events ``made`` and left ``state``: its notation, a shorter text when the
        seat may know only part of it, or None when the seat may not know that ``actor``
        acted at all (a replay then leaves the action out for that seat). Built only from
        what ``seat`` may know. By default the notation when the game has no hidden
        information, to the actor, or when an event the action made reached the seat (a
        public one, or one addressed to it); else None. A game whose notation says more
        than the events it makes (Hero Battle's hits in an anonymous round) overrides it."""
        if not self.info.hidden_information or seat == actor:
            return str(action)
        if any(event.visible_to(seat) for event in made):
            return str(action)
        return None

    def outcome_seen_by(self, state: State[OptT], seat: Seat | None) -> dict[str, Any] | None:
        """The outcome (``Outcome.to_json()``) as ``seat`` may know it, None while the match
        goes on. By default the whole outcome: winners, reason and scores are public. A
        game whose scores would tell a secret (Hero Battle's HP of a player whose heroes
        were never revealed, beside the public HP table) leaves them out."""
        outcome = state.outcome()
        return None if outcome is None else outcome.to_json()

    # ----- what the server sends every seat after every action --------------------
    def legal_form(self, state: State[OptT], seat: Seat) -> LegalForm | None:
        """The legal actions of ``seat`` (awaited) in a compact form
        (``core/legal_form.py``), or None: the list itself (the default). A game whose
        list is the product of a few choices declares it (Hero Battle: two heroes to hit
        and one to heal, a hero and a player to guess), so that the server sends the
        choices instead of every notation; the form stands for every action the engine
        accepts, in names ordered as every seat may know them, and tells the seat
        nothing its legal list would not. Legality stays the engine's (checked on
        submit)."""
        return None

    def shared_view(self, state: State[OptT]) -> Any:
        """What every seat's view holds alike, built once per action for all the seats
        (the server's hundred-seat rounds), or None (the default: every view is built
        whole). It is built without a seat, so it cannot hold a seat's secret; read it,
        never edit it."""
        return None

    def seat_view(self, state: State[OptT], seat: Seat | None, shared: Any) -> dict[str, Any]:
        """The view of ``seat``, equal to ``state.view(seat)``, made from ``shared``
        (what :meth:`shared_view` gave for this very state) and the seat's own part. It
        may hold ``shared``'s objects, which every seat's view holds alike: read it,
        never edit it (``state.view`` stays the fresh copy). By default
        ``state.view(seat)``."""
        return state.view(seat)

    def revealed_at_end(self, state: State[OptT]) -> tuple[Seat, ...]:
        """The seats whose knowledge becomes public once the match is over (``state`` is
        the finished match): anyone may then replay the match as they saw it, their
        view and every action they knew of. The default makes public nothing that was
        not: every seat of a game without hidden information (they all saw the same),
        none of a game with it. When every seat is named, nothing stays secret and the
        whole record (seed and every action) goes to the match's players."""
        return () if self.info.hidden_information else tuple(state.seats)

    def sees_everything(self, state: State[OptT], seat: Seat) -> bool:
        """Whether ``seat`` knew every secret of the match (Hero Battle's moderator): a
        caller holding it may have the whole record once the match is over, seed and
        every action. By default every seat of a game without hidden information, and
        no seat of a game with it."""
        return not self.info.hidden_information

    # ----- a player's library: what may be kept, checked as the rules check it ------
    #: what a player may keep in a library for this game (``hero``), or None
    library_kind: ClassVar[str | None] = None

    def check_library_item(self, text: str, source: str) -> tuple[str, dict[str, Any]]:
        """Validate an uploaded library item; returns its name and data, or raises a
        GladiatoriumError naming ``source`` and every problem."""
        raise GladiatoriumError(f"{self.info.slug} keeps no library")

    def library_options(self, chosen: Mapping[Seat, Sequence[dict[str, Any]]]) -> dict[str, Any]:
        """Option values that put the library items ``chosen`` for each seat in play."""
        raise GladiatoriumError(f"{self.info.slug} keeps no library")

    # ----- themes: what a moderator publishes for others to pick at creation ----------
    #: what may be published for this game and picked when a match is created
    #: (Hero Battle's ``theme``: a hero list and house rules), or None
    theme_kind: ClassVar[str | None] = None

    def check_theme(self, text: str, source: str) -> tuple[str, dict[str, Any]]:
        """Validate a theme's file (checked by the game's own options); returns its name
        and data, or raises a GladiatoriumError naming ``source``, every field and line."""
        raise GladiatoriumError(f"{self.info.slug} has no themes")

    def theme_options(self, data: Mapping[str, Any], players: int) -> dict[str, Any]:
        """Option values that play a Battle of ``players`` in the theme ``data``."""
        raise GladiatoriumError(f"{self.info.slug} has no themes")

    def shipped_themes(self) -> dict[str, str]:
        """The themes the game ships, by file name: the text of each file."""
        return {}

    # ----- shared helpers ----------------------------------------------------------
    def make_options(self, values: Mapping[str, Any] | None = None) -> OptT:
        """Options from the defaults overridden by ``values``; errors name the option."""
        try:
            return self.options_type.model_validate(dict(values or {}))  # type: ignore[return-value]
        except ValidationError as err:
            problems = "; ".join(
                f"{'.'.join(map(str, e['loc'])) or '(options)'}: {e['msg']}" for e in err.errors()
            )
            raise OptionsError(f"bad options for {self.info.slug}: {problems}") from err

    def defaults_for(self, players: int) -> dict[str, Any]:
        """Option values that let ``players`` play when every other option keeps its
        default: what a form or a command offers before anything is chosen. Nothing (``{}``)
        for a game whose defaults fit every count of players."""
        return {}

    def default_options(self, players: int | None = None) -> OptT:
        """The default options for ``players`` (the default count when None)."""
        count = self.info.default_players if players is None else players
        return self.make_options(self.defaults_for(count))

    def check_players(self, players: int) -> None:
        info = self.info
        if not info.min_players <= players <= info.max_players:
            raise OptionsError(
                f"{info.name} takes {info.min_players} to {info.max_players} players, not {players}"
            )

    def start(
        self,
        options: Mapping[str, Any] | OptT | None = None,
        players: int | None = None,
        seed: int = 0,
        position: str | None = None,
        source: str = "position",
    ) -> State[OptT]:
        """Validate options and players, then :meth:`new_state`, or
        :meth:`load_position` when a written ``position`` is given (``source`` names
        it in errors). Option values left out take their defaults for that many players
        (:meth:`defaults_for`)."""
        count = self.info.default_players if players is None else players
        self.check_players(count)
        if isinstance(options, BaseModel):
            opts = options
        else:
            opts = self.make_options({**self.defaults_for(count), **(options or {})})
        if position is None:
            return self.new_state(opts, count, seed)
        state = self.load_position(opts, count, seed, position, source)
        state.position = position
        return state

    def action_from_json(self, data: dict[str, Any]) -> Action:
        return action_from_json(self.action_types, data)
