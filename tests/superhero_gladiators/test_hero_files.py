"""Reading hero files: every error names the field (and the YAML line); unreadable
files differ from invalid ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from gladiatorium.games.superhero_gladiators.hero_files import (
    find_sample,
    hero_from_data,
    load_hero_file,
    read_hero_text,
)
from gladiatorium.games.superhero_gladiators.heroes import INFINITE, Gizmo

GOOD = """\
name: Giant Rubber Cement Archer
attributes: {strength: 4, dexterity: 3, size: 5, perception: 3}
bought: {size: 1}
powers:
  - name: Rubber cement arrows
    type: distance
    styles: [entangling, missile]
    flaws: [unreliable]
    level: 3
    uses: 10
    look: a quiver of arrows tipped with glue
"""


def read(text: str, name: str = "hero.yaml") -> tuple[list[tuple[str, int | None]], int]:
    result = read_hero_text(text, Path(name))
    return [(e.field, e.line) for e in result.errors], result.exit_code


def test_good_file_is_valid() -> None:
    result = read_hero_text(GOOD, Path("archer.yaml"))
    assert result.valid and result.exit_code == 0
    assert result.hero is not None and result.hero.powers[0].gizmo is Gizmo.VULNERABLE


def test_errors_name_field_and_line() -> None:
    text = GOOD.replace("uses: 10", "uses: 11").replace("perception: 3}", "perception: 4}")
    assert read(text) == ([("attributes", 2), ("powers[0].uses", 10)], 1)


def test_missing_field_points_at_the_enclosing_line() -> None:
    text = GOOD.replace("    level: 3\n", "")
    assert read(text) == ([("powers[0].level", 5)], 1)


def test_missing_attribute_is_one_error_not_three() -> None:
    text = GOOD.replace("strength: 4, ", "")
    assert read(text) == ([("attributes.strength", 2)], 1)


def test_unknown_fields_are_errors() -> None:
    text = GOOD.replace("    look:", "    flaw: wild\n    look:") + "colour: red\n"
    fields, code = read(text)
    assert ("powers[0].flaw", 11) in fields and ("colour", 13) in fields and code == 1


def test_wrong_types_are_named() -> None:
    text = GOOD.replace("level: 3", "level: three").replace("name: Rubber", "name: 7\n    x: 1 #")
    result = read_hero_text(text, Path("h.yaml"))
    messages = {e.field: e.message for e in result.errors}
    assert "whole number" in messages["powers[0].level"]
    assert messages["powers[0].name"] == "must be text"
    assert result.entries[0].power is None  # a level is needed to price it


def test_unknown_style_keeps_the_known_ones_but_no_price() -> None:
    result = hero_from_data(
        {
            "name": "X",
            "attributes": {"strength": 4, "dexterity": 4, "size": 4, "perception": 3},
            "powers": [
                {
                    "name": "Zap",
                    "type": "distance",
                    "styles": ["laser", "missile"],
                    "level": 1,
                    "uses": 1,
                }
            ],
        }
    )
    assert [e.field for e in result.errors] == ["powers[0].styles[0]"]
    entry = result.entries[0]
    assert entry.power is not None and not entry.complete
    assert [s.value for s in entry.power.styles] == ["missile"]


@pytest.mark.parametrize("uses", ["infinite", "inf", ".inf"])
def test_infinite_uses_spellings_r22(uses: str) -> None:
    result = read_hero_text(GOOD.replace("uses: 10", f"uses: {uses}"), Path("h.yaml"))
    assert result.valid and result.hero is not None and result.hero.powers[0].uses == INFINITE


def test_healing_without_gizmo_field_has_none_r7() -> None:
    text = GOOD.replace("type: distance", "type: healing").replace(
        "    styles: [entangling, missile]\n    flaws: [unreliable]\n", ""
    )
    result = read_hero_text(text, Path("h.yaml"))
    assert result.valid and result.hero is not None and result.hero.powers[0].gizmo is None


def test_yaml_syntax_error_is_unreadable_with_line() -> None:
    result = read_hero_text("name: [oops\nattributes: 1\n", Path("bad.yaml"))
    assert (result.readable, result.exit_code, result.errors[0].line) == (False, 2, 2)
    assert "not valid YAML" in result.errors[0].message


def test_json_file_is_read_and_its_syntax_errors_have_lines() -> None:
    good = read_hero_text(
        '{"name": "J", "attributes": {"strength": 4, "dexterity": 4, "size": 4,'
        ' "perception": 3}, "powers": []}',
        Path("j.json"),
    )
    assert good.valid
    bad = read_hero_text('{"name": "J",\n "attributes": }', Path("j.json"))
    assert (bad.exit_code, bad.errors[0].line) == (2, 2)


def test_missing_file_is_unreadable(tmp_path: Path) -> None:
    result = load_hero_file(tmp_path / "nobody.yaml")
    assert (result.exit_code, result.errors[0].message) == (2, "no such file")


def test_not_a_mapping_is_invalid() -> None:
    assert read("- just\n- a list\n") == ([("", None)], 1)


def test_empty_file_is_invalid() -> None:
    assert read("") == ([("", None)], 1)


@pytest.mark.parametrize(
    ("name", "stem"),
    [
        ("cowboy", "cowboy"),
        ("cowboy.yaml", "cowboy"),
        ("Perseus.JSON", "perseus"),
        ("Fred", "fred-the-giant"),
        ("Perseus", "perseus"),
        ("Wizard of the Wild Hair Cult", "wizard-of-the-wild-hair-cult"),
        ("giant", None),  # Fred the Giant and the Giant Archer: ambiguous
        ("nobody", None),
    ],
)
def test_samples_are_found_by_name(name: str, stem: str | None) -> None:
    found = find_sample(name)
    assert (found.stem if found else None) == stem
