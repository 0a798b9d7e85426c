"""One action's fan-out to a hundred seats, in process: after an action of a 100-player
Super Dice Heroes match and of a 100-player Hero Battle (its moderator too), the time to
build every seat's typed frame (its view, events and legal actions, and the delta
against the view it acknowledged: ``server/frames.py``) and the bytes of each, as the
WebSocket pushes do, without HTTP, sockets or the event loop. Two kinds of action: a
seat's move in the middle of a round (every seat sees it: a hero done, a move posted) and
the action that closes the round (every view changes); with ``--spend``, a hero's private
spend as well (one frame: every other connection finds nothing new to send). The frames
are brought up to date just before each measured action (the other actions are not
fanned out), so each measured frame is one action's delta.

It uses only what the server had before the compact legal forms and shared views
(``Frames``, ``Play.submit``, ``MatchStore.live``), so it measures an older checkout
alike: ``PYTHONPATH=OTHER/src python benchmarks/fanout_inprocess.py``.

    nice .venv/bin/python benchmarks/fanout_inprocess.py [--players 100] [--rounds 2] [--spend]
        [--client]

``--client`` times, besides, a client's share of the last close measured: one seat's frame
inflated (deflated as the server's sockets do: ``server/edge.py``), parsed and its view
patched as the load benchmark's clients do (``server_load.patched``); and the server's
deflate of it.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any


def service_on(folder: Path) -> Any:
    """A match service on a fresh SQLite file (no server, no sockets)."""
    from gladiatorium.games import load
    from gladiatorium.server.db import make_engine, make_sessions, migrate
    from gladiatorium.server.service import MatchService

    load()
    engine = make_engine(f"sqlite:///{folder / 'fanout.db'}")
    migrate(engine)
    return MatchService(make_sessions(engine), lambda _id: None, False)


#: the largest frame of the last fan-out and the view it was made against (``--client``)
LARGEST: list[tuple[str, Any]] = []


def fan_out(live: Any, frames: dict[Any, Any]) -> tuple[tuple[float, float], list[int]]:
    """Every seat's frame after the match's last action, acknowledged as a page does:
    ((wall seconds, CPU seconds of this process), bytes of each frame sent). The CPU
    time is the figure a busy machine disturbs least."""
    # the view each frame will be made against (--client), looked up outside the timing
    bases = [getattr(f, "views", {}).get(getattr(f, "sent", None)) for f in frames.values()]
    made: list[tuple[str, Any]] = []
    gc.freeze()  # as a server's collector does every second (server/collector.py)
    began, cpu = time.perf_counter(), time.process_time()
    for frame, base in zip(frames.values(), bases, strict=True):
        with live.lock:
            text = frame.delta(live)
            if text is not None:
                frame.acknowledged(live.ply)
                made.append((text, base))
    spent = (time.perf_counter() - began, time.process_time() - cpu)
    if made:
        LARGEST[:] = [max(made, key=lambda pair: len(pair[0]))]
    return spent, [len(text) for text, _ in made]


def client_share(text: str, base: Any, rounds: int = 200) -> dict[str, float]:
    """Milliseconds per frame (median of ``rounds``) to deflate ``text`` as the server's
    sockets do, and, as a load-benchmark client, to inflate, parse and patch it."""
    import zlib

    from gladiatorium.server.edge import DEFLATE_LEVEL
    from server_load import patched

    base = json.loads(json.dumps(base))  # the client's own copy, as JSON gave it
    raw = text.encode()

    def deflated() -> bytes:  # 12 window bits and memLevel 5, as server/edge.py agrees
        packer = zlib.compressobj(DEFLATE_LEVEL, zlib.DEFLATED, -12, 5)
        return packer.compress(raw) + packer.flush(zlib.Z_SYNC_FLUSH)

    packed = deflated()
    frame = json.loads(text)
    steps = {
        "deflate": deflated,
        "inflate": lambda: zlib.decompressobj(-12).decompress(packed),
        "parse": lambda: json.loads(text),
        "patch": lambda: patched(base, frame["view"]),
    }
    timed = {name: _median_ms(step, rounds) for name, step in steps.items()}
    return {"bytes": len(raw), "deflated_bytes": len(packed), **timed}


def _median_ms(step: Any, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        began = time.perf_counter()
        step()
        times.append(time.perf_counter() - began)
    return round(statistics.median(times) * 1000, 3)


def opened(service: Any, match_id: str) -> tuple[Any, dict[Any, Any]]:
    """The match and one connection's frames per seat (and a spectator), each sent its
    first body and acknowledging it."""
    from gladiatorium.server.frames import Frames

    live = service.store.live(match_id)
    frames = {seat: Frames(seat) for seat in (*live.state.seats, None)}
    with live.lock:
        for frame in frames.values():
            frame.body(live)
            frame.acknowledged(live.ply)
    return live, frames


def sdh_run(
    service: Any, players: int, rounds: int, rng: random.Random, spend: bool = False
) -> list[dict[str, Any]]:
    """Super Dice Heroes: every hero plays its round out (``done`` at once, or with
    ``spend`` its dice spent at random first, so that the close reveals a hundred heroes'
    choices and changes their sheets); the fan-out after one hero's done mid-round and
    after the last one's (the round closes), and with ``spend`` after that mid-round
    hero's first spend of a dice round (private: only its own seat sees anything new,
    every other connection finds nothing to send)."""
    seats = {str(n): "open" for n in range(1, players + 1)}
    match_id = service.creation.create(None, "super-dice-heroes", players, {}, seats).id
    live, frames = opened(service, match_id)
    rows = []
    for _ in range(rounds + 1):  # the set-up round, then dice rounds
        round_number = live.state.round
        order = list(live.state.awaiting())
        for index, seat in enumerate(order):
            measured = index in (len(order) // 2, len(order) - 1)
            # the middle hero's first spend of a dice round is measured too
            spend_told = round_number == 0 or index != len(order) // 2
            while seat in live.state.awaiting() and live.state.round == round_number:
                with live.lock:
                    legal = [str(a) for a in live.state.legal_actions(seat)]
                if measured:
                    fan_out(live, frames)  # the frames up to date: one action's delta next
                spends = [a for a in legal if a != "done"] if spend else []
                if spends:
                    choice = rng.choice(spends)
                elif "done" in legal:
                    choice = "done"
                else:
                    choice = rng.choice(legal)
                service.play.submit(match_id, seat, choice)
                if not spend_told and choice in spends:
                    spend_told = True
                    seconds, sizes = fan_out(live, frames)
                    rows.append(row("super-dice-heroes", round_number, "a spend", seconds, sizes))
                    continue
                # the seat's part of the round is over once it is no longer awaited, or
                # once its action closed the round (every hero is awaited in the next)
                if not measured or (
                    seat in live.state.awaiting() and live.state.round == round_number
                ):
                    continue
                seconds, sizes = fan_out(live, frames)
                kind = "closes the round" if index == len(order) - 1 else "a seat's last move"
                rows.append(row("super-dice-heroes", round_number, kind, seconds, sizes))
    return rows


def hb_run(service: Any, players: int, rounds: int, rng: random.Random) -> list[dict[str, Any]]:
    """Hero Battle: every player moves (two hits and a heal, on living heroes), then the
    moderator closes the round; the fan-out after the middle player's move and after
    the close."""
    signups = [f"Hero {n}" for n in range(1, players + 1)]
    options = {"signups": signups, "close_when_all_moved": False}
    seats = {**{str(n): "open" for n in range(1, players + 1)}, "moderator": "open"}
    match_id = service.creation.create(None, "hero-battle", players, options, seats).id
    live, frames = opened(service, match_id)
    rows = []
    for _ in range(rounds):
        round_number = live.state.round
        movers = [s for s in live.state.deciding() if s != "moderator"]
        for index, seat in enumerate(movers):
            with live.lock:
                heroes = live.state.view(None)["heroes"]
            alive = sorted(name for name, hero in heroes.items() if hero["status"] == "alive")
            a, b, c = rng.sample(alive, 3)
            hits = ", ".join(sorted((a, b), key=lambda n: (n.casefold(), n)))
            measured = index == len(movers) // 2
            if measured:
                fan_out(live, frames)  # the frames up to date: one action's delta next
            try:
                service.play.submit(match_id, seat, f"hit {hits} heal {c}")
            except Exception:  # a Zombie's move, say: it abstains
                service.play.submit(match_id, seat, "abstain")
            if measured:
                seconds, sizes = fan_out(live, frames)
                rows.append(row("hero-battle", round_number, "a seat's move", seconds, sizes))
        fan_out(live, frames)
        service.play.submit(match_id, "moderator", "close")
        seconds, sizes = fan_out(live, frames)
        rows.append(row("hero-battle", round_number, "closes the round", seconds, sizes))
        if live.state.is_over:
            break
    return rows


def row(
    game: str, round_number: int, kind: str, seconds: tuple[float, float], sizes: list[int]
) -> dict[str, Any]:
    return {
        "game": game,
        "round": round_number,
        "action": kind,
        "ms": round(seconds[0] * 1000, 1),
        "cpu_ms": round(seconds[1] * 1000, 1),
        "frames": len(sizes),
        "bytes_median": int(statistics.median(sizes)) if sizes else 0,
        "bytes_max": max(sizes, default=0),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--games", default="super-dice-heroes,hero-battle")
    parser.add_argument(
        "--spend", action="store_true", help="Super Dice Heroes' heroes spend their dice"
    )
    parser.add_argument(
        "--client", action="store_true", help="time a client's share of the last close too"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.players)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as folder:
        service = service_on(Path(folder))
        if "super-dice-heroes" in args.games:
            rows += sdh_run(service, args.players, args.rounds, rng, args.spend)
        if "hero-battle" in args.games:
            rows += hb_run(service, args.players, args.rounds, rng)
        client = client_share(*LARGEST[0]) if args.client else None
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    if args.json:
        print(json.dumps({"load": load, "rows": rows, "client": client}))
        return
    head = ("game", "round", "action", "ms", "cpu ms", "frames", "bytes med", "max")
    print("{:18} {:>5} {:20} {:>8} {:>8} {:>6} {:>9} {:>8}".format(*head))
    for r in rows:
        print(
            f"{r['game']:18} {r['round']:>5} {r['action']:20} {r['ms']:>8} {r['cpu_ms']:>8} "
            f"{r['frames']:>6} "
            f"{r['bytes_median']:>9} {r['bytes_max']:>8}"
        )
    if client is not None:
        print(
            f"the last close's largest frame, {client['bytes']} bytes "
            f"({client['deflated_bytes']} deflated), ms per frame: the server's deflate "
            f"{client['deflate']}; a client's inflate {client['inflate']}, parse "
            f"{client['parse']}, patch {client['patch']}"
        )
    print(f"(load average (1/5/15 min) at the end {load})")


if __name__ == "__main__":
    main()
