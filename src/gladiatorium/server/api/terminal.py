"""``GET /api/matches/ID/terminal``: a seat's match as the terminal draws it, for
``gladiatorium connect``. The picture, the prompt and the notes on the legal actions
come from the game's own terminal presenter (``game.terminal``), the one ``gladiatorium
play`` shows, built, as everything a seat gets, only from what the seat may know."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from gladiatorium.core import Seat
from gladiatorium.server.errors import ServiceError
from gladiatorium.server.store import MatchStore
from gladiatorium.server.web import error, request_caller, require_seat, service_of

router = APIRouter()


def terminal_parts(store: MatchStore, match_id: str, seat: Seat | None) -> dict[str, Any]:
    """The seat's terminal picture (``seat`` None: a spectator's) at the match's ply;
    whether the match waits on a decision of the seat (``deciding``: a Hero Battle
    player who moved may still edit the move, but is not asked again); while the seat
    is awaited, its prompt and the notes on its actions (sorted by notation: their order
    says nothing); once over, the game's summary for the seat."""
    live = store.live(match_id)
    with live.lock:
        state, terminal = live.state, live.game.terminal
        awaited = seat is not None and not live.over and seat in state.awaiting()
        ended = live.adjudicated is None and state.outcome() is not None
        return {
            "ply": live.ply,
            "deciding": seat is not None and seat in live.deciding(),
            "picture": terminal.render(state, seat),
            "prompt": terminal.prompt_text(state, seat) if awaited and seat else None,
            "notes": dict(sorted(terminal.action_notes(state, seat).items()))
            if awaited and seat
            else {},
            "summary": terminal.summary(state, seat) if ended else "",
        }


@router.get("/api/matches/{match_id}/terminal")
async def get_terminal(request: Request, match_id: str, seat: str | None = None) -> Response:
    """The seat's match as the terminal draws it (see the module)."""
    caller = request_caller(request)
    service = service_of(request)
    try:
        if seat is not None:
            await run_in_threadpool(require_seat, service, match_id, caller, seat)
        parts = await run_in_threadpool(terminal_parts, service.store, match_id, seat)
    except ServiceError as err:
        return error(err)
    return JSONResponse(parts)
