"""Leak tests through the server, one per hidden-information game: two matches with
the same seed that differ only in a secret send byte-identical messages (GET bodies,
action answers, refusals, WebSocket pushes, the typed frames' bodies and deltas, every kind
of mail a seat may be sent, and the turns of ``GET /api/me/turns``, which ``/ws/me``
pushes) to every seat that may not know the secret and to spectators; so are the
seat's match page (its live part), the result API's answer and its terminal picture.
SQLite only: the bodies do not depend on the backend, and the API tests run on both."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

from fastapi.testclient import TestClient
from server_helpers import ORIGIN, recv_until, register

from gladiatorium.core import get_game
from gladiatorium.games.superhero_gladiators.options import DEFAULT_TEAMS
from gladiatorium.server.config import Settings
from gladiatorium.server.mail_notices import seat_facts
from gladiatorium.server.mail_sender import compose
from gladiatorium.server.service import MatchService

SEED = 20261124


@dataclass
class Twins:
    """Two matches that differ only in a secret, watched by the seats that may not
    know it (None: a spectator)."""

    client: TestClient
    ids: tuple[str, str]
    observers: tuple[str | None, ...]
    sockets: dict[tuple[int, str | None], Any] = field(default_factory=dict)
    #: the same observers' typed-frame sockets (``?frames=2``), which acknowledge each frame
    framed: dict[tuple[int, str | None], Any] = field(default_factory=dict)
    last: dict[tuple[int, str | None], bytes] = field(default_factory=dict)
    compared: int = 0
    #: the holder's own socket (``/ws/me``) and the turns it last pushed
    me: Any = None
    me_last: Any = None

    def get(self, index: int, seat: str | None) -> bytes:
        params = {} if seat is None else {"seat": seat}
        answer = self.client.get(f"/api/matches/{self.ids[index]}", params=params)
        assert answer.status_code == 200, answer.text
        return answer.content

    def page(self, index: int, seat: str | None) -> bytes:
        """The seat's live part of the match page (its players table, history, controls
        and result), the result API's answer and the seat's terminal picture (what
        ``gladiatorium connect`` draws), the match's id written as MATCH."""
        match = self.ids[index]
        if seat is None:  # a stranger's page: the holder's own would show a seat it holds
            live = TestClient(self.client.app).get(f"/matches/{match}/live")
        else:
            live = self.client.get(f"/matches/{match}/live", params={"seat": seat})
        assert live.status_code == 200, live.text
        result = self.client.get(f"/api/matches/{match}/result")
        params = {} if seat is None else {"seat": seat}
        terminal = self.client.get(f"/api/matches/{match}/terminal", params=params)
        assert terminal.status_code == 200, terminal.text
        answer = b"\n".join(
            [b"%d" % result.status_code, result.content, live.content, terminal.content]
        )
        return answer.replace(match.encode(), b"MATCH")

    def legal(self, index: int, seat: str) -> list[str]:
        answer = self.client.get(f"/api/matches/{self.ids[index]}", params={"seat": seat})
        return list(answer.json()["legal"])

    def awaiting(self) -> list[str]:
        answer = self.client.get(f"/api/matches/{self.ids[0]}")
        return list(answer.json()["awaiting"])

    def post(self, index: int, seat: str, action: str) -> tuple[int, bytes]:
        answer = self.client.post(
            f"/api/matches/{self.ids[index]}/actions",
            json={"seat": seat, "action": action},
            headers={"origin": ORIGIN},
        )
        return answer.status_code, answer.content

    def mail(self, index: int, seat: str) -> bytes:
        """Every kind of mail about the match ``seat`` could be sent now, the match's id
        written as MATCH (the twins' ids differ), without the Date and Message-ID."""
        app: Any = self.client.app
        live = app.state.service.store.live(self.ids[index])
        with live.lock:
            facts = {**seat_facts(live, [seat]), "due": "2026-11-24T12:00:00+00:00"}
        mails = []
        for kind in ("turn", "reminder", "over", "invited"):
            message = compose(kind, [facts], "x@example.org", "stop", Settings())
            del message["Date"], message["Message-ID"]
            mails.append(message.as_bytes().replace(self.ids[index].encode(), b"MATCH"))
        return b"\n".join(mails)

    def turns(self) -> list[list[str]]:
        """The holder's turns (``GET /api/me/turns``) in each match, in the order listed,
        the observers' seats only; a turn has only its five fields."""
        listed = self.client.get("/api/me/turns").json()["turns"]
        assert all(sorted(t) == ["deadline", "game", "match", "seat", "since"] for t in listed)
        if self.me is not None and listed != self.me_last:  # the socket pushes the same list
            recv_until(self.me, lambda frame: frame == {"type": "turns", "turns": listed})
            self.me_last = listed
        return [
            [t["seat"] for t in listed if t["match"] == match and t["seat"] in self.observers]
            for match in self.ids
        ]

    def check(self) -> None:
        """Every observer's GET body, its page and the result's answer, and its WebSocket
        push when it changed, are the same bytes in both matches; so are every mail a seat
        could be sent and the observers' turns."""
        turns = self.turns()
        assert turns[0] == turns[1], turns
        for seat in self.observers:
            bodies = [self.get(0, seat), self.get(1, seat)]
            assert bodies[0] == bodies[1], (seat, _diff(bodies[0], bodies[1]))
            pages = [self.page(0, seat), self.page(1, seat)]
            assert pages[0] == pages[1], (seat, _diff(pages[0], pages[1]))
            if seat is not None:
                mails = [self.mail(0, seat), self.mail(1, seat)]
                assert mails[0] == mails[1], (seat, _diff(mails[0], mails[1]))
            if bodies[0] != self.last.get((0, seat)):
                pushes = [_raw(self.sockets[(i, seat)]) for i in (0, 1)]
                assert pushes[0] == pushes[1], f"seat {seat}'s pushes differ"
                deltas = [_raw(self.framed[(i, seat)]) for i in (0, 1)]
                assert deltas[0] == deltas[1], (seat, _diff(deltas[0], deltas[1]))
                assert json.loads(deltas[0])["type"] == "delta"
                self.ack(seat, deltas[0])
                self.last[(0, seat)] = bodies[0]
            self.compared += 1

    def ack(self, seat: str | None, frame: bytes) -> None:
        """Both typed sockets of ``seat`` acknowledge the frame's ply."""
        ply = json.loads(frame)["ply"]
        for index in (0, 1):
            self.framed[(index, seat)].send_text(json.dumps({"type": "ack", "ply": ply}))

    def both(self, seat: str, action: str | tuple[str, str]) -> int:
        """The same action (or each its own, for the secret's owner) in both matches;
        answers to an observer must be identical."""
        actions = (action, action) if isinstance(action, str) else action
        answers = [self.post(i, seat, actions[i]) for i in (0, 1)]
        assert answers[0][0] == answers[1][0], (seat, actions, answers)
        if seat in self.observers:
            assert answers[0] == answers[1], (seat, actions)
        self.check()
        return answers[0][0]


