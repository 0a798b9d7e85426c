"""``gladiatorium hero``: design Superhero Gladiators heroes.

Mounted by the main CLI through ``SuperheroGladiatorsTerminal.commands()``; it also runs
alone: ``python -m gladiatorium.games.superhero_gladiators.commands.hero check cowboy``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated, TypeVar

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from gladiatorium.core import GladiatoriumError, is_number
from gladiatorium.core.printing import PRINT_FORMATS, printable
from gladiatorium.core.terminal import check_output, error_text
from gladiatorium.games.superhero_gladiators.card import card_svg
from gladiatorium.games.superhero_gladiators.hero_files import (
    HeroFile,
    hero_yaml,
    load_hero_file,
    read_hero_text,
    resolve_hero_path,
    sample_files,
)
from gladiatorium.games.superhero_gladiators.heroes import (
    FLAW_COST,
    INFINITE,
    RULES,
    STYLE_COST,
    USES_COLUMNS,
    Attribute,
    Attributes,
    Flaw,
    Gizmo,
    Hero,
    Power,
    PowerType,
    Style,
    Uses,
    hero_errors,
    points,
    power_errors,
    price,
)
from gladiatorium.games.superhero_gladiators.render import hero_panel, price_line, report

hero_app = typer.Typer(
    help="Design Superhero Gladiators heroes: check hero files, print cards, build a "
    "hero step by step, list the sample heroes.",
    no_args_is_help=True,
    add_completion=False,
)
N = TypeVar("N", Style, Flaw)
#: the longest hero or power name the builder takes
MAX_NAME = 60
ForceArg = Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")]
console = Console()
err_console = Console(stderr=True)

FilesArg = Annotated[
    list[str], typer.Argument(help="Hero files (YAML or JSON), or names of sample heroes.")
]


def _load(given: str) -> HeroFile:
    return load_hero_file(resolve_hero_path(given))


def _worst(results: list[HeroFile]) -> int:
    """2 if any file is unreadable, else 1 if any is invalid, else 0."""
    return max((r.exit_code for r in results), default=0)


@hero_app.command("check")
def check(
    files: FilesArg,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
) -> None:
    """Check hero files against the design rules and explain traits and costs.

    Exit status: 0 all valid, 1 some hero breaks a rule, 2 some file cannot be read.
    """
    results = [_load(f) for f in files]
    if as_json:
        print(json.dumps([report(r) for r in results], indent=2))
    else:
        for result in results:
            console.print(hero_panel(result))
    raise typer.Exit(_worst(results))


@hero_app.command("card")
def card(
    file: Annotated[str, typer.Argument(help="Hero file, or the name of a sample hero.")],
    output: Annotated[
        Path | None,
        typer.Option(
            "--output", "-o", help="SVG, PNG or PDF file to write, by its name (default NAME.svg)."
        ),
    ] = None,
    force: ForceArg = False,
) -> None:
    """Write a printable index card (5 x 3 inches; SVG, PNG or PDF) with boxes to tick
    for oomph and uses."""
    result = _load(file)
    if not result.valid or result.hero is None:
        console.print(hero_panel(result))
        err_console.print("[red]error:[/red] no card for a hero that breaks the rules")
        raise typer.Exit(result.exit_code)
    target = output or Path(f"{result.path.stem}.svg")
    kind = target.suffix.lower().lstrip(".")
    if kind not in PRINT_FORMATS:
        message = (
            f"--output {target}: cards are written as SVG, PNG or PDF (a 5 x 3 inch index "
            f"card), chosen by the file name; name it {target.with_suffix('.png').name}, "
            f"{target.with_suffix('.pdf').name} or {target.with_suffix('.svg').name}"
        )
        err_console.print(error_text(message), soft_wrap=True)
        raise typer.Exit(2)
    _check_output(target, force)
    try:
        target.write_bytes(printable(card_svg(result.hero), kind))
    except GladiatoriumError as err:
        err_console.print(error_text(err), soft_wrap=True)
        raise typer.Exit(2) from err
    except OSError as err:
        err_console.print(error_text(f"{target}: cannot write it ({err.strerror})"))
        raise typer.Exit(2) from err
    console.print(Text(f"wrote {target}"))


@hero_app.command("list")
def list_samples(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
) -> None:
    """The sample heroes shipped with the game."""
    rows = []
    for path in sample_files():
        result = load_hero_file(path)
        hero = result.hero
        spent = points(hero).total if hero is not None else None
        rows.append({"name": hero.name if hero else path.stem, "file": path.name, "points": spent})
    if as_json:
        print(json.dumps(rows, indent=2))
        return
    table = Table("hero", "file", "points")
    for row in rows:
        table.add_row(
            Text(str(row["name"])),
            Text(str(row["file"])),
            f"{row['points']} of {RULES.power_points}",
        )
    console.print(table)


# --------------------------------------------------------------------------- new


def _ask_int(question: str, low: int, high: int, default: int | None = None) -> int:
    """A whole number from ``low`` to ``high``; anything else is refused in words."""
    while True:
        text: str = typer.prompt(
            f"{question} ({low}-{high})", default=None if default is None else str(default)
        )
        typed = text.strip()
        if is_number(typed, 6) and low <= int(typed) <= high:
            return int(typed)
        why = (
            f"{typed}: must be {low} to {high}"
            if is_number(typed, 6)
            else f"{typed!r} is not a number: type a whole number from {low} to {high}"
        )
        console.print(Text(why, style="red"), highlight=False)


def _ask_attributes() -> Attributes:
    """The four attributes, each at least 1, totalling 15; the last takes what is left."""
    left = RULES.attribute_points
    values: list[int] = []
    names = list(Attribute)
    for i, a in enumerate(names[:-1]):
        still = len(names) - i - 1
        high = left - still * RULES.attribute_minimum
        values.append(_ask_int(f"{a.value.title()} ({left} points left)", 1, high))
        left -= values[-1]
    console.print(f"{names[-1].value.title()} takes the {left} points left")
    strength, dexterity, size = values
    return Attributes(strength, dexterity, size, left)


def _ask_bought() -> Attributes:
    console.print(f"Each extra attribute point costs {RULES.attribute_price} power points.")
    while True:
        text: str = typer.prompt("Buy attribute points, e.g. size=1 (empty for none)", default="")
        found = dict(re.findall(r"([a-z]+)\s*=\s*(\d+)", text.lower()))
        unknown = [k for k in found if k not in {a.value for a in Attribute}]
        budget = RULES.power_points // RULES.attribute_price
        count = sum(int(v) for v in found.values())
        if not unknown and count <= budget and (found or not text.strip()):
            return Attributes(*(int(found.get(a.value, 0)) for a in Attribute))
        console.print(
            "[red]write NAME=NUMBER for strength, dexterity, size, perception; "
            f"at most {budget} points[/red]"
        )


def _ask_names(question: str, allowed: list[N]) -> tuple[N, ...]:
    names = ", ".join(a.value for a in allowed)
    while True:
        text: str = typer.prompt(
            f"{question} ({names}; comma-separated, empty for none)", default=""
        )
        words = [w.strip() for w in text.split(",") if w.strip()]
        chosen = [a for w in words for a in allowed if a.value == w]
        if len(chosen) == len(words):
            return tuple(chosen)
        console.print(f"[red]choose from: {names}[/red]")


def _ask_choice(question: str, allowed: list[str], default: str | None = None) -> str:
    while True:
        text: str = typer.prompt(f"{question} ({', '.join(allowed)})", default=default)
        if text.strip() in allowed:
            return text.strip()
        console.print(f"[red]choose from: {', '.join(allowed)}[/red]")


def _ask_uses() -> Uses:
    allowed = [str(u) for u in USES_COLUMNS]
    text = _ask_choice("Uses per game", allowed, default="10")
    return INFINITE if text == INFINITE else int(text)


def _ask_power(name: str) -> Power:
    kind = PowerType(_ask_choice("Type", [t.value for t in PowerType]))
    styles: tuple[Style, ...] = ()
    flaws: tuple[Flaw, ...] = ()
    gizmo: Gizmo | None = None
    if kind is not PowerType.HEALING:
        while True:
            styles = _ask_names("Styles", list(STYLE_COST[kind]))
            if not _choice_problems(Power(name, kind, 1, 10, styles), "styles"):
                break
        while True:
            flaws = _ask_names("Flaws", list(FLAW_COST[kind]))
            if not _choice_problems(Power(name, kind, 1, 10, styles, flaws), "flaws"):
                break
        gizmo = Gizmo(_ask_choice("Gizmo", [g.value for g in Gizmo], default="vulnerable"))
    level = _ask_int("Level", 1, 8)
    uses = _ask_uses()
    look: str = typer.prompt("What it looks like (optional)", default="")
    return Power(name, kind, level, uses, styles, flaws, gizmo, look.strip())


def _choice_problems(power: Power, field: str) -> bool:
    """Print what breaks a design rule in the ``field`` just chosen (unreliable with
    wild, a second defence style); True when something does, so it is asked again."""
    problems = [p for p in power_errors(power) if p.field == field]
    for p in problems:
        console.print(Text(f"{field}: {p.message}; choose again", style="red"), highlight=False)
    return bool(problems)


def _add_power(hero: Hero) -> Hero | None:
    """Ask for one power; ``None`` when the player is done."""
    name: str = typer.prompt("Power name (empty when done)", default="")
    while len(name) > MAX_NAME:
        console.print(f"[red]a power name has at most {MAX_NAME} characters[/red]")
        name = typer.prompt("Power name (empty when done)", default="")
    if not name.strip():
        return None
    power = _ask_power(name.strip())
    problems = power_errors(power)
    cost = price(power).cost
    left = points(hero).left
    if problems or cost is None:
        for p in problems:
            console.print(Text(f"{p.field}: {p.message}", style="red"))
        console.print("[red]power not added[/red]")
        return hero
    if cost > left:
        console.print(
            Text(f"{power.name} costs {cost}, only {left} points left: not added", style="red")
        )
        return hero
    console.print(Text(f"{power.name}: {price_line(power)}"))
    return Hero(hero.name, hero.attributes, hero.bought, (*hero.powers, power))


@hero_app.command("new")
def new(
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="File to write (default NAME.yaml).")
    ] = None,
    force: ForceArg = False,
) -> None:
    """Build a hero step by step, showing the points left; writes a valid hero file.
    The file to write is checked before the first question about the hero's build."""
    if output is not None:
        _check_output(output, force)
    name = ""
    while not name.strip() or len(name) > MAX_NAME:
        name = typer.prompt(f"Hero name (up to {MAX_NAME} characters)")
    target = output or Path(f"{_slug(name)}.yaml")
    if output is None:
        _check_output(target, force)
    console.print(f"Attributes: {RULES.attribute_points} points, each at least 1.")
    hero = Hero(name.strip(), _ask_attributes())
    while True:
        bought = _ask_bought()
        hero = Hero(hero.name, hero.attributes, bought)
        if points(hero).left >= 0:
            break
        console.print("[red]that costs more than the budget[/red]")
    hero = _powers_loop(hero)
    _finish(hero, target)


