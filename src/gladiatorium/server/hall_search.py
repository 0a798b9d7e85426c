"""Browsing and searching the hall: the newest version of each item not hidden, found
by name, author, cost range, words (a hero's powers) and numbers (a hero's traits, a
theme's hero count), sorted by newest, cost or the lab's rating."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from sqlalchemy import Select, exists, func, select
from sqlalchemy.orm import Session, sessionmaker

from gladiatorium.server.db import HallItem, HallNumber, HallVersion
from gladiatorium.server.errors import BadRequest

SORTS: Final = ("newest", "cost", "-cost", "rating", "name")
PAGE_SIZE: Final = 50
MAX_PAGE: Final = 1000
_NUMBER_FILTER: Final = re.compile(r"([a-z_]{1,40}):(\d{1,9})?(?:-(\d{1,9}))?")


@dataclass(frozen=True)
class HallQuery:
    """What a listing asks for (every part optional)."""

    kind: str = "hero"
    name: str = ""
    author: str = ""
    cost_min: int | None = None
    cost_max: int | None = None
    #: words every item found has (``distance``, ``flight``)
    words: tuple[str, ...] = ()
    #: name -> (least, most) of a number (``speed`` at least 20: ``(20, None)``)
    numbers: Mapping[str, tuple[int | None, int | None]] = field(default_factory=dict)
    sort: str = "newest"
    page: int = 1

    @classmethod
    def parse(cls, params: Mapping[str, Any], words: list[str], traits: list[str]) -> HallQuery:
        """A query from the address's parameters (``words``: every ``power``,
        ``traits``: every ``trait=NAME:LEAST-MOST``, each of them perhaps several
        separated by spaces); each error names its parameter."""
        kind = str(params.get("kind") or "hero")
        if kind not in ("hero", "theme"):
            raise BadRequest(f"kind: {kind[:20]!r} is not hero or theme")
        sort = str(params.get("sort") or "newest")
        if sort not in SORTS:
            raise BadRequest(f"sort: {sort[:20]!r} is not one of {', '.join(SORTS)}")
        numbers: dict[str, tuple[int | None, int | None]] = {}
        words = [w for given in words for w in given.split()]  # a form's field: several
        for raw in (t for given in traits for t in given.split()):
            found = _NUMBER_FILTER.fullmatch(raw.strip().lower())
            if found is None:
                raise BadRequest(f"trait: {raw[:40]!r} is not NAME:LEAST, NAME:LEAST-MOST")
            low, high = found.group(2), found.group(3)
            numbers[found.group(1)] = (_int(low), _int(high))
        return cls(
            kind=kind,
            name=str(params.get("q") or "")[:80].strip(),
            author=str(params.get("author") or "")[:40].strip(),
            cost_min=_number(params, "cost_min"),
            cost_max=_number(params, "cost_max"),
            words=tuple(w.lower()[:40] for w in words)[:10],
            numbers=numbers,
            sort=sort,
            page=_number(params, "page", 1, MAX_PAGE) or 1,
        )


def _int(raw: str | None) -> int | None:
    return None if raw in (None, "") else int(raw)


def _number(params: Mapping[str, Any], name: str, low: int = 0, high: int = 10**7) -> int | None:
    raw = str(params.get(name) or "").strip()
    if not raw:
        return None
    if not re.fullmatch(r"-?\d{1,9}", raw) or not low <= int(raw) <= high:
        raise BadRequest(f"{name}: expected a whole number from {low} to {high}, got {raw[:20]!r}")
    return int(raw)


def search(sessions: sessionmaker[Session], query: HallQuery) -> tuple[list[dict[str, Any]], bool]:
    """One page of what ``query`` finds, as listings show it, and whether more follow."""
    statement = _filtered(query)
    order: dict[str, Any] = {
        "newest": (HallVersion.created_at.desc(), HallVersion.id.desc()),
        "cost": (HallVersion.cost.asc().nulls_last(), HallVersion.id.desc()),
        "-cost": (HallVersion.cost.desc().nulls_last(), HallVersion.id.desc()),
        "rating": (HallVersion.lab_rating.desc().nulls_last(), HallVersion.id.desc()),
        "name": (func.lower(HallVersion.name), HallVersion.id),
    }
    statement = statement.order_by(*order[query.sort])
    statement = statement.offset((query.page - 1) * PAGE_SIZE).limit(PAGE_SIZE + 1)
    with sessions() as session:
        rows = session.execute(statement).all()
    return [listing(item, version) for item, version in rows[:PAGE_SIZE]], len(rows) > PAGE_SIZE


def _filtered(query: HallQuery) -> Select[HallItem, HallVersion]:
    statement = (
        select(HallItem, HallVersion)
        .join(HallVersion, HallVersion.item_id == HallItem.id)
        .where(
            HallItem.kind == query.kind,
            HallItem.hidden.is_(False),
            HallVersion.number == HallItem.latest,
        )
    )
    if query.name:
        statement = statement.where(
            func.lower(HallVersion.name).contains(query.name.lower(), autoescape=True)
        )
    if query.author:
        statement = statement.where(func.lower(HallItem.author) == query.author.lower())
    if query.cost_min is not None:
        statement = statement.where(HallVersion.cost >= query.cost_min)
    if query.cost_max is not None:
        statement = statement.where(HallVersion.cost <= query.cost_max)
    for word in query.words:
        statement = statement.where(HallVersion.words.contains(f" {word} ", autoescape=True))
    for name, (low, high) in query.numbers.items():
        found = exists().where(HallNumber.version_id == HallVersion.id, HallNumber.name == name)
        if low is not None:
            found = found.where(HallNumber.value >= low)
        if high is not None:
            found = found.where(HallNumber.value <= high)
        statement = statement.where(found)
    return statement


def listing(item: HallItem, version: HallVersion) -> dict[str, Any]:
    """An item's newest version as listings (and ``GET /api/hall``) show it."""
    return {
        "slug": item.slug,
        "ref": f"hall:{item.slug}@{version.number}",
        "kind": item.kind,
        "game": item.game,
        "name": version.name,
        "author": item.author,
        "version": version.number,
        "cost": version.cost,
        "words": version.words.split(),
        "numbers": dict(version.numbers),
        "lab_rating": version.lab_rating,
        "published": version.created_at.isoformat(),
    }