def _raw(ws: Any, timeout: float = 30.0) -> bytes:
    import anyio

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    ws._raise_on_close(message)
    return str(message["text"]).encode()


def twins(
    client: TestClient,
    stack: ExitStack,
    slug: str,
    options: tuple[dict[str, Any], dict[str, Any]],
    observers: tuple[str | None, ...],
    players: int | None = None,
) -> Twins:
    token = register(client, "holder")
    app: Any = client.app
    user = app.state.accounts.user_of(token)
    service: MatchService = app.state.service
    seats = get_game(slug).start(options[0], players, SEED).seats
    ids = tuple(
        service.creation.create(
            user.id, slug, players, opts, dict.fromkeys(seats, "me"), seed=SEED
        ).id
        for opts in options
    )
    pair = Twins(client, (ids[0], ids[1]), observers)
    pair.me = stack.enter_context(client.websocket_connect("/ws/me"))
    for index, match in enumerate(ids):
        for seat in observers:
            query = "" if seat is None else f"?seat={seat}"
            pair.sockets[(index, seat)] = stack.enter_context(
                client.websocket_connect(f"/ws/matches/{match}{query}")
            )
            typed = f"{query}&frames=2" if query else "?frames=2"
            pair.framed[(index, seat)] = stack.enter_context(
                client.websocket_connect(f"/ws/matches/{match}{typed}")
            )
    for seat in observers:
        first = [_raw(pair.sockets[(i, seat)]) for i in (0, 1)]
        assert first[0] == first[1], f"seat {seat}'s first push differs"
        pair.last[(0, seat)] = first[0]
        opening = [_raw(pair.framed[(i, seat)]) for i in (0, 1)]
        assert opening[0] == opening[1], f"seat {seat}'s first body frame differs"
        pair.ack(seat, opening[0])
    pair.check()
    return pair


