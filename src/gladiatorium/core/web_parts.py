"""Small helpers shared by the games' web pictures (``games/*/web.py``): escaping and the
``data-acts`` attribute that makes an element clickable (see ``WebPresenter.picture``)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from html import escape

from gladiatorium.core.presenters import Code

#: team colours from Paul Tol's bright and vibrant schemes (colour-blind safe); a team
#: is never told by colour alone (tokens carry the team's number or letters)
TEAM_FILLS = (
    "#4477aa",
    "#ee6677",
    "#228833",
    "#ccbb44",
    "#66ccee",
    "#aa3377",
    "#bbbbbb",
    "#ee7733",
    "#009988",
)


def e(value: object) -> str:
    """A value as escaped text (attribute-safe)."""
    return escape(str(value), quote=True)


def acts_attr(
    acts: Iterable[str], main: str | None = None, focus: bool = True, then: bool = False
) -> str:
    """`` data-acts=... data-act=...`` for a clickable element ('' when nothing);
    ``focus``: reachable with the keyboard (an SVG element: not a button); ``then``:
    lit only once something else was chosen (a destination: out of the Tab order until
    then). Sorted: the order of a game's legal list may follow a secret (Hero Battle's
    guesses follow the deal)."""
    listed = sorted(set(acts))
    if not listed:
        return ""
    out = f' data-acts="{e(json.dumps(listed))}"'
    if focus:  # a destination joins the Tab order once lit (static/board.js)
        out += f' tabindex="{-1 if then else 0}" role="button"'
    if then:
        out += ' data-then=""'
    if main is not None and main in listed:
        out += f' data-act="{e(main)}"'
    return out


def button(
    label: str,
    acts: Iterable[str],
    main: str | None = None,
    cls: str = "",
    extra: Mapping[str, str] | None = None,
) -> str:
    """An HTML button inside a picture that picks ``acts`` (plays ``main``); ``extra``:
    more attributes (``draggable``, ``data-marks`` ...), escaped here."""
    listed = sorted(set(acts))
    attr = acts_attr(listed, main, focus=False)
    attr += "".join(f' {name}="{e(value)}"' for name, value in (extra or {}).items())
    klass = f"secondary pic-button {cls}".strip()
    disabled = "" if listed else " disabled"
    return f'<button type="button" class="{klass}"{attr}{disabled}>{e(label)}</button>'


def pick_button(
    label: str, word: str, name: str, cls: str = "", extra: Mapping[str, str] | None = None
) -> str:
    """An HTML button inside a picture that picks ``name`` for ``word`` of the seat's
    compact legal form (``core/legal_form.py``; static/board.js writes the action once
    every word has its names); ``extra``: more attributes, escaped here."""
    attr = f' data-pick="{e(json.dumps([word, name]))}"'
    attr += "".join(f' {key}="{e(value)}"' for key, value in (extra or {}).items())
    klass = f"secondary pic-button {cls}".strip()
    return f'<button type="button" class="{klass}"{attr}>{e(label)}</button>'


def abbr(text: str, code: Code | None) -> str:
    """``text`` (a code as a picture shows it) as an ``<abbr>`` whose title is the code's
    full name and line, reachable with the keyboard and by a tap (static/codes.js shows
    the title beside it); plain escaped text when the code is not known."""
    if code is None:
        return e(text)
    return f'<abbr title="{e(code.tip)}" tabindex="0">{e(text)}</abbr>'


def codes_by_name(codes: Iterable[Code]) -> dict[str, Code]:
    """A game's codes by their code, for :func:`abbr`."""
    return {code.code: code for code in codes}
