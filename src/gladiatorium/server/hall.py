"""The hall: the public library of published heroes and Hero Battle themes.

A person publishes an item (a hero from the designer or their library, a theme's file);
publishing the same name again makes a new version. Versions never change: a match
stores the hero data (or the theme's options) it was created with, and ``hall_uses``
ties it to the version, so a newer version or a hidden item changes no match. Items are
named by their slug (``/hall/SLUG``) and referred to as ``hall:SLUG@VERSION`` (the
newest with no ``@VERSION``). Any signed-in person may report an item once; the
server's operators hide and unhide items. Listing and search are in ``hall_search.py``.
Nothing here knows a game: the checkers, the facts and a theme's options come through
the core contract.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Final

from limits import parse_many
from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from gladiatorium.core import Game, GladiatoriumError, games, get_game
from gladiatorium.core.gauntlet import GauntletSize
from gladiatorium.server.db import (
    HallItem,
    HallNumber,
    HallReport,
    HallUse,
    HallVersion,
    LibraryItem,
    Match,
    User,
    utcnow,
)
from gladiatorium.server.errors import BadRequest, Conflict, Forbidden, NotFound, TooMany
from gladiatorium.server.gauntlets import enqueue_gauntlet
from gladiatorium.server.quota import period_words

log = logging.getLogger("gladiatorium.hall")

#: the author of what the server ships (the sample heroes, the themes)
HALL_AUTHOR: Final = "Gladiatorium"
KINDS: Final = ("hero", "theme")
#: the largest file published (a theme of two hundred heroes is a few KiB)
MAX_TEXT: Final = 128 * 1024
MAX_REASON: Final = 1000
#: the shipped files already checked in this process (kind, text) -> (name, data): every
#: server start publishes them, and a test process starts many servers
_SHIPPED: dict[tuple[str, str], tuple[str, dict[str, Any]]] = {}
REF: Final = re.compile(r"hall:([a-z0-9][a-z0-9-]{0,99})(?:@([0-9]{1,6}))?")


@dataclass(frozen=True)
class Published:
    """A version just published (or found already published, for shipped items)."""

    slug: str
    number: int
    kind: str
    name: str

    @property
    def ref(self) -> str:
        return f"hall:{self.slug}@{self.number}"


def on_hero_published(
    session: Session, hero_ref: str, hero_yaml: str, size: GauntletSize | None = None
) -> None:
    """Called in the transaction that publishes a hero version (``hero_ref`` is
    ``hall:SLUG@VERSION``, ``hero_yaml`` its file's text), so that what it writes is
    committed with the version or not at all: the lab's gauntlet of the hero is queued
    (server/gauntlets.py; played by the server's gauntlet runner), of ``size`` (None:
    the settings of the environment)."""
    enqueue_gauntlet(session, hero_ref, hero_yaml, size=size)
    log.debug("hero %s published, its gauntlet queued", hero_ref)


def record_lab_rating(session: Session, hero_ref: str, rating: float) -> None:
    """In the transaction that stores a finished gauntlet: its rating on the published
    version it weighed (what the hall sorts by); a reference of no hall version, none."""
    found = REF.fullmatch(hero_ref)
    if found is None or found.group(2) is None:
        return
    item = select(HallItem.id).where(HallItem.slug == found.group(1)).scalar_subquery()
    session.execute(
        update(HallVersion)
        .where(HallVersion.item_id == item, HallVersion.number == int(found.group(2)))
        .values(lab_rating=rating)
    )


def slug_of(name: str) -> str:
    """A name as an address: lower-case letters and digits joined by dashes."""
    words = re.findall(r"[a-z0-9]+", name.casefold())
    return "-".join(words)[:90].strip("-") or "item"


def parse_ref(ref: str) -> tuple[str, int | None]:
    """``hall:SLUG@VERSION`` as (slug, version); no version: the newest."""
    found = REF.fullmatch(ref)
    if found is None:
        raise BadRequest(f"{ref[:120]!r} is not a hall reference (hall:SLUG@VERSION)")
    return found.group(1), int(found.group(2)) if found.group(2) else None


def kind_game(kind: str) -> Game[Any]:
    """The game whose items of ``kind`` the hall keeps (heroes, themes)."""
    for game in games():
        if kind == "hero" and game.library_kind == "hero":
            return game
        if kind == "theme" and game.theme_kind == "theme":
            return game
    raise BadRequest(f"kind: {kind!r} is not one of {', '.join(KINDS)}")


def check_item(game: Game[Any], kind: str, text: str, source: str) -> tuple[str, dict[str, Any]]:
    """An item's file checked by its game (every problem named); its name and data."""
    if len(text) > MAX_TEXT:
        raise BadRequest(f"{source}: at most {MAX_TEXT // 1024} KiB")
    try:
        if kind == "hero":
            return game.check_library_item(text, source)
        return game.check_theme(text, source)
    except GladiatoriumError as err:
        problems = str(err)
        raise BadRequest(problems if source in problems else f"{source}: {problems}") from err


class Hall:
    """Publishing, reading, resolving and moderating hall items (``sessions``: the
    server's database)."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        rate: str = "10/hour",
        gauntlet: GauntletSize | None = None,
    ) -> None:
        self.sessions = sessions
        self.rate = parse_many(rate)
        #: the size of a published hero's gauntlet (None: the environment's settings)
        self.gauntlet = gauntlet

    # ----- publishing -----------------------------------------------------------------
    def publish(
        self, user_id: int | None, kind: str, text: str, source: str = "upload.yaml"
    ) -> Published:
        """Publish ``text`` (a hero or theme file) as the account ``user_id`` (None: the
        server, author "Gladiatorium", no rate); a new version when the author already
        published that name. Refused: 422 for a file the game refuses, 429 over the rate."""
        game = kind_game(kind)
        shipped = user_id is None and (kind, text) in _SHIPPED
        name, data = _SHIPPED[kind, text] if shipped else check_item(game, kind, text, source)
        if user_id is None:
            _SHIPPED[kind, text] = name, data
        facts = game.web.item_facts(kind, data)
        for _attempt in range(3):
            try:
                with self.sessions.begin() as session:
                    author = HALL_AUTHOR
                    if user_id is not None:
                        self._check_rate(session, user_id)
                        user = session.get(User, user_id)
                        if user is None:
                            raise Forbidden("log in to publish")
                        author = user.username
                    item = self._item_for(session, kind, game, name, author, user_id)
                    latest = self._latest(session, item)
                    if user_id is None and latest is not None and latest.text == text:
                        return Published(item.slug, latest.number, kind, latest.name)
                    number = 1 if latest is None else latest.number + 1
                    version = HallVersion(
                        item_id=item.id,
                        number=number,
                        name=name[:80],
                        text=text,
                        data=data,
                        cost=facts.cost,
                        words=" " + " ".join(facts.words) + " ",
                        numbers=dict(facts.numbers),
                    )
                    session.add(version)
                    session.flush()
                    for key, value in facts.numbers.items():
                        session.add(HallNumber(version_id=version.id, name=key, value=value))
                    item.latest, item.name = number, name[:80]
                    done = Published(item.slug, number, kind, name[:80])
                    if kind == "hero":
                        on_hero_published(session, done.ref, text, self.gauntlet)
            except IntegrityError:
                continue  # published at the same moment (same name or slug): look again
            log.info("published %s by %s", done.ref, author)
            return done
        raise Conflict("published at the same moment elsewhere; try again")

    def publish_library_item(self, user_id: int, item_id: int) -> Published:
        """Publish a hero of the account's library (its file as saved)."""
        with self.sessions() as session:
            item = session.get(LibraryItem, item_id) if 0 < item_id < 2**31 else None
            if item is None or item.user_id != user_id:
                raise NotFound(f"library item {item_id} is not in your library")
            kind = get_game(item.game).library_kind or ""
            text, source = item.text, f"{item.name}.yaml"
        return self.publish(user_id, kind, text, source)

    def publish_shipped(self) -> list[Published]:
        """The sample heroes and the shipped themes, published by "Gladiatorium" (again
        only where a file changed: idempotent); run at server start. Returns what it
        published now."""
        done: list[Published] = []
        with self.sessions() as session:
            rows = session.execute(
                select(HallItem.kind, HallVersion.text)
                .join(HallVersion, HallVersion.item_id == HallItem.id)
                .where(HallItem.author_id.is_(None), HallVersion.number == HallItem.latest)
            ).all()
        published = {(str(kind), str(text)) for kind, text in rows}
        for kind in KINDS:
            try:
                game = kind_game(kind)
            except BadRequest:
                continue
            files = game.web.design_samples() if kind == "hero" else game.shipped_themes()
            for stem, text in sorted(files.items()):
                if (kind, text) in published:
                    continue
                try:
                    done.append(self.publish(None, kind, text, f"{stem}.yaml"))
                except BadRequest as err:
                    log.warning("shipped %s %s not published: %s", kind, stem, err)
        return done

    def _check_rate(self, session: Session, user_id: int) -> None:
        """Room under the publishing rate, counted from the versions in the database (so
        every server process counts the same)."""
        now = utcnow()
        for item in self.rate:
            window = timedelta(seconds=item.get_expiry())
            times = session.scalars(
                select(HallVersion.created_at)
                .join(HallItem, HallItem.id == HallVersion.item_id)
                .where(HallItem.author_id == user_id, HallVersion.created_at > now - window)
                .order_by(HallVersion.created_at)
            ).all()
            if len(times) >= item.amount:
                free = times[len(times) - item.amount] + window
                wait = max(1, math.ceil((free - now).total_seconds()))
                per = period_words(item.get_expiry())
                raise TooMany(
                    f"too many published: at most {item.amount} per {per} per account; "
                    f"try again in {wait} s",
                    wait,
                )

    def _item_for(
        self,
        session: Session,
        kind: str,
        game: Game[Any],
        name: str,
        author: str,
        user_id: int | None,
    ) -> HallItem:
        """The author's item of that name (locked), or a new one with a free slug (at
        most 100 characters: a name's 50, the author's 40, a number)."""
        key = name.casefold()[:80]
        found = session.scalars(
            select(HallItem)
            .where(
                HallItem.kind == kind,
                HallItem.game == game.info.slug,
                HallItem.author_id.is_(None) if user_id is None else HallItem.author_id == user_id,
                HallItem.name_key == key,
            )
            .with_for_update()
        ).first()
        if found is not None:
            return found
        base = slug_of(name)
        if user_id is not None:
            base = f"{base[:50].strip('-')}-{slug_of(author)}"
        slug, n = base, 1
        while session.scalar(select(HallItem.id).where(HallItem.slug == slug)) is not None:
            n += 1
            slug = f"{base}-{n}"
        item = HallItem(
            kind=kind,
            game=game.info.slug,
            slug=slug,
            name=name[:80],
            name_key=key,
            author_id=user_id,
            author=author,
            latest=0,
            hidden=False,
        )
        session.add(item)
        session.flush()
        return item

    @staticmethod
    def _latest(session: Session, item: HallItem) -> HallVersion | None:
        return session.scalars(
            select(HallVersion)
            .where(HallVersion.item_id == item.id)
            .order_by(HallVersion.number.desc())
        ).first()

    # ----- reading and resolving --------------------------------------------------------
    def item(self, slug: str) -> HallItem:
        with self.sessions() as session:
            found = session.scalars(select(HallItem).where(HallItem.slug == slug)).first()
        if found is None:
            raise NotFound(f"nothing published as {slug[:100]!r}")
        return found

    def version(self, item: HallItem, number: int | None = None) -> HallVersion:
        """A version of ``item`` (the newest by default)."""
        with self.sessions() as session:
            found = session.scalars(
                select(HallVersion).where(
                    HallVersion.item_id == item.id,
                    HallVersion.number == (item.latest if number is None else number),
                )
            ).first()
        if found is None:
            raise NotFound(f"{item.slug} has no version {number}")
        return found

    def versions(self, item: HallItem) -> list[HallVersion]:
        """Every version of ``item``, the newest first."""
        with self.sessions() as session:
            return list(
                session.scalars(
                    select(HallVersion)
                    .where(HallVersion.item_id == item.id)
                    .order_by(HallVersion.number.desc())
                )
            )

    def matches(self, item: HallItem, limit: int = 50) -> list[dict[str, Any]]:
        """The matches created with a version of ``item``, the newest first."""
        with self.sessions() as session:
            rows = session.execute(
                select(Match.id, Match.status, Match.created_at, HallVersion.number)
                .join(HallUse, HallUse.match_id == Match.id)
                .join(HallVersion, HallVersion.id == HallUse.version_id)
                .where(HallVersion.item_id == item.id)
                .order_by(Match.created_at.desc(), Match.id)
                .limit(limit)
            ).all()
        return [
            {"id": m, "status": status, "created": at.isoformat(), "version": number}
            for m, status, at, number in rows
        ]

    def detail(self, item: HallItem, version: HallVersion) -> dict[str, Any]:
        """An item and one of its versions as ``GET /api/hall/SLUG`` shows them."""
        return {
            "slug": item.slug,
            "kind": item.kind,
            "game": item.game,
            "author": item.author,
            "hidden": item.hidden,
            "latest": item.latest,
            "version": {
                "number": version.number,
                "ref": f"hall:{item.slug}@{version.number}",
                "name": version.name,
                "text": version.text,
                "cost": version.cost,
                "words": version.words.split(),
                "numbers": dict(version.numbers),
                "lab_rating": version.lab_rating,
                "published": version.created_at.isoformat(),
            },
            "versions": [
                {"number": v.number, "name": v.name, "published": v.created_at.isoformat()}
                for v in self.versions(item)
            ],
            "matches": self.matches(item),
            "reports": self.report_count(item),
        }

    def resolve(self, ref: str, kind: str, game: Game[Any]) -> HallVersion:
        """The version a reference names, for a new match: of ``kind`` for ``game``, not
        hidden (matches that used it before keep it all the same)."""
        slug, number = parse_ref(ref)
        try:
            item = self.item(slug)
            version = self.version(item, number)
        except NotFound as err:
            raise BadRequest(str(err)) from err
        if item.kind != kind or item.game != game.info.slug:
            raise BadRequest(f"{ref}: not a {kind} of {game.info.name}")
        if item.hidden:
            raise BadRequest(f"{ref}: hidden by the server's operators")
        return version

    def theme_options(
        self, game: Game[Any], ref: str, players: int | None, uses: list[int]
    ) -> dict[str, Any]:
        """The options of a Battle in the theme ``ref`` (``uses`` gets its version)."""
        version = self.resolve(ref, "theme", game)
        uses.append(version.id)
        try:
            return game.theme_options(version.data, players or game.info.default_players)
        except GladiatoriumError as err:
            raise BadRequest(str(err)) from err

    def themes(self, game: Game[Any]) -> list[tuple[str, str, int]]:
        """The game's published themes, not hidden: (reference, name, heroes), by name."""
        with self.sessions() as session:
            rows = session.execute(
                select(HallItem.slug, HallVersion.number, HallVersion.name, HallVersion.numbers)
                .join(HallVersion, HallVersion.item_id == HallItem.id)
                .where(
                    HallItem.kind == "theme",
                    HallItem.game == game.info.slug,
                    HallItem.hidden.is_(False),
                    HallVersion.number == HallItem.latest,
                )
                .order_by(HallVersion.name)
            ).all()
        return [(f"hall:{s}@{n}", name, int(nums.get("heroes", 0))) for s, n, name, nums in rows]

    # ----- moderation -----------------------------------------------------------------
    def report(self, user_id: int, slug: str, reason: str) -> None:
        """A signed-in person's report (once per item), with a reason."""
        reason = reason.strip()
        if not reason:
            raise BadRequest("reason: say why you report it")
        if len(reason) > MAX_REASON:
            raise BadRequest(f"reason: at most {MAX_REASON} characters")
        item = self.item(slug)
        try:
            with self.sessions.begin() as session:
                session.add(HallReport(item_id=item.id, user_id=user_id, reason=reason))
        except IntegrityError as err:
            raise Conflict("you reported it already") from err

    def reports(self, item: HallItem) -> list[tuple[str, str]]:
        """(who, reason) of every report of ``item``, oldest first (for the operators)."""
        with self.sessions() as session:
            rows = session.execute(
                select(User.username, HallReport.reason)
                .join(User, User.id == HallReport.user_id)
                .where(HallReport.item_id == item.id)
                .order_by(HallReport.created_at)
            ).all()
        return [(str(who), str(why)) for who, why in rows]

    def report_count(self, item: HallItem) -> int:
        with self.sessions() as session:
            count = session.scalar(
                select(func.count()).select_from(HallReport).where(HallReport.item_id == item.id)
            )
        return int(count or 0)

    def set_hidden(self, slug: str, hidden: bool) -> None:
        """Hide an item from listings and search (or show it again): operators only,
        checked by the caller."""
        with self.sessions.begin() as session:
            item = session.scalars(select(HallItem).where(HallItem.slug == slug)).first()
            if item is None:
                raise NotFound(f"nothing published as {slug[:100]!r}")
            item.hidden = hidden
        log.info("hall item %s %s", slug, "hidden" if hidden else "shown")

    def set_lab_rating(self, hero_ref: str, rating: float | None) -> None:
        """The lab's rating of a published hero version (from its gauntlet)."""
        slug, number = parse_ref(hero_ref)
        item = self.item(slug)
        with self.sessions.begin() as session:
            version = session.scalars(
                select(HallVersion).where(
                    HallVersion.item_id == item.id,
                    HallVersion.number == (number or item.latest),
                )
            ).first()
            if version is None:
                raise NotFound(f"{hero_ref}: no such version")
            version.lab_rating = rating


def is_operator(username: str | None, operators: Sequence[str]) -> bool:
    """Whether the account named ``username`` operates the server."""
    return username is not None and username.casefold() in {o.casefold() for o in operators}
