"""Accounts: registration, passwords hashed with argon2, session and bearer tokens.

What a stranger may not do: hash more passwords at once than ``hash_concurrency`` (argon2
takes 64 MiB a hash; the rest wait in a short queue, then are told the server is busy),
guess passwords past the login throttle (failures per account name and per client
address in moving windows), learn whether a name exists from the time a login takes (an
unknown name is checked against a dummy hash of the same cost), keep a session that has
been unused for ``session_days`` (each use slides it on), or register a password that is
among the commonly used ones (zxcvbn).
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
import threading
import time
import weakref
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from functools import cache
from typing import cast

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from sqlalchemy import Engine, Table, bindparam, delete, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker
from starlette.concurrency import run_in_threadpool
from zxcvbn import zxcvbn  # type: ignore[import-untyped]  # no type hints shipped

from gladiatorium.server.config import Settings
from gladiatorium.server.db import LoginToken, User, utcnow
from gladiatorium.server.errors import BadRequest, Conflict, ServiceError
from gladiatorium.server.tokens import digest_token, new_token

log = logging.getLogger("gladiatorium.accounts")
USERNAME = re.compile(r"[A-Za-z0-9_.-]{3,40}")
_hasher = PasswordHasher()
#: zxcvbn scores this many characters of a password at most (its own limit)
STRENGTH_CHARS = 72
#: the longest a session goes without its last use being written again
TOUCH_EVERY = timedelta(minutes=5)


class BadLogin(ServiceError):
    status = 401


class Throttled(ServiceError):
    """Too many failed logins: try again after ``retry_after`` seconds."""

    status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Busy(ServiceError):
    """Too many password checks waiting: try again in a moment."""

    status = 503
    retry_after = 1


SESSION_OVER = "this session is over (expired or logged out): log in again"


def check_credentials(username: object, password: object) -> tuple[str, str]:
    if not isinstance(username, str) or not USERNAME.fullmatch(username):
        raise BadRequest("username: 3 to 40 letters, digits, '.', '_' or '-'")
    if not isinstance(password, str) or not 8 <= len(password) <= 200:
        raise BadRequest("password: 8 to 200 characters")
    if not _encodable(password):
        raise BadRequest("password: not valid text (a lone surrogate)")
    return username, password


def check_strength(username: str, password: str, least: int) -> None:
    """Refuse a password zxcvbn guesses easily (a common one, a pattern, the name)."""
    result = zxcvbn(password[:STRENGTH_CHARS], user_inputs=[username])
    if result["score"] >= least:
        return
    feedback = result["feedback"]
    why = feedback.get("warning") or " ".join(feedback.get("suggestions") or [])
    raise BadRequest(f"password: too easy to guess. {why or 'Add another word or two.'}".strip())


class LoginThrottle:
    """Failed logins per account name and per client address, in moving windows (in this
    process's memory). A successful login is not counted."""

    def __init__(self, account_limit: str, address_limit: str) -> None:
        self.account: RateLimitItem = parse(account_limit)
        self.address: RateLimitItem = parse(address_limit)
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

    def _windows(self, username: str, address: str) -> list[tuple[RateLimitItem, str, str]]:
        return [
            (self.account, "account", username[:64]),
            (self.address, "address", address),
        ]

    def check(self, username: str, address: str) -> None:
        """Raise :class:`Throttled` when either window is full."""
        for item, kind, key in self._windows(username, address):
            if not self.limiter.test(item, kind, key):
                reset = self.limiter.get_window_stats(item, kind, key).reset_time
                wait = max(1, math.ceil(reset - time.time()))
                whose = "this account" if kind == "account" else "your address"
                raise Throttled(
                    f"too many failed logins for {whose}: try again in {wait} seconds", wait
                )

    def failed(self, username: str, address: str) -> None:
        for item, kind, key in self._windows(username, address):
            self.limiter.hit(item, kind, key)


class HashGate:
    """At most ``concurrency`` password hashes at once; up to ``queue`` callers wait their
    turn without holding a thread, anyone beyond is refused as busy (503)."""

    def __init__(self, concurrency: int, queue: int) -> None:
        self.concurrency = max(1, concurrency)
        self.queue = max(0, queue)
        self.waiting = 0
        # one semaphore per event loop (a server has one; test clients may start several)
        self._slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore]
        self._slots = weakref.WeakKeyDictionary()

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        slots = self._slots.setdefault(loop, asyncio.Semaphore(self.concurrency))
        if slots.locked() and self.waiting >= self.queue:
            raise Busy("the server is busy checking passwords: try again in a few seconds")
        self.waiting += 1
        try:
            await slots.acquire()
        finally:
            self.waiting -= 1
        try:
            yield
        finally:
            slots.release()


