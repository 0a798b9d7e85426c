"""The database: tables as typed SQLAlchemy models, the engine and migrations.

Matches are stored as records: options, seed, seats and an append-only table of
actions keyed by (match, ply), so that two processes can never both append ply N.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker
from sqlalchemy.types import TypeDecorator


def utcnow() -> datetime:
    return datetime.now(UTC)


class UtcDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC datetime on every backend (SQLite stores it naive)."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        return None if value is None else value.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class LoginToken(Base):
    """A session (cookie) or bearer token; only its SHA-256 is stored. It expires once
    unused for the setting ``session_days`` (``last_used_at`` moves on with each use)."""

    __tablename__ = "login_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    last_used_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow, index=True)


class Match(Base):
    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), index=True)
    version: Mapped[str] = mapped_column(String(20))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    #: ``open`` (seats to fill), ``running``, ``over``
    status: Mapped[str] = mapped_column(String(10), default="open", index=True)
    ply: Mapped[int] = mapped_column(Integer, default=0)
    digest: Mapped[str] = mapped_column(String(64))
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: match settings the server keeps (deadlines, clock), not game options
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    #: the written position the match started from (None: the game's own start); the
    #: whole truth, never shown to a seat
    position: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: when the match ended (None: not over); ratings are rebuilt in this order
    ended_at: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True, index=True)
    #: each side's place at the end: ``[[[seat, ...], place], ...]`` (the result that
    #: ratings are computed from)
    places: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)


class MatchSeat(Base):
    __tablename__ = "match_seats"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[str] = mapped_column(String(20), primary_key=True)
    #: ``user``, ``bot``, ``invite``, ``open`` or ``server`` (a moderator seat the server runs)
    kind: Mapped[str] = mapped_column(String(10))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    bot: Mapped[str | None] = mapped_column(String(40), nullable=True)
    #: SHA-256 of the invitation token (the link holds the token itself); kept once the
    #: link is used, so that opening it again is told so
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    #: set once a guest has taken the invitation
    guest: Mapped[bool] = mapped_column(Boolean, default=False)
    #: SHA-256 of the seat secret a guest got on taking the invitation (their cookie)
    secret_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class MatchAction(Base):
    """The append-only log: one row per accepted action."""

    __tablename__ = "match_actions"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[str] = mapped_column(String(20))
    action: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class Rating(Base):
    """A player's rating in one game (OpenSkill's Plackett-Luce): a person
    (``user:ID``) or a bot (``bot:NAME``)."""

    __tablename__ = "ratings"

    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    player: Mapped[str] = mapped_column(String(60), primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)


class RatingChange(Base):
    """One player's rating before and after one rated match."""

    __tablename__ = "rating_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    game: Mapped[str] = mapped_column(String(40))
    player: Mapped[str] = mapped_column(String(60), index=True)
    place: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    #: rated matches played after this one
    games: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class MatchSnapshot(Base):
    """A match's whole state after ``ply`` actions, kept every few hundred plies so that
    a long match comes back to memory without replaying it whole (a cache: the record
    stays the truth; a snapshot that does not read is passed over). Server-side only:
    it holds every secret, and it is never sent anywhere."""

    __tablename__ = "match_snapshots"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: the game's version that wrote it (another version replays from the record)
    version: Mapped[str] = mapped_column(String(20))
    #: the state, pickled and compressed
    state: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class Deadline(Base):
    """A moment at which the server acts for the match (close a round, a clock)."""

    __tablename__ = "deadlines"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    #: ``round`` (close the round / time out who has not moved) or ``clock``
    kind: Mapped[str] = mapped_column(String(10))
    #: the ply at which the deadline was set; a clock is void once the match moved on
    ply: Mapped[int] = mapped_column(Integer)
    due_at: Mapped[datetime] = mapped_column(UtcDateTime, index=True)
    fired: Mapped[bool] = mapped_column(Boolean, default=False, index=True)


