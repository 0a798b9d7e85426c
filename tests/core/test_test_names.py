"""The suite's own layout: its folders are not packages, so pytest imports each test
module by its file name, and two files of one name in two folders collide (the second
is not collected, or imports the first one's helpers)."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def test_every_test_module_has_a_name_of_its_own() -> None:
    names = Counter(path.name for path in TESTS.rglob("*.py") if path.name != "conftest.py")
    assert [name for name, count in names.items() if count > 1] == []


def test_the_longest_files_named_first_are_test_files() -> None:
    """A file renamed or removed is not silently left out of the start of the run (the
    list read from tests/conftest.py's text: under xdist ``conftest`` may name another
    folder's conftest module)."""
    tree = ast.parse((TESTS / "conftest.py").read_text())
    longest = next(
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "LONGEST_FIRST" for t in node.targets)
    )

    assert len(set(longest)) == len(longest) > 20
    missing = [name for name in longest if not (TESTS / name).is_file()]
    assert missing == []
