"""The Marshal: a one-move heuristic bot for Gladiator Chess.

It scores every legal action of its seat: material won or lost by the combat odds,
the danger to the moved piece where it lands, the safety of its queen (taken
without dice), of its King's Knight and of an exposed King, threats on the enemy
queen, checks, and checkmates found by trying the move on a copy. At an override
window the King compares the best move of the waiting commander ('let') with the
best move of any unmoved piece and overrides when that is clearly better.
Gladiator Chess has no hidden information, so the bot reads its observation's world
(the match with a fresh dice stream): it cannot see the dice to come.
"""

from __future__ import annotations

from gladiatorium.core import Action, Observation, Rng
from gladiatorium.games.gladiator_chess.actions import Let, Move
from gladiatorium.games.gladiator_chess.board import parse_square, rank_of
from gladiatorium.games.gladiator_chess.combat import odds
from gladiatorium.games.gladiator_chess.pieces import (
    BLACK_KNIGHT,
    FOOTMAN,
    KING,
    KINGS_KNIGHT,
    QUEEN,
    QUEEN_TAKERS,
    SQUIRE,
    WHITE,
    Piece,
    other,
)
from gladiatorium.games.gladiator_chess.position import (
    ATTACK,
    ATTACK_FROZEN,
    ELIMINATE,
    FREEZE,
    TAKE_QUEEN,
    Position,
)
from gladiatorium.games.gladiator_chess.state import GladiatorChessState

VALUE = {
    "K": 60.0,
    "Q": 40.0,
    "C": 12.0,
    "BK": 13.0,
    "KK": 16.0,
    "MK": 8.0,
    "S": 8.0,
    "W": 5.0,
    "F": 2.0,
    "SQ": 1.5,
}
WIN = 10_000.0
CAPTIVE_QUEEN = 45.0
FROZEN_QUEEN = 8.0
LET_MARGIN = 1.0


