"""What every route shares: who is asking, which seats they hold, the Origin guard."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from fastapi import Request
from fastapi.responses import JSONResponse

from gladiatorium.core import Seat
from gladiatorium.server.accounts import Accounts
from gladiatorium.server.config import Settings
from gladiatorium.server.db import User
from gladiatorium.server.service import Forbidden, MatchService, ServiceError

SESSION_COOKIE = "gladiatorium_session"
CSRF_COOKIE = "gladiatorium_csrf"
SEAT_COOKIE_PREFIX = "gladiatorium_seat_"
UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


@dataclass
class Caller:
    """Who sent a request: an account (by cookie or bearer token) and seat tokens."""

    user: User | None
    by_cookie: bool
    seat_tokens: dict[str, str]

    @property
    def user_id(self) -> int | None:
        return None if self.user is None else self.user.id


def error(err: ServiceError | str, status: int | None = None) -> JSONResponse:
    message = str(err)
    code = status if status is not None else getattr(err, "status", 400)
    return JSONResponse({"error": message}, status_code=code)


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
    """The account behind a bearer token or the session cookie, and seat tokens."""
    auth = headers.get("authorization", "")
    seat_tokens = {
        name[len(SEAT_COOKIE_PREFIX) :]: value
        for name, value in cookies.items()
        if name.startswith(SEAT_COOKIE_PREFIX)
    }
    if auth.lower().startswith("bearer "):
        return Caller(accounts.user_of(auth[7:].strip()), False, {})
    user = accounts.user_of(cookies.get(SESSION_COOKIE))
    return Caller(user, True, seat_tokens)


def request_caller(request: Request) -> Caller:
    return caller_of(request.headers, dict(request.cookies), request.app.state.accounts)


def check_origin(request: Request, caller: Caller) -> None:
    """A state-changing call that rides on cookies must come from our own pages."""
    if request.method not in UNSAFE_METHODS or not caller.by_cookie:
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
    held = service.held_seats(match_id, caller.user_id, tokens)
    if (seat not in held if seat is not None else not held) and (caller.user_id or tokens):
        service.reload_seats(match_id)
        held = service.held_seats(match_id, caller.user_id, tokens)
    return held


def require_seat(service: MatchService, match_id: str, caller: Caller, seat: Seat) -> None:
    if seat not in seats_held(service, match_id, caller, seat):
        raise Forbidden(f"you do not hold seat {seat!r} of this match")
