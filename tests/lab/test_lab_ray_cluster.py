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
