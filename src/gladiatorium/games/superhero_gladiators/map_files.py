"""Shipped arena maps and map files (the I/O half of the arena)."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from gladiatorium.core.errors import OptionsError

MAPS_DIR: Final = Path(__file__).parent / "data" / "maps"


def shipped_maps() -> dict[str, Path]:
    """The maps shipped with the game, by name."""
    return {p.stem: p for p in sorted(MAPS_DIR.glob("*.txt"))}


def map_text(given: str) -> str:
    """The text of a map file, or of a shipped map by name (``small``, ``12``)."""
    path = Path(given)
    if path.is_file():
        return path.read_text(encoding="utf-8")
    shipped = shipped_maps()
    stem = path.name.removesuffix(".txt")
    if stem in shipped:
        return shipped[stem].read_text(encoding="utf-8")
    raise OptionsError(f"no map file {given!r}; shipped maps: {', '.join(shipped)}")
