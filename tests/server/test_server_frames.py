"""The match socket's typed frames (``?frames=2``): a ``body`` on connect and on
``sync``, ``delta`` frames that rebuild the GET body exactly, ``reply`` frames with the
client's id, acknowledgements and reconnection; ``GET ?after=PLY``; and what the seats
of a match share (one body built per seat and action, however many connections)."""

from __future__ import annotations

import copy
import json
from contextlib import ExitStack
from typing import Any

import jsonpatch
from fastapi.testclient import TestClient
from server_helpers import act, body, create, recv, recv_until, register

from gladiatorium.server.frames import Frames
from gladiatorium.server.play import events_after
from gladiatorium.server.service import MatchService


def applied(
    current: dict[str, Any], delta: dict[str, Any], count: dict[int, int]
) -> dict[str, Any]:
    """``current`` with ``delta`` applied, as a client does; ``count``: how many events
    the client held at each ply it applied. The view is patched in place: every caller
    holds only the newest."""
    view = jsonpatch.apply_patch(current["view"], delta["view"], in_place=True)
    events = current["events"][: count[delta["since"]]] + delta["events"]
    parts = {k: delta[k] for k in ("awaiting", "legal", "legal_form", "outcome") if k in delta}
    assert set(parts) >= {"awaiting", "outcome"}  # only the legal actions may be left out
    return {**current, **parts, "view": view, "events": events}


def test_typed_frames_rebuild_the_get_body(client: TestClient) -> None:
    register(client, "ada")
    match = create(client, "pig", {"1": "me", "2": "me"}, options={"target": 50})["id"]
    with client.websocket_connect(f"/ws/matches/{match}?seat=1&frames=2") as ws:
        first = recv(ws)
        assert first == {"type": "body", "ply": 0, "body": body(client, match, "1")}
        current, ply, count = first["body"], 0, {0: len(first["body"]["events"])}
        for step in range(6):
            seat = body(client, match)["awaiting"][0]
            if seat == "1":
                ws.send_text(json.dumps({"type": "action", "id": step, "action": "roll"}))
                reply = recv_until(ws, lambda m: m["type"] == "reply")
                assert set(reply) == {"type", "id", "events"} and reply["id"] == step
            else:
                assert act(client, match, "2", "roll").status_code == 200
            delta = recv_until(ws, lambda m: m["type"] == "delta")
            assert delta["since"] == ply, step
            current, ply = applied(current, delta, count), delta["ply"]
            count[ply] = len(current["events"])
            assert current == body(client, match, "1"), step
            ws.send_text(json.dumps({"type": "ack", "ply": ply}))
        ws.send_text(json.dumps({"type": "sync"}))
        assert recv(ws) == {"type": "body", "ply": ply, "body": body(client, match, "1")}
        ws.send_text(json.dumps({"type": "action", "id": "x", "action": "fly"}))
        refused = recv(ws)
        assert (refused["type"], refused["id"]) == ("reply", "x")
        assert refused["status"] in (400, 409)
        ws.send_text(json.dumps({"type": "ack", "ply": ply + 5}))
        assert recv(ws) == {
            "type": "reply",
            "error": f"ply: a whole number from 0 to {ply} (the match's ply)",
            "status": 400,
        }


def test_a_reconnecting_client_gets_only_what_it_missed(client: TestClient) -> None:
    register(client, "ada")
    match = create(client, "pig", {"1": "me", "2": "me"}, options={"target": 50})["id"]
    with client.websocket_connect(f"/ws/matches/{match}?seat=2&frames=2") as ws:
        had = recv(ws)["body"]
    for _ in range(3):
        seat = body(client, match)["awaiting"][0]
        assert act(client, match, seat, "roll").status_code == 200
    now = body(client, match, "2")
    ply = len(client.app.state.service.store.live(match).state.history)  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/matches/{match}?seat=2&frames=2&ply=0") as ws:
        delta = recv(ws)
        assert delta["type"] == "delta" and (delta["since"], delta["ply"]) == (0, ply)
        assert delta["events"] == now["events"][len(had["events"]) :]
        assert delta["view"] == [{"op": "replace", "path": "", "value": now["view"]}]
        assert applied(had, delta, {0: len(had["events"])}) == now
    after = client.get(f"/api/matches/{match}", params={"seat": "2", "after": "0"}).json()
    assert after == {**now, "events": delta["events"]}
    whole = client.get(f"/api/matches/{match}", params={"seat": "2", "after": str(ply)}).json()
    assert whole == {**now, "events": []}
    for bad in ("-1", "x", str(ply + 1)):
        answer = client.get(f"/api/matches/{match}", params={"seat": "2", "after": bad})
        assert answer.status_code == 400 and answer.json()["error"].startswith("after: "), bad