_TOKENS = cast(Table, LoginToken.__table__)
#: the channel on which a logout tells the other server processes its token's digest
#: (what the table holds: no token travels)
LOGOUTS = "gladiatorium_logouts"
_LOGOUT_NOTICE = text(f"SELECT pg_notify('{LOGOUTS}', :digest)")
#: a session's last use by its token's digest
_LAST_USED = select(_TOKENS.c.last_used_at).where(_TOKENS.c.token_hash == bindparam("digest"))


class Accounts:
    def __init__(self, sessions: sessionmaker[Session], settings: Settings | None = None) -> None:
        settings = settings or Settings()
        self.sessions = sessions
        #: the connections of a session's check: on PostgreSQL in autocommit (a read of
        #: one row needs no transaction: no BEGIN and no ROLLBACK to wait for, two of its
        #: four round trips); SQLite's would pay a PRAGMA to set the level back
        engine: Engine = sessions.kw["bind"]
        postgres = self.postgres = engine.dialect.name == "postgresql"
        self.reads = engine.execution_options(isolation_level="AUTOCOMMIT") if postgres else engine
        #: whether every logout reaches this process (a socket may then trust a recent
        #: look at its session): on PostgreSQL only while the listener listens
        self.logouts_heard = not postgres
        self.settings = settings
        self.lifetime = timedelta(days=settings.session_days)
        self.touch_every = min(TOUCH_EVERY, self.lifetime / 10)
        self.throttle = LoginThrottle(settings.login_account_limit, settings.login_address_limit)
        self.gate = HashGate(settings.hash_concurrency, settings.hash_queue)
        self._swept = 0.0
        # a session's use and an expired session's deletion are written by one thread of
        # their own: looking a session up never waits for a write (SQLite's lock)
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="gladiatorium-sessions")
        self._pending: set[str] = set()
        self._pending_lock = threading.Lock()

    # ----- the routes' entries: throttled, one hash at a time per gate slot -----------------
    async def sign_up(self, username: object, password: object) -> tuple[User, str]:
        """Register (from an async route): checks first, then the hash in its turn."""
        name, secret = check_credentials(username, password)
        await run_in_threadpool(check_strength, name, secret, self.settings.password_min_score)
        async with self.gate.turn():
            return await run_in_threadpool(self.register, name, secret)

    async def log_in(self, username: object, password: object, address: str) -> tuple[User, str]:
        """Log in (from an async route): the throttle, then the hash in its turn."""
        if isinstance(username, str):
            self.throttle.check(username, address)
        async with self.gate.turn():
            return await run_in_threadpool(self.login, username, password, address)

    # ----- the work itself (in a worker thread) ------------------------------------------
    def register(self, username: object, password: object) -> tuple[User, str]:
        """A new account and its first login token."""
        name, secret = check_credentials(username, password)
        self.sweep()
        try:
            with self.sessions.begin() as session:
                user = User(username=name, password_hash=_hasher.hash(secret))
                session.add(user)
                session.flush()
                token = self._issue(session, user.id)
        except IntegrityError as err:
            raise Conflict(f"username {name!r} is taken") from err
        return user, token

    def login(self, username: object, password: object, address: str = "") -> tuple[User, str]:
        if not isinstance(username, str) or not isinstance(password, str):
            raise BadLogin("wrong username or password")
        self.throttle.check(username, address)
        self.sweep()
        with self.sessions.begin() as session:
            user = None
            if USERNAME.fullmatch(username):
                query = select(User).where(User.username == username)
                user = session.scalars(query).one_or_none()
            # an unknown name costs the same hash as a known one
            stored = user.password_hash if user is not None else _dummy_hash(_hasher)
            if not _verify(stored, password) or user is None:
                self.throttle.failed(username, address)
                raise BadLogin("wrong username or password")
            if _hasher.check_needs_rehash(user.password_hash):
                user.password_hash = _hasher.hash(password)
            return user, self._issue(session, user.id)

    def logout(self, digest: str) -> None:
        """End the session whose token has this digest; on PostgreSQL the other server
        processes are told at commit (:data:`LOGOUTS`), and close its sockets."""
        with self.sessions.begin() as session:
            session.execute(delete(LoginToken).where(LoginToken.token_hash == digest))
            if self.postgres:
                session.execute(_LOGOUT_NOTICE, {"digest": digest})

    def hear_logouts(self, heard: bool) -> None:
        """Whether this process hears every logout (told by the listener: True while it
        listens on PostgreSQL; SQLite's one process makes them all itself)."""
        self.logouts_heard = heard

    def user_of(self, token: str | None) -> User | None:
        found = self.session_of(token)
        return None if found is None else found[0]

    def session_of(self, token: str | None) -> tuple[User, str] | None:
        """The account behind a live session token and the token's digest (this use
        slides the session on), or None."""
        if not token or len(token) > 200:
            return None
        digest = digest_token(token)
        user = self.alive(digest)
        return None if user is None else (user, digest)

    def alive(self, digest: str, touch: bool = True) -> User | None:
        """The account of a session that is still live; an expired one is deleted.
        ``touch``: this is a use, so the session's last use moves on (written at most
        once every few minutes, in the background)."""
        with self.sessions() as session:  # one query
            found = session.execute(
                select(LoginToken.last_used_at, User)
                .join(User, User.id == LoginToken.user_id)
                .where(LoginToken.token_hash == digest)
            ).one_or_none()
            if found is None:
                return None
            last_used, user = found
            return user if self._lasts(digest, last_used, touch) else None

    def lasts(self, digest: str, touch: bool = True) -> bool:
        """Whether a session is still live, as :meth:`alive` says, without its account:
        asked at every action of a socket (one column of one row by its key, in a
        statement built once, on a connection (:attr:`reads`) rather than an ORM
        session)."""
        with self.reads.connect() as connection:
            last_used = connection.execute(_LAST_USED, {"digest": digest}).scalar_one_or_none()
        return last_used is not None and self._lasts(digest, last_used, touch)

    def _lasts(self, digest: str, last_used: datetime, touch: bool) -> bool:
        now = utcnow()
        if last_used <= now - self.lifetime:
            self._write_later(digest, self._forget)
            return False
        if touch and now - last_used >= self.touch_every:
            self._write_later(digest, self._touch)
        return True

    def _write_later(self, digest: str, write: Callable[[str], None]) -> None:
        """One pending write per session (a busy session is not written twice)."""
        with self._pending_lock:
            if digest in self._pending:
                return
            self._pending.add(digest)

        def run() -> None:
            try:
                write(digest)
            except Exception:  # the next use tries again
                log.exception("could not write a session's use")
            finally:
                with self._pending_lock:
                    self._pending.discard(digest)

        self._writer.submit(run)

    def _touch(self, digest: str) -> None:
        with self.sessions.begin() as session:
            query = update(LoginToken).where(LoginToken.token_hash == digest)
            session.execute(query.values(last_used_at=utcnow()))

    def _forget(self, digest: str) -> None:
        with self.sessions() as session:
            self._delete_expired(session, utcnow(), digest)

    def sweep(self) -> None:
        """Delete every expired session (at most once every few minutes per process)."""
        if time.monotonic() - self._swept < self.touch_every.total_seconds():
            return
        self._swept = time.monotonic()
        with self.sessions() as session:
            self._delete_expired(session, utcnow())

    def _delete_expired(self, session: Session, now: datetime, digest: str | None = None) -> None:
        query = delete(LoginToken).where(LoginToken.last_used_at <= now - self.lifetime)
        if digest is not None:
            query = query.where(LoginToken.token_hash == digest)
        session.execute(query)
        session.commit()

    @staticmethod
    def _issue(session: Session, user_id: int) -> str:
        token = new_token()
        now = utcnow()
        session.add(
            LoginToken(
                token_hash=digest_token(token), user_id=user_id, created_at=now, last_used_at=now
            )
        )
        return token


@cache
def _dummy_hash(hasher: PasswordHasher) -> str:
    """A hash of the hasher's own cost that no password matches in practice."""
    return hasher.hash(new_token())


def _encodable(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def _verify(password_hash: str, password: str) -> bool:
    """Whether the password matches; text no password can be (a lone surrogate) is
    still hashed, so that it takes the same time, and never matches."""
    valid = _encodable(password)
    try:
        matched = _hasher.verify(password_hash, password if valid else "\ufffd" * 8)
    except (VerificationError, InvalidHashError):
        return False
    return matched and valid
