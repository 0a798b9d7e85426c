"""Where the pieces stand, how they move, and check.

Pure rules: no dice, no events. The state (state.py) owns one Position and changes
it; bots read it. Movement follows the rulebook's piece sections; rulings are
marked ``R<n>`` and listed in docs/rules/gladiator-chess.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from gladiatorium.games.gladiator_chess.board import (
    CHAMPION_PATHS,
    DIAG_RAYS,
    FILES,
    HEIGHT,
    KING_TARGETS,
    KNIGHT_TARGETS,
    ORTHO_RAYS,
    SQUARES,
    WIDTH,
    chebyshev,
    file_of,
    rank_of,
    square,
)
from gladiatorium.games.gladiator_chess.combat import CombatNumbers
from gladiatorium.games.gladiator_chess.options import GladiatorChessOptions
from gladiatorium.games.gladiator_chess.pieces import (
    BLACK,
    BLACK_KNIGHT,
    CHAMPION,
    FOOTMAN,
    KINDS,
    KING,
    KINGS_KNIGHT,
    KNIGHTS,
    MOUNTED_KNIGHT,
    PAWNS,
    QUEEN,
    QUEEN_TAKERS,
    SCOUT,
    SQUIRE,
    TEAMS,
    WARRIOR,
    WHITE,
    Piece,
    forward,
    other,
)

# How a piece enters its target square.
STEP = "move"  # an empty square
ATTACK = "attack"  # dice combat with the enemy there (General 8-9)
FREEZE = "freeze"  # the Queen lands on an enemy and freezes it (Queen 2-4)
TAKE_QUEEN = "take-queen"  # Black Knight, scout or unprotected King takes a queen (Queen 5)
ELIMINATE = "eliminate"  # a protected King instantly eliminates the occupant (King 5)
ATTACK_FROZEN = "attack-frozen"  # attack the piece our queen holds frozen (Queen 10-11)

NAMES = tuple(f"{FILES[s % WIDTH]}{s // WIDTH + 1}" for s in range(SQUARES))
#: a square's number by its name (as NAMES writes it)
SQUARE_OF = {name: sq for sq, name in enumerate(NAMES)}


def _pawn_sources(sq: int, by: str) -> tuple[int, ...]:
    """The squares from which a pawn of team ``by`` attacks ``sq`` (one diagonal step
    forward for it)."""
    back = rank_of(sq) - forward(by)
    if not 0 <= back < HEIGHT:
        return ()
    return tuple(square(file_of(sq) + df, back) for df in (-1, 1) if 0 <= file_of(sq) + df < WIDTH)


#: PAWN_SOURCES[team][sq]: where a pawn of ``team`` stands to attack ``sq``
PAWN_SOURCES = {t: tuple(_pawn_sources(s, t) for s in range(SQUARES)) for t in TEAMS}


def _pawn_moves(sq: int, team: str) -> tuple[int, int, tuple[int, ...], bool]:
    """A pawn of ``team`` on ``sq``: the square ahead (-1: none), two ahead (-1: none),
    the diagonal squares ahead, and whether ``sq`` is on the team's starting rank."""
    f, r, step = file_of(sq), rank_of(sq), forward(team)
    ahead = r + step
    if not 0 <= ahead < HEIGHT:
        return -1, -1, (), False
    two = square(f, r + 2 * step) if 0 <= r + 2 * step < HEIGHT else -1
    diagonals = tuple(square(f + df, ahead) for df in (-1, 1) if 0 <= f + df < WIDTH)
    return square(f, ahead), two, diagonals, r == (1 if team == WHITE else HEIGHT - 2)


#: PAWN_MOVES[team][sq]: see _pawn_moves
PAWN_MOVES = {t: tuple(_pawn_moves(s, t) for s in range(SQUARES)) for t in TEAMS}
#: NEAR_THE_END[team][sq]: a pawn of ``team`` on ``sq`` may reach the far rank in one move
NEAR_THE_END = {
    t: tuple(
        any(s >= 0 and rank_of(s) == (HEIGHT - 1 if t == WHITE else 0) for s in (m[0], m[1], *m[2]))
        for m in PAWN_MOVES[t]
    )
    for t in TEAMS
}

#: the pieces whose entries into an enemy's square follow rules of their own (see
#: Position.entry): any other piece simply attacks any other enemy
ROYALS = frozenset({KING, QUEEN})

# What a team's Guard says about every move (see Position.guard).
UNGUARDED = 0  # no move can leave the King in check (R8 judges nothing)
CAPTIVE = 1  # the Queen is captive: only a move that frees her is judged
GUARDED = 2  # a protected King on the board: judged by checkers and pins


#: by Guard mode, the entries whose moves are judged even for a piece that checks
#: nothing and blocks nothing: those that may free a captive queen, the taking of a queen
JUDGED = {
    UNGUARDED: frozenset[str](),
    CAPTIVE: frozenset({ATTACK, TAKE_QUEEN, ELIMINATE, ATTACK_FROZEN}),
    GUARDED: frozenset({TAKE_QUEEN}),
}


#: by Guard mode, the kinds of piece none of whose entries are judged (JUDGED) when it
#: checks nothing and blocks nothing, its King not in check: with the King guarded,
#: all but those that may take a queen
UNJUDGED = {
    UNGUARDED: frozenset(KINDS),
    CAPTIVE: frozenset[str](),
    GUARDED: frozenset(KINDS) - QUEEN_TAKERS,
}


class Guard:
    """What the legality of a team's moves depends on, computed once per position in
    the way python-chess does (checkers and pins) instead of playing each move out on
    a copied board: the King's square, the enemy pieces that check him now (each with
    the squares on which a move neutralises it: its own square, and the squares
    between it and the King), and the team's pieces that stand alone between an
    enemy piece and the King (each with the squares it may move to and still block).
    :meth:`Position.safe` decides a move from these; moves that change more than two
    squares or the enemy King's nature are played out as before (:meth:`Position.safe_after`).
    """

    __slots__ = ("checkers", "king", "mode", "pins", "released")

    def __init__(
        self,
        mode: int,
        king: Piece | None = None,
        checkers: list[frozenset[int]] | None = None,
        pins: dict[int, list[frozenset[int]]] | None = None,
        released: frozenset[int] | None = None,
    ) -> None:
        self.mode = mode
        self.king = king
        #: per checker: every square a move must enter to stop it (any one suffices)
        self.checkers = checkers or []
        #: pid -> per line it blocks: the squares it may go to and still block it
        self.pins = pins or {}
        #: when our Queen holds a piece that, released on her square as she leaves
        #: (Queen 2), would reach the King: the squares where she stops it (None: it
        #: would not reach him)
        self.released = released

    @property
    def in_check(self) -> bool:
        return bool(self.checkers)


@dataclass(frozen=True, slots=True)
class Step:
    """One way a piece can move: ``piece`` from ``origin`` to ``target`` entering
    by ``entry``, turning into ``promote`` if that is set."""

    piece: int
    origin: int
    target: int
    entry: str
    promote: str = ""


#: SLIDER_RAYS[sq]: each line outward from sq with the slider that moves along it
SLIDER_RAYS = tuple(
    tuple((ray, WARRIOR) for ray in ORTHO_RAYS[s]) + tuple((ray, SCOUT) for ray in DIAG_RAYS[s])
    for s in range(SQUARES)
)

#: BIT[sq]: the square as one bit of a set of squares written as a number (a "mask")
BIT = tuple(1 << s for s in range(SQUARES))


def mask(squares: Iterable[int]) -> int:
    """The squares as one number, a bit each (see BIT)."""
    out = 0
    for s in squares:
        out |= BIT[s]
    return out


