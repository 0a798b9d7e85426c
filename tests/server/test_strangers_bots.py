"""Bots, deadlines and commits in front of strangers, against real ``gladiatorium serve``
processes on SQLite and PostgreSQL: bots take turns (a few long bot-only matches do not
stop a person's bot opponent), a deadline fires exactly once whatever is killed when,
only the moderator (or the creator) sets deadlines and within bounds, and two seats
acting at once through two processes are both accepted."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from server_helpers import LiveServer, wait_for
from sqlalchemy import select
from sqlalchemy.exc import OperationalError
from test_server_processes import Player, expire_deadlines, replayed_digest, stored

from gladiatorium.core import get_game
from gladiatorium.server import appends
from gladiatorium.server.db import Deadline, Match, make_engine, make_sessions, utcnow
from gladiatorium.server.service import MatchService
from gladiatorium.server.workers import Scheduler

Start = Callable[..., LiveServer]

#: the exit status of a server told to die right after a deadline's claim
FAULT_EXIT = 70


#: the creation rate for tests that set up more matches than a person would a minute
MANY = "1000/minute"


def deadlines_of(database_url: str, match: str) -> list[tuple[int, str, int, bool]]:
    """(id, kind, ply, fired) of every deadline of ``match``, by id."""
    engine = make_engine(database_url)
    try:
        with make_sessions(engine)() as session:
            rows = session.scalars(
                select(Deadline).where(Deadline.match_id == match).order_by(Deadline.id)
            )
            return [(d.id, d.kind, d.ply, d.fired) for d in rows]
    finally:
        engine.dispose()


def plies(database_url: str, matches: list[str]) -> list[int]:
    engine = make_engine(database_url)
    try:
        with make_sessions(engine)() as session:
            found = dict(
                session.execute(select(Match.id, Match.ply).where(Match.id.in_(matches))).all()
            )
        return [int(found[m]) for m in matches]
    finally:
        engine.dispose()


# ----- bots take turns ------------------------------------------------------------------
def test_long_bot_matches_do_not_stop_a_persons_bot_opponent(
    live_server: Start, database_url: str
) -> None:
    """Eight long bot-only Pig matches (to 10000) start first; then a person plays a
    bot. The person's bot opponent answers each of several turns, and every bot-only
    match keeps moving meanwhile (four drivers used to stay with four matches until
    they ended, and every other bot waited)."""
    server = live_server(database_url, GLADIATORIUM_BOT_DELAY="0.01")
    long_matches = [
        Player(server, f"bots{n}").create(
            "pig", {"1": "bot:random", "2": "bot:random"}, options={"target": 10000}
        )
        for n in range(8)
    ]
    wait_for(
        lambda: all(p > 0 for p in plies(database_url, long_matches)),
        60,
        "every bot-only match to start",
    )
    ada = Player(server, "ada")
    match = ada.create("pig", {"1": "me", "2": "bot:random"}, options={"target": 10000})
    for turn in range(4):
        before = plies(database_url, long_matches)
        current = ada.body(match, "1")
        assert current["awaiting"] == ["1"], (turn, current["awaiting"])
        turn_ends = stored(database_url, match)[0].ply + 1
        answer = ada.act(match, "1", "roll")
        assert answer.status_code == 200, answer.text
        rolled = [e["text"] for e in answer.json()["events"] if e["kind"] == "roll"]
        if rolled != ["1 rolls 1"]:  # no 1 rolled: end the turn
            assert ada.act(match, "1", "hold").status_code == 200
            turn_ends += 1
        # the bot played its turn (it rolled a 1 or held) and the person is awaited again
        wait_for(
            lambda n=turn_ends: (
                stored(database_url, match)[0].ply > n and ada.body(match, "1")["awaiting"] == ["1"]
            ),
            60,
            f"the person's bot opponent to play its turn {turn + 1}",
        )
        after = wait_for(
            lambda b=before: (
                (now := plies(database_url, long_matches))
                and all(x > y for x, y in zip(now, b, strict=True))
                and now
            ),
            60,
            "every bot-only match to move on too",
        )
        assert all(x > y for x, y in zip(after, before, strict=True))
    assert ada.body(match)["outcome"] is None


# ----- deadlines fire exactly once ---------------------------------------------------------
@pytest.mark.parametrize("kind", ["round", "clock"])
def test_a_server_killed_at_a_deadlines_claim_fires_it_after_the_restart(
    live_server: Start, database_url: str, kind: str
) -> None:
    """The server is told (a test-only fault) to die right after claiming a due
    deadline, before its transaction commits: the claim is lost with the time-outs,
    and after the restart the deadline fires, once (a round: the late hero is timed
    out and the next round gets its own deadline; a clock: the late seat loses)."""
    server = live_server(database_url, GLADIATORIUM_FAULT_EXIT_AFTER_CLAIM="1")
    ada = Player(server, "ada")
    if kind == "round":
        match = ada.create(
            "super-dice-heroes", {"1": "me", "2": "me"}, settings={"round_minutes": 60}
        )
        first = ada.body(match, "1")
        while "1" in (current := ada.body(match, "1"))["awaiting"]:
            assert ada.act(match, "1", current["legal"][0]).status_code == 200
        assert first["view"]["round"] == current["view"]["round"]
    else:
        match = ada.create("pig", {"1": "me", "2": "me"}, settings={"clock_days": 1})
    row, actions = stored(database_url, match)
    pending = [d for d in deadlines_of(database_url, match) if not d[3]]
    assert [d[1] for d in pending] == [kind]
    assert expire_deadlines(database_url, match) == 1
    assert server.process is not None
    server.process.wait(60)
    assert server.process.returncode == FAULT_EXIT, server.log()
    # nothing of the deadline was kept: neither its claim nor its effect
    assert deadlines_of(database_url, match)[-1] == (*pending[0][:3], False)
    assert len(stored(database_url, match)[1]) == len(actions)
    assert stored(database_url, match)[0].status == "running"

    del server.env["GLADIATORIUM_FAULT_EXIT_AFTER_CLAIM"]
    server.start()
    if kind == "round":
        after = wait_for(
            lambda: (b := ada.body(match, "1"))["view"]["round"] != first["view"]["round"] and b,
            60,
            "the round deadline to fire after the restart",
        )
        assert after["outcome"] is None
        late = stored(database_url, match)[1][len(actions) :]
        state = get_game("super-dice-heroes").start(row.options, row.players, row.seed)
        for step in actions:
            state.act(step.seat, step.action)
        assert [(a.seat, a.action) for a in late] == [
            ("2", str(a)) for a in get_game("super-dice-heroes").timeout_actions(state, "2")
        ]
        rows = deadlines_of(database_url, match)
        assert rows[0] == (*pending[0][:3], True)
        assert [(d[1], d[3]) for d in rows[1:]] == [("round", False)]  # the next round's
    else:
        over = wait_for(
            lambda: (b := ada.body(match))["outcome"] is not None and b,
            60,
            "the clock to run out after the restart",
        )
        assert over["outcome"]["reason"] == "time" and over["outcome"]["winners"] == ["2"]
        assert deadlines_of(database_url, match) == [(*pending[0][:3], True)]
        assert stored(database_url, match)[1] == []
    digest, replay, _ = replayed_digest(database_url, match)
    assert digest == replay


def test_a_failing_commit_leaves_the_deadline_to_fire_again(client: TestClient) -> None:
    """In process, on both backends: the transaction that applies a due deadline fails
    after its claim (the database went away): the deadline is not left marked fired
    (it used to be claimed in a transaction of its own), nothing was appended, and the
    scheduler's next tick fires it, once."""
    service: MatchService = client.app.state.service  # type: ignore[attr-defined]
    scheduler: Scheduler = client.app.state.scheduler  # type: ignore[attr-defined]
    scheduler.stopping.set()  # its ticks are run by hand below
    scheduler.join(30)
    match = service.creation.create(
        None, "super-dice-heroes", None, None, {}, {"round_minutes": 60}
    ).id
    with service.store.sessions.begin() as session:
        deadline = session.scalars(select(Deadline).where(Deadline.match_id == match)).one()
        deadline.due_at = utcnow() - timedelta(seconds=1)
        deadline_id = deadline.id

    def fails(*args: Any) -> None:  # the match's UPDATE, as its check sees it
        raise OperationalError("UPDATE matches", {}, Exception("the database went away"))

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(appends, "moved_on", fails)
        with pytest.raises(OperationalError):
            scheduler.tick()
    with service.store.sessions() as session:
        assert session.get(Deadline, deadline_id).fired is False  # type: ignore[union-attr]
    assert service.store.live(match).ply == 0
    assert scheduler.tick() == 1
    assert scheduler.tick() == 0  # once only
    live = service.store.live(match)
    assert {seat for seat, _ in live.state.history} == {"1", "2"}
    assert live.game.round_number(live.state) == 1


