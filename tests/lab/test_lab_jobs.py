"""The job runner: the same results whatever runs the games, kept on disk and resumed."""

from __future__ import annotations

import gc
import hashlib
import json
import re
import socket
from pathlib import Path

import pytest

from gladiatorium.core import kept
from gladiatorium.core.batches import Batch, jobs_of
from gladiatorium.core.jobs import (
    BATCH_COLLECTION,
    GameResult,
    Job,
    JobError,
    ResultsFile,
    Runner,
    check_address,
    run_jobs,
)

PIG = Batch("pig", {"target": 20, "sides": 6}, 2, 11, {"1": "random", "2": "random"})
RUN = {"command": "test", "seed": 11}


def lines(results: list[GameResult]) -> list[dict[str, object]]:
    return [r.to_json() for r in results]


def test_each_game_has_its_own_seed_from_the_run_seed_and_its_index() -> None:
    jobs = jobs_of(PIG, 3)
    assert [j.seed for j in jobs] == [j.seed for j in jobs_of(PIG, 5)[:3]]
    assert len({j.seed for j in jobs}) == 3
    assert len({j.key for j in jobs}) == 3


def test_a_batch_collects_rarely_while_it_plays_and_leaves_the_collector_as_it_was() -> None:
    before = gc.get_threshold()
    during: list[int] = []
    run_jobs(jobs_of(PIG, 3), on_done=lambda _: during.append(gc.get_threshold()[0]))
    assert during == [BATCH_COLLECTION] * 3
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
    kept.empty()  # a batch empties the tables: what they held would leave the frozen count
    gc.freeze()  # as the server does at start: a batch leaves it frozen
    try:
        frozen = gc.get_freeze_count()
        run_jobs(jobs_of(PIG, 2))
        assert gc.get_freeze_count() == frozen and gc.get_threshold() == before
    finally:
        gc.unfreeze()


def test_worker_processes_give_the_results_of_one_process_in_index_order() -> None:
    jobs = jobs_of(PIG, 24)
    alone = run_jobs(jobs)
    pooled = run_jobs(jobs, Runner("local", 2))
    assert [r.index for r in pooled] == list(range(24))
    assert lines(pooled) == lines(alone)
    assert {r.winners for r in alone} == {("1",), ("2",)}


def test_a_rerun_with_the_results_file_plays_only_the_missing_games(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    jobs = jobs_of(PIG, 12)
    first = run_jobs(jobs[:5], results=ResultsFile(path, RUN))
    assert len(path.read_text().splitlines()) == 1 + 5
    heard: list[int] = []
    again = run_jobs(jobs, results=ResultsFile(path, RUN), on_done=lambda r: heard.append(r.index))
    assert heard[:5] == [0, 1, 2, 3, 4] and sorted(heard) == list(range(12))
    assert lines(again) == lines(run_jobs(jobs))
    assert lines(again[:5]) == lines(first)
    assert len(path.read_text().splitlines()) == 1 + 12


def test_a_last_line_cut_short_is_played_again(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    jobs = jobs_of(PIG, 4)
    run_jobs(jobs, results=ResultsFile(path, RUN))
    text = path.read_bytes()
    path.write_bytes(text[:-20])  # stopped while writing game 4's line
    again = run_jobs(jobs, results=ResultsFile(path, RUN))
    assert lines(again) == lines(run_jobs(jobs))
    rows = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    assert sorted(r["index"] for r in rows) == [0, 1, 2, 3]


def test_a_file_of_another_run_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    run_jobs(jobs_of(PIG, 2), results=ResultsFile(path, RUN))
    before = path.read_bytes()
    with pytest.raises(JobError, match=r"runs.jsonl: holds another run \(it differs in seed\)"):
        run_jobs(jobs_of(PIG, 2), results=ResultsFile(path, {**RUN, "seed": 12}))
    other = Batch("pig", {"target": 25, "sides": 6}, 2, 11, {"1": "random", "2": "random"})
    with pytest.raises(JobError, match="line 2: game 0 was played with other settings"):
        run_jobs(jobs_of(other, 2), results=ResultsFile(path, RUN))
    path.write_bytes(before.replace(b'"index"', b'"indice"', 1))
    with pytest.raises(JobError, match="line 2: not a game result"):
        run_jobs(jobs_of(PIG, 2), results=ResultsFile(path, RUN))
    (tmp_path / "notes.jsonl").write_text("hello\n")
    with pytest.raises(JobError, match=r"notes\.jsonl, line 1: not a gladiatorium results file"):
        run_jobs(jobs_of(PIG, 2), results=ResultsFile(tmp_path / "notes.jsonl", RUN))


def test_bad_runner_settings_are_refused() -> None:
    with pytest.raises(JobError, match="--backend 'spark'"):
        Runner("spark")  # type: ignore[arg-type]
    with pytest.raises(JobError, match="--address names a Ray cluster"):
        Runner("local", 1, "ray://head:10001")


def test_a_cluster_address_that_does_not_answer_is_refused_at_once() -> None:
    """Ray itself retries an address for minutes; the runner asks it first."""
    with socket.socket() as probe:  # a port just freed: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"127.0.0.1:{port}"
    refused = re.escape(f"--address {address}: no Ray cluster answers there")
    with pytest.raises(JobError, match=refused):
        run_jobs(jobs_of(PIG, 2), Runner("ray", 1, address))
    with pytest.raises(JobError, match="--address head: give the cluster as HOST:PORT"):
        check_address("head")
    with pytest.raises(JobError, match=re.escape("--address 192.0.2.1:6379: no ")):
        check_address("192.0.2.1:6379", timeout=0.2)  # a documentation-only address


def test_ray_tasks_on_two_cpus_give_the_local_results() -> None:
    pytest.importorskip("ray")
    jobs = jobs_of(PIG, 16)
    assert lines(run_jobs(jobs, Runner("ray", 2))) == lines(run_jobs(jobs))


def test_a_jobs_key_is_the_digest_of_what_decides_its_result() -> None:
    """The key kept in results files: its text is the JSON of the job's game, options,
    players, seed, bots and position (a file written before resumes)."""
    job = Job(3, "pig", {"target": 20, "sides": 6}, 2, 77, {"2": "random", "1": "hold"})
    spec = [job.game, job.options, job.players, job.seed, job.bots, job.position]
    text = json.dumps(spec, sort_keys=True, separators=(",", ":"))
    assert job.key == hashlib.sha256(text.encode()).hexdigest()[:16]
    assert job.key == "35b76f9b2bd27459"  # as written before


def test_the_jobs_of_a_batch_share_their_keys_digest_but_not_their_keys() -> None:
    """Each job of a batch (same options object) and of a batch beside it keys the
    whole JSON text of its own game, options, players, seed, bots and position."""
    options = {"target": 20, "sides": 6}
    jobs = [
        Job(i, "pig", options, players, seed, {"1": "hold", "2": "random"}, position)
        for i, (players, seed, position) in enumerate(
            [(2, 1, None), (2, 2, None), (3, 1, None), (2, 1, "text"), (2, 1, None)]
        )
    ]
    jobs.append(Job(9, "pig", dict(options, target=30), 2, 1, {"1": "hold", "2": "random"}))
    for job in jobs:
        spec = [job.game, job.options, job.players, job.seed, job.bots, job.position]
        text = json.dumps(spec, sort_keys=True, separators=(",", ":"))
        assert job.key == hashlib.sha256(text.encode()).hexdigest()[:16]
    assert len({job.key for job in jobs}) == len(jobs) - 1  # the first and fifth alike
