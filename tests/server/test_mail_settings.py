"""A person's mail settings in one process: the API and the account page, what is
refused, a server without SMTP (nothing written, the page says so), and the mail of a
seat given to someone's account."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from mail_helpers import PUBLIC, SmtpServer, link_in
from server_helpers import ORIGIN, create, register, settings_for
from sqlalchemy import select

from gladiatorium.server.app import create_app
from gladiatorium.server.mail import Outgoing


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def outbox_kinds(client: TestClient) -> list[str]:
    app: Any = client.app
    with app.state.service.store.sessions() as session:
        return list(session.scalars(select(Outgoing.kind).order_by(Outgoing.id)).all())


def test_without_smtp_nothing_is_written_and_the_page_says_so(sqlite_client: TestClient) -> None:
    client = sqlite_client
    register(client, "ada")
    assert client.get("/api/me/mail").json() == {
        "address": None,
        "confirmed": False,
        "your_turn": False,
        "deadline": False,
        "match_over": False,
        "invited": False,
        "sending": False,
    }
    page = client.get("/account")
    assert "This server sends no mail" in page.text
    csrf = client.cookies.get("gladiatorium_csrf")
    saved = client.post(
        "/account", data={"csrf": csrf, "address": "ada@example.org", "match_over": "on"}
    )
    assert saved.status_code == 200, saved.text
    assert "ada@example.org is not confirmed yet" in saved.text
    international = client.put(
        "/api/me/mail", json={"address": "Ada@Exämple.org"}, headers={"origin": ORIGIN}
    )
    assert international.json()["address"] == "Ada@xn--exmple-cua.org"
    client.post("/account", data={"csrf": csrf, "address": "ada@example.org", "match_over": "on"})
    settings = client.get("/api/me/mail").json()
    assert (settings["address"], settings["match_over"], settings["your_turn"]) == (
        "ada@example.org",
        True,
        False,
    )
    assert outbox_kinds(client) == []


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"address": "not an address"}, 422, "address: An email address must have an @-sign."),
        ({"address": 12}, 422, "address: an e-mail address of at most 254 characters"),
        ({"address": "ädä@example.org"}, 422, "address: Internationalized characters before"),
        ({"your_turn": True}, 422, "address: give an address first"),
        ({"address": "a@example.org", "your_turn": "yes"}, 422, "your_turn: true or false"),
        ({"address": "a@example.org", "colour": 1}, 422, "colour: not a mail setting"),
    ],
)
def test_bad_settings_are_refused_and_change_nothing(
    sqlite_client: TestClient, body: dict[str, Any], status: int, message: str
) -> None:
    token = register(sqlite_client, "ada")
    answer = sqlite_client.put("/api/me/mail", json=body, headers=bearer(token))
    assert answer.status_code == status
    assert answer.json()["error"].startswith(message), answer.json()
    assert sqlite_client.get("/api/me/mail", headers=bearer(token)).json()["address"] is None


def test_strangers_and_bad_links(sqlite_client: TestClient) -> None:
    client = sqlite_client
    assert client.get("/api/me/mail").status_code == 403
    assert client.put("/api/me/mail", json={"address": "a@example.org"}).status_code == 403
    assert client.get("/account", follow_redirects=False).headers["location"].startswith("/login")
    assert client.get("/mail/confirm/nothing").status_code == 404
    assert client.post("/mail/unsubscribe/nothing").status_code == 404
    assert 'action="/mail/unsubscribe/abc"' in client.get("/mail/unsubscribe/abc").text
    register(client, "ada")
    cross = client.put(
        "/api/me/mail", json={"address": "a@example.org"}, headers={"origin": "http://evil.test"}
    )
    assert cross.status_code == 403


@pytest.fixture
def mail_client(tmp_path: Any, smtp_server: SmtpServer) -> Iterator[TestClient]:
    base = settings_for(f"sqlite:///{tmp_path / 'mail.db'}")
    settings = type(base)(
        **{
            **vars(base),
            "smtp_url": smtp_server.url,
            "public_url": PUBLIC,
            "mail_interval": 0.05,
            "mail_gather_seconds": 0.0,
        }
    )
    with TestClient(create_app(settings)) as client:
        yield client


def test_a_seat_given_to_an_account_is_told_once(
    mail_client: TestClient, smtp_server: SmtpServer
) -> None:
    client, sink = mail_client, smtp_server.sink
    ada, bob = register(client, "ada"), register(client, "bob")
    chosen = client.put(
        "/api/me/mail", json={"address": "bob@example.org", "invited": True}, headers=bearer(bob)
    )
    assert chosen.json()["sending"] is True
    again = client.put("/api/me/mail", json={"resend": True}, headers=bearer(bob))
    assert again.status_code == 429  # one confirmation a minute at most
    letter = sink.wait("bob@example.org", "Confirm")[0]
    assert client.get(link_in(letter, "/mail/confirm/")).status_code == 200
    assert client.get(link_in(letter, "/mail/confirm/")).status_code == 404  # used once
    client.cookies.clear()
    client.headers.update(bearer(ada))
    match = create(client, "pig", {"1": "me", "2": "open"})["id"]
    app: Any = client.app
    bob_id = app.state.accounts.user_of(bob).id
    live = app.state.service.store.live(match)
    assert app.state.notices.invited(live, "2", bob_id) == 1
    assert app.state.notices.invited(live, "2", bob_id) == 0
    told = sink.wait("bob@example.org", "A seat for you")
    assert len(told) == 1 and f"{PUBLIC}/matches/{match}" in told[0].get_body().get_content()


def test_serve_takes_the_smtp_url_and_the_from(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from gladiatorium.cli.main import app
    from gladiatorium.server import app as server_app
    from gladiatorium.server.mail_sender import parse_smtp_url

    seen: list[Any] = []
    monkeypatch.setattr(server_app, "serve", lambda settings, host, port: seen.append(settings))
    monkeypatch.setenv("COLUMNS", "300")
    runner = CliRunner()
    url = "smtp://games%40example.org:s%3Acret@mail.example.org?starttls=1"
    given = ["serve", "--smtp-url", url, "--mail-from", "Games <games@example.org>"]
    result = runner.invoke(app, given)
    assert result.exit_code == 0, result.output
    assert (seen[0].smtp_url, seen[0].mail_from) == (url, "Games <games@example.org>")
    target = parse_smtp_url(url)
    assert (target.host, target.port, target.starttls, target.tls) == (
        "mail.example.org",
        587,
        True,
        False,
    )
    assert (target.user, target.password) == ("games@example.org", "s:cret")
    assert parse_smtp_url("smtps://mail.example.org").port == 465
    assert parse_smtp_url("smtp://127.0.0.1:2525").port == 2525
    for bad, reason in (
        (["--smtp-url", "http://mail.example.org"], "expected smtp://HOST[:PORT]"),
        (["--smtp-url", "smtps://mail.example.org?starttls=1"], "starttls is for smtp://"),
        (["--smtp-url", "smtp://mail.example.org?tls=1"], "unknown SMTP URL parameter 'tls'"),
        (["--mail-from", "nobody"], "--mail-from (or GLADIATORIUM_MAIL_FROM): expected"),
    ):
        refused = runner.invoke(app, ["serve", *bad])
        assert refused.exit_code == 2, refused.output
        assert reason in " ".join(refused.output.split()), refused.output
    monkeypatch.setenv("GLADIATORIUM_SMTP_URL", "smtp://mail.example.org:99999")
    refused = runner.invoke(app, ["serve"])
    assert refused.exit_code == 2 and "GLADIATORIUM_SMTP_URL" in refused.output, refused.output
