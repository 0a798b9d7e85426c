"""A match of Gladiator Chess: the commanders' turn order, overrides, moves, combat,
freezing, captive queens, promotion and victory.

Rulebook sections are cited as General n, King n, Queen n, ...; rulings as R<n>
(docs/rules/gladiator-chess.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from gladiatorium.core import (
    Action,
    Copying,
    Ending,
    GameOver,
    IllegalAction,
    LegalList,
    NotYourTurn,
    Outcome,
    Reason,
    Seat,
    State,
    Termination,
)
from gladiatorium.core.kept import WRITING, Table
from gladiatorium.games.gladiator_chess.actions import Let, Move
from gladiatorium.games.gladiator_chess.board import HEIGHT, KING_TARGETS, square
from gladiatorium.games.gladiator_chess.combat import (
    Exchange,
    Fight,
    combat_text,
    exchange,
    fight_of,
)
from gladiatorium.games.gladiator_chess.diagram import (
    COMMAND_PHASE,
    OVERRIDE_PHASE,
    Diagram,
    Standing,
    write_position,
)
from gladiatorium.games.gladiator_chess.explain import SHAPES, read, why_not
from gladiatorium.games.gladiator_chess.options import GladiatorChessOptions
from gladiatorium.games.gladiator_chess.pieces import (
    COMMANDERS,
    COMMANDS,
    HEAL_ON_VICTORY,
    KIND_NAMES,
    KING,
    KING_CMD,
    QUEEN,
    QUEEN_CMD,
    SEAT_ROLES,
    SEATS,
    TEAMS,
    WHITE,
    Piece,
    other,
    seat_of,
)
from gladiatorium.games.gladiator_chess.position import (
    ATTACK,
    ATTACK_FROZEN,
    ELIMINATE,
    FREEZE,
    NAMES,
    SQUARE_OF,
    STEP,
    TAKE_QUEEN,
    Guard,
    MoveCache,
    Position,
    new_position,
)

OVERRIDE, COMMAND = OVERRIDE_PHASE, COMMAND_PHASE


def turn_order(order: str) -> tuple[tuple[str, str], ...]:
    """R2: by default the teams alternate slot by slot (white King, black King,
    white Queen, ...); ``team-blocks`` gives each team its four moves in a row."""
    if order == "team-blocks":
        return tuple((t, c) for t in TEAMS for c in COMMANDERS)
    return tuple((t, c) for c in COMMANDERS for t in TEAMS)


def starting_pieces(options: GladiatorChessOptions) -> list[Piece]:
    """R1: the set-up ranks for White on ranks 1-2, mirrored for Black on 10-9."""
    pieces: list[Piece] = []
    for team in TEAMS:
        back, front = (0, 1) if team == WHITE else (HEIGHT - 1, HEIGHT - 2)
        for rank, codes in ((back, options.back_rank), (front, options.second_rank)):
            for file, code in enumerate(codes):
                if code in {"", "-"}:
                    continue
                hp = options.hit_points.get(code, 0)
                pieces.append(Piece(len(pieces), code, team, hp, hp, square(file, rank)))
    return pieces


#: (commander, override) -> (piece, origin, target, entry, promotion) -> the Move
_SHARED: Table[tuple[str, str], dict[tuple[str, int, int, str, str], Move]] = Table(
    "gladiator_chess.state.shared", "gladiator-chess", 64, "the moves made, by commander"
)
#: moves kept per (commander, override) before that table starts afresh
_SHARED_LIMIT = 50_000


def moves_of(commander: str, override: str) -> dict[tuple[str, int, int, str, str], Move]:
    """The moves kept for ``commander`` (overriding ``override``), by what they are."""
    table = _SHARED.get((commander, override))
    if table is None:
        table = _SHARED.keep((commander, override), {})
    return table


#: the King's 'let' for each commander: values, shared like the moves
LETS = {commander: Let(commander) for commander in COMMANDERS}


def shared_move(
    table: dict[tuple[str, int, int, str, str], Move],
    key: tuple[str, int, int, str, str],
    commander: str,
    override: str,
) -> Move:
    """Build the move ``key`` describes and keep it in ``table`` for reuse (the table is
    emptied when it grows past its limit, so memory stays bounded)."""
    kind, origin, target, how, promote = key
    # positional: commander, piece, origin, target, takes, promote, override
    move = Move(commander, kind, NAMES[origin], NAMES[target], how != STEP, promote, override)
    with WRITING:  # the server's threads share the moves
        if len(table) >= _SHARED_LIMIT:
            table.clear()
        return table.setdefault(key, move)


class _MovesOffered:
    """The moves of a slot's steps, made one by one as a :class:`LegalList` reads
    them: ``lets`` first (the King's 'let'), then each step as ``commander``
    (overriding ``override``) makes it, the same shared object as :func:`shared_move`
    keeps."""

    __slots__ = ("commander", "lets", "override", "steps", "table")

    def __init__(
        self,
        steps: list[tuple[str, int, int, str, str]],
        commander: str,
        override: str,
        lets: tuple[Action, ...] = (),
    ) -> None:
        self.steps = steps  # replaced for the next slot, never edited
        self.commander = commander
        self.override = override
        self.lets = lets
        self.table = moves_of(commander, override)

    def legal_list(self) -> LegalList:
        return LegalList(len(self.lets) + len(self.steps), self.move)

    def move(self, index: int) -> Action:
        if index < len(self.lets):
            return self.lets[index]
        step = self.steps[index - len(self.lets)]
        move = self.table.get(step)
        if move is None:
            move = shared_move(self.table, step, self.commander, self.override)
        return move


#: the ways a match ends (a win's words are its code, also in the victory event)
CHECKMATE = Ending(Termination.CHECKMATE, "checkmate")
KING_KILLED = Ending(Termination.KING_KILLED, "king-killed")
QUEEN_HELD = Ending(Termination.QUEEN_HELD, "queen-held")
TURN_LIMIT = Ending(Termination.TURN_LIMIT, "turn limit of {limit} reached")


class GladiatorChessState(State[GladiatorChessOptions]):
    #: a copy shares frozen values and the lists of them that are replaced, never edited
    #: (the turn order, the commander's kinds, the outcome), copies the position and the
    #: lists edited in place (the moves on offer: their lists are replaced, never edited),
    #: and starts afresh each team's moves kept from slot to slot and its Guard
    COPYING = Copying(
        shared=(
            *("order", "turn", "slot", "phase", "result", "forfeited"),
            *("_in_check", "_own_kinds", "_has_own"),
        ),
        copied={
            "pos": Position.copy,
            "_legal": dict,
            **dict.fromkeys(("last_combat", "_slot_steps", "_returning"), list),
        },
        caches={"_known": lambda: {team: MoveCache() for team in TEAMS}, "_guards": dict},
    )

    def __init__(
        self,
        options: GladiatorChessOptions,
        players: int,
        seed: int,
        start: Diagram | None = None,
    ) -> None:
        """The set-up (R1), or the written position ``start``: its turn, slot and the
        decision the slot is at (docs/rules/gladiator-chess.md, "Positions")."""
        super().__init__(options, players, seed)
        if start is None:
            self.pos = new_position(starting_pieces(options), options)
        else:
            self.pos = start.position(options)
        self.order = turn_order(options.order)
        self.turn = 1 if start is None else start.turn
        self.slot = 0 if start is None else self.order.index(start.slot)
        self.phase = COMMAND
        self.result: Outcome | None = None
        #: (team, commander) of each commander overridden this turn: he forfeits his
        #: move (King 9)
        self.forfeited: tuple[tuple[str, str], ...] = ()
        #: the fights of the last move, as (attacker's team and kind, his dice, the
        #: defender's team and kind, his dice): see combat_text
        self.last_combat: list[Fight] = []
        #: the awaited seat's moves, each made when first read (see _MovesOffered)
        self._legal: dict[Seat, Sequence[Action]] = {}
        #: whether the team to move was in check when its slot was offered
        self._in_check = False
        #: each team's Guard in the position being settled (emptied once it is offered)
        self._guards: dict[str, Guard] = {}
        #: each team's moves kept from slot to slot (a copy of the match starts afresh)
        self._known: dict[str, MoveCache] = {team: MoveCache() for team in TEAMS}
        #: the steps generated for this slot, as (kind, origin, target, entry, promotion),
        #: and the commander's kinds: his own moves (see _own) are picked out among them
        #: only when asked for
        self._slot_steps: list[tuple[str, int, int, str, str]] = []
        self._own_kinds: frozenset[str] = frozenset()
        #: whether the commander had moves of his own when the slot was offered
        self._has_own = False
        self._returning: list[str] = []
        if start is None:
            self._enter_slot()
        else:
            self._resume(start)

    def _resume(self, start: Diagram) -> None:
        """Stand at the decision the written position ``start`` names: the slot entered
        (its Queen's healing left out when ``healed``), the King's 'let' already given,
        the commanders who forfeited their move (before this slot, unless the match is
        over: a turn's end keeps them), the last fight's dice; or the match over, as its
        last slot was offered."""
        now = self.order.index(start.slot)
        for line, team, commander in start.forfeited:
            if self.order.index((team, commander)) >= now and start.result is None:
                raise start.fail(
                    line, "forfeited", f"the {team} {commander}'s slot is not before this one"
                )
        self.forfeited = tuple((team, commander) for _, team, commander in start.forfeited)
        self.last_combat = list(start.combats)
        if start.result is not None:
            self._stop(start)
            return
        self._enter_slot(healed=start.healed)
        if start.let and not self._let_given():
            raise start.fail(
                start.let,
                "let",
                f"the {self.team_to_move} King has no 'let' to give the "
                f"{self.commander_to_move} here",
            )

    def _stop(self, start: Diagram) -> None:
        """The match of ``start`` is over: its result, and the slot as last offered."""
        assert start.result is not None
        winner, code = start.result
        if winner is None:
            self.result = Outcome.drawn(TURN_LIMIT(limit=self.options.turn_limit))
        else:
            why = {e.words: e for e in (CHECKMATE, KING_KILLED, QUEEN_HELD)}[code]()
            self.result = Outcome.win([seat_of(winner, c) for c in COMMANDERS], why, team=winner)
        self.phase, self._has_own = start.offer

    def _let_given(self) -> bool:
        """Give the King's 'let' of a written position; False when he has none to give."""
        team, commander = self.order[self.slot]
        if LETS[commander] not in self._legal.get(seat_of(team, KING_CMD), ()):
            return False
        self._let(team, commander)
        return True

    def _let(self, team: str, commander: str) -> None:
        """The King lets the commander move: his own moves are offered."""
        self.phase = COMMAND
        own = _MovesOffered(self._own, commander, "").legal_list()
        self._legal = {seat_of(team, commander): own}

    def __setstate__(self, values: dict[str, Any]) -> None:
        """A match pickled before positions said where the turn stands (a server's
        snapshot) reads on: no forfeited commanders known, whether the commander had
        moves of his own found again, the last fights read from their words."""
        super().__setstate__(values)
        if "forfeited" not in values:
            self.forfeited = ()
        if "_has_own" not in values:
            self._has_own = bool(self._own)
        if any(isinstance(fight, str) for fight in self.last_combat):
            told = [fight_of(f) if isinstance(f, str) else f for f in self.last_combat]
            self.last_combat = [fight for fight in told if fight is not None]

    # ----- contract ------------------------------------------------------------------
    @property
    def seats(self) -> tuple[Seat, ...]:
        return SEATS

    def _awaiting(self) -> tuple[Seat, ...]:
        if self.result is not None:
            return ()
        return tuple(self._legal)

    def legal_actions(self, seat: Seat) -> list[Action]:
        if self.result is not None:
            return []
        return list(self._legal.get(seat, ()))

    def _legal_list(self, seat: Seat) -> Sequence[Action]:
        """The seat's moves as offered: the random bot's draw makes the one it picks."""
        if self.result is not None:
            return ()
        return self._legal.get(seat, ())

    def outcome(self) -> Outcome | None:
        return self.result

    @property
    def commander_moves(self) -> list[Move]:
        """The waiting commander's own moves (what 'let' would allow)."""
        moves = self._as_moves(self._own, self.commander_to_move, "")
        return [m for m in moves if isinstance(m, Move)]

    @property
    def _own(self) -> list[tuple[str, int, int, str, str]]:
        """The commander's own moves this slot (what 'let' allows): the steps of his
        kinds among those generated for the slot."""
        kinds = self._own_kinds
        return [step for step in self._slot_steps if step[0] in kinds]

    @property
    def team_to_move(self) -> str:
        return self.order[self.slot][0]

    @property
    def commander_to_move(self) -> str:
        return self.order[self.slot][1]

    # ----- the turn: slots, overrides, skips -----------------------------------------
    def _enter_slot(self, healed: bool = False) -> None:
        """Open the current slot: heal (Queen 13; ``healed``: she already has in this
        slot), then offer the slot's decision; a slot in which no piece of the team can
        move is checkmate if the King is in check (King 6.3), else it passes (R3)."""
        while self.result is None:
            team, commander = self.order[self.slot]
            if commander == QUEEN_CMD and not healed:
                self._queen_heals(team)
            healed = False
            if self._offer(team, commander):
                break
            if self._in_check:
                self._finish(other(team), f"{team} King checkmated", CHECKMATE())
                break
            self.emit(
                "no-move",
                f"{seat_of(team, commander)} has no move; the slot passes",
                team=team,
                commander=commander,
            )
            self._next_slot()
        self._guards = {}

    def _guard(self, team: str) -> Guard:
        """The team's Guard in the position being settled (healing and the turn's end
        change no square, so it holds until the next move)."""
        guard = self._guards.get(team)
        if guard is None:
            guard = self._guards[team] = self.pos.guard(team)
        return guard

    def _offer(self, team: str, commander: str) -> bool:
        """Ask the King whether he overrides (King 7, General 5, R17) or the
        commander for a move. A commander with no move is overridden; in the King's
        own slot he moves only his own pieces (King 8, R3), or any unmoved piece when
        his cannot move under ``king_slot_moves_any`` (General 7, R28). False when the
        slot offers no move."""
        guard = self._guard(team)
        in_check = self._in_check = guard.in_check
        kinds = COMMANDS[commander]
        overriding = commander != KING_CMD and self.options.king_may_override
        # the team's moves are generated once, for every unmoved piece when the King
        # may override (a superset of the commander's own), else for his pieces first
        cache = self._known[team]
        steps, has_own = self.pos.team_moves(
            team, None if overriding else kinds, kinds, in_check, guard, cache
        )
        self._slot_steps = steps
        every = steps if overriding else None
        # the commander's own moves are made into moves when the King lets him move
        self._own_kinds = kinds
        self._has_own = has_own
        king_seat = seat_of(team, KING_CMD)
        if has_own and not overriding:
            own = _MovesOffered(self._slot_steps, commander, "").legal_list()
            self.phase, self._legal = COMMAND, {seat_of(team, commander): own}
        elif commander == KING_CMD:
            spare = self._king_spare_moves(team, in_check, guard)
            self.phase, self._legal = COMMAND, {king_seat: spare} if spare else {}
        else:
            if every is None:
                every, _ = self.pos.team_moves(team, None, kinds, in_check, guard, cache)
            lets: tuple[Action, ...] = (LETS[commander],) if has_own else ()
            choices = _MovesOffered(every, KING_CMD, commander, lets).legal_list()
            self.phase, self._legal = OVERRIDE, {king_seat: choices} if choices else {}
        return bool(self._legal)

    def _king_spare_moves(self, team: str, in_check: bool, guard: Guard) -> Sequence[Action]:
        """King 8: in his own slot the King moves only his own pieces; only under
        ``king_slot_moves_any`` (R3, R28) does he move another's when his cannot."""
        if not self.options.king_slot_moves_any:
            return ()
        steps, _ = self.pos.team_moves(
            team, None, COMMANDS[KING_CMD], in_check, guard, self._known[team]
        )
        return _MovesOffered(steps, KING_CMD, "").legal_list()

    @staticmethod
    def _as_moves(
        steps: list[tuple[str, int, int, str, str]], commander: str, override: str
    ) -> list[Action]:
        """The moves of ``steps`` as ``commander`` (overriding ``override``) makes them.
        Moves are immutable values, so the same move is one shared object (see
        :func:`shared_move`)."""
        table = moves_of(commander, override)
        try:  # every move made before: looked up in one pass
            return list(map(table.__getitem__, steps))
        except KeyError:
            pass
        get = table.get
        out: list[Action] = []
        for step in steps:
            move = get(step)
            if move is None:
                move = shared_move(table, step, commander, override)
            out.append(move)
        return out

    def _next_slot(self) -> None:
        self.slot += 1
        if self.slot == len(self.order):
            self.slot = 0
            self._end_turn()

    def _end_turn(self) -> None:
        """Queen 6: a queen held for ``queen_hold_turns`` whole turns wins for her
        captors (R14); then the turn limit (R20); then a new turn."""
        for team in TEAMS:
            if self.pos.captor[team] is not None:
                held = self.turn - self.pos.taken_on[team]
                if held >= self.options.queen_hold_turns:
                    self._finish(
                        other(team),
                        f"{other(team)} held the {team} Queen for {held} turns",
                        QUEEN_HELD(),
                    )
                    return
        if self.turn >= self.options.turn_limit:
            self.result = Outcome.drawn(TURN_LIMIT(limit=self.options.turn_limit))
            self._legal = {}
            self.emit("draw", self.result.reason)
            return
        self.turn += 1
        self.pos.moved.clear()
        self.forfeited = ()
        self.emit("turn", f"turn {self.turn} begins", turn=self.turn)

    def _finish(self, winner: str, text: str, why: Reason) -> None:
        self.result = Outcome.win([seat_of(winner, c) for c in COMMANDERS], why, team=winner)
        self._legal = {}
        self.emit("victory", f"{text}: {winner} wins", team=winner, reason=why.text)

    # ----- applying actions ------------------------------------------------------------
    def illegal_reason(self, seat: Seat, action: Action) -> str | None:
        legal = self._legal.get(seat, ())
        if isinstance(legal, LegalList) and legal.handed_out(action):
            return None  # an action taken from the legal list: found by identity
        if action in legal:
            return None
        if isinstance(action, Move | Let) and seat in self._legal:
            return f"{action}: {why_not(self, action)} (type 'legal')"
        return f"{action} is not a legal action for seat {seat} now"

    def parse(self, seat: Seat, text: str) -> Action:
        """The notation in any letter case and spacing; '-' and 'x' are not held
        against the player. A refusal says what is wrong with the move."""
        try:
            return super().parse(seat, text)
        except (NotYourTurn, GameOver):
            raise
        except IllegalAction:
            action = read(text)
            if action is None:
                raise IllegalAction(
                    f"{text.strip()!r} is not a move; write {SHAPES} (type 'legal' for all)"
                ) from None
            if isinstance(action, Move):
                for takes in (False, True):
                    if replace(action, takes=takes) in self._legal.get(seat, ()):
                        return replace(action, takes=takes)
            raise IllegalAction(f"{text.strip()!r}: {why_not(self, action)}") from None

    def _apply(self, seat: Seat, action: Action) -> None:
        if isinstance(action, Let):
            team, commander = self.order[self.slot]
            self.emit("let", f"{team} King lets the {commander} move", team=team)
            self._let(team, commander)
            return
        assert isinstance(action, Move)
        team = self.team_to_move
        in_check = self._in_check  # of this position, found when the slot was offered
        how = self._carry_out(action, in_check)
        self._guards = {}
        if self.result is None and in_check:
            self._judge_answer(team)
        if self.result is None:
            # a step (no promotion) leaves the board R8 judged it by: no check on its
            # own King, whose protection it cannot change
            self._announce_checks(team if how == STEP and not action.promote else None)
            self._next_slot()
            if self.result is None:
                self._enter_slot()
        self._guards = {}

    def _judge_answer(self, team: str) -> None:
        """King 6: the move made while the King was in check had to get him out; if
        its attack failed and he is still in check, he is checkmated (R16). Under
        ``check_answer=as-if-won`` the team's next slot must answer instead."""
        if self.options.check_answer == "must-work" and self._guard(team).in_check:
            self._finish(other(team), f"{team} King checkmated: the answer failed", CHECKMATE())

    def _carry_out(self, move: Move, in_check: bool) -> str:
        """Make ``move``; returns how its piece entered the square (see entry)."""
        pos = self.pos
        # a legal move names its squares as NAMES writes them
        origin, target = SQUARE_OF[move.origin], SQUARE_OF[move.target]
        piece = pos.board[origin]
        assert piece is not None
        team = piece.team
        if move.override:
            self.forfeited = (*self.forfeited, (team, move.override))
            self.emit(
                "override",
                f"{team} King overrides the {move.override}'s move",
                team=team,
                overridden=move.override,
            )
        how = pos.entry(piece, pos.board[target], in_check)
        assert how is not None  # a legal move enters its square somehow
        pos.moved.add(piece.pid)
        self.emit(
            "move",
            f"{team} {move.notation}",
            team=team,
            piece=piece.kind,
            origin=move.origin,
            target=move.target,
            entry=how,
        )
        self.last_combat = []
        if how == STEP:
            self._relocate(piece, target)
        elif how == FREEZE:
            self._freeze(piece, target)
        elif how == TAKE_QUEEN:
            self._take_queen(piece, target)
        elif how == ELIMINATE:
            victim = pos.board[target]
            assert victim is not None
            self.emit("eliminate", f"{team} King eliminates the {victim.label} on {move.target}")
            self._kill(victim)
            self._relocate(piece, target)
        elif how in (ATTACK, ATTACK_FROZEN):
            self._attack(piece, target, how == ATTACK_FROZEN)
        if move.promote and piece.alive and piece.sq == target:
            self._promote(piece, move.promote)
        for queen_team in self._returning:
            self._place_queen(queen_team)
        self._returning = []
        return how

    def _relocate(self, piece: Piece, target: int) -> None:
        """Move a piece; a queen leaving her square releases the piece she held
        frozen there (Queen 2)."""
        pos = self.pos
        if piece.sq >= 0 and pos.board[piece.sq] is piece:
            self._put(piece.sq, None)
            if piece.kind == QUEEN:
                self._release(piece)
        piece.sq = target
        self._put(target, piece)

    def _put(self, sq: int, piece: Piece | None) -> None:
        """Every change to the board goes through here, so that each team's move
        cache knows the squares to look at again."""
        self.pos.place(sq, piece)
        for cache in self._known.values():
            cache.touched.add(sq)

    def _release(self, queen: Piece) -> None:
        pid = self.pos.frozen[queen.team]
        if pid is None:
            return
        held = self.pos.pieces[pid]
        self.pos.frozen[queen.team] = None
        self._put(held.sq, held)
        self.emit("release", f"the {held.label} is released on {NAMES[held.sq]}")

    def _freeze(self, queen: Piece, target: int) -> None:
        """Queen 2-3: she lands on the enemy, who goes to the tally until she leaves."""
        victim = self.pos.board[target]
        assert victim is not None
        self._relocate(queen, target)
        self.pos.frozen[queen.team] = victim.pid
        self.emit(
            "freeze",
            f"the {queen.team} Queen freezes the {victim.label} on {NAMES[target]}",
            square=NAMES[target],
            piece=victim.kind,
        )

    def _take_queen(self, taker: Piece, target: int) -> None:
        """Queen 5, 7.2, 9 (R13, no dice): the queen goes captive with her taker; a piece she held
        frozen goes to its own back row; if the taker's own queen was captive, the
        queens are swapped and both return beside their kings."""
        pos = self.pos
        queen = pos.board[target]
        assert queen is not None
        lost_team = queen.team
        self._put(target, None)
        held = pos.frozen[lost_team]
        pos.frozen[lost_team] = None
        self._relocate(taker, target)
        queen.sq = -1
        self.emit(
            "queen-taken",
            f"the {taker.label} takes the {lost_team} Queen captive on {NAMES[target]}",
            team=lost_team,
        )
        if held is not None:
            piece = pos.pieces[held]
            piece.sq = pos.back_row_square(piece, target)
            self._put(piece.sq, piece)
            self.emit("unfrozen", f"the {piece.label} goes back to {NAMES[piece.sq]}")
        if pos.captor[taker.team] is not None:
            pos.captor[taker.team] = None
            self.emit("swap", "the queens are swapped")
            self._return_queen(taker.team)
            self._return_queen(lost_team)
        else:
            pos.captor[lost_team] = taker.pid
            pos.taken_on[lost_team] = self.turn

    def _return_queen(self, team: str) -> None:
        """Queen 7-8: the queen is free again; she is placed beside her King once
        the move that freed her is complete."""
        pos = self.pos
        pos.captor[team] = None
        queen = pos.royal(team, QUEEN)
        if queen.sq >= 0 and pos.board[queen.sq] is queen:
            self._put(queen.sq, None)
        queen.sq = -1
        self._returning.append(team)

    def _place_queen(self, team: str) -> None:
        """Queen 8: a returning queen is placed beside her King (R11)."""
        pos = self.pos
        queen = pos.royal(team, QUEEN)
        queen.sq = pos.nearest_empty(pos.king_anchor(team), team)
        self._put(queen.sq, queen)
        self.emit("queen-returns", f"the {team} Queen returns to {NAMES[queen.sq]}", team=team)

    def _attack(self, attacker: Piece, target: int, frozen: bool) -> None:
        """General 9 and Queen 10-11. One exchange by default (R6): if the loser
        survives nothing moves; damage stays."""
        pos, options = self.pos, self.options
        if frozen:
            queen = pos.board[target]
            assert queen is not None
            pid = pos.frozen[attacker.team]
            assert pid is not None
            defender = pos.pieces[pid]
        else:
            defender_on = pos.board[target]
            assert defender_on is not None
            defender = defender_on
        extra = options.attack_bonus_dice + (options.frozen_bonus_dice if frozen else 0)
        while True:
            result = exchange(
                self.rng,
                options.dice[attacker.kind] + extra,
                options.dice[defender.kind],
            )
            self._report(attacker, defender, result)
            loser = defender if result.attacker_won else attacker
            loser.hp -= result.damage
            winner = attacker if result.attacker_won else defender
            if loser.hp <= 0 or not options.fight_to_the_fall:
                break
        if winner.kind in HEAL_ON_VICTORY and winner.hp < winner.max_hp:  # R21
            winner.hp = winner.max_hp
            self.emit("heal", f"the {winner.label} wins and is fully healed", piece=winner.kind)
        if loser.hp > 0:  # R6, R23: nothing moves, the freeze holds
            self.emit("survives", f"the {loser.label} survives with {loser.hp} hit points")
            return
        if frozen:
            self._settle_frozen_fight(attacker, defender, target)
            return
        self._kill(loser)
        if loser is defender:
            self._relocate(attacker, target)

    def _settle_frozen_fight(self, attacker: Piece, defender: Piece, target: int) -> None:
        """Queen 11: after a fight over the piece our queen holds frozen, the victor
        stands on the square, the loser is removed, and the queen goes beside her King."""
        pos = self.pos
        queen_team = attacker.team
        pos.frozen[queen_team] = None
        self._put(target, None)
        if defender.hp <= 0:
            self._kill(defender)
            self._relocate(attacker, target)
        else:
            self._kill(attacker)
            self._put(target, defender)
            self.emit("release", f"the {defender.label} holds {NAMES[target]}")
        self._return_queen(queen_team)

    def _report(self, attacker: Piece, defender: Piece, result: Exchange) -> None:
        a, d = result.attack_rolls, result.defence_rolls
        fight = (attacker.team, attacker.kind, a, defender.team, defender.kind, d)
        text = combat_text(*fight)
        self.last_combat.append(fight)
        self.emit(
            "combat",
            text,
            attacker=attacker.kind,
            defender=defender.kind,
            attack_rolls=list(a),
            defence_rolls=list(d),
            damage=result.damage,
            attacker_won=result.attacker_won,
        )

    def _kill(self, piece: Piece) -> None:
        """A captured piece leaves the game (available for promotion, R12). Killing a
        King wins (General 10); killing a captor frees his queen (Queen 7.1)."""
        pos = self.pos
        if piece.sq >= 0 and pos.board[piece.sq] is piece:
            self._put(piece.sq, None)
        pos.kill(piece)
        piece.sq = -1
        self.emit("captured", f"the {piece.label} is captured", team=piece.team, piece=piece.kind)
        if piece.kind == KING:
            self._finish(other(piece.team), f"the {piece.team} King is killed", KING_KILLED())
            return
        pos.lost[piece.team].append(piece.kind)
        for team in TEAMS:
            if pos.captor[team] == piece.pid:
                self._return_queen(team)

    def _promote(self, pawn: Piece, kind: str) -> None:
        """Footman 3 / Squire 3: the pawn is replaced by a captured piece."""
        pos = self.pos
        pos.lost[pawn.team].remove(kind)
        old = pawn.kind
        pos.promote(pawn, kind)
        pawn.max_hp = pawn.hp = self.options.hit_points[kind]
        self.emit(
            "promotion",
            f"the {pawn.team} {KIND_NAMES[old]} on {NAMES[pawn.sq]} becomes a {KIND_NAMES[kind]}",
            team=pawn.team,
            piece=kind,
        )

    def _queen_heals(self, team: str) -> None:
        """Queen 13 (R7): at the start of her slot the Queen heals every friendly
        piece adjacent to her, fully by default."""
        queen = self.pos.royal(team, QUEEN)
        if not self.pos.on_board(queen):
            return
        amount = self.options.queen_heal_amount
        for s in KING_TARGETS[queen.sq]:
            piece = self.pos.board[s]
            if piece is None or piece.team != team or piece.hp >= piece.max_hp:
                continue
            piece.hp = piece.max_hp if amount == 0 else min(piece.max_hp, piece.hp + amount)
            self.emit(
                "heal",
                f"the {team} Queen heals the {KIND_NAMES[piece.kind]} on {NAMES[s]} to {piece.hp}",
                square=NAMES[s],
                hp=piece.hp,
            )

    def _announce_checks(self, unchecked: str | None = None) -> None:
        """Say which Kings are in check after a move (``unchecked``: a team known not
        to be)."""
        coming = self.order[(self.slot + 1) % len(self.order)][0]  # the team offered next
        for team in TEAMS:
            if team in self._guards or team == coming:
                in_check = self._guard(team).in_check
            elif team == unchecked:
                continue
            else:
                in_check = self.pos.in_check(team)
            if in_check:
                self.emit("check", f"the {team} King is in check", team=team)

    # ----- what seats see ----------------------------------------------------------------
    def position_text(self) -> str:
        """The match as a written position (docs/rules/gladiator-chess.md, "Positions"):
        every decision point, a match over included; nothing is hidden in this game."""
        team, commander = self.order[self.slot]
        letting = self.options.king_may_override and commander != KING_CMD
        result = None
        if self.result is not None:
            winner = self.result.team
            result = (winner, "draw" if winner is None else self.result.why.text)
        standing = Standing(
            healed=commander == QUEEN_CMD and self.result is None,
            let=letting and self.phase == COMMAND and self.result is None,
            forfeited=self.forfeited,
            combats=tuple(self.last_combat),
            dice=tuple(self.rng.next_dice()),
            result=result,
            offer=(self.phase, self._has_own),
        )
        return write_position(self.pos, self.turn, (team, commander), standing)

    def view(self, seat: Seat | None) -> dict[str, Any]:
        """Gladiator Chess has no hidden information: every seat sees the same."""
        pos = self.pos
        team, commander = self.order[self.slot]
        frozen = {}
        for holder in TEAMS:
            pid = pos.frozen[holder]
            if pid is not None:
                p = pos.pieces[pid]
                frozen[holder] = {
                    "square": NAMES[p.sq],
                    "piece": p.kind,
                    "team": p.team,
                    "hp": p.hp,
                }
        captive = {}
        for queen_team in TEAMS:
            pid = pos.captor[queen_team]
            if pid is not None:
                captor = pos.pieces[pid]
                captive[queen_team] = {
                    "captor": captor.kind,
                    "square": NAMES[captor.sq] if captor.sq >= 0 else None,
                    "held_turns": self.turn - pos.taken_on[queen_team],
                }
        return {
            "turn": self.turn,
            "turn_limit": self.options.turn_limit,
            "team": team,
            "commander": commander,
            "phase": self.phase,
            "override_forced": self.phase == OVERRIDE and not self._has_own,
            "king_moves_any": self.phase == COMMAND and commander == KING_CMD and not self._has_own,
            "awaiting": list(self._awaiting()),
            "pieces": [
                {
                    "square": NAMES[p.sq],
                    "piece": p.kind,
                    "team": p.team,
                    "hp": p.hp,
                    "max_hp": p.max_hp,
                    "moved": p.pid in pos.moved,
                }
                for p in pos.pieces
                if p.sq >= 0 and pos.board[p.sq] is p
            ],
            "frozen": frozen,
            "captive_queens": captive,
            "lost": {t: sorted(pos.lost[t]) for t in TEAMS},
            "protected": {t: pos.protected(t) for t in TEAMS},
            "in_check": {t: pos.in_check(t) for t in TEAMS},
            "last_combat": [combat_text(*fight) for fight in self.last_combat],
            "outcome": None if self.result is None else self.result.to_json(),
        }

    def role(self, seat: Seat) -> tuple[str, str]:
        """(team, commander) of a seat."""
        return SEAT_ROLES[seat]
