"""Talk: the messages of a match's channels, kept, checked and handed to their readers.

Which channels a seat may read and post in is the game's decision
(``Game.channels``, ``core/channels.py``); this module keeps the messages (the
``messages`` table), applies the rules of talking (length, the edit window, who may
hide, mutes, a rate per person) and gives each reader only the messages of its own
channels. A message is committed before anyone is told, and a notice between
processes carries only the match and the message's id: each connection then reads
the message and decides for its own seat.
"""

from __future__ import annotations

import asyncio
import logging
import math
import threading
import time
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from limits import parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from sqlalchemy import Boolean, ForeignKey, Integer, String, Text, func, select, text
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from gladiatorium.core import Channel, Seat
from gladiatorium.core.channels import ALL, PRIVATE, SPECTATORS, TEAM
from gladiatorium.server.db import Base, Match, User, UtcDateTime, utcnow
from gladiatorium.server.errors import (
    BadRequest,
    Conflict,
    Forbidden,
    NotFound,
    ServiceError,
    TooMany,
    Unauthorized,
)
from gladiatorium.server.hub import origin
from gladiatorium.server.service import MatchService

log = logging.getLogger("gladiatorium.talk")

#: the longest message, in characters
MAX_TEXT = 2000
#: how long after posting its author may edit a message
EDIT_WINDOW = timedelta(minutes=10)
#: the most messages one answer carries (ask again with ``after``)
PAGE = 1000
#: the PostgreSQL channel of talk notices between server processes
NOTICE_CHANNEL = "gladiatorium_talk"


class BadChannel(ServiceError):
    """A channel that does not exist in this match (400)."""

    status = 400


class BadText(ServiceError):
    """An empty or too long message (400)."""

    status = 400


# ----- tables ------------------------------------------------------------------------------
class Message(Base):
    """One message of a match's channel (migration 0004)."""

    __tablename__ = "messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    #: the conversation (``Channel.key``): ``all``, ``spectators``, ``team:SIDE``, ``seat:A|B``
    channel: Mapped[str] = mapped_column(String(60))
    #: the author's seat (None: a spectator)
    seat: Mapped[str | None] = mapped_column(String(20), nullable=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    #: the author as shown: a user name, or ``guest`` for a guest's seat
    name: Mapped[str] = mapped_column(String(60))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    edited_at: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)
    deleted: Mapped[bool] = mapped_column(Boolean, default=False)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)


class Mute(Base):
    """A person an account does not want to read (``muted``: see :func:`author_key`)."""

    __tablename__ = "message_mutes"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    muted: Mapped[str] = mapped_column(String(80), primary_key=True)


class ReadMark(Base):
    """How far a reader (``seat:S``, or ``user:ID`` for a spectator) read a channel."""

    __tablename__ = "message_reads"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    reader: Mapped[str] = mapped_column(String(80), primary_key=True)
    channel: Mapped[str] = mapped_column(String(60), primary_key=True)
    last_id: Mapped[int] = mapped_column(Integer)


def author_key(row: Message) -> str:
    """Who wrote ``row``, for mutes: an account, or a guest's seat of the match."""
    if row.user_id is not None:
        return f"user:{row.user_id}"
    return f"guest:{row.match_id}:{row.seat}"