def test_old_untyped_clients_and_typed_ones_share_a_match(client: TestClient) -> None:
    register(client, "ada")
    match = create(client, "pig", {"1": "me", "2": "me"}, options={"target": 50})["id"]
    with (
        client.websocket_connect(f"/ws/matches/{match}?seat=1") as old,
        client.websocket_connect(f"/ws/matches/{match}?seat=1&frames=2") as new,
    ):
        assert recv(old) == body(client, match, "1")
        assert recv(new)["type"] == "body"
        old.send_text(json.dumps({"action": "roll"}))
        assert set(recv_until(old, lambda m: "game" not in m)) == {"events"}
        assert recv_until(old, lambda m: "game" in m) == body(client, match, "1")
        assert recv(new)["type"] == "delta"


def _sdh(client: TestClient, rounds: int = 1) -> tuple[str, MatchService]:
    register(client, "crowd")
    seats = {str(n): "me" for n in range(1, 101)}
    made = create(client, "super-dice-heroes", seats, players=100, options={"rounds": rounds})
    return made["id"], client.app.state.service  # type: ignore[attr-defined]


def test_seats_that_may_see_the_same_events_share_one_list(sqlite_client: TestClient) -> None:
    """The events after a ply are, for each seat, exactly those it may see; the seats
    that may see the same private ones among them (every hero but the one told its own
    power, and the spectators) hold one list, made once per ply."""
    match, service = _sdh(sqlite_client)
    live = service.store.live(match)
    private = shared = 0
    for _ in range(120):  # the set-up round (each power told to its hero alone), and on
        actor = live.state.awaiting()[0]
        service.play.submit(match, actor, service.play.body(match, actor)["legal"][0])
        others = [s for s in ("1", "2", "3") if s != actor][:2]
        with live.lock:
            for since in (live.ply - 1, max(0, live.ply - 4)):
                events = live.state.events[live.events_since(since) :]
                lists = {s: events_after(live, s, since) for s in (actor, *others, None)}
                for seat, got in lists.items():
                    assert got == [e.to_json() for e in events if e.visible_to(seat)], seat
                told = [e for e in events if e.to is not None]
                private += bool(told)
                if told and all(not e.visible_to(s) for e in told for s in others):
                    assert lists[others[0]] is lists[others[1]] is lists[None]
                    assert lists[actor] != lists[None]
                    shared += 1
    assert private > 50 and shared > 50, (private, shared)


def test_connections_of_a_seat_share_one_body_per_action(sqlite_client: TestClient) -> None:
    """Four connections of seat 1 (two untyped, two typed) and three spectators: an
    action builds two bodies (seat 1's and the spectators'), not seven."""
    client = sqlite_client
    match, service = _sdh(client)
    urls = [f"/ws/matches/{match}?seat=1", f"/ws/matches/{match}?seat=1&frames=2"] * 2
    urls += [f"/ws/matches/{match}", f"/ws/matches/{match}?frames=2", f"/ws/matches/{match}"]

    with ExitStack() as stack:
        sockets = [stack.enter_context(client.websocket_connect(url)) for url in urls]
        for ws in sockets:
            recv(ws)
        live = service.store.live(match)
        before = live.builds
        seat = live.state.awaiting()[0]
        legal = service.play.body(match, seat)["legal"]
        assert live.builds == before + (seat != "1")  # the acting seat's own body
        before = live.builds
        service.play.submit(match, seat, legal[0])
        for ws in sockets:
            recv(ws)
        assert live.builds - before == 2


