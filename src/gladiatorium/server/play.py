"""Playing a match: what a seat sees (its body), and its actions checked, committed and
told (a person's notation, or a bot's action at the ply it thought about).

A body is built from ``view(seat)``, the events the seat may see and its legal actions,
never from the state itself. An action is committed before anyone is told
(:meth:`MatchStore.commit`)."""

from __future__ import annotations

import json
import logging
import re
from _json import encode_basestring_ascii, make_encoder
from collections.abc import Callable
from typing import Any, cast

from gladiatorium.core import Action, Event, GameOver, IllegalAction, NotYourTurn, Seat
from gladiatorium.core.kept import cached
from gladiatorium.server.errors import Clash, Conflict, ServiceError
from gladiatorium.server.store import Live, MatchStore, refuse_while_waiting

log = logging.getLogger("gladiatorium.match")
_DIGITS = re.compile(r"(\d+)")

#: tries of an action whose ply another process took meanwhile (:meth:`Play.submit`)
APPEND_TRIES = 5


class Play:
    """The bodies of a match's seats, and its actions."""

    def __init__(self, store: MatchStore) -> None:
        self.store = store

    # ----- what a seat sees ----------------------------------------------------------
    def body(
        self, match_id: str, seat: Seat | None, after: int | None = None, compact: bool = False
    ) -> dict[str, Any]:
        """The GET body for ``seat`` (None: a spectator), built from its view only; with
        ``after``, only the seat's events after that ply; ``compact``: the legal actions
        in the game's compact form only, where it declares one (``legal`` is then
        None). Read it, never edit it: it is shared with every connection of the seat
        (:func:`seat_body`)."""
        live = self.store.live(match_id)
        with live.lock:
            if after is None:
                return seat_body(live, seat, compact)
            if not 0 <= after <= live.ply:
                raise ServiceError(f"after: a ply from 0 to {live.ply} (the match's ply)")
            parts = seat_parts(live, seat) if compact else full_parts(live, seat)
            return _with_events(live, seat, parts, events_after(live, seat, after))

    def push_body(self, match_id: str, seat: Seat | None) -> dict[str, Any]:
        """:meth:`body` for a push after a change: the database is asked only when a
        notice said another process may have moved the match on (this process's own
        commits are in memory already), which saves a query per connection per change."""
        live = self.for_push(match_id, fresh=False)
        with live.lock:
            return seat_body(live, seat)

    def push_text(self, match_id: str, seat: Seat | None, fresh: bool) -> str:
        """The seat's body as JSON text (what an untyped socket is sent), encoded once
        per seat and ply for all its connections."""
        live = self.for_push(match_id, fresh)
        with live.lock:
            return shared_text(live, ("text", seat), lambda: seat_body(live, seat))

    def for_push(self, match_id: str, fresh: bool) -> Live:
        """The match for a push: from memory unless ``fresh`` or another process may
        have moved it on."""
        live = None if fresh else self.store.held(match_id)
        if live is None or live.stale:
            return self.store.live(match_id)
        return live

    # ----- acting ----------------------------------------------------------------------
    def submit(self, match_id: str, seat: Seat, notation: str) -> list[dict[str, Any]]:
        """Check ``notation`` for ``seat``, commit it, then tell everyone; returns the
        new events ``seat`` may see. Refusals change nothing. When another process
        appended the same ply first with other seats' actions in the same round (seats
        acting side by side), this one catches up and applies the action after them
        while it is still legal; a 409 when it no longer is, or when the seat itself
        acted meanwhile or the round moved on (the action was meant for what it saw)."""
        if len(notation) > 2000:
            raise ServiceError("action: longer than 2000 characters")
        seen: tuple[int, int | None] | None = None
        for attempt in range(1, APPEND_TRIES + 1):
            live = self.store.live(match_id)
            with live.lock:
                if live.adjudicated is not None:
                    raise Conflict("the match is over; no more actions")
                refuse_while_waiting(live)
                if seen is None:
                    seen = (live.ply, live.game.round_number(live.state))
                else:
                    _still_as_seen(live, seat, *seen)
                try:
                    action = live.state.parse(seat, notation)
                except (NotYourTurn, GameOver) as err:
                    raise Conflict(str(err)) from err
                except IllegalAction as err:
                    if attempt > 1:  # legal before another process moved the match on
                        raise Conflict(f"the match moved on: {err}") from err
                    raise ServiceError(str(err)) from err
                try:
                    events = self.store.commit(live, [(seat, action)])
                except Clash:
                    if attempt == APPEND_TRIES:
                        raise
                    log.info("match=%s seat=%s ply taken by another process", match_id, seat)
                    continue
            return [e for e in events if _visible(e, seat)]
        raise AssertionError("unreachable")  # pragma: no cover

    def submit_action(self, match_id: str, seat: Seat, action: Action, ply: int) -> None:
        """A bot's move, valid only if the match is still at ``ply``."""
        live = self.store.live(match_id)
        with live.lock:
            if live.ply != ply or live.over or seat not in live.state.awaiting():
                raise Conflict("the match moved on")
            self.store.commit(live, [(seat, action)])


