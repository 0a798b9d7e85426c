"""The hero designer (issue 18): each choice checked as it is made, numbers worded for
people, a summary with edit and remove before saving, and ``hero edit FILE``."""

from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner

from gladiatorium.cli.main import app
from gladiatorium.games.superhero_gladiators.hero_files import find_sample, load_hero_file

runner = CliRunner()
WIDE = {"COLUMNS": "200"}


def _typed(*lines: str) -> str:
    return "\n".join([*lines, ""])


def test_new_checks_each_choice_and_words_number_errors(tmp_path: Path) -> None:
    target = tmp_path / "shield.yaml"
    typed = _typed(
        "Shield Lad",
        "abc",  # not a number
        "6",
        "3",
        "3",
        "",  # no bought points
        "Iron skin",
        "defense",
        "toughness, slippery",  # a second defence style: asked again at once
        "toughness",
        "unreliable, wild",  # both: asked again at once
        "unreliable",
        "vulnerable",
        "2",
        "10",
        "",
        "",  # done
        "remove 1",
        "add",
        "Iron skin",
        "defense",
        "toughness",
        "",
        "vulnerable",
        "1",
        "10",
        "",
        "",  # done
        "edit 1",
        "defense",
        "slippery",
        "",
        "none",
        "1",
        "5",
        "",
        "save",
    )
    result = runner.invoke(app, ["hero", "new", "-o", str(target)], input=typed, env=WIDE)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "'abc' is not a number: type a whole number from 1 to 12" in out
    assert "styles: a defense is exactly one of" in out and "choose again" in out
    assert "flaws: a power cannot be both unreliable and wild; choose again" in out
    assert "Iron skin removed" in out
    assert "editing Iron skin" in out
    assert "Points:" in out  # the summary before saving
    hero = load_hero_file(target).hero
    assert hero is not None and len(hero.powers) == 1
    assert [s.value for s in hero.powers[0].styles] == ["slippery"]


def test_new_can_quit_without_saving(tmp_path: Path) -> None:
    target = tmp_path / "h.yaml"
    typed = _typed("H", "4", "4", "4", "", "", "quit")
    result = runner.invoke(app, ["hero", "new", "-o", str(target)], input=typed, env=WIDE)
    assert result.exit_code == 0 and "not saved" in result.output
    assert not target.exists()


def test_hero_edit_removes_a_power_and_saves_back(tmp_path: Path) -> None:
    sample = find_sample("cowboy")
    assert sample is not None
    file = tmp_path / "cowboy.yaml"
    shutil.copy(sample, file)
    before = load_hero_file(file).hero
    assert before is not None
    result = runner.invoke(app, ["hero", "edit", str(file)], input=_typed("remove 1", "save"))
    assert result.exit_code == 0, result.output
    after = load_hero_file(file).hero
    assert after is not None and len(after.powers) == len(before.powers) - 1
    assert f"{before.powers[0].name} removed" in result.output


def test_hero_edit_refuses_a_broken_file(tmp_path: Path) -> None:
    file = tmp_path / "bad.yaml"
    file.write_text("name: X\nattributes: {strength: 99}\n")
    result = runner.invoke(app, ["hero", "edit", str(file)])
    assert result.exit_code == 2
    assert "fix the errors above first" in result.output


def test_card_refuses_to_write_svg_text_under_another_name(tmp_path: Path) -> None:
    target = tmp_path / "cowboy.png"
    result = runner.invoke(app, ["hero", "card", "cowboy", "-o", str(target)])
    assert result.exit_code == 2
    assert "cards are written as SVG" in " ".join(result.output.split())
    assert not target.exists()
    svg = tmp_path / "cowboy.svg"
    assert runner.invoke(app, ["hero", "card", "cowboy", "-o", str(svg)]).exit_code == 0
    assert 'width="127.0mm"' in svg.read_text()  # a 5 x 3 inch index card
