"""The forum thread of a match whose game says its ``all`` channel reads as one
(``Channel.forum``, Hero Battle): the public moves as they were posted and the round
posts, placed among the messages in time order.

Built only from what a spectator may know: each action as ``Game.action_seen_by``
gives it to a spectator (an action no spectator knew of, such as a private guess, is
left out), and the game's ``posts`` for a spectator when a round closes. Players are
named by their user names; a hero's owner appears only where the game's own texts
reveal it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from sqlalchemy import select

from gladiatorium.core import Seat
from gladiatorium.server.db import MatchAction, User
from gladiatorium.server.service import MatchService
from gladiatorium.server.store import Live
from gladiatorium.server.talk import render_text

#: threads kept built, by match (the least recently built leave first)
KEPT = 64


class Threads:
    """Builds the forum items of a match (moves and round posts) and keeps the last
    build of each match until it moves on."""

    def __init__(self, matches: MatchService) -> None:
        self.matches = matches
        self._built: OrderedDict[str, tuple[int, list[dict[str, Any]]]] = OrderedDict()
        self._guard = threading.Lock()

    def items(self, match_id: str) -> list[dict[str, Any]]:
        """The match's public moves and round posts, oldest first."""
        live = self.matches.store.live(match_id)
        with live.lock:
            ply = live.ply
        with self._guard:
            kept = self._built.get(match_id)
        if kept is not None and kept[0] == ply:
            return kept[1]
        built = self._build(live, ply)
        with self._guard:
            self._built[match_id] = (ply, built)
            self._built.move_to_end(match_id)
            while len(self._built) > KEPT:
                self._built.popitem(last=False)
        return built

    def _build(self, live: Live, ply: int) -> list[dict[str, Any]]:
        with self.matches.store.sessions() as session:
            times = {
                row.ply: row.created_at
                for row in session.scalars(
                    select(MatchAction).where(
                        MatchAction.match_id == live.id, MatchAction.ply < ply
                    )
                )
            }
            ids = {row.user_id for row in live.seats.values() if row.user_id is not None}
            users = {
                u.id: u.username for u in session.scalars(select(User).where(User.id.in_(ids)))
            }
        names = _names(live, users)
        with live.lock:
            game, history = live.game, list(live.state.history[:ply])
            first = live.state
            state = game.start(
                first.options, first.players, first.seed, first.position, "match position"
            )
        found: list[dict[str, Any]] = []
        round_number = game.round_number(state)
        for index, (seat, action) in enumerate(history):
            made = len(state.events)
            state.act(seat, str(action))
            at = times[index].isoformat() if index in times else None
            seen = game.action_seen_by(state, seat, action, state.events[made:], None)
            if seen is not None and seat in names:
                found.append(_item("move", at, seat, names[seat], f"{names[seat]}: {seen}"))
            now = game.round_number(state)
            if now != round_number or state.is_over:
                round_number = now
                posts = game.web.posts(state, None)
                post = posts.get("Markdown") or next(iter(posts.values()), None)
                if post:
                    found.append(_item("post", at, None, "the moderator", post))
        return found


def _names(live: Live, users: Mapping[int, str]) -> dict[Seat, str]:
    """Who plays each seat, as the thread names them: a user name, a guest, a bot."""
    found = {}
    for seat, row in live.seats.items():
        if row.user_id is not None:
            found[seat] = users.get(row.user_id, "a player")
        elif row.kind == "bot":
            found[seat] = f"bot {row.bot} (seat {seat})"
        elif row.kind == "server":
            found[seat] = "the server"
        else:
            found[seat] = f"guest (seat {seat})"
    return found


def _item(kind: str, at: str | None, seat: Seat | None, name: str, text: str) -> dict[str, Any]:
    return {
        "kind": kind,
        "at": at,
        "seat": seat,
        "from": name,
        "text": text,
        "html": render_text(text),
    }
