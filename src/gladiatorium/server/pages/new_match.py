"""Creating a match from the pages: choose a game, then its options, seats, settings
and library items; the invitation links to send, when seats are given by invitation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from gladiatorium.core import Game, GladiatoriumError, Seat, best_bot, bots_for, games
from gladiatorium.server.creation import MAX_BOT_SECONDS, Created
from gladiatorium.server.errors import ServiceError, TooMany
from gladiatorium.server.library import SAMPLE, samples
from gladiatorium.server.pages.common import (
    account_form,
    form_request,
    game_or_none,
    login_first,
    page,
    problem,
    redirect,
    text_of,
)
from gladiatorium.server.pages.options import (
    OptionField,
    option_fields,
    picked_options,
    read_options,
)
from gladiatorium.server.service import MatchService
from gladiatorium.server.web import Caller, invite_url, request_caller, service_of

router = APIRouter()


#: what the generic bots are, in a player's words
GENERIC_BOTS = {"random": "plays any legal move at random", "mcts": "searches ahead; slow"}


def bot_choices(game: Game[Any]) -> list[tuple[str, str]]:
    """Each bot as a seat choice in a player's words: the game's best first, an alias
    named as the bot it stands for."""
    bots = bots_for(game)
    first: dict[object, str] = {}
    choices = []
    for i, (name, factory) in enumerate(bots.items()):
        if factory in first:
            what = f"the same as {first[factory]}"
        else:
            first[factory] = name
            what = "the best" if i == 0 else GENERIC_BOTS.get(name, "")
        choices.append((f"bot:{name}", f"a bot: {name}" + (f" ({what})" if what else "")))
    return choices


def seat_choices(game: Game[Any], start: Any, seat: Seat) -> list[tuple[str, str]]:
    choices = [
        ("me", "me"),
        ("invite", "invite someone (a link to send)"),
        ("open", "open (anyone may take it)"),
    ]
    choices += bot_choices(game)
    if game.timeout_actions(start, seat):
        choices.append(("server", game.web.server_seat(seat)))
    return choices


def default_seats(game: Game[Any], start: Any) -> dict[Seat, str]:
    bot = f"bot:{best_bot(game)}"
    moderators = game.moderator_seats(start)
    if moderators:
        return {s: ("me" if s in moderators else bot) for s in start.seats}
    return {s: ("me" if i == 0 else bot) for i, s in enumerate(start.seats)}


@dataclass(frozen=True)
class HallPick:
    """A published hero offered beside the library's own (``id``: its reference)."""

    id: str
    name: str


def hall_picks(service: MatchService, game: Game[Any], refs: list[str]) -> list[HallPick]:
    """The published heroes named (``hall:SLUG@VERSION``) that the form offers; a
    reference that names none is left out (creating the match says why)."""
    picks = []
    for ref in dict.fromkeys(refs):
        try:
            version = service.library.hall.resolve(ref, "hero", game)
        except ServiceError:
            continue
        picks.append(HallPick(ref, f"{version.name} (published, version {version.number})"))
    return picks


def team_picks(
    service: MatchService, caller: Caller, game: Game[Any], hall: list[HallPick]
) -> list[tuple[str, str]]:
    """What a team may be made of: the published heroes named (``hall``), the game's
    samples, then the caller's library items (form values ``hall:SLUG@VERSION``,
    ``sample:NAME`` and item ids)."""
    picks = [(p.id, p.name) for p in hall]
    picks += [(SAMPLE + stem, f"{name} (sample)") for stem, (name, _) in samples(game).items()]
    if game.library_kind and caller.user_id is not None:
        picks += [(str(i.id), i.name) for i in service.library.rows(caller.user_id, game.info.slug)]
    return picks


def default_picks(game: Game[Any], seats: list[Seat]) -> dict[Seat, list[str]]:
    """The samples that make up the game's default teams for as many players as
    ``seats``, ticked for their teams."""
    if not seats:
        return {}
    teams = game.default_options(len(seats)).model_dump(mode="json").get("teams") or []
    out: dict[Seat, list[str]] = {}
    for seat, team in zip(seats, teams, strict=False):
        out[seat] = [SAMPLE + stem for stem, (_, data) in samples(game).items() if data in team]
    return out


def new_match_context(
    service: MatchService,
    caller: Caller,
    game: Game[Any],
    players: int,
    hall_refs: list[str] | None = None,
) -> dict[str, Any]:
    start = game.start(None, players, 0)
    published = hall_picks(service, game, hall_refs or []) if game.library_kind else []
    team_seats = list(start.seats[: start.players]) if game.library_kind else []
    fields = option_fields(game, players)
    return {
        "game": game,
        "players": players,
        "fields": [f for f in fields if f.kind != "pick"],
        "picks": [f for f in fields if f.kind == "pick"],
        "seats": list(start.seats),
        "choices": {s: seat_choices(game, start, s) for s in start.seats},
        "chosen": default_seats(game, start),
        "rounds": game.round_number(start) is not None,
        "clock": len(start.seats) == 2,
        "settings": {},
        "team_picks": team_picks(service, caller, game, published) if team_seats else [],
        "team_seats": team_seats,
        "picked": default_picks(game, team_seats),
        "team_errors": {},
        "own": [],
        "themes": service.library.hall.themes(game) if game.theme_kind else [],
        "theme": "",
        "positions": type(game).load_position is not Game.load_position,
        "position": "",
        "max_bot_seconds": MAX_BOT_SECONDS,
    }


