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
    healed                          the slot's Queen has healed already (Queen 13)
    let                             the King has let the slot's commander move
    forfeited white queen           a commander overridden earlier this turn (King 9)
    combat black W 4+2+5 white W 3  a fight of the last move, with its dice
    dice: 3 6 1                     the next dice, rolled before the seed's
    result white king-killed        the match is over (or: result draw)
    offer override own              ... its last slot's offer, with moves of his own or none

Every error names the source, the line and the field. Pure rules code: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from gladiatorium.core import PositionError
from gladiatorium.games.gladiator_chess.board import parse_square
from gladiatorium.games.gladiator_chess.combat import Fight
from gladiatorium.games.gladiator_chess.options import GladiatorChessOptions
from gladiatorium.games.gladiator_chess.pieces import (
    COMMANDERS,
    KINDS,
    KING,
    KING_CMD,
    QUEEN,
    QUEEN_TAKERS,
    TEAMS,
    Piece,
    other,
)
from gladiatorium.games.gladiator_chess.position import NAMES, Position, new_position

#: the ways a match is won, as a 'result' line writes them
CHECKMATE, KING_KILLED, QUEEN_HELD = ENDINGS = ("checkmate", "king-killed", "queen-held")
#: the slot's decision: the King's (override or let) or a commander's move
OVERRIDE_PHASE, COMMAND_PHASE = PHASES = ("override", "command")


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
    #: how many piece lines came before it: the Queen's place among the pieces
    order: int = 0
    moved: bool = False


@dataclass
class Diagram:
    """A position as written: pieces, frozen pieces, captive queens, losses, turn, slot."""

    source: str
    turn: int = 1
    slot: tuple[str, str] = (TEAMS[0], COMMANDERS[0])
    pieces: list[PiecePlace] = field(default_factory=list)
    captives: dict[str, Captive] = field(default_factory=dict)
    lost: dict[str, list[str]] = field(default_factory=lambda: {t: [] for t in TEAMS})
    #: the Queen of the slot has healed already (no healing as the slot is entered)
    healed: bool = False
    #: the line of 'let' (the King has let the commander move), 0: none
    let: int = 0
    #: (line, team, commander) of each commander who forfeited his move this turn
    forfeited: list[tuple[int, str, str]] = field(default_factory=list)
    #: the fights of the last move (see combat.Fight)
    combats: list[Fight] = field(default_factory=list)
    #: the next dice, drawn before the seed's
    dice: list[int] = field(default_factory=list)
    #: a match over: (winning team, or None for a draw; the ending's words)
    result: tuple[str | None, str] | None = None
    #: a match over: its last slot's offer (phase, whether the commander had moves)
    offer: tuple[str, bool] = (COMMAND_PHASE, True)

    def fail(self, line: int, what: str, problem: str) -> PositionError:
        return PositionError(f"{self.source} line {line}: {what}: {problem}")

    # ----- building the position ----------------------------------------------------
    def position(self, options: GladiatorChessOptions) -> Position:
        """The :class:`Position` this diagram describes, checked against the rules'
        bookkeeping: one King and one Queen a team, a frozen piece under an enemy
        Queen, a captive Queen held by a piece that may take her (Queen 5)."""
        pieces = [self._piece(place, options) for place in self.pieces]
        for team, captive in sorted(self.captives.items(), key=lambda c: (-c[1].order, -c[1].line)):
            pieces.insert(captive.order, Piece(0, QUEEN, team, 0, 0, -1))
        if self.result is not None and self.result[1] == KING_KILLED:
            loser = other(self.result[0] or "")
            pieces.append(Piece(0, KING, loser, 0, 0, -1, alive=False))
        for pid, piece in enumerate(pieces):
            piece.pid = pid
        self._one_royal_each(pieces)
        pos = new_position(pieces, options)
        placed = [p for p in pieces if p.sq >= 0]
        for place, piece in zip(self.pieces, placed, strict=True):
            if place.frozen:
                self._freeze(pos, place, piece)
            if place.moved:
                pos.moved.add(piece.pid)
        for team, captive in self.captives.items():
            if captive.moved:
                pos.moved.add(pos.royal(team, QUEEN).pid)
        for team, captive in self.captives.items():
            self._hold(pos, team, captive)
        pos.lost = {t: list(self.lost[t]) for t in TEAMS}
        return pos

    def _piece(self, place: PiecePlace, options: GladiatorChessOptions) -> Piece:
        full = options.hit_points.get(place.kind, 0)
        hp = full if place.hp is None or place.kind == QUEEN else place.hp
        if place.kind != QUEEN and not 1 <= hp <= full:
            raise self.fail(place.line, "hit points", f"{hp} is not 1 to {full} for a {place.kind}")
        return Piece(0, place.kind, place.team, hp, full, place.square)

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
    elif head in SAYINGS:
        SAYINGS[head](diagram, line, words[1:])
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
            f"starts with {words[0]!r}; expected white, black, frozen, captive, lost, turn, "
            "slot, healed, let, forfeited, combat, dice, result or offer",
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
    """``captive TEAM SQUARE [TURN] [moved]``: that team's Queen, held on SQUARE."""
    moved = len(words) > 2 and words[-1].lower() == "moved"
    words = words[:-1] if moved else words
    if len(words) not in (2, 3):
        raise diagram.fail(line, "captive", "write 'captive TEAM SQUARE [TURN TAKEN] [moved]'")
    team = _team(diagram, line, words[:1])
    if team in diagram.captives:
        raise diagram.fail(line, "team", f"the {team} Queen is already captive")
    since = _number(diagram, line, "turn taken", words[2:], at_least=1) if len(words) == 3 else None
    square = _square(diagram, line, words[1])
    diagram.captives[team] = Captive(line, square, since, len(diagram.pieces), moved)


