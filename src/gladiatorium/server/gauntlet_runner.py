"""The gauntlet runner: a process of its own that ``gladiatorium serve`` starts beside
the web server (never a thread of it), which claims gauntlets in the database
(server/gauntlets.py) and plays them through the lab's job runner, ``run_jobs``: in
this process (one worker), on worker processes (``gauntlet_workers``), or on a Ray
cluster (``gauntlet_ray_address``), the same games and results whatever plays them.

A job is played in chunks of ``gauntlet_chunk`` games, in game order; after each, the
chunk's marks are written under the claim, and a thread beats the claim's heart
meanwhile. The runner dies with its server (even by ``kill -9``), and its worker
processes with it.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import threading
from dataclasses import asdict
from datetime import timedelta

from sqlalchemy import inspect
from sqlalchemy.orm import Session, sessionmaker

from gladiatorium.core import GladiatoriumError
from gladiatorium.core.jobs import Runner, connect_ray, die_with_parent, run_jobs
from gladiatorium.server import gauntlets
from gladiatorium.server.config import Settings
from gladiatorium.server.db import make_engine, make_sessions
from gladiatorium.server.hall import record_lab_rating

log = logging.getLogger("gladiatorium.gauntlets")


class GauntletRunner:
    """Claims gauntlets one at a time and plays each to its end."""

    def __init__(self, sessions: sessionmaker[Session], settings: Settings) -> None:
        self.sessions = sessions
        self.settings = settings
        self.stale = timedelta(seconds=settings.gauntlet_stale_seconds)
        self.stopping = threading.Event()

    def runner(self) -> Runner:
        """Where the games run: a Ray cluster if one is named, else local processes."""
        address = self.settings.gauntlet_ray_address
        if address:
            return Runner("ray", self.settings.gauntlet_workers, address)
        return Runner("local", self.settings.gauntlet_workers)

    def run_once(self) -> bool:
        """Claim one gauntlet and play it to its end (or until its claim is lost);
        False when there was none to claim. A Ray cluster named is joined first, once
        for the process (a cluster that does not answer claims nothing)."""
        address = self.settings.gauntlet_ray_address
        if address:
            connect_ray(self.settings.gauntlet_workers, address)
        job = gauntlets.claim_next(self.sessions, gauntlets.new_claim(), self.stale)
        if job is None:
            return False
        log.info("gauntlet %s claimed (%d games played before)", job.hero_ref, len(job.marks))
        lost = threading.Event()
        beating = threading.Thread(
            target=self._beat, args=(job, lost), name="gauntlet-heartbeat", daemon=True
        )
        beating.start()
        try:
            self._play(job, lost)
        finally:
            lost.set()
            beating.join()
        return True

    def _beat(self, job: gauntlets.Claimed, lost: threading.Event) -> None:
        """Renew the claim until the job ends or the claim is lost."""
        while not lost.wait(self.settings.gauntlet_heartbeat_seconds):
            try:
                if not gauntlets.heartbeat(self.sessions, job):
                    log.warning("gauntlet %s: claim lost", job.hero_ref)
                    lost.set()
            except Exception:  # a passing fault (a busy database): beat again
                log.exception("gauntlet %s: heartbeat failed", job.hero_ref)

    def _play(self, job: gauntlets.Claimed, lost: threading.Event) -> None:
        try:
            planned = gauntlets.plan(job.game, job.hero_yaml, job.seed, job.size)
        except GladiatoriumError as err:  # the hero no longer plans: for good
            gauntlets.give_up(self.sessions, job, str(err))
            return
        games = planned.jobs()
        marks = job.marks
        step = max(1, self.settings.gauntlet_chunk)
        while len(marks) < len(games):
            if lost.is_set() or self.stopping.is_set():
                return
            chunk = games[len(marks) : len(marks) + step]
            played = run_jobs(chunk, self.runner())
            written = marks + "".join(planned.mark(result) for result in played)
            if not gauntlets.record_chunk(self.sessions, job, marks, written):
                return  # another process holds it now
            marks = written
        if gauntlets.finish(self.sessions, job, marks, planned.summary(marks), record_lab_rating):
            log.info("gauntlet %s done (%d games)", job.hero_ref, len(marks))

    def run(self) -> None:
        """Run gauntlets until stopped, looking again every ``gauntlet_poll_seconds``
        when there is none."""
        while not self.stopping.is_set():
            try:
                busy = self.run_once()
            except Exception:  # the runner must go on with the next job
                log.exception("gauntlet runner: a job failed")
                busy = False
            if not busy:
                self.stopping.wait(self.settings.gauntlet_poll_seconds)


# ----- the process ----------------------------------------------------------------------
def start_process(settings: Settings) -> subprocess.Popen[bytes]:
    """Start the runner process for a server process (this one; from its main thread,
    whose end is what the runner dies with): it is handed this process's id on its
    command line and the settings on its standard input (they may hold passwords)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "gladiatorium.server.gauntlet_runner", str(os.getpid())],
        stdin=subprocess.PIPE,
    )
    assert process.stdin is not None
    process.stdin.write(json.dumps(asdict(settings)).encode())
    process.stdin.close()
    return process


def stop_process(process: subprocess.Popen[bytes]) -> None:
    """Stop the runner at once: a job it held is claimed again once its claim is stale
    (its games so far are kept)."""
    if process.poll() is None:
        process.kill()
        process.wait()


def main(parent: int, given: str) -> None:
    """The runner process: bound to its server's life, then claiming jobs forever
    (once the server has made the table)."""
    die_with_parent(parent, signal.SIGKILL)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s [runner] %(name)s %(message)s")
    values = json.loads(given)
    values["extra_origins"] = tuple(values.get("extra_origins", ()))
    settings = Settings(**values)
    engine = make_engine(settings.database_url)
    runner = GauntletRunner(make_sessions(engine), settings)
    while not inspect(engine).has_table("gauntlets"):  # the server migrates on start
        runner.stopping.wait(settings.gauntlet_poll_seconds)
    runner.run()


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.stdin.read())
