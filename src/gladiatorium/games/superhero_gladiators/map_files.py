"""Shipped arena maps and map files (the I/O half of the arena)."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from gladiatorium.core.errors import OptionsError
from gladiatorium.core.files import FileRefused, flag_error, read_text

MAPS_DIR: Final = Path(__file__).parent / "data" / "maps"
#: the largest map file read (the largest map, 26 by 99 squares, is under 3 KB)
MAX_MAP_BYTES: Final = 64 * 1024


def shipped_maps() -> dict[str, Path]:
    """The maps shipped with the game, by name."""
    return {p.stem: p for p in sorted(MAPS_DIR.glob("*.txt"))}


def map_text(given: str) -> str:
    """The text of a map file, or of a shipped map by name (``small``, ``12``)."""
    path = Path(given)
    if path.exists():
        try:
            return read_text(path, MAX_MAP_BYTES)
        except FileRefused as err:
            raise OptionsError(flag_error("--map", err)) from err
    shipped = shipped_maps()
    stem = path.name.removesuffix(".txt")
    if stem in shipped:
        return shipped[stem].read_text(encoding="utf-8")
    raise OptionsError(f"no map file {given!r}; shipped maps: {', '.join(shipped)}")
