"""The application: wiring of database, accounts, matches, hub, bots and deadlines."""

from __future__ import annotations

import asyncio
import gc
import logging
import re
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy import text
from sqlalchemy.engine import make_url

from gladiatorium.games import load
from gladiatorium.server import gauntlet_views, ratings_views, talk_api
from gladiatorium.server.accounts import LOGOUTS, Accounts
from gladiatorium.server.api import accounts as api_accounts
from gladiatorium.server.api import hall as api_hall
from gladiatorium.server.api import inbox as api_inbox
from gladiatorium.server.api import library as api_library
from gladiatorium.server.api import mail as api_mail
from gladiatorium.server.api import matches as api_matches
from gladiatorium.server.api import socket as api_socket
from gladiatorium.server.api import terminal as api_terminal
from gladiatorium.server.collector import Collector
from gladiatorium.server.config import Settings
from gladiatorium.server.db import make_engine, make_sessions, migrate
from gladiatorium.server.edge import (
    BadInput,
    BodyRefused,
    EdgeMiddleware,
    body_refused,
    edge_protocols,
)
from gladiatorium.server.errors import Unauthorized
from gladiatorium.server.gauntlets import size_of
from gladiatorium.server.hall import Hall
from gladiatorium.server.hub import DEADLINE, STEP, Hub, PostgresListener
from gladiatorium.server.logs import log_through_a_thread
from gladiatorium.server.mail import Mailbox
from gladiatorium.server.mail_notices import Notices
from gladiatorium.server.mail_sender import MailSender
from gladiatorium.server.pages import accounts as pages_accounts
from gladiatorium.server.pages import designer as pages_designer
from gladiatorium.server.pages import hall as pages_hall
from gladiatorium.server.pages import invitations as pages_invitations
from gladiatorium.server.pages import library as pages_library
from gladiatorium.server.pages import lobby as pages_lobby
from gladiatorium.server.pages import mail as pages_mail
from gladiatorium.server.pages import match as pages_match
from gladiatorium.server.pages import new_match as pages_new_match
from gladiatorium.server.pages import replays as pages_replays
from gladiatorium.server.pages import rules as pages_rules
from gladiatorium.server.pages.common import bad_input
from gladiatorium.server.pushes import Pushes
from gladiatorium.server.quota import CreationQuota
from gladiatorium.server.service import MatchService
from gladiatorium.server.talk import NOTICE_CHANNEL
from gladiatorium.server.threads import Threads
from gladiatorium.server.web import error
from gladiatorium.server.workers import BotDrivers, Scheduler, Sweeper

log = logging.getLogger("gladiatorium.http")
HERE = Path(__file__).parent
_SECRET_PATHS = re.compile(r"/invite/[^/?]+")

#: the routes, one router per feature: the JSON API and the WebSocket, then the pages,
#: in the order their paths are matched (``/matches/new`` before ``/matches/{match_id}``)
ROUTERS = (
    api_accounts.router,
    api_inbox.router,
    api_matches.router,
    api_library.router,
    api_hall.router,
    api_mail.router,
    api_socket.router,
    api_terminal.router,
    pages_lobby.router,
    pages_accounts.router,
    pages_mail.router,
    pages_new_match.router,
    pages_library.router,
    pages_hall.router,
    pages_invitations.router,
    pages_match.router,
    pages_designer.router,
    pages_replays.router,
    pages_rules.router,
    ratings_views.router,
    gauntlet_views.router,
)


