"""The network edge: what a stranger's connection may hold and send before any route runs.

- Connections: a cap in all and per client address (refused at once with 503 or 429), a
  deadline for each request's headers (408, then closed) and uvicorn's keep-alive timeout;
  WebSockets keep the place of the connection they were upgraded from.
- Request bodies: refused with 413 as soon as they are known to be too large (a
  Content-Length over the limit before anything is read; a chunked body once the bytes
  received pass it), on every route; 408 when nothing more of one arrives for as long as
  headers may take.
- Headers every answer carries: a Content-Security-Policy, nosniff, a Referrer-Policy.
- Text no database stores: a NUL in the URL is refused (400; a WebSocket is closed 4400),
  in a form field too (:class:`BadInput`, 422 naming the field).
- JSON: :func:`checked_json` parses a body or a WebSocket message and names the field
  holding anything the rest of the server cannot take (a huge or non-finite number, a
  lone surrogate, a NUL).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import Frame, Opcode
from websockets.server import ServerProtocol
from websockets.typing import ExtensionParameter

from gladiatorium.server.config import Settings

#: bytes a request's headers may take (a client sending more is answered 431)
MAX_HEADER_BYTES = 64 * 1024
#: whole numbers a JSON body may hold: what a 64-bit signed integer holds
MAX_JSON_INT = 2**63 - 1

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        # the games' SVG pictures size and colour elements with style attributes
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
SECURITY_HEADERS = (
    ("content-security-policy", CONTENT_SECURITY_POLICY),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "same-origin"),
    ("x-frame-options", "DENY"),
)


# ----- connections ---------------------------------------------------------------------
def raw_response(status: int, reason: str, text: str) -> bytes:
    """A whole HTTP/1.1 answer that closes the connection (written before or instead of
    the application)."""
    body = text.encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "content-type: text/plain; charset=utf-8\r\n"
        f"content-length: {len(body)}\r\n"
        "connection: close\r\n"
    )
    if status in (429, 503):
        head += "retry-after: 5\r\n"
    return (head + "\r\n").encode() + body


@dataclass
class Ticket:
    """One admitted connection's place; given back once, when the connection ends."""

    gate: ConnectionGate
    address: str
    released: bool = False

    def release(self) -> None:
        if not self.released:
            self.released = True
            self.gate.leave(self.address)


class ConnectionGate:
    """Counts open connections in all and per client address (0: no cap)."""

    def __init__(self, total: int, per_address: int) -> None:
        self.total = total
        self.per_address = per_address
        self.open = 0
        self.by_address: Counter[str] = Counter()

    def admit(self, address: str) -> Ticket | bytes:
        """A ticket, or the answer that refuses the connection."""
        if self.total and self.open >= self.total:
            return raw_response(
                503, "Service Unavailable", "The server holds too many connections; retry later.\n"
            )
        if self.per_address and self.by_address[address] >= self.per_address:
            return raw_response(
                429,
                "Too Many Requests",
                f"Too many connections from {address} (at most {self.per_address}).\n",
            )
        self.open += 1
        self.by_address[address] += 1
        return Ticket(self, address)

    def leave(self, address: str) -> None:
        self.open -= 1
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]


class EdgeHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the gate, a deadline for each request's headers
    (from the connection's start, or from a request's first byte) and a size cap on them."""

    gate: ClassVar[ConnectionGate]
    header_timeout: ClassVar[float]
    ticket: Ticket | None = None
    headers_timer: asyncio.TimerHandle | None = None
    header_bytes: int = 0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        admitted = self.gate.admit(self.client[0] if self.client else "unknown")
        if isinstance(admitted, bytes):
            transport.write(admitted)
            transport.close()
            return
        self.ticket = admitted
        self.start_headers_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self.stop_headers_timer()
        if self.ticket is not None:
            self.ticket.release()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.headers_timer is not None and not self.transport.is_closing():
            self.header_bytes += len(data)
            if self.header_bytes > MAX_HEADER_BYTES:
                self.refuse(431, "Request Header Fields Too Large", "Request headers too large.\n")

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.start_headers_timer()

    def on_headers_complete(self) -> None:
        self.stop_headers_timer()
        super().on_headers_complete()

    def handle_websocket_upgrade(self) -> None:
        """The WebSocket protocol takes over the transport, and the connection's place."""
        super().handle_websocket_upgrade()
        protocol = self.transport.get_protocol()
        if isinstance(protocol, EdgeWebSocketProtocol):
            protocol.ticket, self.ticket = self.ticket, None

    def start_headers_timer(self) -> None:
        if self.headers_timer is None:
            self.header_bytes = 0
            self.headers_timer = self.loop.call_later(self.header_timeout, self.headers_late)

    def stop_headers_timer(self) -> None:
        if self.headers_timer is not None:
            self.headers_timer.cancel()
            self.headers_timer = None
        self.header_bytes = 0

    def headers_late(self) -> None:
        self.headers_timer = None
        self.refuse(408, "Request Timeout", "Request headers not received in time.\n")

    def refuse(self, status: int, reason: str, text: str) -> None:
        if not self.transport.is_closing():
            self.transport.write(raw_response(status, reason, text))
            self.transport.close()


