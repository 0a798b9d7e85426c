"""Talk through a real ``gladiatorium serve`` process, on SQLite and PostgreSQL: the
rules of posting, editing, hiding and muting, and the secrets of the channels (a
private deal, a team's talk, spectators' talk) over the API, the WebSocket, the HTML
pages and the record, during the match and after it; and, in process, a look at the
talk that counts only what it lists."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import replace
from datetime import timedelta
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from server_helpers import LiveServer
from sqlalchemy import update
from talk_helpers import Person, frames_until, message_frame

from gladiatorium.server.db import make_engine, make_sessions, utcnow
from gladiatorium.server.talk import Message

Start = Callable[..., LiveServer]
HERO_BOTS = {str(n): "bot:random" for n in range(4, 9)}


def hero_battle(server: LiveServer) -> tuple[str, dict[str, Person]]:
    """A Hero Battle of alice (1), bob (2), carol (3) and dan the moderator, five bots,
    one round long; eve and a stranger look on."""
    people = {name: Person(server, name) for name in ("alice", "bob", "carol", "dan", "eve")}
    people["stranger"] = Person(server, None)
    match = people["alice"].create(
        "hero-battle",
        {"1": "me", "2": "open", "3": "open", "moderator": "open", **HERO_BOTS},
        options={"max_rounds": 1},
    )
    for name, seat in (("bob", "2"), ("carol", "3"), ("dan", "moderator")):
        people[name].join(match, seat)
    return match, people


def age_message(database_url: str, message_id: int, minutes: float) -> None:
    """Make a message look ``minutes`` old (the edit window, without waiting)."""
    engine = make_engine(database_url)
    try:
        with make_sessions(engine).begin() as session:
            session.execute(
                update(Message)
                .where(Message.id == message_id)
                .values(created_at=utcnow() - timedelta(minutes=minutes))
            )
    finally:
        engine.dispose()


def test_the_rules_of_talking(live_server: Start, database_url: str) -> None:
    server = live_server(database_url, GLADIATORIUM_TALK_RATE="6/minute")
    match, people = hero_battle(server)
    alice, bob, carol, dan, eve = (people[n] for n in ("alice", "bob", "carol", "dan", "eve"))

    # bad posts are refused and change nothing
    assert alice.say(match, "all", "   ", "1").status_code == 400
    assert alice.say(match, "all", "x" * 2001, "1").status_code == 400
    assert alice.say(match, "nowhere", "hi", "1").status_code == 400
    assert alice.say(match, "spectators", "hi", "1").status_code == 403
    assert alice.say(match, "all", "hi", "2").status_code == 403  # bob's seat
    assert eve.say(match, "all", "hi").status_code == 403  # spectators read the thread
    assert people["stranger"].say(match, "spectators", "hi").status_code == 401
    assert alice.read(match, "1")["messages"] == []

    # a message: Markdown rendered safely, markup shown as text
    first = alice.said(match, "all", "**deal?** <b>x</b> [go](javascript:alert(1))", "1")
    seen = bob.read(match, "2")
    (message,) = seen["messages"]
    assert message["from"] == "alice" and message["seat"] == "1" and message["to"] is None
    assert message["html"] == (
        "<p><strong>deal?</strong> &lt;b&gt;x&lt;/b&gt; [go](javascript:alert(1))</p>\n"
    )
    assert seen["channels"][0] == {"name": "all", "post": True, "forum": True, "unread": 1}
    assert "thread" in seen  # Hero Battle: the moves and round posts (none yet)
    assert alice.say(match, "all", "x" * 2000, "1").status_code == 201

    # edits: the author only, within ten minutes; then shown as edited
    patch = f"/api/matches/{match}/messages/{first}"
    assert httpx2.patch(
        alice.url(patch), json={"seat": "2", "text": "mine"}, headers=bob.headers
    ).status_code in (403,)
    assert (
        httpx2.patch(
            bob.url(patch), json={"seat": "1", "text": "x"}, headers=bob.headers
        ).status_code
        == 403
    )  # not bob's seat
    edited = httpx2.patch(
        alice.url(patch), json={"seat": "1", "text": "deal!"}, headers=alice.headers
    )
    assert edited.status_code == 200, edited.text
    assert bob.read(match, "2")["messages"][0] | {"at": 0} == message | {
        "at": 0,
        "text": "deal!",
        "html": "<p>deal!</p>\n",
        "edited": True,
    }
    age_message(database_url, first, 11)
    late = httpx2.patch(alice.url(patch), json={"seat": "1", "text": "late"}, headers=alice.headers)
    assert late.status_code == 409 and "10 minutes" in late.json()["error"]

    # hiding: the moderator (or the match's creator), in 'all' only; never a player
    hide = {"seat": "2", "hidden": True}
    assert httpx2.patch(bob.url(patch), json=hide, headers=bob.headers).status_code == 403
    hidden = httpx2.patch(
        dan.url(patch), json={"seat": "moderator", "hidden": True}, headers=dan.headers
    )
    assert hidden.status_code == 200, hidden.text
    shown = eve.read(match)["messages"][0]
    assert (shown["text"], shown["html"], shown["hidden"]) == ("", "", True)

    # deleting: the author's own, shown as deleted without its text
    second = bob.said(match, "seat:1", "between us", "2")
    assert httpx2.delete(
        alice.url(f"/api/matches/{match}/messages/{second}?seat=1"), headers=alice.headers
    ).status_code in (403,)
    gone = httpx2.delete(
        bob.url(f"/api/matches/{match}/messages/{second}?seat=2"), headers=bob.headers
    )
    assert gone.status_code == 200, gone.text
    deleted = alice.read(match, "1", after=first)["messages"]
    assert [(m["id"], m["text"], m["deleted"]) for m in deleted][-1] == (second, "", True)

    # muting: carol no longer reads bob, anywhere; others still do
    third = bob.said(match, "all", "noise", "2")
    muted = httpx2.post(
        carol.url(f"/api/matches/{match}/messages/{third}/mute"),
        json={"seat": "3"},
        headers=carol.headers,
    )
    assert muted.status_code == 200, muted.text
    assert "noise" not in carol.texts(match, "3")
    assert "noise" in alice.texts(match, "1")

    # unread counts follow read marks
    read = httpx2.post(
        carol.url(f"/api/matches/{match}/messages/read"),
        json={"seat": "3", "channel": "all", "id": third},
        headers=carol.headers,
    )
    assert read.status_code == 200, read.text
    assert carol.read(match, "3")["channels"][0]["unread"] == 0
    assert dan.read(match, "moderator")["channels"][0]["unread"] == 2  # hidden: not counted
    with dan.socket(match, "moderator") as ws:
        ws.send(json.dumps({"type": "read", "channel": "all", "id": third}))
        ws.send(json.dumps({"type": "read", "channel": "nowhere", "id": third}))
        refused = json.loads(frames_until(ws, lambda f: f.get("type") == "reply")[-1])
        assert refused["status"] == 400 and "nowhere" in refused["error"]
    assert dan.read(match, "moderator")["channels"][0]["unread"] == 0

    # a rate per person: six a minute here, then 429 with the seconds to wait
    for n in range(4):
        bob.said(match, "all", f"quick {n}", "2")
    refused = bob.say(match, "all", "one too many", "2")
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    assert "one too many" not in alice.texts(match, "1")


def test_the_secrets_of_talk(live_server: Start, database_url: str) -> None:
    server = live_server(database_url)
    match, people = hero_battle(server)
    alice, bob, carol, dan, eve, stranger = people.values()
    deal = "DEAL-7f3: I never hit you, you never hit me"
    kibitz = "KIBITZ-2c9: alice is Captain Comet"
    asked = {
        "carol": (carol, "3"),
        "dan": (dan, "moderator"),
        "eve": (eve, None),
        "stranger": (stranger, None),
        "alice-as-spectator": (alice, None),
        "alice": (alice, "1"),
        "bob": (bob, "2"),
    }
    marker = "end of the secrets"
    with ExitStack() as stack:
        sockets = {n: stack.enter_context(p.socket(match, s)) for n, (p, s) in asked.items()}
        alice.said(match, "seat:2", deal, "1")
        eve.said(match, "spectators", kibitz)
        carol.said(match, "all", marker, "3")
        frames = {name: frames_until(ws, message_frame(marker)) for name, ws in sockets.items()}

    def nowhere_but(text: str, allowed: set[str]) -> None:
        for name, seen in frames.items():
            assert (text in "".join(seen)) == (name in allowed), (name, text)

    nowhere_but(deal, {"alice", "bob"})
    nowhere_but(kibitz, {"eve", "stranger"})
    bob_frame = next(json.loads(f) for f in frames["bob"] if deal in f)
    assert bob_frame["channel"] == "seat:1" and bob_frame["message"]["to"] == "2"

    def readers_now(text: str) -> set[str]:
        """Who reads ``text`` over the API, on the match page and its replay page."""
        found = set()
        asks = [
            ("alice", alice, "1"),
            ("bob", bob, "2"),
            ("carol", carol, "3"),
            ("dan", dan, "moderator"),
            ("alice-as-spectator", alice, None),
            ("eve", eve, None),
            ("stranger", stranger, None),
        ]
        for name, person, seat in asks:
            if text in person.texts(match, seat):
                found.add(name)
            query = f"?seat={seat}" if seat else ""
            for page in (f"/matches/{match}{query}", f"/matches/{match}/replay{query}"):
                answer = person.get(page)
                assert answer.status_code in (200, 403), (page, answer.status_code)
                if text in answer.text or deal[:8] in answer.text:
                    found.add(f"{name} {page}")
        return found

    assert readers_now(deal) == {"alice", "bob"}
    assert readers_now(kibitz) == {"eve", "stranger"}

    # the moderator ends the Battle (one round): the deal stays between its two seats,
    # spectators' talk opens to all; the record carries no message
    assert dan.act(match, "moderator", "close").status_code == 200
    assert dan.body(match)["outcome"] is not None
    assert readers_now(deal) == {"alice", "bob"}
    assert readers_now(kibitz) == {
        "alice",
        "bob",
        "carol",
        "dan",
        "alice-as-spectator",
        "eve",
        "stranger",
    }
    record = dan.get(f"/api/matches/{match}/record")
    assert record.status_code == 200, record.text
    assert deal[:8] not in record.text and kibitz[:8] not in record.text


def test_a_team_talks_where_the_other_side_cannot_read(
    live_server: Start, database_url: str
) -> None:
    server = live_server(database_url)
    white, black, eve = Person(server, "white"), Person(server, "black"), Person(server, "eve")
    seats = {
        "white-king": "me",
        "white-queen": "me",
        "black-king": "open",
        "black-queen": "open",
        **{s: "bot:random" for s in ("white-black-knight", "white-kings-knight")},
        **{s: "bot:random" for s in ("black-black-knight", "black-kings-knight")},
    }
    match = white.create("gladiator-chess", seats)
    black.join(match, "black-king")
    black.join(match, "black-queen")
    plan = "PLAN-51d: queen takes the left flank"
    with black.socket(match, "black-king") as theirs, eve.socket(match) as spectator:
        with white.socket(match, "white-queen") as queen:
            white.said(match, "team", plan, "white-king")
            frame = json.loads(frames_until(queen, message_frame(plan))[-1])
            assert frame["channel"] == "team"
        black.said(match, "all", "ready", "black-king")
        for ws in (theirs, spectator):
            assert plan not in "".join(frames_until(ws, message_frame("ready")))
    assert plan in white.texts(match, "white-queen")
    for person, seat in ((black, "black-king"), (black, "black-queen"), (eve, None)):
        assert plan not in person.texts(match, seat)
        assert plan not in person.get(f"/matches/{match}" + (f"?seat={seat}" if seat else "")).text
    assert black.say(match, "team", "x", "black-king").status_code == 201
    assert "x" not in white.texts(match, "white-king")


def test_a_message_posted_between_the_lists_two_reads_is_counted_once(
    sqlite_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page counts a message unread when the socket brings it, unless its last look
    at the talk listed it. A look that counted a message without listing it (posted
    between the look's two reads) made the page count it twice: a look counts and
    lists the messages up to the newest when it began, and no later one."""
    from server_helpers import ORIGIN, create, register

    from gladiatorium.server.talk import Speaker, Talk

    client = sqlite_client
    register(client, "dealer")
    seats = {"1": "me", "2": "me", "3": "me", "moderator": "me", **HERO_BOTS}
    match = create(client, "hero-battle", seats, options={"max_rounds": 2})["id"]
    url = f"/api/matches/{match}/messages"
    said = {"seat": "1", "channel": "seat:2", "text": "a deal"}
    posted = client.post(url, json=said, headers={"origin": ORIGIN})
    assert posted.status_code == 201, posted.text
    counted = Talk._unread

    def late(self: Talk, session: Any, match_id: str, speaker: Speaker, *rest: Any) -> Any:
        self.post(match_id, replace(speaker, seat="1"), "seat:2", "a late word")
        return counted(self, session, match_id, speaker, *rest)

    monkeypatch.setattr(Talk, "_unread", late)
    looked = client.get(url, params={"seat": "2"}).json()
    monkeypatch.setattr(Talk, "_unread", counted)
    private = next(c for c in looked["channels"] if c["name"] == "seat:1")
    listed = [m for m in looked["messages"] if m["seat"] == "1"]
    assert [m["text"] for m in listed] == ["a deal"]
    assert private["unread"] == len(listed) == 1  # the late word: counted when it comes
    again = client.get(url, params={"seat": "2"}).json()
    assert next(c for c in again["channels"] if c["name"] == "seat:1")["unread"] == 2
