"""Talk's part of the match's WebSocket (docs/server.md, "The WebSocket's frames"): the
``message`` frames pushed to the sockets whose seat may read a channel, and the client's
``read`` frames."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import WebSocket
from starlette.concurrency import run_in_threadpool

from gladiatorium.core import Seat
from gladiatorium.server.errors import ServiceError
from gladiatorium.server.service import MatchService
from gladiatorium.server.talk import Speaker, Talk, TalkHub
from gladiatorium.server.web import Caller


class SocketTalk:
    """The messages a match socket is told of: it pushes each as a ``message`` frame
    when the socket's seat may read it (looked at when it comes, so a seat taken away
    or a channel closed since is respected)."""

    def __init__(self, websocket: WebSocket, match_id: str, seat: Seat | None) -> None:
        self.websocket = websocket
        self.match_id = match_id
        self.seat = seat
        self.hub: TalkHub = websocket.app.state.talk_hub
        self.queue = self.hub.subscribe(match_id)

    def next(self) -> asyncio.Future[int]:
        return asyncio.ensure_future(self.queue.get())

    def close(self) -> None:
        self.hub.unsubscribe(self.match_id, self.queue)

    async def push(self, message_id: int, holds: bool) -> None:
        """Send message ``message_id`` if the socket's seat (still held: ``holds``) may
        read it."""
        if not holds:
            return
        frame = await run_in_threadpool(self._frame, message_id)
        if frame is not None:
            await self.websocket.send_text(json.dumps(frame, separators=(",", ":")))

    def _speaker(self) -> Speaker:
        caller: Caller = self.websocket.state.caller
        service: MatchService = self.websocket.app.state.service
        if self.seat is not None:
            return Speaker(self.seat, caller.user_id, True)
        token = caller.seat_tokens.get(self.match_id)
        held = service.seats.held(self.match_id, caller.user_id, [token] if token else [])
        return Speaker(None, caller.user_id, bool(held))

    def _frame(self, message_id: int) -> dict[str, Any] | None:
        talk: Talk = self.websocket.app.state.talk
        return talk.frame(self.match_id, self._speaker(), message_id)

    async def read(self, data: dict[str, Any]) -> dict[str, Any] | None:
        """A client's ``{"type": "read", "channel", "id"}``: nothing back, or an error."""
        talk: Talk = self.websocket.app.state.talk
        try:
            await run_in_threadpool(
                talk.mark_read, self.match_id, self._speaker(), data.get("channel"), data.get("id")
            )
        except ServiceError as err:
            return {"type": "reply", "error": str(err), "status": err.status}
        return None