def round_fired_once(database_url: str, match: str, stopped: bool = False) -> bool:
    """Round 0's deadline of a two-hero Super Dice Heroes match is either untouched
    (unfired, nothing timed out) or fired exactly once (both heroes' power chosen by the
    time-out, round 1 has its own deadline); anything else fails the test. The
    deadlines are read first: their claim commits with the time-outs, so a fired one's
    time-outs are there when read after (an unfired one's are checked only once the
    server is ``stopped``: it may fire between the two reads)."""
    rows = [(kind, ply, fired) for _, kind, ply, fired in deadlines_of(database_url, match)]
    _, actions = stored(database_url, match)
    if rows == [("round", 0, False)]:
        assert actions == [] or not stopped, (match, actions)
        return False
    assert rows == [("round", 0, True), ("round", 1, False)], (match, rows)
    assert sorted(a.seat for a in actions) == ["1", "2"], (match, actions)
    return True


def test_kill_9_while_deadlines_fire_loses_none_and_fires_none_twice(
    live_server: Start, database_url: str
) -> None:
    """A dozen round deadlines fall due at once and the server is killed with SIGKILL
    while it fires them: every deadline is, in the database, untouched or fired once
    with its time-outs (never fired without them); after the restart all have fired,
    once each."""
    server = live_server(database_url, GLADIATORIUM_MATCH_RATE=MANY)
    ada = Player(server, "ada")
    matches = [
        ada.create("super-dice-heroes", {"1": "me", "2": "me"}, settings={"round_minutes": 60})
        for _ in range(12)
    ]
    for match in matches:
        ada.body(match)
    for match in matches:
        assert expire_deadlines(database_url, match) == 1
    wait_for(
        lambda: any(round_fired_once(database_url, m) for m in matches),
        60,
        "the first deadline to fire",
    )
    server.kill()
    states = [round_fired_once(database_url, m, stopped=True) for m in matches]
    server.start()
    wait_for(
        lambda: all(round_fired_once(database_url, m) for m in matches),
        60,
        f"every deadline to fire after the restart (fired before the kill: {states})",
    )
    for match in matches:
        digest, replay, _ = replayed_digest(database_url, match)
        assert digest == replay


