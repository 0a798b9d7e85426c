"""Teams that the people who take seats bring themselves (Superhero Gladiators: each
person picks the heroes of their own team from their library and the samples).

The creator leaves a seat's team to whoever takes it (``own_teams`` at creation; the seat
is open, or given by invitation: whoever opens the link holds the seat, then picks). Until
every such seat is taken and its team picked, the match waits: nobody is to move, no bot
acts, no action is accepted. Meanwhile the match holds a sample team in the waiting seat's
place, and every team is as public as the rules make it at the start (the views hide what
they always hide). Each team brought starts the match again from its first ply with the
new options: nothing was played yet, so the record is still its options, seed and no
action."""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from gladiatorium.core import Game, GladiatoriumError, Seat
from gladiatorium.core.record import EventsDigest
from gladiatorium.server.db import Match, MatchSeat
from gladiatorium.server.errors import BadRequest, Conflict, NotFound
from gladiatorium.server.library import SAMPLE, Library, samples
from gladiatorium.server.store import TEAMS_AWAITED, MatchStore
from gladiatorium.server.turns import record_turns

log = logging.getLogger("gladiatorium.match")

AWAITED = TEAMS_AWAITED


def awaited(settings: Mapping[str, Any]) -> list[Seat]:
    """The seats whose holder is still to pick their team."""
    return [str(s) for s in settings.get(AWAITED) or ()]


def placeholder_teams(
    game: Game[Any], own: Collection[Seat], team_seats: Sequence[Seat], seats: Mapping[str, str]
) -> dict[Seat, list[int | str]]:
    """The sample team that holds each seat of ``own`` until its holder picks one;
    refuses a seat that is not a team's, or neither open nor given by invitation."""
    if not game.library_kind:
        raise BadRequest(f"own_teams: {game.info.name} has no teams to bring")
    shipped = list(samples(game))
    for seat in own:
        if seat not in team_seats:
            raise BadRequest(f"own_teams: seat {seat!r} has no team")
        if seats.get(seat, "open") not in ("open", "invite"):
            raise BadRequest(
                f"own_teams: seat {seat} must be open or given by invitation (its taker "
                "picks the team)"
            )
    if not shipped:
        raise BadRequest(f"own_teams: {game.info.name} has no sample to wait with")
    return {seat: [SAMPLE + shipped[0]] for seat in own}


class Teams:
    """Teams brought by the people who take seats."""

    def __init__(self, store: MatchStore, library: Library) -> None:
        self.store = store
        self.library = library

    def bring(
        self,
        match_id: str,
        seat: Seat,
        user_id: int | None,
        team: Sequence[int | str],
        holds: Callable[[MatchSeat], bool] | None = None,
    ) -> None:
        """Take the open ``seat`` of a match that waits for its team, with ``team`` (item
        ids of the taker's library, ``sample:NAME``): the match starts again from its
        first ply with that team, and once no team is awaited, it begins. ``holds``: the
        seat is already held (taken through its invitation) and this says whether by the
        caller (a guest, ``user_id`` None, brings samples only)."""
        if not team:
            raise BadRequest(f"library.{seat}: pick at least one hero for your team")
        live = self.store.live(match_id)
        game = live.game
        with live.lock:
            if seat not in awaited(live.settings):
                raise Conflict(f"seat {seat} does not wait for a team")
            team_seats = list(live.state.seats[: live.state.players])
        # the options for this team alone: the others held by a sample meanwhile
        filler = SAMPLE + next(iter(samples(game)))
        picks: dict[Seat, tuple[int | None, Sequence[int | str]]] = {
            s: (None, [filler]) for s in team_seats
        }
        picks[seat] = (user_id, list(team))
        chosen = self.library.options_of(game, picks)
        with self.store.sessions.begin() as session:
            match = session.get(Match, match_id, with_for_update=True)
            row = session.get(MatchSeat, (match_id, seat))
            if match is None or row is None:
                raise NotFound(f"match {match_id} has no seat {seat!r}")
            if seat not in awaited(match.settings or {}):
                raise Conflict(f"seat {seat} does not wait for a team")
            if holds is None and row.kind != "open":
                raise Conflict(f"seat {seat} is not open")
            if holds is not None and not holds(row):
                raise Conflict(f"seat {seat} is not yours: open its invitation link first")
            if match.ply != 0:  # never while waiting: no action is taken then
                raise Conflict("the match has begun; its teams are set")
            options = dict(match.options)
            for name, value in chosen.items():  # this seat's part of each option
                merged = list(options.get(name) or [])
                merged[team_seats.index(seat)] = value[team_seats.index(seat)]
                options[name] = merged
            try:
                state = game.start(
                    options, match.players, match.seed, match.position, "match position"
                )
            except GladiatoriumError as err:
                raise BadRequest(f"library.{seat}: {err}") from err
            still = [s for s in awaited(match.settings or {}) if s != seat]
            settings = {k: v for k, v in (match.settings or {}).items() if k != AWAITED}
            if still:
                settings[AWAITED] = still
            match.options = state.options.model_dump(mode="json")
            match.settings = settings
            match.digest = EventsDigest().update(state.events).hexdigest()
            if holds is None:
                row.kind, row.user_id = "user", user_id
            self.store.notify_others(session, match_id)
        self.store.forget(match_id)  # rebuilt from the new options at its next use
        live = self.store.live(match_id)
        with self.store.sessions.begin() as session, live.lock:
            # turns, then deadlines: the order of a step's locks (``store.commit``)
            record_turns(session, match_id, live.deciding(), before=())
            self.store.plan_deadlines(session, live)
        log.info("match=%s seat=%s team brought; awaited %s", match_id, seat, still or "none")
        self.store.on_change(match_id)
