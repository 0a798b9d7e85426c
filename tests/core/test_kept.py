"""A table kept by identity gives a value only to the owner it was made for, and never
holds more than its limit."""

from __future__ import annotations

from gladiatorium.core.kept import KeptByIdentity


def test_a_value_is_made_once_per_owner_and_key() -> None:
    table: KeptByIdentity[int, str] = KeptByIdentity(4)
    owner, made = object(), []

    def make() -> str:
        made.append(1)
        return f"value {len(made)}"

    assert table.get(1, owner, make) == "value 1"
    assert table.get(1, owner, make) == "value 1"
    assert len(made) == 1
    other = object()  # the same key, another owner (an id taken again): made afresh
    assert table.get(1, other, make) == "value 2"
    assert table.get(1, other, make) == "value 2"
    assert len(made) == 2


def test_a_full_table_starts_again() -> None:
    table: KeptByIdentity[int, int] = KeptByIdentity(3)
    owner = object()
    for key in range(3):
        table.get(key, owner, lambda key=key: key * 10)  # type: ignore[misc]
    assert len(table) == 3
    assert table.get(3, owner, lambda: 30) == 30
    assert len(table) == 1  # emptied, then the new entry
    assert table.get(0, owner, lambda: -1) == -1  # forgotten, made again