# ----- text ---------------------------------------------------------------------------------
def _markdown() -> MarkdownIt:
    """A small safe Markdown: emphasis, code, links, lists, quotes, headings and tables
    (a round post's); no raw HTML, no images; every link ``rel="nofollow noopener"``
    (unsafe schemes are refused by markdown-it's own link check)."""
    md = MarkdownIt("zero", {"html": False, "breaks": True}).enable(
        ["emphasis", "strikethrough", "backticks", "link", "autolink", "escape", "newline"]
    )
    md.enable(["list", "blockquote", "code", "fence", "paragraph", "table", "heading"])

    def link_open(
        renderer: RendererHTML, tokens: list[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        tokens[idx].attrSet("rel", "nofollow noopener")
        return renderer.renderToken(tokens, idx, options, env)

    md.add_render_rule("link_open", link_open)
    return md


_MD = _markdown()


def render_text(source: str) -> str:
    """A message's text as safe HTML (markup in it is shown as text)."""
    return _MD.render(source)


def checked_text(value: Any) -> str:
    """A message's text: a string, not blank, at most :data:`MAX_TEXT` characters."""
    if not isinstance(value, str):
        raise BadText("text: give the message as a string")
    value = value.strip()
    if not value:
        raise BadText("text: the message is empty")
    if len(value) > MAX_TEXT:
        raise BadText(f"text: {len(value)} characters; a message holds at most {MAX_TEXT}")
    return value


# ----- who talks -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Speaker:
    """Who reads or writes: the seat they speak for (None: a spectator), their account
    (None: a guest or nobody), and whether they hold any seat of the match."""

    seat: Seat | None
    user_id: int | None
    holds_a_seat: bool

    @property
    def reader(self) -> str | None:
        """The key of their read marks (None: an anonymous spectator keeps none)."""
        if self.seat is not None:
            return f"seat:{self.seat}"
        return None if self.user_id is None else f"user:{self.user_id}"

    @property
    def rate_key(self) -> str:
        return f"user:{self.user_id}" if self.user_id is not None else f"seat:{self.seat}"


class TalkRate:
    """Messages per person: ``rate`` in the ``limits`` notation ("10/10 seconds": a
    burst of ten, then about one a second), a moving window in this process's memory."""

    def __init__(self, rate: str) -> None:
        self.items = parse_many(rate)
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self._guard = threading.Lock()

    def admit(self, key: str) -> None:
        with self._guard:
            for item in self.items:
                if not self.limiter.test(item, "talk", key):
                    reset = self.limiter.get_window_stats(item, "talk", key).reset_time
                    wait = max(1, math.ceil(reset - time.time()))
                    raise TooMany(f"too many messages; try again in {wait} s", wait)
            for item in self.items:
                self.limiter.hit(item, "talk", key)


# ----- pushes in this process ------------------------------------------------------------------
class TalkHub:
    """The message ids to tell each open socket of a match, in this process."""

    #: ids a socket may have waiting; past it the oldest are dropped (a slow reader
    #: catches up with ``GET .../messages?after=``)
    BACKLOG = 256

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self._subscribers: dict[str, set[asyncio.Queue[int]]] = defaultdict(set)

    def subscribe(self, match_id: str) -> asyncio.Queue[int]:
        queue: asyncio.Queue[int] = asyncio.Queue(maxsize=self.BACKLOG)
        self._subscribers[match_id].add(queue)
        return queue

    def unsubscribe(self, match_id: str, queue: asyncio.Queue[int]) -> None:
        self._subscribers[match_id].discard(queue)
        if not self._subscribers[match_id]:
            del self._subscribers[match_id]

    def announce(self, match_id: str, message_id: int) -> None:
        """Thread-safe: message ``message_id`` of ``match_id`` was posted or changed."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._tell, match_id, message_id)

    def _tell(self, match_id: str, message_id: int) -> None:
        for queue in self._subscribers.get(match_id, ()):
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(message_id)


def notice(match_id: str, message_id: int) -> str:
    """The NOTIFY payload of a message posted or changed by this process."""
    return f"{match_id} {message_id} {origin()}"


def read_notice(payload: str) -> tuple[str, int] | None:
    """(match, message id) of another process's notice; None for this process's own."""
    parts = payload.split(" ")
    if len(parts) != 3 or parts[2] == origin() or not parts[1].isdigit():
        return None
    return parts[0], int(parts[1])


# ----- the service ---------------------------------------------------------------------------
class Talk:
    """Posts, lists, edits, deletes and hides messages; mutes; read marks."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        matches: MatchService,
        hub: TalkHub,
        postgres: bool,
        rate: str,
    ) -> None:
        self.sessions = sessions
        self.matches = matches
        self.hub = hub
        self.postgres = postgres
        self.rate = TalkRate(rate)

    # ----- channels -------------------------------------------------------------------------
    def channels(self, match_id: str, speaker: Speaker) -> tuple[list[Channel], bool]:
        """The channels ``speaker`` may read, and whether the match is over. Someone who
        holds a seat and looks as a spectator is not given spectators' talk while the
        match runs (no kibitzing through the spectators' door)."""
        live = self.matches.store.live(match_id)
        with live.lock:
            if speaker.seat is not None and speaker.seat not in live.seats:
                raise NotFound(f"match {match_id} has no seat {speaker.seat!r}")
            found = live.game.channels(live.state, speaker.seat, live.over)
            over = live.over
        if speaker.seat is None and speaker.holds_a_seat and not over:
            found = [c for c in found if c.key != SPECTATORS]
        return found, over

    def _channel_named(self, match_id: str, speaker: Speaker, name: Any) -> Channel:
        """The channel ``speaker`` posts in: 400 when no such channel exists in the
        match, 403 when it exists but is not theirs to post in."""
        if not isinstance(name, str) or not name:
            raise BadChannel("channel: give a channel name (all, spectators, team, seat:S)")
        found, _over = self.channels(match_id, speaker)
        mine = {c.name: c for c in found}
        if name in mine:
            if not mine[name].post:
                raise Forbidden(f"channel {name!r}: you may read it but not post in it")
            return mine[name]
        live = self.matches.store.live(match_id)
        with live.lock:
            seats = set(live.state.seats)
        if name in (ALL, SPECTATORS, TEAM) or (
            name.startswith(PRIVATE) and name[len(PRIVATE) :] in seats
        ):
            raise Forbidden(f"channel {name!r}: not a channel you may post in")
        raise BadChannel(
            f"channel {name[:60]!r}: no such channel (yours: {', '.join(sorted(mine))})"
        )

    # ----- posting --------------------------------------------------------------------------
    def post(self, match_id: str, speaker: Speaker, channel_name: Any, raw: Any) -> int:
        """Keep a message and then tell its readers; returns its id. The row is
        committed (with the notice to other processes) before anyone is told."""
        if speaker.seat is None and speaker.user_id is None:
            raise Unauthorized("log in to talk as a spectator")
        words = checked_text(raw)
        channel = self._channel_named(match_id, speaker, channel_name)
        self.rate.admit(speaker.rate_key)
        with self.sessions.begin() as session:
            name = self._name_of(session, speaker)
            row = Message(
                match_id=match_id,
                channel=channel.key,
                seat=speaker.seat,
                user_id=speaker.user_id,
                name=name,
                text=words,
                deleted=False,
                hidden=False,
            )
            session.add(row)
            session.flush()
            message_id = row.id
            self._notify_others(session, match_id, message_id)
        log.info("match=%s message=%d posted", match_id, message_id)
        self.hub.announce(match_id, message_id)
        return message_id

    def _name_of(self, session: Session, speaker: Speaker) -> str:
        if speaker.user_id is None:
            return "guest"
        name = session.scalar(select(User.username).where(User.id == speaker.user_id))
        return name or "a player"

    def _notify_others(self, session: Session, match_id: str, message_id: int) -> None:
        """On PostgreSQL, tell the other server processes at commit (LISTEN/NOTIFY)."""
        if self.postgres:
            session.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": NOTICE_CHANNEL, "payload": notice(match_id, message_id)},
            )

    # ----- reading --------------------------------------------------------------------------
    def messages(self, match_id: str, speaker: Speaker, after: int = 0) -> dict[str, Any]:
        """What ``speaker`` may read after message ``after``, oldest first, with their
        channels (and how many messages in each they have not read)."""
        found, _over = self.channels(match_id, speaker)
        by_key = {c.key: c for c in found}
        with self.sessions() as session:
            muted = self._muted(session, speaker.user_id)
            # the answer lists and counts the messages up to one, the newest when it
            # began: a message posted between its two reads is in neither, and the page
            # counts it when the socket brings it (else the count held it and the list
            # did not, and the page counted it twice)
            newest = select(func.max(Message.id)).where(Message.match_id == match_id)
            top = session.scalar(newest) or 0
            rows = session.scalars(
                select(Message)
                .where(
                    Message.match_id == match_id,
                    Message.channel.in_(list(by_key)),
                    Message.id > after,
                    Message.id <= top,
                )
                .order_by(Message.id)
                .limit(PAGE)
            ).all()
            unread = self._unread(session, match_id, speaker, by_key, muted, top)
        return {
            "channels": [
                {"name": c.name, "post": c.post, "forum": c.forum, "unread": unread.get(c.key, 0)}
                for c in found
            ],
            "messages": [
                message_json(row, by_key[row.channel])
                for row in rows
                if author_key(row) not in muted
            ],
        }

    def _muted(self, session: Session, user_id: int | None) -> set[str]:
        if user_id is None:
            return set()
        return set(session.scalars(select(Mute.muted).where(Mute.user_id == user_id)))

    def _unread(
        self,
        session: Session,
        match_id: str,
        speaker: Speaker,
        by_key: dict[str, Channel],
        muted: set[str],
        top: int,
    ) -> dict[str, int]:
        """Messages in each channel after the reader's mark and up to ``top``, not their
        own, not deleted."""
        marks: dict[str, int] = {}
        if speaker.reader is not None:
            marks = {
                m.channel: m.last_id
                for m in session.scalars(
                    select(ReadMark).where(
                        ReadMark.match_id == match_id, ReadMark.reader == speaker.reader
                    )
                )
            }
        rows = session.execute(
            select(Message.id, Message.channel, Message.seat, Message.user_id).where(
                Message.match_id == match_id,
                Message.channel.in_(list(by_key)),
                Message.id
                > min([0, *marks.values()] if len(marks) < len(by_key) else marks.values()),
                Message.id <= top,
                Message.deleted.is_(False),
                Message.hidden.is_(False),
            )
        ).all()
        counts = dict.fromkeys(by_key, 0)
        for message_id, key, seat, user_id in rows:
            if message_id <= marks.get(key, 0):
                continue
            if seat == speaker.seat and user_id == speaker.user_id:
                continue  # their own
            author = f"user:{user_id}" if user_id is not None else f"guest:{match_id}:{seat}"
            if author not in muted:
                counts[key] += 1
        return counts

    def frame(self, match_id: str, speaker: Speaker, message_id: int) -> dict[str, Any] | None:
        """The socket frame of message ``message_id`` for ``speaker``, or None when it is
        not theirs to read (another channel, an author they muted)."""
        with self.sessions() as session:
            row = session.get(Message, message_id)
            if row is None or row.match_id != match_id:
                return None
            muted = self._muted(session, speaker.user_id)
        if author_key(row) in muted:
            return None
        found, _over = self.channels(match_id, speaker)
        channel = next((c for c in found if c.key == row.channel), None)
        if channel is None:
            return None
        return {"type": "message", "channel": channel.name, "message": message_json(row, channel)}

    def mark_read(self, match_id: str, speaker: Speaker, channel_name: Any, last: Any) -> None:
        """``speaker`` read ``channel_name`` up to message ``last`` (marks only move on)."""
        if speaker.reader is None:
            raise Unauthorized("log in to keep track of what you read as a spectator")
        if isinstance(last, bool) or not isinstance(last, int) or not 0 <= last < 2**31:
            raise BadRequest("id: give the id of the last message read")
        found, _over = self.channels(match_id, speaker)
        channel = next((c for c in found if c.name == channel_name), None)
        if channel is None:
            raise BadChannel(f"channel {str(channel_name)[:60]!r}: not a channel you read")
        with self.sessions.begin() as session:
            mark = session.get(ReadMark, (match_id, speaker.reader, channel.key))
            if mark is None:
                session.add(
                    ReadMark(
                        match_id=match_id, reader=speaker.reader, channel=channel.key, last_id=last
                    )
                )
            elif last > mark.last_id:
                mark.last_id = last

    # ----- changing -------------------------------------------------------------------------
    def edit(self, match_id: str, speaker: Speaker, message_id: int, raw: Any) -> None:
        """The author rewrites a message within :data:`EDIT_WINDOW` of posting it."""
        words = checked_text(raw)
        with self.sessions.begin() as session:
            row = self._authored(session, match_id, speaker, message_id)
            if row.deleted or row.hidden:
                raise Conflict(f"message {message_id} was deleted or hidden")
            if utcnow() - row.created_at > EDIT_WINDOW:
                raise Conflict(
                    f"message {message_id}: messages may be edited for "
                    f"{EDIT_WINDOW.seconds // 60} minutes after posting"
                )
            row.text, row.edited_at = words, utcnow()
            self._notify_others(session, match_id, message_id)
        self.hub.announce(match_id, message_id)

    def delete(self, match_id: str, speaker: Speaker, message_id: int) -> None:
        """The author deletes a message: its text is gone; readers see it was deleted."""
        with self.sessions.begin() as session:
            row = self._authored(session, match_id, speaker, message_id)
            row.text, row.deleted = "", True
            self._notify_others(session, match_id, message_id)
        self.hub.announce(match_id, message_id)

    def hide(self, match_id: str, speaker: Speaker, message_id: int, hidden: bool) -> None:
        """The match's creator or moderator hides (or shows again) a message of ``all``."""
        self._require_moderator(match_id, speaker)
        with self.sessions.begin() as session:
            row = self._readable(session, match_id, speaker, message_id)
            if row.channel != ALL:
                raise Forbidden("only messages of the channel 'all' may be hidden")
            row.hidden = hidden
            self._notify_others(session, match_id, message_id)
        self.hub.announce(match_id, message_id)

    def mute(self, match_id: str, speaker: Speaker, message_id: int, muted: bool) -> None:
        """Mute (or unmute) the author of a message, for the speaker's account only."""
        if speaker.user_id is None:
            raise Unauthorized("log in to mute someone")
        with self.sessions.begin() as session:
            row = self._readable(session, match_id, speaker, message_id)
            key = author_key(row)
            if key == f"user:{speaker.user_id}":
                raise BadRequest("you cannot mute yourself")
            existing = session.get(Mute, (speaker.user_id, key))
            if muted and existing is None:
                session.add(Mute(user_id=speaker.user_id, muted=key))
            elif not muted and existing is not None:
                session.delete(existing)

    def _readable(
        self, session: Session, match_id: str, speaker: Speaker, message_id: int
    ) -> Message:
        """The message, if ``speaker`` may read it (else 404, as if it did not exist)."""
        row = session.get(Message, message_id)
        keys = {c.key for c in self.channels(match_id, speaker)[0]}
        if row is None or row.match_id != match_id or row.channel not in keys:
            raise NotFound(f"no message {message_id} in your channels of this match")
        return row

    def _authored(
        self, session: Session, match_id: str, speaker: Speaker, message_id: int
    ) -> Message:
        row = self._readable(session, match_id, speaker, message_id)
        if not _own(row, speaker):
            raise Forbidden(f"message {message_id} is not yours")
        return row

    def _require_moderator(self, match_id: str, speaker: Speaker) -> None:
        """The moderator (a moderator seat the speaker holds and speaks for) or the
        match's creator may hide messages."""
        live = self.matches.store.live(match_id)
        with live.lock:
            moderators = set(live.game.moderator_seats(live.state))
        if speaker.seat is not None and speaker.seat in moderators:
            return
        with self.sessions() as session:
            creator = session.scalar(select(Match.created_by).where(Match.id == match_id))
        if speaker.user_id is None or creator != speaker.user_id:
            raise Forbidden("only the match's creator or moderator may hide messages")

    def count(self, match_id: str) -> int:
        """How many messages the match has in all (tests and the operator)."""
        with self.sessions() as session:
            found = session.scalar(
                select(func.count()).select_from(Message).where(Message.match_id == match_id)
            )
        return int(found or 0)


def _own(row: Message, speaker: Speaker) -> bool:
    """Whether ``speaker`` wrote ``row``: the same seat (or both spectators) and the
    same account (a guest's seat: no account)."""
    return row.seat == speaker.seat and row.user_id == speaker.user_id


def message_json(row: Message, channel: Channel) -> dict[str, Any]:
    """A message as its reader gets it (in ``channel``, as the reader names it)."""
    gone = row.deleted or row.hidden
    words = "" if gone else row.text
    return {
        "id": row.id,
        "channel": channel.name,
        "from": row.name,
        "seat": row.seat,
        "to": _addressed(row),
        "text": words,
        "html": render_text(words) if words else "",
        "at": row.created_at.isoformat(),
        "edited": row.edited_at is not None,
        "deleted": row.deleted,
        "hidden": row.hidden,
    }


def _addressed(row: Message) -> Seat | None:
    """The seat a private message was written to (None for the other channels)."""
    if not row.channel.startswith(PRIVATE):
        return None
    pair = row.channel[len(PRIVATE) :].split("|")
    others = [s for s in pair if s != row.seat]
    return others[0] if others else row.seat
