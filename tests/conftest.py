"""Register every built-in game before any test runs, after checking that no compiled
module (setup.py) is older than its source: Python would run the stale compiled one."""

from pathlib import Path

import pytest

from gladiatorium.games import load

SRC = Path(__file__).resolve().parents[1] / "src"


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
