"""Server-rendered pages (Jinja2): the lobby, accounts, creating a match, the hero
library, invitations and the generic match page that every game gets for free.

Every form posts a CSRF token (double submit: the ``gladiatorium_csrf`` cookie and a
hidden field must match). Every page about a match is built from what one seat may
know: ``view(seat)`` (through ``body_of``), ``render(state, seat)``, ``posts`` and
``events_for(seat)``, never from the state itself. Nothing here knows a game.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import secrets
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jinja2
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup, escape
from pydantic import ValidationError
from rich.errors import MarkupError
from rich.style import Style
from rich.text import Text
from sqlalchemy import select
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile

from gladiatorium.core import Game, GladiatoriumError, Seat, best_bot, bots_for, games, get_game
from gladiatorium.server.accounts import Accounts
from gladiatorium.server.api import (
    deadline_setter_checked,
    end_session,
    invite_url,
    set_private_cookie,
    with_session,
)
from gladiatorium.server.db import LibraryItem, Match, MatchSeat, User
from gladiatorium.server.edge import BadInput, text_problem
from gladiatorium.server.replays import may_have_record, replay_step
from gladiatorium.server.service import (
    BadRequest,
    Forbidden,
    MatchService,
    NotFound,
    ServiceError,
    TooMany,
    body_of,
)
from gladiatorium.server.web import (
    CSRF_COOKIE,
    SEAT_COOKIE_PREFIX,
    SESSION_COOKIE,
    Caller,
    client_address,
    error_headers,
    request_caller,
    request_same_origin,
    require_seat,
    seats_held,
)

router = APIRouter()
HERE = Path(__file__).parent
env = jinja2.Environment(
    loader=jinja2.FileSystemLoader(HERE / "templates"),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
)

CSRF_FIELD = "csrf"
#: legal actions shown as buttons up to this many; more get a notation box
MAX_BUTTONS = 12
#: suggestions offered in the notation box's datalist
MAX_SUGGESTIONS = 500
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


# ----- rendering helpers -----------------------------------------------------------------
def service_of(request: Request) -> MatchService:
    return request.app.state.service


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


# Colours of the game's text pictures (rich markup), mapped to a palette that stays
# distinguishable with the common colour-vision deficiencies (Paul Tol's).
PICTURE_COLOURS = {"red", "green", "blue", "cyan", "magenta", "yellow", "white", "black"}


def picture_html(markup: str) -> Markup:
    """A game's text picture (rich markup) as escaped HTML with style classes."""
    try:
        text = Text.from_markup(markup, emoji=False)
    except (MarkupError, ValueError):
        return escape(markup)
    plain = text.plain
    cuts = sorted({0, len(plain), *(s.start for s in text.spans), *(s.end for s in text.spans)})
    styles: list[tuple[int, int, list[str]]] = []
    for span in text.spans:
        try:
            style = span.style if isinstance(span.style, Style) else Style.parse(str(span.style))
        except Exception:  # an unknown style word: show the text plainly
            continue
        classes = []
        if style.bold:
            classes.append("b")
        if style.italic:
            classes.append("i")
        if style.underline:
            classes.append("u")
        if style.dim:
            classes.append("dim")
        if style.color is not None and style.color.name:
            name = style.color.name.removeprefix("bright_")
            if name in PICTURE_COLOURS:
                classes.append(f"fg-{name}")
        if classes:
            styles.append((span.start, span.end, classes))
    out: list[str] = []
    for start, end in itertools.pairwise(cuts):
        piece = str(escape(plain[start:end]))
        classes = sorted({c for a, b, cs in styles if a <= start and b >= end for c in cs})
        out.append(f'<span class="{" ".join(classes)}">{piece}</span>' if classes else piece)
    return Markup("".join(out))


env.filters["picture"] = picture_html


def outcome_text(outcome: Mapping[str, Any] | None, names: Mapping[Seat, str]) -> str:
    if not outcome:
        return ""
    reason = outcome.get("reason") or ""
    winners = [names.get(s, s) for s in outcome.get("winners") or []]
    if winners:
        who = outcome.get("team") or ", ".join(winners)
        head = f"Won by {who}"
    elif outcome.get("lost"):
        head = "Everyone lost"
    else:
        head = "Draw"
    return f"{head} ({reason})" if reason else head


# ----- who holds the seats -------------------------------------------------------------
def seat_labels(service: MatchService, match_id: str, me: int | None) -> dict[Seat, str]:
    """Who sits where, as shown to everyone: a username, a bot, invited or open."""
    live = service.live(match_id)
    with live.lock:
        rows = dict(live.seats)
        order = list(live.state.seats)
    ids = {r.user_id for r in rows.values() if r.user_id is not None}
    with service.sessions() as session:
        users = {u.id: u.username for u in session.scalars(select(User).where(User.id.in_(ids)))}
    labels = {}
    for seat in order:
        row = rows[seat]
        if row.kind == "user" and row.user_id is not None:
            name = users.get(row.user_id, "a player")
            labels[seat] = f"{name} (you)" if row.user_id == me else name
        elif row.kind == "bot":
            labels[seat] = f"bot {row.bot}"
        elif row.kind == "invite":
            labels[seat] = "invited guest" if row.guest else "invited"
        elif row.kind == "server":
            labels[seat] = "run by the server"
        else:
            labels[seat] = "open"
    return labels