#: zlib's level for the sockets' permessage-deflate: the fastest. A hundred-seat Hero
#: Battle's close sends every seat 56 KB of JSON: level 6 (uvicorn's, zlib's default)
#: takes 0.78 ms a frame to make 8.2 KB, level 1 0.27 ms to make 10.4 KB, so a round's
#: hundred frames cost 27 ms of the event loop instead of 79
DEFLATE_LEVEL = 1

#: messages shorter than this go uncompressed: they fit in one TCP segment either way,
#: and deflating a 300-byte Pig delta cost 5 % of the server's time at 100 busy matches
PLAIN_BELOW = 1024


class SmallPlainDeflate(PerMessageDeflate):
    """permessage-deflate that leaves a whole message shorter than :data:`PLAIN_BELOW`
    uncompressed (RFC 7692 lets a sender do so with any message: its frame's RSV1 is
    clear, and the receiver's context takes no part in it)."""

    def encode(self, frame: Frame) -> Frame:
        whole = frame.opcode in (Opcode.TEXT, Opcode.BINARY) and frame.fin
        if whole and len(frame.data) < PLAIN_BELOW:
            return frame
        return super().encode(frame)


class EdgeDeflateFactory(ServerPerMessageDeflateFactory):
    """The server's permessage-deflate as negotiated, with :class:`SmallPlainDeflate`."""

    def process_request_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        response, agreed = super().process_request_params(params, accepted_extensions)
        return response, SmallPlainDeflate(
            agreed.remote_no_context_takeover,
            agreed.local_no_context_takeover,
            agreed.remote_max_window_bits,
            agreed.local_max_window_bits,
            agreed.compress_settings,
        )


class EdgeWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, giving back the connection's place when it ends,
    compressing at :data:`DEFLATE_LEVEL` messages from :data:`PLAIN_BELOW` bytes on
    (uvicorn's other deflate settings kept)."""

    ticket: Ticket | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:  # the same protocol, the level set
            deflate = EdgeDeflateFactory(
                server_max_window_bits=12,
                client_max_window_bits=12,
                compress_settings={"memLevel": 5, "level": DEFLATE_LEVEL},
            )
            self.conn = ServerProtocol(
                extensions=[deflate],
                max_size=self.config.ws_max_size,
                logger=logging.getLogger("uvicorn.error"),
            )

    def connection_lost(self, exc: Exception | None) -> None:
        try:
            super().connection_lost(exc)
        finally:
            if self.ticket is not None:
                self.ticket.release()


def edge_protocols(
    settings: Settings,
) -> tuple[type[EdgeHttpProtocol], type[EdgeWebSocketProtocol]]:
    """The protocol classes of one server (``uvicorn.Config(http=..., ws=...)``), sharing
    one gate sized by ``settings``."""
    gate = ConnectionGate(settings.max_connections, settings.max_connections_per_address)
    http = type(
        "GatedHttpProtocol",
        (EdgeHttpProtocol,),
        {"gate": gate, "header_timeout": settings.header_timeout},
    )
    return http, EdgeWebSocketProtocol


# ----- request bodies ---------------------------------------------------------------------
class BadInput(Exception):
    """A request field the server refuses before any route logic (422, naming it)."""


class BodyRefused(Exception):
    """A request body refused while streaming in: the status and the message."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BodyTooLarge(BodyRefused):
    """A request body passed its limit."""

    status = 413

    def __init__(self, limit: int) -> None:
        super().__init__(f"request body over {limit} bytes")


class BodyStalled(BodyRefused):
    """Nothing more of a request body arrived for too long."""

    status = 408

    def __init__(self, seconds: float) -> None:
        super().__init__(f"request body stalled: nothing received for {seconds:g} seconds")


#: routes taking a file upload (multipart), allowed Settings.max_upload_body
UPLOAD_ROUTES = {("POST", "/library"), ("POST", "/heroes/new")}


def refusal_response(path: str, refusal: BodyRefused) -> Response:
    """413 or 408 (JSON under /api/, text elsewhere); the connection closes (the rest of
    the body is not read)."""
    headers = {"connection": "close"}
    if path.startswith("/api/"):
        return JSONResponse({"error": refusal.message}, refusal.status, headers=headers)
    return PlainTextResponse(refusal.message + "\n", refusal.status, headers=headers)


async def body_refused(request: Request, exc: Exception) -> Response:
    """The exception handler: a route was reading a body that was refused."""
    refusal = exc if isinstance(exc, BodyRefused) else BodyRefused(str(exc))
    return refusal_response(request.url.path, refusal)


def declared_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def nul_in_url(scope: Scope) -> bool:
    """A NUL character in the path or the query (no route can store or look it up)."""
    query = scope.get("query_string", b"").lower()
    return "\x00" in scope["path"] or b"%00" in query or b"\x00" in query


async def refuse_url(scope: Scope, receive: Receive, send: Send) -> None:
    """400 for HTTP; a WebSocket is accepted and closed with 4400 and the reason."""
    reason = "a NUL character (%00) in the URL is not allowed"
    if scope["type"] == "websocket":
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": 4400, "reason": reason})
        return
    if scope["path"].startswith("/api/"):
        response: Response = JSONResponse({"error": reason}, status_code=400)
    else:
        response = PlainTextResponse(reason + "\n", status_code=400)
    await response(scope, receive, send)


def has_body(scope: Scope) -> bool:
    """Whether a request without Content-Length sends a body anyway (chunked)."""
    return any(name == b"transfer-encoding" for name, _ in scope["headers"])


class EdgeMiddleware:
    """Body limits (checked while the body streams in) and the security headers."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    def limit_for(self, scope: Scope) -> int:
        if (scope["method"], scope["path"]) in UPLOAD_ROUTES:
            return self.settings.max_upload_body
        return self.settings.max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if nul_in_url(scope):
            await refuse_url(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope)
        length = declared_length(scope)
        started = False
        # an answer sent before the body is all read closes the connection (the rest of
        # the body is not waited for)
        body_done = length == 0 or (length is None and not has_body(scope))

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS:
                    headers.setdefault(name, value)
                if not body_done:
                    headers["connection"] = "close"
            await send(message)

        if length is not None and length > limit:
            refusal = refusal_response(scope["path"], BodyTooLarge(limit))
            await refusal(scope, receive, send_with_headers)
            return
        received = 0
        patience = self.settings.header_timeout

        async def limited_receive() -> Message:
            nonlocal received, body_done
            if body_done:  # only the disconnect is left to wait for, however long
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), patience)
            except TimeoutError:
                raise BodyStalled(patience) from None
            if message["type"] == "http.request":
                body_done = not message.get("more_body", False)
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        try:
            await self.app(scope, limited_receive, send_with_headers)
        except BodyRefused as refused:
            if started:
                raise
            await refusal_response(scope["path"], refused)(scope, receive, send_with_headers)


