"""After the match: a finished Hero Battle replayed through a real server process shows
each visitor what their seat (or a spectator) could know at every step, no more; what
the end makes public is the game's decision (``Game.revealed_at_end``); the whole
record, which holds every secret, goes only to a seat that knew them all."""

from __future__ import annotations

import html
import json
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx2
import pytest
from server_helpers import PASSWORD, LiveServer

from gladiatorium import games
from gladiatorium.core import get_game
from gladiatorium.games.hero_battle.state import HeroBattleState

Start = Callable[..., LiveServer]

HEROES = ("Ant", "Bat", "Cat", "Dog", "Eel", "Fox", "Gnu", "Hog")
PLAYERS = tuple(str(n) for n in range(1, 9))
#: who plays which hero: seat 1 Bat, 2 Cat, 3 Dog, 4 Eel, 5 Fox, 6 Gnu, 7 Hog, 8 Ant
DEAL = HEROES[1:] + HEROES[:1]
OPTIONS: dict[str, Any] = {
    "signups": HEROES,
    "assign_heroes": DEAL,
    "assign_nemeses": [sorted((HEROES[(i + 2) % 8], HEROES[(i + 3) % 8])) for i in range(8)],
    # nobody dies: no identity is ever made public, except by a right call-out
    "starting_hp": 60,
    "anonymous_rounds": [2],
    "max_rounds": 2,
}
MOVES = {  # round 1, in the open
    "1": "hit Cat, Dog heal Bat",
    "2": "hit Dog, Eel heal Cat",
    "3": "hit Eel, Fox heal Dog",
    "4": "hit Fox, Gnu heal Eel",
    "5": "hit Gnu, Hog heal Fox",
    "6": "hit Ant, Hog heal Gnu",
    "7": "hit Ant, Bat heal Hog",
    "8": "hit Bat, Cat heal Ant",
}
ANONYMOUS = {  # round 2: hits sent privately
    "1": "hit Ant, Cat heal Hog",
    "2": "hit Ant, Bat heal Hog",
    "3": "hit Eel, Fox heal Hog",
    "4": "hit Ant, Gnu heal Cat",
    "5": "hit Bat, Gnu heal Cat",
    "6": "hit Cat, Dog heal Eel",
    "7": "hit Dog, Fox heal Bat",
    "8": "hit Eel, Hog heal Fox",
}


@dataclass
class Visitor:
    """A client of the live server: an account (the creator), a guest holding one seat
    by its invitation cookie, or an anonymous visitor."""

    server: LiveServer
    client: httpx2.Client = field(init=False)

    def __post_init__(self) -> None:
        self.client = httpx2.Client(base_url=self.server.url, timeout=60)

    def get(self, path: str, **params: Any) -> httpx2.Response:
        return self.client.get(path, params=params)

    def post(self, path: str, data: dict[str, Any]) -> httpx2.Response:
        return self.client.post(path, json=data, headers={"origin": self.server.url})

    def act(self, match: str, seat: str, action: str) -> None:
        answer = self.post(f"/api/matches/{match}/actions", {"seat": seat, "action": action})
        assert answer.status_code == 200, (seat, action, answer.text)

    def replay(self, match: str, step: int, seat: str | None) -> str:
        params: dict[str, Any] = {"step": step}
        if seat is not None:
            params["seat"] = seat
        answer = self.get(f"/matches/{match}/replay", **params)
        assert answer.status_code == 200, answer.text
        return answer.text


