"""Mail: a person's address and what they chose to receive, and the outbox.

A person gives an address (checked with ``email-validator``, without looking anything
up in the DNS); a link sent to it confirms it, and until then nothing else goes to it.
They choose what to receive (``CHOICES``), every one off until chosen. Every mail the
server sends is first a row of the outbox (``mail_outbox``), written in a transaction
of its own; the sender (``server/mail_sender.py``) claims rows, sends them and marks
them sent. What is written to whom is decided in ``server/mail_notices.py``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from email_validator import EmailNotValidError, validate_email
from sqlalchemy import JSON, Boolean, ForeignKey, Index, Integer, String, select
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from gladiatorium.server.config import Settings
from gladiatorium.server.db import Base, UtcDateTime, utcnow
from gladiatorium.server.errors import BadRequest, NotFound, TooMany
from gladiatorium.server.tokens import digest_token, new_token

log = logging.getLogger("gladiatorium.mail")

#: what a person may choose to receive, each off until chosen
CHOICES = ("your_turn", "deadline", "match_over", "invited")
#: how long a confirmation link works
CONFIRM_DAYS = 2
#: the shortest time between two confirmation mails to one account (no mail bombs)
CONFIRM_EVERY = timedelta(minutes=1)


# ----- tables ------------------------------------------------------------------------------
class MailAddress(Base):
    """A person's address, whether it is confirmed, and what they chose (migration 0006)."""

    __tablename__ = "mail_addresses"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    address: Mapped[str] = mapped_column(String(254))
    confirmed: Mapped[bool] = mapped_column(Boolean, default=False)
    #: SHA-256 of the confirmation link's token; None once used
    confirm_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    confirm_until: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)
    confirm_sent_at: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)
    #: the token of the one-click unsubscribe link every mail carries (it can only turn
    #: mail off, so it is kept as it is, to be written into each mail)
    unsubscribe: Mapped[str] = mapped_column(String(64), unique=True)
    your_turn: Mapped[bool] = mapped_column(Boolean, default=False)
    deadline: Mapped[bool] = mapped_column(Boolean, default=False)
    match_over: Mapped[bool] = mapped_column(Boolean, default=False)
    invited: Mapped[bool] = mapped_column(Boolean, default=False)

    def chose(self, kind: str) -> bool:
        """Whether mail of ``kind`` may go to this address now."""
        if kind == "confirm":
            return not self.confirmed
        return self.confirmed and bool(getattr(self, KIND_CHOICE[kind]))


#: the choice that lets each kind of mail go out
KIND_CHOICE = {
    "turn": "your_turn",
    "reminder": "deadline",
    "over": "match_over",
    "invited": "invited",
}


class Outgoing(Base):
    """One mail to send (or one notice of a gathered mail): ``queued``, then ``sent``,
    ``dropped`` (the person turned it off meanwhile) or ``failed`` (refused for good)."""

    __tablename__ = "mail_outbox"
    __table_args__ = (Index("ix_mail_outbox_status_not_before", "status", "not_before"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    #: ``confirm``, ``turn``, ``reminder``, ``over`` or ``invited``
    kind: Mapped[str] = mapped_column(String(12))
    #: what makes this mail unique (a match's end per person, a deadline per person):
    #: a second process writing the same mail fails on it
    key: Mapped[str | None] = mapped_column(String(120), nullable=True, unique=True)
    #: what the mail says, all of it public to the seat (``mail_notices.seat_facts``)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    #: not sent before (a notice waits to be gathered; a failed one, its backoff)
    not_before: Mapped[datetime] = mapped_column(UtcDateTime)
    status: Mapped[str] = mapped_column(String(10), default="queued")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    #: the claim of the process sending it, good until ``lease_until``
    claim: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    lease_until: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)
    sent_at: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)
    error: Mapped[str | None] = mapped_column(String(300), nullable=True)


class TurnMark(Base):
    """A "your turn" notice went out for this match: no other until the person is seen
    with no seat awaited (they acted)."""

    __tablename__ = "mail_turn_marks"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    #: the ply at which it went out: seen not awaited at a later ply, the person acted
    ply: Mapped[int] = mapped_column(Integer)


class Reminded(Base):
    """The reminders of this deadline were written (once per deadline)."""

    __tablename__ = "mail_reminders"

    deadline_id: Mapped[int] = mapped_column(
        ForeignKey("deadlines.id", ondelete="CASCADE"), primary_key=True
    )


# ----- a person's settings --------------------------------------------------------------------
def checked_address(value: object) -> str:
    """The address in its normal form, all ASCII (an international domain in its IDNA
    form; letters beyond ASCII before the @ are refused, as few SMTP servers take them),
    or BadRequest naming what is wrong with it. Nothing is looked up in the DNS."""
    if not isinstance(value, str) or len(value) > 254:
        raise BadRequest("address: an e-mail address of at most 254 characters")
    try:
        checked = validate_email(value, check_deliverability=False, allow_smtputf8=False)
    except EmailNotValidError as err:
        raise BadRequest(f"address: {err}") from None
    return str(checked.ascii_email or checked.normalized)


@dataclass(frozen=True)
class ConfirmMail:
    """A confirmation to send: to whom, and the link's token."""

    user_id: int
    address: str
    token: str