def common(pair: Twins, seat: str, pick: Callable[[list[str]], str] | None = None) -> str:
    """An action legal for ``seat`` in both matches (the first, or ``pick``'s)."""
    b = set(pair.legal(1, seat))
    shared = [a for a in pair.legal(0, seat) if a in b]
    assert shared, (seat, pair.legal(0, seat), pair.legal(1, seat), pair.awaiting())
    return pick(shared) if pick else shared[0]


def test_superhero_gladiators_hidden_gizmo(sqlite_client: TestClient) -> None:
    """Team 2's hidden gizmo is the Harpe in one match and the shield in the other
    (the other of the two is no gizmo at all: nothing to see either way)."""

    def teams(hidden: str) -> dict[str, Any]:
        data = copy.deepcopy([list(team) for team in DEFAULT_TEAMS])
        for power in data[1][0]["powers"]:
            if power["name"] in ("Harpe", "Polished shield"):
                power["gizmo"] = "hidden" if power["name"] == hidden else "none"
            if power["name"] == "Harpe":
                power["uses"] = 8  # within the budget either way
        return {"teams": data}

    with ExitStack() as stack:
        pair = twins(
            sqlite_client,
            stack,
            "superhero-gladiators",
            (teams("Harpe"), teams("Polished shield")),
            ("1", None),
        )
        tries = ["attack 2A gizmo Harpe with Six-shooter", "attack 2A gizmo Polished shield"]
        refused = [*tries, "notice 2A Harpe", "notice 2A unused", "use Harpe"]
        for step in range(16):
            awaiting = pair.awaiting()
            if not awaiting:
                break
            seat = awaiting[0]
            if seat == "1":
                for action in refused:
                    pair.both("1", action)  # refused or not: the same answer in both
                if pair.awaiting()[:1] != ["1"]:
                    continue
            pair.both(seat, common(pair, seat, lambda s, n=step: _prefer_fights(s, n)))
        assert pair.compared >= 16


def _prefer_fights(shared: list[str], step: int) -> str:
    fights = [a for a in shared if a.startswith(("attack", "notice"))]
    return fights[0] if fights else shared[step % len(shared)]


def test_super_dice_heroes_round_choices(sqlite_client: TestClient) -> None:
    """Seat 1's secret choice differs; seat 2 and spectators see the same until the
    choices are revealed together."""
    with ExitStack() as stack:
        pair = twins(sqlite_client, stack, "super-dice-heroes", ({}, {}), ("2", None))
        choices = pair.legal(0, "1")
        assert len(choices) >= 2
        for action in ("roll", "choose nothing", "done"):
            pair.both("2", action)
        pair.both("1", (choices[0], choices[1]))
        pair.both("2", "choose nothing")
        assert pair.compared >= 5


