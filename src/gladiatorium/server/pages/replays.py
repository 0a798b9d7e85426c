"""The replay page: a finished match stepped through move by move, as a seat the
visitor holds (or a spectator) saw it (built by ``server/replays.py``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool

from gladiatorium.core import GladiatoriumError
from gladiatorium.server.errors import Forbidden, ServiceError
from gladiatorium.server.pages.common import SPECTATOR, page, problem
from gladiatorium.server.pages.match import pick_seat
from gladiatorium.server.results import match_names, result_label
from gladiatorium.server.service import MatchService
from gladiatorium.server.web import Caller, request_caller, seats_held, service_of

router = APIRouter()


def replay_context(
    service: MatchService, match_id: str, caller: Caller, asked: str | None, step: int | None
) -> dict[str, Any]:
    """A finished match at one step of a seat's replay, as that seat (or a spectator)
    saw it: its steps are the actions it knew of (see ``replays``)."""
    held = seats_held(service, match_id, caller)
    live = service.store.live(match_id)
    with live.lock:
        if not live.over:
            raise Forbidden("a match can be replayed once it is over")
        game = live.game
        order = list(live.state.seats)
        public = set(game.revealed_at_end(live.state))
        outcome = live.outcome()
    final = result_label(outcome, match_names(service.store, match_id))
    choices = [s for s in order if s in held or s in public]
    seat = pick_seat(choices, asked or SPECTATOR, [])
    shown, total = service.replays.step(live, seat, step)
    at = total if step is None else max(0, min(step, total))
    board = game.web.named_picture(shown.state, seat, match_names(service.store, match_id))
    events = [e.to_json() for e in shown.state.events_for(seat)[-12:]]  # the page's last 12
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
        "picture": game.web.text(shown.state, seat) if board is None else "",
        "events": events,
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
