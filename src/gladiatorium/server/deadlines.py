"""Deadlines: a round's (``round_minutes``, or set by the moderator) and a move clock
(``clock_days``), kept as rows. A due deadline fires once, whatever the number of
server processes: it is claimed (marked fired) in the transaction that applies it, the
game's ``timeout_actions`` for the seats still awaited in its round, or the loss on
time of the seat whose clock ran out. A new round's deadline and a restarted clock are
planned in the transaction of each step (:meth:`MatchStore.plan_deadlines`)."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from sqlalchemy import select, update

from gladiatorium.core import Action, Seat
from gladiatorium.core.outcome import side_places
from gladiatorium.server.db import Deadline, Match, utcnow
from gladiatorium.server.errors import BadRequest, Claimed, Conflict, Forbidden
from gladiatorium.server.hub import DEADLINE
from gladiatorium.server.store import Live, MatchStore

log = logging.getLogger("gladiatorium.match")

#: the longest deadline a moderator may set, in minutes (30 days)
DEADLINE_CAP_MINUTES = 60 * 24 * 30


class Deadlines:
    """The deadlines of the matches in ``store``: who sets them, and firing them."""

    def __init__(self, store: MatchStore) -> None:
        self.store = store

    def require_setter(
        self, match_id: str, user_id: int | None, seat: Seat | None, held: set[Seat]
    ) -> None:
        """Who may set a round's deadline: the moderator, that is whoever holds a seat
        the game names a moderator seat (``Game.moderator_seats``), giving that seat;
        in a match whose moderator seat no person holds (the game has none, or the
        server or a bot runs it), the match's creator. Anyone else: Forbidden."""
        live = self.store.live(match_id)
        with live.lock:
            moderators = [
                s
                for s in live.game.moderator_seats(live.state)
                if live.seats[s].kind not in ("server", "bot")
            ]
        if moderators:
            if seat not in moderators or seat not in held:
                raise Forbidden(
                    f"seat: only the moderator (seat {' or '.join(moderators)}) "
                    "sets this match's deadlines"
                )
            return
        with self.store.sessions() as session:
            creator = session.scalar(select(Match.created_by).where(Match.id == match_id))
        if user_id is None or creator != user_id:
            raise Forbidden("only the match's creator sets this match's deadlines")

    def set_round(self, match_id: str, minutes: float, shortest: float = 1.0) -> None:
        """The moderator sets (or moves) the deadline of the round in progress: not
        sooner than ``shortest`` minutes, nor later than the match's ``round_minutes``
        (30 days without it). The caller checks who asks (:meth:`require_setter`)."""
        live = self.store.live(match_id)
        round_number = live.game.round_number(live.state)
        if round_number is None or live.over:
            raise Conflict("this match has no round in progress")
        longest = float(live.settings.get("round_minutes") or DEADLINE_CAP_MINUTES)
        if not minutes >= shortest:  # NaN too
            raise BadRequest(f"minutes: at least {shortest:g}")
        if not minutes <= longest:
            what = "this match's round_minutes" if longest < DEADLINE_CAP_MINUTES else "30 days"
            raise BadRequest(f"minutes: at most {longest:g} ({what})")
        with self.store.sessions.begin() as session:
            session.execute(
                update(Deadline)
                .where(Deadline.match_id == match_id, Deadline.kind == "round")
                .values(fired=True)
            )
            due = utcnow() + timedelta(minutes=minutes)
            session.add(Deadline(match_id=match_id, kind="round", ply=round_number, due_at=due))
            self.store.notify_others(session, match_id, DEADLINE)  # their pages too
        self.store.deadline_set(match_id)
        self.store.on_change(match_id)

    def pending(self, match_id: str) -> list[dict[str, Any]]:
        """The match's deadlines still to fire (kind and when), as the API lists them."""
        with self.store.sessions() as session:
            rows = session.scalars(
                select(Deadline).where(Deadline.match_id == match_id, Deadline.fired.is_(False))
            ).all()
            return [{"kind": d.kind, "due_at": d.due_at.isoformat()} for d in rows]

    def fire(self, deadline: Deadline) -> bool:
        """A due deadline: time out the seats awaited in its round, or end the match
        against the seat whose clock ran out. The deadline is claimed (marked fired)
        in the transaction that applies it; False when it had fired already."""
        live = self.store.live(deadline.match_id)
        with live.lock:
            if not live.over:
                if deadline.kind == "round":
                    steps = self._round_time_outs(live, deadline.ply)
                    if steps:
                        log.info("match=%s round %d deadline passed", live.id, deadline.ply)
                        try:
                            self.store.commit(live, steps, claim=deadline.id)
                        except Claimed:
                            return False
                        return True
                elif deadline.kind == "clock" and deadline.ply == live.ply:
                    return self._flag(live, deadline.id)
        return self.claim_alone(deadline.id)

    def claim_alone(self, deadline_id: int) -> bool:
        """Mark a deadline fired with nothing to apply (its round is over, its match
        ended, or applying it fails for good); False when it had fired already."""
        try:
            with self.store.sessions.begin() as session:
                self.store.claim(session, deadline_id)
        except Claimed:
            return False
        return True

    def _round_time_outs(self, live: Live, round_number: int) -> list[tuple[Seat, Action]]:
        """What the seats still awaited in round ``round_number`` do at its deadline."""
        if live.game.round_number(live.state) != round_number:
            return []
        trial = live.state.clone()
        steps: list[tuple[Seat, Action]] = []
        for seat in live.state.awaiting():
            if seat not in trial.awaiting():
                continue
            for action in live.game.timeout_actions(trial, seat):
                trial.apply(seat, action)
                steps.append((seat, action))
        return steps

    def _flag(self, live: Live, deadline_id: int) -> bool:
        """The awaited seat ran out of time: the other seat wins. The clock's claim
        and the loss on time commit together; False when it had fired already."""
        late = set(live.state.awaiting())
        winners = [s for s in live.state.seats if s not in late]
        outcome: dict[str, Any] = {
            "winners": winners,
            "team": None,
            "draw": not winners,
            "lost": False,
            "reason": "time",
            "scores": {},
            "adjudicated": True,
        }
        try:
            with self.store.sessions.begin() as session:
                changed = session.execute(
                    update(Match)
                    .where(Match.id == live.id, Match.ply == live.ply, Match.status != "over")
                    .values(status="over", outcome=outcome)
                )
                self.store.claim(session, deadline_id)  # after the match: the order of commit
                if changed.rowcount != 1:  # type: ignore[attr-defined]
                    return True  # the match moved on meanwhile: the clock is void
                sides = live.game.sides(live.state)
                places = list(zip(sides, side_places(winners, {}, sides), strict=True))
                self.store.record_end(session, live, places)
                self.store.notify_others(session, live.id)
        except Claimed:
            return False
        live.adjudicated = outcome
        log.info("match=%s over on time: %s ran out", live.id, ", ".join(sorted(late)))
        self.store.on_change(live.id)
        return True
