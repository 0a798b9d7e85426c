"""The job runner: a batch of games as plain job specs, run on one core, on
worker processes, or as Ray tasks, with the same results whatever runs them.

A :class:`Job` is a pure function of (game, options, players, seed, seat -> bot), so
where it runs cannot change what it returns. Each job's seed comes from the run seed
and the job's index through :func:`~gladiatorium.core.derive_seed` (SHA-256, the same
on every machine). Results come back ordered by index.

With a results file, every finished game is appended to it as one JSON line as soon
as it is known; a later run with the same file skips the games already there.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import hashlib
import json
import logging
import os
import signal
import socket
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

from gladiatorium.core import GladiatoriumError, Reason, Seat, get_game, kept
from gladiatorium.core.kept import KeptByIdentity
from gladiatorium.core.match import make_bots, run_match
from gladiatorium.core.record import record_of
from gladiatorium.core.registry import Registered, registered, restore

Backend = Literal["local", "ray"]
BACKENDS: tuple[Backend, ...] = ("local", "ray")
#: the first line of a results file says what it holds
RESULTS_KIND = "gladiatorium-results"
#: games handed to a worker at a time (fewer when the batch is small): few, so that the
#: progress bar moves and a stopped run loses little of the work in flight
MAX_CHUNK = 10
#: seconds a Ray cluster's address has to answer before the run is refused
CONNECT_TIMEOUT = 10.0


class JobError(GladiatoriumError):
    """A batch that cannot run: an unknown backend, a results file of another run."""


@dataclass(frozen=True)
class Job:
    """One game to play, described by plain values (it pickles and travels to Ray)."""

    index: int
    game: str
    options: Mapping[str, Any]  # JSON form, as ``model_dump(mode="json")`` gives
    players: int
    seed: int
    bots: Mapping[Seat, str]
    position: str | None = None  # a written position the game starts from
    keep_record: bool = False

    @property
    def key(self) -> str:
        """A short digest of what decides the game's result, kept beside it on disk so
        that a resumed run can tell a result of this job from one of another."""
        # the JSON text of [game, options, players, seed, bots, position]: the digest of
        # its batch's part (game, options, players) is taken once and carried on
        digest = batch_digest(self.game, self.options, self.players).copy()
        rest = f",{plain_json(self.seed)},{json_text(self.bots)},{plain_json(self.position)}]"
        digest.update(rest.encode())
        return digest.hexdigest()[:16]


def json_text(value: Any) -> str:
    """``value`` as compact JSON text with sorted keys."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def plain_json(value: int | str | None) -> str:
    """:func:`json_text` of a seed or a position: an integer or no position written
    without the encoder."""
    if value is None:
        return "null"
    if type(value) is int:
        return str(value)
    return json_text(value)


def options_text(options: Mapping[str, Any]) -> str:
    """:func:`json_text` of a batch's options (read only), made once per options
    object: every job of a batch shares it, and a team's hero files make it long."""
    return _OPTIONS_TEXT.made(id(options), options, lambda: json_text(options))


#: the JSON text of options met, by the options' id
_OPTIONS_TEXT: KeptByIdentity[int, str] = KeptByIdentity(
    "core.jobs.options_text", "core", 16, "the JSON text of a batch's options"
)


def batch_digest(game: str, options: Mapping[str, Any], players: int) -> hashlib._Hash:
    """The SHA-256 state after ``[game,options,players`` of a job's key text, taken once
    per batch (every job of a batch shares that part; a team's hero files make it
    long): a job's key carries on from a copy of it."""

    def digest() -> hashlib._Hash:
        text = f"[{json_text(game)},{options_text(options)},{json_text(players)}"
        return hashlib.sha256(text.encode())

    return _BATCH_DIGESTS.made((game, id(options), players), options, digest)


#: the digests of the batches' parts of job keys met, by game, the options' id and
#: players
_BATCH_DIGESTS: KeptByIdentity[tuple[str, int, int], hashlib._Hash] = KeptByIdentity(
    "core.jobs.batch_digests", "core", 16, "the digest of a batch's part of its jobs' keys"
)