def _powers_loop(hero: Hero) -> Hero:
    """Add powers until an empty name."""
    while True:
        console.print(f"[bold]{points(hero).left} power points left[/bold]")
        added = _add_power(hero)
        if added is None:
            return hero
        hero = added


def _finish(hero: Hero, target: Path) -> None:
    """The hero's summary, then: save, add a power, edit or remove one, or quit."""
    while True:
        console.print(hero_panel(read_hero_text(hero_yaml(hero), target)))
        listed = "  ".join(f"{i}. {p.name}" for i, p in enumerate(hero.powers, 1))
        if listed:
            console.print(Text(f"powers: {listed}"), highlight=False)
        answer = typer.prompt(
            "save, add, edit N, remove N, or quit (without saving)", default="save"
        ).strip()
        word, _, rest = answer.lower().partition(" ")
        if word == "save":
            _write_new(hero, target)
            return
        if word == "quit":
            console.print("not saved")
            return
        if word == "add":
            hero = _powers_loop(hero)
            continue
        if word in {"edit", "remove"} and is_number(rest.strip(), 3):
            index = int(rest.strip()) - 1
            if 0 <= index < len(hero.powers):
                hero = _change_power(hero, index, word == "edit")
                continue
        console.print(
            Text(
                f"{answer!r}: type save, add, edit N or remove N (N from 1 to "
                f"{len(hero.powers)}), or quit",
                style="red",
            ),
            highlight=False,
        )