#: what each kind counts as when the squares a team's pieces stand on are kept as masks
#: (Position.sites): the three knights as one, the two pawns as one
SITE_OF = {
    KING: KING,
    QUEEN: QUEEN,
    CHAMPION: CHAMPION,
    MOUNTED_KNIGHT: "N",
    BLACK_KNIGHT: "N",
    KINGS_KNIGHT: "N",
    WARRIOR: WARRIOR,
    SCOUT: SCOUT,
    FOOTMAN: "P",
    SQUIRE: "P",
}
#: by square, as masks: where a knight, a King or (by team) a pawn stands to reach it,
#: the lines of a warrior and of a scout through it, where a Champion may reach it from
KNIGHT_MASKS = tuple(mask(leaps) for leaps in KNIGHT_TARGETS)
KING_MASKS = tuple(mask(leaps) for leaps in KING_TARGETS)
PAWN_MASKS = {t: tuple(mask(sources) for sources in PAWN_SOURCES[t]) for t in TEAMS}
#: SLIDER_LINES[sq]: SLIDER_RAYS[sq] with each line's squares as a mask
SLIDER_LINES = tuple(
    tuple((ray, slider, mask(ray)) for ray, slider in rays) for rays in SLIDER_RAYS
)
#: by square, as masks: every square of its lines along files and ranks (a Warrior's),
#: and of its diagonal lines (a Scout's)
ORTHO_STAR = tuple(mask(s for ray in rays for s in ray) for rays in ORTHO_RAYS)
DIAG_STAR = tuple(mask(s for ray in rays for s in ray) for rays in DIAG_RAYS)
CHAMPION_MASKS = tuple(mask(paths) for paths in CHAMPION_PATHS)


def sliders(sites: dict[str, int], queenlike_king: bool) -> tuple[int, int]:
    """Where a team's pieces that slide stand, from its ``sites``: those sliding along
    files and ranks, and those sliding along diagonals (a King moving as a queen,
    King 11, among both), as masks."""
    king = sites[KING] if queenlike_king else 0
    return sites[WARRIOR] | king, sites[SCOUT] | king


def lines_to_read(
    sq: int, ortho: int, diagonal: int
) -> tuple[tuple[tuple[int, ...], str, int], ...]:
    """The lines through ``sq`` (SLIDER_LINES) to read for a sliding piece, given where
    such pieces stand (:func:`sliders`): none when none stands on any of them."""
    if ORTHO_STAR[sq] & ortho or DIAG_STAR[sq] & diagonal:
        return SLIDER_LINES[sq]
    return ()


#: CHAMPION_WAYS[sq]: each square a Champion on sq reaches, with each of his paths
#: there as the mask of the squares he passes over, and his step onto it while empty
CHAMPION_WAYS = tuple(
    tuple(
        (dest, tuple(mask(path) for path in paths), (CHAMPION, sq, dest, STEP, ""))
        for dest, paths in CHAMPION_PATHS[sq].items()
    )
    for sq in range(SQUARES)
)

#: the squares whose contents decide the targets of a pawn, knight, King or Champion,
#: as masks, its own square among them (a piece that leaves it, is taken or frozen
#: there has other moves or none)
PAWN_READS = {
    t: tuple(
        mask(s for s in (sq, m[0], m[1], *m[2]) if s >= 0) for sq, m in enumerate(PAWN_MOVES[t])
    )
    for t in TEAMS
}
#: PAWN_READS without the square two ahead: for a pawn that may not step there now
PAWN_NEAR_READS = {
    t: tuple(mask(s for s in (sq, m[0], *m[2]) if s >= 0) for sq, m in enumerate(PAWN_MOVES[t]))
    for t in TEAMS
}
KNIGHT_READS = tuple(mask((sq, *leaps)) for sq, leaps in enumerate(KNIGHT_TARGETS))
KING_READS = tuple(mask((sq, *leaps)) for sq, leaps in enumerate(KING_TARGETS))
CHAMPION_READS = tuple(
    mask(frozenset((sq, *paths)).union(*(s for ways in paths.values() for s in ways)))
    for sq, paths in enumerate(CHAMPION_PATHS)
)


#: a legal move as (kind, origin, target, entry, promotion)
StepTuple = tuple[str, int, int, str, str]
#: the entry of a step
ENTRY_OF = itemgetter(3)


def _leaps(kind: str, sq: int, targets: tuple[int, ...]) -> tuple[tuple[int, StepTuple], ...]:
    """Each square ``kind`` on ``sq`` leaps to, with the step onto it while it is empty."""
    return tuple((s, (kind, sq, s, STEP, "")) for s in targets)


def _lines(
    kind: str, sq: int, rays: tuple[tuple[int, ...], ...]
) -> tuple[tuple[tuple[tuple[int, StepTuple, int], ...], int], ...]:
    """Each line ``kind`` on ``sq`` slides along: its squares in turn, each with the
    step onto it while it is empty and the line's squares up to it as a mask; and
    all the line's squares as a mask."""
    lines = []
    for ray in rays:
        upto, line = 0, []
        for s in ray:
            upto |= BIT[s]
            line.append((s, (kind, sq, s, STEP, ""), upto))
        if line:
            lines.append((tuple(line), upto))
    return tuple(lines)


#: by kind and square, the steps of a piece onto empty squares, made once: LEAPS for
#: knights and the King, LINES for the sliding pieces (and the King moving as a
#: queen, King 11), in the order of the board's tables
LEAPS = {
    kind: tuple(_leaps(kind, sq, targets[sq]) for sq in range(SQUARES))
    for kind, targets in (
        (MOUNTED_KNIGHT, KNIGHT_TARGETS),
        (BLACK_KNIGHT, KNIGHT_TARGETS),
        (KINGS_KNIGHT, KNIGHT_TARGETS),
        (KING, KING_TARGETS),
    )
}
LINES = {
    WARRIOR: tuple(_lines(WARRIOR, sq, ORTHO_RAYS[sq]) for sq in range(SQUARES)),
    SCOUT: tuple(_lines(SCOUT, sq, DIAG_RAYS[sq]) for sq in range(SQUARES)),
    QUEEN: tuple(_lines(QUEEN, sq, ORTHO_RAYS[sq] + DIAG_RAYS[sq]) for sq in range(SQUARES)),
    KING: tuple(_lines(KING, sq, ORTHO_RAYS[sq] + DIAG_RAYS[sq]) for sq in range(SQUARES)),
}


class _Known:
    """A piece's targets as generated on ``origin`` as a ``kind``, the squares they
    depend on, and (when every target was legal without judgement) its steps."""

    __slots__ = ("kind", "origin", "reads", "steps", "targets")

    def __init__(self, origin: int, kind: str, targets: list[StepTuple], reads: int) -> None:
        self.origin = origin
        self.kind = kind
        self.targets = targets
        self.reads = reads
        self.steps: list[StepTuple] | None = None


#: by square: whether a pawn of either team standing there may reach the far rank
NEAR_EITHER_END = tuple(NEAR_THE_END[WHITE][sq] or NEAR_THE_END[BLACK][sq] for sq in range(SQUARES))


