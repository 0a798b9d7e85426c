"""Accounts from the pages: the register and login forms (the CSRF token, and an
Origin naming this server when the browser sends one), logging out, and the account's
settings (the mail address and what to receive)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from gladiatorium.server.accounts import Accounts
from gladiatorium.server.errors import ServiceError
from gladiatorium.server.mail import CHOICES
from gladiatorium.server.pages.common import (
    AccountPost,
    CsrfRefused,
    account_form,
    checked_form,
    form_request,
    local_path,
    login_first,
    page,
    redirect,
    refused,
    text_of,
)
from gladiatorium.server.web import (
    SESSION_COOKIE,
    client_address,
    end_session,
    error_headers,
    request_caller,
    request_same_origin,
    with_session,
)

router = APIRouter()


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


@router.get("/account", response_class=HTMLResponse)
async def account_page(request: Request) -> Response:
    """The account's settings: the mail address and what to receive."""
    caller = await run_in_threadpool(request_caller, request)
    if caller.user_id is None:
        return login_first(request)
    mail = await run_in_threadpool(request.app.state.mailbox.get, caller.user_id)
    return page(request, "account.html", {"mode": "settings", "mail": mail}, caller)


@router.post("/account", openapi_extra=form_request("address", "resend", *CHOICES))
async def account_post(request: Request) -> Response:
    """The settings form: the address and a box per choice (unticked: off)."""
    posted = await account_form(request)
    if not isinstance(posted, AccountPost):
        return posted
    form = posted.form
    data: dict[str, object] = {choice: form.get(choice) == "on" for choice in CHOICES}
    data["address"] = text_of(form, "address").strip() or None
    data["resend"] = form.get("resend") == "on"
    mailbox = request.app.state.mailbox
    try:
        mail = await run_in_threadpool(mailbox.put, posted.user_id, data)
    except ServiceError as err:
        mail = await run_in_threadpool(mailbox.get, posted.user_id)
        context = {"mode": "settings", "mail": mail, "error": str(err)}
        answer = page(request, "account.html", context, posted.caller, status=err.status)
        answer.headers.update(error_headers(err))
        return answer
    context = {"mode": "settings", "mail": mail, "saved": True}
    return page(request, "account.html", context, posted.caller)
