"""New matches, from the lobby's form or ``POST /api/matches``: the game's options
checked by the game, the seats (``me``, ``bot:NAME``, ``invite``, ``open``, ``server``),
the settings the server keeps beside the options (a round's minutes, a move clock),
and the limit on matches of bots only."""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Collection, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from sqlalchemy import exists, func, select, text
from sqlalchemy.orm import Session

from gladiatorium.core import Game, GladiatoriumError, Seat, State, get_bot, get_game
from gladiatorium.core.record import EventsDigest
from gladiatorium.server.db import HallUse, Match, MatchSeat
from gladiatorium.server.errors import BadRequest, Forbidden, TooMany, Unauthorized
from gladiatorium.server.library import Library
from gladiatorium.server.store import TEAMS_AWAITED, Live, MatchStore
from gladiatorium.server.teams import placeholder_teams
from gladiatorium.server.tokens import digest_token, new_token
from gladiatorium.server.turns import record_turns

log = logging.getLogger("gladiatorium.match")

SEAT_KINDS = ("me", "invite", "open", "server")
#: seat kinds that no person plays: a match of only these is a match of bots
NOBODY = ("bot", "server")


#: the longest written position a match may start from (a full board is a few KiB; a
#: hundred-player Battle's moderator file some tens)
POSITION_LIMIT = 128 * 1024


def check_position(position: str | None) -> str | None:
    """A position given at creation: None or blank for the game's own start, text of
    at most :data:`POSITION_LIMIT` characters otherwise."""
    if position is None or not position.strip():
        return None
    if len(position) > POSITION_LIMIT:
        raise BadRequest(f"position: at most {POSITION_LIMIT} characters, got {len(position)}")
    return position


@dataclass(frozen=True)
class Created:
    id: str
    #: seat -> invitation token (the link to send holds it)
    invites: dict[Seat, str]


#: the longest pause a bot may take before each action (a match setting)
MAX_BOT_SECONDS = 10


@dataclass(frozen=True)
class MatchSettings:
    """What the server keeps beside the game's options."""

    #: minutes per round for games played in rounds (the round closes at the deadline)
    round_minutes: float | None = None
    #: days per move for two-seat games (who runs out loses)
    clock_days: float | None = None
    #: a casual match is not rated
    casual: bool = False
    #: seconds a bot pauses before each of its actions in this match, so that people
    #: can follow it (None: the server's ``bot_delay_seconds``)
    bot_seconds: float | None = None

    @classmethod
    def parse(cls, data: Mapping[str, Any] | None, shortest: float = 0.001) -> MatchSettings:
        """The settings sent at creation; ``shortest``: the fewest minutes a round or a
        move clock may last (a deadline no person could meet is refused)."""
        data = dict(data or {})
        casual = data.pop("casual", False)
        if casual not in (True, False, "on", ""):
            raise BadRequest("casual: expected true or false")
        values: dict[str, Any] = {"casual": casual in (True, "on")}
        bounds = (
            ("round_minutes", shortest, 60 * 24 * 30),
            ("clock_days", shortest / 1440, 60),
            ("bot_seconds", 0, MAX_BOT_SECONDS),
        )
        for name, low, high in bounds:
            raw = data.pop(name, None)
            if raw in (None, ""):
                values[name] = None
                continue
            try:
                number = float(raw)
            except (TypeError, ValueError):
                raise BadRequest(f"{name}: expected a number, got {raw!r}") from None
            if not low <= number <= high:
                raise BadRequest(f"{name}: must be between {low:g} and {high:g}")
            values[name] = number
        if data:
            raise BadRequest(f"unknown match setting {sorted(data)[0]!r}")
        return cls(**values)

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in vars(self).items() if v is not None and v is not False}