@dataclass
class Battle:
    """A Hero Battle created by ada (the moderator's seat), each player a guest."""

    server: LiveServer
    ada: Visitor
    guests: dict[str, Visitor]
    id: str = ""

    def start(self, options: dict[str, Any]) -> Battle:
        seats = dict.fromkeys(PLAYERS, "invite") | {"moderator": "me"}
        answer = self.ada.post(
            "/api/matches", {"game": "hero-battle", "options": options, "seats": seats}
        )
        assert answer.status_code == 201, answer.text
        self.id = answer.json()["id"]
        for seat, url in answer.json()["invites"].items():
            taken = self.guests[seat].client.get("/invite/" + url.split("/invite/", 1)[1])
            assert taken.status_code == 303, taken.text
        return self

    def act(self, seat: str, action: str) -> None:
        (self.ada if seat == "moderator" else self.guests[seat]).act(self.id, seat, action)

    def play(self, guesses: dict[str, str], anonymous: dict[str, str]) -> None:
        """Round 1: the guesses, then every move in the open (the last closes it).
        Round 2, anonymous: every move but seat 8's, the moderator closes (seat 8
        abstains) unless ``anonymous`` names seat 8 too."""
        for seat, guess in guesses.items():
            self.act(seat, guess)
        for seat, move in MOVES.items():
            self.act(seat, move)
        for seat, move in anonymous.items():
            self.act(seat, move)
        if "8" not in anonymous:
            self.act("moderator", "close")
        assert self.ada.get(f"/api/matches/{self.id}").json()["outcome"] is not None