# ----- lobby -------------------------------------------------------------------------------
@dataclass
class MatchRow:
    id: str
    game: str
    seats: list[Seat]
    status: str
    your_move: bool = False
    result: str = ""
    open_seats: list[Seat] = field(default_factory=list)


def lobby_rows(service: MatchService, caller: Caller) -> tuple[list[MatchRow], list[MatchRow]]:
    """My matches (with where it is my move) and matches with an open seat."""
    names = {g.info.slug: g.info.name for g in games()}
    mine: dict[str, list[Seat]] = {}
    with service.sessions() as session:
        if caller.user_id is not None:
            for match_id, seat in session.execute(
                select(MatchSeat.match_id, MatchSeat.seat)
                .join(Match, Match.id == MatchSeat.match_id)
                .where(MatchSeat.user_id == caller.user_id, MatchSeat.kind == "user")
                .order_by(Match.created_at.desc())
                .limit(200)
            ):
                mine.setdefault(match_id, []).append(seat)
        open_rows = session.execute(
            select(Match.id, Match.game, MatchSeat.seat)
            .join(MatchSeat, MatchSeat.match_id == Match.id)
            .where(Match.status == "running", MatchSeat.kind == "open")
            .order_by(Match.created_at.desc())
            .limit(200)
        ).all()
    for match_id, token in caller.seat_tokens.items():
        if match_id not in mine and len(mine) < 250:
            try:
                held = service.held_seats(match_id, None, [token])
            except ServiceError:
                continue
            if held:
                mine[match_id] = sorted(held)
    with service.sessions() as session:
        over = {
            m.id: m
            for m in session.scalars(
                select(Match).where(Match.id.in_(list(mine)), Match.status == "over")
            )
        }
    my_rows = []
    for match_id, seats in mine.items():
        if match_id in over:  # read from its row: a finished match is not rebuilt
            ended = over[match_id]
            result = outcome_text(ended.outcome, {})
            game = names.get(ended.game, ended.game)
            order = sorted(seats, key=lambda seat: (len(seat), seat))
            my_rows.append(MatchRow(match_id, game, order, "over", result=result))
            continue
        try:
            live = service.live(match_id)
        except ServiceError:
            continue
        with live.lock:
            awaiting = set() if live.over else set(live.state.awaiting())
            row = MatchRow(
                match_id,
                names.get(live.game.info.slug, live.game.info.slug),
                sorted(seats, key=live.state.seats.index),
                "over" if live.over else "running",
                your_move=_my_move(live, awaiting, seats),
                result=outcome_text(live.outcome(), {}),
            )
        my_rows.append(row)
    my_rows.sort(key=lambda r: (not r.your_move, r.status == "over"))
    joinable: dict[str, MatchRow] = {}
    for match_id, slug, seat in open_rows:
        if match_id in mine:
            continue
        row = joinable.setdefault(
            match_id, MatchRow(match_id, names.get(slug, slug), [], "running")
        )
        row.open_seats.append(seat)
    return my_rows, list(joinable.values())[:50]


def _my_move(live: Any, awaiting: set[Seat], seats: list[Seat]) -> bool:
    """Whether the match waits on one of ``seats`` (in a simultaneous round a player
    who moved stays awaited, to edit, but is no longer deciding)."""
    deciding = set(live.state.deciding()) if awaiting else set()
    return any(seat in deciding for seat in seats)


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request) -> Response:
    caller = await run_in_threadpool(request_caller, request)
    mine, joinable = await run_in_threadpool(lobby_rows, service_of(request), caller)
    return page(
        request,
        "lobby.html",
        {"games": games(), "mine": mine, "joinable": joinable},
        caller,
    )


@router.post("/matches/{match_id}/join", openapi_extra=form_request("seat"))
async def join(request: Request, match_id: str) -> Response:
    try:
        form = await checked_form(request)
    except CsrfRefused:
        return refused(request)
    caller = await run_in_threadpool(request_caller, request)
    if caller.user_id is None:
        return login_first(request)
    seat = text_of(form, "seat")
    try:
        await run_in_threadpool(service_of(request).join, match_id, seat, caller.user_id)
    except ServiceError as err:
        return problem(request, err.status, str(err), caller)
    request.app.state.drivers.kick(match_id)
    return redirect(f"/matches/{quote(match_id)}?seat={quote(seat)}")


# ----- accounts ------------------------------------------------------------------------------
@router.get("/register", response_class=HTMLResponse)
async def register_page(request: Request, next: str | None = None) -> Response:
    return page(request, "account.html", {"mode": "register", "next": local_path(next)})


@router.get("/login", response_class=HTMLResponse)
async def login_page(request: Request, next: str | None = None) -> Response:
    return page(request, "account.html", {"mode": "login", "next": local_path(next)})