class Mailbox:
    """Each person's address and choices: read, change, confirm, unsubscribe."""

    def __init__(self, sessions: sessionmaker[Session], settings: Settings) -> None:
        self.sessions = sessions
        self.settings = settings

    @property
    def sending(self) -> bool:
        """Whether this server sends mail at all (an SMTP URL is set)."""
        return bool(self.settings.smtp_url)

    def get(self, user_id: int) -> dict[str, Any]:
        """The person's settings, as ``GET /api/me/mail`` answers them."""
        with self.sessions() as session:
            row = session.get(MailAddress, user_id)
            return self._json(row)

    def _json(self, row: MailAddress | None) -> dict[str, Any]:
        return {
            "address": None if row is None else row.address or None,
            "confirmed": row is not None and row.confirmed,
            **{choice: row is not None and bool(getattr(row, choice)) for choice in CHOICES},
            "sending": self.sending,
        }

    def put(self, user_id: int, data: dict[str, Any]) -> dict[str, Any]:
        """Change the address and the choices (the keys given, the others kept). A new
        address, or ``resend`` on one not yet confirmed, sends a confirmation link;
        a null or empty address takes it away with every choice."""
        unknown = sorted(set(data) - {"address", "resend", *CHOICES})
        if unknown:
            names = ", ".join(("address", "resend", *CHOICES))
            raise BadRequest(f"{unknown[0][:40]}: not a mail setting ({names})")
        for name in (*CHOICES, "resend"):
            if name in data and not isinstance(data[name], bool):
                raise BadRequest(f"{name}: true or false")
        address = data.get("address", ...)
        if address not in (..., None, ""):
            address = checked_address(address)
        confirm = None
        with self.sessions.begin() as session:
            row = session.get(MailAddress, user_id, with_for_update=True)
            if address in (None, ""):
                if row is not None:  # kept, so that the pace of confirmations holds
                    self._forget(row)
                return self._json(None)
            if address is ... and (row is None or not row.address):
                raise BadRequest("address: give an address first")
            if row is None:
                row = MailAddress(user_id=user_id, address=address, unsubscribe=new_token())
                row.confirmed, row.your_turn, row.deadline = False, False, False
                row.match_over, row.invited = False, False
                session.add(row)
            for choice in CHOICES:
                if choice in data:
                    setattr(row, choice, data[choice])
            changed = address is not ... and address != row.address
            if changed or (data.get("resend") and not row.confirmed) or not row.confirm_sent_at:
                if changed:
                    row.address, row.confirmed = str(address), False
                    row.unsubscribe = new_token()
                confirm = self._new_confirmation(session, row)
            answer = self._json(row)
        if confirm is not None:
            log.info("user=%d confirmation written", user_id)
        return answer

    @staticmethod
    def _forget(row: MailAddress) -> None:
        """The person took their address away: nothing goes out any more."""
        row.address, row.confirmed, row.confirm_hash, row.confirm_until = "", False, None, None
        row.unsubscribe = new_token()
        for choice in CHOICES:
            setattr(row, choice, False)

    def _new_confirmation(self, session: Session, row: MailAddress) -> ConfirmMail | None:
        """A new confirmation link for ``row``'s address, written to the outbox (none
        while the server sends no mail, nor twice within ``CONFIRM_EVERY``)."""
        if not self.sending or row.confirmed:
            return None
        now = utcnow()
        if row.confirm_sent_at is not None and now - row.confirm_sent_at < CONFIRM_EVERY:
            raise TooMany("address: a confirmation was sent less than a minute ago; wait a moment")
        token = new_token()
        row.confirm_hash = digest_token(token)
        row.confirm_until = now + timedelta(days=CONFIRM_DAYS)
        row.confirm_sent_at = now
        payload = {"address": row.address, "token": token}
        session.add(Outgoing(user_id=row.user_id, kind="confirm", payload=payload, not_before=now))
        return ConfirmMail(row.user_id, row.address, token)

    def confirm(self, token: str) -> str:
        """The confirmation link opened: the address is confirmed (the link works once,
        until it expires). Returns the address."""
        with self.sessions.begin() as session:
            row = session.scalars(
                select(MailAddress).where(MailAddress.confirm_hash == digest_token(token))
            ).one_or_none()
            if row is None:
                raise NotFound("this confirmation link is not valid (used, or replaced by a newer)")
            if row.confirm_until is None or row.confirm_until < utcnow():
                raise NotFound("this confirmation link has expired: ask for a new one")
            row.confirmed, row.confirm_hash, row.confirm_until = True, None, None
            log.info("user=%d address confirmed", row.user_id)
            return row.address

    def unsubscribe(self, token: str) -> str:
        """The one-click unsubscribe: every choice off. Returns the address."""
        with self.sessions.begin() as session:
            row = session.scalars(
                select(MailAddress).where(MailAddress.unsubscribe == token)
            ).one_or_none()
            if row is None:
                raise NotFound("this unsubscribe link is not valid (the address changed since)")
            for choice in CHOICES:
                setattr(row, choice, False)
            log.info("user=%d unsubscribed", row.user_id)
            return row.address
