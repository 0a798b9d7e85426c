"""Hero Battle: the rules (info, options, a match, bots, worlds, deadlines, what a replay
shows); shown by ``terminal.py`` and ``web.py``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from gladiatorium.core import (
    Action,
    BotFactory,
    Channel,
    Event,
    Game,
    GameInfo,
    LegalForm,
    PositionError,
    Rng,
    Seat,
    State,
    standing,
)
from gladiatorium.core.channels import private_channel, public_channels
from gladiatorium.games.hero_battle import themes
from gladiatorium.games.hero_battle.actions import ACTION_TYPES, MODERATOR, Close, Guess, Move
from gladiatorium.games.hero_battle.enumerate import legal_form
from gladiatorium.games.hero_battle.options import HeroBattleOptions, theme_heroes
from gladiatorium.games.hero_battle.state import HeroBattleState
from gladiatorium.games.hero_battle.terminal import HeroBattleTerminal
from gladiatorium.games.hero_battle.views import seat_view, shared_view
from gladiatorium.games.hero_battle.web import HeroBattleWeb
from gladiatorium.games.hero_battle.writer import write_position


class HeroBattle(Game[HeroBattleOptions]):
    info = GameInfo(
        slug="hero-battle",
        name="Hero Battle",
        summary="Forum battle for 8+: secret identities, nemeses, 2 hits and a heal a round.",
        min_players=8,
        max_players=100,
        default_players=8,
        hidden_information=True,
        simultaneous=True,
        version="1",
    )
    options_type = HeroBattleOptions
    action_types = ACTION_TYPES
    terminal_presenter = HeroBattleTerminal
    web_presenter = HeroBattleWeb
    # a tree step of every player's move closes the round: scoring the HP table it left
    # beat ten random actions more (docs/lab.md, Hero Battle)
    search_rollout = 0

    theme_kind = "theme"

    def check_theme(self, text: str, source: str) -> tuple[str, dict[str, Any]]:
        """A theme file (hero list, restrictions, teams, Hand of God table) checked by the
        Battle's own options; every problem named by field and line."""
        return themes.check_theme(text, source)

    def theme_options(self, data: Mapping[str, Any], players: int) -> dict[str, Any]:
        """The theme's heroes as sign-ups (the rest extra names), its rules as options."""
        return themes.theme_options(data, players)

    def defaults_for(self, players: int) -> dict[str, Any]:
        """Past the default list's heroes (forty), the first heroes of the shipped theme
        The Hundred sign up, in order."""
        if players <= len(theme_heroes()):
            return {}
        return {"signups": themes.long_heroes()[:players]}

    def shipped_themes(self) -> dict[str, str]:
        """The themes in ``data/themes``, long enough for a hundred players."""
        return themes.shipped_themes()

    def new_state(self, options: HeroBattleOptions, players: int, seed: int) -> HeroBattleState:
        return HeroBattleState(options, players, seed)

    def load_position(
        self, options: HeroBattleOptions, players: int, seed: int, text: str, source: str
    ) -> HeroBattleState:
        """A Battle taken over from a written position, between two rounds or inside
        one (docs/rules/hero-battle.md, "Positions"); errors name ``source``. The text
        is kept in the ``position`` option, so the state (a record, the server's match)
        rebuilds from options."""
        if not text.strip():  # the option left empty means a new Battle, not a position
            raise PositionError(f"{source}: the position is empty")
        try:
            return self.new_state(options.model_copy(update={"position": text}), players, seed)
        except PositionError as err:  # read as the option: named again by its source
            said = str(err)
            if said.startswith("position:"):
                raise PositionError(source + said.removeprefix("position")) from err
            raise

    def write_position(self, state: State[HeroBattleOptions], seat: Seat | None = None) -> str:
        """The Battle at any decision (docs/rules/hero-battle.md, "Positions"); a
        player's position leaves the other players' secrets open."""
        assert isinstance(state, HeroBattleState)
        return write_position(state, seat)

    def evaluate(self, state: State[HeroBattleOptions]) -> dict[Seat, float]:
        """Each player's hit points still standing (heroes alive or Zombies) against
        the best other player's; the moderator plays for nobody."""
        assert isinstance(state, HeroBattleState)
        points = dict.fromkeys(state.player_seats, 0.0)
        for hero in state.heroes.values():
            if hero.hittable and hero.player in points:
                points[hero.player] += max(0, hero.hp)
        values = standing(points, max(1.0, state.options.starting_hp / 2))
        return {**values, MODERATOR: 0.5}

    def bots(self) -> Mapping[str, BotFactory]:
        from gladiatorium.games.hero_battle.bots import BOTS

        return BOTS

    def sides(self, state: State[HeroBattleOptions]) -> tuple[tuple[Seat, ...], ...]:
        """Every player for themselves; the moderator runs the game and is no side."""
        return tuple((seat,) for seat in state.seats if seat != MODERATOR)

    def places(self, state: State[HeroBattleOptions]) -> list[tuple[tuple[Seat, ...], int]]:
        """By order of death: the winners first, then the players still alive, then the
        dead, who died later ranking higher; players out in the same round share a
        place (a player with two heroes is out when the last one dies)."""
        if state.outcome() is None:
            return []
        assert isinstance(state, HeroBattleState)
        out: dict[Seat, int] = {}
        for report in state.reports:
            for death in report["deaths"]:
                out[death["player"]] = report["round"]
        alive = {hero.player for hero in state.heroes.values() if hero.status == "alive"}
        winners = set(state.outcome().winners)  # type: ignore[union-attr]

        def key(seat: Seat) -> tuple[int, int]:
            if seat in winners:
                return (0, 0)
            return (1, 0) if seat in alive or seat not in out else (2, -out[seat])

        keys = {seat: key(seat) for seat in state.player_seats}
        order = sorted(set(keys.values()))
        return [((seat,), order.index(keys[seat]) + 1) for seat in state.player_seats]

    def channels(
        self, state: State[HeroBattleOptions], seat: Seat | None, over: bool
    ) -> list[Channel]:
        """The forum: the public thread (its moves and round posts shown among the
        messages), and private messages between two players (the
        deals of the rulebook; the option ``private_messages``) and with the moderator.
        No team channel: a team knows its heroes, not its players, so a channel of a
        team's people would name them. Built from the seats alone, which are public."""
        thread = public_channels(seat, over)
        found = [replace(thread[0], forum=True), *thread[1:]]
        if seat is None or seat not in state.seats:
            return found
        assert isinstance(state, HeroBattleState)
        if seat == MODERATOR:
            others: tuple[Seat, ...] = state.player_seats
        elif state.options.private_messages:
            others = (*(s for s in state.player_seats if s != seat), MODERATOR)
        else:
            others = (MODERATOR,)
        return found + [private_channel(seat, other) for other in others]

    def secret_twin(
        self, state: State[HeroBattleOptions], seat: Seat | None
    ) -> HeroBattleState | None:
        """The same Battle with two other players' secret identities (and nemeses)
        swapped; None for the moderator, who knows them all, or when no two players
        other than ``seat`` still have hidden living heroes only."""
        assert isinstance(state, HeroBattleState)
        if seat == MODERATOR:
            return None
        hidden = [
            s
            for s in state.player_seats
            if s != seat
            and state.heroes_of(s)
            and all(h.alive and not h.revealed for h in state.heroes_of(s))
        ]
        if len(hidden) < 2:
            return None
        first, second = hidden[0], hidden[-1]
        twin = state.clone()
        for hero in twin.heroes.values():
            if hero.player in (first, second):
                hero.player = second if hero.player == first else first
        twin.nemeses[first], twin.nemeses[second] = state.nemeses[second], state.nemeses[first]
        return twin

    def determinize(self, state: State[HeroBattleOptions], seat: Seat, rng: Rng) -> HeroBattleState:
        """The same Battle with the identities, nemeses, other teams, guesses and anonymous hits
        ``seat`` may not know drawn afresh (``sampling.py``)."""
        from gladiatorium.games.hero_battle.sampling import determinize

        assert isinstance(state, HeroBattleState)
        return determinize(state, seat, rng)

    def legal_form(self, state: State[HeroBattleOptions], seat: Seat) -> LegalForm | None:
        """A player's hits, heals and guesses as choices (``enumerate.legal_form``): a
        hundred-player round lists some 15,000 actions per seat, its form a few hundred
        names."""
        assert isinstance(state, HeroBattleState)
        return legal_form(state, seat)

    def shared_view(self, state: State[HeroBattleOptions]) -> Any:
        """The public record every view holds (``views.shared_view``)."""
        assert isinstance(state, HeroBattleState)
        return shared_view(state)

    def seat_view(
        self, state: State[HeroBattleOptions], seat: Seat | None, shared: Any
    ) -> dict[str, Any]:
        """The public record with the seat's own part (``views.seat_view``)."""
        assert isinstance(state, HeroBattleState)
        return seat_view(state, seat, shared)

    def round_number(self, state: State[HeroBattleOptions]) -> int | None:
        return int(getattr(state, "round", 0))

    def timeout_actions(self, state: State[HeroBattleOptions], seat: Seat) -> list[Action]:
        """At the deadline the moderator closes the round; whoever has not moved
        abstains as the rules say (the close deals with them)."""
        return [Close()] if seat == MODERATOR else []

    def action_seen_by(
        self,
        state: State[HeroBattleOptions],
        actor: Seat,
        action: Action,
        made: Sequence[Event],
        seat: Seat | None,
    ) -> str | None:
        """What the forum thread shows of an action: a move as posted (in an anonymous
        round only its heals, the hits went privately to the moderator, and nothing when
        an edit left the posted heals as they were), an abstention, the moderator's
        close; never a guess, a private message whose result the round post gives by
        hero (R31). The player who acted and the moderator know it whole."""
        if seat in (actor, MODERATOR):
            return str(action)
        if isinstance(action, Guess):
            return None
        if not isinstance(action, Move):
            return str(action)  # abstain, close: posted as they are
        mine = [e for e in made if e.kind == "move" and e.data.get("seat") == actor]
        if all(e.to is None for e in mine):
            return str(action)
        if not any(e.to is None for e in mine):
            return None  # an anonymous round's edit that posted nothing
        heals = f"heal {', '.join(action.heals)}" if action.heals else "no heal"
        return f"{heals} (hits sent privately)"

    def outcome_seen_by(
        self, state: State[HeroBattleOptions], seat: Seat | None
    ) -> dict[str, Any] | None:
        """The outcome without the scores (HP) of players whose heroes are still secret:
        matched against the public HP table, they would name them."""
        from gladiatorium.games.hero_battle.views import outcome_seen

        assert isinstance(state, HeroBattleState)
        return outcome_seen(state, seat)

    def revealed_at_end(self, state: State[HeroBattleOptions]) -> tuple[Seat, ...]:
        """Nothing more than the round posts made public (R34): the guesses and an
        anonymous round's hits stay the private messages they were, and an identity
        never outed, killed or left standing stays secret."""
        return ()

    def sees_everything(self, state: State[HeroBattleOptions], seat: Seat) -> bool:
        """The moderator received every private message and dealt the heroes."""
        return seat == MODERATOR