def _no_words(diagram: Diagram, line: int, what: str, words: list[str]) -> None:
    if words:
        raise diagram.fail(line, what, f"takes nothing more, has {' '.join(words)!r}")


def _healed(diagram: Diagram, line: int, words: list[str]) -> None:
    """``healed``: the slot's Queen has healed already (Queen 13)."""
    _no_words(diagram, line, "healed", words)
    diagram.healed = True


def _let(diagram: Diagram, line: int, words: list[str]) -> None:
    """``let``: the King has let the slot's commander move (King 7)."""
    _no_words(diagram, line, "let", words)
    diagram.let = line


def _forfeited(diagram: Diagram, line: int, words: list[str]) -> None:
    """``forfeited TEAM COMMANDER``: overridden earlier this turn (King 9)."""
    team, commander = _slot(diagram, line, words, "forfeited")
    if commander == KING_CMD:
        raise diagram.fail(line, "forfeited", "no one overrides the King")
    if any(f[1:] == (team, commander) for f in diagram.forfeited):
        raise diagram.fail(line, "forfeited", f"the {team} {commander} is named already")
    diagram.forfeited.append((line, team, commander))


def _combat(diagram: Diagram, line: int, words: list[str]) -> None:
    """``combat TEAM CODE DICE TEAM CODE DICE``: a fight of the last move, the
    attacker's then the defender's dice written as ``4+2+5``."""
    if len(words) != 6:
        raise diagram.fail(line, "combat", "write 'combat TEAM CODE DICE TEAM CODE DICE'")
    attacker, defender = _fighter(diagram, line, words[:3]), _fighter(diagram, line, words[3:])
    diagram.combats.append((*attacker, *defender))


def _fighter(diagram: Diagram, line: int, words: list[str]) -> tuple[str, str, tuple[int, ...]]:
    """``TEAM CODE DICE``: one side of a fight."""
    team, kind = _team(diagram, line, words[:1]), _kind(diagram, line, words[1])
    return team, kind, _dice(diagram, line, "combat", words[2].split("+"))


def _next_dice(diagram: Diagram, line: int, words: list[str]) -> None:
    """``dice: 3 6 1``: the next dice (also ``dice [3, 6, 1]``)."""
    found = " ".join(words).replace(",", " ").replace("[", " ").replace("]", " ").split()
    diagram.dice = list(_dice(diagram, line, "dice", found))


def _dice(diagram: Diagram, line: int, what: str, words: list[str]) -> tuple[int, ...]:
    if not words or not all(w.isdigit() and 1 <= int(w) <= 6 for w in words):
        raise diagram.fail(line, what, f"{' '.join(words) or 'nothing'!r} are not dice of 1 to 6")
    return tuple(int(w) for w in words)


def _result(diagram: Diagram, line: int, words: list[str]) -> None:
    """``result TEAM ENDING`` (checkmate, king-killed, queen-held) or ``result draw``."""
    if [w.lower() for w in words] == ["draw"]:
        diagram.result = (None, "draw")
        return
    if len(words) != 2 or words[1].lower() not in ENDINGS:
        raise diagram.fail(
            line, "result", f"write 'result TEAM {'|'.join(ENDINGS)}' or 'result draw'"
        )
    diagram.result = (_team(diagram, line, words[:1]), words[1].lower())


