"""Mail through a real server process and a real SMTP server (aiosmtpd) on loopback:
the confirmation first, "your turn" once per match until the person acts and gathered,
a reminder before a deadline, the result, the one-click unsubscribe, an SMTP server
down then up, and a kill -9 while mail is queued (SQLite and PostgreSQL)."""

from __future__ import annotations

import time
from collections.abc import Callable

import httpx2
import pytest
from mail_helpers import PUBLIC, SmtpServer, choose, confirm, mail_settings, text_of
from server_helpers import LiveServer, wait_for
from sqlalchemy import select
from talk_helpers import Person

from gladiatorium.server.db import make_engine, make_sessions
from gladiatorium.server.mail import Outgoing

Start = Callable[..., LiveServer]
EVERYTHING = {"your_turn": True, "deadline": True, "match_over": True, "invited": True}


def mail_env(smtp: SmtpServer, **more: str) -> dict[str, str]:
    return {
        "GLADIATORIUM_SMTP_URL": smtp.url,
        "GLADIATORIUM_PUBLIC_URL": PUBLIC,
        "GLADIATORIUM_MAIL_INTERVAL": "0.05",
        "GLADIATORIUM_MAIL_GATHER": "0.4",
        "GLADIATORIUM_MAIL_RETRY": "0.2",
        "GLADIATORIUM_MAIL_LEASE": "2",
        **more,
    }


def play_turn(person: Person, match: str, seat: str) -> None:
    """Roll, then hold as soon as holding is allowed (several actions, one turn)."""
    while seat in person.body(match)["awaiting"]:
        legal = person.body(match, seat)["legal"]
        answer = person.act(match, seat, "hold" if "hold" in legal else "roll")
        assert answer.status_code == 200, answer.text


def outbox(url: str) -> list[tuple[int, str, str]]:
    """(user, kind, status) of every row of the outbox."""
    engine = make_engine(url)
    try:
        with make_sessions(engine)() as session:
            rows = session.execute(
                select(Outgoing.user_id, Outgoing.kind, Outgoing.status).order_by(Outgoing.id)
            ).all()
            return [(int(u), str(k), str(s)) for u, k, s in rows]
    finally:
        engine.dispose()


