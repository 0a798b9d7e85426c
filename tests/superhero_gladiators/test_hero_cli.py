"""``gladiatorium hero``: check (text and JSON), card, new and list."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import typer
from typer.testing import CliRunner

from gladiatorium.games.superhero_gladiators.commands.hero import hero_app
from gladiatorium.games.superhero_gladiators.hero_files import load_hero_file

app = typer.Typer()
app.add_typer(hero_app, name="hero")
runner = CliRunner()
WIDE = {"COLUMNS": "200"}

BAD = """\
name: Bad Guy
attributes: {strength: 4, dexterity: 3, size: 5, perception: 0}
powers:
  - name: Glue
    type: distance
    styles: [entangling, grappling]
    level: 3
    uses: 11
  - name: Fly
    type: movement
    styles: [flight]
    level: 2
    uses: 4
"""


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, ["hero", *args], input=stdin, env=WIDE)
    return result.exit_code, result.output


def test_check_a_sample_by_name_explains_costs() -> None:
    code, out = run("check", "barbarian")
    assert code == 0
    assert "Combat 15   Max oomph 45   Speed 15   Movement 5   Segments 1 . 3 . 5 ." in out
    assert "base 76 x foiblish 0.7 x hidden gizmo 1.4 = 74.48 -> 74" in out
    assert "base 19 x superarea 2.6 x vulnerable gizmo 1 = 49.4 -> 49" in out
    assert "0 on attributes + 170 on powers = 170 of 200 (30 left)" in out


def test_check_names_file_field_and_rule_for_every_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(BAD)
    code, out = run("check", str(bad))
    assert code == 1
    assert "bad.yaml: attributes.perception (line 2): must be at least 1" in out
    assert "powers[0].styles (line 6): grappling is not a distance style" in out
    assert "powers[0].uses (line 8): uses per game must be one of" in out


def test_check_exit_status_two_when_a_file_is_unreadable(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(BAD)
    code, out = run("check", "cowboy", str(bad), str(tmp_path / "missing.yaml"))
    assert code == 2 and "missing.yaml: (file): no such file" in out


def test_check_json_for_a_valid_sample() -> None:
    code, out = run("check", "cowboy", "--json")
    assert code == 0
    [cowboy] = json.loads(out)
    assert cowboy["name"] == "Cowboy" and cowboy["valid"] and cowboy["errors"] == []
    assert cowboy["attributes"] == {"strength": 5, "dexterity": 5, "size": 4, "perception": 1}
    assert cowboy["traits"] == {
        "combat": 15,
        "max_oomph": 60,
        "speed": 20,
        "segments": [1, 3, 5, 6],
        "movement": 5,
    }
    assert cowboy["points"] == {
        "budget": 200,
        "attributes": 0,
        "powers": 143,
        "total": 143,
        "left": 57,
    }
    shooter, lasso, brawl, spurs = cowboy["powers"]
    assert [shooter[k] for k in ("base_cost", "multiplier", "cost", "damage", "range")] == [
        27,
        0.6,
        16,
        6,
        9,
    ]
    assert (lasso["damage"], lasso["range"], lasso["entangles"]) == (0, 12, True)
    assert (brawl["multiplier"], brawl["cost"], brawl["range"]) == (1.2, 80, None)
    assert (spurs["damage"], spurs["range"], spurs["cost"]) == (None, None, 18)


def test_check_json_fills_in_what_it_can_for_an_invalid_hero(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(BAD)
    code, out = run("check", str(bad), "--json")
    [report] = json.loads(out)
    assert code == 1 and not report["valid"]
    assert {
        "field": "powers[0].uses",
        "message": report["errors"][-1]["message"],
        "line": 8,
    } in report["errors"]
    assert report["traits"]["max_oomph"] == 60
    glue, fly = report["powers"]
    assert (glue["base_cost"], glue["cost"], glue["damage"], glue["range"]) == (None, None, 0, 9)
    assert (fly["base_cost"], fly["multiplier"], fly["cost"]) == (13, 3.0, 39)
    assert report["points"]["powers"] == 39


def test_card_writes_svg_with_a_box_per_oomph_and_use(tmp_path: Path) -> None:
    target = tmp_path / "perseus.svg"
    code, out = run("card", "perseus", "-o", str(target))
    assert code == 0 and "wrote" in out
    root = ET.fromstring(target.read_text())
    ns = "{http://www.w3.org/2000/svg}"
    texts = "".join(t.text or "" for t in root.iter(f"{ns}text"))
    assert "Perseus" in texts and "Oomph (max 60)" in texts
    hero = load_hero_file(
        Path(__file__).parents[2] / "src/gladiatorium/games/superhero_gladiators"
        "/data/heroes/perseus.yaml"
    ).hero
    assert hero is not None
    uses = sum(int(p.uses) for p in hero.powers if p.uses != "infinite")
    rects = list(root.iter(f"{ns}rect"))
    assert len(rects) == 1 + 6 + 60 + uses  # border, six segments, oomph, uses
    filled = [r for r in rects if r.get("fill") == "#ddd"]
    assert len(filled) == 3  # Speed 12 acts on segments 1, 3 and 5


def test_card_refuses_an_invalid_hero(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(BAD)
    code, _ = run("card", str(bad), "-o", str(tmp_path / "bad.svg"))
    assert code == 1 and not (tmp_path / "bad.svg").exists()


NEW_INPUT = "\n".join(
    [
        "Glue Gal",  # name
        "9",  # strength; 6 left for the other three
        "2",  # dexterity
        "2",  # size; perception takes 2
        "size=1",  # bought
        "Mega blast",  # a power too dear: rejected
        "distance",
        "superarea",
        "",
        "none",
        "8",
        "infinite",
        "",
        "Glue gun",  # a legal power
        "distance",
        "entangling, missile",
        "unreliable",
        "hidden",
        "3",
        "10",
        "a squirt gun full of glue",
        "",  # done
        "",  # save (the summary's default)
        "",
    ]
)


def test_new_builds_a_valid_file_from_prompts(tmp_path: Path) -> None:
    target = tmp_path / "glue.yaml"
    code, out = run("new", "-o", str(target), stdin=NEW_INPUT)
    assert code == 0, out
    assert "Mega blast costs 3000, only 170 points left: not added" in out
    assert (
        "Glue gun: base 40 x entangling 1.4 x missile 0.6 x unreliable 0.8 x hidden gizmo "
        "1.4 = 37.632 -> 38" in out
    )
    assert "132 power points left" in out
    result = load_hero_file(target)
    assert result.valid and result.hero is not None
    assert result.hero.effective.size == 3 and result.hero.attributes.perception == 2
    assert [p.name for p in result.hero.powers] == ["Glue gun"]


def test_new_reprompts_out_of_range_attributes(tmp_path: Path) -> None:
    target = tmp_path / "h.yaml"
    stdin = "\n".join(["H", "13", "4", "4", "4", "", "", "", ""])  # ..., done, save
    code, out = run("new", "-o", str(target), stdin=stdin)
    assert code == 0 and "must be 1 to 12" in out
    assert load_hero_file(target).valid


def test_list_shows_the_samples() -> None:
    code, out = run("list", "--json")
    rows = json.loads(out)
    assert code == 0 and len(rows) >= 8
    assert {"name": "Cowboy", "file": "cowboy.yaml", "points": 143} in rows
    code, out = run("list")
    assert code == 0 and "Fred the Giant" in out and "191 of 200" in out
