"""Which notices a match's steps write, in one process whose mail sender is driven by
the test (its thread never ticks on its own): "your turn" once per match until the
person acts, a turn played between two looks still seen, notices of one match told
once, and a notice whose turn was played before it went dropped."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from mail_helpers import PUBLIC, SmtpServer, link_in, text_of
from server_helpers import ORIGIN, register, settings_for
from sqlalchemy import select

from gladiatorium.core import get_game
from gladiatorium.server.app import create_app
from gladiatorium.server.mail import Outgoing


@pytest.fixture
def driven(tmp_path: Any, smtp_server: SmtpServer) -> Iterator[TestClient]:
    base = settings_for(f"sqlite:///{tmp_path / 'mail.db'}")
    settings = type(base)(
        **{
            **vars(base),
            "smtp_url": smtp_server.url,
            "public_url": PUBLIC,
            "mail_interval": 3600.0,  # the test ticks
            "mail_gather_seconds": 0.0,
        }
    )
    with TestClient(create_app(settings)) as client:
        yield client


def headers(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}", "origin": ORIGIN}


def seed_rolling_twice() -> int:
    """A seed whose first two rolls are not a 1 (seat 1 keeps the turn)."""
    game = get_game("pig")
    for seed in range(1000):
        state = game.start({"target": 1000}, None, seed)
        state.act("1", "roll")
        if state.awaiting() != ("1",):
            continue
        state.act("1", "roll")
        if state.awaiting() == ("1",):
            return seed
    raise AssertionError("no such seed")


def test_your_turn_once_until_acting(driven: TestClient, smtp_server: SmtpServer) -> None:
    client, sink = driven, smtp_server.sink
    app: Any = client.app
    notices, sender = app.state.notices, app.state.mail_sender
    tokens = {name: register(client, name) for name in ("ada", "bob")}
    client.cookies.clear()
    for name, token in tokens.items():
        address = f"{name}@example.org"
        client.put(
            "/api/me/mail", json={"address": address, "your_turn": True}, headers=headers(token)
        )
        assert sender.send_due() == 1
        assert client.get(link_in(sink.to(address)[0], "/mail/confirm/")).status_code == 200
    ada, bob = (app.state.accounts.user_of(t).id for t in tokens.values())
    match = app.state.service.creation.create(
        ada, "pig", None, {"target": 1000}, {"1": "me", "2": "open"}, seed=seed_rolling_twice()
    ).id

    def act(name: str, seat: str, action: str) -> None:
        answer = client.post(
            f"/api/matches/{match}/actions",
            json={"seat": seat, "action": action},
            headers=headers(tokens[name]),
        )
        assert answer.status_code == 200, answer.text

    def play_turn(name: str, seat: str) -> None:
        while seat in client.get(f"/api/matches/{match}").json()["awaiting"]:
            legal = client.get(
                f"/api/matches/{match}", params={"seat": seat}, headers=headers(tokens[name])
            ).json()["legal"]
            act(name, seat, "hold" if "hold" in legal else "roll")

    joined = client.post(
        f"/api/matches/{match}/join", json={"seat": "2"}, headers=headers(tokens["bob"])
    )
    assert joined.status_code == 200, joined.text
    assert notices.tick() == 1  # ada's turn
    act("ada", "1", "roll")
    assert notices.tick() == 0  # still ada's turn: she did not finish it
    act("ada", "1", "roll")
    act("ada", "1", "hold")
    play_turn("bob", "2")  # bob's whole turn between two looks: never seen awaited
    assert notices.tick() == 1  # ada's turn again: she acted since the last notice
    assert sender.send_due() == 1
    turns = sink.to("ada@example.org", "Your turn in Pig")
    assert len(turns) == 1 and text_of(turns[0]).count(f"/matches/{match}") == 1
    assert sink.to("bob@example.org", "Your turn") == []

    play_turn("ada", "1")
    assert notices.tick() == 1  # bob's turn
    play_turn("bob", "2")  # played before the mail went
    assert sender.send_due() == 0
    assert sink.to("bob@example.org", "Your turn") == []
    with app.state.service.store.sessions() as session:
        rows = session.execute(
            select(Outgoing.user_id, Outgoing.kind, Outgoing.status).order_by(Outgoing.id)
        ).all()
    assert [tuple(r) for r in rows] == [
        (ada, "confirm", "sent"),
        (bob, "confirm", "sent"),
        (ada, "turn", "sent"),
        (ada, "turn", "sent"),
        (bob, "turn", "dropped"),
    ]


def test_a_battle_player_who_moved_is_not_awaited_by_mail() -> None:
    """Hero Battle waits on every player until the round closes (a move may be edited),
    but the mail's "your turn" goes only to those who have not moved: the seats the
    match waits on a decision from, as the turns say."""
    from gladiatorium.server.db import MatchSeat
    from gladiatorium.server.mail_notices import awaited_people, not_awaited
    from gladiatorium.server.store import Live

    game = get_game("hero-battle")
    state = game.start(None, 8, 3)
    seats = {
        seat: MatchSeat(seat=seat, kind="user", user_id=100 + n)
        for n, seat in enumerate(state.seats)
    }
    live = Live("m", game, state, seats, {})
    state.act("1", str(state.legal_actions("1")[0]))
    assert "1" in state.awaiting()  # may still edit its move
    people = awaited_people(live)
    assert sorted(people) == [101, 102, 103, 104, 105, 106, 107]  # seats 2 to 8
    assert not_awaited(live) == {100, 108}  # seat 1, who moved, and the moderator


def test_match_over_mail_names_the_winner_as_the_pages_do(
    driven: TestClient, smtp_server: SmtpServer
) -> None:
    """The "match over" mail says who won by user name (and the score where the game
    keeps one: ``test_result_text_names_bots_with_their_seats_and_teams``), in the same
    words as the match page's result (``GET /api/matches/ID/result``), never "seat 2"."""
    client, sink = driven, smtp_server.sink
    app: Any = client.app
    notices, sender = app.state.notices, app.state.mail_sender
    tokens = {name: register(client, name) for name in ("ada", "bob")}
    client.cookies.clear()
    for name, token in tokens.items():
        address = f"{name}@example.org"
        client.put(
            "/api/me/mail", json={"address": address, "match_over": True}, headers=headers(token)
        )
        assert sender.send_due() == 1
        assert client.get(link_in(sink.to(address)[0], "/mail/confirm/")).status_code == 200
    ada = app.state.accounts.user_of(tokens["ada"]).id
    match = app.state.service.creation.create(
        ada, "pig", None, {"target": 1}, {"1": "me", "2": "open"}, seed=3
    ).id
    joined = client.post(
        f"/api/matches/{match}/join", json={"seat": "2"}, headers=headers(tokens["bob"])
    )
    assert joined.status_code == 200, joined.text
    for _ in range(100):
        awaiting = client.get(f"/api/matches/{match}").json()["awaiting"]
        if not awaiting:
            break
        name = "ada" if awaiting == ["1"] else "bob"
        legal = client.get(
            f"/api/matches/{match}", params={"seat": awaiting[0]}, headers=headers(tokens[name])
        ).json()["legal"]
        answer = client.post(
            f"/api/matches/{match}/actions",
            json={"seat": awaiting[0], "action": "hold" if "hold" in legal else "roll"},
            headers=headers(tokens[name]),
        )
        assert answer.status_code == 200, answer.text
    summary = client.get(f"/api/matches/{match}/result").json()
    label, winner = summary["result"], "ada"
    assert label == "Won by ada: reached the target"  # seed 3: ada's first roll scores
    assert notices.tick() == 2
    assert sender.send_due() == 2
    for name in ("ada", "bob"):
        said = text_of(sink.to(f"{name}@example.org", "Match over")[0])
        mine = "You won" if name == winner else "You lost"
        assert f"{mine}. {label}." in said, said
        assert "seat 1 won" not in said and "seat 2 won" not in said


def test_result_text_names_bots_with_their_seats_and_teams() -> None:
    """The mail's result line for a bot's win and for a team's."""
    from gladiatorium.server.mail_notices import result_text

    names = {"1": "ada", "2": "bot greedy (seat 2)"}
    bot_won = {"winners": ["2"], "reason": "reached the target", "scores": {"1": 40, "2": 101}}
    assert result_text(bot_won, ["1"], names) == (
        "You lost. Won by bot greedy (seat 2): reached the target; "
        "score: ada 40, bot greedy (seat 2) 101."
    )
    team = {"winners": ["1", "3"], "team": "White", "reason": "checkmate"}
    names = {"1": "ada", "2": "bob", "3": "cy", "4": "dee"}
    assert result_text(team, ["3"], names) == "You won. Won by White (ada, cy): checkmate."
    assert result_text({"winners": [], "reason": "agreed"}, ["1"], names) == "Draw: agreed."