async def _account_post(request: Request, mode: str) -> Response:
    """Register or log in from the form: the CSRF token, and an Origin (when the browser
    sends one) naming this server, so that no other site logs a visitor in."""
    try:
        if "origin" in request.headers and not request_same_origin(request):
            raise CsrfRefused
        form = await checked_form(request)
    except CsrfRefused:
        return refused(request)
    username, password = text_of(form, "username"), text_of(form, "password")
    target = local_path(text_of(form, "next"))
    accounts: Accounts = request.app.state.accounts
    try:
        if mode == "register":
            _user, token = await accounts.sign_up(username, password)
        else:
            _user, token = await accounts.log_in(username, password, client_address(request))
    except ServiceError as err:
        context = {"mode": mode, "next": target, "error": str(err), "username": username}
        answer = page(request, "account.html", context, status=err.status)
        answer.headers.update(error_headers(err))
        return answer
    return with_session(redirect(target), token, request)


@router.post("/register", openapi_extra=form_request("username", "password", "next"))
async def register(request: Request) -> Response:
    return await _account_post(request, "register")


@router.post("/login", openapi_extra=form_request("username", "password", "next"))
async def login(request: Request) -> Response:
    return await _account_post(request, "login")


@router.get("/logout", response_class=HTMLResponse)
async def logout_page(request: Request) -> Response:
    return page(request, "logout.html", {})


@router.post("/logout", openapi_extra=form_request())
async def logout(request: Request) -> Response:
    try:
        await checked_form(request)
    except CsrfRefused:
        return refused(request)
    caller = await run_in_threadpool(request_caller, request)
    await end_session(request, caller.session)
    response = redirect("/")
    response.delete_cookie(SESSION_COOKIE)
    return response


# ----- the options form --------------------------------------------------------------------
@dataclass
class OptionField:
    """One option of a game as a form control."""

    name: str
    kind: str  # checkbox, number, select, text, textarea, json
    value: Any
    help: str = ""
    choices: list[str] = field(default_factory=list)
    low: float | None = None
    high: float | None = None
    step: str = "1"
    nullable: bool = False
    error: str = ""

    @property
    def key(self) -> str:
        return f"opt.{self.name}"


