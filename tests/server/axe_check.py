"""axe-core on a Playwright page: the accessibility rules a browser test checks on every
page and state it visits. axe-core is vendored in ``tests/server/vendor/axe.min.js``
(the npm package ``axe-core``, pinned, beside its licence), injected into the page and
run there; a violation of impact serious or critical fails the test, each one named by
its rule, impact, the elements it found and its help line.

A rule that states its impact reports every violation with that impact (axe-core sets each
result's impact from its rule's); the rules whose stated impact never fails a page (minor,
moderate: landmarks, regions, heading order ...) are left out of the run (the site tour's
axe runs at desktop size: 18.2 s before, 16.3 s after; most of a run is color-contrast,
which is serious). A rule that states no impact always runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE = Path(__file__).with_name("vendor") / "axe.min.js"
#: the impacts that fail a page (axe's four: minor, moderate, serious, critical)
FAILING = ("serious", "critical")


#: axe.run in the page, with the rules whose stated impact is not among ``failing`` off
RUN = """(failing) => axe.run(document, {
    resultTypes: ['violations'],
    rules: Object.fromEntries(axe._audit.rules
        .filter((rule) => rule.impact && !failing.includes(rule.impact))
        .map((rule) => [rule.id, { enabled: false }])),
})"""


def axe_violations(page: Page, failing: tuple[str, ...] = FAILING) -> list[dict[str, Any]]:
    """Every violation axe-core finds on the page as it stands (axe's own records), of
    the rules that may report an impact in ``failing``."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # evaluated rather than added as a <script>: the pages' CSP allows no inline script
        page.evaluate(AXE.read_text(encoding="utf-8"))
    found = page.evaluate(RUN, list(failing))
    return list(found["violations"])


def axe_problems(page: Page, failing: tuple[str, ...] = FAILING) -> list[str]:
    """One line per element in violation of a rule whose impact is in ``failing``:
    ``rule (impact) at target: help``."""
    lines = []
    for violation in axe_violations(page, failing):
        if violation["impact"] not in failing:
            continue
        for node in violation["nodes"]:
            target = " ".join(str(part) for part in node["target"])
            lines.append(
                f"{violation['id']} ({violation['impact']}) at {target}: {violation['help']}"
            )
    return lines


def assert_accessible(page: Page, where: str) -> None:
    """Fails, listing each one, when axe-core finds a serious or critical violation."""
    problems = axe_problems(page)
    assert not problems, f"{where}: axe-core finds {len(problems)}:\n" + "\n".join(problems)