def _change_power(hero: Hero, index: int, edit: bool) -> Hero:
    """The hero without power ``index``, or with it built again (kept if the new one
    breaks a rule or costs too much)."""
    old = hero.powers[index]
    others = (*hero.powers[:index], *hero.powers[index + 1 :])
    without = Hero(hero.name, hero.attributes, hero.bought, others)
    if not edit:
        console.print(Text(f"{old.name} removed"), highlight=False)
        return without
    console.print(Text(f"editing {old.name}: answer each question again"), highlight=False)
    power = _ask_power(old.name)
    cost = price(power).cost
    if power_errors(power) or cost is None or cost > points(without).left:
        console.print(Text(f"{old.name} kept as it was: the new one does not fit", style="red"))
        return hero
    powers = (*hero.powers[:index], power, *hero.powers[index + 1 :])
    return Hero(hero.name, hero.attributes, hero.bought, powers)


@hero_app.command("edit")
def edit(file: Annotated[Path, typer.Argument(help="A hero file to change.")]) -> None:
    """Change a hero file: add, edit or remove powers, see the summary, save it back."""
    result = _load(str(file))
    if result.hero is None or not result.valid:
        console.print(hero_panel(result))
        err_console.print(error_text(f"{file}: fix the errors above first"), soft_wrap=True)
        raise typer.Exit(2)
    _finish(result.hero, result.path)


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "hero"


def _check_output(target: Path, force: bool) -> None:
    try:
        check_output(target, "--output", force)
    except GladiatoriumError as err:
        err_console.print(error_text(err), soft_wrap=True)
        raise typer.Exit(2) from err


def _write_new(hero: Hero, target: Path) -> None:
    problems = hero_errors(hero)
    if problems:  # the prompts keep every rule, so this is a bug if it happens
        for p in problems:
            err_console.print(Text(f"{p.field}: {p.message}", style="red"))
        raise typer.Exit(1)
    try:
        target.write_text(hero_yaml(hero), encoding="utf-8")
    except OSError as err:
        print(hero_yaml(hero))  # the hero the person built is not lost
        message = f"{target}: cannot write it ({err.strerror}); the hero is on standard output"
        err_console.print(error_text(message), soft_wrap=True)
        raise typer.Exit(2) from err
    console.print(Text(f"wrote {target} ({points(hero).total} of {RULES.power_points} points)"))


if __name__ == "__main__":
    hero_app()
