"""What a hundred-seat round costs the server: a Hero Battle's legal actions sent as
choices (``Game.legal_form``) on typed frames, the whole list kept for GET and old
clients; every seat's view made from the part all seats share, built once per action
(``Game.shared_view``), equal to the view built whole."""

from __future__ import annotations

import json
from contextlib import ExitStack
from typing import Any

import jsonpatch
from fastapi.testclient import TestClient
from server_helpers import create, recv, register

from gladiatorium.server.frames import Frames
from gladiatorium.server.service import MatchService
from gladiatorium.server.store import Live


def applied(current: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """``current`` with a delta built on its ply applied, as a client does."""
    view = jsonpatch.apply_patch(current["view"], delta["view"])  # on a copy of it
    kept = ("awaiting", "legal", "legal_form", "outcome")
    parts = {k: delta[k] for k in kept if k in delta}
    assert ("legal" in parts) == ("legal_form" in parts)  # left out together
    return {**current, **parts, "view": view, "events": current["events"] + delta["events"]}


def battle(client: TestClient, players: int) -> tuple[str, MatchService]:
    register(client, "hundred")
    seats = {**{str(n): "me" for n in range(1, players + 1)}, "moderator": "me"}
    signups = [f"Hero {n}" for n in range(1, players + 1)]
    options = {"signups": signups, "close_when_all_moved": False}
    made = create(client, "hero-battle", seats, players=players, options=options)
    return made["id"], client.app.state.service  # type: ignore[attr-defined]


def test_a_hundred_player_battle_sends_its_moves_as_choices(sqlite_client: TestClient) -> None:
    """Seat 7's typed frames carry its moves and guesses as choices (4 KB, where its
    list is 14,604 notations, 371 KB), left out of a delta while they stay the same;
    applying the frames gives ``GET ?legal=form`` at each step, and ``GET`` still
    lists every action (old clients)."""
    client = sqlite_client
    match, service = battle(client, 100)
    url = f"/api/matches/{match}"
    whole = client.get(url, params={"seat": "7"}).json()
    compact = client.get(url, params={"seat": "7", "legal": "form"}).json()
    assert len(whole["legal"]) == 14_604 and whole["legal_form"] == compact["legal_form"]
    assert compact["legal"] is None and compact["legal_form"]["listed"] == ["abstain"]
    assert {**compact, "legal": whole["legal"]} == whole
    assert client.get(url, params={"seat": "7", "legal": "all"}).status_code == 400
    live: Live = service.store.live(match)
    watchers = ("7", None, "moderator")
    frames = {seat: Frames(seat) for seat in watchers}
    with live.lock:
        opened = {seat: frame.body(live) for seat, frame in frames.items()}
    assert len(opened["7"]) < len(opened[None]) + 5_000
    current = {seat: json.loads(text)["body"] for seat, text in opened.items()}
    assert current["7"] == compact
    assert current["moderator"]["legal"] == ["close"] and current["moderator"]["legal_form"] is None
    guess = "guess Hero 1=8"
    moves = [(str(n), f"hit Hero {n + 1}, Hero {n + 2} heal Hero {n + 3}") for n in range(1, 7)]
    for seat, action in [*moves, ("7", guess), ("moderator", "close")]:
        service.play.submit(match, seat, action)
        for watcher, frame in frames.items():
            with live.lock:
                text = frame.delta(live)
                frame.acknowledged(live.ply)
            # a private guess: the spectator sees nothing new, and is sent nothing
            assert (text is None) == (watcher is None and action == guess)
            delta = json.loads(text or '{"view": [], "events": []}')
            changed = watcher == "7" and action in (guess, "close")  # seat 7's own form
            assert ("legal_form" in delta) == changed, (seat, watcher)
            current[watcher] = applied(current[watcher], delta)
            after = client.get(url, params={"seat": watcher, "legal": "form"} if watcher else {})
            assert current[watcher] == after.json(), (seat, watcher)
            if seat == "7" and watcher == "7":  # a guess sent: one a round, so only the move
                assert [list(p) for p in delta["legal_form"]["parts"]] == [["choose", "apart"]]
    assert current["7"]["view"]["round"] == 2


def test_every_view_is_made_from_one_shared_part_per_action(sqlite_client: TestClient) -> None:
    """Twelve Super Dice Heroes players to the end through the server: after each
    action the shared part is built once for the thirteen bodies (the spectator's
    too), and each seat's view equals ``view(seat)`` built whole: its own sheet as it
    is now, every other one as the round began (never another seat's spends); the
    sheets that did not change are the very objects of the view before (a connection
    compares them by identity)."""
    client = sqlite_client
    register(client, "twelve")
    seats = {str(n): "me" for n in range(1, 13)}
    match = create(client, "super-dice-heroes", seats, players=12)["id"]
    service: MatchService = client.app.state.service  # type: ignore[attr-defined]
    live = service.store.live(match)
    game = live.game
    built: list[int] = []

    def counted(state: Any) -> Any:
        built.append(len(state.history))
        return type(game).shared_view(game, state)

    with ExitStack() as stack:
        stack.callback(vars(game).pop, "shared_view", None)
        game.shared_view = counted  # type: ignore[method-assign]
        steps, kept = 0, 0
        before: dict[str, Any] = {}
        while not live.state.is_over:
            built.clear()
            with live.lock:
                views = {s: service.play.body(match, s)["view"] for s in (*live.state.seats, None)}
                for seat, view in views.items():
                    assert json.dumps(view) == json.dumps(live.state.view(seat)), (steps, seat)
                seat = live.state.awaiting()[0]
                action = str(live.state.legal_actions(seat)[0])
            assert built == [live.ply], steps
            heroes = views[None]["heroes"]
            for name, hero in heroes.items():
                if name in before and hero == before[name]:
                    assert hero is before[name], (steps, name)
                    kept += 1
            before = heroes
            mine = views[seat]["heroes"][seat]
            others = [views[s]["heroes"][seat] for s in views if s != seat]
            assert all(theirs == views[None]["heroes"][seat] for theirs in others)
            steps += mine != views[None]["heroes"][seat]  # the seat's own part differs
            service.play.submit(match, seat, action)
    assert steps > 20 and kept > 10 * steps


def test_an_interned_view_holds_the_equal_parts_of_the_one_before() -> None:
    """Each part equal to the part at the same place before (and of the same JSON type)
    is that very part; the rest, and the new view itself, are left as they were."""
    from gladiatorium.server.play import interned

    old = {"round": 1, "heroes": {"a": {"hp": 3, "dice": [1, 2]}, "b": {"hp": 4}}, "log": [[1]]}
    new = {"round": 2, "heroes": {"a": {"hp": 3, "dice": [1, 5]}, "b": {"hp": 4}}}
    new |= {"log": [[1], [2]], "flag": True}
    copy = json.loads(json.dumps(new))
    made = interned(new, old)
    assert made == new == copy and json.dumps(made) == json.dumps(copy)
    assert made["heroes"]["b"] is old["heroes"]["b"] and made["log"][0] is old["log"][0]
    assert made["heroes"]["a"]["dice"] is not old["heroes"]["a"]["dice"]
    assert made["heroes"]["a"] is not new["heroes"]["a"]  # new was not edited
    assert new["heroes"]["b"] is not old["heroes"]["b"]
    assert interned(copy, json.loads(json.dumps(copy))) == copy
    # a value of another type, equal in Python but not in JSON: kept as new has it (a
    # view keeps each field's type, so parts that hold such values are never equal)
    assert interned(True, 1) is True and type(interned(1.0, 1)) is float


def test_the_socket_opens_with_the_compact_body(sqlite_client: TestClient) -> None:
    """A typed connection's first body is ``GET ?legal=form``; an untyped one's is the
    whole GET body, every action listed."""
    client = sqlite_client
    match, _service = battle(client, 8)
    url = f"/api/matches/{match}"
    with ExitStack() as stack:
        typed = stack.enter_context(
            client.websocket_connect(f"/ws/matches/{match}?seat=2&frames=2")
        )
        plain = stack.enter_context(client.websocket_connect(f"/ws/matches/{match}?seat=2"))
        assert recv(typed)["body"] == client.get(url, params={"seat": "2", "legal": "form"}).json()
        assert recv(plain) == client.get(url, params={"seat": "2"}).json()
