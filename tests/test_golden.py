"""Every registered game replays its golden seeded transcripts exactly (tests/golden/)."""

from __future__ import annotations

import json

import pytest

from gladiatorium.core import games
from golden.transcripts import golden_path, transcripts

SLUGS = [g.info.slug for g in games()]


@pytest.mark.parametrize("slug", SLUGS)
def test_seeded_matches_reproduce_the_golden_transcripts(slug: str) -> None:
    path = golden_path(slug)
    assert path.exists(), (
        f"no golden transcripts for {slug}: run .venv/bin/python tests/golden/transcripts.py {slug}"
    )
    assert transcripts(slug) == json.loads(path.read_text(encoding="utf-8")), (
        f"{slug} no longer plays its golden matches the same way; if the change is intended, "
        f"regenerate with .venv/bin/python tests/golden/transcripts.py {slug}"
    )
