"""The rules pages: each game's own rules text (``docs/rules/<slug>.md``, shipped in the
package as ``gladiatorium/rules/<slug>.md``) rendered as a page of the site, with a table
of contents and an ``id`` on every heading so a control can link to the rule it follows."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from fastapi import APIRouter, Request
from fastapi.responses import Response
from markdown_it import MarkdownIt
from markupsafe import Markup

from gladiatorium.core import games
from gladiatorium.core.texts import rules_text
from gladiatorium.server.pages.common import env, page, problem

router = APIRouter()


@dataclass(frozen=True)
class Heading:
    """One heading of a rules text: its level, words and anchor."""

    level: int
    text: str
    anchor: str


def slug_of(text: str, taken: set[str]) -> str:
    """The anchor of a heading: its words in lower case joined by dashes, made unique
    by a number when an earlier heading has the same words."""
    base = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"
    anchor, n = base, 1
    while anchor in taken:
        n += 1
        anchor = f"{base}-{n}"
    taken.add(anchor)
    return anchor


@lru_cache(maxsize=16)
def rendered(slug: str) -> tuple[str, tuple[Heading, ...]] | None:
    """A game's rules as HTML (raw HTML in the text is escaped, tables on) and its
    headings, or None when the game has no rules text."""
    text = rules_text(slug)
    if text is None:
        return None
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = md.parse(text)
    taken: set[str] = set()
    headings = []
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            words = tokens[i + 1].content
            anchor = slug_of(words, taken)
            token.attrSet("id", anchor)
            headings.append(Heading(int(token.tag[1]), words, anchor))
    return scrolling(md.renderer.render(tokens, md.options, {})), tuple(headings)


def scrolling(html: str) -> str:
    """A code block or table wider than a phone scrolls in its own box, which the
    keyboard reaches (``tabindex``) to scroll it. The text's own HTML is escaped, so every
    ``<pre>`` and ``<table>`` here is the renderer's."""
    html = html.replace("<pre>", '<pre tabindex="0">')
    return html.replace("<table>", '<div class="wide" tabindex="0"><table>').replace(
        "</table>", "</table></div>"
    )


def rules_anchors(slug: str) -> frozenset[str]:
    """The anchors of a game's rules page (empty when it has none)."""
    done = rendered(slug)
    return frozenset(h.anchor for h in done[1]) if done else frozenset()


# the creation form links its "Start from a position" help to the rules' Positions section
env.globals["rules_anchors"] = rules_anchors


@router.get("/rules/{slug}", response_model=None)
async def rules_page(request: Request, slug: str) -> Response:
    known = {g.info.slug: g for g in games()}
    done = rendered(slug) if slug in known else None
    if done is None:
        return problem(request, 404, f"no rules for a game called {slug!r}")
    html, headings = done
    return page(
        request,
        "rules.html",
        {"game": known[slug].info, "rules_html": Markup(html), "headings": headings},
    )