def bot_pause(request: Request) -> str:
    """The server's pause before each bot action (a match's default), in seconds."""
    return f"{request.app.state.drivers.settings.bot_delay_seconds:g}"


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
    try:  # the form is built from the default options' start with that many players
        game.start(None, count, 0)
    except GladiatoriumError as err:
        return info.default_players, f"players: with the default options, {err}"
    return count, ""


@router.get("/matches/new", response_class=HTMLResponse)
async def new_match_page(
    request: Request,
    game: str | None = None,
    players: str | None = None,
    hero: str = "",
    theme: str | None = None,
) -> Response:
    """The creation form of a game (``hero``: a sample ``sample:NAME``, an item id of
    the caller's library or a published hero ``hall:SLUG@VERSION``, ticked for the first
    team; ``theme``: a published theme picked)."""
    caller = await run_in_threadpool(request_caller, request)
    if caller.user is None:
        return login_first(request)
    chosen = game_or_none(game)
    if chosen is None:
        return page(request, "choose_game.html", {"games": games()}, caller)
    count, error = _players(chosen, players)
    refs = [hero[:120]] if hero else []
    context = await run_in_threadpool(
        new_match_context, service_of(request), caller, chosen, count, refs
    )
    context["bot_pause"] = bot_pause(request)
    context["error"] = error
    context["theme"] = (theme or "")[:120]
    if hero in dict(context["team_picks"]) and context["team_seats"]:
        context["picked"][context["team_seats"][0]] = [hero]
    return page(request, "new_match.html", context, caller)


@router.get("/matches/new/preview", response_class=HTMLResponse)
async def option_preview(game: str = "", option: str = "", key: str = "") -> Response:
    """The drawing of one thing an option is picked from (a shipped map), fetched by
    the creation form as it comes into view."""
    chosen = game_or_none(game)
    picks = picked_options(chosen).get(option, []) if chosen is not None else []
    for choice in picks:
        if choice.key == key and choice.preview:
            return HTMLResponse(choice.preview)
    return HTMLResponse("", status_code=404)


def read_teams(
    form: Any, team_seats: list[Seat], picks: list[tuple[str, str]], own: list[Seat]
) -> tuple[dict[Seat, list[str]], dict[Seat, str]]:
    """The heroes ticked for each team, and each team's problem (none ticked while
    another team has some; a value that is not offered). The teams of ``own`` are
    left to whoever takes their seats."""
    offered = {value for value, _ in picks}
    picked: dict[Seat, list[str]] = {}
    problems: dict[Seat, str] = {}
    for seat in own:
        if text_of(form, f"seat.{seat}") not in ("open", "invite"):
            problems[seat] = "only the taker of an open or invited seat can bring the team"
    team_seats = [s for s in team_seats if s not in own]
    for seat in team_seats:
        values = [v for v in form.getlist(f"library.{seat}") if isinstance(v, str)]
        picked[seat] = [v for v in values if v in offered]
        if len(picked[seat]) < len(values):
            problems[seat] = "a hero that is not offered here was picked"
    if any(picked.values()) or own:
        for seat in team_seats:
            if not picked[seat] and seat not in problems:
                problems[seat] = "pick at least one hero for this team"
    return picked, problems


def library_choice(picked: dict[Seat, list[str]]) -> dict[Seat, list[int | str]] | None:
    """The ticked heroes as ``Creation.create`` takes them (item ids, sample names)."""
    if not any(picked.values()):
        return None
    return {seat: [int(v) if v.isdecimal() else v for v in vs] for seat, vs in picked.items()}


async def start_match(request: Request, user_id: int | None, *args: Any, **kw: Any) -> Created:
    """A new match from the pages: admitted under the account's quota, created (the
    arguments of ``Creation.create`` after the user), its bots started; a refusal is
    the ServiceError raised."""
    request.app.state.quota.admit(user_id)
    service = service_of(request)
    created: Created = await run_in_threadpool(service.creation.create, user_id, *args, **kw)
    request.app.state.drivers.kick(created.id)
    return created


def with_wait(answer: Response, err: ServiceError) -> Response:
    """A page that tells a refusal, with the wait the quota asks for."""
    if isinstance(err, TooMany) and err.retry_after is not None:
        answer.headers["retry-after"] = str(err.retry_after)
    return answer