def test_super_dice_heroes_spending_in_a_round(sqlite_client: TestClient) -> None:
    """After the same set-up, seat 1 spends its dice differently in round 1."""
    with ExitStack() as stack:
        pair = twins(sqlite_client, stack, "super-dice-heroes", ({}, {}), ("2", None))
        for seat in ("1", "2"):
            pair.both(seat, pair.legal(0, seat)[0])
        spends = pair.legal(0, "1")
        assert spends == pair.legal(1, "1")
        # two spends that both leave seat 1 with dice to spend (who is done is public)
        spends = [a for a in spends if a != "done"]
        assert len(spends) >= 2, spends
        pair.both("1", (spends[0], spends[-1]))
        assert pair.awaiting() == ["1", "2"]
        assert pair.compared >= 6


HB_HEROES = ("Ant", "Bat", "Cat", "Dog", "Eel", "Fox", "Gnu", "Hog")


def hb_options(swap: bool) -> dict[str, Any]:
    heroes = list(HB_HEROES[1:] + HB_HEROES[:1])
    nemeses = [tuple(sorted((HB_HEROES[(i + 2) % 8], HB_HEROES[(i + 3) % 8]))) for i in range(8)]
    if swap:
        heroes[3], heroes[5] = heroes[5], heroes[3]
        nemeses[3], nemeses[5] = nemeses[5], nemeses[3]
    return {
        "signups": HB_HEROES,
        "assign_heroes": heroes,
        "assign_nemeses": nemeses,
        "starting_hp": 60,
    }


def test_hero_battle_identities_and_guesses(sqlite_client: TestClient) -> None:
    """Seats 4 and 6 swap secret identities (and the nemeses that go with them); seat 1
    sends private guesses. Seats 2, 3, 5, 7, 8 and spectators see the same bytes
    through two rounds. Seats 4 and 6 make the same move, so that the public report
    (by player) and the hits (by hero) are the same in both worlds."""
    observers: tuple[str | None, ...] = ("2", "3", "5", "7", "8", None)
    with ExitStack() as stack:
        pair = twins(
            sqlite_client, stack, "hero-battle", (hb_options(False), hb_options(True)), observers
        )
        for round_number in range(2):
            # wrong in both worlds (a right call-out is published at the compile)
            pair.both("1", "guess Eel=5" if round_number == 0 else "guess Gnu=3")
            for hero in HB_HEROES[:3]:
                pair.both("2", f"hit {hero}, {hero} heal {hero}")
            hits = {
                seat: [a for a in pair.legal(0, seat) if a.startswith("hit")] for seat in ("4", "6")
            }
            twin_move = sorted(
                set(hits["4"]) & set(hits["6"]) & set(pair.legal(1, "4")) & set(pair.legal(1, "6"))
            )[round_number]
            for seat in [str(n) for n in range(1, 9)]:
                if seat in ("4", "6"):
                    pair.both(seat, twin_move)
                else:
                    moves = [a for a in pair.legal(0, seat) if a.startswith("hit")]
                    pair.both(seat, moves[(int(seat) * 7 + round_number) % len(moves)])
            # the last move closes the round (no abstainer: their random hits would
            # differ between the worlds, as the rules say they never hit oneself)
            round_now = pair.client.get(f"/api/matches/{pair.ids[0]}").json()["view"]["round"]
            assert round_now == round_number + 2
        assert pair.compared > 60


def test_hero_battle_private_guess(sqlite_client: TestClient) -> None:
    """Seat 1's guess differs (one right, one wrong): until the round is compiled,
    every other seat and spectators see the same bytes."""
    observers: tuple[str | None, ...] = ("2", "3", "4", "5", "6", "7", "8", None)
    options = hb_options(False)
    with ExitStack() as stack:
        pair = twins(sqlite_client, stack, "hero-battle", (options, options), observers)
        pair.both("1", ("guess Eel=4", "guess Fox=7"))
        for seat in [str(n) for n in range(2, 9)]:
            moves = [a for a in pair.legal(0, seat) if a.startswith("hit")]
            pair.both(seat, moves[int(seat) % len(moves)])
        assert pair.awaiting()[:1] == ["1"]
        assert pair.compared >= 8 * 8


def _diff(a: bytes, b: bytes) -> str:
    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
    return f"...{a[max(0, at - 300) : at + 100]!r}\n...{b[max(0, at - 300) : at + 100]!r}"