def _unwrap(annotation: Any) -> tuple[Any, bool]:
    """``X | None`` -> (X, True)."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1 and len(args) < len(typing.get_args(annotation)):
            return args[0], True
    return annotation, False


def option_fields(game: Game[Any]) -> list[OptionField]:
    """A form control per option of ``game``, its default filled in."""
    defaults = game.make_options().model_dump(mode="json")
    out = []
    for name, info in game.options_type.model_fields.items():
        annotation, nullable = _unwrap(info.annotation)
        default = defaults.get(name)
        help_text = info.description or ""
        if annotation is bool:
            item = OptionField(name, "checkbox", bool(default), help_text)
        elif annotation in (int, float):
            item = OptionField(name, "number", "" if default is None else str(default), help_text)
            item.step = "1" if annotation is int else "any"
            for rule in info.metadata:
                for attr, bound in (("ge", "low"), ("gt", "low"), ("le", "high"), ("lt", "high")):
                    limit = getattr(rule, attr, None)
                    if isinstance(limit, int | float):
                        if annotation is int and attr in ("gt", "lt"):
                            limit = limit + 1 if attr == "gt" else limit - 1
                        setattr(item, bound, limit)
        elif typing.get_origin(annotation) is typing.Literal:
            choices = [str(a) for a in typing.get_args(annotation)]
            item = OptionField(name, "select", str(default), help_text, choices)
        elif annotation is str:
            kind = "textarea" if isinstance(default, str) and "\n" in default else "text"
            item = OptionField(name, kind, default or "", help_text)
        else:
            item = OptionField(name, "json", json.dumps(default, indent=1), help_text)
        item.nullable = nullable
        out.append(item)
    return out


def read_options(game: Game[Any], fields: list[OptionField], form: FormData) -> dict[str, Any]:
    """Option values that differ from the defaults; problems go on the fields."""
    defaults = game.make_options().model_dump(mode="json")
    literals = {
        name: typing.get_args(_unwrap(info.annotation)[0])
        for name, info in game.options_type.model_fields.items()
    }
    values: dict[str, Any] = {}
    # the page's form sends every option (an unticked box is left out: false); a
    # shorter post from elsewhere keeps the defaults of the options it leaves out
    whole = "options" in form
    for item in fields:
        raw = text_of(form, item.key).replace("\r\n", "\n")
        value: Any
        if item.key not in form and (item.kind != "checkbox" or not whole):
            continue
        if item.kind == "checkbox":
            value = item.key in form
            item.value = value
        else:
            item.value = raw
            if raw.strip() == "" and item.kind in ("number", "json", "select"):
                if item.nullable:
                    value = None
                else:
                    item.error = "give a value"
                    continue
            elif item.kind == "number":
                try:
                    value = int(raw) if item.step == "1" else float(raw)
                except ValueError:
                    kind = "a whole number" if item.step == "1" else "a number"
                    item.error = f"expected {kind}, got {raw!r}"
                    continue
            elif item.kind == "select":
                matches = [v for v in literals[item.name] if str(v) == raw]
                if not matches:
                    item.error = f"choose one of {', '.join(item.choices)}"
                    continue
                value = matches[0]
            elif item.kind == "json":
                try:
                    value = json.loads(raw)
                except (json.JSONDecodeError, RecursionError) as err:
                    item.error = f"not valid JSON: {err}"
                    continue
            else:
                value = raw
        if value != defaults.get(item.name):
            values[item.name] = value
    # the values that could be read are checked by the options model itself
    try:
        game.options_type.model_validate(values)
    except ValidationError as err:
        by_name = {item.name: item for item in fields}
        for problem_ in err.errors():
            loc = [str(p) for p in problem_["loc"]]
            target = by_name.get(loc[0]) if loc else None
            where = ".".join(loc[1:])
            message = f"{where}: {problem_['msg']}" if where else problem_["msg"]
            if target is not None and not target.error:
                target.error = message
    return values


# ----- creating a match -------------------------------------------------------------------
def seat_choices(game: Game[Any], start: Any, seat: Seat) -> list[tuple[str, str]]:
    choices = [("me", "me"), ("invite", "invite someone (a link to send)"), ("open", "open")]
    choices += [(f"bot:{name}", f"bot: {name}") for name in bots_for(game)]
    if game.timeout_actions(start, seat):
        choices.append(("server", "the server (acts at each deadline)"))
    return choices


def default_seats(game: Game[Any], start: Any) -> dict[Seat, str]:
    bot = f"bot:{best_bot(game)}"
    moderators = game.moderator_seats(start)
    if moderators:
        return {s: ("me" if s in moderators else bot) for s in start.seats}
    return {s: ("me" if i == 0 else bot) for i, s in enumerate(start.seats)}


def library_items(service: MatchService, user_id: int, slug: str | None = None) -> list[Any]:
    with service.sessions() as session:
        query = select(LibraryItem).where(LibraryItem.user_id == user_id)
        if slug is not None:
            query = query.where(LibraryItem.game == slug)
        return list(session.scalars(query.order_by(LibraryItem.game, LibraryItem.name)))


def new_match_context(
    service: MatchService, caller: Caller, game: Game[Any], players: int
) -> dict[str, Any]:
    start = game.start(None, players, 0)
    return {
        "game": game,
        "players": players,
        "fields": option_fields(game),
        "seats": list(start.seats),
        "choices": {s: seat_choices(game, start, s) for s in start.seats},
        "chosen": default_seats(game, start),
        "rounds": game.round_number(start) is not None,
        "clock": len(start.seats) == 2,
        "settings": {},
        "library": (
            library_items(service, caller.user_id, game.info.slug)
            if game.library_kind and caller.user_id is not None
            else []
        ),
        "team_seats": list(start.seats[: start.players]),
        "picked": {},
    }


def _players(game: Game[Any], raw: str | None) -> tuple[int, str]:
    info = game.info
    if raw in (None, ""):
        return info.default_players, ""
    try:
        count = int(raw)
    except ValueError:
        return info.default_players, f"players: expected a whole number, got {raw!r}"
    if not info.min_players <= count <= info.max_players:
        problem_ = f"players: {info.name} takes {info.min_players} to {info.max_players} players"
        return info.default_players, problem_
    return count, ""


def _game_or_none(slug: str | None) -> Game[Any] | None:
    try:
        return get_game(slug or "")
    except GladiatoriumError:
        return None


@router.get("/matches/new", response_class=HTMLResponse)
async def new_match_page(
    request: Request, game: str | None = None, players: str | None = None
) -> Response:
    caller = await run_in_threadpool(request_caller, request)
    if caller.user is None:
        return login_first(request)
    chosen = _game_or_none(game)
    if chosen is None:
        return page(request, "choose_game.html", {"games": games()}, caller)
    count, error = _players(chosen, players)
    context = await run_in_threadpool(new_match_context, service_of(request), caller, chosen, count)
    context["error"] = error
    return page(request, "new_match.html", context, caller)


@router.post(
    "/matches/new",
    openapi_extra=form_request(
        "game", "players", "round_minutes", "clock_days", "seat.1", "library.1"
    ),
)
async def create_match(request: Request) -> Response:
    try:
        form = await checked_form(request, max_fields=5000)
    except CsrfRefused:
        return refused(request)
    caller = await run_in_threadpool(request_caller, request)
    if caller.user is None:
        return login_first(request)
    game = _game_or_none(text_of(form, "game"))
    if game is None:
        return problem(request, 404, "no such game", caller)
    count, error = _players(game, text_of(form, "players"))
    service = service_of(request)
    context = await run_in_threadpool(new_match_context, service, caller, game, count)
    fields: list[OptionField] = context["fields"]
    options = read_options(game, fields, form)
    seats = {s: text_of(form, f"seat.{s}") or "open" for s in context["seats"]}
    settings = {
        name: text_of(form, name).strip()
        for name in ("round_minutes", "clock_days")
        if text_of(form, name).strip()
    }
    picked: dict[Seat, list[int]] = {}
    for seat in context["team_seats"]:
        ids = [v for v in form.getlist(f"library.{seat}") if isinstance(v, str) and v.isdigit()]
        if ids:
            picked[seat] = [int(v) if v.isascii() and len(v) < 10 else 0 for v in ids]
            if not all(0 < i < 2**31 for i in picked[seat]):
                error = error or f"library.{seat}: not a library item id"
    context.update(chosen=seats, settings=settings, picked=picked, error=error)
    if error or any(item.error for item in fields):
        context["error"] = error or "Some options are not valid; see below."
        return page(request, "new_match.html", context, caller, 422)
    try:
        request.app.state.quota.admit(caller.user_id)
        created = await run_in_threadpool(
            service.create,
            caller.user_id,
            game.info.slug,
            count,
            options,
            seats,
            settings,
            picked or None,
        )
    except ServiceError as err:
        context["error"] = str(err)
        name = str(err).split(":", 1)[0].strip()
        for item in fields:
            if f" {item.name}:" in f" {err}" or item.name == name:
                item.error = item.error or "see the message above"
        answer = page(request, "new_match.html", context, caller, err.status)
        if isinstance(err, TooMany) and err.retry_after is not None:
            answer.headers["retry-after"] = str(err.retry_after)
        return answer
    request.app.state.drivers.kick(created.id)
    if not created.invites:
        return redirect(f"/matches/{quote(created.id)}")
    invites = {seat: invite_url(request, token) for seat, token in created.invites.items()}
    return page(request, "created.html", {"id": created.id, "invites": invites}, caller, 201)


# ----- the hero library ----------------------------------------------------------------------
def library_games() -> list[Game[Any]]:
    return [g for g in games() if g.library_kind]


@router.get("/library", response_class=HTMLResponse)
async def library_page(request: Request) -> Response:
    caller = await run_in_threadpool(request_caller, request)
    if caller.user_id is None:
        return login_first(request)
    items = await run_in_threadpool(library_items, service_of(request), caller.user_id)
    context = {"items": items, "games": library_games(), "errors": [], "names": _game_names()}
    return page(request, "library.html", context, caller)


def _game_names() -> dict[str, str]:
    return {g.info.slug: g.info.name for g in games()}


@router.post("/library")
async def library_upload(request: Request) -> Response:
    try:
        form = await checked_form(request, max_files=1, max_fields=20)
    except CsrfRefused:
        return refused(request)
    caller = await run_in_threadpool(request_caller, request)
    if caller.user_id is None:
        return login_first(request)
    service = service_of(request)
    errors: list[str] = []
    game = _game_or_none(text_of(form, "game"))
    upload = form.get("file")
    source, text = "pasted text", text_of(form, "text")
    if isinstance(upload, UploadFile) and upload.filename:
        source = Path(upload.filename).name or "upload"
        raw = await upload.read(MAX_UPLOAD + 1)
        if len(raw) > MAX_UPLOAD:
            errors.append(f"{source}: larger than {MAX_UPLOAD // 1024} KiB")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            errors.append(f"{source}: not UTF-8 text")
    if game is None or not game.library_kind:
        errors.append("choose a game that keeps a library")
    elif not text.strip() and not errors:
        errors.append("choose a file to upload (or paste its text)")
    added = ""
    if not errors and game is not None:
        try:
            item = await run_in_threadpool(
                service.add_library_item, caller.user_id, game.info.slug, text, source
            )
        except ServiceError as err:
            errors = [e.strip() for e in str(err).split("; ") if e.strip()] or [str(err)]
        else:
            added = item.name
    items = await run_in_threadpool(library_items, service, caller.user_id)
    context = {
        "items": items,
        "games": library_games(),
        "errors": errors,
        "added": added,
        "source": source,
        "names": _game_names(),
    }
    return page(request, "library.html", context, caller, 422 if errors else 200)


@router.post("/library/{item_id}/delete", openapi_extra=form_request())
async def library_delete(request: Request, item_id: int) -> Response:
    try:
        await checked_form(request)
    except CsrfRefused:
        return refused(request)
    caller = await run_in_threadpool(request_caller, request)
    if caller.user_id is None:
        return login_first(request)
    user_id = caller.user_id
    if not 0 < item_id < 2**31:  # not a database key (PostgreSQL's integer would refuse it)
        return problem(request, 404, "no such item in your library", caller)

    def delete() -> bool:
        with service_of(request).sessions.begin() as session:
            item = session.get(LibraryItem, item_id)
            if item is None or item.user_id != user_id:
                return False
            session.delete(item)
            return True

    if not await run_in_threadpool(delete):
        return problem(request, 404, "no such item in your library", caller)
    return redirect("/library")


# ----- invitations --------------------------------------------------------------------------
@router.get("/invite/{token}")
async def accept_invite(request: Request, token: str) -> Response:
    """An invitation link, used once: an account takes the seat; a guest gets a new
    seat secret as a cookie for that seat only. Then the match page of that seat.
    Opened again: whoever took it goes on to the match, anyone else is refused."""
    caller = await run_in_threadpool(request_caller, request)
    service = service_of(request)
    try:
        taken = await run_in_threadpool(
            service.accept_invite, token, caller.user_id, caller.seat_tokens
        )
    except ServiceError as err:
        return problem(request, err.status, str(err), caller)
    match_id, seat = taken.match_id, taken.seat
    response = redirect(f"/matches/{quote(match_id)}?seat={quote(seat)}")
    if taken.secret is not None:
        cookie = SEAT_COOKIE_PREFIX + match_id
        set_private_cookie(response, request, cookie, taken.secret, days=90)
        service.on_change(match_id)
    return response


@router.post("/matches/{match_id}/seats/{seat}/invite")
async def reissue_invite(request: Request, match_id: str, seat: str) -> Response:
    """The creator's button on the match page: a new invitation link for a seat (the
    old link, and whoever took it, lose the seat)."""
    try:
        await checked_form(request)
    except CsrfRefused:
        return refused(request)
    caller = await run_in_threadpool(request_caller, request)
    if caller.user_id is None:
        return login_first(request)
    try:
        token = await run_in_threadpool(
            service_of(request).reissue_invite, match_id, seat, caller.user_id
        )
    except ServiceError as err:
        return problem(request, err.status, str(err), caller)
    context = {"id": match_id, "invites": {seat: invite_url(request, token)}, "reissued": True}
    return page(request, "created.html", context, caller, 201)


# ----- the match page ----------------------------------------------------------------------
def pick_seat(held: list[Seat], asked: str | None, awaiting: list[Seat]) -> Seat | None:
    if asked == SPECTATOR:
        return None
    if asked:
        if asked not in held:
            raise Forbidden(f"you do not hold seat {asked!r} of this match")
        return asked
    for seat in held:
        if seat in awaiting:
            return seat
    return held[0] if held else None


def match_context(
    service: MatchService, match_id: str, caller: Caller, asked: str | None
) -> dict[str, Any]:
    """Everything the match page shows, built for one seat (None: a spectator)."""
    held_set = seats_held(service, match_id, caller)
    live = service.live(match_id)
    with live.lock:
        order = list(live.state.seats)
        held = [s for s in order if s in held_set]
        awaiting = [] if live.over else list(live.state.awaiting())
        deciding = [] if live.over else list(live.state.deciding())
        seat = pick_seat(held, asked, awaiting)
        body = body_of(live, seat)
        game = live.game
        board = game.web_picture(live.state, seat)
        # the text picture only where the game draws no web picture of its own
        picture = game.render(live.state, seat) if board is None else ""
        posts = game.posts(live.state, seat)
        players = order[: live.state.players]
        timeout = [str(a) for a in game.timeout_actions(live.state, seat)] if seat else []
        console = bool(timeout) and seat not in players
        rounds = game.round_number(live.state)
        # the console's suggested deadline: a day, or the match's round_minutes if shorter
        deadline_minutes = min(1440, float(live.settings.get("round_minutes") or 1440))
        record = live.over and may_have_record(game, live.state, held_set)
    labels = seat_labels(service, match_id, caller.user_id)
    deadlines = service.deadlines(match_id) if (console or rounds is not None) else []
    stamp = hashlib.sha256(
        json.dumps(
            [body, picture, board, posts, deadlines, labels], sort_keys=True, default=str
        ).encode()
    ).hexdigest()[:16]
    legal: list[str] = body["legal"]
    # who has moved: a simultaneous round keeps everyone awaited until it closes, to
    # allow edits; the match waits only on the seats still deciding
    still = set(deciding)
    return {
        "to_move": [s for s in players if s in still],
        "moved": [s for s in players if s not in still],
        "notation_help": game.notation_help(),
        "id": match_id,
        "game": game,
        "seat": seat,
        "held": held,
        "labels": labels,
        "body": body,
        "picture": picture,
        # the game's own web picture: its module escapes every string it shows
        "board": Markup(board) if board is not None else None,
        "latest": [e for e in body["events"][-6:]],
        "posts": posts,
        "legal": legal,
        "buttons": len(legal) <= MAX_BUTTONS,
        "suggestions": legal[:MAX_SUGGESTIONS],
        "awaiting": [s for s in body["awaiting"] if s not in players or s in still],
        "events": body["events"][-300:],
        "outcome": outcome_text(body["outcome"], labels),
        "console": console,
        "close": [a for a in timeout if a in legal],
        "players": players,
        "round": rounds,
        "deadlines": deadlines,
        "deadline_minutes": f"{deadline_minutes:g}",
        "stamp": stamp,
        "player": bool(held),
        "record": record,
    }


def invitation_seats(service: MatchService, match_id: str, caller: Caller) -> list[Seat]:
    """For the match's creator: the seats given by invitation, which may get a new link."""
    if caller.user_id is None or service.creator(match_id) != caller.user_id:
        return []
    live = service.live(match_id)
    with live.lock:
        if live.over:
            return []
        return [
            seat
            for seat in live.state.seats
            if live.seats[seat].kind == "invite" or live.seats[seat].token_hash is not None
        ]