class Marshal:
    """Greedy one-move bot with combat odds and royal safety."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.dice: dict[str, int] = {}

    def choose(self, observation: Observation) -> Action:
        state, seat = observation.world(), observation.seat
        legal = state.legal_actions(seat)
        if len(legal) == 1 or not isinstance(state, GladiatorChessState):
            return legal[0]
        self.dice = dict(state.options.dice, Q=0)
        best: Action = legal[0]
        best_score = -float("inf")
        for action in legal:
            if isinstance(action, Let):
                own = [self.score(state, m) for m in state.commander_moves]
                value = max(own, default=-float("inf")) + LET_MARGIN
            else:
                assert isinstance(action, Move)
                value = self.score(state, action)
            value += self.rng.randint(0, 99) / 1000.0
            if value > best_score:
                best, best_score = action, value
        return best

    # ----- scoring -------------------------------------------------------------------
    def score(self, state: GladiatorChessState, move: Move) -> float:
        pos = state.pos
        origin, target = parse_square(move.origin), parse_square(move.target)
        piece = pos.board[origin]
        assert piece is not None
        team, enemy = piece.team, other(piece.team)
        occupant = pos.board[target]
        how = pos.entry(piece, occupant, pos.in_check(team)) if occupant is not None else "move"
        gain = 0.0
        success = 1.0
        if how in (ATTACK, ATTACK_FROZEN):
            defender = occupant
            if how == ATTACK_FROZEN:
                pid = pos.frozen[team]
                defender = None if pid is None else pos.pieces[pid]
            assert defender is not None
            gain, success = self._fight_value(state, piece, defender, how == ATTACK_FROZEN)
            if state.options.check_answer == "must-work" and pos.in_check(team):
                gain -= (1 - success) * WIN  # a failed answer to check is mate (R16)
        elif how == ELIMINATE:
            assert occupant is not None
            if occupant.team == team:
                gain = -self.value(pos, occupant)
            else:
                gain = WIN if occupant.kind == KING else self.value(pos, occupant)
        elif how == FREEZE:
            assert occupant is not None
            gain = WIN / 2 if occupant.kind == KING else 0.8 * self.value(pos, occupant)
            if occupant.kind == QUEEN:
                gain = FROZEN_QUEEN  # she stops moving and healing, but cannot be taken
        elif how == TAKE_QUEEN:
            gain = CAPTIVE_QUEEN * (2 if pos.captor[team] is not None else 1)
        if gain >= WIN / 2:
            return gain
        change, check = self._position_change(pos, piece, origin, target)
        gain += success * change
        if move.promote:
            gain += success * (VALUE[move.promote] - VALUE[piece.kind])
        elif piece.kind in (FOOTMAN, SQUIRE):
            ahead = rank_of(target) if team == WHITE else 9 - rank_of(target)
            gain += 0.05 * ahead
        if check and how != ATTACK and how != ATTACK_FROZEN:
            gain += self._mate_bonus(state, move, enemy)
        return gain

    def value(self, pos: Position, piece: Piece) -> float:
        """A piece's worth, by its health; more for a captor holding a queen."""
        worth = VALUE[piece.kind] * (0.6 + 0.4 * piece.hp / max(1, piece.max_hp))
        if piece.kind == KING:
            worth = WIN if not pos.protected(piece.team) else 0.0
        for team in (WHITE, other(WHITE)):
            if pos.captor[team] == piece.pid:
                worth += CAPTIVE_QUEEN
        return worth

    def _fight_value(
        self, state: GladiatorChessState, attacker: Piece, defender: Piece, frozen: bool
    ) -> tuple[float, float]:
        """Expected material from one exchange: (value, chance the attacker wins)."""
        options = state.options
        extra = options.attack_bonus_dice + (options.frozen_bonus_dice if frozen else 0)
        kill, fall = odds(
            options.dice[attacker.kind] + extra,
            options.dice[defender.kind],
            defender.hp,
            attacker.hp,
        )
        pos = state.pos
        value = kill * self.value(pos, defender) - fall * self.value(pos, attacker)
        return value, kill

    def _position_change(
        self, pos: Position, piece: Piece, origin: int, target: int
    ) -> tuple[float, bool]:
        """Danger before minus danger after, for the moved piece and the royals."""
        team, enemy = piece.team, other(piece.team)
        before = self._danger(pos, pos.board, team)
        board = pos.board[:]
        board[origin] = None
        if piece.kind == QUEEN and pos.frozen[team] is not None:
            held = pos.pieces[pos.frozen[team]]  # type: ignore[index]
            board[origin] = held
        board[target] = piece
        saved = piece.sq
        piece.sq = target
        try:
            after = self._danger(pos, board, team)
            threat = self._threat(pos, board, piece, enemy)
            king = pos.royal(enemy, KING)
            check = (
                pos.protected(enemy)
                and king.sq >= 0
                and board[king.sq] is king
                and pos.attacked(board, king.sq, team, pos.captor[team] is not None)
            )
        finally:
            piece.sq = saved
        return before - after + threat, check

    def _danger(self, pos: Position, board: list[Piece | None], team: str) -> float:
        """What the enemy could take next: for each of our pieces, the best odds any
        enemy piece has against it; the queen counts fully against a queen-taker."""
        enemy = other(team)
        queenlike = pos.captor[enemy] is not None
        total = 0.0
        for piece in pos.pieces:
            if piece.team != team or piece.sq < 0 or board[piece.sq] is not piece:
                continue
            if piece.kind == KING and pos.protected(team):
                continue
            worst = 0.0
            for foe in pos.reachers(board, piece.sq, enemy, queenlike):
                if piece.kind == QUEEN:
                    if foe.kind in QUEEN_TAKERS or (foe.kind == KING and not pos.protected(enemy)):
                        worst = CAPTIVE_QUEEN
                        break
                    continue
                if foe.kind == KING and pos.protected(enemy):
                    worst = max(worst, self.value(pos, piece))
                    continue
                kill, _ = odds(self.dice[foe.kind] + 1, self.dice[piece.kind], piece.hp, foe.hp)
                worst = max(worst, kill * self.value(pos, piece))
            weight = 1.5 if piece.kind in (KINGS_KNIGHT, KING) else 1.0
            total += weight * worst
        return total * 0.6

    def _threat(self, pos: Position, board: list[Piece | None], piece: Piece, enemy: str) -> float:
        """A small reward for attacking the enemy queen with a queen-taker."""
        if piece.kind not in QUEEN_TAKERS and piece.kind != KING:
            return 0.0
        queen = pos.royal(enemy, QUEEN)
        if queen.sq < 0 or board[queen.sq] is not queen:
            return 0.0
        if piece.kind == KING and pos.protected(piece.team):
            return 0.0
        for foe in pos.reachers(board, queen.sq, piece.team, pos.captor[enemy] is not None):
            if foe is piece:
                return 4.0 if piece.kind == BLACK_KNIGHT else 3.0
        return 0.0

    def _mate_bonus(self, state: GladiatorChessState, move: Move, enemy: str) -> float:
        """Try a move that gives check on a copy: a checkmate there wins."""
        pos = state.pos
        king = pos.royal(enemy, KING)
        if not pos.protected(enemy) or king.sq < 0:
            return 0.0
        trial = state.clone(reseed=self.rng.randint(0, 2**62))
        seat = trial.awaiting()[0]
        if move not in trial.legal_actions(seat):
            trial.apply(seat, Let(trial.commander_to_move))
            seat = trial.awaiting()[0]
        trial.apply(seat, move)
        outcome = trial.outcome()
        if outcome is not None and outcome.team == other(enemy):
            return WIN
        return 1.5
