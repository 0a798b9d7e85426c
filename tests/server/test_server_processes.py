"""Real ``gladiatorium serve`` processes: two on one PostgreSQL database (pushes
through LISTEN/NOTIFY, one ply appended once), and a server killed with SIGKILL
mid-game then started again on the same database (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx2
import pytest
from server_helpers import PASSWORD, LiveServer, free_ports, wait_for
from sqlalchemy import event, select, update
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from gladiatorium.cli import main
from gladiatorium.core import get_game
from gladiatorium.core.record import events_digest
from gladiatorium.server.db import Deadline, Match, MatchAction, make_engine, make_sessions, utcnow
from gladiatorium.server.errors import Conflict
from gladiatorium.server.service import MatchService

Start = Callable[..., LiveServer]


class Player:
    """A client without cookies (a bearer token), as a bot in another language is."""

    def __init__(self, server: LiveServer, name: str, register: bool = True) -> None:
        self.server = server
        path = "/api/register" if register else "/api/login"
        answer = httpx2.post(server.url + path, json={"username": name, "password": PASSWORD})
        assert answer.status_code in (200, 201), answer.text
        self.token = answer.json()["token"]
        self.headers = {"authorization": f"Bearer {self.token}"}

    def on(self, server: LiveServer) -> Player:
        other = object.__new__(Player)
        other.server, other.token, other.headers = server, self.token, self.headers
        return other

    def create(self, game: str, seats: dict[str, str], **extra: Any) -> str:
        answer = httpx2.post(
            self.server.url + "/api/matches",
            json={"game": game, "seats": seats, **extra},
            headers=self.headers,
        )
        assert answer.status_code == 201, answer.text
        return str(answer.json()["id"])

    def body(self, match: str, seat: str | None = None) -> dict[str, Any]:
        params = {} if seat is None else {"seat": seat}
        answer = httpx2.get(
            f"{self.server.url}/api/matches/{match}", params=params, headers=self.headers
        )
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    def act(self, match: str, seat: str, action: str) -> httpx2.Response:
        return httpx2.post(
            f"{self.server.url}/api/matches/{match}/actions",
            json={"seat": seat, "action": action},
            headers=self.headers,
            timeout=30,
        )

    def socket(self, match: str, seat: str | None = None, framed: bool = False) -> ClientConnection:
        query = "" if seat is None else f"?seat={seat}"
        if framed:
            query += ("&" if query else "?") + "frames=2"
        return connect(
            f"{self.server.ws_url}/ws/matches/{match}{query}",
            additional_headers=self.headers,
            open_timeout=30,
        )


def receive(ws: ClientConnection, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Messages until one passes ``check`` (a generous timeout, no fixed sleep)."""
    while True:
        message = json.loads(ws.recv(timeout=30))
        if check(message):
            return dict(message)


def stored(database_url: str, match: str) -> tuple[Match, list[MatchAction]]:
    engine = make_engine(database_url)
    try:
        with make_sessions(engine)() as session:
            row = session.get(Match, match)
            assert row is not None
            actions = list(
                session.scalars(
                    select(MatchAction)
                    .where(MatchAction.match_id == match)
                    .order_by(MatchAction.ply)
                )
            )
            return row, actions
    finally:
        engine.dispose()


def replayed_digest(database_url: str, match: str) -> tuple[str, str, int]:
    """(stored digest, digest of the log replayed from the stored record, plies)."""
    row, actions = stored(database_url, match)
    state = get_game(row.game).start(row.options, row.players, row.seed)
    for step in actions:
        state.act(step.seat, step.action)
    return row.digest, events_digest(state), len(actions)


def expire_deadlines(database_url: str, match: str) -> int:
    engine = make_engine(database_url)
    try:
        with make_sessions(engine).begin() as session:
            changed = session.execute(
                update(Deadline)
                .where(Deadline.match_id == match, Deadline.fired.is_(False))
                .values(due_at=utcnow() - timedelta(seconds=1))
            )
            return int(changed.rowcount)  # type: ignore[attr-defined]
    finally:
        engine.dispose()