class LibraryItem(Base):
    """A player's saved item for a game (a Superhero Gladiators hero)."""

    __tablename__ = "library"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    game: Mapped[str] = mapped_column(String(40))
    name: Mapped[str] = mapped_column(String(80))
    text: Mapped[str] = mapped_column(Text)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class GauntletJob(Base):
    """A hero's gauntlet, queued, running or over (server/gauntlets.py): the hero's
    file as it was given, the seed and size, progress as one mark per game played
    (``w``/``l``/``d``, written under the claim after each chunk), and the results,
    stored with the job's end in one transaction."""

    __tablename__ = "gauntlets"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: what the hero is to its publisher (``hall:SLUG@VERSION``): one job per reference
    hero_ref: Mapped[str] = mapped_column(String(200), unique=True)
    game: Mapped[str] = mapped_column(String(40))
    hero_yaml: Mapped[str] = mapped_column(Text)
    hero_name: Mapped[str] = mapped_column(String(80))
    seed: Mapped[int] = mapped_column(BigInteger)
    #: games per pairing by bot and the maps (core.gauntlet.GauntletSize as JSON)
    size: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: ``queued``, ``running``, ``done`` or ``failed``
    state: Mapped[str] = mapped_column(String(10), default="queued", index=True)
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int] = mapped_column(Integer)
    marks: Mapped[str] = mapped_column(Text, default="")
    #: who runs it (a token per claim) and when it claimed it and last said it lives
    claim: Mapped[str | None] = mapped_column(String(64), nullable=True)
    claimed_at: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)
    heartbeat_at: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)
    results: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: the hero's ladder rating (OpenSkill against the samples), set with the results
    mu: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: the ``gladiatorium lab gauntlet`` command line that plays the same games
    command: Mapped[str] = mapped_column(Text)
    error: Mapped[str | None] = mapped_column(String(300), nullable=True)


class HallItem(Base):
    """A published item of the hall (a hero, a Hero Battle theme): its name and author;
    its versions are :class:`HallVersion` rows, the newest shown in listings."""

    __tablename__ = "hall_items"
    __table_args__ = (UniqueConstraint("kind", "game", "author", "name_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: ``hero`` or ``theme``
    kind: Mapped[str] = mapped_column(String(10))
    game: Mapped[str] = mapped_column(String(40))
    #: the item's address: ``/hall/SLUG``, references ``hall:SLUG@VERSION``
    slug: Mapped[str] = mapped_column(String(100), unique=True)
    name: Mapped[str] = mapped_column(String(80))
    #: the name folded (publishing the same name again makes a new version)
    name_key: Mapped[str] = mapped_column(String(80))
    #: the author's account; None for what the server ships (``author`` "Gladiatorium")
    author_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True, index=True
    )
    author: Mapped[str] = mapped_column(String(40))
    latest: Mapped[int] = mapped_column(Integer, default=1)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class HallVersion(Base):
    """One published version of a hall item: never changed once written."""

    __tablename__ = "hall_versions"
    __table_args__ = (UniqueConstraint("item_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    item_id: Mapped[int] = mapped_column(ForeignKey("hall_items.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(80))
    #: the file's text as published
    text: Mapped[str] = mapped_column(Text)
    #: the item as the game's checker read it (a hero's option data, a theme's fields)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: the card's facts for search (:class:`~gladiatorium.core.ItemFacts`)
    cost: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    #: words to find it by, each between spaces (`` distance missile ``)
    words: Mapped[str] = mapped_column(Text, default=" ")
    numbers: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    #: the lab's rating of the hero (None until its gauntlet has run)
    lab_rating: Mapped[float | None] = mapped_column(Float, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class HallNumber(Base):
    """One named number of a hall version (a hero's trait, a theme's hero count), for
    filters such as ``speed at least 20``."""

    __tablename__ = "hall_numbers"

    version_id: Mapped[int] = mapped_column(
        ForeignKey("hall_versions.id", ondelete="CASCADE"), primary_key=True
    )
    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[int] = mapped_column(Integer)


class HallUse(Base):
    """A match created with a hall version (a hero in a team, a Battle's theme)."""

    __tablename__ = "hall_uses"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    version_id: Mapped[int] = mapped_column(
        ForeignKey("hall_versions.id", ondelete="CASCADE"), primary_key=True, index=True
    )


class HallReport(Base):
    """A signed-in person's report of a hall item, once each, with a reason."""

    __tablename__ = "hall_reports"

    item_id: Mapped[int] = mapped_column(
        ForeignKey("hall_items.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    reason: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite runs in WAL mode with a busy timeout."""
    if url.startswith("sqlite"):
        engine = create_engine(
            url, connect_args={"check_same_thread": False, "timeout": 30}, pool_size=20
        )
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_size=20, max_overflow=20, pool_pre_ping=True)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def make_sessions(engine: Engine) -> sessionmaker[Any]:
    return sessionmaker(engine, expire_on_commit=False)


def migrate(engine: Engine) -> None:
    """Bring the database to the newest schema (Alembic), creating it if new."""
    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # several processes may start at once on one database: one migrates at a time
            connection.execute(text("SELECT pg_advisory_xact_lock(7131)"))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