@dataclass(frozen=True)
class GameResult:
    """How one game ended: winners (or a draw, or all lost), its length and scores."""

    index: int
    winners: tuple[Seat, ...]
    team: str | None
    length: int  # actions played
    record: dict[str, Any] | None
    all_lost: bool = False
    reason: str = ""
    #: the typed reason (None for a result read from a file written without it)
    why: Reason | None = None
    rounds: int | None = None  # for games played in rounds
    scores: Mapping[Seat, float] = field(default_factory=dict)
    key: str = ""

    @property
    def draw(self) -> bool:
        return not self.winners and not self.all_lost

    def to_json(self) -> dict[str, Any]:
        """The line written to a results file (the match record is not kept there)."""
        return {
            "index": self.index,
            "key": self.key,
            "winners": list(self.winners),
            "team": self.team,
            "all_lost": self.all_lost,
            "reason": self.reason,
            "why": None if self.why is None else self.why.to_json(),
            "length": self.length,
            "rounds": self.rounds,
            "scores": dict(self.scores),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameResult:
        return cls(
            index=int(data["index"]),
            winners=tuple(str(s) for s in data["winners"]),
            team=None if data["team"] is None else str(data["team"]),
            length=int(data["length"]),
            record=None,
            all_lost=bool(data["all_lost"]),
            reason=str(data["reason"]),
            why=None if data.get("why") is None else Reason.from_json(data["why"]),
            rounds=None if data["rounds"] is None else int(data["rounds"]),
            scores={str(s): float(v) for s, v in data["scores"].items()},
            key=str(data["key"]),
        )


@kept.cached("core.jobs.checked_options", "core", 16, "a batch's options, checked")
def checked_options(game: str, options: str) -> BaseModel:
    """A batch's options (JSON text) checked once for all its games in this process
    (a Superhero Gladiators team's heroes are read once, not once a game)."""
    return get_game(game).make_options(json.loads(options))


def play(job: Job) -> GameResult:
    """Play one job to its end with the bots it names (registered in this process)."""
    game = get_game(job.game)
    options = checked_options(job.game, options_text(job.options))
    state = game.start(options, job.players, job.seed, job.position)
    run_match(state, make_bots(game, job.seed, job.bots))
    outcome = state.outcome()
    assert outcome is not None
    record = record_of(game, state, dict(job.bots)).model_dump() if job.keep_record else None
    return GameResult(
        index=job.index,
        winners=outcome.winners,
        team=outcome.team,
        length=len(state.history),
        record=record,
        all_lost=outcome.lost,
        reason=outcome.reason,
        why=outcome.why,
        rounds=game.round_number(state),
        scores=dict(outcome.scores),
        key=job.key,
    )


def play_chunk(jobs: Sequence[Job], games: Registered) -> list[GameResult]:
    """Play ``jobs`` in a worker process, which first registers ``games``: the games
    and bots of the process that handed them out."""
    restore(games)
    return list(_played(jobs))


def _played(jobs: Sequence[Job]) -> Iterator[GameResult]:
    """Each job played in this process, one after the other."""
    with few_collections():
        for job in jobs:
            yield play(job)


#: the cyclic garbage collector's first threshold while a batch plays (700 by default)
BATCH_COLLECTION = 50_000


@contextmanager
def few_collections() -> Iterator[None]:
    """While a batch plays in this process: what was made before it (modules, the
    games' tables) is left out of the cyclic garbage collector's walks (``gc.freeze``),
    and the collector runs after 50,000 new objects instead of 700. A match's objects
    hold no cycles (reference counting frees them as soon as they are dropped), so a
    batch spent a tenth of its time walking them for nothing (the duels: 8-10%). What
    another part froze (the server at start) stays frozen: the batch then freezes
    nothing, and thaws nothing."""
    threshold = gc.get_threshold()
    freezing = gc.get_freeze_count() == 0
    if freezing:
        gc.freeze()
    gc.set_threshold(BATCH_COLLECTION, *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        if freezing:
            gc.unfreeze()


@dataclass(frozen=True)
class Runner:
    """Where jobs run: ``local`` (this process, or ``workers`` processes) or ``ray``
    (a local Ray with ``workers`` CPUs started for the run, or the cluster at
    ``address``)."""

    backend: Backend = "local"
    workers: int = 1
    address: str | None = None

    def __post_init__(self) -> None:
        if self.backend not in BACKENDS:
            raise JobError(f"--backend {self.backend!r}: choose one of {', '.join(BACKENDS)}")
        if self.workers < 1:
            raise JobError(f"--jobs {self.workers}: give at least 1")
        if self.address is not None and self.backend != "ray":
            raise JobError("--address names a Ray cluster; add --backend ray")

    def results(self, jobs: Sequence[Job]) -> Iterator[GameResult]:
        """Each job's result as soon as it is known (not in index order)."""
        if not jobs:
            return iter(())
        if self.backend == "ray":
            parts = chunks(jobs, self.workers)
            return _ray_results(parts, registered(), self.workers, self.address)
        if self.workers == 1:
            return _played(jobs)
        return _pool_results(chunks(jobs, self.workers), registered(), self.workers)


def chunks(jobs: Sequence[Job], workers: int) -> list[list[Job]]:
    """Jobs in runs small enough to keep every worker busy to the end."""
    size = max(1, min(MAX_CHUNK, len(jobs) // (workers * 4)))
    return [list(jobs[i : i + size]) for i in range(0, len(jobs), size)]


#: Linux's prctl option: the signal a process gets when its parent dies
_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int, signum: int = signal.SIGKILL) -> None:
    """Have this process sent ``signum`` when its parent (``parent``) dies, even by
    ``kill -9``, which it cannot pass on (Linux; elsewhere nothing is asked): a worker
    process never outlives the run that started it, nor a server's helper process its
    server. A parent gone already ends this process at once."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signum)
    if os.getppid() != parent:  # it died before the request was made
        os._exit(0)


def _pool_results(parts: list[list[Job]], games: Registered, workers: int) -> Iterator[GameResult]:
    # the workers die with this process: a run killed leaves none behind (a forked
    # worker holds both ends of its queue's pipe, so it would wait for work forever)
    with ProcessPoolExecutor(workers, initializer=die_with_parent, initargs=(os.getpid(),)) as pool:
        pending: set[Future[list[GameResult]]] = {pool.submit(play_chunk, p, games) for p in parts}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield from future.result()
        finally:
            for future in pending:
                future.cancel()


def _ray_results(
    parts: list[list[Job]], games: Registered, workers: int, address: str | None
) -> Iterator[GameResult]:
    ray = _ray()
    started = not ray.is_initialized()
    if started:
        _start_ray(ray, workers, address)
    task = ray.remote(play_chunk)
    pending = [task.remote(p, games) for p in parts]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield from ray.get(ref)
    finally:
        for ref in pending:
            ray.cancel(ref)
        if started:
            ray.shutdown()


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise JobError("--backend ray needs Ray: pip install 'gladiatorium[cluster]'") from None
    return ray


def connect_ray(workers: int, address: str | None) -> None:
    """Start or join Ray in this process once, for many runs: a run that finds Ray
    started uses it and leaves it running (a long-lived process, such as the server's
    gauntlet runner, then connects once rather than once a run)."""
    ray = _ray()
    if not ray.is_initialized():
        _start_ray(ray, workers, address)


def _start_ray(ray: Any, workers: int, address: str | None) -> None:
    """A local Ray with ``workers`` CPUs for this run, or the cluster at ``address``
    (whose nodes must have this version of gladiatorium installed)."""
    quiet = {"log_to_driver": False, "logging_level": logging.WARNING}
    if address is None:
        # a Ray started for one run on this machine needs no login; a cluster keeps its own
        os.environ.setdefault("RAY_AUTH_MODE", "disabled")
        ray.init(num_cpus=workers, include_dashboard=False, **quiet)
        return
    check_address(address)
    try:
        ray.init(address=address, **quiet)
    except (ConnectionError, RuntimeError, ValueError) as err:
        raise JobError(f"--address {address}: no Ray cluster answers there ({err})") from err


def check_address(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Refuse a cluster address that is not HOST:PORT, or where nothing answers within
    ``timeout`` seconds, at once: Ray itself would go on trying for minutes."""
    if address == "auto":  # Ray looks for the cluster this machine belongs to
        return
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise JobError(f"--address {address}: give the cluster as HOST:PORT (10.0.0.5:6379)")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except TimeoutError as err:
        raise JobError(f"--address {address}: no answer within {timeout:g} s") from err
    except OSError as err:
        reason = err.strerror or str(err)
        raise JobError(f"--address {address}: no Ray cluster answers there ({reason})") from err


class ResultsFile:
    """A JSON-lines file of finished games: a header naming the run, then one line per
    game in the order they finished. Opening it again resumes the run."""

    def __init__(self, path: Path, run: Mapping[str, Any]) -> None:
        self.path = path
        self.run = json.loads(json.dumps(dict(run)))  # the JSON form, as read back

    def load(self, jobs: Sequence[Job]) -> dict[int, GameResult]:
        """The games of ``jobs`` already in the file (none if it does not exist). A file
        of another run is refused; a last line cut short by a stop is dropped."""
        if not self.path.exists():
            return {}
        try:
            raw = self.path.read_bytes()
        except OSError as err:
            raise JobError(f"--results {self.path}: cannot read it ({err.strerror})") from err
        lines = raw.split(b"\n")
        complete, cut = lines[:-1], lines[-1]
        if cut:  # the last line has no newline: a write was stopped half-way
            self._truncate(len(raw) - len(cut))
        if not complete:
            return {}
        self._check_header(complete[0])
        by_index = {job.index: job for job in jobs}
        done: dict[int, GameResult] = {}
        for number, line in enumerate(complete[1:], start=2):
            result = self._read_line(line, number)
            job = by_index.get(result.index)
            if job is None:
                continue  # a game beyond this run's count: kept, not counted
            if result.key != job.key:
                raise JobError(
                    f"--results {self.path}, line {number}: game {result.index} was played "
                    "with other settings than this run's; use another file"
                )
            done[result.index] = result
        return done

    def _truncate(self, size: int) -> None:
        with self.path.open("r+b") as handle:
            handle.truncate(size)

    def _check_header(self, line: bytes) -> None:
        try:
            header = json.loads(line)
        except (ValueError, RecursionError):
            header = None
        if not isinstance(header, dict) or header.get("kind") != RESULTS_KIND:
            raise JobError(f"--results {self.path}, line 1: not a gladiatorium results file")
        if header.get("run") != self.run:
            theirs = header.get("run") or {}
            differ = sorted(
                k for k in set(theirs) | set(self.run) if theirs.get(k) != self.run.get(k)
            )
            raise JobError(
                f"--results {self.path}: holds another run (it differs in "
                f"{', '.join(differ)}); use another file, or the same settings to resume"
            )

    def _read_line(self, line: bytes, number: int) -> GameResult:
        try:
            return GameResult.from_json(json.loads(line))
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as err:
            raise JobError(
                f"--results {self.path}, line {number}: not a game result ({err})"
            ) from err

    def append(self, result: GameResult) -> None:
        new = not self.path.exists() or self.path.stat().st_size == 0
        try:
            with self.path.open("a", encoding="utf-8") as handle:
                if new:
                    header = {"kind": RESULTS_KIND, "run": self.run}
                    handle.write(json.dumps(header, sort_keys=True) + "\n")
                handle.write(json.dumps(result.to_json(), sort_keys=True) + "\n")
        except OSError as err:
            raise JobError(f"--results {self.path}: cannot write it ({err.strerror})") from err


def run_jobs(
    jobs: Sequence[Job],
    runner: Runner | None = None,
    results: ResultsFile | None = None,
    on_done: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    """Play every job (skipping those already in ``results``), appending each new one
    to ``results`` as it finishes; ``on_done`` hears of every game, the resumed ones
    first. The results are returned in index order. The batch is a scope of the
    process's tables (:func:`~gladiatorium.core.kept.scope`): it starts with them empty,
    as a fresh process does, and so do the worker processes it starts."""
    with kept.scope():
        return _run_jobs(jobs, runner, results, on_done)


def _run_jobs(
    jobs: Sequence[Job],
    runner: Runner | None,
    results: ResultsFile | None,
    on_done: Callable[[GameResult], None] | None,
) -> list[GameResult]:
    runner = runner or Runner()
    done = results.load(jobs) if results is not None else {}
    for result in sorted(done.values(), key=lambda r: r.index):
        if on_done is not None:
            on_done(result)
    todo = [job for job in jobs if job.index not in done]
    for result in runner.results(todo):
        if results is not None:
            results.append(result)
        done[result.index] = result
        if on_done is not None:
            on_done(result)
    return [done[job.index] for job in jobs]
