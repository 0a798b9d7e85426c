"""A tournament on a Ray cluster given by ``--address``: a real Ray head started in a
process of its own (as ``ray start`` starts one on a cluster's head node), reached over
its port, gives the same tournament as the local backend."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gladiatorium.cli.main import app

runner = CliRunner()

#: seconds the head has to answer on its port before the test gives up
START_TIMEOUT = 60.0
#: a small tournament: two bots, both seat orders, four Pig games each
TOURNAMENT = ["lab", "tournament", "pig", "--bots", "random,mcts:iterations=20"]
TOURNAMENT += ["--games", "4", "--seed", "5", "--json"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


@pytest.fixture(scope="module")
def ray_head() -> Iterator[str]:
    """A Ray head on this machine with two CPUs, in its own process group and temporary
    folder (so no other Ray on the machine finds it as its default cluster); stopped,
    with every process it started, at the end."""
    pytest.importorskip("ray")
    ray_command = Path(sys.executable).with_name("ray")
    if not ray_command.exists():
        pytest.skip("the ray command is not installed beside this Python")
    port = free_port()
    # a short path: Ray's sockets live under it, and a socket path is at most 107 bytes
    folder = tempfile.mkdtemp(prefix="gl-ray-", dir="/tmp")
    command = [str(ray_command), "start", "--head", "--block", "--port", str(port)]
    command += ["--num-cpus", "2", "--include-dashboard=false", "--disable-usage-stats"]
    command += ["--temp-dir", folder, "--dashboard-agent-listen-port", str(free_port())]
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
    env.pop("RAY_ADDRESS", None)
    log = Path(folder, "head.log")
    with log.open("w") as output:
        head = subprocess.Popen(
            command, env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        deadline = time.monotonic() + START_TIMEOUT
        # ``ray start`` writes the cluster's address into its folder once the head is up
        while not (answers(port) and Path(folder, "ray_current_cluster").exists()):
            if head.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the Ray head did not start: {log.read_text()}")
            time.sleep(0.5)
        yield f"127.0.0.1:{port}"
    finally:
        stop(head)
        shutil.rmtree(folder, ignore_errors=True)


def stop(head: subprocess.Popen[bytes]) -> None:
    """SIGTERM to ``ray start --block``, which then stops every process it started;
    SIGKILL to its process group if it has not within 30 seconds, and to anything of
    the group still running."""
    head.send_signal(signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        head.wait(timeout=30)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(head.pid, signal.SIGKILL)
    head.wait()


def test_a_tournament_on_a_ray_cluster_equals_the_local_one(
    ray_head: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pig, ``random`` against ``mcts`` in both seat orders: the same JSON, ratings and
    head-to-head figures, from the cluster's tasks as from this process."""
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    local = runner.invoke(app, TOURNAMENT)
    assert local.exit_code == 0, local.output
    remote = runner.invoke(app, [*TOURNAMENT, "--backend", "ray", "--address", ray_head])
    assert remote.exit_code == 0, remote.output
    assert json.loads(remote.stdout) == json.loads(local.stdout)
    played = json.loads(local.stdout)
    assert played["games"] == 8 and sum(r["wins"] for r in played["ratings"]) == 8


def test_a_servers_gauntlet_on_a_ray_cluster_equals_the_local_one(
    ray_head: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The server's gauntlet runner with a cluster address joins it once and plays a
    hero's gauntlet there, chunk by chunk: the same marks and results as in this
    process."""
    import dataclasses

    import ray

    from gladiatorium.core.gauntlet import GauntletSize
    from gladiatorium.core.jobs import run_jobs
    from gladiatorium.games.superhero_gladiators.hero_files import find_sample
    from gladiatorium.games.superhero_gladiators.lab.gauntlet import HeroGauntlet
    from gladiatorium.server.config import Settings
    from gladiatorium.server.db import GauntletJob, make_engine, make_sessions, migrate
    from gladiatorium.server.gauntlet_runner import GauntletRunner
    from gladiatorium.server.gauntlets import enqueue_gauntlet

    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    size = GauntletSize((("greedy", 1),), ("small",))
    path = find_sample("perseus")
    assert path is not None
    text = path.read_text(encoding="utf-8")
    engine = make_engine(f"sqlite:///{tmp_path / 'g.db'}")
    migrate(engine)
    sessions = make_sessions(engine)
    with sessions.begin() as session:
        enqueue_gauntlet(session, "hall:perseus@1", text, seed=6, size=size)
    settings = dataclasses.replace(
        Settings(database_url="sqlite://"), gauntlet_ray_address=ray_head, gauntlet_chunk=5
    )
    runner = GauntletRunner(sessions, settings)
    try:
        assert runner.run_once()
        assert ray.is_initialized()  # joined once, left open for the next job
        assert not runner.run_once()
    finally:
        ray.shutdown()
    plan = HeroGauntlet(text, 6, size)
    marks = "".join(plan.mark(r) for r in run_jobs(plan.jobs()))
    with sessions() as session:
        row = session.query(GauntletJob).one()
        assert (row.state, row.marks) == ("done", marks)
        assert row.results == plan.summary(marks)
    engine.dispose()
