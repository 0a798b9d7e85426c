"""Printable pictures: an SVG a game draws (a hero's card, a score sheet), as the SVG,
PNG or PDF file a person asked for. PNG and PDF are drawn by CairoSVG, which needs the
cairo library; it is loaded only when one of them is asked for."""

from __future__ import annotations

from gladiatorium.core.errors import GladiatoriumError

#: the file types a picture is written as, by their file name's ending
PRINT_FORMATS = ("svg", "png", "pdf")
#: the PNG's resolution (a 5 inch card is 1500 pixels wide)
PNG_DPI = 300


def printable(svg: str, kind: str) -> bytes:
    """The bytes of a ``kind`` file of the picture ``svg``: the SVG itself, a PNG at
    :data:`PNG_DPI`, or a PDF page the picture's size."""
    data = svg.encode("utf-8")
    if kind == "svg":
        return data
    if kind not in PRINT_FORMATS:
        raise GladiatoriumError(f"a picture is written as {', '.join(PRINT_FORMATS)}, not {kind}")
    try:
        import cairosvg  # type: ignore[import-untyped]  # loads the cairo library
    except (ImportError, OSError) as err:
        raise GladiatoriumError(
            f"a {kind.upper()} file needs CairoSVG and the cairo library (Debian: apt-get "
            "install libcairo2); an SVG file needs neither"
        ) from err
    if kind == "png":
        return bytes(cairosvg.svg2png(bytestring=data, dpi=PNG_DPI))
    return bytes(cairosvg.svg2pdf(bytestring=data))
