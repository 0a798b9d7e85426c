"""Accounts over the API: register, log in (both refuse what another site's page can
send) and log out."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from gladiatorium.server.accounts import Accounts
from gladiatorium.server.api.common import TEXT, json_body, json_request
from gladiatorium.server.errors import Forbidden, ServiceError
from gladiatorium.server.web import (
    SESSION_COOKIE,
    check_origin,
    client_address,
    end_session,
    error,
    request_caller,
    request_same_origin,
    with_session,
)

router = APIRouter()

ACCOUNT = json_request(["username", "password"], username=TEXT, password=TEXT)


class UnsupportedMediaType(ServiceError):
    status = 415


def check_account_post(request: Request) -> None:
    """Login and registration refuse what another site's page can send: only JSON (a
    cross-site page cannot send it without a CORS preflight, never granted) and, when an
    Origin header comes, it must name this server (login CSRF)."""
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        raise UnsupportedMediaType("Content-Type: send the body as application/json")
    if "origin" in request.headers and not request_same_origin(request):
        raise Forbidden("cross-site request refused: the Origin header must name this server")


@router.post("/api/register", openapi_extra=ACCOUNT)
async def register(request: Request) -> Response:
    try:
        check_account_post(request)
        data = await json_body(request)
        accounts: Accounts = request.app.state.accounts
        user, token = await accounts.sign_up(data.get("username"), data.get("password"))
    except ServiceError as err:
        return error(err)
    body = {"username": user.username, "token": token}
    return with_session(JSONResponse(body, status_code=201), token, request)


@router.post("/api/login", openapi_extra=ACCOUNT)
async def login(request: Request) -> Response:
    try:
        check_account_post(request)
        data = await json_body(request)
        accounts: Accounts = request.app.state.accounts
        user, token = await accounts.log_in(
            data.get("username"), data.get("password"), client_address(request)
        )
    except ServiceError as err:
        return error(err)
    return with_session(JSONResponse({"username": user.username, "token": token}), token, request)


@router.post("/api/logout")
async def logout(request: Request) -> Response:
    caller = request_caller(request)
    try:
        check_origin(request, caller)
    except ServiceError as err:
        return error(err)
    await end_session(request, caller.session)
    response = JSONResponse({"ok": True})
    response.delete_cookie(SESSION_COOKIE)
    return response
