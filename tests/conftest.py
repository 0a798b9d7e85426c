"""Register every built-in game before any test runs, after checking the build these tests
import (the package found first, `src/` or `make pytest-pure`'s copy of it): no compiled
module (setup.py) older than its source, since Python would run the stale compiled one;
and, where the Makefile says which build it expects, that build (tests/builds.py)."""

import os
from pathlib import Path

import pytest

# pytest-xdist's workers run with COLUMNS=80 and LINES=24 in their environment, and a rich
# Console made while COLUMNS is set keeps that width for good: the commands' consoles made
# at import would then cut the lines that tests widen with their own COLUMNS
for name in ("COLUMNS", "LINES"):
    os.environ.pop(name, None)

from builds import compiled_names, header, imported_builds, imported_source, wrong_build  # noqa: E402
from gladiatorium.games import load  # noqa: E402

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

#: whether each module of mypyc.ini is compiled, read when the session starts
COMPILED: dict[str, bool] = {}


def pytest_sessionstart(session: pytest.Session) -> None:
    COMPILED.update(imported_builds(compiled_names(), SRC))
    if wrong := wrong_build(COMPILED, os.environ, SRC):
        pytest.exit(wrong, returncode=2)


def pytest_report_header() -> str:
    return header(COMPILED, SRC)
