"""The matches on the server, feature by feature, around one store.

``MatchService`` holds the :class:`MatchStore` (the matches in memory, rebuilt from
their record, and the one transaction that commits a step) and the features that share
it, each in its own module:

- ``creation`` (:class:`Creation`): new matches, their seats and settings;
- ``play`` (:class:`Play`): what a seat sees, and its actions;
- ``seats`` (:class:`Seats`): who holds a seat, joining, invitations;
- ``library`` (:class:`Library`): each account's library items;
- ``deadlines`` (:class:`Deadlines`): rounds' deadlines and move clocks, fired once.

Records and replays of finished matches are in ``replays.py`` (their steps, kept per
seat: ``replay_steps`` as :attr:`MatchService.replays`); the bots' drivers and the
deadline scheduler in ``workers.py``. Every transaction locks rows in one order
(actions, the match, deadlines), and a step is committed before anyone is told.
Nothing here knows a game: it uses the core contract.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.orm import Session, sessionmaker

from gladiatorium.server.creation import Creation
from gladiatorium.server.deadlines import Deadlines
from gladiatorium.server.library import Library
from gladiatorium.server.play import Play
from gladiatorium.server.replay_steps import ReplaySteps
from gladiatorium.server.seats import Seats
from gladiatorium.server.snapshots import SNAPSHOT_EVERY
from gladiatorium.server.store import MatchStore
from gladiatorium.server.teams import Teams


class MatchService:
    """The server's matches: the store and the features that share it."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        on_change: Callable[[str], None],
        postgres: bool,
        *,
        bot_only_limit: int | None = None,
        idle_seconds: float = 600.0,
        max_live: int = 2000,
        shortest_round: float = 0.001,
        snapshot_every: int = SNAPSHOT_EVERY,
        group_commit: bool = True,
    ) -> None:
        self.store = MatchStore(
            sessions,
            on_change,
            postgres,
            idle_seconds=idle_seconds,
            max_live=max_live,
            snapshot_every=snapshot_every,
            group_commit=group_commit,
        )
        self.library = Library(self.store)
        self.creation = Creation(
            self.store,
            self.library,
            bot_only_limit=bot_only_limit,
            shortest_round=shortest_round,
        )
        self.play = Play(self.store)
        self.seats = Seats(self.store, Teams(self.store, self.library))
        self.deadlines = Deadlines(self.store)
        self.replays = ReplaySteps(self.store, snapshot_every)
