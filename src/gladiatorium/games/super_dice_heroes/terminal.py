"""Super Dice Heroes at the terminal: the roll, the seat's sheet and the leaders in text,
the notation, ``sheet`` and ``look N``, refusals in the rules' words, the end with the
seat's honor by location, ``--sheet FILE`` and ``--name SEAT=NAME``, and the printable
sheet (``gladiatorium super-dice-heroes sheet``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from rich.markup import escape

from gladiatorium.core import (
    GladiatoriumError,
    OptionsError,
    Seat,
    State,
    TerminalPresenter,
    is_number,
)
from gladiatorium.core.files import FileRefused, flag_error, read_text
from gladiatorium.games.super_dice_heroes.options import MAX_SHEET_BYTES, SuperDiceHeroesOptions
from gladiatorium.games.super_dice_heroes.render import hero_text, match_text
from gladiatorium.games.super_dice_heroes.sheet import load_sheet
from gladiatorium.games.super_dice_heroes.state import SuperDiceHeroesState

NOTATION = """\
Locations: 1 City Hall, 2 Hospital, 3 Downtown, 4 Powerplant, 5 Warehouse, 6 Church.
Dice are named by the number they show; boxes by their number on your sheet.
  choose grow            set-up: keep one of your two rolled superpowers
  move 3 with 3          spend a 3 to go to Downtown (a die showing the number of
                         where you stand moves you anywhere: at 5, 'move 2 with 5')
  help 4 at 2            spend a 4 to fill box 2 where you stand
  defeat minion with 6   spend any die on a robot minion where you stand (1 honor)
  wild move 4 | wild help 5 at 3 | wild defeat minion     spend a wild die
  shrink 5 | ice 5 | fire 2 | grow 3 | shapeshift 5 to 2  superpower on a die
  teleport 6 with 2      superpower: spend any die to go anywhere
  done                   finish this round, once every die is spent (house rule
                         may_waste_dice: earlier, and the dice left are lost)
All heroes decide on the same roll; the next round starts when everyone is done."""


class SuperDiceHeroesTerminal(TerminalPresenter):
    """Super Dice Heroes at the terminal."""

    cli_flags: ClassVar[dict[str, str]] = {
        "name": "SEAT=NAME a hero's name",
        "sheet": "FILE a corrected sheet",
    }

    def commands(self) -> Mapping[str, object]:
        """``gladiatorium super-dice-heroes sheet``: the score sheet to print."""
        from gladiatorium.games.super_dice_heroes import commands

        return {"super-dice-heroes": commands.app}

    def render(self, state: State[SuperDiceHeroesOptions], seat: Seat | None) -> str:
        """The roll, the seat's sheet in compact form and the leaders: it all fits a
        40-row terminal (``sheet`` shows the whole sheet)."""
        assert isinstance(state, SuperDiceHeroesState)
        return escape(match_text(state.sheet, state.view(seat), seat, compact=True))

    look_shortcuts: ClassVar[tuple[str, ...]] = ("sheet",)

    def look_help(self) -> str | None:
        return (
            "'sheet' (or 'look sheet'): your whole sheet, every box numbered and every goal, "
            "and the scoreboard; 'look N': the sheet of seat N as this round began"
        )

    def look(self, state: State[SuperDiceHeroesOptions], seat: Seat | None, query: str) -> str:
        """A whole sheet: the seat's own (``sheet``) or another seat's (``3``), from the
        seat's view (another hero's sheet as the round began, R12)."""
        assert isinstance(state, SuperDiceHeroesState)
        view = state.view(seat)
        wanted = query.strip().lower()
        if wanted in {"", "sheet"} and seat is not None:
            return escape(match_text(state.sheet, view, seat))
        if wanted not in view["heroes"]:
            seats = ", ".join(view["heroes"])
            raise GladiatoriumError(f"look {query.strip()!r}: say 'sheet' or a seat ({seats})")
        hero = view["heroes"][wanted]
        return escape(hero_text(state.sheet, hero, view["round"], view["rounds"]))

    def notation_help(self) -> str:
        return NOTATION

    def summary(self, state: State[SuperDiceHeroesOptions], seat: Seat | None) -> str:
        """Who won, the scores, and the seat's own honor by location (the others'
        sheets are summed up in the scores)."""
        text = super().summary(state, seat)
        if not text or seat is None or not isinstance(state, SuperDiceHeroesState):
            return text
        hero = state.heroes.get(seat)
        if hero is None:
            return text
        sheet = state.sheet
        parts = [f"{loc.name} {hero.location_honor(sheet, loc.number)}" for loc in sheet.locations]
        return (
            f"{text}\nYour honor, {hero.score(sheet)}, by location: {', '.join(parts)} "
            f"(with {hero.bystanders} bystanders rescued and {sum(hero.minions)} minions "
            "defeated)"
        )

    def explain_refusal(
        self, state: State[SuperDiceHeroesOptions], seat: Seat, text: str
    ) -> str | None:
        """Why a typed action is refused, in the rules' words: the Warehouse fills left
        to right, no die shows that number (see ``refusals.py``)."""
        from gladiatorium.games.super_dice_heroes.refusals import why_refused

        if not isinstance(state, SuperDiceHeroesState):
            return None
        why = why_refused(state.sheet, state.view(seat), seat, text)
        return why or super().explain_refusal(state, seat, text)

    def cli_options(self, flags: Mapping[str, Sequence[str]]) -> dict[str, Any]:
        """``--sheet FILE`` reads a corrected sheet into the ``sheet`` option (so a saved
        record replays without the file); ``--name 2=Blaze`` names a hero."""
        out: dict[str, Any] = {}
        names: dict[int, str] = {}
        for flag, values in flags.items():
            if flag == "sheet":
                path = Path(values[-1])
                try:
                    text = read_text(path, MAX_SHEET_BYTES)
                except FileRefused as err:
                    raise OptionsError(flag_error("--sheet", err)) from err
                text += "\n" * ("\n" not in text)  # sheet text, never a shipped name
                load_sheet(text, str(path))
                out["sheet"] = text
            elif flag == "name":
                for value in values:
                    seat, sep, name = value.partition("=")
                    number = seat.strip()
                    if not sep or not is_number(number, 12) or not name.strip():
                        raise OptionsError(f"--name {value!r}: expected SEAT=NAME, e.g. 2=Blaze")
                    if int(number) < 1:
                        raise OptionsError(f"--name {value!r}: seats are numbered from 1")
                    if int(number) > self.game.info.max_players:
                        raise OptionsError(
                            f"--name {value!r}: seats are 1 to {self.game.info.max_players}"
                        )
                    names[int(seat)] = name.strip()
            else:
                raise OptionsError(
                    f"super-dice-heroes takes --sheet FILE, --position FILE and "
                    f"--name SEAT=NAME, not --{flag}"
                )
        if names:
            out["hero_names"] = [names.get(n, f"Hero {n}") for n in range(1, max(names) + 1)]
        return out