class Creation:
    """Creates matches: checks what is asked, writes the match and its seats, plans its
    first deadlines and holds it in memory."""

    def __init__(
        self,
        store: MatchStore,
        library: Library,
        *,
        bot_only_limit: int | None = None,
        shortest_round: float = 0.001,
    ) -> None:
        self.store = store
        self.library = library
        #: running matches of bots only per account (None: no limit)
        self.bot_only_limit = bot_only_limit
        #: the shortest round (minutes) or move clock a new match may set
        self.shortest_round = shortest_round
        #: one bot-only creation at a time: counting and adding are one step
        self._bot_only = threading.Lock()

    def create(
        self,
        user_id: int | None,
        slug: str,
        players: int | None,
        options: Mapping[str, Any] | None,
        seats: Mapping[str, str],
        settings: Mapping[str, Any] | None = None,
        library: Mapping[Seat, Sequence[int | str]] | None = None,
        seed: int | None = None,
        position: str | None = None,
        *,
        people: Mapping[Seat, int] | None = None,
        match_id: str | None = None,
        theme: str | None = None,
        own_teams: Collection[Seat] = (),
    ) -> Created:
        """A new match; ``seats`` maps a seat to ``me``, ``bot:NAME``, ``invite``,
        ``open`` or ``server``. Options are checked by the game, errors name them.
        ``position``: the match starts from this written position (the game's format,
        ``dice`` included) instead of the game's own start. ``seed`` is for tests only
        (never taken over HTTP): a random one otherwise. ``people`` gives seats to other
        accounts and ``match_id`` names the match (a rematch: a second insert of that id
        fails, IntegrityError). ``theme``: a published theme (``hall:SLUG@VERSION``)
        whose options come first, ``options`` over them. ``own_teams``: open seats whose
        taker brings the team (``server/teams.py``); the match waits for them."""
        try:
            game = get_game(slug)
        except GladiatoriumError as err:
            raise BadRequest(str(err)) from err
        values = dict(options or {})
        uses: list[int] = []  # the hall versions the match is created with
        if theme:
            values = {**self.library.hall.theme_options(game, theme, players, uses), **values}
        own = sorted({str(s) for s in own_teams})
        if own:
            library = self._with_placeholders(game, players, seats, library, own)
        if library:
            values.update(self.library.options(game, user_id, library, uses))
        try:
            state = game.start(
                values,
                players,
                secrets.randbits(63) if seed is None else seed,
                check_position(position),
                "position",
            )
        except GladiatoriumError as err:
            raise BadRequest(str(err)) from err
        kept = MatchSettings.parse(settings, self.shortest_round)
        kept_json = kept.to_json() | ({TEAMS_AWAITED: own} if own else {})
        if kept.clock_days is not None and len(state.seats) != 2:
            raise BadRequest("clock_days: a move clock is for two-seat matches")
        if kept.round_minutes is not None and game.round_number(state) is None:
            raise BadRequest(f"round_minutes: {game.info.name} is not played in rounds")
        rows, invites = self._seat_rows(game, state, user_id, seats)
        for row in rows:
            if people and row.seat in people:
                row.kind, row.user_id = "user", people[row.seat]
        if kept.round_minutes is None and any(r.kind == "server" for r in rows):
            raise BadRequest("round_minutes: a seat the server runs needs a round deadline")
        match_id = match_id or secrets.token_urlsafe(9)
        bots_only = all(r.kind in NOBODY for r in rows)
        sessions = self.store.sessions
        with self._bot_only if bots_only else nullcontext(), sessions.begin() as session:
            if bots_only:
                self._check_bot_only(session, user_id)
            session.add(
                Match(
                    id=match_id,
                    game=slug,
                    version=game.info.version,
                    players=state.players,
                    options=state.options.model_dump(mode="json"),
                    seed=state.seed,
                    created_by=user_id,
                    status="running",
                    ply=0,
                    digest=EventsDigest().update(state.events).hexdigest(),
                    settings=kept_json,
                    position=state.position,
                )
            )
            session.flush()
            for row in rows:
                row.match_id = match_id
                session.add(row)
            for version_id in dict.fromkeys(uses):
                session.add(HallUse(match_id=match_id, version_id=version_id))
            live = Live(match_id, game, state, {r.seat: r for r in rows}, kept_json)
            self.store.plan_deadlines(session, live)
            awaited = record_turns(session, match_id, live.deciding(), before=())
            self.store.notify_others(session, match_id)
        live.turns_written = (live.ply, awaited)
        self.store.hold(live)
        log.info("match=%s created game=%s players=%d", match_id, slug, state.players)
        self.store.on_change(match_id)  # its people's turns changed
        return Created(match_id, invites)

    def _with_placeholders(
        self,
        game: Game[Any],
        players: int | None,
        seats: Mapping[str, str],
        library: Mapping[Seat, Sequence[int | str]] | None,
        own: list[Seat],
    ) -> dict[Seat, Sequence[int | str]]:
        """The teams picked by the creator, and a sample holding each seat of ``own``
        until its taker picks a team; every other team must be picked."""
        count = players or game.info.default_players
        try:
            blank = game.start(None, players, 0)
            team_seats = list(blank.seats[: blank.players])
        except GladiatoriumError:  # the default teams are fewer: seats 1 to N
            team_seats = [str(n) for n in range(1, count + 1)]
        chosen: dict[Seat, Sequence[int | str]] = dict(library or {})
        chosen.update(placeholder_teams(game, own, team_seats, seats))
        for seat in team_seats:
            if not chosen.get(seat):
                raise BadRequest(
                    f"library.{seat}: pick the team of seat {seat} (only the seats of "
                    "own_teams bring their own)"
                )
        return chosen

    def _check_bot_only(self, session: Session, user_id: int | None) -> None:
        """A match of bots only needs an account, and room under the limit per account."""
        if self.bot_only_limit is None:
            return
        if user_id is None:
            raise Unauthorized("log in to create a match of bots only")
        if self.store.postgres:  # one count at a time per account across processes too
            session.execute(text("SELECT pg_advisory_xact_lock(7132, :id)"), {"id": user_id})
        person = exists().where(MatchSeat.match_id == Match.id, MatchSeat.kind.not_in(NOBODY))
        running = session.scalar(
            select(func.count())
            .select_from(Match)
            .where(Match.created_by == user_id, Match.status == "running", ~person)
        )
        if (running or 0) >= self.bot_only_limit:
            raise TooMany(
                f"seats: you already have {running} matches of bots only running (at most "
                f"{self.bot_only_limit} at once); wait for one to end, or take a seat yourself"
            )

    def _seat_rows(
        self, game: Game[Any], state: State[Any], user_id: int | None, seats: Mapping[str, str]
    ) -> tuple[list[MatchSeat], dict[Seat, str]]:
        unknown = sorted(set(seats) - set(state.seats))
        if unknown:
            raise BadRequest(f"seats: no seat {unknown[0]!r}; seats are {', '.join(state.seats)}")
        rows, invites = [], {}
        for seat in state.seats:
            spec = seats.get(seat, "open")
            row = MatchSeat(seat=seat, kind=spec, guest=False)
            if spec == "me":
                if user_id is None:
                    raise Forbidden("log in to take a seat as yourself")
                row.kind, row.user_id = "user", user_id
            elif spec.startswith("bot:"):
                try:
                    get_bot(game, spec[4:])
                except GladiatoriumError as err:
                    raise BadRequest(f"seats.{seat}: {err}") from err
                row.kind, row.bot = "bot", spec[4:]
            elif spec == "invite":
                token = new_token()
                row.token_hash = digest_token(token)
                invites[seat] = token
            elif spec == "server":
                if not game.timeout_actions(state, seat) and game.round_number(state) is None:
                    raise BadRequest(f"seats.{seat}: the server can only run a moderator seat")
            elif spec != "open":
                raise BadRequest(
                    f"seats.{seat}: {spec!r} is not me, bot:NAME, invite, open or server"
                )
            rows.append(row)
        return rows, invites