def _offer(diagram: Diagram, line: int, words: list[str]) -> None:
    """``offer override|command own|none``: a match over, its last slot as offered."""
    said = [w.lower() for w in words]
    if len(said) != 2 or said[0] not in PHASES or said[1] not in ("own", "none"):
        raise diagram.fail(line, "offer", "write 'offer override|command own|none'")
    diagram.offer = (said[0], said[1] == "own")


#: the lines that say where in the turn the position stands, by their first word
SAYINGS: dict[str, Callable[[Diagram, int, list[str]], None]] = {
    "healed": _healed,
    "let": _let,
    "forfeited": _forfeited,
    "combat": _combat,
    "dice:": _next_dice,
    "dice": _next_dice,
    "result": _result,
    "offer": _offer,
}


def _slot(diagram: Diagram, line: int, words: list[str], what: str = "slot") -> tuple[str, str]:
    if len(words) != 2 or words[1].lower() not in COMMANDERS:
        raise diagram.fail(line, what, f"write '{what} TEAM COMMANDER' ({', '.join(COMMANDERS)})")
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
@dataclass(frozen=True)
class Standing:
    """Where in the turn a match stands, beyond its pieces, turn and slot: what
    :func:`write_position` writes besides them (every field as :class:`Diagram` has it)."""

    healed: bool = False
    let: bool = False
    forfeited: tuple[tuple[str, str], ...] = ()
    combats: tuple[Fight, ...] = ()
    dice: tuple[int, ...] = ()
    result: tuple[str | None, str] | None = None
    offer: tuple[str, bool] = (COMMAND_PHASE, True)


def write_position(
    pos: Position, turn: int, slot: tuple[str, str], standing: Standing = Standing()
) -> str:
    """The text of a position (what :func:`read_diagram` reads back): the pieces in
    the order of the match's (a captive Queen in her place), then where the turn stands."""
    lines = [f"turn {turn}", f"slot {slot[0]} {slot[1]}"]
    held = {pid: team for team, pid in pos.captor.items() if pid is not None}
    queens = {pos.royal(team, QUEEN).pid: team for team in held.values()}
    for piece in pos.pieces:
        if piece.pid in queens:
            lines.append(_captive_line(pos, queens[piece.pid]))
        elif piece.alive and piece.sq >= 0:
            lines.append(_piece_line(pos, piece))
    for team in TEAMS:
        if pos.lost[team]:
            lines.append(f"lost {team} {' '.join(pos.lost[team])}")
    lines += _standing_lines(standing)
    return "\n".join(lines) + "\n"


def _piece_line(pos: Position, piece: Piece) -> str:
    frozen = pos.holder_of(piece) is not None
    hp = "" if piece.kind == QUEEN else f" {piece.hp}"
    moved = " moved" if piece.pid in pos.moved else ""
    word = f"frozen {piece.team}" if frozen else piece.team
    return f"{word} {piece.kind} {NAMES[piece.sq]}{hp}{moved}"


def _captive_line(pos: Position, team: str) -> str:
    pid = pos.captor[team]
    assert pid is not None
    moved = " moved" if pos.royal(team, QUEEN).pid in pos.moved else ""
    return f"captive {team} {NAMES[pos.pieces[pid].sq]} {pos.taken_on[team]}{moved}"


def _standing_lines(standing: Standing) -> list[str]:
    lines = ["healed"] if standing.healed else []
    if standing.let:
        lines.append("let")
    lines += [f"forfeited {team} {commander}" for team, commander in standing.forfeited]
    for a_team, attacker, attack, d_team, defender, defence in standing.combats:
        rolls = "+".join(map(str, attack)), "+".join(map(str, defence))
        lines.append(f"combat {a_team} {attacker} {rolls[0]} {d_team} {defender} {rolls[1]}")
    if standing.dice:
        lines.append(f"dice: {' '.join(map(str, standing.dice))}")
    if standing.result is not None:
        winner, ending = standing.result
        lines.append("result draw" if winner is None else f"result {winner} {ending}")
        phase, own = standing.offer
        lines.append(f"offer {phase} {'own' if own else 'none'}")
    return lines


__all__ = ["Diagram", "Standing", "read_diagram", "write_position"]
