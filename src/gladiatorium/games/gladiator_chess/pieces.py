"""The pieces, the teams and the four commanders of each team."""

from __future__ import annotations

from dataclasses import dataclass

WHITE = "white"
BLACK = "black"
TEAMS = (WHITE, BLACK)

KING = "K"
QUEEN = "Q"
CHAMPION = "C"
MOUNTED_KNIGHT = "MK"
BLACK_KNIGHT = "BK"
KINGS_KNIGHT = "KK"
WARRIOR = "W"
SCOUT = "S"
FOOTMAN = "F"
SQUIRE = "SQ"

KINDS = (
    KING,
    QUEEN,
    CHAMPION,
    MOUNTED_KNIGHT,
    BLACK_KNIGHT,
    KINGS_KNIGHT,
    WARRIOR,
    SCOUT,
    FOOTMAN,
    SQUIRE,
)
KIND_NAMES = {
    KING: "King",
    QUEEN: "Queen",
    CHAMPION: "Champion",
    MOUNTED_KNIGHT: "Mounted Knight",
    BLACK_KNIGHT: "Black Knight",
    KINGS_KNIGHT: "King's Knight",
    WARRIOR: "Warrior",
    SCOUT: "Scout",
    FOOTMAN: "Footman",
    SQUIRE: "Squire",
}
#: what each piece does, in one line (its commander, how it moves, how it fights); the
#: web pages' legend and tips
KIND_LINES = {
    KING: "the King's own piece: one square any way (as a queen while his Queen is "
    "captive); checkmate or kill him to win",
    QUEEN: "the Queen's: moves as a chess queen; never fights, freezes the enemy piece she "
    "lands on and heals her pieces next to her",
    CHAMPION: "the Queen's: exactly 3 or 5 squares along files and ranks, turning once at most",
    MOUNTED_KNIGHT: "the King's: leaps as a chess knight",
    BLACK_KNIGHT: "commands the Black Knight's slot: leaps as a chess knight; may take a queen",
    KINGS_KNIGHT: "commands the King's Knight's slot: leaps as a chess knight; while he "
    "lives (and the Queen is free) his King is protected",
    WARRIOR: "the Queen's: moves as a chess rook; healed by a won fight",
    SCOUT: "the Black Knight's: moves as a chess bishop; may take a queen",
    FOOTMAN: "the King's: one or two squares straight ahead, attacks one diagonally "
    "ahead; healed by a won fight",
    SQUIRE: "the King's Knight's: a chess pawn; healed by a won fight, promoted to any "
    "captured piece",
}
KNIGHTS = frozenset({MOUNTED_KNIGHT, BLACK_KNIGHT, KINGS_KNIGHT})
PAWNS = frozenset({FOOTMAN, SQUIRE})
#: pieces that come back from a won battle fully healed (Footman 4, Warrior 3, Squire 4)
HEAL_ON_VICTORY = frozenset({FOOTMAN, WARRIOR, SQUIRE})
#: pieces that may capture a queen, besides an unprotected King (Queen 5)
QUEEN_TAKERS = frozenset({BLACK_KNIGHT, SCOUT})

# The four commanders, in move order (General 4), and the pieces each moves.
KING_CMD = "king"
QUEEN_CMD = "queen"
BLACK_KNIGHT_CMD = "black-knight"
KINGS_KNIGHT_CMD = "kings-knight"
COMMANDERS = (KING_CMD, QUEEN_CMD, BLACK_KNIGHT_CMD, KINGS_KNIGHT_CMD)
COMMANDS = {
    KING_CMD: frozenset({KING, MOUNTED_KNIGHT, FOOTMAN}),
    QUEEN_CMD: frozenset({QUEEN, CHAMPION, WARRIOR}),
    BLACK_KNIGHT_CMD: frozenset({BLACK_KNIGHT, SCOUT}),
    KINGS_KNIGHT_CMD: frozenset({KINGS_KNIGHT, SQUIRE}),
}
COMMANDER_NAMES = {
    KING_CMD: "King",
    QUEEN_CMD: "Queen",
    BLACK_KNIGHT_CMD: "Black Knight",
    KINGS_KNIGHT_CMD: "King's Knight",
}
COMMANDER_OF = {kind: cmd for cmd, kinds in COMMANDS.items() for kind in kinds}


def seat_of(team: str, commander: str) -> str:
    """``white``, ``black-knight`` -> ``white-black-knight``."""
    return f"{team}-{commander}"


SEATS = tuple(seat_of(t, c) for t in TEAMS for c in COMMANDERS)
SEAT_ROLES = {seat_of(t, c): (t, c) for t in TEAMS for c in COMMANDERS}


def other(team: str) -> str:
    return BLACK if team == WHITE else WHITE


def forward(team: str) -> int:
    """Rank step of a forward move: White goes up the board, Black down."""
    return 1 if team == WHITE else -1


@dataclass(slots=True)
class Piece:
    """One piece. ``sq`` is its square, or -1 while it is off the board (frozen on
    the tally under a queen, a captive queen, or captured). Frozen pieces keep the
    square they were frozen on."""

    pid: int
    kind: str
    team: str
    hp: int
    max_hp: int
    sq: int = -1
    alive: bool = True

    @property
    def label(self) -> str:
        return f"{self.team} {KIND_NAMES[self.kind]}"
