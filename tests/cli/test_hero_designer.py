"""The hero designer (issue 18): each choice checked as it is made, numbers worded for
people, a summary with edit and remove before saving, and ``hero edit FILE``."""

from __future__ import annotations

import re
import shutil
import struct
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gladiatorium.cli.main import app
from gladiatorium.games.superhero_gladiators.card import card_height
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


def test_card_refuses_a_file_type_it_cannot_write(tmp_path: Path) -> None:
    target = tmp_path / "cowboy.jpg"
    result = runner.invoke(app, ["hero", "card", "cowboy", "-o", str(target)])
    assert result.exit_code == 2
    words = " ".join(result.output.split())
    assert "cards are written as SVG, PNG or PDF" in words and "cowboy.png" in words
    assert not target.exists()
    svg = tmp_path / "cowboy.svg"
    assert runner.invoke(app, ["hero", "card", "cowboy", "-o", str(svg)]).exit_code == 0
    assert 'width="127.0mm" height="203.2mm"' in svg.read_text()  # a 5 x 8 inch index card


def test_card_as_png_is_an_image_at_300_dots_per_inch(tmp_path: Path) -> None:
    target = tmp_path / "cowboy.png"
    result = runner.invoke(app, ["hero", "card", "cowboy", "-o", str(target)])
    assert result.exit_code == 0, result.output
    data = target.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])  # the IHDR chunk
    assert width == 1500  # 5 inches
    assert height == 2400  # Cowboy's card is a 5 x 8 inch one


def test_card_as_pdf_is_a_page_the_cards_size(tmp_path: Path) -> None:
    target = tmp_path / "cowboy.PDF"
    assert runner.invoke(app, ["hero", "card", "cowboy", "-o", str(target)]).exit_code == 0
    data = target.read_bytes()
    assert data.startswith(b"%PDF-")
    box = re.search(rb"/MediaBox \[ 0 0 ([\d.]+) ([\d.]+) \]", data)
    assert box is not None
    assert float(box[1]) == 360  # 5 inches in points
    assert float(box[2]) == 576  # 8 inches


def test_a_card_is_the_smallest_index_card_that_holds_the_hero() -> None:
    assert card_height(60.0) == 76.2  # 5 x 3 inches
    assert card_height(76.2) == 76.2
    assert card_height(117.2) == 203.2  # 5 x 8 inches
    assert card_height(250.0) == 250.0  # longer than any card: as long as it needs


def test_card_without_cairo_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # as if it could not be loaded
    target = tmp_path / "cowboy.png"
    result = runner.invoke(app, ["hero", "card", "cowboy", "-o", str(target)])
    assert result.exit_code == 2
    assert "apt-get install libcairo2" in " ".join(result.output.split())
    assert not target.exists()