def test_two_processes_fire_each_deadline_once(live_server: Start, postgres_url: str) -> None:
    """Two servers on one PostgreSQL database, both schedulers running: a dozen round
    deadlines made due at once each fire exactly once."""
    first = live_server(postgres_url, GLADIATORIUM_MATCH_RATE=MANY)
    second = live_server(postgres_url, GLADIATORIUM_MATCH_RATE=MANY)
    ada = Player(first, "ada")
    matches = [
        ada.create("super-dice-heroes", {"1": "me", "2": "me"}, settings={"round_minutes": 60})
        for _ in range(12)
    ]
    for match in matches:
        ada.on(second).body(match)  # both processes hold every match
        assert expire_deadlines(postgres_url, match) == 1
    for match in matches:
        wait_for(
            lambda m=match: ada.body(m, "1")["view"]["round"] == 1, 60, f"match {match} to time out"
        )
        _, actions = stored(postgres_url, match)
        assert sorted(a.seat for a in actions) == ["1", "2"]  # one choice each, once
        rows = deadlines_of(postgres_url, match)
        assert [(d[1], d[2], d[3]) for d in rows] == [("round", 0, True), ("round", 1, False)]
        assert ada.on(second).body(match) == ada.body(match)


# ----- who sets deadlines ------------------------------------------------------------------
def post_deadline(player: Player, match: str, **data: Any) -> httpx2.Response:
    return httpx2.post(
        f"{player.server.url}/api/matches/{match}/deadline",
        json=data,
        headers=player.headers,
        timeout=30,
    )


def form_deadline(player: Player, match: str, seat: str, minutes: str) -> httpx2.Response:
    """The moderator console's form, with the session cookie and a CSRF pair."""
    return httpx2.post(
        f"{player.server.url}/matches/{match}/deadline",
        data={"csrf": "pair", "seat": seat, "minutes": minutes},
        headers={"cookie": f"gladiatorium_session={player.token}; gladiatorium_csrf=pair"},
        timeout=30,
    )


