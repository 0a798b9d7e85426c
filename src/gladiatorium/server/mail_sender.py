"""Sending the outbox through SMTP: claimed, sent, marked sent; retried with backoff.

A row is claimed with a lease (``UPDATE ... WHERE`` it is queued and unclaimed or its
lease ran out): of several server processes on one database exactly one claims it. The
claimant builds the mail, hands it to the SMTP server and, as soon as the server has
taken it, marks it sent in a transaction of its own. A process killed before the
SMTP server took the mail leaves its claim to run out: the mail goes out after the
lease (``mail_lease_seconds``), from whichever process is running then. One window
stays: a process killed after the SMTP server took the mail and before the mark
commits (a few milliseconds) sends that mail again once the lease runs out
(docs/server.md). "Your turn" notices of one person are claimed together and go out
as one mail.
"""

from __future__ import annotations

import logging
import os
import secrets
import smtplib
import ssl
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from sqlalchemy import and_, or_, select, update

from gladiatorium.core import GladiatoriumError
from gladiatorium.server.config import Settings
from gladiatorium.server.db import utcnow
from gladiatorium.server.mail import MailAddress, Outgoing
from gladiatorium.server.mail_notices import Notices, awaited_people
from gladiatorium.server.store import MatchStore
from gladiatorium.server.tokens import digest_token
from gladiatorium.server.workers import Periodic

log = logging.getLogger("gladiatorium.mail")

#: rows claimed per tick
BATCH = 50
#: tries before a mail is given up (with the backoff doubling from 30 s: about a day)
MAX_ATTEMPTS = 12
#: the longest wait between two tries, in seconds
MAX_BACKOFF = 3600.0
#: the base of the links when the server has no ``--public-url``
FALLBACK_BASE = "http://localhost:8000"
#: tests only: exit the process right after a mail's claim (``claimed``) or right after
#: the SMTP server took it, before the mark (``sent``); never set in production. Read at
#: the moment, not at import (the tests fork servers from a process that imported this
#: module already).
FAULT_MAIL_EXIT = "GLADIATORIUM_FAULT_MAIL_EXIT"


# ----- the SMTP URL ---------------------------------------------------------------------------
@dataclass(frozen=True)
class SmtpTarget:
    """Where mail goes: ``smtp://[USER:PASSWORD@]HOST[:PORT][?starttls=1]`` (STARTTLS
    when asked, port 25 by default, 587 with STARTTLS) or ``smtps://...`` (TLS from the
    start, port 465)."""

    host: str
    port: int
    tls: bool
    starttls: bool
    user: str | None
    password: str | None