async def _match(
    request: Request, match_id: str, seat: str | None, template: str, error: str = ""
) -> Response:
    caller = await run_in_threadpool(request_caller, request)
    service = service_of(request)
    try:
        context = await run_in_threadpool(match_context, service, match_id, caller, seat)
        if template == "match.html":
            context["reinvite"] = await run_in_threadpool(
                invitation_seats, service, match_id, caller
            )
    except ServiceError as err:
        return problem(request, err.status, str(err), caller)
    context["error"] = error
    return page(request, template, context, caller, 400 if error else 200)


@router.get("/matches/{match_id}", response_class=HTMLResponse)
async def match_page(request: Request, match_id: str, seat: str | None = None) -> Response:
    return await _match(request, match_id, seat, "match.html")


@router.get("/matches/{match_id}/live", response_class=HTMLResponse)
async def match_fragment(request: Request, match_id: str, seat: str | None = None) -> Response:
    """The live part of the match page, fetched again after each push."""
    return await _match(request, match_id, seat, "match_live.html")


@router.post("/matches/{match_id}/act", openapi_extra=form_request("seat", "action"))
async def act(request: Request, match_id: str) -> Response:
    """An action from the page without a WebSocket (the form's plain post)."""
    try:
        form = await checked_form(request)
    except CsrfRefused:
        return refused(request)
    caller = await run_in_threadpool(request_caller, request)
    service = service_of(request)
    seat, action = text_of(form, "seat"), text_of(form, "action").strip()
    try:
        await run_in_threadpool(require_seat, service, match_id, caller, seat)
        if not action:
            raise BadRequest("type an action")
        await run_in_threadpool(service.submit, match_id, seat, action)
    except ServiceError as err:
        if isinstance(err, NotFound | Forbidden):
            return problem(request, err.status, str(err), caller)
        return await _match(request, match_id, seat, "match.html", str(err))
    request.app.state.drivers.kick(match_id)
    return redirect(f"/matches/{quote(match_id)}?seat={quote(seat)}")


