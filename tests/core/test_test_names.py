"""The suite's own layout: its folders are not packages, so pytest imports each test
module by its file name, and two files of one name in two folders collide (the second
is not collected, or imports the first one's helpers)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def test_every_test_module_has_a_name_of_its_own() -> None:
    names = Counter(path.name for path in TESTS.rglob("*.py") if path.name != "conftest.py")
    assert [name for name, count in names.items() if count > 1] == []


def test_the_longest_files_named_first_are_test_files() -> None:
    """A file renamed or removed is not silently left out of the start of the run."""
    from conftest import LONGEST_FIRST

    assert len(set(LONGEST_FIRST)) == len(LONGEST_FIRST)
    missing = [name for name in LONGEST_FIRST if not (TESTS / name).is_file()]
    assert missing == []
