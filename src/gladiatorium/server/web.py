"""What every route shares, of the API and of the pages: who is asking, which seats
they hold, the Origin guard, the cookies, and the links the server writes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from fastapi import Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from gladiatorium.core import Seat
from gladiatorium.server.accounts import SESSION_OVER, Accounts
from gladiatorium.server.config import Settings
from gladiatorium.server.db import User
from gladiatorium.server.errors import Forbidden, ServiceError, Unauthorized
from gladiatorium.server.service import MatchService

SESSION_COOKIE = "gladiatorium_session"
CSRF_COOKIE = "gladiatorium_csrf"
SEAT_COOKIE_PREFIX = "gladiatorium_seat_"
UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


def service_of(request: Request) -> MatchService:
    """The application's matches (``app.state.service``)."""
    return request.app.state.service


def read_with_session(request: Request, read: Any, *args: Any) -> Any:
    """``read(session, *args)`` with a database session of its own (in a worker thread:
    ``run_in_threadpool(read_with_session, request, read, ...)``)."""
    with service_of(request).store.sessions() as session:
        return read(session, *args)


@dataclass
class Caller:
    """Who sent a request: an account (by cookie or bearer token) and seat tokens.
    ``session``: the digest of the live token it came with; ``stale``: it sent a session
    cookie that is no longer a session (expired or logged out)."""

    user: User | None
    by_cookie: bool
    seat_tokens: dict[str, str]
    session: str | None = None
    stale: bool = False

    @property
    def user_id(self) -> int | None:
        return None if self.user is None else self.user.id


def error(err: ServiceError | str, status: int | None = None) -> JSONResponse:
    message = str(err)
    code = status if status is not None else getattr(err, "status", 400)
    return JSONResponse({"error": message}, status_code=code, headers=error_headers(err))


def error_headers(err: object) -> dict[str, str]:
    """Retry-After on a throttled call, WWW-Authenticate on a refused session."""
    headers = {}
    retry_after = getattr(err, "retry_after", None)
    if retry_after is not None:
        headers["retry-after"] = str(retry_after)
    if isinstance(err, Unauthorized):
        headers["www-authenticate"] = "Bearer"
    return headers


def same_origin(origin: str | None, request_url: str, host: str | None, settings: Settings) -> bool:
    """An Origin header names this server (or an origin the operator allowed)."""
    if not origin:
        return False
    if origin in settings.allowed_origins:
        return True
    parts = urlsplit(origin)
    expected_host = host or urlsplit(request_url).netloc
    return parts.netloc == expected_host and parts.scheme in ("http", "https")


def link_base(request: Request) -> str:
    """The base of links the server writes: the public URL if set, else where the
    request came to."""
    settings: Settings = request.app.state.settings
    return (settings.public_url or str(request.base_url)).rstrip("/")


def caller_of(headers: Any, cookies: dict[str, str], accounts: Accounts) -> Caller:
    """The account behind a bearer token or the session cookie, and seat tokens.
    A bearer token that is not a live session raises :class:`Unauthorized` (401): a
    client that sends one never becomes anonymous; a stale session cookie makes an
    anonymous caller marked ``stale``."""
    auth = headers.get("authorization", "")
    if auth[:7].lower() == "bearer ":
        found = accounts.session_of(auth[7:].strip())
        if found is None:
            raise Unauthorized(f"bearer token refused: {SESSION_OVER}")
        return Caller(found[0], False, {}, found[1])
    seat_tokens = {
        name[len(SEAT_COOKIE_PREFIX) :]: value
        for name, value in cookies.items()
        if name.startswith(SEAT_COOKIE_PREFIX)
    }
    cookie = cookies.get(SESSION_COOKIE)
    found = accounts.session_of(cookie)
    if found is None:
        return Caller(None, True, seat_tokens, stale=bool(cookie))
    return Caller(found[0], True, seat_tokens, found[1])