def create_app(settings: Settings | None = None) -> FastAPI:
    """A server on ``settings`` (defaults: SQLite file in the working folder)."""
    settings = settings or Settings()
    load()
    engine = make_engine(settings.database_url)
    postgres = engine.dialect.name == "postgresql"
    sessions = make_sessions(engine)
    hub = Hub()
    drivers: BotDrivers | None = None
    notices: Notices | None = None

    def changed(match_id: str) -> None:
        hub.notify(match_id)
        if drivers is not None:
            drivers.kick(match_id)
        if notices is not None:
            notices.changed(match_id)

    service = MatchService(
        sessions,
        changed,
        postgres,
        bot_only_limit=settings.bot_only_matches,
        idle_seconds=settings.match_idle_seconds,
        max_live=settings.max_live_matches,
        shortest_round=settings.min_deadline_minutes,
        snapshot_every=settings.snapshot_every,
        group_commit=settings.group_commit,
    )
    service.library.hall = Hall(sessions, settings.hall_publish_rate, size_of(settings))
    # a sweep looks at the least recently used only: cheap, so often
    sweeper = Sweeper(service.store, max(0.05, min(settings.match_idle_seconds / 4, 1.0)))

    def from_elsewhere(match_id: str, what: str) -> None:
        """Another process committed: catch up at the next push, then push (a round's
        deadline set there: a ``deadline`` frame, as where it was set)."""
        if what == DEADLINE:
            service.store.deadline_set(match_id)
        service.store.mark_stale(match_id, steps_only=what == STEP)
        changed(match_id)

    drivers = BotDrivers(service, settings)
    scheduler = Scheduler(service, settings)
    # mail: written and sent only where an SMTP server is configured
    mail_sender = None
    if settings.smtp_url:
        notices = Notices(service.store, settings)
        mail_sender = MailSender(service.store, notices, settings)

    accounts = Accounts(sessions, settings)

    def listening(heard: bool) -> None:
        """The listener listens (every other process's notice reaches this one), or its
        connection was lost."""
        service.store.trust_notices(heard)
        accounts.hear_logouts(heard)

    threads = Threads()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        migrate(engine)
        service.library.hall.publish_shipped()
        hub.loop = talk_hub.loop = asyncio.get_running_loop()
        listener = None
        if postgres:
            url = make_url(settings.database_url).set(drivername="postgresql")
            listener = PostgresListener(
                url.render_as_string(hide_password=False),
                from_elsewhere,
                also={NOTICE_CHANNEL: talk_api.on_notice(talk_hub), LOGOUTS: hub.end_session},
                on_listening=listening,
            )
            listener.start()
            listener.ready.wait(10)
        scheduler.start()
        sweeper.start()
        drivers.resume()
        if mail_sender is not None and notices is not None:
            notices.resume()
            mail_sender.start()
        log.info("ready on %s", engine.dialect.name)
        yield
        scheduler.stopping.set()
        sweeper.stopping.set()
        if mail_sender is not None:
            mail_sender.stopping.set()
        drivers.close()
        threads.close()
        service.store.writer.close()
        if listener is not None:
            listener.stopping.set()
        engine.dispose()

    app = FastAPI(title="Gladiatorium", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.settings = settings
    app.state.service = service
    app.state.accounts = accounts
    app.state.hub = hub
    app.state.threads = threads  # the match sockets' worker threads
    app.state.pushes = Pushes(threads)  # a match's frames built in one worker-thread call
    app.state.drivers = drivers
    app.state.scheduler = scheduler
    app.state.mailbox = Mailbox(sessions, settings)
    app.state.notices = notices
    app.state.mail_sender = mail_sender
    app.state.quota = CreationQuota(settings.match_create_rate)

    def ping() -> None:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))

    app.state.ping = ping
    app.add_exception_handler(Unauthorized, refuse_session)
    app.add_middleware(EdgeMiddleware, settings=settings)
    app.add_exception_handler(BodyRefused, body_refused)
    app.add_exception_handler(BadInput, bad_input)
    app.middleware("http")(log_request)
    for router in ROUTERS:
        app.include_router(router)
    talk_hub = app.state.talk_hub = talk_api.install(app, sessions, settings)
    # check_dir=False: the folder may not exist yet in a checkout (git keeps no empty folder)
    app.mount("/static", StaticFiles(directory=HERE / "static", check_dir=False), name="static")
    return app


async def refuse_session(_request: Request, exc: Exception) -> Response:
    """A bearer token that is not a live session, wherever it is looked at: 401."""
    return error(str(exc), 401) if not isinstance(exc, Unauthorized) else error(exc)


async def log_request(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    """One line per request (invitation tokens in paths are not written)."""
    started = time.monotonic()
    response = await call_next(request)
    path = _SECRET_PATHS.sub("/invite/...", request.url.path)
    log.info(
        "%s %s %d %.1fms",
        request.method,
        path,
        response.status_code,
        (time.monotonic() - started) * 1000,
    )
    return response


def serve(
    settings: Settings, host: str, port: int, listening: list[socket.socket] | None = None
) -> None:
    """Run the server in this process until interrupted (on ``listening``, when given:
    a socket shared by several server processes, and maybe a port of the process's
    own: ``server/processes.py``)."""
    shared = "" if listening is None else " [%(process)d]"  # which of the processes
    logging.basicConfig(level=logging.INFO, format=f"%(asctime)s{shared} %(name)s %(message)s")
    lines = log_through_a_thread()  # the threads that log no longer wait on each other
    try:
        _serve(settings, host, port, listening)
    finally:
        lines.stop()


def _serve(settings: Settings, host: str, port: int, listening: list[socket.socket] | None) -> None:
    import uvicorn

    from gladiatorium.server.gauntlet_runner import start_process, stop_process

    app = create_app(settings)
    # What exists now (games, ORM, FastAPI: some 130,000 objects) lives as long as the
    # process: keep it out of every later full collection, whose pause grows with the
    # number of objects it walks (benchmarks/server_load.py, docs/server.md).
    gc.collect()
    gc.freeze()
    if settings.gc_full_seconds > 0:  # and what comes later, every second
        Collector(settings.gc_full_seconds).start()
    if listening is None:
        print(f"Gladiatorium is serving on http://{host}:{port}/ (Ctrl+C to stop)", flush=True)
    # the edge's protocols: connection caps, a deadline for request headers (server/edge.py)
    http, ws = edge_protocols(settings)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        access_log=False,
        log_level="info",
        http=http,
        ws=ws,
        ws_max_size=settings.ws_max_message,
        timeout_keep_alive=settings.keep_alive_timeout,  # type: ignore[arg-type]
    )
    # heroes' gauntlets are played by a process of their own, never by this one
    runner = start_process(settings) if settings.gauntlets else None
    try:
        uvicorn.Server(config).run(sockets=listening)
    finally:
        if runner is not None:
            stop_process(runner)
