"""How a game is shown to people: at the terminal and on the web pages.

A game is three parts (docs/architecture.md, "A game's three parts"): its rules (the
:class:`~gladiatorium.core.game.Game`: options, the state, legal actions, views,
outcome, worlds for bots), a :class:`TerminalPresenter` (the text picture, notation,
prompts, forgiving readings, command-line flags, the game's own commands) and a
:class:`WebPresenter` (the match page's picture, texts to publish, the designer of a
library item). The game names its presenters (``Game.terminal_presenter``,
``Game.web_presenter``) and holds one of each (``game.terminal``, ``game.web``). The
presenters here are what every game gets by default: with them alone a game plays at the
terminal, in the lab and on the server's generic match page. A presenter reads the
match only through the rules (``state.view(seat)``, the seat's legal actions and
events), so it shows a seat nothing the seat may not know.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from gladiatorium.core.action import Action
from gladiatorium.core.errors import GladiatoriumError, OptionsError
from gladiatorium.core.events import Seat
from gladiatorium.core.state import State

if TYPE_CHECKING:
    from gladiatorium.core.game import Game


class TerminalPresenter:
    """The game at the terminal: what ``gladiatorium play`` shows and reads, the
    flags of ``play`` and the menu, the game's own commands. Every method is built only
    from what the seat may know. A game's own presenter subclasses this and overrides
    what it shows better."""

    #: words that, typed alone at the terminal's prompt, mean ``look WORD`` (Super Dice
    #: Heroes' ``sheet``); never a legal action's notation
    look_shortcuts: ClassVar[tuple[str, ...]] = ()
    #: the game-specific command-line flags :meth:`cli_options` reads, with their help
    cli_flags: ClassVar[dict[str, str]] = {}

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    def render(self, state: State[Any], seat: Seat | None) -> str:
        """Text picture of the match as ``seat`` may see it (default: its view)."""
        return json.dumps(state.view(seat), indent=2, default=str)

    def notation_help(self) -> str:
        """How actions are written, for the terminal's ``help``."""
        return "Type an action exactly as listed by 'legal'."

    def legend(self) -> str | None:
        """What the board's symbols mean, shown under the board (None: nothing)."""
        return None

    def look_help(self) -> str | None:
        """What the terminal's ``look ...`` command shows in this game (None: nothing)."""
        return None

    def look(self, state: State[Any], seat: Seat | None, query: str) -> str:
        """Extra information on request (``look G1``: a vehicle's reach), built only from
        what ``seat`` may know. A query that makes no sense raises a GladiatoriumError."""
        raise GladiatoriumError(f"{self.game.info.slug} has nothing to look at")

    def enter_action(self, state: State[Any], seat: Seat) -> Action | None:
        """What pressing Enter on an empty line does for ``seat`` now (Gladiator Chess:
        let the commander of the slot move), or None: nothing."""
        return None

    def typed_reading(self, state: State[Any], seat: Seat, text: str) -> Action | None:
        """A forgiving reading of ``text`` that the strict notation refused, when it is
        unambiguous (a King's own move typed without ``king:``), or None."""
        return None

    def action_notes(self, state: State[Any], seat: Seat) -> dict[str, str]:
        """A short note on some of ``seat``'s legal actions, by notation, shown beside
        them (a Superhero Gladiators attack's chance to hit). Built only from what the
        seat may know; none by default."""
        return {}

    def prompt_text(self, state: State[Any], seat: Seat) -> str:
        """The terminal's prompt for ``seat``: whose turn and what is left (default:
        the seat)."""
        return seat

    def explain_refusal(self, state: State[Any], seat: Seat, text: str) -> str | None:
        """Why ``text`` is refused for ``seat`` now: the nearest legal reading or the
        rule that forbids it, in words; None when the game has nothing to add to the
        generic "not a legal action". Built only from what ``seat`` may know. The
        default names the legal actions that complete what was typed."""
        typed = " ".join(text.split()).lower()
        if not typed or seat not in state.awaiting():
            return None
        close = [str(a) for a in state.legal_actions(seat)]
        close = [a for a in close if " ".join(a.split()).lower().startswith(typed + " ")]
        if not close:
            return None
        return f"did you mean {' or '.join(repr(a) for a in close[:3])}?"

    def summary(self, state: State[Any], seat: Seat | None) -> str:
        """The end of a match in players' words for ``seat`` ("You win: ..."), built
        only from what ``seat`` may know; empty while the match goes on. A game
        overrides :meth:`outcome_words` or this for richer wording."""
        from gladiatorium.core.texts import default_summary

        if state.outcome() is None:
            return ""
        return default_summary(state, seat, self.outcome_words(state))

    def outcome_words(self, state: State[Any]) -> str:
        """Why the match ended, in words (default: the outcome's reason)."""
        outcome = state.outcome()
        return "" if outcome is None else outcome.reason

    def rules_text(self) -> str | None:
        """The game's rules and rulings (``docs/rules/<slug>.md``, shipped with the
        package as ``gladiatorium/rules/<slug>.md``), or None when there are none."""
        from gladiatorium.core.texts import rules_text

        return rules_text(self.game.info.slug)

    def menu_choices(self, flag: str) -> list[str]:
        """Names the terminal menu offers for a game-specific flag (shipped heroes,
        maps, set-ups), besides a file; none by default."""
        return []

    def menu_default(self, flag: str) -> str:
        """The menu's answer for a game-specific flag left empty ('': the game's own
        default)."""
        return ""

    def cli_options(self, flags: Mapping[str, Sequence[str]]) -> dict[str, Any]:
        """Turn game-specific command-line flags (``--team 1=a.yaml``) into option
        values. The default accepts none."""
        if flags:
            raise OptionsError(
                f"{self.game.info.slug} takes no flag --{next(iter(flags))}; use --option KEY=VALUE"
            )
        return {}

    def commands(self) -> Mapping[str, object]:
        """The game's own terminal commands, by name (``gladiatorium NAME ...``): each a
        ``typer.Typer`` (a group of sub-commands) or a function typer reads as one
        command. They live in the game's folder and are imported only when this is
        called, so loading a game for the server or the lab loads no command code.
        Empty by default."""
        return {}


