"""The typed frames of a match socket (docs/server.md, "The WebSocket's frames"): a
``body`` on connect and on ``sync``, then after every change a ``delta``: the seat's
events after the ply the client last acknowledged and its view as a JSON Patch
(RFC 6902) against the view sent at that ply; its legal actions only when they differ
from the last frame's, in the game's compact form where it declares one (``legal``
None and ``legal_form`` the choices: ``core/legal_form.py``).

Every part is built from the seat's own body (:func:`seat_parts`, its body without the
events, and the events it may see), so a delta tells a seat nothing its body would not;
and a frame is made once per seat, base and ply, for all the connections of that seat
(the spectators are one seat).

When only the seats changed (someone took an open seat or an invitation), a ``seats``
frame says so: each seat's kind, public to everyone; a page then fetches its names. When
only a round's deadline was set, a ``deadline`` frame (the page fetches it)."""

from __future__ import annotations

import itertools
import json
import operator
from typing import Any, cast

from gladiatorium.core import Seat
from gladiatorium.server.errors import ServiceError
from gladiatorium.server.play import (
    Ops,
    events_after,
    seat_body,
    seat_parts,
    shared,
    shared_text,
    written,
)
from gladiatorium.server.store import Live

#: views kept per connection: the last one sent (the next delta's base) and those of
#: the plies sent before it whose acknowledgements may still come (each is taken on the
#: spot when it does)
KEPT_VIEWS = 16


class Frames:
    """What one connection was sent: the views of the plies sent and not yet
    acknowledged (the last one is the next delta's base), and its last body."""

    def __init__(self, seat: Seat | None) -> None:
        self.seat = seat
        self.views: dict[int, Any] = {}
        self.sent: int | None = None
        self.last: dict[str, Any] | None = None
        #: the seats as last told (:func:`seat_kinds`), and the deadlines set by then
        self.seats: dict[Seat, str] | None = None
        self.deadlines = 0

    def body(self, live: Live) -> str:
        """A ``body`` frame (on connect and on ``sync``); the next delta builds on it."""
        body = seat_body(live, self.seat, compact=True)
        self._sent(live.ply, seat_parts(live, self.seat), based=False)
        self.seats, self.deadlines = seat_kinds(live), live.deadlines_set
        return shared_text(
            live, ("body-frame", self.seat), lambda: {"type": "body", "ply": live.ply, "body": body}
        )

    def delta(self, live: Live, forced: bool = False) -> str | None:
        """A ``delta`` frame after a change, or None when the seat sees nothing new
        (``forced``: sent all the same, the answer to an ``ack`` of a ply this connection
        never sent, a reconnecting client's)."""
        body = seat_parts(live, self.seat)  # the events come from the base's ply on
        seats, told, deadlines = seat_kinds(live), self.seats, self.deadlines
        self.seats, self.deadlines = seats, live.deadlines_set
        if not forced and self._unchanged(live, body):
            if told is not None and seats != told:  # only the seats changed
                return json.dumps({"type": "seats", "ply": live.ply, "seats": seats})
            if deadlines != live.deadlines_set:  # only a round's deadline was set
                return json.dumps({"type": "deadline", "ply": live.ply})
            return None
        # the ply of the last frame sent: frames arrive in order, so the client holds
        # its view when this one comes, acknowledged or not (every seat pushed at one
        # ply then shares the patch of the views' shared part)
        since = self.sent
        assert since is not None
        base = self.views.get(since)
        known = base is not None
        # the legal actions as the last frame gave them (a long list, or a compact form
        # of a few hundred names, in a hundred-seat Hero Battle) are left out: the
        # client keeps them
        last = self.last
        same_legal = (
            known
            and last is not None
            and last["legal"] == body["legal"]
            and last["legal_form"] == body["legal_form"]
        )

        def make() -> dict[str, Any]:
            patch: list[Any]
            if known:
                patch = patch_parts(base, body["view"], memo=patches(live))
            else:  # the client's view at ``since`` is not known here: the whole view
                patch = [{"op": "replace", "path": "", "value": body["view"]}]
            frame = {
                "type": "delta",
                "ply": live.ply,
                "since": since,
                "events": events_after(live, self.seat, since),
                "view": patch,
                "awaiting": body["awaiting"],
                "legal": body["legal"],
                "legal_form": body["legal_form"],
                "outcome": body["outcome"],
            }
            if same_legal:
                del frame["legal"], frame["legal_form"]
            return frame

        text = shared_text(live, ("delta", self.seat, since, known, same_legal), make)
        self._sent(live.ply, body, based=known)
        return text

    def ack(self, live: Live, ply: Any) -> str | None:
        """The client applied everything up to ``ply``: the views before it are
        forgotten. A ply this connection did not send (a reconnecting client's) is
        answered at once with a delta of what came after it."""
        if type(ply) is not int or not 0 <= ply <= live.ply:
            raise ServiceError(f"ply: a whole number from 0 to {live.ply} (the match's ply)")
        if self.acknowledged(ply):
            return None
        self.views = {}
        self.sent = ply
        return self.delta(live, forced=True)

    def acknowledged(self, ply: Any) -> bool:
        """Take an acknowledgement of a ply this connection was sent and still keeps the
        view of (the common case, needing no match): True when done, False when it
        needs :meth:`ack`."""
        if type(ply) is not int or ply not in self.views or self.sent is None:
            return False
        self.views = {p: v for p, v in self.views.items() if p >= ply}
        return True

    def _unchanged(self, live: Live, body: dict[str, Any]) -> bool:
        """Whether the seat would see nothing new since the last frame sent."""
        last = self.last
        if last is None or self.sent is None:
            return False
        if last is body:
            return True
        return not events_after(live, self.seat, self.sent) and all(
            last[k] == body[k] for k in ("view", "awaiting", "legal", "legal_form", "outcome")
        )

    def _sent(self, ply: int, body: dict[str, Any], based: bool) -> None:
        """Note a frame sent at ``ply``. ``based``: a delta against a view the client
        holds, so the views of plies sent before it, not yet acknowledged, stay: an
        acknowledgement that arrives after the next delta has gone (a busy server, a
        hundred-seat round) is still taken on the spot. Not ``based`` (a body, a whole
        view): the client starts again from this one."""
        self.sent, self.last = ply, body
        if not based:
            self.views = {}
        self.views[ply] = body["view"]
        if len(self.views) > KEPT_VIEWS:
            self.views = {ply: body["view"]}


