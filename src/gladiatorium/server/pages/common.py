"""What the pages share: the templates, a whole page with the visitor and the CSRF
token, error pages and redirects, and reading a posted form (its CSRF token checked
first; :func:`account_form` where the post needs an account)."""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jinja2
from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from gladiatorium.core import Game, GladiatoriumError, games, get_game
from gladiatorium.server.edge import BadInput, text_problem
from gladiatorium.server.pages.pictures import picture_html
from gladiatorium.server.web import (
    CSRF_COOKIE,
    SESSION_COOKIE,
    Caller,
    request_caller,
    set_private_cookie,
)

#: the server's folder, which holds ``templates/``
HERE = Path(__file__).parents[1]
env = jinja2.Environment(
    loader=jinja2.FileSystemLoader(HERE / "templates"),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
)
env.filters["picture"] = picture_html

CSRF_FIELD = "csrf"
MAX_UPLOAD = 256 * 1024
SPECTATOR = "spectator"


def form_request(*fields: str) -> dict[str, Any]:
    """The OpenAPI description of a form post's fields (``openapi_extra``: the routes
    read their forms themselves), each a text field; the CSRF token is always one."""
    properties = {name: {"type": "string"} for name in (CSRF_FIELD, *fields)}
    schema = {"type": "object", "properties": properties, "required": [CSRF_FIELD]}
    content = {"application/x-www-form-urlencoded": {"schema": schema}}
    return {"requestBody": {"required": True, "content": content}}


class CsrfRefused(Exception):
    """A form post without the right CSRF token."""


def csrf_of(request: Request) -> tuple[str, bool]:
    """The visitor's CSRF token, and whether it is new (then it is set as a cookie)."""
    token = request.cookies.get(CSRF_COOKIE)
    if token and 16 <= len(token) <= 100:
        return token, False
    return secrets.token_urlsafe(24), True


def page(
    request: Request,
    name: str,
    context: Mapping[str, Any],
    caller: Caller | None = None,
    status: int = 200,
) -> HTMLResponse:
    """A whole page (or a fragment) with the visitor, the CSRF token and the games."""
    token, new = csrf_of(request)
    if caller is None:
        caller = request_caller(request)
    values = {
        "request": request,
        "user": caller.user,
        "csrf": token,
        "csrf_field": CSRF_FIELD,
        # the games' names by slug, for the turns a page is told of (static/turns.js)
        "game_names": {g.info.slug: g.info.name for g in games()},
        **context,
    }
    html = env.get_template(name).render(values)
    response = HTMLResponse(html, status_code=status)
    response.headers["cache-control"] = "no-store"
    response.headers["x-frame-options"] = "DENY"
    response.headers["referrer-policy"] = "same-origin"
    if new:
        set_private_cookie(response, request, CSRF_COOKIE, token)
    if caller.stale:
        # the session is over: the visitor is logged out, and the cookie goes
        response.delete_cookie(SESSION_COOKIE)
    return response


def problem(request: Request, status: int, message: str, caller: Caller | None = None) -> Response:
    return page(request, "error.html", {"status": status, "message": message}, caller, status)


def redirect(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def local_path(target: str | None, default: str = "/") -> str:
    """Only a path on this server (no scheme, no other host) may follow a login."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return default
    return target


def login_first(request: Request) -> RedirectResponse:
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return redirect(f"/login?next={quote(target, safe='')}")


async def checked_form(request: Request, **limits: Any) -> FormData:
    """The posted form, once its CSRF field matches the CSRF cookie."""
    form = await request.form(**limits)
    sent = form.get(CSRF_FIELD)
    cookie = request.cookies.get(CSRF_COOKIE)
    if not isinstance(sent, str) or not cookie or not hmac.compare_digest(sent, cookie):
        raise CsrfRefused
    for name, value in form.multi_items():
        problem_ = text_problem(name) or (text_problem(value) if isinstance(value, str) else None)
        if problem_:
            raise BadInput(f"{name[:40]!r}: {problem_}")
    return form


async def bad_input(request: Request, exc: Exception) -> Response:
    """The exception handler of :class:`BadInput` on the pages: 422 naming the field."""
    return problem(request, 422, str(exc))


def refused(request: Request) -> Response:
    return problem(
        request,
        403,
        "This form was refused: its security token is missing or does not match. "
        "Reload the page and send it again.",
    )


def text_of(form: FormData, name: str) -> str:
    value = form.get(name)
    return value if isinstance(value, str) else ""


@dataclass(frozen=True)
class AccountPost:
    """A form posted by a visitor with an account: the form, its CSRF token checked."""

    form: FormData
    caller: Caller
    user_id: int


async def account_form(request: Request, **limits: Any) -> AccountPost | Response:
    """The posted form of a visitor with an account; else the answer to give: the
    refusal of a form without the right CSRF token, or the way to log in first."""
    try:
        form = await checked_form(request, **limits)
    except CsrfRefused:
        return refused(request)
    caller = await run_in_threadpool(request_caller, request)
    if caller.user_id is None:
        return login_first(request)
    return AccountPost(form, caller, caller.user_id)


def game_or_none(slug: str | None) -> Game[Any] | None:
    try:
        return get_game(slug or "")
    except GladiatoriumError:
        return None


def library_games() -> list[Game[Any]]:
    return [g for g in games() if g.library_kind]
