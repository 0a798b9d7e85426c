"""Each account's library of items for the games that keep one (Superhero Gladiators'
heroes): uploaded, checked as the game's own checker does, listed, deleted, and chosen
for a seat when a match is created (``Game.library_options``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import select

from gladiatorium.core import Game, GladiatoriumError, Seat, get_game
from gladiatorium.server.db import LibraryItem
from gladiatorium.server.errors import BadRequest, Forbidden
from gladiatorium.server.hall import Hall
from gladiatorium.server.store import MatchStore


class Library:
    """The libraries, kept in the database of ``store``."""

    def __init__(self, store: MatchStore) -> None:
        self.store = store
        #: published heroes, chosen by reference beside the library's own
        self.hall = Hall(store.sessions)

    def add(self, user_id: int, slug: str, text: str, source: str) -> LibraryItem:
        """Check an uploaded item (a hero YAML) as the game's checker does; keep it."""
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
            item = LibraryItem(user_id=user_id, game=slug, name=name[:80], text=text, data=data)
            session.add(item)
            session.flush()
        return item

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
        library, for this game, or hall references ``hall:SLUG@VERSION``: ``uses`` gets
        their versions' ids), as ``Game.library_options`` makes them."""
        if user_id is None:
            raise Forbidden("log in to use your library")
        chosen: dict[Seat, list[dict[str, Any]]] = {}
        with self.store.sessions() as session:
            for seat, ids in library.items():
                items = []
                for item_id in ids:
                    if isinstance(item_id, str):
                        version = self.hall.resolve(item_id, "hero", game)
                        items.append(version.data)
                        if uses is not None:
                            uses.append(version.id)
                        continue
                    item = session.get(LibraryItem, item_id)
                    if item is None or item.user_id != user_id or item.game != game.info.slug:
                        raise BadRequest(f"library item {item_id} is not in your library")
                    items.append(item.data)
                chosen[seat] = items
        try:
            return game.library_options(chosen)
        except GladiatoriumError as err:
            raise BadRequest(str(err)) from err
