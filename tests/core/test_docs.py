"""The architecture page shows the example game exactly as it is."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_architecture_page_holds_the_pig_example_verbatim() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text()
    code = (ROOT / "src" / "gladiatorium" / "games" / "pig" / "game.py").read_text()
    block = page.split("```python\n", 1)[1].split("```", 1)[0]
    assert block == code