@router.post("/matches/{match_id}/deadline", openapi_extra=form_request("seat", "minutes"))
async def set_deadline(request: Request, match_id: str) -> Response:
    """The moderator console (or, in a match without a moderator, its creator) sets
    the deadline of the round in progress."""
    try:
        form = await checked_form(request)
    except CsrfRefused:
        return refused(request)
    caller = await run_in_threadpool(request_caller, request)
    service = service_of(request)
    seat = text_of(form, "seat")

    def apply() -> None:
        deadline_setter_checked(service, match_id, caller, seat or None)
        try:
            minutes = float(text_of(form, "minutes"))
        except (ValueError, OverflowError):
            raise BadRequest("minutes: expected a number") from None
        service.set_round_deadline(
            match_id, minutes, request.app.state.settings.min_deadline_minutes
        )

    try:
        await run_in_threadpool(apply)
    except ServiceError as err:
        if isinstance(err, NotFound | Forbidden):
            return problem(request, err.status, str(err), caller)
        return await _match(request, match_id, seat, "match.html", str(err))
    return redirect(f"/matches/{quote(match_id)}?seat={quote(seat)}")


# ----- the designer of library items (a Superhero Gladiators hero) ------------------------------
def designer_games() -> list[Game[Any]]:
    """Games whose library items can be designed in the browser."""
    return [g for g in library_games() if type(g).design is not Game.design]


