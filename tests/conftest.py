"""Register every built-in game before any test runs, after checking the build these tests
import (the package found first, `src/` or `make pytest-pure`'s copy of it): no compiled
module (setup.py) older than its source, since Python would run the stale compiled one;
and, where the Makefile says which build it expects, that build (tests/builds.py)."""

import functools
import os
from collections.abc import Iterator
from pathlib import Path

import httpcore2
import pytest

# pytest-xdist's workers run with COLUMNS=80 and LINES=24 in their environment, and a rich
# Console made while COLUMNS is set keeps that width for good: the commands' consoles made
# at import would then cut the lines that tests widen with their own COLUMNS
for name in ("COLUMNS", "LINES"):
    os.environ.pop(name, None)

# every httpx2 call made without a client of its own builds a verifying SSL context, and
# so reads the system's CA bundle again (about 24 ms of CPU; 1,063 times in two of the
# server files alone, 67-73 s of their run against 48-50 s with one context), though the
# tests speak plain HTTP to loopback: one context per worker serves them all (an
# SSLContext may serve any number of connections)
httpcore2.default_ssl_context = functools.cache(httpcore2.default_ssl_context)

from builds import compiled_names, header, imported_builds, imported_source, wrong_build  # noqa: E402
from gladiatorium.core import kept  # noqa: E402
from gladiatorium.games import load  # noqa: E402
from preloaded import close_all  # noqa: E402

SRC = imported_source()


def stale_compiled(src: Path) -> list[str]:
    """The sources under ``src`` changed since they were compiled in place."""
    stale = []
    for compiled in src.rglob("*.so"):
        source = compiled.with_name(compiled.name.split(".")[0] + ".py")
        if source.exists() and source.stat().st_mtime > compiled.stat().st_mtime:
            stale.append(str(source.relative_to(src.parent)))
    return sorted(stale)


if stale := stale_compiled(SRC):
    pytest.exit(
        f"{', '.join(stale)} changed after it was compiled: run `make test` (or "
        "`.venv/bin/pip install -e '.[dev]'`) to compile it again",
        returncode=2,
    )

load()

#: the test files that take longest (from about ten seconds to two minutes of a worker:
#: real servers, browsers, subprocesses), longest first as a whole run measures them
#: (``--durations=0``, summed per file; 2026-11-29): they start first, so that the many
#: short files even out the workers' ends (the Makefile hands out whole files, in the
#: order collected, which would otherwise put the conformance suite last)
LONGEST_FIRST = (
    "server/test_site_tour.py",
    "server/test_strangers_bots.py",
    "server/test_game_pages.py",
    "server/test_strangers_edge_fuzz.py",
    "server/test_mail.py",
    "server/test_correspondence.py",
    "server/test_newcomer_pages.py",
    "server/test_hall_browser.py",
    "server/test_server_leaks.py",
    "server/test_strangers_accounts.py",
    "server/test_creation_form_pages.py",
    "test_conformance.py",
    "test_hostile_input.py",
    "server/test_strangers_edge.py",
    "server/test_strangers_matches.py",
    "server/test_server_frames.py",
    "server/test_talk.py",
    "server/test_play_pages.py",
    "server/test_talk_pages.py",
    "gladiator_chess/test_gc_position_round_trip.py",
    "server/test_server_processes.py",
    "server/test_replay_steps.py",
    "hero_battle/test_hb_position_round_trip.py",
    "server/test_pages.py",
    "server/test_strangers_replay.py",
    "superhero_gladiators/test_sg_position_round_trip.py",
    "server/test_server_api.py",
    "server/test_gauntlet_restarts.py",
    "server/test_hall.py",
    "lab/test_lab_ray_cluster.py",
    "super_dice_heroes/test_bots.py",
    "server/test_game_pictures.py",
    "server/test_turns_pages.py",
    "super_dice_heroes/test_sdh_position_round_trip.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files of LONGEST_FIRST first, in its order; every other file after them, as
    collected (each file's tests keep their order)."""
    here = Path(__file__).parent
    rank = {here / name: place for place, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path, len(rank)))


#: whether each module of mypyc.ini is compiled, read when the session starts
COMPILED: dict[str, bool] = {}


def pytest_sessionstart(session: pytest.Session) -> None:
    COMPILED.update(imported_builds(compiled_names(), SRC))
    if wrong := wrong_build(COMPILED, os.environ, SRC):
        pytest.exit(wrong, returncode=2)


def pytest_report_header() -> str:
    return header(COMPILED, SRC)


@pytest.fixture(autouse=True)
def empty_tables() -> None:
    """Every test starts with the process's tables empty, as a fresh process does: no
    test depends on what the tests before it kept. The tables bounded by a game's fixed
    data (bound None: Electron Gladiators' lines and moves by square) stay: every process
    fills them alike, and working them out again would cost every test a third of a
    second."""
    for table in kept.registered():
        if table.bound is not None:
            table.empty()


@pytest.fixture(autouse=True, scope="session")
def preloading_processes() -> Iterator[None]:
    """The worker's preloading processes (``preloaded.py``) end with the session."""
    yield
    close_all()