def join(player: Player, match: str, seat: str) -> None:
    answer = httpx2.post(
        f"{player.server.url}/api/matches/{match}/join", json={"seat": seat}, headers=player.headers
    )
    assert answer.status_code == 200, answer.text


def test_only_the_creator_sets_a_super_dice_heroes_deadline_within_bounds(
    live_server: Start, database_url: str
) -> None:
    """Super Dice Heroes has no moderator: another hero's deadline (the audit's
    ``{"seat": "2", "minutes": 0.0001}``) is refused and times nobody out; the creator
    may set one, not under a minute and not beyond the match's round_minutes."""
    server = live_server(database_url)
    ada, bob = Player(server, "ada"), Player(server, "bob")
    match = ada.create(
        "super-dice-heroes", {"1": "me", "2": "open"}, settings={"round_minutes": 60}
    )
    join(bob, match, "2")
    before = deadlines_of(database_url, match)
    for attempt in (
        post_deadline(bob, match, seat="2", minutes=0.0001),
        post_deadline(bob, match, seat="2", minutes=30),
        post_deadline(bob, match, minutes=30),
    ):
        assert attempt.status_code == 403, attempt.text
        assert attempt.json()["error"] == "only the match's creator sets this match's deadlines"
    stolen = post_deadline(bob, match, seat="1", minutes=30)
    assert stolen.status_code == 403 and "you do not hold seat '1'" in stolen.json()["error"]
    form = form_deadline(bob, match, "2", "0.0001")
    assert form.status_code == 403 and "creator" in form.text
    for minutes, reason in ((0.0001, "minutes: at least 1"), (61, "minutes: at most 60")):
        refused = post_deadline(ada, match, seat="1", minutes=minutes)
        assert refused.status_code == 422 and refused.json()["error"].startswith(reason)
    big = post_deadline(ada, match, seat="1", minutes=10**400)
    assert big.status_code in (400, 422) and "minutes" in big.text
    assert form_deadline(ada, match, "1", "0.5").status_code == 400
    assert deadlines_of(database_url, match) == before
    assert bob.body(match, "2")["awaiting"] == ["1", "2"]  # nobody was timed out
    assert post_deadline(ada, match, seat="1", minutes=30).status_code == 200
    assert post_deadline(ada, match, minutes=45).status_code == 200  # no seat needed
    assert form_deadline(ada, match, "1", "50").status_code == 303
    assert [(d[1], d[3]) for d in deadlines_of(database_url, match)] == [
        ("round", True),
        ("round", True),
        ("round", True),
        ("round", False),
    ]


def test_a_hero_battle_deadline_is_the_moderators(live_server: Start, database_url: str) -> None:
    """A moderator seat held by a person: only that seat sets deadlines (not a player,
    not the creator through another seat). A moderator the server runs: the creator."""
    server = live_server(database_url, GLADIATORIUM_MIN_DEADLINE_MINUTES="0.5")
    mod, bob = Player(server, "mod"), Player(server, "bob")
    players = [str(n) for n in range(1, 9)]
    held = mod.create(
        "hero-battle",
        {"moderator": "me", "1": "me"} | {p: "open" for p in players[1:]},
        settings={"round_minutes": 120},
    )
    join(bob, held, "2")
    as_player = post_deadline(bob, held, seat="2", minutes=30)
    assert as_player.status_code == 403
    assert as_player.json()["error"] == (
        "seat: only the moderator (seat moderator) sets this match's deadlines"
    )
    assert post_deadline(mod, held, seat="1", minutes=30).status_code == 403
    assert post_deadline(mod, held, minutes=30).status_code == 403
    assert form_deadline(bob, held, "2", "30").status_code == 403
    assert post_deadline(mod, held, seat="moderator", minutes=0.4).status_code == 422
    assert post_deadline(mod, held, seat="moderator", minutes=0.5).status_code == 200  # the env
    assert form_deadline(mod, held, "moderator", "90").status_code == 303
    assert post_deadline(mod, held, seat="moderator", minutes=121).status_code == 422
    console = httpx2.get(
        f"{server.url}/matches/{held}?seat=moderator",
        headers={"cookie": f"gladiatorium_session={mod.token}"},
        timeout=30,
    )
    assert 'name="minutes" min="1" step="any" value="120"' in console.text  # a valid default
    # the server runs the moderator: the creator sets the deadline, a player may not
    run = mod.create(
        "hero-battle",
        {"moderator": "server", "1": "me"} | {p: "open" for p in players[1:]},
        settings={"round_minutes": 120},
    )
    join(bob, run, "2")
    assert post_deadline(bob, run, seat="2", minutes=30).status_code == 403
    assert post_deadline(mod, run, seat="1", minutes=30).status_code == 200
    assert post_deadline(mod, run, seat="1", minutes=121).status_code == 422


