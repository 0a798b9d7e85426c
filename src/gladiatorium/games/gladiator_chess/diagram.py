"""Positions as text: a hand-written Gladiator Chess position (docs/rules/gladiator-chess.md,
"Positions"), read into a :class:`Diagram` and written back from a match.

    ; a comment (a semicolon starts one anywhere)
    turn 3                          the turn being played (default 1)
    slot black queen                whose slot: team and commander (default white king)
    white K f1                      a piece: team, code, square
    white W e4 2                    ... with 2 hit points left (default: full)
    black BK g3 moved               ... that has moved this turn
    frozen black S e7 10            a piece frozen under the other team's Queen on e7
    captive white h5 2              the white Queen is held by the black piece on h5,
                                    taken in turn 2 (default: this turn)
    lost white W F F                captured pieces of a team (for promotion)

Every error names the source, the line and the field. Pure rules code: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gladiatorium.core import PositionError
from gladiatorium.games.gladiator_chess.board import parse_square
from gladiatorium.games.gladiator_chess.options import GladiatorChessOptions
from gladiatorium.games.gladiator_chess.pieces import (
    COMMANDERS,
    KINDS,
    KING,
    QUEEN,
    QUEEN_TAKERS,
    TEAMS,
    Piece,
    other,
)
from gladiatorium.games.gladiator_chess.position import NAMES, Position, new_position


@dataclass(frozen=True)
class PiecePlace:
    """One piece of the diagram and the line that placed it."""

    line: int
    team: str
    kind: str
    square: int
    hp: int | None
    moved: bool = False
    frozen: bool = False


@dataclass(frozen=True)
class Captive:
    """A captive Queen: the square of the piece holding her, the turn she was taken."""

    line: int
    captor: int
    since: int | None


@dataclass
class Diagram:
    """A position as written: pieces, frozen pieces, captive queens, losses, turn, slot."""

    source: str
    turn: int = 1
    slot: tuple[str, str] = (TEAMS[0], COMMANDERS[0])
    pieces: list[PiecePlace] = field(default_factory=list)
    captives: dict[str, Captive] = field(default_factory=dict)
    lost: dict[str, list[str]] = field(default_factory=lambda: {t: [] for t in TEAMS})

    def fail(self, line: int, what: str, problem: str) -> PositionError:
        return PositionError(f"{self.source} line {line}: {what}: {problem}")

    # ----- building the position ----------------------------------------------------
    def position(self, options: GladiatorChessOptions) -> Position:
        """The :class:`Position` this diagram describes, checked against the rules'
        bookkeeping: one King and one Queen a team, a frozen piece under an enemy
        Queen, a captive Queen held by a piece that may take her (Queen 5)."""
        pieces = [self._piece(pid, place, options) for pid, place in enumerate(self.pieces)]
        for team in self.captives:
            pieces.append(Piece(len(pieces), QUEEN, team, 0, 0, -1))
        self._one_royal_each(pieces)
        pos = new_position(pieces, options)
        for place, piece in zip(self.pieces, pieces, strict=False):
            if place.frozen:
                self._freeze(pos, place, piece)
            if place.moved:
                pos.moved.add(piece.pid)
        for team, captive in self.captives.items():
            self._hold(pos, team, captive)
        pos.lost = {t: list(self.lost[t]) for t in TEAMS}
        return pos

    def _piece(self, pid: int, place: PiecePlace, options: GladiatorChessOptions) -> Piece:
        full = options.hit_points.get(place.kind, 0)
        hp = full if place.hp is None or place.kind == QUEEN else place.hp
        if place.kind != QUEEN and not 1 <= hp <= full:
            raise self.fail(place.line, "hit points", f"{hp} is not 1 to {full} for a {place.kind}")
        return Piece(pid, place.kind, place.team, hp, full, place.square)

    def _one_royal_each(self, pieces: list[Piece]) -> None:
        for team in TEAMS:
            for kind, where in ((KING, "on the board or frozen"), (QUEEN, "or captive")):
                count = sum(1 for p in pieces if p.team == team and p.kind == kind)
                if count != 1:
                    raise PositionError(
                        f"{self.source}: the {team} team needs one {kind} ({where}), has {count}"
                    )

    def _freeze(self, pos: Position, place: PiecePlace, piece: Piece) -> None:
        """Queen 2-3: the piece lies on the tally under the enemy Queen on its square."""
        queen = next(
            (
                p
                for p in pos.pieces
                if p.kind == QUEEN and p.sq == place.square and p.pid != piece.pid
            ),
            None,
        )
        if queen is None or queen.team == piece.team:
            raise self.fail(
                place.line, "square", f"no {other(piece.team)} Queen on {NAMES[place.square]}"
            )
        if pos.frozen[queen.team] is not None:
            raise self.fail(place.line, "square", "that Queen already holds a piece frozen")
        pos.frozen[queen.team] = piece.pid
        pos.board[place.square] = queen

    def _hold(self, pos: Position, team: str, captive: Captive) -> None:
        """Queen 5: a captive Queen is held by an enemy Black Knight, scout or King."""
        captor = pos.board[captive.captor]
        if captor is None or captor.team == team:
            raise self.fail(
                captive.line, "square", f"no {other(team)} piece on {NAMES[captive.captor]}"
            )
        if captor.kind not in QUEEN_TAKERS | {KING}:
            raise self.fail(
                captive.line, "square", "only a Black Knight, a scout or a King holds a Queen"
            )
        pos.captor[team] = captor.pid
        pos.taken_on[team] = self.turn if captive.since is None else captive.since


# ----- reading ------------------------------------------------------------------------
def read_diagram(text: str, source: str = "position") -> Diagram:
    """Parse a written position; every error names ``source``, the line and the field."""
    diagram = Diagram(source)
    taken: dict[int, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        words = raw.split(";", 1)[0].split()
        if words:
            _read_line(diagram, number, words, taken)
    return diagram


def _read_line(diagram: Diagram, line: int, words: list[str], taken: dict[int, int]) -> None:
    head = words[0].lower()
    if head == "turn":
        diagram.turn = _number(diagram, line, "turn", words[1:], at_least=1)
    elif head == "slot":
        diagram.slot = _slot(diagram, line, words[1:])
    elif head == "lost":
        team = _team(diagram, line, words[1:2])
        diagram.lost[team].extend(_kind(diagram, line, w) for w in words[2:])
    elif head == "captive":
        _captive(diagram, line, words[1:])
    elif head in TEAMS or head == "frozen":
        place = _place(diagram, line, words[1:] if head == "frozen" else words, head == "frozen")
        if not place.frozen:
            if place.square in taken:
                raise diagram.fail(
                    line, "square", f"{NAMES[place.square]} is taken (line {taken[place.square]})"
                )
            taken[place.square] = line
        diagram.pieces.append(place)
    else:
        raise diagram.fail(
            line,
            "line",
            f"starts with {words[0]!r}; expected white, black, frozen, captive, lost, turn or slot",
        )


def _place(diagram: Diagram, line: int, words: list[str], frozen: bool) -> PiecePlace:
    """``TEAM CODE SQUARE [HIT-POINTS] [moved]``."""
    if len(words) < 3:
        raise diagram.fail(line, "piece", "write 'TEAM CODE SQUARE [HIT-POINTS] [moved]'")
    team = _team(diagram, line, words[:1])
    kind = _kind(diagram, line, words[1])
    square = _square(diagram, line, words[2])
    rest = [w.lower() for w in words[3:]]
    moved = "moved" in rest
    rest = [w for w in rest if w != "moved"]
    if len(rest) > 1:
        raise diagram.fail(line, "piece", f"unexpected {' '.join(rest[1:])!r}")
    hp = _number(diagram, line, "hit points", rest, at_least=1) if rest else None
    return PiecePlace(line, team, kind, square, hp, moved, frozen)


def _captive(diagram: Diagram, line: int, words: list[str]) -> None:
    """``captive TEAM SQUARE [TURN]``: that team's Queen, held on SQUARE."""
    if len(words) not in (2, 3):
        raise diagram.fail(line, "captive", "write 'captive TEAM SQUARE [TURN TAKEN]'")
    team = _team(diagram, line, words[:1])
    if team in diagram.captives:
        raise diagram.fail(line, "team", f"the {team} Queen is already captive")
    since = _number(diagram, line, "turn taken", words[2:], at_least=1) if len(words) == 3 else None
    diagram.captives[team] = Captive(line, _square(diagram, line, words[1]), since)


