"""A person's mail settings over the API: ``GET`` and ``PUT /api/me/mail``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from gladiatorium.server.api.common import json_body, json_request
from gladiatorium.server.errors import ServiceError
from gladiatorium.server.mail import CHOICES, Mailbox
from gladiatorium.server.web import check_origin, error, request_caller, require_user

router = APIRouter()

FLAG: dict[str, Any] = {"type": "boolean"}
SETTINGS = json_request(
    [], address={"type": ["string", "null"]}, resend=FLAG, **dict.fromkeys(CHOICES, FLAG)
)


def mailbox_of(request: Request) -> Mailbox:
    return request.app.state.mailbox


@router.get("/api/me/mail")
async def get_mail(request: Request) -> Response:
    """The caller's address, whether it is confirmed, what they chose, and whether
    this server sends mail at all (``sending``)."""
    try:
        user_id = require_user(request_caller(request), "see your mail settings")
    except ServiceError as err:
        return error(err)
    return JSONResponse(await run_in_threadpool(mailbox_of(request).get, user_id))


@router.put("/api/me/mail", openapi_extra=SETTINGS)
async def put_mail(request: Request) -> Response:
    """Change the address (a new one is sent a confirmation link) and the choices;
    answers the settings as ``GET`` does."""
    caller = request_caller(request)
    try:
        check_origin(request, caller)
        data = await json_body(request)
        user_id = require_user(caller, "change your mail settings")
        answer = await run_in_threadpool(mailbox_of(request).put, user_id, data)
    except ServiceError as err:
        return error(err)
    return JSONResponse(answer)