def pig_move(body: dict[str, Any]) -> str:
    return "hold" if "hold" in body["legal"] and body["view"]["turn_total"] >= 8 else "roll"


def race(match: str, seat: str, attempts: list[tuple[Player, str]]) -> list[httpx2.Response]:
    """Send every attempt at once (one thread each, released together)."""
    barrier = threading.Barrier(len(attempts))
    answers: list[httpx2.Response | None] = [None] * len(attempts)

    def send(index: int) -> None:
        player, action = attempts[index]
        barrier.wait()
        answers[index] = player.act(match, seat, action)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(attempts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert all(a is not None for a in answers)
    return [a for a in answers if a is not None]


def test_two_processes_share_one_postgresql_database(
    live_server: Start, postgres_cluster: Any
) -> None:
    # both start at once on an empty database: one migrates, the other waits for it
    postgres_url = postgres_cluster.new_database(empty=True)
    first = live_server(postgres_url, wait=False)
    second = live_server(postgres_url, wait=False)
    first.ready(), second.ready()
    ada = Player(first, "ada")
    match = ada.create("pig", {"1": "me", "2": "me"}, options={"target": 30})
    on_second = ada.on(second)
    with ada.socket(match, "1") as one, on_second.socket(match, "2") as two:
        receive(one, lambda m: "game" in m)
        receive(two, lambda m: "game" in m)
        for _ in range(6):
            current = ada.body(match)
            if current["outcome"] is not None:
                break
            seat = current["awaiting"][0]
            # the seat's client acts through its own process; the other one is told
            sender, watcher = (one, two) if seat == "1" else (two, one)
            sender.send(json.dumps({"action": pig_move(ada.body(match, seat))}))
            reply = receive(sender, lambda m: "game" not in m)
            assert set(reply) == {"events"}, reply
            after = ada.body(match)
            other_seat = "2" if seat == "1" else "1"
            pushed = receive(watcher, lambda m, n=len(after["events"]): len(m["events"]) >= n)
            assert pushed == ada.on(second if watcher is two else first).body(match, other_seat)
    # on a real server too: another site's page is refused before anything is sent
    # (closed with 4403, as docs/api.md says), and a message over the size limit closes
    # the connection and changes nothing
    with (
        connect(
            f"{first.ws_url}/ws/matches/{match}?seat=1",
            additional_headers={**ada.headers, "origin": "http://evil.example"},
            open_timeout=30,
        ) as refused,
        pytest.raises(ConnectionClosed) as closed,
    ):
        refused.recv(timeout=30)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
    before = ada.body(match)
    with connect(
        f"{first.ws_url}/ws/matches/{match}?seat=1",
        additional_headers={**ada.headers, "origin": first.url},
        open_timeout=30,
    ) as ws:
        assert receive(ws, lambda m: "game" in m) == ada.body(match, "1")
        ws.send(json.dumps({"action": "roll", "pad": "x" * 20_000}))
        with pytest.raises(ConnectionClosed):
            while True:
                ws.recv(timeout=30)
    assert ada.body(match) == before
    # a seat taken through one process is held in the other at once
    open_match = ada.create("pig", {"1": "me", "2": "open"})
    assert on_second.body(open_match, "1")["awaiting"] == ["1"]  # loaded in both
    bob = Player(first, "bob")
    joined = httpx2.post(
        f"{first.url}/api/matches/{open_match}/join", json={"seat": "2"}, headers=bob.headers
    )
    assert joined.status_code == 200
    assert bob.on(second).body(open_match, "2")["game"] == "pig"
    with bob.on(second).socket(open_match, "2") as ws:
        assert receive(ws, lambda m: "game" in m)["awaiting"] == ["1"]
    # a Gladiator Chess race: both processes get a different move for the same ply
    seats = get_game("gladiator-chess").start().seats
    chess = ada.create("gladiator-chess", dict.fromkeys(seats, "me"))
    for _ in range(3):
        current = ada.body(chess)
        seat = current["awaiting"][0]
        legal = ada.body(chess, seat)["legal"]
        on_second.body(chess)  # both processes hold the match in memory at this ply
        moves = (legal[0], legal[-1])  # two different moves when there are two
        answers = race(chess, seat, [(ada, moves[0]), (on_second, moves[1])])
        codes = sorted(a.status_code for a in answers)
        assert codes == [200, 409], [a.text for a in answers]
        winner = moves[0] if answers[0].status_code == 200 else moves[1]
        _, actions = stored(postgres_url, chess)
        assert [a.action for a in actions][-1] == winner
        assert ada.body(chess) == on_second.body(chess)
    row_digest, replay, plies = replayed_digest(postgres_url, chess)
    assert plies == 3 and row_digest == replay


def test_a_round_deadline_reaches_the_pages_of_every_process(
    live_server: Start, postgres_url: str
) -> None:
    """The moderator sets a round's deadline through one process: a player's socket on
    the other process gets the ``deadline`` frame too (its page fetches the deadline),
    as one on the same process does; the notice says what changed."""
    first, second = live_server(postgres_url), live_server(postgres_url)
    mod = Player(first, "deadlinemod")
    open_seats = {str(n): "open" for n in range(2, 9)}
    match = mod.create("hero-battle", {"moderator": "me", "1": "me", **open_seats})
    with (
        mod.socket(match, "1", framed=True) as here,
        mod.on(second).socket(match, "1", framed=True) as there,
    ):
        assert receive(here, lambda m: True)["type"] == "body"
        assert receive(there, lambda m: True)["type"] == "body"
        answer = httpx2.post(
            f"{first.url}/api/matches/{match}/deadline",
            json={"seat": "moderator", "minutes": 45},
            headers=mod.headers,
        )
        assert answer.status_code == 200, answer.text
        assert json.loads(here.recv(timeout=30)) == {"type": "deadline", "ply": 0}
        assert json.loads(there.recv(timeout=30)) == {"type": "deadline", "ply": 0}
    deadlines = httpx2.get(f"{second.url}/api/matches/{match}/posts", headers=mod.headers).json()
    assert [d["kind"] for d in deadlines["deadlines"]] == ["round"], deadlines


@pytest.mark.parametrize("other_seat", [True, False])
def test_the_unique_ply_key_refuses_a_second_append(postgres_url: str, other_seat: bool) -> None:
    """Deterministically: a process whose copy is one ply behind (it has not caught up
    yet) loses the append of that ply to the unique key. It catches up from the
    database; an action of another seat of the same round (Super Dice Heroes heroes
    choosing side by side) is then applied at the next ply, while a seat that acted
    meanwhile itself (Pig: seat 1 rolled through the other process) gets 409. Nothing
    is lost, nothing is stored twice."""
    engines = [make_engine(postgres_url) for _ in range(2)]
    from gladiatorium.server.db import migrate

    migrate(engines[0])
    services = [MatchService(make_sessions(e), lambda _id: None, True) for e in engines]
    try:
        game, late = ("super-dice-heroes", "2") if other_seat else ("pig", "1")
        match = services[0].creation.create(None, game, None, None, {}, seed=1).id
        services[1].store.live(match)  # the second process holds the match at ply 0
        first = services[0].play.body(match, "1")["legal"][0]
        second = services[1].play.body(match, late)["legal"][0]
        services[0].play.submit(match, "1", first)
        stale = services[1].store._live[match]
        stale_ply = stale.ply
        catch_up = services[1].store._catch_up
        services[1].store._catch_up = lambda live: None  # type: ignore[method-assign]
        try:
            if other_seat:
                services[1].play.submit(match, late, second)
            else:
                with pytest.raises(Conflict, match="moved on while you acted"):
                    services[1].play.submit(match, late, second)
        finally:
            services[1].store._catch_up = catch_up  # type: ignore[method-assign]
        assert stale_ply == 0
        _, actions = stored(postgres_url, match)
        expected = [(0, "1", first)] + ([(1, late, second)] if other_seat else [])
        assert [(a.ply, a.seat, a.action) for a in actions] == expected
        # the loser rebuilt from the database and goes on from the committed ply
        assert services[1].store.live(match).ply == len(expected)
        assert services[1].play.body(match, None) == services[0].play.body(match, None)
    finally:
        for engine in engines:
            engine.dispose()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_kill_9_loses_no_acknowledged_action_and_deadlines_fire_after(
    live_server: Start, backend: str, request: pytest.FixtureRequest, tmp_path: Any
) -> None:
    if backend == "sqlite":
        url = f"sqlite:///{tmp_path / 'crash.db'}"
    else:
        url = request.getfixturevalue("postgres_url")
    server = live_server(url, GLADIATORIUM_BOT_DELAY="0.05")
    ada = Player(server, "ada")
    match = ada.create("pig", {"1": "me", "2": "me"}, options={"target": 25})
    clock = ada.create("pig", {"1": "me", "2": "me"}, settings={"clock_days": 2})
    bots = ada.create("pig", {"1": "bot:random", "2": "bot:random"}, options={"target": 1000})
    acknowledged: list[tuple[str, str]] = []
    with ada.socket(match, "1") as one, ada.socket(match, "2") as two:
        sockets = {"1": one, "2": two}
        for seat_socket in sockets.values():
            receive(seat_socket, lambda m: "game" in m)
        for _ in range(8):
            seat = ada.body(match)["awaiting"][0]
            action = pig_move(ada.body(match, seat))
            sockets[seat].send(json.dumps({"action": action}))
            reply = receive(sockets[seat], lambda m: "game" not in m)
            assert set(reply) == {"events"}, reply
            acknowledged.append((seat, action))
        before = ada.body(match)
    wait_for(lambda: stored(url, bots)[0].ply > 0, what="the bots to start")
    server.kill()

    _, actions = stored(url, match)
    assert [(a.seat, a.action) for a in actions] == acknowledged
    digest, replay, _ = replayed_digest(url, match)
    assert digest == replay
    bot_plies = stored(url, bots)[0].ply
    assert expire_deadlines(url, clock) == 1  # time passed while the server was down

    server.start()
    assert ada.body(match) == before
    over = wait_for(
        lambda: (b := ada.body(clock))["outcome"] is not None and b,
        what="the clock deadline to fire after the restart",
    )
    assert over["outcome"]["reason"] == "time" and over["outcome"]["winners"] == ["2"]
    # the bots go on by themselves, the people over the WebSocket, to the end
    wait_for(lambda: stored(url, bots)[0].ply > bot_plies, what="the bots to resume")
    with ada.socket(match, "1") as one, ada.socket(match, "2") as two:
        sockets = {"1": one, "2": two}
        for seat_socket in sockets.values():
            assert receive(seat_socket, lambda m: "game" in m)["events"] == before["events"]
        for _ in range(400):
            current = ada.body(match)
            if current["outcome"] is not None:
                break
            seat = current["awaiting"][0]
            sockets[seat].send(json.dumps({"action": pig_move(ada.body(match, seat))}))
            assert "events" in receive(sockets[seat], lambda m: "game" not in m)
    assert ada.body(match)["outcome"] is not None
    record = httpx2.get(f"{server.url}/api/matches/{match}/record", headers=ada.headers).json()
    assert [(a["seat"], a["action"]) for a in record["actions"]][: len(acknowledged)] == (
        acknowledged
    )
    digest, replay, plies = replayed_digest(url, match)
    assert digest == replay == record["digest"] and plies == len(record["actions"])


def test_a_move_racing_a_flag_in_another_process_is_refused(postgres_url: str) -> None:
    """One process flags the awaited seat (its clock ran out) while another, whose copy
    has not seen it yet, commits that seat's move: the move is refused with 409 and
    the loss on time stands."""
    engines = [make_engine(postgres_url) for _ in range(2)]
    from gladiatorium.server.db import migrate

    migrate(engines[0])
    services = [MatchService(make_sessions(e), lambda _id: None, True) for e in engines]
    try:
        match = services[0].creation.create(None, "pig", None, None, {}, {"clock_days": 1}).id
        services[1].store.live(match)
        with services[0].store.sessions() as session:
            deadline = session.scalars(select(Deadline).where(Deadline.match_id == match)).one()
        services[0].deadlines.fire(deadline)
        assert services[0].store.live(match).over
        catch_up = services[1].store._catch_up
        services[1].store._catch_up = lambda live: None  # type: ignore[method-assign]
        try:
            with pytest.raises(Conflict):
                services[1].play.submit(match, "1", "roll")
        finally:
            services[1].store._catch_up = catch_up  # type: ignore[method-assign]
        row, actions = stored(postgres_url, match)
        assert actions == [] and row.status == "over"
        assert row.outcome is not None and row.outcome["reason"] == "time"
        assert services[1].play.body(match, None)["outcome"]["winners"] == ["2"]
    finally:
        for engine in engines:
            engine.dispose()


def test_a_copy_told_of_steps_reads_only_the_actions_it_lacks(postgres_url: str) -> None:
    """Told by a notice that another process appended steps and nothing else (``hub.STEP``),
    a copy in memory reads the actions after its ply, one statement; told of anything
    else too (seats, an adjudication: a plain notice, even with steps since), it reads
    the match and its seats as well. Either way it ends where the writer is. The writer
    sends a step's notice with the match's ``UPDATE``, in the step's one statement
    (its actions appended, the match moved on, its turns written: ``appends._STEP``)."""
    engines = [make_engine(postgres_url) for _ in range(2)]
    from gladiatorium.server.db import migrate

    migrate(engines[0])
    services = [MatchService(make_sessions(e), lambda _id: None, True) for e in engines]
    statements: list[str] = []
    written: list[str] = []
    event.listen(engines[1], "before_cursor_execute", lambda *a: statements.append(a[2]))
    event.listen(engines[0], "before_cursor_execute", lambda *a: written.append(a[2]))
    try:
        services[1].store.trust_notices(True)  # as while its listener listens
        match = services[0].creation.create(None, "pig", None, None, {}, seed=3).id
        copy = services[1].store.live(match)
        written.clear()
        services[0].play.submit(match, "1", "roll")  # the writer tells in the match's UPDATE
        step = [s for s in written if not s.lstrip().startswith("SELECT")]  # its catch-up
        assert len(step) == 1, written  # the step is one statement
        for part in ("INSERT INTO match_actions", "UPDATE matches", "pg_notify", "awaited_seats"):
            assert part in step[0], (part, written)
        for steps_only in (True, False, None):  # None: a plain notice after a step's
            for _ in range(2):
                seat = services[0].play.body(match, None)["awaiting"][0]
                services[0].play.submit(match, seat, "roll")
                services[1].store.mark_stale(match, steps_only=steps_only is not False)
            if steps_only is None:
                services[1].store.mark_stale(match)
            statements.clear()
            assert services[1].store.live(match) is copy
            assert copy.ply == services[0].store.live(match).ply
            assert services[1].play.body(match, "1") == services[0].play.body(match, "1")
            read = [" ".join(s.split()[:6]) for s in statements]
            if steps_only:
                assert len(read) == 1 and "FROM match_actions" in statements[0], read
            else:
                assert any("FROM match_seats" in s for s in statements), read
                assert any("FROM matches" in s for s in statements), read
    finally:
        for engine in engines:
            engine.dispose()


GLADIATORIUM = str(Path(sys.executable).parent / "gladiatorium")


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def test_serve_workers_runs_processes_on_one_port_sharing_matches(
    live_server: Start, postgres_url: str, tmp_path: Path
) -> None:
    sqlite = f"sqlite:///{tmp_path / 'one.db'}"
    refused = subprocess.run(
        [GLADIATORIUM, "serve", "--workers", "2", "--database-url", sqlite],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode == 2 and "through PostgreSQL" in refused.stderr, refused.stderr
    # the ``gladiatorium`` script itself, as a user starts it (the other tests' servers
    # are forked from a process that imported the server already: tests/preloaded.py)
    server = live_server(postgres_url, args=("--workers", "2"), preloaded=False)
    assert server.process is not None
    parent = server.process.pid
    workers = wait_for(lambda: len(children_of(parent)) == 2 and children_of(parent))
    ada = Player(server, "ada")
    match = ada.create("pig", {"1": "me", "2": "me"}, options={"target": 1000})
    with ada.socket(match, "2") as watcher:
        receive(watcher, lambda m: "game" in m)
        for _ in range(12):  # a new connection for each request: either process takes it
            seat = ada.body(match)["awaiting"][0]
            assert ada.act(match, seat, "roll").status_code == 200
            told = len(ada.body(match)["events"])
            receive(watcher, lambda m, n=told: len(m.get("events", [])) >= n)
    for _ in range(30):
        ada.body(match, "1")
    pids = {str(pid) for pid in workers}

    def served() -> set[str]:  # the processes whose log lines show a GET (written by a thread)
        return set(re.findall(r"\[(\d+)\] gladiatorium\S* GET /api/matches/", server.log()))

    wait_for(lambda: served() == pids, what=f"both processes' lines (so far {served()})")
    row_digest, replay, plies = replayed_digest(postgres_url, match)
    assert plies == 12 and row_digest == replay
    server.process.terminate()  # the parent passes it on: every process stops
    assert server.process.wait(30) == 0
    wait_for(lambda: not any(alive(pid) for pid in workers))
    # each process on a port of its own too (a front routes a match to one of them)
    own = free_ports(2)
    again = live_server(postgres_url, args=("--workers", "2", "--worker-ports", str(own)))
    assert again.process is not None
    parent = again.process.pid
    workers = wait_for(lambda: len(children_of(parent)) == 2 and children_of(parent))
    matches = [ada.on(again).create("pig", {"1": "me", "2": "me"}) for _ in range(2)]
    for index, routed in enumerate(matches):
        for _ in range(8):  # a new connection for each request, always to the same process
            answer = httpx2.get(
                f"http://127.0.0.1:{own + index}/api/matches/{routed}", headers=ada.headers
            )
            assert answer.status_code == 200, answer.text
    wait_for(lambda: again.log().count(" GET /api/matches/") >= 16, what="the 16 GETs' lines")
    by = [set(re.findall(rf"\[(\d+)\] \S+ GET /api/matches/{m} ", again.log())) for m in matches]
    assert len(by[0]) == len(by[1]) == 1 and by[0] != by[1], by  # one process each
    assert by[0] | by[1] == {str(pid) for pid in workers}
    again.kill()  # kill -9 of the parent: the kernel stops the processes too
    wait_for(lambda: not any(alive(pid) for pid in workers))


def test_worker_ports_are_for_several_processes() -> None:
    """``--worker-ports`` without ``--workers``, or past the last port: refused, named."""
    runner = CliRunner()
    alone = runner.invoke(main.app, ["serve", "--worker-ports", "9000"])
    assert alone.exit_code == 2 and "add --workers" in alone.output, alone.output
    past = runner.invoke(main.app, ["serve", "--workers", "4", "--worker-ports", "65534"])
    assert past.exit_code == 2 and "pass 65535" in past.output, past.output


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its parent's wait() does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