#: the patches made between two parts of views at one ply (:func:`patches`): by the ids
#: of both parts and the path, with the parts themselves (so that no id is reused); and,
#: by ``("last", path)``, the last large object patched at a path (:func:`_like_the_last`)
Patches = dict[tuple[Any, ...], tuple[Any, Any, Any]]

#: objects of at least this many keys (a hundred heroes) are patched from the last one
#: patched at the same path where they can be
MANY_KEYS = 16


def patches(live: Live) -> Patches:
    """The patches made at the match's ply, for every seat: views made from the part
    all seats share (``Game.shared_view``) hold its very objects, so the patch between
    two plies' shared parts is made once, not once per seat (called with the lock)."""
    made: Patches = shared(live).setdefault("patches", {})
    return made


def view_patch(old: Any, new: Any) -> list[dict[str, Any]]:
    """The JSON Patch (RFC 6902) that turns the view ``old`` into ``new``: equal parts left
    out, objects compared key by key, arrays item by item with items added or removed at
    the end (an array mostly changed, or an object most of whose keys went, is replaced
    whole where that is shorter: four dice rolled again, a round's moves cleared),
    anything else replaced whole. A view keeps each field's JSON type, so
    equal values are equal JSON. Written here because the general differ (jsonpatch's
    ``make_patch``) encodes every value it compares: 66 ms for a hundred-hero view, per
    seat and action, where this takes a fraction of a millisecond; the client applies it
    with any RFC 6902 library (the page: fast-json-patch; the tests check it with
    jsonpatch)."""
    return flat(patch_parts(old, new))


def flat(parts: Ops) -> list[dict[str, Any]]:
    """The operations of a patch in parts, in order."""
    ops: list[dict[str, Any]] = []
    for part in parts:
        if isinstance(part, Ops):
            ops += flat(part)
        else:
            ops.append(part)
    return ops


def patch_parts(old: Any, new: Any, path: str = "", memo: Patches | None = None) -> Ops:
    """:func:`view_patch` in parts (:class:`Ops`). ``memo``: patches already made
    between the same two objects at the same path (:func:`patches`), reused, so the
    seats' patches share their parts. Read the patch, never edit it."""
    if old is new:
        return Ops()
    if memo is None or not isinstance(old, dict | list):
        return _patch(old, new, path, memo)
    key = (id(old), id(new), path)
    made = memo.get(key)
    if made is None or made[0] is not old or made[1] is not new:
        made = memo[key] = (old, new, _patch(old, new, path, memo))
    return made[2]


def _patch(old: Any, new: Any, path: str, memo: Patches | None) -> Ops:
    # objects are walked key by key without comparing them whole first: a comparison
    # of two views walks every hero that changed, and then the patch walks it again
    if isinstance(old, dict) and isinstance(new, dict):
        return _object_patch(old, new, path, memo)
    if type(old) is type(new) and old == new:
        return Ops()
    if isinstance(old, list) and isinstance(new, list):
        return _array_patch(old, new, path, memo)
    return Ops([{"op": "replace", "path": path, "value": new}])


