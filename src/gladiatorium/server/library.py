"""Each account's library of items for the games that keep one (Superhero Gladiators'
heroes): uploaded, checked as the game's own checker does, listed, deleted, and chosen
for a seat when a match is created (``Game.library_options``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from sqlalchemy import select

from gladiatorium.core import Game, GladiatoriumError, Seat, get_game
from gladiatorium.server.db import LibraryItem
from gladiatorium.server.errors import BadRequest, Forbidden
from gladiatorium.server.hall import Hall
from gladiatorium.server.store import MatchStore

#: a library choice that names one of the game's samples (``sample:cowboy``), not an item
SAMPLE = "sample:"


@cache
def samples(game: Game[Any]) -> dict[str, tuple[str, dict[str, Any]]]:
    """The game's sample items (the designer's) that check: file name -> (the item's
    name, its data)."""
    out = {}
    for stem, text in game.web.design_samples().items():
        try:
            out[stem] = game.check_library_item(text, stem)
        except GladiatoriumError:
            continue
    return out


class Library:
    """The libraries, kept in the database of ``store``."""

    def __init__(self, store: MatchStore) -> None:
        self.store = store
        #: published heroes, chosen by reference beside the library's own
        self.hall = Hall(store.sessions)

    def add(
        self, user_id: int, slug: str, text: str, source: str, replace: int | None = None
    ) -> LibraryItem:
        """Check an uploaded item (a hero YAML) as the game's checker does; keep it (in
        place of the account's item ``replace``, when given: an item edited)."""
        try:
            game = get_game(slug)
        except GladiatoriumError as err:
            raise BadRequest(str(err)) from err
        if game.library_kind is None:
            raise BadRequest(f"{slug} keeps no library")
        try:
            name, data = game.check_library_item(text, source)
        except GladiatoriumError as err:
            problems = str(err)
            if source not in problems:  # say which upload, as `hero check FILE` does
                problems = f"{source}: {problems}"
            raise BadRequest(problems) from err
        with self.store.sessions.begin() as session:
            if replace is not None:
                item = session.get(LibraryItem, replace)
                if item is None or item.user_id != user_id or item.game != slug:
                    raise BadRequest(f"library item {replace} is not in your library")
                item.name, item.text, item.data = name[:80], text, data
            else:
                item = LibraryItem(user_id=user_id, game=slug, name=name[:80], text=text, data=data)
                session.add(item)
            session.flush()
        return item

    def item(self, user_id: int, item_id: int) -> LibraryItem | None:
        """The account's item ``item_id``; None when it has no such item."""
        with self.store.sessions() as session:
            item = session.get(LibraryItem, item_id)
            return item if item is not None and item.user_id == user_id else None

    def listing(self, user_id: int, slug: str | None) -> list[dict[str, Any]]:
        """The account's items as ``GET /api/library`` lists them, oldest first."""
        with self.store.sessions() as session:
            query = select(LibraryItem).where(LibraryItem.user_id == user_id)
            if slug is not None:
                query = query.where(LibraryItem.game == slug)
            return [
                {"id": i.id, "game": i.game, "name": i.name}
                for i in session.scalars(query.order_by(LibraryItem.id))
            ]

    def rows(self, user_id: int, slug: str | None = None) -> list[LibraryItem]:
        """The account's items (of the game ``slug`` only, if given), by game and name."""
        with self.store.sessions() as session:
            query = select(LibraryItem).where(LibraryItem.user_id == user_id)
            if slug is not None:
                query = query.where(LibraryItem.game == slug)
            return list(session.scalars(query.order_by(LibraryItem.game, LibraryItem.name)))

    def delete(self, user_id: int, item_id: int) -> bool:
        """Delete an item of the account's library; False when it has no such item."""
        with self.store.sessions.begin() as session:
            item = session.get(LibraryItem, item_id)
            if item is None or item.user_id != user_id:
                return False
            session.delete(item)
            return True

    def options(
        self,
        game: Game[Any],
        user_id: int | None,
        library: Mapping[Seat, Sequence[int | str]],
        uses: list[int] | None = None,
    ) -> dict[str, Any]:
        """The game's options for the items chosen per seat (item ids of the account's
        library, for this game, ``sample:NAME`` for one of the game's samples, or hall
        references ``hall:SLUG@VERSION``: ``uses`` gets their versions' ids), as
        ``Game.library_options`` makes them."""
        return self.options_of(game, {seat: (user_id, ids) for seat, ids in library.items()}, uses)

    def options_of(
        self,
        game: Game[Any],
        library: Mapping[Seat, tuple[int | None, Sequence[int | str]]],
        uses: list[int] | None = None,
    ) -> dict[str, Any]:
        """:meth:`options` with each seat's items taken from the library of its own
        account (a person who took a seat brings the team from their library)."""
        chosen: dict[Seat, list[dict[str, Any]]] = {}
        shipped = samples(game)
        with self.store.sessions() as session:
            for seat, (user_id, ids) in library.items():
                items = []
                for item_id in ids:
                    if isinstance(item_id, str) and item_id.startswith("hall:"):
                        version = self.hall.resolve(item_id, "hero", game)
                        items.append(version.data)
                        if uses is not None:
                            uses.append(version.id)
                        continue
                    if isinstance(item_id, str):
                        name = item_id.removeprefix(SAMPLE)
                        if not item_id.startswith(SAMPLE) or name not in shipped:
                            known = ", ".join(SAMPLE + n for n in shipped)
                            raise BadRequest(
                                f"library.{seat}: {item_id!r} is not a sample ({known})"
                            )
                        items.append(shipped[name][1])
                        continue
                    if user_id is None:
                        raise Forbidden("log in to use your library")
                    item = session.get(LibraryItem, item_id)
                    if item is None or item.user_id != user_id or item.game != game.info.slug:
                        raise BadRequest(f"library item {item_id} is not in your library")
                    items.append(item.data)
                chosen[seat] = items
        try:
            return game.library_options(chosen)
        except GladiatoriumError as err:
            raise BadRequest(str(err)) from err