class MoveCache:
    """One team's generated moves, piece by piece, kept from one of its slots to the
    next (python-chess keeps its move generation cheap the same way: by position).
    Before use it compares the board with the board it last saw and forgets every
    piece whose targets read a square that changed; a change of captive queens or
    King's Knights forgets them all, a change of check the King (only his targets
    read it: King 5), and a change of the losses the pawns that may reach the far
    rank (what they may become, R12). A queen freezing a piece or letting it go is
    seen on her squares: every target that depends on it enters a queen's square,
    which the target reads. It belongs to one match: a copy of the match starts with
    an empty one."""

    __slots__ = ("board", "checked", "entries", "knights", "living", "lost", "rules", "touched")

    def __init__(self) -> None:
        self.board: list[Piece | None] | None = None
        self.rules: tuple[object, ...] | None = None
        self.entries: dict[int, _Known] = {}
        #: squares written since the last refresh (see GladiatorChessState._put)
        self.touched: set[int] = set()
        #: each team's captured pieces, and whether its King's Knight lives, when last seen
        self.lost: tuple[list[str], list[str]] | None = None
        self.knights: tuple[bool, bool] = (False, False)
        #: whether the team was in check at the last look
        self.checked = False
        #: the team's living pieces, in its order (a piece dies only with a change of
        #: the losses, and never comes back): None until looked for
        self.living: list[int] | None = None

    def refresh(self, pos: Position, in_check: bool) -> dict[int, _Known]:
        """The entries still valid for ``pos`` now."""
        entries, written = self.look(pos, in_check)
        if written:
            for pid in [pid for pid, known in entries.items() if known.reads & written]:
                del entries[pid]
        return entries

    def look(self, pos: Position, in_check: bool) -> tuple[dict[int, _Known], int]:
        """The entries for ``pos`` now, and the squares written since the last look as a
        mask: an entry that reads one of them is no longer valid, and the caller forgets
        it (:meth:`refresh` does, or a pass over all the team's pieces)."""
        entries, board, seen, touched = self.entries, pos.board, self.board, self.touched
        lost, seen_lost = pos.lost, self.lost
        losses = seen_lost is None or lost[WHITE] != seen_lost[0] or lost[BLACK] != seen_lost[1]
        if losses:  # a King's Knight is born or dies only with a change of the losses
            self.lost = (lost[WHITE][:], lost[BLACK][:])
            self.living = None
            self.knights = (pos.alive(WHITE, KINGS_KNIGHT), pos.alive(BLACK, KINGS_KNIGHT))
        rules = (pos.captor[WHITE], pos.captor[BLACK], self.knights)
        written = 0  # the squares written, as a mask
        same = False  # the same circumstances as at the last look
        if seen is not None and rules == self.rules:
            same = True
            for s in touched:
                seen[s] = board[s]
                written |= BIT[s]
        if not same or seen != board:
            # a first look, other circumstances, or a square changed unannounced
            entries.clear()
            self.board = board[:]
            written = 0
        elif entries:
            if losses:
                # the losses are what a pawn reaching the far side may become (R12)
                for pid in [
                    pid
                    for pid, known in entries.items()
                    if known.kind in PAWNS and NEAR_EITHER_END[known.origin]
                ]:
                    del entries[pid]
            if in_check != self.checked:
                # the King in check may eliminate his own pieces (King 5)
                for pid in [pid for pid, known in entries.items() if known.kind == KING]:
                    del entries[pid]
        touched.clear()
        self.rules = rules
        self.checked = in_check
        return entries, written