@dataclass(frozen=True)
class Design:
    """A library item (a hero) being designed in the browser: see
    :meth:`WebPresenter.design`."""

    #: every field of the item as HTML form controls, filled in, each error beside its
    #: field (every user string escaped)
    form: str
    #: the live check as HTML: cost, points left, every error, the preview
    check: str
    #: each field's error slot again, marked ``hx-swap-oob`` (the check's answer to htmx)
    slots: str
    #: the item as the text of its file (for download and the library)
    text: str
    name: str
    valid: bool


@dataclass(frozen=True)
class ItemFacts:
    """What the hall searches and sorts a published item by (a hero's card, a theme's
    size): see :meth:`WebPresenter.item_facts`."""

    #: the price (a hero's power points spent), or None
    cost: int | None = None
    #: words to find it by (a hero's power types, styles and flaws), lower case
    words: tuple[str, ...] = ()
    #: named whole numbers to filter by (a hero's traits, a theme's ``heroes``)
    numbers: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Code:
    """One code a game's pages show (a piece, a vehicle, a power, a designer's choice):
    its full name, one line of what it does, and the anchor of the rules page section
    that governs it (``''``: the rules page's top). See :meth:`WebPresenter.codes`."""

    code: str
    name: str
    line: str
    rule: str = ""

    @property
    def tip(self) -> str:
        """The words shown on hover, focus and tap: the full name and the line."""
        return f"{self.name}: {self.line}"


def named_seat(seat: Seat, names: Mapping[Seat, str]) -> str | None:
    """Whoever holds ``seat`` by the public name the server gives them (``names``: a
    user name, ``bot NAME (seat S)``), with the seat: ``ada (seat 2)``; None where no
    one named holds it (an open, invited or server seat, which the server calls ``seat
    S``)."""
    name = names.get(seat)
    if name is None or name == f"seat {seat}":
        return None
    return name if "(seat " in name else f"{name} (seat {seat})"