def place_error(context: dict[str, Any], err: ServiceError) -> None:
    """A refusal of the creation put on the field it names (an option, a team)."""
    message = str(err)
    name = message.split(":", 1)[0].strip()
    if name == "position" and context["position"]:  # the form's position, not an option
        context["error"] = message
        return
    for item in [*context["fields"], *context["picks"]]:
        if f" {item.name}:" in f" {message}" or item.name == name:
            item.error = item.error or message.removeprefix(f"{item.name}:").strip()
            return
    for seat in context["team_seats"]:
        if f"team {seat} " in message or name == f"library.{seat}":
            context["team_errors"][seat] = message
            return
    context["error"] = message


@router.post(
    "/matches/new",
    openapi_extra=form_request(
        "game",
        "players",
        "round_minutes",
        "clock_days",
        "bot_seconds",
        "casual",
        "seat.1",
        "library.1",
        "position",
    ),
)
async def create_match(request: Request) -> Response:
    posted = await account_form(request, max_fields=5000)
    if isinstance(posted, Response):
        return posted
    form, caller = posted.form, posted.caller
    game = game_or_none(text_of(form, "game"))
    if game is None:
        return problem(request, 404, "no such game", caller)
    count, error = _players(game, text_of(form, "players"))
    service = service_of(request)
    refs = [r for r in form.values() if isinstance(r, str) and r.startswith("hall:")]
    context = await run_in_threadpool(new_match_context, service, caller, game, count, refs)
    context["bot_pause"] = bot_pause(request)
    fields: list[OptionField] = [*context["fields"], *context["picks"]]
    options = read_options(game, fields, form, count)
    seats = {s: text_of(form, f"seat.{s}") or "open" for s in context["seats"]}
    settings: dict[str, Any] = {
        name: text_of(form, name).strip()
        for name in ("round_minutes", "clock_days", "bot_seconds")
        if text_of(form, name).strip()
    }
    if text_of(form, "casual") == "on":
        settings["casual"] = True
    own = [s for s in context["team_seats"] if text_of(form, f"own.{s}") == "on"]
    picked, team_errors = read_teams(form, context["team_seats"], context["team_picks"], own)
    position = text_of(form, "position") if context["positions"] else ""
    theme = text_of(form, "theme")[:120] if context["themes"] else ""
    context["theme"] = theme
    context.update(chosen=seats, settings=settings, picked=picked, position=position)
    context.update(error=error, team_errors=team_errors, own=own)
    if error or team_errors or any(item.error for item in fields):
        context["error"] = error or "Some choices are not valid; see below."
        return page(request, "new_match.html", context, caller, 422)
    try:
        created = await start_match(
            request,
            posted.user_id,
            game.info.slug,
            count,
            options,
            seats,
            settings,
            library_choice(picked),
            position=position or None,
            theme=theme or None,
            own_teams=own,
        )
    except ServiceError as err:
        place_error(context, err)
        context["error"] = context["error"] or "Some choices are not valid; see below."
        return with_wait(page(request, "new_match.html", context, caller, err.status), err)
    if not created.invites:
        return redirect(f"/matches/{quote(created.id)}")
    invites = {seat: invite_url(request, token) for seat, token in created.invites.items()}
    return page(request, "created.html", {"id": created.id, "invites": invites}, caller, 201)


#: a match against bots from the home page: the pause before each bot action (a person
#: follows it without waiting) and the round deadline of a seat the server runs
QUICK_BOT_SECONDS = 0.3
QUICK_ROUND_MINUTES = 60


def quick_seats(game: Game[Any], start: Any) -> dict[Seat, str]:
    """A match against bots: the person in the first seat, the game's best bot in the
    other players' seats, the server in a moderator's (closing rounds at deadlines)."""
    bot = f"bot:{best_bot(game)}"
    moderators = game.moderator_seats(start)
    return {
        s: "server" if s in moderators else "me" if i == 0 else bot
        for i, s in enumerate(start.seats)
    }


@router.post("/matches/quick", openapi_extra=form_request("game"))
async def quick_match(request: Request) -> Response:
    """'Play a bot now': one click from the home page to a match of the game against
    its best bots with its default options, casual, bots at a pace a person follows."""
    posted = await account_form(request)
    if isinstance(posted, Response):
        return posted
    game = game_or_none(text_of(posted.form, "game"))
    if game is None:
        return problem(request, 404, "no such game", posted.caller)
    start = game.start(None, game.info.default_players, 0)
    seats = quick_seats(game, start)
    settings: dict[str, Any] = {"casual": True, "bot_seconds": QUICK_BOT_SECONDS}
    if "server" in seats.values():
        settings["round_minutes"] = QUICK_ROUND_MINUTES
    try:
        created = await start_match(
            request, posted.user_id, game.info.slug, game.info.default_players, {}, seats, settings
        )
    except ServiceError as err:
        return with_wait(problem(request, err.status, str(err), posted.caller), err)
    return redirect(f"/matches/{quote(created.id)}")