def parse_smtp_url(url: str) -> SmtpTarget:
    """The SMTP server of ``url``; ValueError naming what is wrong."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise ValueError(f"expected smtp://HOST[:PORT] or smtps://HOST[:PORT], got {url!r}")
    query = parse_qs(parts.query)
    unknown = sorted(set(query) - {"starttls"})
    if unknown:
        raise ValueError(f"unknown SMTP URL parameter {unknown[0]!r} (only starttls)")
    starttls = query.get("starttls", ["0"])[-1].lower() in ("1", "true", "yes", "on")
    if starttls and parts.scheme == "smtps":
        raise ValueError("smtps:// is TLS from the start: starttls is for smtp://")
    try:
        port = parts.port
    except ValueError as err:
        raise ValueError(f"SMTP URL: {err}") from None
    default = 465 if parts.scheme == "smtps" else 587 if starttls else 25
    return SmtpTarget(
        host=parts.hostname,
        port=port or default,
        tls=parts.scheme == "smtps",
        starttls=starttls,
        user=None if parts.username is None else unquote(parts.username),
        password=None if parts.password is None else unquote(parts.password),
    )


def deliver(target: SmtpTarget, message: EmailMessage, timeout: float) -> None:
    """Hand ``message`` to the SMTP server (TLS checked against the system's roots)."""
    context = ssl.create_default_context()
    smtp: smtplib.SMTP
    if target.tls:
        smtp = smtplib.SMTP_SSL(target.host, target.port, timeout=timeout, context=context)
    else:
        smtp = smtplib.SMTP(target.host, target.port, timeout=timeout)
    with smtp:
        if target.starttls:
            smtp.starttls(context=context)
        if target.user is not None:
            smtp.login(target.user, target.password or "")
        smtp.send_message(message)


# ----- the mails ------------------------------------------------------------------------------
def compose(
    kind: str, payloads: Sequence[dict[str, Any]], to: str, unsubscribe: str, settings: Settings
) -> EmailMessage:
    """The mail of ``kind`` to ``to`` saying ``payloads`` (several: gathered notices),
    with a link to each match and the one-click unsubscribe (RFC 8058)."""
    base = (settings.public_url or FALLBACK_BASE).rstrip("/")
    subject, lines = _words(kind, payloads, base)
    stop = f"{base}/mail/unsubscribe/{unsubscribe}"
    message = EmailMessage()
    message["From"] = settings.mail_from
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(domain="gladiatorium")
    message["List-Unsubscribe"] = f"<{stop}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message["Auto-Submitted"] = "auto-generated"
    footer = [
        "",
        "--",
        f"You receive this because you chose it in your account: {base}/account",
        f"Stop all mail from Gladiatorium: {stop}",
    ]
    message.set_content("\n".join([*lines, *footer]) + "\n")
    return message


def _seats(facts: dict[str, Any]) -> str:
    seats = [str(s) for s in facts.get("seats", [])]
    return ("seat " if len(seats) == 1 else "seats ") + ", ".join(seats)


def _words(kind: str, payloads: Sequence[dict[str, Any]], base: str) -> tuple[str, list[str]]:
    """The subject and the lines of a mail."""
    first = payloads[0]
    link = f"{base}/matches/{first.get('match', '')}"
    if kind == "confirm":
        url = f"{base}/mail/confirm/{first['token']}"
        return "Confirm your address for Gladiatorium", [
            "Someone (we hope you) gave this address to receive mail from Gladiatorium.",
            f"Open this link within two days to confirm it: {url}",
            "If it was not you, ignore this mail: nothing more will be sent.",
        ]
    if kind == "turn":
        lines = ["It is your turn:"]
        for facts in payloads:
            lines.append(f"- {facts['game']}, {_seats(facts)}: {base}/matches/{facts['match']}")
        if len(payloads) == 1:
            return f"Your turn in {first['game']}", lines
        return f"Your turn in {len(payloads)} matches", lines
    if kind == "reminder":
        return f"Deadline soon in {first['game']}", [
            f"Your {_seats(first)} in {first['game']} is awaited; the deadline is "
            f"{first['due'][:16].replace('T', ' ')} UTC.",
            f"Play before it passes: {link}",
        ]
    if kind == "over":
        return f"Match over: {first['game']}", [
            f"Your match of {first['game']} ({_seats(first)}) is over.",
            str(first.get("result", "")),
            f"See it: {link}",
        ]
    return f"A seat for you in {first['game']}", [
        f"You were given {_seats(first)} in a match of {first['game']}.",
        f"Join it: {link}",
    ]


# ----- the sender -------------------------------------------------------------------------------
class MailSender(Periodic):
    """Each tick: writes the notices the changes call for (:class:`Notices`), then
    claims the mail that is due, sends it and marks it sent."""

    def __init__(self, store: MatchStore, notices: Notices, settings: Settings) -> None:
        super().__init__("gladiatorium-mail", settings.mail_interval)
        self.store = store
        self.notices = notices
        self.settings = settings
        self.target = parse_smtp_url(settings.smtp_url or "")
        self.lease = timedelta(seconds=settings.mail_lease_seconds)
        #: the SMTP call's own time limit stays well inside the lease
        self.timeout = max(1.0, settings.mail_lease_seconds / 4)

    def tick(self) -> int:
        """Write the notices due, then send what is due; returns how many mails went."""
        try:
            self.notices.tick()
        except Exception:  # writing notices must not stop the sending
            log.exception("mail notices failed")
        return self.send_due()

    def send_due(self) -> int:
        now = utcnow()
        with self.store.sessions() as session:
            due = session.execute(
                select(Outgoing.id, Outgoing.kind, Outgoing.user_id)
                .where(Outgoing.status == "queued", Outgoing.not_before <= now, _free(now))
                .order_by(Outgoing.id)
                .limit(BATCH)
            ).all()
        sent = 0
        for row_id, kind, user_id in due:
            claim = secrets.token_hex(16)
            rows = self._claim(claim, row_id, kind, user_id)
            if rows:
                sent += self._send(claim, rows)
        return sent

    def _claim(self, claim: str, row_id: int, kind: str, user_id: int) -> list[Outgoing]:
        """Claim the row (a "your turn": every queued notice of that person) with a
        lease; the rows claimed (none: another process was first)."""
        now = utcnow()
        which = (
            and_(Outgoing.user_id == user_id, Outgoing.kind == "turn")
            if kind == "turn"
            else Outgoing.id == row_id
        )
        with self.store.sessions.begin() as session:
            session.execute(
                update(Outgoing)
                .where(which, Outgoing.status == "queued", _free(now))
                .values(claim=claim, lease_until=now + self.lease)
            )
            return list(
                session.scalars(
                    select(Outgoing).where(Outgoing.claim == claim).order_by(Outgoing.id)
                ).all()
            )

    def _send(self, claim: str, rows: list[Outgoing]) -> int:
        """Send the claimed rows as one mail and mark them; an SMTP error puts them
        back with a longer wait."""
        if rows[0].kind == "turn":
            rows = self._still_awaited(rows)
            if not rows:
                return 0
        first = rows[0]
        with self.store.sessions() as session:
            address = session.get(MailAddress, first.user_id)
        if address is None or not all(_still_wanted(address, row) for row in rows):
            self._mark(claim, "dropped")
            return 0
        # a match told twice before the mail went (the person acted meanwhile): once
        payloads = list({str(r.payload.get("match", r.id)): r.payload for r in rows}.values())
        to, stop = address.address, address.unsubscribe
        message = compose(first.kind, payloads, to, stop, self.settings)
        _fault("claimed")
        try:
            deliver(self.target, message, self.timeout)
        except (smtplib.SMTPException, OSError) as err:
            self._failed(claim, first.attempts + 1, err)
            return 0
        _fault("sent")
        self._mark(claim, "sent")
        log.info("mail %s sent (%d notices) to user=%d", first.kind, len(rows), first.user_id)
        return 1

    def _still_awaited(self, rows: list[Outgoing]) -> list[Outgoing]:
        """The "your turn" notices whose person is still awaited in that match; the
        others (they played meanwhile) are dropped."""
        kept: list[Outgoing] = []
        for row in rows:
            try:
                live = self.store.live(str(row.payload.get("match")))
            except GladiatoriumError:
                continue
            with live.lock:
                if row.user_id in awaited_people(live):
                    kept.append(row)
        gone = [row.id for row in rows if row not in kept]
        if gone:
            with self.store.sessions.begin() as session:
                session.execute(
                    update(Outgoing)
                    .where(Outgoing.id.in_(gone))
                    .values(status="dropped", claim=None, lease_until=None)
                )
        return kept

    def _mark(self, claim: str, status: str) -> None:
        """Mark the claimed rows done, right after the SMTP server took the mail (a
        confirmation's token leaves the outbox with it)."""
        with self.store.sessions.begin() as session:
            session.execute(
                update(Outgoing)
                .where(Outgoing.claim == claim)
                .values(status=status, sent_at=utcnow(), lease_until=None)
            )
            session.execute(
                update(Outgoing)
                .where(Outgoing.claim == claim, Outgoing.kind == "confirm")
                .values(payload={})
            )

    def _failed(self, claim: str, attempts: int, err: Exception) -> None:
        """Back to the queue after an SMTP error, the wait doubled at each failure;
        given up after ``MAX_ATTEMPTS`` or when the server refuses this mail for good (its
        recipient, or its content with a 5xx; a refused login or sender is the server's
        configuration, tried again)."""
        code = getattr(err, "smtp_code", 0) or 0
        permanent = isinstance(err, smtplib.SMTPRecipientsRefused) or (
            isinstance(err, smtplib.SMTPDataError) and 500 <= code < 600
        )
        wait = min(self.settings.mail_retry_seconds * 2 ** (attempts - 1), MAX_BACKOFF)
        status = "failed" if permanent or attempts >= MAX_ATTEMPTS else "queued"
        log.warning("mail not sent (try %d, %s): %s", attempts, status, err)
        with self.store.sessions.begin() as session:
            session.execute(
                update(Outgoing)
                .where(Outgoing.claim == claim)
                .values(
                    status=status,
                    attempts=Outgoing.attempts + 1,
                    not_before=utcnow() + timedelta(seconds=wait),
                    claim=None,
                    lease_until=None,
                    error=str(err)[:300],
                )
            )


def _fault(moment: str) -> None:
    if moment == os.environ.get(FAULT_MAIL_EXIT, ""):
        log.warning("mail %s: exiting now (fault injection)", moment)
        os._exit(70)


def _free(now: Any) -> Any:
    """Not claimed, or its claim's lease ran out."""
    return or_(Outgoing.lease_until.is_(None), Outgoing.lease_until < now)


def _still_wanted(address: MailAddress, row: Outgoing) -> bool:
    """The person still wants this mail (chose it, the address is confirmed); a
    confirmation goes only while it is the address's live link."""
    if row.kind == "confirm":
        token = str(row.payload.get("token", ""))
        return (
            not address.confirmed
            and row.payload.get("address") == address.address
            and address.confirm_hash == digest_token(token)
        )
    return address.chose(row.kind)