def request_caller(request: Request) -> Caller:
    return caller_of(request.headers, dict(request.cookies), request.app.state.accounts)


def require_user(caller: Caller, doing: str) -> int:
    """The caller's account id; 401 for a session that is over, 403 for no account."""
    if caller.user_id is not None:
        return caller.user_id
    if caller.stale:
        raise Unauthorized(SESSION_OVER)
    raise Forbidden(f"log in to {doing}")


def request_same_origin(request: Request) -> bool:
    """The request's Origin header names this server."""
    settings: Settings = request.app.state.settings
    origin = request.headers.get("origin")
    return same_origin(origin, str(request.url), request.headers.get("host"), settings)


def check_origin(request: Request, caller: Caller) -> None:
    """A state-changing call that rides on cookies must come from our own pages. A call
    with no credential at all (no session, no seat cookie) rides on nothing: the route's
    own check answers it (401 where an account is needed), whatever its Origin."""
    if request.method not in UNSAFE_METHODS or not caller.by_cookie:
        return
    if caller.user is None and not caller.seat_tokens:
        return
    settings: Settings = request.app.state.settings
    origin = request.headers.get("origin")
    if not same_origin(origin, str(request.url), request.headers.get("host"), settings):
        raise Forbidden("cross-site request refused: the Origin header must name this server")


def seats_held(
    service: MatchService, match_id: str, caller: Caller, seat: Seat | None = None
) -> set[Seat]:
    """The seats the caller holds (``seat``, or any, missing from the copy in memory:
    look again in the database, where another server process may have seated them)."""
    token = caller.seat_tokens.get(match_id)
    tokens = [token] if token else []
    held = service.seats.held(match_id, caller.user_id, tokens)
    if (seat not in held if seat is not None else not held) and (caller.user_id or tokens):
        service.store.reload_seats(match_id)
        held = service.seats.held(match_id, caller.user_id, tokens)
    return held


def require_seat(service: MatchService, match_id: str, caller: Caller, seat: Seat) -> None:
    if seat not in seats_held(service, match_id, caller, seat):
        raise Forbidden(f"you do not hold seat {seat!r} of this match")


def client_address(request: Request) -> str:
    """The address the request came from (the login throttle counts failures by it)."""
    return request.client.host if request.client is not None else ""


#: how long the session and form cookies last, in days
COOKIE_DAYS = 30


def set_private_cookie(
    response: Response, request: Request, name: str, value: str, days: int = COOKIE_DAYS
) -> None:
    """A cookie no script may read, sent by this site's own pages and links only (and
    over HTTPS only where the settings say so)."""
    response.set_cookie(
        name,
        value,
        httponly=True,
        samesite="lax",
        secure=request.app.state.settings.secure_cookies,
        max_age=60 * 60 * 24 * days,
    )


#: the session cookie's own life, in days: as long as browsers keep one (400), since the
#: session itself ends on the server once unused for ``session_days`` (each use slides it)
SESSION_COOKIE_DAYS = 400


def with_session(response: Response, token: str, request: Request) -> Response:
    set_private_cookie(response, request, SESSION_COOKIE, token, SESSION_COOKIE_DAYS)
    return response


async def end_session(request: Request, session: str | None) -> None:
    """Log a session out: its token stops working and its open sockets are closed."""
    if session is not None:
        await run_in_threadpool(request.app.state.accounts.logout, session)
        request.app.state.hub.end_session(session)


def invite_url(request: Request, token: str) -> str:
    """The link that holds an invitation token."""
    return f"{link_base(request)}/invite/{token}"


def deadline_setter_checked(
    service: MatchService, match_id: str, caller: Caller, seat: str | None
) -> None:
    """Refuse unless the caller may set this match's deadlines (see
    :meth:`Deadlines.require_setter`); a seat named must be the caller's."""
    if seat is not None:
        require_seat(service, match_id, caller, seat)
    held = seats_held(service, match_id, caller)
    service.deadlines.require_setter(match_id, caller.user_id, seat, held)
