"""The terminal picture: the 12 x 10 board with hit points, the tally (frozen pieces,
captive queens, losses) and whose command moves next."""

from __future__ import annotations

from typing import Any

from gladiatorium.games.gladiator_chess.board import FILES, HEIGHT, WIDTH

CELL = 6

LEGEND = (
    "K King  Q Queen  C Champion  MK Mounted Knight  BK Black Knight  KK King's Knight\n"
    "W Warrior  S Scout  F Footman  SQ Squire.  Upper case white, lower case black;\n"
    "the number is hit points left, * marks a piece that has moved this turn,\n"
    "~ marks a queen standing on a piece she holds frozen."
)


def cell(piece: dict[str, Any], holding: bool) -> str:
    code = piece["piece"] if piece["team"] == "white" else piece["piece"].lower()
    hp = "" if piece["piece"] == "Q" else str(piece["hp"])
    mark = "~" if holding else ("*" if piece["moved"] else "")
    return f"{code}{hp}{mark}".ljust(CELL)


def board_text(view: dict[str, Any]) -> str:
    """Rank 10 at the top, file a on the left, as White sees the board."""
    at = {p["square"]: p for p in view["pieces"]}
    held = {f["square"] for f in view["frozen"].values()}
    header = "    " + "".join(f.ljust(CELL) for f in FILES)
    lines = [header]
    for rank in range(HEIGHT, 0, -1):
        row = []
        for file in range(WIDTH):
            name = f"{FILES[file]}{rank}"
            piece = at.get(name)
            if piece is None:
                row.append(("." if (file + rank) % 2 else ":").ljust(CELL))
            else:
                row.append(cell(piece, name in held))
        lines.append(f"{rank:>2}  " + "".join(row).rstrip())
    lines.append(header)
    return "\n".join(lines)


def tally_text(view: dict[str, Any]) -> str:
    lines = []
    for holder, frozen in sorted(view["frozen"].items()):
        lines.append(
            f"frozen under the {holder} Queen on {frozen['square']}: "
            f"{frozen['team']} {frozen['piece']} ({frozen['hp']} hp)"
        )
    for team, info in sorted(view["captive_queens"].items()):
        where = info["square"] or "off the board"
        lines.append(
            f"captive: the {team} Queen, held by the {info['captor']} on {where} "
            f"for {info['held_turns']} turn(s)"
        )
    for team in ("white", "black"):
        if view["lost"][team]:
            lines.append(f"{team} captured pieces: {' '.join(view['lost'][team])}")
        state = "protected" if view["protected"][team] else "exposed (can be attacked)"
        check = ", IN CHECK" if view["in_check"][team] else ""
        lines.append(f"{team} King: {state}{check}")
    return "\n".join(lines)


def status_text(view: dict[str, Any]) -> str:
    if view["outcome"] is not None:
        outcome = view["outcome"]
        return f"game over: {outcome['team'] or 'draw'} ({outcome['reason']})"
    team, commander = view["team"], view["commander"]
    if view["phase"] == "override" and view.get("override_forced"):
        return (
            f"turn {view['turn']}/{view['turn_limit']}: {team} {commander}'s move; "
            f"the {commander} has no move, so the {team} King must override it "
            f"('king overrides {commander}: ...')"
        )
    if view.get("king_moves_any"):
        return (
            f"turn {view['turn']}/{view['turn_limit']}: {team} king to move; his own "
            f"pieces cannot move, so he moves any unmoved piece of his team (General 7)"
        )
    if view["phase"] == "override":
        return (
            f"turn {view['turn']}/{view['turn_limit']}: {team} {commander}'s move; "
            f"the {team} King may override it first ('let {commander}' or "
            f"'king overrides {commander}: ...')"
        )
    return f"turn {view['turn']}/{view['turn_limit']}: {team} {commander} to move"


def render_view(view: dict[str, Any]) -> str:
    parts = [board_text(view), tally_text(view)]
    if view["last_combat"]:
        parts.append("last combat: " + "; ".join(view["last_combat"]))
    parts.append(status_text(view))
    return "\n".join(p for p in parts if p)