def test_deltas_do_not_grow_with_the_match(sqlite_client: TestClient) -> None:
    """A hundred Super Dice Heroes players over two rounds: every delta, applied from
    the first body, gives exactly the seat's body; and the biggest delta of a hundred
    actions late in the match is no bigger than that of a hundred early ones, while the
    body has grown by more than 40%."""
    client = sqlite_client
    match, service = _sdh(client, rounds=2)
    live = service.store.live(match)
    seats = ("7", None)
    frames = {seat: Frames(seat) for seat in seats}
    with live.lock:
        current = {s: json.loads(f.body(live))["body"] for s, f in frames.items()}
    count = {s: {0: len(current[s]["events"])} for s in seats}
    sizes: list[tuple[int, int]] = []  # seat 7's (delta bytes, body bytes) at each action
    kept_legal = sent = 0  # seat 7's deltas, and those that left out the legal actions
    while not live.state.is_over:
        with live.lock:
            seat = live.state.awaiting()[0]
        service.play.submit(match, seat, service.play.body(match, seat)["legal"][0])
        for watcher, frame in frames.items():
            with live.lock:
                text = frame.delta(live)
            if text is not None:
                delta = json.loads(text)
                kept_legal += watcher == "7" and "legal" not in delta
                sent += watcher == "7"
                current[watcher] = applied(current[watcher], delta, count[watcher])
                count[watcher][delta["ply"]] = len(current[watcher]["events"])
            assert current[watcher] == service.play.body(match, watcher), (watcher, live.ply)
            if watcher == "7":
                sizes.append((len(text or ""), len(json.dumps(current[watcher]))))
    assert current["7"] == body(client, match, "7") and current[None] == body(client, match)
    early, late = sizes[10:110], sizes[-200:-100]
    assert late[0][1] > 1.4 * early[0][1], (early[0], late[0])
    assert max(d for d, _ in late) <= max(d for d, _ in early), (early, late)
    assert kept_legal > sent // 2, (kept_legal, sent)


def test_acknowledgements_that_come_after_the_next_delta_are_taken(
    sqlite_client: TestClient,
) -> None:
    """A busy server sends the next deltas before the client's acknowledgements of the
    earlier ones arrive: each is still of a ply the connection was sent and keeps the
    view of, taken on the spot (no session look, no delta sent again), and the next
    delta builds on the newest."""
    client = sqlite_client
    register(client, "ann")
    match = create(client, "pig", {"1": "me", "2": "me"}, options={"target": 50})["id"]
    service: MatchService = client.app.state.service  # type: ignore[attr-defined]
    live = service.store.live(match)
    frames = Frames("1")
    with live.lock:
        current = json.loads(frames.body(live))["body"]
    count = {0: len(current["events"])}
    plies = []
    for _ in range(3):
        seat = service.play.body(match, None)["awaiting"][0]
        service.play.submit(match, seat, "roll")
        with live.lock:
            delta = json.loads(frames.delta(live) or "{}")
        current = applied(current, delta, count)
        count[delta["ply"]] = len(current["events"])
        plies.append(delta["ply"])
    assert [frames.acknowledged(ply) for ply in plies] == [True, True, True]
    seat = service.play.body(match, None)["awaiting"][0]
    service.play.submit(match, seat, "roll")
    with live.lock:
        delta = json.loads(frames.delta(live) or "{}")
    assert delta["since"] == plies[-1]
    assert applied(current, delta, count) == service.play.body(match, "1")


def test_a_view_patch_adds_at_the_end_of_an_array_and_replaces_one_mostly_changed() -> None:
    """A log that grows is sent as its new items (``add`` at ``-``), one that shrinks as
    removals from the end; an array mostly changed (dice rolled again, a short log
    grown by half) or an object most of whose keys went as one ``replace`` where that is
    shorter; each patch applied by an RFC 6902 library gives the new view."""
    from gladiatorium.server.frames import view_patch

    log = [f"line {n}" for n in range(10)]
    old = {"log": log, "dice": [[1, 2], [3, 4]], "marks": [0, 0, 0, 0], "cut": list(range(12))}
    new = {"log": [*log, "c", "d"], "dice": [[5, 6], [1, 1]], "marks": [0, 7, 0, 0]}
    new |= {"cut": list(range(10)), "short": ["a", "b", "c", "d"]}
    old["short"] = ["a", "b"]
    patch = view_patch(old, new)
    assert jsonpatch.apply_patch(copy.deepcopy(old), patch) == new
    assert patch == [
        {"op": "add", "path": "/log/-", "value": "c"},
        {"op": "add", "path": "/log/-", "value": "d"},
        {"op": "replace", "path": "/dice", "value": [[5, 6], [1, 1]]},
        {"op": "replace", "path": "/marks/1", "value": 7},
        {"op": "remove", "path": "/cut/11"},
        {"op": "remove", "path": "/cut/10"},
        {"op": "replace", "path": "/short", "value": ["a", "b", "c", "d"]},
    ]
    emptied = {**new, "log": []}
    assert view_patch(new, emptied) == [{"op": "replace", "path": "/log", "value": []}]
    # an object most of whose keys went (a round's moves, cleared at its close): one
    # replace; one that lost a key of many: its removal
    moves = {str(n): f"hit Hero {n}" for n in range(1, 21)}
    cleared = {**new, "moves": {"7": "abstain"}}
    assert view_patch({**new, "moves": moves}, cleared) == [
        {"op": "replace", "path": "/moves", "value": {"7": "abstain"}}
    ]
    fewer = {**new, "moves": {k: v for k, v in moves.items() if k != "3"}}
    assert view_patch({**new, "moves": moves}, fewer) == [{"op": "remove", "path": "/moves/3"}]


