"""How a match is drawn in HTML: a game's text picture (rich markup) as escaped HTML
with style classes."""

from __future__ import annotations

import itertools

from markupsafe import Markup, escape
from rich.errors import MarkupError
from rich.style import Style
from rich.text import Text

# Colours of the game's text pictures (rich markup), mapped to a palette that stays
# distinguishable with the common colour-vision deficiencies (Paul Tol's).
PICTURE_COLOURS = {"red", "green", "blue", "cyan", "magenta", "yellow", "white", "black"}


def picture_html(markup: str) -> Markup:
    """A game's text picture (rich markup) as escaped HTML with style classes."""
    try:
        text = Text.from_markup(markup, emoji=False)
    except (MarkupError, ValueError):
        return escape(markup)
    plain = text.plain
    cuts = sorted({0, len(plain), *(s.start for s in text.spans), *(s.end for s in text.spans)})
    styles: list[tuple[int, int, list[str]]] = []
    for span in text.spans:
        try:
            style = span.style if isinstance(span.style, Style) else Style.parse(str(span.style))
        except Exception:  # an unknown style word: show the text plainly
            continue
        classes = []
        if style.bold:
            classes.append("b")
        if style.italic:
            classes.append("i")
        if style.underline:
            classes.append("u")
        if style.dim:
            classes.append("dim")
        if style.color is not None and style.color.name:
            name = style.color.name.removeprefix("bright_")
            if name in PICTURE_COLOURS:
                classes.append(f"fg-{name}")
        if classes:
            styles.append((span.start, span.end, classes))
    out: list[str] = []
    for start, end in itertools.pairwise(cuts):
        piece = str(escape(plain[start:end]))
        classes = sorted({c for a, b, cs in styles if a <= start and b >= end for c in cs})
        out.append(f'<span class="{" ".join(classes)}">{piece}</span>' if classes else piece)
    return Markup("".join(out))