def ada_and_guests(server: LiveServer) -> tuple[Visitor, dict[str, Visitor]]:
    ada = Visitor(server)
    answer = ada.post("/api/register", {"username": "ada", "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return ada, {seat: Visitor(server) for seat in PLAYERS}


@pytest.fixture
def server(database_url: str, live_server: Start) -> Iterator[LiveServer]:
    yield live_server(database_url)


def final_state(record: dict[str, Any]) -> HeroBattleState:
    """The Battle replayed here from its whole record (as the moderator may have it)."""
    games.load()
    state = get_game("hero-battle").start(record["options"], record["players"], record["seed"])
    for action in record["actions"]:
        state.act(action["seat"], action["action"])
    assert isinstance(state, HeroBattleState)
    return state


def played(page: str) -> str:
    """The "just played" line of a replay page, as plain text."""
    found = re.search(r'<p id="played">(.*?)</p>', page, re.S)
    assert found, page
    line = re.sub(r'<strong id="replay-result">.*?</strong>', "", found.group(1), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", line)).split())


def step_count(page: str) -> int:
    found = re.search(r"step (\d+) of (\d+)", page)
    assert found, page
    return int(found.group(2))


def steps_of(visitor: Visitor, match: str, seat: str | None) -> list[str]:
    """Every step of a seat's replay, start to end."""
    total = step_count(visitor.replay(match, 0, seat))
    return [visitor.replay(match, step, seat) for step in range(total + 1)]


def test_a_finished_hero_battle_replays_only_what_each_seat_knew(server: LiveServer) -> None:
    """Seat 1's wrong guess, seat 2's right one, an anonymous round's hits and seat 8's
    private random hit: a spectator and every player step through the replay and see
    their own actions whole, the public ones as posted, nobody else's private ones, and
    no secret of the final Battle they could not know. The record goes to the moderator
    only; nothing else served about the finished match tells a secret either."""
    ada, guests = ada_and_guests(server)
    battle = Battle(server, ada, guests).start(OPTIONS)
    guesses = {"1": "guess Eel=5", "2": "guess Fox=5"}  # wrong; right (Fox is outed)
    battle.play(guesses, {s: m for s, m in ANONYMOUS.items() if s != "8"})
    match = battle.id

    # the whole record: the moderator's (who knew everything), nobody else's
    record = ada.get(f"/api/matches/{match}/record")
    assert record.status_code == 200, record.text
    refused = guests["3"].get(f"/api/matches/{match}/record")
    assert refused.status_code == 403
    assert "tells every secret of this match" in refused.json()["error"]
    stranger = Visitor(server)
    anonymous = stranger.get(f"/api/matches/{match}/record")
    assert anonymous.status_code == 403
    assert anonymous.json()["error"] == "the record is for the match's players"
    assert "Download the record" in ada.get(f"/matches/{match}").text
    assert "Download the record" not in guests["3"].get(f"/matches/{match}?seat=3").text
    state = final_state(record.json())
    assert state.heroes["Fox"].revealed and not state.heroes["Eel"].revealed

    for seat in (None, *PLAYERS):
        visitor = stranger if seat is None else guests[seat]
        secrets = state.secrets_for(seat)
        assert secrets  # identities never made public, others' guesses and hits
        pages = steps_of(visitor, match, seat)
        lines = [played(page) for page in pages]
        for step, page in enumerate(pages):
            text = html.unescape(page)
            leaked = [s for s in secrets if s in text]
            assert not leaked, (seat, step, leaked, lines[step])
        expected = expected_lines(seat, guesses)
        assert lines[0] == "The start of the match."
        assert lines[1:] == expected, (seat, lines)
        assert step_count(pages[0]) == len(expected)

    # a seat the visitor does not hold, nor made public at the end, is refused
    answer = stranger.get(f"/matches/{match}/replay", seat="1")
    assert answer.status_code == 403
    assert "you do not hold seat '1'" in html.unescape(answer.text)
    # the API's spectator body of the finished Battle: no secret either
    body = json.dumps(stranger.get(f"/api/matches/{match}").json())
    assert not [s for s in state.secrets_for(None) if s in body]
    assert "calls out Eel as" not in body and "calls out Fox as" not in body
    # a player's score is their heroes' HP: beside the public HP table it would name them,
    # so it is given only where the identity is public (Fox, outed: seat 5's)
    hp = {name: hero.hp for name, hero in state.heroes.items()}
    assert hp["Eel"] not in [v for k, v in hp.items() if k != "Eel"]
    for seat in (None, *PLAYERS, "moderator"):
        visitor = stranger if seat is None else ada if seat == "moderator" else guests[seat]
        answer = visitor.get(f"/api/matches/{match}", **({} if seat is None else {"seat": seat}))
        outcome = answer.json()["outcome"]
        expected = set(PLAYERS) if seat == "moderator" else {"5"} | ({seat} if seat else set())
        assert set(outcome["scores"]) == expected, seat
        assert answer.json()["view"]["outcome"] == outcome


def expected_lines(seat: str | None, guesses: dict[str, str]) -> list[str]:
    """The "just played" line of every step of ``seat``'s replay (None: a spectator)."""
    lines = [f"Just played by seat {who}: {guess}" for who, guess in guesses.items() if who == seat]
    lines += [f"Just played by seat {who}: {move}" for who, move in MOVES.items()]
    for who, move in ANONYMOUS.items():
        if who == "8":
            continue
        shown = move if who == seat else move.split(" heal ")[1].join(["heal ", ""])
        lines.append(
            f"Just played by seat {who}: {shown}"
            + ("" if who == seat else " (hits sent privately)")
        )
    lines.append("Just played by seat moderator: close")
    return lines


def test_twin_battles_replay_the_same_to_whoever_may_not_know(server: LiveServer) -> None:
    """Two Battles that differ only in secrets (whom seat 1's wrong guess names; which
    of seats 2 and 3 sent which hits in the anonymous round) give byte-identical replay
    pages, at every step, to a spectator and to the seats that may know neither."""
    ada, guests = ada_and_guests(server)
    first = Battle(server, ada, guests).start(OPTIONS)
    second = Battle(server, ada, guests).start(OPTIONS)
    first.play({"1": "guess Eel=5"}, ANONYMOUS)
    swapped = ANONYMOUS | {"2": ANONYMOUS["3"], "3": ANONYMOUS["2"]}
    second.play({"1": "guess Eel=6"}, swapped)
    stranger = Visitor(server)
    compared = 0
    for seat in (None, "4", "5", "6", "7", "8"):
        visitor = stranger if seat is None else guests[seat]
        pages = [steps_of(visitor, b.id, seat) for b in (first, second)]
        assert len(pages[0]) == len(pages[1]), seat
        for step, (a, b) in enumerate(zip(*pages, strict=True)):
            a, b = a.replace(first.id, "ID"), b.replace(second.id, "ID")
            assert a == b, (seat, step, _diff(a, b))
            compared += 1
    assert compared == 6 * 17  # 16 actions each knew of, and the start
    # the guesser and the two movers do see their own: the pages differ for them
    for seat in ("1", "2"):
        own = [
            "".join(steps_of(guests[seat], b.id, seat)).replace(b.id, "ID") for b in (first, second)
        ]
        assert own[0] != own[1], seat


def _diff(a: str, b: str) -> str:
    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
    return f"...{a[max(0, at - 300) : at + 100]!r}\n...{b[max(0, at - 300) : at + 100]!r}"


# ----- the hooks, in process ---------------------------------------------------------------
def _told(state: Any, seat: str | None) -> str:
    """Everything ``seat`` is shown of ``state``: its view and the events it may see."""
    events = [e.to_json() for e in state.events_for(seat)]
    return json.dumps([state.view(seat), events], sort_keys=True, default=str)


@pytest.mark.parametrize(
    ("slug", "hidden"),
    [("hero-battle", True), ("super-dice-heroes", True), ("superhero-gladiators", False)],
)
def test_an_action_as_seen_tells_no_more_than_the_seat_was_told(slug: str, hidden: bool) -> None:
    """From positions along a random match, several actions of one seat: whenever two of
    them leave another seat (or a spectator) the same view and events, that seat sees
    them the same way in a replay (a guess, a spend, hidden hits: not at all). With
    ``hidden``, such pairs must turn up (Superhero Gladiators' actions are seen by all,
    and its hidden gizmo's reveal is rare in a random match)."""
    games.load()
    game = get_game(slug)
    rng = random.Random(27)
    state = game.start(None, None, 27)
    same_told = 0
    for _ in range(60):
        if state.is_over:
            break
        actor = rng.choice([s for s in state.awaiting() if state.legal_actions(s)])
        legal = state.legal_actions(actor)
        picks = [legal[i] for i in rng.sample(range(len(legal)), min(6, len(legal)))]
        for seat in (None, *state.seats):
            if seat == actor:
                continue
            seen: dict[str, list[str | None]] = {}
            for action in picks:
                twin = state.clone()
                made = twin.apply(actor, action)
                text = game.action_seen_by(twin, actor, action, made, seat)
                seen.setdefault(_told(twin, seat), []).append(text)
            assert all(len(set(texts)) == 1 for texts in seen.values()), (seat, actor, seen)
            same_told += sum(len(texts) > 1 for texts in seen.values())
        state.apply(actor, rng.choice(list(legal)))
    assert same_told > 0 or not hidden


def test_what_the_end_makes_public() -> None:
    """Nothing more than a seat saw by default for hidden information (Hero Battle's
    ruling R34 too), everything for a game without it, and Super Dice Heroes' every
    choice once the last round is revealed."""
    games.load()
    pig = get_game("pig").start(None, 2, 1)
    assert get_game("pig").revealed_at_end(pig) == ("1", "2")
    battle = get_game("hero-battle")
    state = battle.start(None, 8, 1)
    assert battle.revealed_at_end(state) == ()
    assert [s for s in state.seats if battle.sees_everything(state, s)] == ["moderator"]
    dice = get_game("super-dice-heroes")
    match = dice.start({"rounds": 1}, 2, 1)
    assert dice.revealed_at_end(match) == ()  # not over: the choices are secret
    rng = random.Random(1)
    while not match.is_over:
        seat = match.awaiting()[0]
        match.apply(seat, rng.choice(list(match.legal_actions(seat))))
    assert dice.revealed_at_end(match) == ("1", "2")