def _still_as_seen(live: Live, seat: Seat, ply: int, round_number: int | None) -> None:
    """After a clash: what other processes appended since ``ply`` must be other seats'
    actions in the same round, else the seat's action was meant for a match that is
    gone (409)."""
    between = live.state.history[ply:]
    if any(s == seat for s, _ in between) or live.game.round_number(live.state) != round_number:
        raise Conflict("the match moved on while you acted; look again")


def _visible(event: dict[str, Any], seat: Seat | None) -> bool:
    return "to" not in event or (seat is not None and seat in event["to"])


@cached("core.legal_order", "core", 1 << 16, "a legal action's sort key (server)")
def _natural(text: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key: numbers by value, the rest by text ("guess Ant=2" before "=10"); kept
    for the notations met again (a hundred seats' legal actions share most of theirs)."""
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in _DIGITS.split(text))


def shared(live: Live) -> dict[Any, Any]:
    """What the connections share at the match's current ply (emptied when it moves
    on); called with ``live.lock`` held."""
    at = (live.ply, live.adjudicated is not None)
    if live.shared_at != at:
        # the shared view made last is kept: the next one is made of its parts where
        # they are equal (:func:`shared_view`)
        before = live.shared.get("shared-view", live.shared.get("shared-view-before"))
        live.shared, live.shared_at = {"shared-view-before": before}, at
    return live.shared


def seat_parts(live: Live, seat: Seat | None) -> dict[str, Any]:
    """:func:`parts_of`, built once per seat and ply whatever the number of connections
    of that seat (the spectators are one seat, None); the legal actions in the game's
    compact form where it declares one (what the typed frames send). Read it, never
    edit it."""
    kept = shared(live)
    parts = kept.get(("parts", seat))
    if parts is None:
        parts = kept["parts", seat] = parts_of(live, seat)
    return parts


def full_parts(live: Live, seat: Seat | None) -> dict[str, Any]:
    """:func:`seat_parts` with the whole legal list even where the game declares a
    compact form (the GET body, untyped sockets: old clients), shared alike."""
    parts = seat_parts(live, seat)
    if parts["legal"] is not None:
        return parts
    kept = shared(live)
    full = kept.get(("full", seat))
    if full is None:
        assert seat is not None  # only an awaited seat has a form
        full = kept["full", seat] = {**parts, "legal": legal_list(live, seat)}
    return full


def seat_body(live: Live, seat: Seat | None, compact: bool = False) -> dict[str, Any]:
    """:func:`body_of` (``compact``: with the legal actions as :func:`seat_parts` has
    them), shared as :func:`seat_parts` is. Read it, never edit it."""
    kept = shared(live)
    body = kept.get(("body", seat, compact))
    if body is None:
        parts = seat_parts(live, seat) if compact else full_parts(live, seat)
        body = kept["body", seat, compact] = _with_events(live, seat, parts)
    return body


def shared_view(live: Live) -> Any:
    """What every seat's view holds alike (``Game.shared_view``), built once per ply for
    all the seats, and made of the very parts of the one made before wherever they are
    equal (:func:`interned`); called with ``live.lock`` held."""
    kept = shared(live)
    if "shared-view" not in kept:
        view = live.game.shared_view(live.state)
        before = kept["shared-view-before"]
        kept["shared-view"] = view if before is None else interned(view, before)
    return kept["shared-view"]


def interned(new: Any, old: Any) -> Any:
    """``new`` with each part that equals the part of ``old`` at the same place replaced
    by that very part (``new`` itself is left as it was). A hundred heroes' sheets of
    which one changed are then ninety-nine objects the view before held: a connection
    that tells whether its seat sees anything new (a hero's private spend: a hundred
    seats see nothing) compares them by identity, and a patch passes over them, instead
    of walking each. A view keeps each field's JSON type, so equal parts are equal JSON."""
    if new is old or (type(new) is type(old) and new == old):
        return old
    if isinstance(new, dict) and isinstance(old, dict):
        return {
            key: interned(value, old[key]) if key in old else value for key, value in new.items()
        }
    if isinstance(new, list) and isinstance(old, list):
        return [interned(value, old[i]) if i < len(old) else value for i, value in enumerate(new)]
    return new


def awaited(live: Live) -> frozenset[Seat]:
    """The seats awaited (none once over, nor while a seat's team is still to be picked:
    server/teams.py), worked out once per ply."""
    kept = shared(live)
    seats = kept.get("awaited")
    if seats is None:
        waiting = live.adjudicated is not None or live.waiting_for_teams
        seats = kept["awaited"] = frozenset(() if waiting else live.state.awaiting())
    return cast(frozenset[Seat], seats)


def awaited_list(live: Live) -> list[Seat]:
    """The seats awaited in table order, one list per ply for every seat's body (read
    it, never edit it)."""
    kept = shared(live)
    seats = kept.get("awaited-list")
    if seats is None:
        awaiting = awaited(live)
        seats = kept["awaited-list"] = [s for s in live.state.seats if s in awaiting]
    return cast(list[Seat], seats)


class Ops(list[Any]):
    """A JSON Patch in parts: operations (dicts) and, among them, the patches of parts of
    the view (Ops themselves), written out as one flat array (``frames.flat``; the encoder,
    :func:`spliced`, writes each part's text once: :func:`written`). A hundred seats'
    patches at a round's close are mostly the same parts (the heroes every seat sees
    alike), so each seat's patch is a hundred parts to join, not six hundred operations.
    ``text``: the part's text once written."""

    text: str | None = None


def written(parts: Ops) -> str:
    """The text inside the JSON array of ``parts`` (compact JSON), written once and kept
    with them (each part is an Ops never empty, or an operation): the seats' frames of a
    ply share their parts, and the patcher writes a part to tell whether it is shorter
    than the whole value it changes (``frames._shorter``); each uses that text."""
    if parts.text is None:
        parts.text = ",".join(written(p) if isinstance(p, Ops) else _dumps(p) for p in parts)
    return parts.text


def shared_text(live: Live, key: Any, make: Any) -> str:
    """``make()`` as compact JSON text, encoded once per ``key`` and ply; the items of
    its lists two levels down (a frame's events and patch operations, a body's events)
    encoded once per ply for every seat (:func:`spliced`)."""
    kept = shared(live)
    text = kept.get(key)
    if text is None:
        text = kept[key] = spliced(make(), kept.setdefault("json", {}), 2)
    return str(text)


def spliced(value: Any, made: dict[Any, tuple[Any, str]], depth: int) -> str:
    """``value`` as compact JSON text, the same text ``json.dumps`` gives, with each
    object or array inside its lists (``depth`` levels of objects down) encoded once
    and kept in ``made`` by identity: the seats' frames of one ply hold the very same
    event and patch operation objects (``event_json``, ``frames.patches``), so a
    hundred seats' frames at a round's close, each tens of kilobytes, mostly of the
    same public record, are encoded about once instead of a hundred times. A patch in
    parts (:class:`Ops`) is written flat, each part's text made once; a list of the
    very same items as another seat's (the events every seat sees) is joined once."""
    if isinstance(value, Ops):
        return "[" + written(value) + "]"
    if isinstance(value, list) and value:  # the very list (events, seats awaited) once
        return _kept(value, made, lambda items: _list_text(items, made))
    if depth > 0 and isinstance(value, dict):
        return (
            "{"
            + ",".join(
                f"{_dumps(str(key))}:{spliced(item, made, depth - 1)}"
                for key, item in value.items()
            )
            + "}"
        )
    return _dumps(value)


def _list_text(items: list[Any], made: dict[Any, tuple[Any, str]]) -> str:
    """A list's text; of objects or arrays, each written once, and the whole joined once
    for every list of the very same items (another seat's)."""
    if not isinstance(items[0], dict | list):
        return _dumps(items)
    key = tuple(map(id, items))
    kept = made.get(key)
    if kept is None:  # the list is kept with its text: its items' ids not reused
        kept = made[key] = (items, "[" + ",".join(_once(item, made) for item in items) + "]")
    return kept[1]


def _once(item: Any, made: dict[Any, tuple[Any, str]]) -> str:
    if not isinstance(item, dict | list):
        return _dumps(item)
    return _kept(item, made, _dumps)


def _kept(item: Any, made: dict[Any, tuple[Any, str]], write: Callable[[Any], str]) -> str:
    """``write(item)``, kept in ``made`` by the item's identity for the rest of the ply
    (the item kept alive with its text: its id not reused)."""
    kept = made.get(id(item))
    if kept is None or kept[0] is not item:
        kept = made[id(item)] = (item, write(item))
    return kept[1]


#: compact JSON, the encoder made once (``json.dumps`` with separators makes one per call)
_COMPACT = json.JSONEncoder(separators=(",", ":"))

#: the standard library's C encoder behind ``_COMPACT`` (``json.encoder`` uses the same),
#: made once too: ``encode`` makes a new one per call, which doubles the cost of the
#: small values a frame is written in (a patch's operations); no check for cycles (a
#: view is a tree)
_C_COMPACT = make_encoder(
    None,  # no markers: no check for cycles
    _COMPACT.default,
    encode_basestring_ascii,
    None,  # no indent
    ":",
    ",",
    False,  # keys in their order
    False,  # no key skipped
    True,  # NaN allowed, as json.dumps
)


def _dumps(value: Any) -> str:
    return "".join(_C_COMPACT(value, 0))


def event_json(live: Live, event: Event) -> dict[str, Any]:
    """The JSON of ``event``, made once for every seat (read it, never edit it)."""
    made = live.jsons.get(id(event))
    if made is None:
        made = live.jsons[id(event)] = event.to_json()
    return made


#: the events after a ply as every seat may see them: their JSON, the private ones (by
#: place), and the lists made for the seats that see the same private ones
EventsRun = tuple[
    list[dict[str, Any]],
    list[tuple[int, Event]],
    dict[tuple[int, ...], list[dict[str, Any]]],
]


def events_after(live: Live, seat: Seat | None, ply: int) -> list[dict[str, Any]]:
    """The events ``seat`` may see that came after ``ply`` (0: all of them). The seats
    that may see the same private events among them get the same list, made once per
    ply (a round's close: a hundred heroes revealed, one hero's own spends told to it
    alone; read the list, never edit it)."""
    start = live.events_since(ply)
    kept = shared(live)
    run: EventsRun | None = kept.get(("events-after", start))
    if run is None:
        events = live.state.events[start:]
        run = kept["events-after", start] = (
            [event_json(live, e) for e in events],
            [(i, e) for i, e in enumerate(events) if e.to is not None],
            {},
        )
    made, private, lists = run
    if not private:
        return made
    seen = tuple(i for i, event in private if event.visible_to(seat))
    found = lists.get(seen)
    if found is None:
        hidden = {i for i, _ in private}.difference(seen)
        found = lists[seen] = [made[i] for i in range(len(made)) if i not in hidden]
    return found


def body_of(live: Live, seat: Seat | None) -> dict[str, Any]:
    """What a seat receives (the GET body): built from ``view(seat)`` and the events it
    may see."""
    return _with_events(live, seat, full_parts(live, seat))


def _with_events(
    live: Live, seat: Seat | None, parts: dict[str, Any], events: list[Any] | None = None
) -> dict[str, Any]:
    """The body: ``parts`` with the seat's ``events`` (all it may see by default)."""
    body = {k: parts[k] for k in ("game", "awaiting", "legal", "legal_form", "view")}
    body["events"] = (
        [event_json(live, e) for e in live.state.events_for(seat)] if events is None else events
    )
    body["outcome"] = parts["outcome"]
    return body


def parts_of(live: Live, seat: Seat | None) -> dict[str, Any]:
    """A seat's body without its events (what a delta needs; the events, which grow
    with the match, are sent from a ply on): built from the seat's view (the game's
    ``seat_view`` of the part every seat shares, built once per ply) and its legal
    actions, as a list or, where the game declares one, in their compact form alone
    (``legal`` None: :func:`full_parts` adds the list)."""
    live.builds += 1
    state = live.state
    awaiting = awaited(live)
    legal: list[str] | None = []
    form = None
    if seat is not None and seat in awaiting:
        made = live.game.legal_form(state, seat)
        form = None if made is None else made.to_json()
        legal = legal_list(live, seat) if form is None else None
    return {
        "game": live.game.info.slug,
        "awaiting": awaited_list(live),
        "legal": legal,
        "legal_form": form,
        "view": live.game.seat_view(state, seat, shared_view(live)),
        "outcome": live.adjudicated
        if live.adjudicated is not None
        else live.game.outcome_seen_by(state, seat),
    }


def legal_list(live: Live, seat: Seat) -> list[str]:
    """The seat's legal actions as notations (sorted, in a game with hidden information:
    the engine's order may follow hidden state, as Hero Battle listed guesses in the
    order of the secret identities)."""
    legal = [str(a) for a in live.state.legal_actions(seat)]
    if live.game.info.hidden_information:
        legal.sort(key=_natural)
    return legal
