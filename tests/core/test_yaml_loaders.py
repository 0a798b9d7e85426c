"""The YAML loader on libyaml's parser (what PyYAML's wheels carry) reads every file as
the all-Python one does and refuses the same texts at the same line, with the same
limits (no aliases, a depth cap, short numbers)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from gladiatorium.core import files

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted([*ROOT.glob("src/gladiatorium/**/*.yaml"), *ROOT.glob("tests/**/*.yaml")], key=str)

LOADERS = [files.PureSafeYamlLoader, files.SafeYamlLoader]

#: bad texts and the line (1-based) each is refused at, the same by both loaders
REFUSED = [
    ("a: [1, 2", 1),
    ("name: x\nround: [6\nheroes: 3\n", 3),
    ("a: b: c\n", 1),
    ("a: 1\n b: 2\n", 2),
    ("- &hero 1\n- *hero\n", 2),
    ("[" * 70 + "]" * 70, 1),
    ("\tx: 1\n", 1),
    ("size: 1234567890123456789012345678901234567890\n", 1),
    ("name: 'unclosed\n", 2),
]


def loaded(loader: type[Any], text: str) -> Any:
    reader = loader(text)
    try:
        return reader.get_single_data()
    finally:
        reader.dispose()


def test_the_fast_loader_is_libyamls_where_pyyaml_has_it() -> None:
    assert yaml.__with_libyaml__  # the pinned PyYAML's wheels carry it
    assert files.SafeYamlLoader is files.LibyamlSafeYamlLoader


def test_both_loaders_read_every_shipped_file_alike() -> None:
    assert len(SHIPPED) > 20
    for path in SHIPPED:
        text = path.read_text()
        assert loaded(files.PureSafeYamlLoader, text) == loaded(files.SafeYamlLoader, text), path


@pytest.mark.parametrize(("text", "line"), REFUSED)
@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
def test_both_loaders_refuse_at_the_same_line(
    text: str, line: int, loader: type[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files, "SafeYamlLoader", loader)
    with pytest.raises(files.FileRefused) as refused:
        files.parse_yaml(text, "bad.yaml")
    assert refused.value.line == line
    assert str(refused.value).startswith(f"bad.yaml:{line}: not valid YAML: ")


@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
def test_the_limits_are_named(loader: type[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files, "SafeYamlLoader", loader)
    reasons = {
        "- &x 1\n- *x\n": "aliases (*name) are not allowed in our files",
        "[" * 70 + "]" * 70: f"nested deeper than {files.MAX_DEPTH} levels",
        "n: " + "9" * 40: f"a number longer than {files.MAX_NUMBER_CHARS} characters",
    }
    for text, reason in reasons.items():
        with pytest.raises(files.FileRefused, match=re.escape(reason)):
            files.parse_yaml(text, "bad.yaml")
    # just inside the limits
    assert files.parse_yaml("- &x 1\n- 2\n", "ok.yaml") == [1, 2]
    depth = files.MAX_DEPTH - 1
    assert files.parse_yaml("[" * depth + "]" * depth, "ok.yaml") is not None
    assert files.parse_yaml("n: " + "9" * files.MAX_NUMBER_CHARS, "ok.yaml") == {
        "n": int("9" * files.MAX_NUMBER_CHARS)
    }