def _object_patch(old: dict[str, Any], new: dict[str, Any], path: str, memo: Patches | None) -> Ops:
    if memo is not None and len(new) >= MANY_KEYS and list(old) == list(new):
        return _like_the_last(old, new, path, memo)
    gone = [key for key in old if key not in new]
    ops = Ops({"op": "remove", "path": f"{path}/{_pointer(key)}"} for key in gone)
    for key, value in new.items():
        if key not in old:
            ops.append({"op": "add", "path": f"{path}/{_pointer(key)}", "value": value})
        elif old[key] is not value and (part := _key_part(old, new, key, path, memo)):
            ops.append(part)
    if len(gone) > 1 and 2 * len(gone) >= len(old):  # most of it went: the shorter patch
        return _shorter(ops, new, path)
    return ops


def _key_part(
    old: dict[str, Any], new: dict[str, Any], key: str, path: str, memo: Patches | None
) -> Ops:
    return patch_parts(old[key], new[key], f"{path}/{_pointer(key)}", memo)


def _like_the_last(old: dict[str, Any], new: dict[str, Any], path: str, memo: Patches) -> Ops:
    """The patch of a large object whose keys stay, made from the last one made at
    ``path`` at this ply: a key whose values are the very objects that one had keeps its
    part, the others are made. Each seat's view holds the heroes every seat sees alike,
    the seat's own hero apart: a hundred seats' patches of a hundred heroes take a
    hundred parts made once and one made per seat, not ten thousand looked up."""
    keys = list(new)
    last = memo.get(("last", path))
    if last is None or list(last[1]) != keys:
        parts = [_key_part(old, new, key, path, memo) for key in keys]
    else:
        old_before, new_before, parts = last
        parts = list(parts)
        changed = map(
            operator.or_,
            map(operator.is_not, old.values(), old_before.values()),
            map(operator.is_not, new.values(), new_before.values()),
        )
        for i in itertools.compress(range(len(keys)), changed):
            parts[i] = _key_part(old, new, keys[i], path, memo)
    memo["last", path] = (old, new, parts)
    return Ops(filter(None, parts))


def _array_patch(old: list[Any], new: list[Any], path: str, memo: Patches | None) -> Ops:
    # the very same item (a number the interpreter keeps once, a part shared with the
    # view before) is passed over before its path is written
    ops = Ops(
        part
        for i, (a, b) in enumerate(zip(old, new, strict=False))
        if a is not b and (part := patch_parts(a, b, f"{path}/{i}", memo))
    )
    # items added at the end (a log that grows), or taken from the end
    ops += [{"op": "add", "path": f"{path}/-", "value": v} for v in new[len(old) :]]
    ops += [{"op": "remove", "path": f"{path}/{i}"} for i in range(len(old) - 1, len(new) - 1, -1)]
    listed = flat(ops)
    if 1 < len(listed) == len(old) == len(new) and all(
        op["op"] == "replace" and op["path"] == f"{path}/{i}" for i, op in enumerate(listed)
    ):  # every item replaced whole (a die rolled again): the same values in one operation
        return Ops([{"op": "replace", "path": path, "value": new}])
    if len(listed) > 1 and 4 * len(listed) >= len(new):  # most of it changed: which is shorter
        return _shorter(ops, new, path)
    return ops


def _shorter(ops: Ops, new: Any, path: str) -> Ops:
    """``ops``, or one ``replace`` of the whole value at ``path`` where that is shorter
    (an array mostly changed, an object most of whose keys went: a round's moves)."""
    whole = Ops([{"op": "replace", "path": path, "value": new}])
    if len(written(whole)) < len(written(ops)):  # the texts kept for the frames
        return whole
    return ops


def _pointer(key: str) -> str:
    """A key as a JSON Pointer token (RFC 6901): ``~`` and ``/`` escaped."""
    return str(key).replace("~", "~0").replace("/", "~1")


def seat_kinds(live: Live) -> dict[Seat, str]:
    """Each seat's kind in table order (``user``, ``bot``, ``invite``, ``open``,
    ``server``; an invitation a guest took reads ``guest``): public, as the seat list;
    made once per ply and seat list (the store replaces the list when a seat changes).
    Read it, never edit it."""
    kept = shared(live)
    made = kept.get("seat-kinds")
    if made is None or made[0] is not live.seats:  # a new seat list: seats changed
        kinds = {
            seat: "guest" if row.kind == "invite" and row.guest else row.kind
            for seat, row in ((s, live.seats[s]) for s in live.state.seats)
        }
        made = kept["seat-kinds"] = (live.seats, kinds)
    return cast(dict[Seat, str], made[1])
