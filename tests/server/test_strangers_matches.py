"""Who may create matches, how many, what stays in memory, and invitations used once:
against real ``gladiatorium serve`` processes on SQLite and PostgreSQL."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from server_helpers import PASSWORD, LiveServer, at_revision, wait_for
from sqlalchemy import text
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from gladiatorium.server.db import make_engine, migrate
from gladiatorium.server.service import MatchService

Start = Callable[..., LiveServer]
PIG = {"1": "me", "2": "me"}


def account(server: LiveServer, name: str) -> httpx2.Client:
    """A client with its own cookie jar, registered (the session cookie is kept); its
    posts carry this server's Origin, as a browser's do."""
    client = httpx2.Client(base_url=server.url, headers={"origin": server.url}, timeout=60)
    answer = client.post("/api/register", json={"username": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return client


def stranger(server: LiveServer) -> httpx2.Client:
    """A browser without an account: a cookie jar of its own."""
    return httpx2.Client(base_url=server.url, headers={"origin": server.url}, timeout=60)


def create(
    client: httpx2.Client, game: str, seats: dict[str, str], **extra: Any
) -> httpx2.Response:
    return client.post("/api/matches", json={"game": game, "seats": seats, **extra})


def created(
    client: httpx2.Client, game: str, seats: dict[str, str], **extra: Any
) -> dict[str, Any]:
    answer = create(client, game, seats, **extra)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def live_matches(server: LiveServer) -> int:
    return int(httpx2.get(server.url + "/healthz", timeout=30).json()["live_matches"])


def seat_body(client: httpx2.Client, match: str, seat: str) -> httpx2.Response:
    return client.get(f"/api/matches/{match}", params={"seat": seat})


def act(client: httpx2.Client, match: str, seat: str, action: str) -> httpx2.Response:
    return client.post(f"/api/matches/{match}/actions", json={"seat": seat, "action": action})


# ----- creating matches ------------------------------------------------------------------------
def test_creating_a_match_needs_an_account_and_is_limited_per_account(
    live_server: Start, database_url: str
) -> None:
    server = live_server(database_url, GLADIATORIUM_MATCH_RATE="3/minute")
    anonymous = create(stranger(server), "pig", {})
    assert anonymous.status_code == 401
    assert anonymous.json()["error"].startswith("log in to create a match")
    # a bearer client without a valid account is no account either
    bearer = {"authorization": "Bearer x"}
    assert (
        httpx2.post(server.url + "/api/matches", json={"game": "pig"}, headers=bearer).status_code
        == 401
    )
    # the form sends a visitor without an account to the login page first
    assert stranger(server).get("/matches/new?game=pig").headers["location"].startswith("/login")

    ada = account(server, "ada")
    for _ in range(3):
        created(ada, "pig", PIG)
    refused = create(ada, "pig", PIG)
    assert refused.status_code == 429
    assert refused.json()["error"].startswith("too many matches created: at most 3 per minute")
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    # the form says so too
    ada.get("/matches/new?game=pig")
    fields = {"csrf": ada.cookies["gladiatorium_csrf"], "game": "pig", "players": "2"}
    form = ada.post("/matches/new", data=fields | {"seat.1": "me", "seat.2": "me"})
    assert form.status_code == 429 and 1 <= int(form.headers["retry-after"]) <= 60
    assert "too many matches created: at most 3 per minute" in form.text
    # per account: another account still may; the refusal made nothing
    created(account(server, "bob"), "pig", PIG)
    assert live_matches(server) == 4


def test_matches_of_bots_only_are_limited_per_account(
    live_server: Start, database_url: str
) -> None:
    server = live_server(
        database_url,
        GLADIATORIUM_BOT_ONLY_MATCHES="2",
        GLADIATORIUM_MATCH_RATE="100/minute",
        GLADIATORIUM_BOT_DELAY="0.2",
    )
    bots = {"1": "bot:random", "2": "bot:random"}
    ada = account(server, "ada")
    # two short ones end: they no longer count
    short = [created(ada, "pig", bots, options={"target": 1})["id"] for _ in range(2)]
    for match in short:
        wait_for(
            lambda m=match: ada.get(f"/api/matches/{m}").json()["outcome"],  # type: ignore[misc]
            60,
            f"bot match {match} to end",
        )
    long = {"target": 10000}
    created(ada, "pig", bots, options=long)
    created(ada, "pig", bots, options=long)
    refused = create(ada, "pig", bots, options=long)
    assert refused.status_code == 429
    assert "matches of bots only running (at most 2 at once)" in refused.json()["error"]
    # a person in a seat: not a match of bots only; another account has its own count
    created(ada, "pig", {"1": "me", "2": "bot:random"}, options=long)
    created(account(server, "bob"), "pig", bots, options=long)


# ----- idle matches leave memory -----------------------------------------------------------------
def test_idle_matches_leave_memory_and_are_served_the_same(
    live_server: Start, database_url: str
) -> None:
    server = live_server(
        database_url, GLADIATORIUM_MATCH_IDLE="0.5", GLADIATORIUM_MATCH_RATE="1000/minute"
    )
    ada = account(server, "ada")
    matches = [created(ada, "pig", PIG, options={"target": 50})["id"] for _ in range(30)]
    for match in matches[:10]:
        assert act(ada, match, "1", "roll").status_code == 200
    before = {m: seat_body(ada, m, "1").json() for m in matches}
    wait_for(lambda: live_matches(server) == 0, 60, "idle matches to leave memory")
    wait_for(lambda: "idle matches left memory" in server.log(), what="the eviction's line")
    # rebuilt from their record: the same bodies, and play goes on
    assert {m: seat_body(ada, m, "1").json() for m in matches} == before
    assert live_matches(server) > 0
    match = matches[-1]
    assert act(ada, match, "1", "roll").status_code == 200
    assert seat_body(ada, match, "1").json() != before[match]


def test_matches_in_memory_are_capped(live_server: Start, database_url: str) -> None:
    server = live_server(
        database_url, GLADIATORIUM_LIVE_MATCHES="5", GLADIATORIUM_MATCH_RATE="1000/minute"
    )
    ada = account(server, "ada")
    matches = [created(ada, "pig", PIG)["id"] for _ in range(15)]
    before = {m: seat_body(ada, m, "1").json() for m in matches}
    wait_for(lambda: live_matches(server) <= 5, 60, "the least recently used to leave memory")
    assert {m: seat_body(ada, m, "1").json() for m in matches} == before


# ----- invitations -------------------------------------------------------------------------------
def open_link(client: httpx2.Client, link: str) -> httpx2.Response:
    return client.get(re.sub(r"^https?://[^/]+", "", link))


def to_seat_two(ada: httpx2.Client, match: str) -> None:
    """Play seat 1 until seat 2 is awaited (Pig: roll, then hold if still awaited)."""
    assert act(ada, match, "1", "roll").status_code == 200
    if ada.get(f"/api/matches/{match}").json()["awaiting"] == ["1"]:
        assert act(ada, match, "1", "hold").status_code == 200


def test_an_invitation_is_used_once_and_the_creator_can_replace_it(
    live_server: Start, database_url: str
) -> None:
    server = live_server(database_url)
    ada = account(server, "ada")
    made = created(ada, "pig", {"1": "me", "2": "invite"}, options={"target": 100})
    match, link = made["id"], made["invites"]["2"]
    first = stranger(server)
    taken = open_link(first, link)
    assert taken.status_code == 303
    assert taken.headers["location"] == f"/matches/{match}?seat=2"
    secret = first.cookies.get(f"gladiatorium_seat_{match}")
    assert secret and secret not in link  # a seat secret of its own, not the link's token
    assert seat_body(first, match, "2").status_code == 200
    # the taker opening it again is sent on to the match
    assert open_link(first, link).headers["location"] == f"/matches/{match}?seat=2"

    # a second browser and a logged-in user: refused, hold nothing, cannot act
    second, bob = stranger(server), account(server, "bob")
    for other in (second, bob):
        again = open_link(other, link)
        assert again.status_code == 409
        assert "this invitation was already used" in again.text
        assert seat_body(other, match, "2").status_code == 403
    to_seat_two(ada, match)
    for other in (second, bob):
        refused = act(other, match, "2", "roll")
        assert refused.status_code == 403
        assert refused.json()["error"] == "you do not hold seat '2' of this match"

    # only the creator issues a new link, for a seat given by invitation
    path = f"/api/matches/{match}/seats/2/invite"
    assert stranger(server).post(path).status_code == 401
    assert bob.post(path).json()["error"] == "only the match's creator may issue a new invitation"
    assert ada.post(f"/api/matches/{match}/seats/1/invite").status_code == 409
    assert ada.post(f"/api/matches/{match}/seats/9/invite").status_code == 404
    seat_socket = f"{server.ws_url}/ws/matches/{match}?seat=2"
    cookie = {"cookie": f"gladiatorium_seat_{match}={secret}"}
    with connect(seat_socket, additional_headers=cookie, open_timeout=30) as socket:
        assert socket.recv(30)
        renewed = ada.post(path)
        assert renewed.status_code == 201
        new_link = renewed.json()["invite"]
        assert new_link != link and new_link.startswith(server.url + "/invite/")
        # the old taker lost the seat: the socket is closed, no body, no action, no link
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                socket.recv(30)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
    assert seat_body(first, match, "2").status_code == 403
    assert act(first, match, "2", "roll").status_code == 403
    old = open_link(first, link)
    assert old.status_code == 404 and "this invitation is not valid" in old.text

    # the new link works once
    third = stranger(server)
    assert open_link(third, new_link).headers["location"] == f"/matches/{match}?seat=2"
    assert act(third, match, "2", "roll").status_code == 200
    assert open_link(stranger(server), new_link).status_code == 409
    assert act(first, match, "2", "roll").status_code == 403

    # from the match page: the creator's button (and nobody else's) gives a link that a
    # logged-in user takes for their account; the guest before loses the seat
    page = ada.get(f"/matches/{match}").text
    assert f'action="/matches/{match}/seats/2/invite"' in page
    assert "/seats/2/invite" not in third.get(f"/matches/{match}").text
    form = ada.post(
        f"/matches/{match}/seats/2/invite", data={"csrf": ada.cookies["gladiatorium_csrf"]}
    )
    assert form.status_code == 201
    page_link = re.findall(r'value="(http://[^"]+/invite/[^"]+)"', form.text)
    assert len(page_link) == 1
    carol = account(server, "carol")
    assert open_link(carol, page_link[0]).headers["location"] == f"/matches/{match}?seat=2"
    assert seat_body(carol, match, "2").status_code == 200
    assert seat_body(third, match, "2").status_code == 403
    assert open_link(carol, page_link[0]).status_code == 303
    assert open_link(stranger(server), page_link[0]).status_code == 409


def test_an_invitation_opened_at_once_by_many_goes_to_one(
    live_server: Start, database_url: str
) -> None:
    server = live_server(database_url)
    ada = account(server, "ada")
    made = created(ada, "pig", {"1": "me", "2": "invite"})
    browsers = [stranger(server) for _ in range(8)]
    with ThreadPoolExecutor(len(browsers)) as pool:
        answers = list(pool.map(lambda b: open_link(b, made["invites"]["2"]), browsers))
    assert sorted(a.status_code for a in answers) == [303] + [409] * 7
    holders = [b for b in browsers if seat_body(b, made["id"], "2").status_code == 200]
    assert len(holders) == 1


def test_a_new_invitation_reaches_another_server_process(
    live_server: Start, postgres_url: str
) -> None:
    one, two = live_server(postgres_url), live_server(postgres_url)
    ada = account(one, "ada")
    made = created(ada, "pig", {"1": "me", "2": "invite"})
    match, link = made["id"], made["invites"]["2"]
    guest = stranger(two)
    assert open_link(guest, link).status_code == 303
    assert seat_body(guest, match, "2").status_code == 200
    secret = guest.cookies[f"gladiatorium_seat_{match}"]
    cookie = {"cookie": f"gladiatorium_seat_{match}={secret}"}
    with connect(
        f"{two.ws_url}/ws/matches/{match}?seat=2", additional_headers=cookie, open_timeout=30
    ) as socket:
        assert socket.recv(30)
        assert ada.post(f"/api/matches/{match}/seats/2/invite").status_code == 201
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                socket.recv(30)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
    wait_for(lambda: seat_body(guest, match, "2").status_code == 403, 30, "the seat to be lost")
    assert open_link(stranger(two), link).status_code == 404


# ----- in process --------------------------------------------------------------------------------
def test_a_sweep_leaves_a_match_whose_lock_is_held(sqlite_client: TestClient) -> None:
    service: MatchService = sqlite_client.app.state.service  # type: ignore[attr-defined]
    user = sqlite_client.app.state.accounts.register("ada", PASSWORD)[0]  # type: ignore[attr-defined]
    match = service.creation.create(user.id, "pig", None, None, PIG).id
    live = service.store.live(match)
    service.store.idle_seconds = 0
    taken, release = threading.Event(), threading.Event()

    def hold() -> None:
        with live.lock:
            taken.set()
            release.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        taken.wait(30)
        service.store.sweep()
        assert service.store.held(match) is live  # still in memory while a thread uses it
    finally:
        release.set()
        holder.join(30)
    wait_for(lambda: service.store.live_count() == 0, 30, "the match to leave memory")
    assert service.store.live(match) is not live  # rebuilt from its record


def test_a_guest_seated_before_keeps_the_seat_after_the_migration(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    with at_revision(engine, "0001") as connection:
        connection.execute(
            text(
                "INSERT INTO matches (id, game, version, players, options, seed, status, ply,"
                " digest, settings, created_at) VALUES ('m', 'pig', '1', 2, '{}', 1, 'running',"
                " 0, '', '{}', '2026-01-01')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO match_seats (match_id, seat, kind, token_hash, guest) VALUES"
                " ('m', '1', 'invite', 'taken', 1), ('m', '2', 'invite', 'open', 0)"
            )
        )
    migrate(engine)
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT seat, secret_hash FROM match_seats ORDER BY seat"))
        assert rows.all() == [("1", "taken"), ("2", None)]
    engine.dispose()