# ----- two processes, simultaneous moves -----------------------------------------------------
def test_simultaneous_moves_through_two_processes_are_all_accepted(
    live_server: Start, postgres_url: str
) -> None:
    """Two Super Dice Heroes seats act at the same moment, each through its own server
    process on one PostgreSQL database: the one whose ply the other took catches up
    and applies its action after it (still legal: the seats play side by side), so no
    legal action gets a 409; the stored record replays to the stored digest."""
    first, second = live_server(postgres_url), live_server(postgres_url)
    ada = Player(first, "ada")
    through = {"1": ada, "2": ada.on(second)}
    trials, conflicts, matches = 0, 0, []
    while trials < 40:
        match = ada.create("super-dice-heroes", {"1": "me", "2": "me"})
        matches.append(match)
        while trials < 40:
            current = ada.body(match)
            if current["outcome"] is not None:
                break
            legal = {seat: through[seat].body(match, seat)["legal"] for seat in ("1", "2")}
            if not all(legal.values()):  # one seat is done with its round: the other plays
                seat = next(s for s, moves in legal.items() if moves)
                assert through[seat].act(match, seat, legal[seat][0]).status_code == 200
                continue
            answers = at_once(
                [
                    lambda s=seat, m=match, moves=legal[seat]: through[s].act(m, s, moves[0])
                    for seat in ("1", "2")
                ]
            )
            trials += 1
            conflicts += sum(a.status_code == 409 for a in answers)
            assert all(a.status_code in (200, 409) for a in answers), [a.text for a in answers]
    assert (trials, conflicts) == (40, 0)
    for match in matches:
        digest, replay, _ = replayed_digest(postgres_url, match)
        assert digest == replay
        assert through["1"].body(match) == through["2"].body(match)


def at_once(calls: list[Callable[[], httpx2.Response]]) -> list[httpx2.Response]:
    """Run every call at the same moment (one thread each, released together)."""
    barrier = threading.Barrier(len(calls))
    answers: list[httpx2.Response | None] = [None] * len(calls)

    def run(index: int) -> None:
        barrier.wait()
        answers[index] = calls[index]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert all(a is not None for a in answers)
    return [a for a in answers if a is not None]


def test_actions_racing_deadlines_in_another_process(live_server: Start, postgres_url: str) -> None:
    """Two servers on one PostgreSQL database: a hero chooses through one while the
    round's deadline falls due (both schedulers run). Every answer is 200, or a refusal
    because the deadline timed the hero out first (409, or 400 when the process had
    caught up before reading the action: not legal in the next round), never a server
    error or a deadlock, and each hero's choice is stored exactly once, by the hero or
    by the time-out."""
    first = live_server(postgres_url, GLADIATORIUM_MATCH_RATE=MANY)
    second = live_server(postgres_url, GLADIATORIUM_MATCH_RATE=MANY)
    ada = Player(first, "ada")
    on_second = ada.on(second)
    codes = []
    for _ in range(12):
        match = ada.create(
            "super-dice-heroes", {"1": "me", "2": "me"}, settings={"round_minutes": 60}
        )
        choice = on_second.body(match, "2")["legal"][0]
        ada.body(match)
        answers = at_once(
            [
                lambda m=match, c=choice: on_second.act(m, "2", c),
                lambda m=match: httpx2.Response(200 + expire_deadlines(postgres_url, m) - 1),
            ]
        )
        codes.append(answers[0].status_code)
        assert answers[0].status_code in (200, 400, 409), answers[0].text
        if answers[0].status_code == 400:
            assert "is not a legal action for seat 2" in answers[0].json()["error"]
        wait_for(lambda m=match: round_fired_once(postgres_url, m), 60, f"match {match}'s deadline")
        assert ada.body(match, "1") == on_second.body(match, "1")
    assert set(codes) <= {200, 400, 409}
