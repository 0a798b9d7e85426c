"""What mail is written, to whom: "your turn", a deadline's reminder, the end of a
match, an invitation. Each becomes a row of the outbox (``server/mail.py``), sent later.

A match that changed (an action, a seat taken, the end) is looked at once, soon after,
in the mail sender's thread (:meth:`Notices.look`): a person whose seat became awaited
gets a "your turn" notice, marked (``mail_turn_marks``) so that no other goes out for
that match until none of their seats is awaited any more (they acted); a match that
ended writes each person's "match over". Reminders come from the deadlines table: a
deadline due within ``mail_remind_minutes`` writes one reminder per awaited person, and
is marked (``mail_reminders``) so that it is done once. The marks and the unique keys
of the outbox make every one of these happen once, however many server processes look.

A mail says only what its seat may know: the match, the game's name, the seat and the
public result, who won named as the pages name them (``seat_facts``,
``server/results.py``); never the seat's view.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, exists, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from gladiatorium.core import GladiatoriumError, Seat
from gladiatorium.server.config import Settings
from gladiatorium.server.db import Deadline, Match, MatchSeat, utcnow
from gladiatorium.server.mail import KIND_CHOICE, MailAddress, Outgoing, Reminded, TurnMark
from gladiatorium.server.results import match_names, result_label
from gladiatorium.server.store import Live, MatchStore

log = logging.getLogger("gladiatorium.mail")

#: most deadlines looked at per tick
REMINDERS_PER_TICK = 100


def awaited_people(live: Live) -> dict[int, list[Seat]]:
    """The people whose turn it is in ``live`` (each with their awaited seats), for the
    "your turn" and the reminders: the seats the match waits on a decision from
    (``Live.deciding``, as the turns of ``server/turns.py``), so a Hero Battle player
    who has moved, and may still edit until the round closes, is not told again."""
    people: dict[int, list[Seat]] = {}
    for seat in live.deciding():
        row = live.seats.get(seat)
        if row is not None and row.kind == "user" and row.user_id is not None:
            people.setdefault(row.user_id, []).append(seat)
    return people


def not_awaited(live: Live) -> set[int]:
    """The people holding a seat of ``live`` of whom no seat is awaited."""
    holders = {r.user_id for r in live.seats.values() if r.kind == "user" and r.user_id}
    return holders - set(awaited_people(live))


def seat_facts(
    live: Live, seats: list[Seat], names: Mapping[Seat, str] | None = None
) -> dict[str, Any]:
    """What a mail about ``live`` may say to the holder of ``seats``: the match, the
    game's name, the seats and, once over, the public result, its seats named by
    ``names`` (``results.seat_names``; ``seat N`` where missing). Nothing of any view."""
    facts: dict[str, Any] = {
        "match": live.id,
        "game": live.game.info.name,
        "seats": list(seats),
    }
    if live.over:
        outcome = live.adjudicated or live.game.outcome_seen_by(live.state, None) or {}
        facts["result"] = result_text(outcome, seats, names or {})
    return facts


def result_text(outcome: dict[str, Any], seats: list[Seat], names: Mapping[Seat, str]) -> str:
    """The public result in words from the seats' side, then as every page says it
    (``results.result_label``): ``You won. Won by ada: reached the target; score: ada
    100, bob 42.``"""
    winners = [str(w) for w in outcome.get("winners") or []]
    label = result_label(outcome, names) or "Draw"
    if not winners:
        return f"{label}."
    mine = any(s in winners for s in seats)
    return f"{'You won' if mine else 'You lost'}. {label}."


class Notices:
    """Writes the outbox's notices for the matches that changed and the deadlines due."""

    def __init__(self, store: MatchStore, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        #: matches to look at, each with the people seen not awaited since the last look
        #: (and the latest ply at which they were): they acted, their next turn is news
        self._changed: dict[str, dict[int, int]] = {}
        self._guard = threading.Lock()

    def changed(self, match_id: str) -> None:
        """A match changed (called at every step): note who is not awaited now, while
        the match is in memory (cheap), and look at it at the next tick."""
        live = self.store.held(match_id)
        released: dict[int, int] = {}
        if live is not None:
            with live.lock:
                if not any(row.kind == "user" for row in live.seats.values()):
                    return  # no person to write to
                released = dict.fromkeys(not_awaited(live), live.ply)
        with self._guard:
            seen = self._changed.setdefault(match_id, {})
            for user, ply in released.items():
                seen[user] = max(ply, seen.get(user, ply))

    def resume(self) -> None:
        """After a start: look at every running match of someone who receives mail."""
        with self.store.sessions() as session:
            ids = session.scalars(
                select(Match.id)
                .join(MatchSeat, MatchSeat.match_id == Match.id)
                .join(MailAddress, MailAddress.user_id == MatchSeat.user_id)
                .where(Match.status == "running", MailAddress.confirmed.is_(True))
                .distinct()
            ).all()
        for match_id in ids:
            with self._guard:
                self._changed.setdefault(match_id, {})

    def tick(self) -> int:
        """Look at the matches that changed and the deadlines near; returns how many
        notices were written."""
        with self._guard:
            changed, self._changed = self._changed, {}
        written = 0
        for match_id, released in sorted(changed.items()):
            try:
                written += self.look(match_id, released)
            except GladiatoriumError as err:  # the match is gone or cannot be rebuilt
                log.warning("match=%s not looked at for mail: %s", match_id, err)
            except Exception:  # a passing fault (a busy database): look again next tick
                log.exception("match=%s mail look failed", match_id)
                with self._guard:
                    seen = self._changed.setdefault(match_id, {})
                    for user, ply in released.items():
                        seen[user] = max(ply, seen.get(user, ply))
        return written + self.remind()

    # ----- a match that changed ----------------------------------------------------------
    def look(self, match_id: str, released: dict[int, int]) -> int:
        """Write what a change of ``match_id`` calls for: "your turn" to whoever became
        awaited since they were last told (``released``: who was seen not awaited, at
        which ply), "match over" to everyone once it ended."""
        live = self.store.live(match_id)
        with live.lock:
            holders: dict[int, list[Seat]] = {}
            for seat, row in live.seats.items():
                if row.kind == "user" and row.user_id is not None:
                    holders.setdefault(row.user_id, []).append(seat)
            awaited = awaited_people(live)
            names = match_names(self.store, match_id) if live.over else {}
            facts = {user: seat_facts(live, seats, names) for user, seats in holders.items()}
            over, ply = live.over, live.ply
        self._release(match_id, {**released, **dict.fromkeys(set(holders) - set(awaited), ply)})
        with self.store.sessions() as session:
            if not self._receiving(session, list(holders), None):
                return 0
        if over:
            return sum(
                self._write(user, "over", facts[user], f"over:{match_id}:{user}")
                for user in holders
            )
        written = 0
        for user in awaited:
            written += self._turn(user, match_id, ply, {**facts[user], "seats": awaited[user]})
        return written

    def _release(self, match_id: str, released: dict[int, int]) -> None:
        """Forget the "your turn" marks of those who were not awaited after them."""
        if not released:
            return
        with self.store.sessions() as session:
            marks = session.execute(
                select(TurnMark.user_id, TurnMark.ply).where(
                    TurnMark.match_id == match_id, TurnMark.user_id.in_(list(released))
                )
            ).all()
        gone = [user for user, ply in marks if ply < released[user]]
        if gone:
            with self.store.sessions.begin() as session:
                for user in gone:
                    session.execute(
                        delete(TurnMark).where(
                            TurnMark.match_id == match_id,
                            TurnMark.user_id == user,
                            TurnMark.ply < released[user],
                        )
                    )

    def _turn(self, user_id: int, match_id: str, ply: int, facts: dict[str, Any]) -> int:
        """A "your turn" notice, unless one went out since the person last acted."""
        if not self._receives(user_id, "turn"):
            return 0
        gather = timedelta(seconds=self.settings.mail_gather_seconds)
        try:
            with self.store.sessions.begin() as session:
                session.add(TurnMark(user_id=user_id, match_id=match_id, ply=ply))
                session.flush()
                self._add(session, user_id, "turn", facts, None, utcnow() + gather)
        except IntegrityError:
            return 0  # told already (here or by another process)
        return 1

    def invited(self, live: Live, seat: Seat, user_id: int) -> int:
        """A seat of ``live`` was given to the account ``user_id`` by someone else: tell
        them (once per match and seat)."""
        with live.lock:
            facts = seat_facts(live, [seat])
        return self._write(user_id, "invited", facts, f"invited:{live.id}:{seat}:{user_id}")

    # ----- reminders --------------------------------------------------------------------------
    def remind(self) -> int:
        """Write the reminders of the deadlines due within ``mail_remind_minutes``."""
        now = utcnow()
        near = now + timedelta(minutes=self.settings.mail_remind_minutes)
        with self.store.sessions() as session:
            due = session.execute(
                select(Deadline.id, Deadline.match_id, Deadline.due_at)
                .where(
                    Deadline.fired.is_(False),
                    Deadline.due_at > now,
                    Deadline.due_at <= near,
                    ~exists().where(Reminded.deadline_id == Deadline.id),
                )
                .order_by(Deadline.due_at)
                .limit(REMINDERS_PER_TICK)
            ).all()
        written = 0
        for deadline_id, match_id, due_at in due:
            try:
                written += self._remind(deadline_id, match_id, due_at.isoformat())
            except GladiatoriumError as err:
                log.warning("match=%s no reminder: %s", match_id, err)
        return written

    def _remind(self, deadline_id: int, match_id: str, due: str) -> int:
        live = self.store.live(match_id)
        with live.lock:
            awaited = awaited_people(live)
            facts = {user: seat_facts(live, seats) for user, seats in awaited.items()}
        try:
            with self.store.sessions.begin() as session:
                session.add(Reminded(deadline_id=deadline_id))
                session.flush()
                wanted = self._receiving(session, list(awaited), "reminder")
                for user in wanted:
                    key = f"reminder:{deadline_id}:{user}"
                    self._add(session, user, "reminder", {**facts[user], "due": due}, key)
        except IntegrityError:
            return 0  # reminded already (another process)
        return len(wanted)

    # ----- writing to the outbox ----------------------------------------------------------------
    def _write(self, user_id: int, kind: str, facts: dict[str, Any], key: str) -> int:
        """One mail of ``kind``, once per ``key``, if the person chose to receive it."""
        if not self._receives(user_id, kind):
            return 0
        try:
            with self.store.sessions.begin() as session:
                self._add(session, user_id, kind, facts, key)
        except IntegrityError:
            return 0  # written already
        return 1

    def _receives(self, user_id: int, kind: str) -> bool:
        with self.store.sessions() as session:
            return bool(self._receiving(session, [user_id], kind))

    @staticmethod
    def _receiving(session: Session, users: list[int], kind: str | None) -> list[int]:
        """Those of ``users`` with a confirmed address who chose mail of ``kind`` (None:
        of any kind)."""
        if not users:
            return []
        rows = session.scalars(
            select(MailAddress).where(
                MailAddress.user_id.in_(users), MailAddress.confirmed.is_(True)
            )
        ).all()
        return sorted(
            row.user_id
            for row in rows
            if (any(row.chose(k) for k in KIND_CHOICE) if kind is None else row.chose(kind))
        )

    @staticmethod
    def _add(
        session: Session,
        user_id: int,
        kind: str,
        facts: dict[str, Any],
        key: str | None,
        not_before: Any = None,
    ) -> None:
        session.add(
            Outgoing(
                user_id=user_id,
                kind=kind,
                key=key,
                payload=facts,
                not_before=not_before or utcnow(),
            )
        )
        session.flush()  # a key written already fails here, inside the caller's try