def test_a_battles_round_deltas_do_not_grow_with_its_reports() -> None:
    """Hero Battle's view keeps every round's report, so the view grows round after
    round; the patch from one round's close to the next adds the new report only and
    stays the same size."""
    from gladiatorium.core.match import decide, make_bots
    from gladiatorium.games.hero_battle import GAME
    from gladiatorium.server.frames import view_patch

    options = {"signups": [f"Hero {n}" for n in range(1, 13)], "close_when_all_moved": False}
    state = GAME.start(options, 12, 3)
    bots = make_bots(GAME, 3, dict.fromkeys(state.seats, "random-move"))
    views, patches = [json.loads(json.dumps(state.view("1")))], []
    while len(views) < 6 and state.outcome() is None:
        closing = GAME.round_number(state)
        while GAME.round_number(state) == closing and state.outcome() is None:
            seat = state.awaiting()[0]
            state.apply(seat, decide(GAME, state, seat, bots[seat]))
        views.append(json.loads(json.dumps(state.view("1"))))
        patches.append(view_patch(views[-2], views[-1]))
        assert jsonpatch.apply_patch(copy.deepcopy(views[-2]), patches[-1]) == views[-1]
    assert len(views) == 6, "the battle ended before its fifth round"
    sizes = [len(json.dumps(p)) for p in patches]
    assert len(json.dumps(views[-1])) > 1.3 * len(json.dumps(views[1])), sizes
    assert max(sizes[1:]) < 1.5 * min(sizes[1:]), sizes
    assert any(op["path"] == "/reports/-" for op in patches[-1])


def test_acknowledgements_do_not_use_up_the_seats_actions(sqlite_client: TestClient) -> None:
    """A page acknowledges every delta: a hundred-seat round sends it dozens a second,
    more than the socket's message rate (20/s). Acknowledgements have a rate of their
    own and never make an action 429."""
    client = sqlite_client
    register(client, "ann")
    match = create(client, "pig", {"1": "me", "2": "me"}, options={"target": 50})["id"]
    with client.websocket_connect(f"/ws/matches/{match}?seat=1&frames=2") as ws:
        recv(ws)
        for _ in range(60):  # three times the message rate at once
            ws.send_text(json.dumps({"type": "ack", "ply": 0}))
        ws.send_text(json.dumps({"type": "action", "id": 1, "action": "roll"}))
        reply = recv_until(ws, lambda m: m.get("type") == "reply")
        assert set(reply) == {"type", "id", "events"}, reply


def test_acknowledgements_of_sent_plies_touch_no_session(
    sqlite_client: TestClient, monkeypatch: Any
) -> None:
    """An acknowledgement of a ply the connection was sent is taken on the spot: it is
    not a use of the session (no look at the accounts); an action is."""
    from gladiatorium.server.accounts import Accounts

    client = sqlite_client
    register(client, "ann")
    match = create(client, "pig", {"1": "me", "2": "me"}, options={"target": 50})["id"]
    looks: list[bool] = []
    accounts = client.app.state.accounts  # type: ignore[attr-defined]

    def counting(name: str) -> None:  # a look with the account, or without (a socket's)
        look = getattr(Accounts, name)

        def counted(self: Accounts, session: str, touch: bool = False) -> Any:
            if self is accounts:  # this app's: not a thread another test's app left running
                looks.append(touch)
            return look(self, session, touch)

        monkeypatch.setattr(Accounts, name, counted)

    counting("alive")
    counting("lasts")
    service: MatchService = client.app.state.service  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/matches/{match}?seat=1&frames=2") as ws:
        ply = recv(ws)["ply"]
        for _ in range(4):  # moves made elsewhere; the page acknowledges each delta
            seat = service.play.body(match, None)["awaiting"][0]
            service.play.submit(match, seat, "roll")
            ply = recv_until(ws, lambda m: m.get("type") == "delta")["ply"]
            ws.send_text(json.dumps({"type": "ack", "ply": ply}))
        seat_1 = service.play.body(match, "1")["legal"]
        ws.send_text(json.dumps({"type": "action", "id": 1, "action": (seat_1 or ["roll"])[0]}))
        recv_until(ws, lambda m: m.get("type") == "reply")
    assert looks == [False, True]  # the handshake, the action; none for the acknowledgements