@dataclass(frozen=True)
class OptionChoice:
    """One value of an option picked from a list on the match creation form (a shipped
    map, a set-up, a score sheet): see :meth:`WebPresenter.option_choices`."""

    #: what the form posts for it (a shipped file's name); ``''``: the player's own text,
    #: typed beside it, is the option's value
    key: str
    label: str
    #: the option values picking it sets (the option itself, and any that go with it)
    values: Mapping[str, Any]
    #: a small drawing of it (an HTML fragment, every user string escaped), or ``''``
    preview: str = ""


class WebPresenter:
    """The game on the web pages: the match page's picture, texts to publish, the
    designer of a library item. Built only from what the seat may know, every user
    string escaped. With none of its own, a game is shown on the generic match page:
    the terminal's text picture and notation."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    def picture(self, state: State[Any], seat: Seat | None) -> str | None:
        """The match as an HTML fragment (inline SVG and markup) for the web page, built
        only from ``state.view(seat)`` and the seat's own legal actions; every user string
        escaped. Clickable elements carry ``data-acts`` (a JSON list of the legal actions
        they take part in) and may carry ``data-act`` (the one a plain click plays); see
        docs/api.md "Game pages". None (the default): the page shows :meth:`text`."""
        return None

    def named_picture(
        self, state: State[Any], seat: Seat | None, names: Mapping[Seat, str]
    ) -> str | None:
        """:meth:`picture` with the people at the seats named as the server knows them
        (``names``: seat -> a public name: a user name, a bot with its seat), for a game
        whose picture speaks of players by seat (Hero Battle's guesses); the picture
        alone by default. Names are public: a game must not tie one to a secret."""
        return self.picture(state, seat)

    def named_event(self, text: str, names: Mapping[Seat, str]) -> str:
        """An event's text as the match page shows it, with the players the engine
        names by seat named as the server knows them (``names``, as for
        :meth:`named_picture`); the engine's text by default. Only the page's words
        change: the events themselves (and their digests) stay the engine's."""
        return text

    def text(self, state: State[Any], seat: Seat | None) -> str:
        """The match as text, shown on the page when there is no :meth:`picture`: the
        terminal's picture by default."""
        return self.game.terminal.render(state, seat)

    def notation_help(self) -> str:
        """How actions are written, shown under the page's action box: the terminal's
        by default."""
        return self.game.terminal.notation_help()

    def posts(self, state: State[Any], seat: Seat | None) -> dict[str, str]:
        """Texts ready to publish that ``seat`` may read (a forum round post), by title.
        Built only from what ``seat`` may know; none by default."""
        return {}

    def codes(self) -> tuple[Code, ...]:
        """Every code the game's pages show, with its full name, its line and the rules
        section that governs it: the match page's legend (and the designer's), and the
        tips of the codes in the picture. Declared once, from the game's own tables;
        none by default."""
        return ()

    def server_seat(self, seat: Seat) -> str:
        """A seat that no one holds and the server plays only at its deadlines (a game
        with ``timeout_actions``), in a player's words: what happens there."""
        return "nobody: the server plays the rules' default at each deadline"

    def design(
        self, fields: Mapping[str, Sequence[str]] | None = None, text: str | None = None
    ) -> Design:
        """The designer page of a library item (``/heroes/new``): from the posted form
        ``fields``, or from the ``text`` of a file (an import, a sample); with neither,
        a blank item. Games without a designer refuse."""
        raise GladiatoriumError(f"{self.game.info.slug} has no designer")

    def item_facts(self, kind: str, data: Mapping[str, Any]) -> ItemFacts:
        """The facts the hall keeps of a published ``kind`` (``hero``, ``theme``) with
        ``data`` as its checker made it: none by default."""
        return ItemFacts()

    def design_samples(self) -> dict[str, str]:
        """Sample library items to start a design from: name -> the text of its file."""
        return {}

    def option_choices(self) -> dict[str, list[OptionChoice]]:
        """Options picked from a list on the creation form rather than typed (a shipped
        map with a drawing of it), by option name; the first choice whose values match
        the defaults is picked at first. None by default: each option's control follows
        its type."""
        return {}
