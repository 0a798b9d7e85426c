"""Electron Gladiators at the terminal: the board and the turn in text, the notation,
the prompt, ``look G1`` (a vehicle's reach), ``--setup FILE`` and the game's own
commands (``reach``, ``board``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from rich.markup import escape

from gladiatorium.core import GladiatoriumError, OptionsError, Seat, State, TerminalPresenter
from gladiatorium.core.files import FileRefused, flag_error, read_text
from gladiatorium.games.electron_gladiators.board import parse_square
from gladiatorium.games.electron_gladiators.options import (
    MAX_SETUP_BYTES,
    ElectronGladiatorsOptions,
)
from gladiatorium.games.electron_gladiators.render import board_text, reach_text
from gladiatorium.games.electron_gladiators.setups import SHIPPED, parse_setup
from gladiatorium.games.electron_gladiators.state import ElectronGladiatorsState

NOTATION = """Squares: column A-U, row 1-21 (row 1 at the top). Name a vehicle by its square.
A turn: one move action (one vehicle, at least one point) and at most one
attack, before or after the move, never in the middle.
  C1 fwd 2        drive forward 2 squares (1 point each)
  C1 rev 1        reverse (tanks; the Scout cannot)
  C1 turn r45     turn in place: l45 l90 l135 r45 r90 r135 180
                  (tanks: 1 point per 45 degrees; Scout: 45/90 free but
                  never twice in a row, 180 costs 1)
  A1 fly SE 3     a flyer (INV, MQ) flies straight: N NE E SE S SW W NW
  fire G1 at G9   attack G9 with the gun on G1
  fire G1 at G9 with K1
                  add a second gun (armour is the side facing the first)
  end             end the move (then 'end' again passes up the attack)
  dodge H8        a missed Scout dodges (its owner chooses)
  G1              what the vehicle on G1 may do now
Board: upper case = seat 1, lower case = seat 2; arrows show facing, ~ a
flyer; ### obstacle, X 3D obstacle. 'look G1' shows the arc, ranges and
sight of the vehicle on G1 (docs/rules/electron-gladiators.md)."""


#: what the board's symbols mean (docs/rules/electron-gladiators.md, "Set-ups")
LEGEND = (
    "Seat 1 upper case, seat 2 lower case: H1, H2 heavy tank-1, -2; M1, M2 medium tank-1,"
    " -2; LT light tank; SC scout; MQ mosquito; IN inverter. An arrow is the facing, ~ a"
    " flyer; ### an obstacle, X a 3D obstacle. 'look G1': a vehicle's reach."
)


class ElectronGladiatorsTerminal(TerminalPresenter):
    """Electron Gladiators at the terminal."""

    cli_flags: ClassVar[dict[str, str]] = {
        "setup": "FILE the starting set-up file (or a shipped one: basic-1 ... deluxe-2)"
    }

    def commands(self) -> Mapping[str, object]:
        """``gladiatorium electron-gladiators reach|board``."""
        from gladiatorium.games.electron_gladiators import commands

        return {"electron-gladiators": commands.app}

    def render(self, state: State[ElectronGladiatorsOptions], seat: Seat | None) -> str:
        assert isinstance(state, ElectronGladiatorsState)
        view = state.view(seat)
        lines = [board_text(state.arena)]
        status = f"{escape(view['setup'])}  turn {view['turn']}  seat {view['to_move']} to move"
        if view["mover"]:
            status += f"  moving {view['mover']} ({view['points_left']} points left)"
        if view["attacked"]:
            status += "  attack made"
        if view["pending_dodge"]:
            status += f"  Scout on {view['pending_dodge']['scout']} must dodge"
        lines.append(status)
        counts = {s: sum(1 for v in view["vehicles"] if v["seat"] == s) for s in ("1", "2")}
        lines.append(
            f"vehicles: seat 1 {counts['1']}, seat 2 {counts['2']}; "
            f"{view['quiet_turns']} turns without a loss"
        )
        return "\n".join(lines)

    def notation_help(self) -> str:
        return NOTATION

    def legend(self) -> str | None:
        return LEGEND

    def prompt_text(self, state: State[ElectronGladiatorsOptions], seat: Seat) -> str:
        """Whose turn and what is left of it: ``1 turn 3: C2 3 points left, attack
        open``."""
        view = state.view(seat)
        text = f"{seat} turn {view['turn']}"
        if view.get("pending_dodge"):
            return f"{text}: dodge?"
        left = []
        if view.get("mover") and view.get("points_left") is not None and not view["move_over"]:
            left.append(f"{view['mover']} {view['points_left']} points left")
        left.append("attack made" if view.get("attacked") else "attack open")
        return f"{text}: {', '.join(left)}"

    def look_help(self) -> str | None:
        return "'look G1' shows the firing arc, ranges and line of sight of the vehicle on G1"

    def look(self, state: State[ElectronGladiatorsOptions], seat: Seat | None, query: str) -> str:
        """A vehicle's reach (everything on the board is open to both players)."""
        assert isinstance(state, ElectronGladiatorsState)
        if not query:
            raise GladiatoriumError("look at which square? e.g. 'look G1'")
        vehicle = state.arena.vehicle_at(parse_square(query))
        if vehicle is None:
            raise GladiatoriumError(f"no vehicle on {query.upper()}")
        return reach_text(state.arena, vehicle, options=state.options)

    def cli_options(self, flags: Mapping[str, Sequence[str]]) -> dict[str, Any]:
        """``--setup FILE`` reads a set-up file into the ``setup`` option (so a saved
        record replays without the file); its errors name the file and the line."""
        out: dict[str, Any] = {}
        for name, values in flags.items():
            if name != "setup":
                raise OptionsError(f"electron-gladiators takes --setup FILE, not --{name}")
            given = values[-1]
            shipped = given in SHIPPED and not Path(given).exists()
            out["setup"] = given if shipped else read_setup_file(Path(given))
        return out

    def menu_choices(self, flag: str) -> list[str]:
        """The shipped set-ups, offered by the menu besides a set-up file."""
        return list(SHIPPED) if flag == "setup" else []


def read_setup_file(path: Path) -> str:
    """The text of a set-up file, checked: an error names the file and the line."""
    try:
        text = read_text(path, MAX_SETUP_BYTES)
    except FileRefused as err:
        raise OptionsError(flag_error("--setup", err)) from err
    parse_setup(text, str(path))
    return text
