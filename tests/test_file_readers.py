"""Every file reader, fed random YAML, JSON and bytes: it reads the file or refuses it
with the project's own error (a GladiatoriumError naming the file); nothing else
escapes, and nothing hangs (Hypothesis' deadline)."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gladiatorium.core import GladiatoriumError, get_game
from gladiatorium.core.record import replay_file
from gladiatorium.games.electron_gladiators.terminal import read_setup_file
from gladiatorium.games.superhero_gladiators.hero_files import load_hero_file
from gladiatorium.games.superhero_gladiators.map_files import map_text

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=False),
    st.text(max_size=20),
    st.sampled_from(["name", "powers", "level", "uses", "game", "pig", "actions", "[/]"]),
)
data = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=30,
)


def yaml_text(value: Any) -> bytes:
    return yaml.safe_dump(value, allow_unicode=True).encode()


def json_text(value: Any) -> bytes:
    return json.dumps(value).encode()


contents = st.one_of(
    st.binary(max_size=300),
    data.map(yaml_text),
    data.map(json_text),
    st.text(max_size=300).map(str.encode),
    st.sampled_from(
        [
            b"a: &x [1]\nb: *x\n",
            b"[" * 200 + b"]" * 200,
            b"- " * 100 + b"1",
            b'{"seed": ' + b"9" * 500 + b"}",
            b"\xef\xbb\xbf" + b"name: x",
            b"1......2\n" * 3,
        ]
    ),
)


def sheet(path: Path) -> object:
    return get_game("super-dice-heroes").terminal.cli_options({"sheet": [str(path)]})


def arena_map(path: Path) -> object:
    return get_game("superhero-gladiators").terminal.cli_options(
        {"map": [str(path)], "team": ["1=cowboy", "2=perseus"]}
    )


def hero(path: Path) -> object:
    result = load_hero_file(path)
    assert result.exit_code in (0, 1, 2)
    return result


READERS: dict[str, tuple[str, Callable[[Path], object]]] = {
    "record": ("r.json", replay_file),
    "hero yaml": ("h.yaml", hero),
    "hero json": ("h.json", hero),
    "map": ("m.txt", map_text),
    "arena map": ("m.txt", arena_map),
    "sheet": ("s.yaml", sheet),
    "set-up": ("s.txt", read_setup_file),
}


@pytest.mark.parametrize("reader", list(READERS))
@settings(max_examples=60, deadline=2000, suppress_health_check=[HealthCheck.too_slow])
@given(content=contents)
def test_readers_refuse_with_their_own_error(reader: str, content: bytes) -> None:
    name, read = READERS[reader]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(content)
        try:
            read(path)
        except GladiatoriumError as err:
            assert name in str(err) or reader.startswith("hero")