def test_a_view_patch_applies_as_rfc_6902_says() -> None:
    """The patch between two views, applied by a general RFC 6902 library, gives the
    new view: keys added, removed and changed, arrays grown and shrunk, values that
    change type, keys that need escaping, and equal parts left out."""
    from gladiatorium.server.frames import view_patch

    old = {
        "a": 1,
        "b": [1, 2, 3],
        "c": {"d": True, "e/f": "x", "g~h": [1, [2]]},
        "gone": None,
        "same": {"deep": [1, 2, {"x": 1}]},
    }
    new = {
        "a": 1.5,
        "b": [1, 2],
        "c": {"d": 1, "e/f": "y", "g~h": [1, [3]]},
        "added": {"z": []},
        "same": {"deep": [1, 2, {"x": 1}]},
    }
    patch = view_patch(old, new)
    assert jsonpatch.apply_patch(copy.deepcopy(old), patch) == new
    assert all(not op["path"].startswith("/same") for op in patch)
    assert {"op": "replace", "path": "/c/d", "value": 1} in patch  # True became 1
    assert {"op": "replace", "path": "/c/e~1f", "value": "y"} in patch
    assert view_patch(new, new) == []


def test_the_seats_patches_share_their_parts_and_write_the_same_json() -> None:
    """Views made as a hundred-seat game makes them (every hero as all seats see it, the
    seat's own apart): with one memo for all the seats, each seat's patch in parts
    writes (``play.spliced``) the very text ``json.dumps`` gives of its flat patch, an
    RFC 6902 library turns the seat's old view into its new one with it, and the parts
    of the heroes every seat sees alike are made once, the same objects in every
    seat's patch."""
    import random

    from gladiatorium.server.frames import flat, patch_parts, view_patch
    from gladiatorium.server.play import Ops, spliced

    rng = random.Random(7)
    names = [str(n) for n in range(1, 41)]

    def hero() -> dict[str, Any]:
        return {"honor": rng.randint(0, 3), "marks": [rng.randint(0, 1) for _ in range(6)]}

    def seat_view(shared_view: dict[str, Any], own: dict[str, Any], seat: str) -> dict[str, Any]:
        return {**shared_view, "heroes": {**shared_view["heroes"], seat: own}}

    before = {"round": 1, "heroes": {name: hero() for name in names}}
    # a round's close: most heroes changed, some the very same objects as before
    heroes = {n: (h if rng.random() < 0.3 else hero()) for n, h in before["heroes"].items()}
    after = {"round": 2, "heroes": heroes}
    memo: dict[Any, Any] = {}
    made: dict[Any, Any] = {}
    shared_parts: dict[str, set[int]] = {name: set() for name in names}
    for seat in names:
        old = seat_view(before, hero(), seat)
        new = seat_view(after, hero(), seat)
        parts = patch_parts(old, new, memo=memo)
        ops = flat(parts)
        assert ops == view_patch(old, new)  # the same patch, memo or not
        assert spliced({"view": parts}, made, 2) == json.dumps({"view": ops}, separators=(",", ":"))
        assert jsonpatch.apply_patch(copy.deepcopy(old), ops) == new
        heroes_part = next(p for p in parts if flat(Ops([p]))[0]["path"].startswith("/heroes/"))
        for part in heroes_part:
            name = flat(part)[0]["path"].split("/")[2]
            if name != seat:
                shared_parts[name].add(id(part))
    changed = [n for n in names if before["heroes"][n] != after["heroes"][n]]
    assert len(changed) > 10
    assert all(len(shared_parts[n]) == 1 for n in changed)  # made once for every seat
    assert not any(shared_parts[n] for n in names if n not in changed)  # nothing to send
