"""``gladiatorium super-dice-heroes sheet``: the score sheet to print and play on paper."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner

from gladiatorium.cli.main import app
from gladiatorium.games.super_dice_heroes.printable import TALLY, sheet_svg
from gladiatorium.games.super_dice_heroes.sheet import load_sheet, sheet_text

runner = CliRunner()
SVG = "{http://www.w3.org/2000/svg}"


def test_the_svg_draws_every_box_tick_and_reward_of_the_sheet() -> None:
    sheet = load_sheet("standard")
    root = ET.fromstring(sheet_svg(sheet, "Blaze <&>", power_uses=3))
    assert root.get("width") == "210.0mm" and root.get("height") == "297.0mm"  # A4
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert "Hero: Blaze <&>" in texts
    boxes = sum(loc.size for loc in sheet.locations)
    ticks = 3 + 10 + 2 * TALLY + sum(loc.minions for loc in sheet.locations)
    assert len(list(root.iter(f"{SVG}rect"))) == 1 + boxes + ticks  # the page, boxes, ticks
    grey = [t.text for t in root.iter(f"{SVG}text") if t.get("fill") == "#bbb"]
    assert grey == list("132321213" + "162534435261")  # City Hall, then Church
    assert texts.count("+8") == 1  # Downtown's last box
    assert "diagonal: W" in texts and "all nine: B" in texts  # City Hall's goals, listed
    assert "locations ______ + bystanders ___ x 5 + minions ___ x 1 = honor ______" in texts


def test_a_corrected_sheet_file_prints_its_own_rewards(tmp_path: Path) -> None:
    corrected = tmp_path / "mine.yaml"
    text = sheet_text("standard").replace("boxes: [8], honor: 8", "boxes: [8], honor: 9")
    corrected.write_text(text.replace("name: standard", "name: mine"))
    target = tmp_path / "mine.svg"
    args = ["super-dice-heroes", "sheet", "--sheet", str(corrected), "-o", str(target)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "wrote" in result.output and "(mine sheet)" in result.output
    texts = [t.text for t in ET.parse(target).getroot().iter(f"{SVG}text")]
    assert "+9" in texts and "+8" not in texts


def test_the_sheet_as_pdf_is_an_a4_page(tmp_path: Path) -> None:
    target = tmp_path / "sheet.pdf"
    args = ["super-dice-heroes", "sheet", "-o", str(target), "--name", "Blaze"]
    assert runner.invoke(app, args).exit_code == 0
    data = target.read_bytes()
    assert data.startswith(b"%PDF-")
    box = re.search(rb"/MediaBox \[ 0 0 ([\d.]+) ([\d.]+) \]", data)
    assert box is not None
    assert (round(float(box[1])), round(float(box[2]))) == (595, 842)  # A4 in points


def test_the_sheet_as_text_and_what_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "sheet.txt"
    args = ["super-dice-heroes", "sheet", "-o", str(target), "--uses", "5"]
    assert runner.invoke(app, args).exit_code == 0
    text = target.read_text()
    assert "uses [ ][ ][ ][ ][ ]   wild dice" in text
    assert "3 Downtown (run)  minions [...]" in text
    assert "   (bottom first)  1[ ]  2[ ]  3[ ]" in text
    again = runner.invoke(app, args)
    assert again.exit_code == 2 and "add --force" in " ".join(again.output.split())
    wrong = tmp_path / "sheet.doc"
    refused = runner.invoke(app, ["super-dice-heroes", "sheet", "-o", str(wrong)])
    assert refused.exit_code == 2 and not wrong.exists()
    assert "name it sheet.pdf or sheet.txt" in " ".join(refused.output.split())
    bad = tmp_path / "bad.yaml"
    bad.write_text(sheet_text("standard").replace("minion_honor: 1", "minion_honor: -1"))
    broken = runner.invoke(app, ["super-dice-heroes", "sheet", "--sheet", str(bad)])
    assert broken.exit_code == 2 and "bad.yaml:" in broken.output
    assert "minion_honor" in broken.output