# ----- JSON -------------------------------------------------------------------------------
class BadJson(ValueError):
    """JSON the server refuses; the message names the field."""


class NotJson(BadJson):
    """Text that is not JSON at all."""


@dataclass(frozen=True)
class _Refused:
    """Stands in, while parsing, for a value the server cannot take."""

    reason: str


def _parse_int(text: str) -> int | _Refused:
    digits = len(text.lstrip("-"))
    number = int(text) if digits <= 19 else None
    if number is None or abs(number) > MAX_JSON_INT:
        return _Refused(f"a whole number of {digits} digits is out of range")
    return number


def _parse_float(text: str) -> float | _Refused:
    number = float(text)
    return number if math.isfinite(number) else _Refused(f"{text[:20]} is out of range")


def _parse_constant(text: str) -> _Refused:
    return _Refused(f"{text} is not a number JSON allows")


def text_problem(value: str) -> str | None:
    """What makes a string unfit to store (PostgreSQL takes no NUL; UTF-8 has no lone
    surrogate like "\\ud800"), or None."""
    if "\x00" in value:
        return "a NUL character (\\u0000) is not allowed"
    try:
        value.encode()
    except UnicodeEncodeError:
        return "not valid Unicode text (a lone surrogate)"
    return None


_PLAIN_KEY = re.compile(r"[A-Za-z0-9_-]{1,40}")


def _path(parent: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{parent}[{key}]"
    shown = key if _PLAIN_KEY.fullmatch(key) else json.dumps(key[:40])
    return f"{parent}.{shown}" if parent else shown


def refused_field(data: Any) -> str | None:
    """The first field (``seats.white-king``, ``library.1[0]``) holding a value the
    server refuses, with the reason; None if there is none."""
    stack: list[tuple[str, Any]] = [("", data)]
    while stack:
        path, value = stack.pop()
        where = path or "body"
        if isinstance(value, _Refused):
            return f"{where}: {value.reason}"
        if isinstance(value, str) and (reason := text_problem(value)):
            return f"{where}: {reason}"
        if isinstance(value, dict):
            for key in value:
                if reason := text_problem(key):
                    return f"{where}: a key: {reason}"
            stack.extend((_path(path, k), v) for k, v in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend((_path(path, i), v) for i, v in reversed(list(enumerate(value))))
    return None


def checked_json(raw: bytes | str) -> Any:
    """Parse JSON, refusing with :class:`BadJson` (naming the field) what the server
    cannot take: numbers beyond 64-bit integers or not finite, lone surrogates."""
    try:
        data = json.loads(
            raw,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
        )
    except (ValueError, RecursionError) as err:
        raise NotJson(f"not JSON: {err}") from None
    problem = refused_field(data)
    if problem is not None:
        raise BadJson(problem)
    return data
