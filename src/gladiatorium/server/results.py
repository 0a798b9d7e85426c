"""A finished match's result in words, the same on every page and in the API: who won by
name (a person's user name, a bot with its seat, a team with its players), why, and the
scores where the game keeps them. Names are public; nothing here reads a view."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from gladiatorium.core import Seat
from gladiatorium.core.outcome import side_places
from gladiatorium.server.db import MatchSeat, User
from gladiatorium.server.errors import Conflict

if TYPE_CHECKING:
    from gladiatorium.server.store import Live, MatchStore


def seat_name(row: MatchSeat, users: Mapping[int, str]) -> str:
    """Who holds a seat, as a result names them: a user name, ``bot NAME (seat S)``, or
    ``seat S`` (an open, invited or server seat)."""
    if row.kind == "user" and row.user_id is not None and row.user_id in users:
        return users[row.user_id]
    if row.kind == "bot" and row.bot:
        return f"bot {row.bot} (seat {row.seat})"
    return f"seat {row.seat}"


def _users(session: Session, rows: Iterable[MatchSeat]) -> dict[int, str]:
    ids = {r.user_id for r in rows if r.user_id is not None}
    if not ids:
        return {}
    found = session.execute(select(User.id, User.username).where(User.id.in_(ids)))
    return {user_id: name for user_id, name in found}


def seat_names(session: Session, rows: Iterable[MatchSeat]) -> dict[Seat, str]:
    """:func:`seat_name` of each row (of one match), its users read in one query."""
    listed = list(rows)
    users = _users(session, listed)
    return {r.seat: seat_name(r, users) for r in listed}


def match_names(store: MatchStore, match_id: str) -> dict[Seat, str]:
    """:func:`seat_names` of a match held by ``store`` (its seats as they are now)."""
    live = store.live(match_id)
    with live.lock:
        rows = list(live.seats.values())
    with store.sessions() as session:
        return seat_names(session, rows)


def names_by_match(session: Session, match_ids: Iterable[str]) -> dict[str, dict[Seat, str]]:
    """:func:`seat_names` of several matches at once (the lobby's finished matches)."""
    wanted = list(match_ids)
    if not wanted:
        return {}
    rows = list(session.scalars(select(MatchSeat).where(MatchSeat.match_id.in_(wanted))))
    users = _users(session, rows)
    out: dict[str, dict[Seat, str]] = {m: {} for m in wanted}
    for row in rows:
        out[row.match_id][row.seat] = seat_name(row, users)
    return out


def _score(value: Any) -> str:
    number = float(value)
    return str(int(number)) if number.is_integer() else f"{number:g}"


def _who(seats: Iterable[Seat], names: Mapping[Seat, str]) -> str:
    """The names of ``seats``, each once (a person may hold several seats)."""
    return ", ".join(dict.fromkeys(names.get(s, f"seat {s}") for s in seats))


def _scorer(seat: Seat, names: Mapping[Seat, str]) -> str:
    """A seat's name by its score: with the seat where its holder holds others too."""
    name = names.get(seat, f"seat {seat}")
    if "(seat " not in name and sum(n == name for n in names.values()) > 1:
        return f"{name} (seat {seat})"
    return name


def result_label(outcome: Mapping[str, Any] | None, names: Mapping[Seat, str]) -> str:
    """``Won by alice: reason; score: alice 12, bot greedy (seat 2) 7``, ``Draw:
    reason`` or ``Everyone lost: reason``; '' while the match goes on. The reason
    follows a colon, not brackets: names (``bot greedy (seat 2)``) and reasons (``knocked
    out (turn 9)``) carry brackets of their own. A winning team
    that is a seat (a Superhero Gladiators side) is named by its holder; another team
    (a Gladiator Chess colour) by its name and its players."""
    if not outcome:
        return ""
    winners = [str(s) for s in outcome.get("winners") or []]
    team = outcome.get("team")
    if winners:
        who = _who(winners, names)
        if team and str(team) not in winners:
            who = f"{team} ({who})"
        head = f"Won by {who}"
    elif outcome.get("lost"):
        head = "Everyone lost"
    else:
        head = "Draw"
    reason = outcome.get("reason") or ""
    text = f"{head}: {reason}" if reason else head
    scores = outcome.get("scores") or {}
    if scores:
        text += "; score: " + ", ".join(
            f"{_scorer(s, names)} {_score(v)}" for s, v in scores.items()
        )
    return text


def final_places(live: Live) -> list[dict[str, Any]]:
    """A finished match's summary rows, best first: each side's ``place``, its
    ``seats`` and its ``score`` where the game keeps one ('' else); [] while the match
    goes on. Read under the match's lock (names: :func:`named_places`)."""
    outcome = live.outcome()
    if not outcome:
        return []
    if live.adjudicated is None:
        places = live.game.places(live.state)
    else:  # ended on time: the winners first, every other side after them
        sides = live.game.sides(live.state)
        places = list(zip(sides, side_places(outcome["winners"], {}, sides), strict=True))
    scores = outcome.get("scores") or {}
    rows = []
    for side, place in sorted(places, key=lambda p: p[1]):
        marks = [_score(scores[s]) for s in side if s in scores]
        rows.append({"place": place, "seats": list(side), "score": ", ".join(marks)})
    return rows


def match_summary(store: MatchStore, match_id: str) -> dict[str, Any]:
    """``GET /api/matches/ID/result``: the result in words (:func:`result_label`), the
    outcome, and each side's place with its players' names and score; 409 while the
    match goes on. Public, as the outcome is."""
    live = store.live(match_id)
    with live.lock:
        outcome = live.outcome()
        places = final_places(live)
    if not outcome:
        raise Conflict("the match is not over yet")
    names = match_names(store, match_id)
    return {
        "result": result_label(outcome, names),
        "outcome": outcome,
        "places": named_places(places, names),
    }


def named_places(places: list[dict[str, Any]], names: Mapping[Seat, str]) -> list[dict[str, Any]]:
    """:func:`final_places` with each side's players' ``names``."""
    return [{**row, "names": [names.get(s, f"seat {s}") for s in row["seats"]]} for row in places]
