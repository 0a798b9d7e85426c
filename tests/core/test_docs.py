"""The architecture page shows the example game exactly as it is."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_architecture_page_holds_the_pig_example_verbatim() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text()
    folder = ROOT / "src" / "gladiatorium" / "games" / "pig"
    blocks = [part.split("```", 1)[0] for part in page.split("```python\n")[1:]]
    assert blocks == [(folder / "game.py").read_text(), (folder / "terminal.py").read_text()]