class Position:
    """Pieces, board, frozen pieces, captive queens, losses and who has moved."""

    def __init__(
        self,
        pieces: list[Piece],
        champion_leaps: bool = False,
        *,
        combat: CombatNumbers | None = None,
        queen_freezes_queen: bool = True,
    ) -> None:
        self.pieces = pieces
        self.board: list[Piece | None] = [None] * SQUARES
        for piece in pieces:
            if piece.sq >= 0:
                self.board[piece.sq] = piece
        self.champion_leaps = champion_leaps
        #: the dice that tell whether an attack can answer check (R16); None: any can
        self.combat = combat
        #: a Queen may freeze the other Queen (Queen 3, R15)
        self.queen_freezes_queen = queen_freezes_queen
        #: queen's team -> pid of the enemy piece she holds frozen (Queen 3)
        self.frozen: dict[str, int | None] = dict.fromkeys(TEAMS)
        #: queen's team -> pid of the piece holding her captive (Queen 5)
        self.captor: dict[str, int | None] = dict.fromkeys(TEAMS)
        #: queen's team -> the turn she was taken
        self.taken_on: dict[str, int] = dict.fromkeys(TEAMS, 0)
        #: team -> codes of its captured pieces, available for promotion
        self.lost: dict[str, list[str]] = {t: [] for t in TEAMS}
        #: pids of pieces that have moved this turn (General 6)
        self.moved: set[int] = set()
        #: (team, King or Queen) -> pid: royals are never promoted to nor from
        self.royals: dict[tuple[str, str], int] = {}
        for piece in pieces:
            if piece.kind in (KING, QUEEN):
                self.royals.setdefault((piece.team, piece.kind), piece.pid)
        #: each team's pids, in the order of pieces (no piece changes sides)
        self.team_pids = {t: [p.pid for p in pieces if p.team == t] for t in TEAMS}
        #: pids of the Champions, of both teams (a squire may become one: :meth:`promote`)
        self.champions = [piece.pid for piece in pieces if piece.kind == CHAMPION]
        #: (team, kind) -> how many such pieces live: kept by :meth:`kill` and :meth:`promote`
        self.living: dict[tuple[str, str], int] = {}
        for piece in pieces:
            if piece.alive:
                key = (piece.team, piece.kind)
                self.living[key] = self.living.get(key, 0) + 1
        #: by team and kind of piece, where the team's pieces stand (see sites)
        self._sites: dict[str, dict[str, int]] | None = None
        #: where any piece stands, kept with the sites (see occupied)
        self._occupied = 0

    def __reduce__(self) -> tuple[Callable[..., Position], tuple[object, ...]]:
        """A pickle rebuilds the position through its constructor (a compiled Position
        has no ``__dict__`` to pickle): see :func:`_rebuilt`."""
        records = (
            self.pieces,
            self.board,
            self.frozen,
            self.captor,
            self.taken_on,
            self.lost,
            self.moved,
            self.champions,
            self.living,
            self._sites,
            self._occupied,
        )
        return (_rebuilt, (self._rules(), records))

    def _rules(self) -> tuple[object, ...]:
        """What never changes in a match, shared by its copies (see :func:`_rebuilt`)."""
        rules = (self.champion_leaps, self.combat, self.queen_freezes_queen)
        return (*rules, self.royals, self.team_pids)

    def copy(self) -> Position:
        """An independent copy: new pieces on a new board, new records of frozen
        pieces, captive queens, losses and moves; the rules it plays by are shared."""
        pieces = [Piece(p.pid, p.kind, p.team, p.hp, p.max_hp, p.sq, p.alive) for p in self.pieces]
        # a piece's pid is its place in the list
        board = [None if p is None else pieces[p.pid] for p in self.board]
        lost = {team: list(codes) for team, codes in self.lost.items()}
        sites = self._sites
        if sites is not None:
            sites = {team: dict(of_team) for team, of_team in sites.items()}
        records = (
            pieces,
            board,
            dict(self.frozen),
            dict(self.captor),
            dict(self.taken_on),
            lost,
            set(self.moved),
            list(self.champions),
            dict(self.living),
            sites,
            self._occupied,
        )
        return _rebuilt(self._rules(), records)

    def promote(self, pawn: Piece, kind: str) -> None:
        """``pawn`` becomes a ``kind`` where it stands (every change of kind comes here)."""
        if pawn.alive:
            self.living[pawn.team, pawn.kind] -= 1
            self.living[pawn.team, kind] = self.living.get((pawn.team, kind), 0) + 1
        if self._sites is not None and pawn.sq >= 0 and self.board[pawn.sq] is pawn:
            self.place(pawn.sq, None)
            pawn.kind = kind
            self.place(pawn.sq, pawn)
        pawn.kind = kind
        if kind == CHAMPION:
            self.champions = sorted([*self.champions, pawn.pid])  # in the order of pieces

    # ----- lookups -----------------------------------------------------------------
    def royal(self, team: str, kind: str) -> Piece:
        """The team's King or Queen (there is exactly one of each)."""
        pid = self.royals.get((team, kind))
        if pid is not None:
            return self.pieces[pid]
        for piece in self.pieces:
            if piece.team == team and piece.kind == kind:
                return piece
        raise LookupError(f"{team} has no {kind}")

    def alive(self, team: str, kind: str) -> bool:
        """Whether a piece of ``kind`` of the team lives (on the board, frozen or held)."""
        return self.living.get((team, kind), 0) > 0

    def kill(self, piece: Piece) -> None:
        """``piece`` leaves the game (every capture comes here)."""
        if piece.alive:
            piece.alive = False
            self.living[piece.team, piece.kind] -= 1

    def on_board(self, piece: Piece) -> bool:
        return piece.sq >= 0 and self.board[piece.sq] is piece

    def queen_captive(self, team: str) -> bool:
        return self.captor[team] is not None

    def protected(self, team: str) -> bool:
        """The King keeps his chess nature (can be checked, cannot be attacked,
        eliminates instantly) while his King's Knight lives and his Queen is free
        (King 3, 10, 11); a King's Knight brought back by a squire counts (R19)."""
        return self.captor[team] is None and self.alive(team, KINGS_KNIGHT)

    def frozen_piece_at(self, sq: int) -> Piece | None:
        """The piece frozen under the queen standing on ``sq``, if any."""
        queen = self.board[sq]
        if queen is None or queen.kind != QUEEN:
            return None
        pid = self.frozen[queen.team]
        return None if pid is None else self.pieces[pid]

    def holder_of(self, piece: Piece) -> str | None:
        """The team of the queen that holds ``piece`` frozen, or None."""
        for team in TEAMS:
            if self.frozen[team] == piece.pid:
                return team
        return None

    def last_rank(self, team: str) -> int:
        return HEIGHT - 1 if team == WHITE else 0

    # ----- check -------------------------------------------------------------------
    def attacked(
        self,
        board: list[Piece | None],
        sq: int,
        by: str,
        queenlike_king: bool,
        sites: dict[str, int] | None = None,
    ) -> bool:
        """Whether a piece of team ``by`` could move onto ``sq`` by its movement
        pattern (check, King 3 and 6; the queen never gives check, R9). With
        ``sites`` (the team's, see :meth:`sites`, for a ``board`` that holds no piece
        of ``by`` beyond them) a kind of piece standing nowhere it could reach from
        is not looked for on the board."""
        if sites is None or KNIGHT_MASKS[sq] & sites["N"]:
            for s in KNIGHT_TARGETS[sq]:
                q = board[s]
                if q is not None and q.team == by and q.kind in KNIGHTS:
                    return True
        if sites is None or KING_MASKS[sq] & sites[KING]:
            for s in KING_TARGETS[sq]:
                q = board[s]
                if q is not None and q.team == by and q.kind == KING:
                    return True
        if sites is None or PAWN_MASKS[by][sq] & sites["P"]:
            for s in PAWN_SOURCES[by][sq]:
                q = board[s]
                if q is not None and q.team == by and q.kind in PAWNS:
                    return True
        if sites is None:  # every line read, every Champion looked for
            return self._slides_onto(
                board, sq, by, queenlike_king, SLIDER_LINES[sq], -1, -1
            ) or self._charges_onto(board, sq, by)
        ortho, diagonal = sliders(sites, queenlike_king)
        lines = lines_to_read(sq, ortho, diagonal)
        return bool(
            lines and self._slides_onto(board, sq, by, queenlike_king, lines, ortho, diagonal)
        ) or bool(CHAMPION_MASKS[sq] & sites[CHAMPION] and self._charges_onto(board, sq, by))

    @staticmethod
    def _slides_onto(
        board: list[Piece | None],
        sq: int,
        by: str,
        queenlike_king: bool,
        lines: tuple[tuple[tuple[int, ...], str, int], ...],
        ortho: int,
        diagonal: int,
    ) -> bool:
        """Whether a sliding piece of team ``by`` reaches ``sq`` along one of ``lines``
        (see :func:`lines_to_read`): a line on which no such piece stands (``ortho``,
        ``diagonal``: where they stand, see :func:`sliders`) is not read."""
        for ray, slider, lane in lines:
            if not lane & (ortho if slider == WARRIOR else diagonal):
                continue  # no piece of theirs that slides this way stands on the line
            for s in ray:
                q = board[s]
                if q is None:
                    continue
                if q.team == by and (
                    q.kind == slider or (q.kind == KING and queenlike_king and s != ray[0])
                ):
                    return True
                break
        return False

    def _charges_onto(self, board: list[Piece | None], sq: int, by: str) -> bool:
        """Whether a Champion of team ``by`` reaches ``sq`` (R4)."""
        pieces = self.pieces
        for pid in self.champions:
            q = pieces[pid]
            if q.team == by and q.sq >= 0 and board[q.sq] is q:
                paths = CHAMPION_PATHS[q.sq].get(sq)
                if paths and self._champion_path_clear(board, paths):
                    return True
        return False

    def sites(self, team: str) -> dict[str, int]:
        """Where the team's pieces on the board stand, as a mask for each kind of piece
        (SITE_OF): made at the first call and kept up to date by :meth:`place` and
        :meth:`promote` (so a board edited by hand must be edited before it)."""
        if self._sites is None:
            self._sites = {t: dict.fromkeys(SITE_OF.values(), 0) for t in TEAMS}
            self._occupied = mask(s for s, piece in enumerate(self.board) if piece is not None)
            for piece in self.pieces:
                if piece.sq >= 0 and self.board[piece.sq] is piece:
                    self._sites[piece.team][SITE_OF[piece.kind]] |= BIT[piece.sq]
        return self._sites[team]

    def occupied(self) -> int:
        """The squares on which a piece stands, as a mask: kept with the sites (see
        :meth:`sites`)."""
        if self._sites is None:
            self.sites(WHITE)
        return self._occupied

    def place(self, sq: int, piece: Piece | None) -> None:
        """Put ``piece`` (None: nothing) on ``sq``, in place of what stood there."""
        board, sites = self.board, self._sites
        if sites is not None:
            old = board[sq]
            if old is not None:
                sites[old.team][SITE_OF[old.kind]] &= ~BIT[sq]
            if piece is not None:
                sites[piece.team][SITE_OF[piece.kind]] |= BIT[sq]
                self._occupied |= BIT[sq]
            else:
                self._occupied &= ~BIT[sq]
        board[sq] = piece

    def reachers(
        self, board: list[Piece | None], sq: int, by: str, queenlike_king: bool
    ) -> Iterator[Piece]:
        """The pieces of team ``by`` (queens aside) whose movement pattern reaches
        ``sq`` on ``board``: knights, kings, pawns diagonally, sliders, champions."""
        for s in KNIGHT_TARGETS[sq]:
            q = board[s]
            if q is not None and q.team == by and q.kind in KNIGHTS:
                yield q
        for s in KING_TARGETS[sq]:
            q = board[s]
            if q is not None and q.team == by and q.kind == KING:
                yield q
        back = rank_of(sq) - forward(by)
        if 0 <= back < HEIGHT:
            for df in (-1, 1):
                f = file_of(sq) + df
                if 0 <= f < WIDTH:
                    q = board[square(f, back)]
                    if q is not None and q.team == by and q.kind in PAWNS:
                        yield q
        for rays, slider in ((ORTHO_RAYS, WARRIOR), (DIAG_RAYS, SCOUT)):
            for ray in rays[sq]:
                for s in ray:
                    q = board[s]
                    if q is None:
                        continue
                    if q.team == by and (
                        q.kind == slider
                        or (q.kind == KING and queenlike_king and s not in KING_TARGETS[sq])
                    ):
                        yield q
                    break
        for pid in self.champions:
            q = self.pieces[pid]
            if q.team == by and q.sq >= 0 and board[q.sq] is q:
                paths = CHAMPION_PATHS[q.sq].get(sq)
                if paths and self._champion_path_clear(board, paths):
                    yield q

    def _champion_path_clear(
        self, board: list[Piece | None], paths: tuple[tuple[int, ...], ...]
    ) -> bool:
        """R4: the Champion does not leap; one clear path suffices."""
        if self.champion_leaps:
            return True
        for path in paths:  # plain loops: no generators to set up
            for s in path:
                if board[s] is not None:
                    break
            else:
                return True
        return False

    def in_check(self, team: str) -> bool:
        """A protected King on the board whose square an enemy piece reaches."""
        if not self.protected(team):
            return False
        king = self.royal(team, KING)
        if not self.on_board(king):
            return False
        enemy = other(team)
        return self.attacked(
            self.board, king.sq, enemy, self.queen_captive(enemy), self.sites(enemy)
        )

    def guard(self, team: str) -> Guard:
        """The :class:`Guard` of ``team`` in this position. Its ``in_check`` equals
        :meth:`in_check`; with it :meth:`safe` equals :meth:`safe_after`."""
        if not self.alive(team, KINGS_KNIGHT):
            return Guard(UNGUARDED)  # R8 judges nothing: no King's Knight, no check
        king = self.royal(team, KING)
        if not self.on_board(king):
            return Guard(UNGUARDED)  # a frozen King is never in check (R27)
        if self.captor[team] is not None:
            return Guard(CAPTIVE, king)
        board, sq, enemy = self.board, king.sq, other(team)
        queenlike = self.captor[enemy] is not None
        checkers: list[frozenset[int]] = []
        pins: dict[int, list[frozenset[int]]] = {}
        # the kinds of enemy piece that stand nowhere they could reach him from are
        # not looked for (see sites)
        sites = self.sites(enemy)
        if KNIGHT_MASKS[sq] & sites["N"]:
            for s in KNIGHT_TARGETS[sq]:
                q = board[s]
                if q is not None and q.team == enemy and q.kind in KNIGHTS:
                    checkers.append(frozenset((s,)))
        if KING_MASKS[sq] & sites[KING]:
            for s in KING_TARGETS[sq]:
                q = board[s]
                if q is not None and q.team == enemy and q.kind == KING:
                    checkers.append(frozenset((s,)))
        if PAWN_MASKS[enemy][sq] & sites["P"]:
            for s in PAWN_SOURCES[enemy][sq]:
                q = board[s]
                if q is not None and q.team == enemy and q.kind in PAWNS:
                    checkers.append(frozenset((s,)))
        ortho, diagonal = sliders(sites, queenlike)
        for ray, slider, lane in lines_to_read(sq, ortho, diagonal):
            if not lane & (ortho if slider == WARRIOR else diagonal):
                continue  # nothing of theirs slides along this line
            blocker: Piece | None = None  # the first of our pieces on the ray
            for s in ray:
                q = board[s]
                if q is None:
                    continue
                if q.team == enemy:
                    if q.kind == slider or (queenlike and q.kind == KING and s != ray[0]):
                        line = frozenset(ray[: ray.index(s) + 1])
                        if blocker is None:
                            checkers.append(line)
                        else:
                            pins.setdefault(blocker.pid, []).append(line - {blocker.sq})
                    break
                if blocker is not None:
                    break  # two of ours: nothing behind them matters
                blocker = q
        for pid in self.champions if CHAMPION_MASKS[sq] & sites[CHAMPION] else ():
            q = self.pieces[pid]
            if q.team != enemy or q.sq < 0 or board[q.sq] is not q:
                continue
            paths = CHAMPION_PATHS[q.sq].get(sq)
            if not paths:
                continue
            if self.champion_leaps:
                checkers.append(frozenset((q.sq,)))
                continue
            clear = [path for path in paths if all(board[s] is None for s in path)]
            if clear:
                # a move stops him by taking him or by standing on every clear path
                checkers.append(frozenset({q.sq}.union(set(clear[0]).intersection(*clear[1:]))))
            for path in paths:
                held = [p for p in (board[s] for s in path) if p is not None]
                if len(held) == 1 and held[0].team == team:
                    pins.setdefault(held[0].pid, []).append(frozenset((q.sq, *path)) - {held[0].sq})
        released = None
        frozen = self.frozen[team]
        if frozen is not None:
            queen = self.royal(team, QUEEN)
            if self.on_board(queen):
                released = self._reach(board, self.pieces[frozen], queen.sq, sq, queenlike)
        return Guard(GUARDED, king, checkers, pins, released)

    def _reach(
        self, board: list[Piece | None], piece: Piece, origin: int, sq: int, queenlike: bool
    ) -> frozenset[int] | None:
        """Whether ``piece`` standing on ``origin`` would reach ``sq`` on ``board`` (as
        :meth:`reachers` judges it): None if not, else the squares on which another
        piece would stop it (none for a leap)."""
        kind = piece.kind
        if kind in KNIGHTS:
            return frozenset() if origin in KNIGHT_TARGETS[sq] else None
        if kind in PAWNS:
            return frozenset() if origin in PAWN_SOURCES[piece.team][sq] else None
        if kind == CHAMPION:
            paths = CHAMPION_PATHS[origin].get(sq)
            if not paths:
                return None
            if self.champion_leaps:
                return frozenset()
            clear = [path for path in paths if all(board[s] is None for s in path)]
            if not clear:
                return None
            return frozenset(set(clear[0]).intersection(*clear[1:]))
        if kind == KING and origin in KING_TARGETS[sq]:
            return frozenset()
        for rays, slider in ((ORTHO_RAYS[sq], WARRIOR), (DIAG_RAYS[sq], SCOUT)):
            if kind != slider and not (kind == KING and queenlike):
                continue
            for ray in rays:
                if origin in ray:
                    between = ray[: ray.index(origin)]
                    if all(board[s] is None for s in between):
                        return frozenset(between)
                    return None
        return None

    def safe(self, guard: Guard, piece: Piece, target: int, how: str) -> bool:
        """:meth:`safe_after` decided from ``guard`` (the Guard of the piece's team in
        this position): a move that only empties its origin and fills its target is
        safe when it stops every checker and keeps blocking every line it blocks; the
        King's own moves test the square he goes to with him lifted off his own."""
        mode = guard.mode
        if mode == UNGUARDED:
            return True
        if mode == CAPTIVE:
            # only taking a queen or felling her captor frees her (Queen 7.1): judge
            # those in full, the rest leave the King unprotected (no check)
            if how in (STEP, FREEZE):
                return True
            if how != TAKE_QUEEN:
                if how == ATTACK_FROZEN:
                    pid = self.frozen[piece.team]
                    victim = None if pid is None else self.pieces[pid]
                else:
                    victim = self.board[target]
                if victim is None or victim.pid != self.captor[piece.team]:
                    return True
            return self.safe_after(piece, target, how)
        if piece.kind == KING:
            return self._king_safe(piece, target, how)
        if how == TAKE_QUEEN:
            # taking her makes the enemy King a queen-mover at once (R30)
            return self.safe_after(piece, target, how)
        for stops in guard.checkers:
            if target not in stops:
                return False
        if piece.kind == QUEEN and self.frozen[piece.team] is not None:
            # the piece she holds comes back on her square (Queen 2): it blocks all
            # she blocked, and she must stop it if it reaches the King
            return guard.released is None or target in guard.released
        lines = guard.pins.get(piece.pid)
        if lines is not None:
            for squares in lines:
                if target not in squares:
                    return False
        return True

    def _king_safe(self, king: Piece, target: int, how: str) -> bool:
        """R8 for the protected King's own move: the square he enters must not be
        reached by the enemy once he has left his own."""
        return bool(self._king_escapes(king, [(king.kind, king.sq, target, how, "")]))

    def _king_escapes(self, king: Piece, steps: list[StepTuple]) -> list[StepTuple]:
        """The protected King's own ``steps`` that leave him out of check (R8), judged
        together: he is lifted off his square once for all of them."""
        enemy = other(king.team)
        board, origin = self.board, king.sq
        # the board holds the enemy's pieces as they stand: their sites hold them all.
        # A square's attackers are looked for around it, never on it, so the piece he
        # enters on is never counted against him: he is not put there, only lifted
        # off his own square
        sites, queenlike = self.sites(enemy), self.captor[enemy] is not None
        # a knight, King or pawn of theirs that reaches a square stands where its mask
        # says (see attacked): only a square on a line or path of theirs is read
        knights, kings, pawns = sites["N"], sites[KING], sites["P"]
        pawn_masks, champions = PAWN_MASKS[enemy], sites[CHAMPION]
        ortho, diagonal = sliders(sites, queenlike)
        out: list[StepTuple] = []
        board[origin] = None
        try:
            for step in steps:
                target = step[2]
                if step[3] != STEP and (verdict := self._king_judged(king, step)) is not None:
                    if verdict:
                        out.append(step)
                    continue
                if (
                    KNIGHT_MASKS[target] & knights
                    or KING_MASKS[target] & kings
                    or pawn_masks[target] & pawns
                ):
                    continue
                # no knight, King or pawn of theirs reaches it: only their sliders and
                # Champions are looked for
                lines = lines_to_read(target, ortho, diagonal)
                if lines and self._slides_onto(
                    board, target, enemy, queenlike, lines, ortho, diagonal
                ):
                    continue
                if not (
                    CHAMPION_MASKS[target] & champions and self._charges_onto(board, target, enemy)
                ):
                    out.append(step)
        finally:
            board[origin] = king
        return out

    def _king_judged(self, king: Piece, step: StepTuple) -> bool | None:
        """Whether the protected King's ``step`` (lifted off his square, see
        :meth:`_king_escapes`) is safe when the square he enters does not decide it:
        eliminating the last King's Knight leaves him unprotected, never in check; taking
        a queen is played out, with him on his square. None: the square decides."""
        target, how = step[2], step[3]
        if how == ELIMINATE:
            return True if self._last_kings_knight(self.board[target], king.team) else None
        if how != TAKE_QUEEN:
            return None
        self.board[king.sq] = king
        try:
            return self.safe_after(king, target, how)
        finally:
            self.board[king.sq] = None

    def _last_kings_knight(self, piece: Piece | None, team: str) -> bool:
        """``piece`` is the last living King's Knight of ``team``."""
        return (
            piece is not None
            and piece.kind == KINGS_KNIGHT
            and piece.team == team
            and self.living.get((team, KINGS_KNIGHT), 0) == 1
        )

    # ----- movement ----------------------------------------------------------------
    def entry(self, piece: Piece, occupant: Piece | None, in_check: bool) -> str | None:
        """How ``piece`` may enter a square held by ``occupant`` (None: it may not)."""
        if occupant is None:
            return STEP
        team, kind, enemy = piece.team, piece.kind, other(piece.team)
        if occupant.team == team:
            if occupant.kind == QUEEN:
                # attack the enemy piece our queen holds frozen (Queen 10-11); a
                # protected King may not enter a queen's square (R10)
                if self.frozen[team] is None or kind == QUEEN:
                    return None
                if kind == KING and self.protected(team):
                    return None
                held = self.pieces[self.frozen[team]]  # type: ignore[index]
                if held.kind == QUEEN:
                    return None  # Queen 2: a queen is never attacked, frozen or not (R15)
                if held.kind == KING and self.protected(held.team):
                    return None  # R22: a frozen King protected again cannot be attacked
                return ATTACK_FROZEN
            if kind == KING and self.protected(team) and in_check:
                return ELIMINATE  # his own piece, only to escape check (King 5)
            return None
        if occupant.kind == QUEEN:
            if kind in QUEEN_TAKERS or (kind == KING and not self.protected(team)):
                return TAKE_QUEEN
            if kind == QUEEN and self.queen_freezes_queen and self.frozen[enemy] is None:
                return FREEZE  # Queen 3: all but the King; not a queen holding a piece (R15)
            return None
        if kind == QUEEN:
            if occupant.kind == KING and self.protected(enemy):
                return None  # Queen 3-4: a protected King cannot be frozen
            return FREEZE
        if occupant.kind == KING and self.protected(enemy):
            return None  # cannot be attacked while his King's Knight lives (King 3)
        if kind == KING and self.protected(team):
            return ELIMINATE  # even an exposed enemy King (R18)
        return ATTACK

    def targets(self, piece: Piece, in_check: bool) -> list[tuple[int, str]]:
        """Pseudo-legal (target, entry) pairs of ``piece`` by its movement."""
        return [(step[2], step[3]) for step in self._targets(piece, in_check)[0]]

    def _targets(self, piece: Piece, in_check: bool) -> tuple[list[StepTuple], int]:
        """:meth:`targets` as steps (kind, origin, target, entry, no promotion), and
        the squares whose contents they depend on, as a mask (a sliding piece reads
        its targets and the occupied square that ends each of its lines)."""
        kind, sq, board, entry, team = piece.kind, piece.sq, self.board, self.entry, piece.team
        out: list[StepTuple] = []
        if kind in PAWNS:
            # Footmen step one or two forward all game (Footman 1); squires step two
            # only from their starting rank (Squire 1). Both attack one square
            # diagonally forward and never move diagonally onto an empty square. No
            # en passant (R5).
            one, two, diagonals, on_start = PAWN_MOVES[piece.team][sq]
            if one < 0:
                return out, PAWN_READS[team][sq]
            # the square two ahead matters only to a pawn that may step there now
            reads = PAWN_NEAR_READS[team][sq]
            if board[one] is None:
                out.append((kind, sq, one, STEP, ""))
                if two >= 0 and (kind == FOOTMAN or on_start):
                    reads = PAWN_READS[team][sq]
                    if board[two] is None:
                        out.append((kind, sq, two, STEP, ""))
            for s in diagonals:
                occupant = board[s]
                if occupant is None:
                    continue
                if occupant.team != team and occupant.kind not in ROYALS:
                    out.append((kind, sq, s, ATTACK, ""))
                elif occupant.team != team or occupant.kind == QUEEN:
                    how = entry(piece, occupant, in_check)
                    if how is not None:
                        out.append((kind, sq, s, how, ""))
            return out, reads
        if kind == CHAMPION:
            leaps, occupied = self.champion_leaps, self.occupied()
            for dest, ways, step in CHAMPION_WAYS[sq]:
                if not leaps:  # R4: he does not leap; one clear path suffices
                    for way in ways:
                        if not way & occupied:
                            break
                    else:
                        continue
                occupant = board[dest]
                if occupant is None:
                    out.append(step)
                elif occupant.team != team and occupant.kind not in ROYALS:
                    out.append((kind, sq, dest, ATTACK, ""))
                elif occupant.team != team or occupant.kind == QUEEN:
                    how = entry(piece, occupant, in_check)
                    if how is not None:
                        out.append((kind, sq, dest, how, ""))
            return out, CHAMPION_READS[sq]
        # one of our own pieces other than the Queen only blocks, unless the King in
        # check may eliminate it (King 5; see entry)
        own_blocks = kind != KING or not in_check
        # neither side a King or a Queen: an enemy is simply attacked (see entry)
        fights = kind not in ROYALS
        if kind in KNIGHTS or (kind == KING and not self.queen_captive(piece.team)):
            for s, step in LEAPS[kind][sq]:
                occupant = board[s]
                if occupant is None:
                    out.append(step)
                elif fights and occupant.team != team and occupant.kind not in ROYALS:
                    out.append((kind, sq, s, ATTACK, ""))
                elif occupant.team != team or occupant.kind == QUEEN or not own_blocks:
                    how = entry(piece, occupant, in_check)
                    if how is not None:
                        out.append((kind, sq, s, how, ""))
            return out, (KNIGHT_READS if kind in KNIGHTS else KING_READS)[sq]
        # a Warrior, a Scout, a Queen or a King as a queen: each line read up to the
        # first piece on it, which ends it
        reads = BIT[sq]
        for line, whole in LINES[kind][sq]:
            for s, step, upto in line:
                occupant = board[s]
                if occupant is None:
                    out.append(step)
                    continue
                reads |= upto
                if fights and occupant.team != team and occupant.kind not in ROYALS:
                    out.append((kind, sq, s, ATTACK, ""))
                elif occupant.team != team or occupant.kind == QUEEN or not own_blocks:
                    how = entry(piece, occupant, in_check)
                    if how is not None:
                        out.append((kind, sq, s, how, ""))
                break
            else:
                reads |= whole
        return out, reads

    def promotions(self, piece: Piece, target: int) -> tuple[str, ...]:
        """What a pawn reaching the far rank may become: a captured Warrior or Scout
        for a footman (Footman 3, the King chooses); any captured piece for a squire
        (Squire 3). Nothing captured: it stays a pawn (R12)."""
        if piece.kind not in PAWNS or rank_of(target) != self.last_rank(piece.team):
            return ()
        lost = set(self.lost[piece.team])
        if piece.kind == FOOTMAN:
            lost &= {WARRIOR, SCOUT}
        lost -= {KING, QUEEN}
        return tuple(sorted(lost))

    def steps(self, piece: Piece, in_check: bool) -> list[Step]:
        """Every legal way ``piece`` can move now (it must be on the board, unmoved)."""
        return [
            Step(piece.pid, piece.sq, target, how, promote)
            for _, _, target, how, promote in self.legal_moves(
                [piece], in_check, self.guard(piece.team)
            )
        ]

    def legal_moves(
        self,
        pieces: Iterable[Piece],
        in_check: bool,
        guard: Guard,
        cache: MoveCache | None = None,
    ) -> list[StepTuple]:
        """Every legal (kind, origin, target, entry, promotion) of ``pieces`` (of one
        team, on the board, unmoved), piece by piece in the order given, each piece's
        targets in the order of :meth:`targets`; ``guard`` is the team's Guard now.
        With ``cache`` (the team's, see :class:`MoveCache`) a piece whose squares and
        circumstances have not changed since it was last generated is not generated
        again."""
        out: list[StepTuple] = []
        entries = None if cache is None else cache.refresh(self, in_check)
        for piece in pieces:
            self._piece_moves(piece, in_check, guard, entries, out)
        return out

    def team_moves(
        self,
        team: str,
        kinds: frozenset[str] | None,
        own: frozenset[str],
        in_check: bool,
        guard: Guard,
        cache: MoveCache,
    ) -> tuple[list[StepTuple], bool]:
        """:meth:`legal_moves` of the team's unmoved pieces on the board (of ``kinds`` if
        given), and whether a piece of ``own`` (the commander's kinds) makes one. A
        piece kept in ``cache`` whose moves need no judgement now adds them as they
        are."""
        entries, written = cache.look(self, in_check)
        out: list[StepTuple] = []
        extend, get = out.extend, entries.get
        has_own = False
        # the pieces whose every move is judged (see _piece_moves): the King, a piece
        # that blocks a line to him, a Queen holding a piece frozen; all in check
        special: set[int] = set()
        unjudged = UNJUDGED[guard.mode]  # the kinds whose targets are their moves
        if guard.checkers:
            special, unjudged = set(self.team_pids[team]), frozenset()
        elif guard.mode == GUARDED:
            assert guard.king is not None
            special = {guard.king.pid, *guard.pins}
            if self.frozen[team] is not None:
                special.add(self.royal(team, QUEEN).pid)
        near_the_end = NEAR_THE_END[team]
        pieces, board, moved = self.pieces, self.board, self.moved
        # the pieces whose kept moves are not taken as they are: moved, or judged
        heeded = special | moved if special else moved
        living = cache.living
        if living is None:  # the losses changed: a piece may have died
            living = cache.living = [pid for pid in self.team_pids[team] if pieces[pid].alive]
            for pid in [pid for pid in entries if not pieces[pid].alive]:
                del entries[pid]
        for pid in living:
            known = get(pid)
            if known is not None:
                if known.reads & written:
                    del entries[pid]  # it read a square written since (see MoveCache.look)
                    known = None
                elif (steps := known.steps) is not None and pid not in heeded:
                    # a kept entry read its piece's own square: the piece stands there,
                    # of that kind, and these are its moves
                    if steps and (kinds is None or known.kind in kinds):
                        extend(steps)
                        if not has_own and known.kind in own:
                            has_own = True
                    continue
            if pid in moved:
                continue
            piece = pieces[pid]
            sq = piece.sq
            if sq < 0 or board[sq] is not piece:
                continue
            kind = piece.kind
            if kinds is not None and kind not in kinds:
                continue
            if (
                known is None
                and kind in unjudged
                and pid not in special
                and not (kind in PAWNS and near_the_end[sq])
            ):
                # a piece seen afresh whose moves need no judgement (see _piece_moves)
                steps, reads = self._targets(piece, in_check)
                known = entries[pid] = _Known(sq, kind, steps, reads)
                known.steps = steps
                if steps:
                    extend(steps)
                    if not has_own and kind in own:
                        has_own = True
            else:
                start = len(out)
                self._piece_moves(piece, in_check, guard, entries, out)
                if not has_own and len(out) > start and kind in own:
                    has_own = True
        return out, has_own

    def _piece_moves(
        self,
        piece: Piece,
        in_check: bool,
        guard: Guard,
        entries: dict[int, _Known] | None,
        out: list[StepTuple],
    ) -> None:
        """Add the legal moves of ``piece`` to ``out`` (see :meth:`legal_moves`)."""
        mode = guard.mode
        origin, kind = piece.sq, piece.kind
        # a piece that checks nothing, blocks nothing and changes only its two squares
        # cannot uncover its King: only the taking of a queen is judged (see JUDGED)
        plain = mode != GUARDED or (
            not guard.checkers
            and kind != KING
            and piece.pid not in guard.pins
            and not (kind == QUEEN and self.frozen[piece.team] is not None)
        )
        known = None if entries is None else entries.get(piece.pid)
        if known is not None and known.origin == origin and known.kind == kind:
            if plain and known.steps is not None:
                out.extend(known.steps)
                return
            targets = known.targets
        else:
            targets, reads = self._targets(piece, in_check)
            if entries is not None:
                known = entries[piece.pid] = _Known(origin, kind, targets, reads)
        if not targets:
            if known is not None:
                known.steps = targets  # nothing to judge, whatever guards the King
            return
        judge = JUDGED[mode]  # the entries that a plain piece's move is judged by
        # only a pawn that may reach the far rank has promotions to offer
        pawn = kind in PAWNS and NEAR_THE_END[piece.team][origin]
        # with the King guarded only the taking of a queen is judged (JUDGED)
        if (
            plain
            and not in_check
            and not pawn
            and (kind in UNJUDGED[mode] or judge.isdisjoint(map(ENTRY_OF, targets)))
        ):
            out.extend(targets)  # nothing to judge: every target is a legal step
            if known is not None:
                known.steps = targets
            return
        # the protected King's own moves are judged all at once (R8)
        cleared = kind == KING and mode == GUARDED
        if cleared:
            targets = self._king_escapes(piece, targets)
            if not in_check:  # no attack of his to judge (R16): these are his moves
                out.extend(targets)
                return
        start = len(out)
        judged = False
        for step in targets:
            target, how = step[2], step[3]
            if plain:
                if how in judge:
                    judged = True
                    if not self.safe(guard, piece, target, how):
                        continue
            elif not cleared and not self.safe(guard, piece, target, how):
                continue
            if in_check and not self.attack_can_work(piece, target, how):
                continue
            choices = self.promotions(piece, target) if pawn else ()
            if choices:
                out.extend((kind, origin, target, how, c) for c in choices)
            else:
                out.append(step)
        if plain and not judged and known is not None:
            known.steps = out[start:]  # every target, as steps: reused while valid

    # ----- legality: the King may not stay in or move into check ----------------------
    def defender(self, piece: Piece, target: int, how: str) -> Piece | None:
        """The piece that ``piece`` fights by entering ``target`` by ``how``, if any."""
        if how == ATTACK:
            return self.board[target]
        if how == ATTACK_FROZEN:
            pid = self.frozen[piece.team]
            return None if pid is None else self.pieces[pid]
        return None

    def attack_can_work(self, piece: Piece, target: int, how: str) -> bool:
        """R16: an attack answers check only if some roll lets it fell the defender
        and take the square (any attack does under ``check_answer=as-if-won``)."""
        defender = self.defender(piece, target, how)
        if defender is None or self.combat is None:
            return True
        frozen = how == ATTACK_FROZEN
        return self.combat.can_fell(piece.kind, defender.kind, defender.hp, frozen)

    def safe_after(self, piece: Piece, target: int, how: str) -> bool:
        """R8: a move is legal only if, should it succeed (the attacker winning any
        fight), its own protected King is not in check afterwards; judged before a
        freed queen is placed or a frozen piece sent home (R27)."""
        team, enemy = piece.team, other(piece.team)
        occupant = self.board[target]
        victim = occupant
        if how == ATTACK_FROZEN:
            pid = self.frozen[team]
            victim = None if pid is None else self.pieces[pid]
        frees_queen = how == TAKE_QUEEN or (
            victim is not None
            and how in (ATTACK, ELIMINATE, ATTACK_FROZEN)
            and self.captor[team] == victim.pid
        )
        queen_free = self.captor[team] is None or frees_queen
        kk_alive = self.alive(team, KINGS_KNIGHT) and not (
            how == ELIMINATE and self._last_kings_knight(occupant, team)
        )
        if not (queen_free and kk_alive):
            return True
        board = self.board[:]
        board[piece.sq] = None
        if piece.kind == QUEEN:
            held = self.frozen[team]
            if held is not None:
                board[piece.sq] = self.pieces[held]  # released where she stood
        board[target] = piece
        king = self.royal(team, KING)
        king_sq = target if piece.kind == KING else king.sq
        if king_sq < 0 or board[king_sq] is not (king if piece.kind != KING else piece):
            return True
        # taking her makes her King a queen-mover at once, who may reach ours (R30)
        enemy_queen_captive = self.captor[enemy] is not None or (
            how == TAKE_QUEEN and self.captor[team] is None
        )
        return not self.attacked(board, king_sq, enemy, enemy_queen_captive)

    # ----- placing pieces that return to the board ----------------------------------
    def nearest_empty(self, centre: int, team: str, min_distance: int = 1) -> int:
        """The empty square nearest ``centre`` (Chebyshev distance at least
        ``min_distance``), ties to the team's own side, then file a (R11)."""
        home = 0 if team == WHITE else HEIGHT - 1
        best: tuple[int, int, int, int] | None = None
        for s in range(SQUARES):
            if self.board[s] is not None:
                continue
            d = chebyshev(s, centre)
            if d < min_distance:
                continue
            key = (d, abs(rank_of(s) - home), abs(file_of(s) - file_of(centre)), file_of(s))
            if best is None or key < best:
                best = key
                found = s
        if best is None:
            raise LookupError("no empty square on the board")
        return found

    def back_row_square(self, piece: Piece, near: int) -> int:
        """Queen 9 (R25): a frozen piece whose queen is taken goes to the back row of its
        starting side, the empty square nearest its file (then the next rank in)."""
        home = 0 if piece.team == WHITE else HEIGHT - 1
        step = 1 if piece.team == WHITE else -1
        rank = home
        while 0 <= rank < HEIGHT:
            empties = [square(f, rank) for f in range(WIDTH) if self.board[square(f, rank)] is None]
            if empties:
                return min(empties, key=lambda s: (abs(file_of(s) - file_of(near)), s))
            rank += step
        raise LookupError("no empty square on the board")

    def king_anchor(self, team: str) -> int:
        """Where a returning queen is placed around: her King's square (if he is
        frozen, the square he was frozen on)."""
        king = self.royal(team, KING)
        return king.sq if king.sq >= 0 else square(WIDTH // 2, 0 if team == WHITE else HEIGHT - 1)


def new_position(pieces: list[Piece], options: GladiatorChessOptions) -> Position:
    """A position of ``pieces`` under the rules the options choose."""
    combat = CombatNumbers(
        dict(options.dice),
        options.attack_bonus_dice,
        options.frozen_bonus_dice,
        options.fight_to_the_fall,
    )
    return Position(
        pieces,
        options.champion_leaps,
        combat=None if options.check_answer == "as-if-won" else combat,
        queen_freezes_queen=options.queen_freezes_queen,
    )


__all__ = [
    "ATTACK",
    "ATTACK_FROZEN",
    "ELIMINATE",
    "FREEZE",
    "NAMES",
    "STEP",
    "TAKE_QUEEN",
    "Position",
    "Step",
    "new_position",
]


def _rebuilt(rules: tuple[Any, ...], records: tuple[Any, ...]) -> Position:
    """A position made empty through its constructor, then given ``rules`` (what never
    changes in a match: see :meth:`Position._rules`) and ``records`` (what play changes)
    as they are: a pickle's or a copy's (a compiled Position has no ``__dict__``)."""
    champion_leaps, combat, queen_freezes_queen, royals, team_pids = rules
    position = Position([], champion_leaps, combat=combat, queen_freezes_queen=queen_freezes_queen)
    position.royals, position.team_pids = royals, team_pids
    (
        position.pieces,
        position.board,
        position.frozen,
        position.captor,
        position.taken_on,
        position.lost,
        position.moved,
        position.champions,
        position.living,
        position._sites,
        position._occupied,
    ) = records
    return position