def _slot(diagram: Diagram, line: int, words: list[str]) -> tuple[str, str]:
    if len(words) != 2 or words[1].lower() not in COMMANDERS:
        raise diagram.fail(line, "slot", f"write 'slot TEAM COMMANDER' ({', '.join(COMMANDERS)})")
    return _team(diagram, line, words[:1]), words[1].lower()


def _team(diagram: Diagram, line: int, words: list[str]) -> str:
    team = words[0].lower() if words else ""
    if team not in TEAMS:
        raise diagram.fail(line, "team", f"{team or 'nothing'!r} is not white or black")
    return team


def _kind(diagram: Diagram, line: int, word: str) -> str:
    kind = word.upper()
    if kind not in KINDS:
        raise diagram.fail(line, "piece", f"no piece code {word!r}; codes: {', '.join(KINDS)}")
    return kind


def _square(diagram: Diagram, line: int, word: str) -> int:
    try:
        return parse_square(word)
    except ValueError as err:
        raise diagram.fail(line, "square", str(err)) from None


def _number(diagram: Diagram, line: int, what: str, words: list[str], at_least: int) -> int:
    if len(words) != 1 or not words[0].isdigit() or int(words[0]) < at_least:
        raise diagram.fail(line, what, f"expected a whole number of at least {at_least}")
    return int(words[0])


# ----- writing ------------------------------------------------------------------------
def write_position(pos: Position, turn: int, slot: tuple[str, str]) -> str:
    """The text of a position (what :func:`read_diagram` reads back)."""
    lines = [f"turn {turn}", f"slot {slot[0]} {slot[1]}"]
    for piece in pos.pieces:
        if not piece.alive or piece.sq < 0:
            continue
        frozen = pos.holder_of(piece) is not None
        hp = "" if piece.kind == QUEEN else f" {piece.hp}"
        moved = " moved" if piece.pid in pos.moved else ""
        word = f"frozen {piece.team}" if frozen else piece.team
        lines.append(f"{word} {piece.kind} {NAMES[piece.sq]}{hp}{moved}")
    for team in TEAMS:
        pid = pos.captor[team]
        if pid is not None:
            lines.append(f"captive {team} {NAMES[pos.pieces[pid].sq]} {pos.taken_on[team]}")
        if pos.lost[team]:
            lines.append(f"lost {team} {' '.join(pos.lost[team])}")
    return "\n".join(lines) + "\n"


__all__ = ["Diagram", "read_diagram", "write_position"]