def _designer_game(slug: str | None) -> Game[Any] | None:
    found = designer_games()
    if slug:
        found = [g for g in found if g.info.slug == slug]
    return found[0] if found else None


def form_fields(form: FormData) -> dict[str, list[str]]:
    fields: dict[str, list[str]] = {}
    for key, value in form.multi_items():
        if isinstance(value, str) and key != CSRF_FIELD:
            fields.setdefault(key, []).append(value)
    return fields


def _designer_page(
    request: Request,
    game: Game[Any],
    design: Any,
    caller: Caller | None = None,
    status: int = 200,
    **extra: Any,
) -> Response:
    context = {
        "game": game,
        "design": design,
        "form": Markup(design.form),
        "check": Markup(design.check),
        "samples": sorted(game.design_samples()),
        **extra,
    }
    return page(request, "designer.html", context, caller, status)


@router.get("/heroes/new", response_class=HTMLResponse)
async def designer_page(
    request: Request, game: str | None = None, sample: str | None = None, saved: str | None = None
) -> Response:
    chosen = _designer_game(game)
    if chosen is None:
        return problem(request, 404, "no game has a designer")
    text = chosen.design_samples().get(sample or "") if sample else None
    if sample and text is None:
        return problem(request, 404, f"no sample {sample!r}")
    design = await run_in_threadpool(chosen.design, None, text)
    return _designer_page(request, chosen, design, saved=(saved or "")[:80])


@router.post(
    "/heroes/check", response_class=HTMLResponse, openapi_extra=form_request("game", "name")
)
async def designer_check(request: Request) -> Response:
    """The live check (htmx): cost, points left, errors and preview, plus every field's
    error slot swapped out of band."""
    try:
        form = await checked_form(request, max_fields=1000)
    except CsrfRefused:
        return HTMLResponse(
            '<p class="error">Refused: reload the page (its security token is stale).</p>', 403
        )
    game = _designer_game(text_of(form, "game"))
    if game is None:
        return HTMLResponse('<p class="error">no such game</p>', 404)
    design = await run_in_threadpool(game.design, form_fields(form), None)
    response = HTMLResponse(design.check + design.slots)
    response.headers["cache-control"] = "no-store"
    return response