def test_mail_from_confirmation_to_result(
    live_server: Start, database_url: str, smtp_server: SmtpServer
) -> None:
    sink = smtp_server.sink
    server = live_server(database_url, **mail_env(smtp_server))
    ada, bob = Person(server, "ada"), Person(server, "bob")
    assert choose(ada, address="Ada@Example.org", **EVERYTHING)["confirmed"] is False
    settings = choose(bob, address="bob@example.org", **EVERYTHING)
    assert settings == {
        "address": "bob@example.org",
        "confirmed": False,
        "sending": True,
        **EVERYTHING,
    }
    confirm(ada, sink, "Ada@example.org")  # email-validator keeps the local part's case

    # bob is awaited while his address is not confirmed: nothing goes to him
    first = ada.create("pig", {"1": "me", "2": "open"}, options={"target": 1000})
    bob.join(first, "2")
    turn = sink.wait("Ada@example.org", "Your turn")[0]
    assert f"{PUBLIC}/matches/{first}" in text_of(turn)
    play_turn(ada, first, "1")
    play_turn(bob, first, "2")
    again = sink.wait("Ada@example.org", "Your turn", 2)
    assert len(again) == 2  # once when bob joined, once after bob's turn: not per action
    assert [kind for _user, kind, _status in outbox(database_url) if kind != "turn"] == [
        "confirm",
        "confirm",
    ]
    assert sink.to("bob@example.org") == sink.to("bob@example.org", "Confirm")

    # two matches awaiting ada at once: one mail naming both
    second = ada.create("pig", {"1": "me", "2": "open"}, options={"target": 1000})
    third = ada.create("pig", {"1": "me", "2": "open"}, options={"target": 1000})
    bob.join(second, "2")
    bob.join(third, "2")
    gathered = sink.wait("Ada@example.org", "Your turn in 2 matches")[0]
    assert f"/matches/{second}" in text_of(gathered) and f"/matches/{third}" in text_of(gathered)
    assert len(sink.to("Ada@example.org", "Your turn")) == 3

    # bob confirmed: his turn is news now
    confirm(bob, sink, "bob@example.org")
    play_turn(ada, first, "1")
    bob_turn = sink.wait("bob@example.org", "Your turn")[0]
    assert "seat 2" in text_of(bob_turn) and f"/matches/{first}" in text_of(bob_turn)

    # a one-hour deadline: one reminder
    clocked = ada.create("pig", {"1": "me", "2": "open"}, settings={"clock_days": 1 / 24})
    reminder = sink.wait("Ada@example.org", "Deadline soon")[0]
    assert f"/matches/{clocked}" in text_of(reminder)

    # the end, with the result each side may know
    over = ada.create("pig", {"1": "me", "2": "open"}, options={"target": 1})
    bob.join(over, "2")
    for _ in range(200):
        awaiting = ada.body(over)["awaiting"]
        if not awaiting:
            break
        play_turn(ada if awaiting == ["1"] else bob, over, awaiting[0])
    winners = ada.body(over)["outcome"]["winners"]
    ada_end = text_of(sink.wait("Ada@example.org", "Match over")[0])
    bob_end = text_of(sink.wait("bob@example.org", "Match over")[0])
    assert ("You won" in ada_end) == (winners == ["1"]), ada_end
    assert ("You won" in bob_end) == (winners == ["2"]), bob_end
    assert "reached the target" in ada_end
    assert len(sink.to("Ada@example.org", "Deadline soon")) == 1  # once per deadline

    # ada asks for a rematch: it gives bob a seat, and he is told
    asked = httpx2.post(server.url + f"/api/matches/{over}/rematch", headers=ada.headers)
    assert asked.status_code == 201, asked.text
    rematch = asked.json()["id"]
    invited = sink.wait("bob@example.org", "A seat for you")[0]
    assert f"{PUBLIC}/matches/{rematch}" in text_of(invited)
    assert not sink.to("Ada@example.org", "A seat for you")  # not the one who asked

    # every mail: the one-click unsubscribe, which needs no login
    head = sink.wait("bob@example.org", "Match over")[0]
    stop = str(head["List-Unsubscribe"]).strip("<>")
    assert stop.startswith(f"{PUBLIC}/mail/unsubscribe/")
    assert head["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    answer = httpx2.post(
        server.url + stop[len(PUBLIC) :],
        content=b"List-Unsubscribe=One-Click",
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert answer.status_code == 200, answer.text
    assert not any(mail_settings(bob)[k] for k in EVERYTHING)
    assert mail_settings(bob)["confirmed"] is True


def test_smtp_down_then_up_delivers_once(
    live_server: Start, database_url: str, smtp_server: SmtpServer
) -> None:
    smtp_server.stop()
    server = live_server(database_url, **mail_env(smtp_server))
    ada = Person(server, "ada")
    choose(ada, address="ada@example.org")
    wait_for(lambda: any(s == "queued" for *_, s in outbox(database_url)), what="a queued mail")
    wait_for(lambda: _attempts(database_url) >= 2, what="two failed tries")
    smtp_server.start()
    confirm(ada, smtp_server.sink, "ada@example.org")
    assert len(smtp_server.sink.to("ada@example.org")) == 1
    assert outbox(database_url) == [(1, "confirm", "sent")]


def _tried(url: str) -> list[str]:
    """The kinds of the queued mails tried at least once."""
    engine = make_engine(url)
    try:
        with make_sessions(engine)() as session:
            kinds = session.scalars(
                select(Outgoing.kind).where(Outgoing.status == "queued", Outgoing.attempts > 0)
            ).all()
            return sorted(kinds)
    finally:
        engine.dispose()


def _attempts(url: str) -> int:
    engine = make_engine(url)
    try:
        with make_sessions(engine)() as session:
            return max(session.scalars(select(Outgoing.attempts)).all() or [0])
    finally:
        engine.dispose()


def test_kill_9_while_mail_is_queued_sends_each_once(
    live_server: Start, database_url: str, smtp_server: SmtpServer
) -> None:
    sink = smtp_server.sink
    server = live_server(database_url, **mail_env(smtp_server))
    people = [Person(server, f"player{n}") for n in range(6)]
    for n, person in enumerate(people[:3]):
        choose(person, address=f"p{n}@example.org", **EVERYTHING)
        confirm(person, sink, f"p{n}@example.org")
    sink.refuse = True  # up, but taking no mail: everything stays queued
    for n, person in enumerate(people[3:], 3):
        choose(person, address=f"p{n}@example.org")
    matches = [people[n].create("pig", {"1": "me", "2": "open"}) for n in range(3)]
    for n, match in enumerate(matches):
        people[n + 3].join(match, "2")
    expected = ["confirm"] * 3 + ["turn"] * 3
    wait_for(lambda: _tried(database_url) == expected, what="every mail tried once")
    server.kill()
    queued = [row for row in outbox(database_url) if row[2] == "queued"]
    assert sorted(kind for _u, kind, _s in queued) == expected
    sink.refuse = False
    server.start()
    for n in range(6):
        sink.wait(f"p{n}@example.org", "Your turn" if n < 3 else "Confirm")
    wait_for(lambda: all(s == "sent" for *_, s in outbox(database_url)), what="all sent")
    received = sorted((str(m["To"]), str(m["Subject"])) for m in sink.messages)
    assert received == sorted(
        [(f"p{n}@example.org", "Confirm your address for Gladiatorium") for n in range(6)]
        + [(f"p{n}@example.org", "Your turn in Pig") for n in range(3)]
    )


def test_two_processes_send_each_mail_once(
    live_server: Start, postgres_url: str, smtp_server: SmtpServer
) -> None:
    """Two server processes on one PostgreSQL database claim from one outbox."""
    servers = [live_server(postgres_url, **mail_env(smtp_server)) for _ in range(2)]
    people = [Person(servers[n % 2], f"person{n}") for n in range(8)]
    for n, person in enumerate(people):
        choose(person, address=f"person{n}@example.org")
    for n in range(8):
        smtp_server.sink.wait(f"person{n}@example.org", "Confirm")
    wait_for(lambda: all(s == "sent" for *_, s in outbox(postgres_url)), what="all sent")
    time.sleep(0.5)  # a mail sent twice would come now, a few ticks later
    assert sorted(str(m["To"]) for m in smtp_server.sink.messages) == sorted(
        f"person{n}@example.org" for n in range(8)
    )
    logs = servers[0].log() + servers[1].log()
    assert logs.count("mail confirm sent") == 8


@pytest.mark.parametrize("moment", ["claimed", "sent"])
def test_a_server_killed_while_sending(
    live_server: Start, database_url: str, smtp_server: SmtpServer, moment: str
) -> None:
    """Killed after claiming a mail: it goes once, after the lease. Killed after the SMTP
    server took it and before it was marked sent (the window docs/server.md owns to): it
    goes a second time after the lease."""
    sink = smtp_server.sink
    server = live_server(database_url, **mail_env(smtp_server, GLADIATORIUM_FAULT_MAIL_EXIT=moment))
    ada = Person(server, "ada")
    choose(ada, address="ada@example.org")
    assert server.process is not None
    assert server.process.wait(30) == 70
    assert outbox(database_url) == [(1, "confirm", "queued")]
    assert len(sink.to("ada@example.org")) == (1 if moment == "sent" else 0)
    server.env.pop("GLADIATORIUM_FAULT_MAIL_EXIT")
    server.start()
    wait_for(lambda: outbox(database_url) == [(1, "confirm", "sent")], what="the mail sent")
    assert len(sink.to("ada@example.org")) == (2 if moment == "sent" else 1)