@router.post("/heroes/new", openapi_extra=form_request("game", "do", "name"))
async def designer_post(request: Request) -> Response:
    """Download the item as its file, save it to my library, or import a file."""
    try:
        form = await checked_form(request, max_files=1, max_fields=1000)
    except CsrfRefused:
        return refused(request)
    caller = await run_in_threadpool(request_caller, request)
    game = _designer_game(text_of(form, "game"))
    if game is None:
        return problem(request, 404, "no such game", caller)
    do = text_of(form, "do")
    if do == "import":
        upload = form.get("file")
        if not isinstance(upload, UploadFile) or not upload.filename:
            design = await run_in_threadpool(game.design, None, None)
            return _designer_page(
                request, game, design, caller, 422, error="choose a file to import"
            )
        raw = await upload.read(MAX_UPLOAD + 1)
        try:
            if len(raw) > MAX_UPLOAD:
                raise ValueError(f"larger than {MAX_UPLOAD // 1024} KiB")
            text = raw.decode("utf-8")
        except (UnicodeDecodeError, ValueError) as err:
            design = await run_in_threadpool(game.design, None, None)
            reason = str(err) if isinstance(err, ValueError) else "not UTF-8 text"
            message = f"{Path(upload.filename).name}: {reason}"
            return _designer_page(request, game, design, caller, 422, error=message)
        design = await run_in_threadpool(game.design, None, text)
        return _designer_page(request, game, design, caller)
    design = await run_in_threadpool(game.design, form_fields(form), None)
    if do == "download":
        slug = "".join(c if c.isalnum() else "-" for c in design.name.lower()).strip("-")
        return Response(
            design.text,
            media_type="application/x-yaml",
            headers={
                "content-disposition": f'attachment; filename="{slug or game.library_kind}.yaml"',
                "cache-control": "no-store",
            },
        )
    if do != "save":
        return _designer_page(request, game, design, caller, 400, error="unknown request")
    if caller.user_id is None:
        return _designer_page(
            request, game, design, caller, 401, error="log in to save to your library"
        )
    if not design.valid:
        return _designer_page(
            request, game, design, caller, 422, error="fix the problems below before saving"
        )
    try:
        item = await run_in_threadpool(
            service_of(request).add_library_item,
            caller.user_id,
            game.info.slug,
            design.text,
            f"{design.name or 'item'}.yaml",
        )
    except ServiceError as err:
        return _designer_page(request, game, design, caller, 422, error=str(err))
    name = item.name
    return redirect(f"/heroes/new?game={quote(game.info.slug)}&saved={quote(name[:80], safe='')}")


# ----- replays ------------------------------------------------------------------------------
def replay_context(
    service: MatchService, match_id: str, caller: Caller, asked: str | None, step: int | None
) -> dict[str, Any]:
    """A finished match at one step of a seat's replay, as that seat (or a spectator)
    saw it: its steps are the actions it knew of (see ``replays``)."""
    held = seats_held(service, match_id, caller)
    live = service.live(match_id)
    with live.lock:
        if not live.over:
            raise Forbidden("a match can be replayed once it is over")
        game = live.game
        history = [(s, str(a)) for s, a in live.state.history]
        start = (live.state.options, live.state.players, live.state.seed, live.state.position)
        order = list(live.state.seats)
        public = set(game.revealed_at_end(live.state))
        final = outcome_text(live.outcome(), {})
    choices = [s for s in order if s in held or s in public]
    seat = pick_seat(choices, asked or SPECTATOR, [])
    shown, total = replay_step(game, start, history, seat, step)
    at = total if step is None else max(0, min(step, total))
    board = game.web_picture(shown.state, seat)
    events = [e.to_json() for e in shown.state.events_for(seat)]
    return {
        "id": match_id,
        "game": game,
        "seat": seat,
        "held": choices,
        "step": at,
        "total": total,
        "at_start": shown.ply == 0,
        "played": shown.played,
        "board": Markup(board) if board is not None else None,
        "picture": game.render(shown.state, seat) if board is None else "",
        "events": events[-12:],
        "outcome": final,
    }


@router.get("/matches/{match_id}/replay", response_class=HTMLResponse)
async def replay_page(
    request: Request, match_id: str, seat: str | None = None, step: int | None = None
) -> Response:
    """Step through a finished match, move by move (``?step=N``; ``?seat=S`` for a seat
    the visitor holds, else a spectator's view)."""
    caller = await run_in_threadpool(request_caller, request)
    try:
        context = await run_in_threadpool(
            replay_context, service_of(request), match_id, caller, seat, step
        )
    except ServiceError as err:
        return problem(request, err.status, str(err), caller)
    except GladiatoriumError as err:
        return problem(request, 500, f"the record does not replay: {err}", caller)
    return page(request, "replay.html", context, caller)
