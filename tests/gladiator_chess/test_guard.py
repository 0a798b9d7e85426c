"""The King's Guard (checkers and pins found once per position) decides every move
exactly as playing it out on a copied board does (R8, safe_after), and says check
exactly when in_check does: on random positions crowded around the Kings (pins by
sliders, Champions and a queen-moving King, frozen pieces, captive queens) and along
seeded random games under several rule options."""

from __future__ import annotations

import random
from typing import Any

import pytest

from gladiatorium.core import Observation
from gladiatorium.core.match import make_bots
from gladiatorium.games.gladiator_chess import GladiatorChess, GladiatorChessState
from gladiatorium.games.gladiator_chess.board import SQUARES, chebyshev
from gladiatorium.games.gladiator_chess.options import GladiatorChessOptions
from gladiatorium.games.gladiator_chess.pieces import (
    BLACK_KNIGHT,
    CHAMPION,
    FOOTMAN,
    KING,
    KINGS_KNIGHT,
    MOUNTED_KNIGHT,
    QUEEN,
    SCOUT,
    SQUIRE,
    TEAMS,
    WARRIOR,
    Piece,
    other,
)
from gladiatorium.games.gladiator_chess.position import SITE_OF, Position, new_position

GAME = GladiatorChess()
#: kinds a random position is filled with, sliders and Champions weighted up
FILLERS = (WARRIOR, WARRIOR, SCOUT, SCOUT, CHAMPION, CHAMPION, BLACK_KNIGHT)
FILLERS += (MOUNTED_KNIGHT, FOOTMAN, SQUIRE, KINGS_KNIGHT)


def assert_guard_agrees(pos: Position) -> int:
    """Compare the Guard with the full judgement for every pseudo-legal move of every
    piece on the board; returns how many moves were compared."""
    compared = 0
    for team in TEAMS:
        guard = pos.guard(team)
        in_check = pos.in_check(team)
        assert guard.in_check == in_check
        for piece in list(pos.pieces):
            if piece.team != team or not pos.on_board(piece):
                continue
            for target, how in list(pos.targets(piece, in_check)):
                fast = pos.safe(guard, piece, target, how)
                assert fast == pos.safe_after(piece, target, how), (
                    f"{piece.label} {piece.sq}->{target} ({how})"
                )
                compared += 1
    return compared


def random_position(rng: random.Random, options: GladiatorChessOptions) -> Position:
    """Kings and Queens, maybe King's Knights, and a dozen or more pieces packed
    within a few squares of the Kings; maybe a frozen piece and a captive Queen."""
    free = set(range(SQUARES))
    pieces: list[Piece] = []

    def put(kind: str, team: str, near: int | None = None, spread: int = 4) -> Piece:
        spots = sorted(s for s in free if near is None or chebyshev(s, near) <= spread)
        sq = rng.choice(spots or sorted(free))
        free.discard(sq)
        piece = Piece(len(pieces), kind, team, 10, 10, sq)
        pieces.append(piece)
        return piece

    kings = {team: put(KING, team) for team in TEAMS}
    queens = {team: put(QUEEN, team, kings[team].sq) for team in TEAMS}
    for team in TEAMS:
        if rng.random() < 0.8:
            put(KINGS_KNIGHT, team)
    for _ in range(rng.randint(8, 24)):
        team = rng.choice(TEAMS)
        near = kings[rng.choice(TEAMS)].sq
        put(rng.choice(FILLERS), team, near, rng.choice((2, 3, 5)))
    pos = new_position(pieces, options)
    for team in TEAMS:
        queen = queens[team]
        roll = rng.random()
        if roll < 0.25:  # frozen: an enemy piece (not the King) under her
            victims = [p for p in pieces if p.team != team and p.kind not in (KING, QUEEN)]
            if victims:
                victim = rng.choice(victims)
                pos.board[queen.sq] = None
                queen.sq = victim.sq
                pos.board[victim.sq] = queen
                pos.frozen[team] = victim.pid
        elif roll < 0.45 and pos.frozen[other(team)] is None:  # captive
            captors = [p for p in pieces if p.team != team and p.kind in (BLACK_KNIGHT, SCOUT)]
            if captors and pos.board[queen.sq] is queen:
                pos.board[queen.sq] = None
                queen.sq = -1
                pos.captor[team] = rng.choice(captors).pid
    return pos


OPTIONS: list[dict[str, Any]] = [
    {},
    {"champion_leaps": True},
    {"check_answer": "as-if-won"},
    {"queen_freezes_queen": False},
]


@pytest.mark.parametrize("values", OPTIONS)
def test_guard_agrees_with_playing_moves_out_on_random_positions(values: dict[str, Any]) -> None:
    options = GAME.make_options(values)
    rng = random.Random(17)
    compared = sum(assert_guard_agrees(random_position(rng, options)) for _ in range(150))
    assert compared > 5000


@pytest.mark.parametrize("values", [*OPTIONS, {"king_slot_moves_any": True}])
def test_guard_agrees_with_playing_moves_out_along_random_games(values: dict[str, Any]) -> None:
    for seed in range(3):
        state = GAME.start(values, None, seed)
        assert isinstance(state, GladiatorChessState)
        bots = make_bots(GAME, seed, dict.fromkeys(state.seats, "random"))
        while state.awaiting():
            seat = state.awaiting()[0]
            assert_guard_agrees(state.pos)
            state.apply(seat, bots[seat].choose(Observation.of(state, seat)))


def test_a_clone_played_on_leaves_the_cached_moves_of_its_original_right() -> None:
    """Each team's move cache lives in its match: a clone starts afresh, and playing the
    clone on changes nothing the original offers (compared with a twin never cloned)."""
    for seed in (1,):
        state, plain = GAME.start(None, None, seed), GAME.start(None, None, seed)
        bots = make_bots(GAME, seed, dict.fromkeys(state.seats, "random"))
        others = make_bots(GAME, seed + 100, dict.fromkeys(state.seats, "random"))
        while state.awaiting():
            seat = state.awaiting()[0]
            twin = state.clone()
            for _ in range(3):
                if not twin.awaiting():
                    break
                side = twin.awaiting()[0]
                twin.apply(side, others[side].choose(Observation.of(twin, side)))
            assert [str(a) for a in state.legal_actions(seat)] == [
                str(a) for a in plain.legal_actions(seat)
            ]
            action = bots[seat].choose(Observation.of(state, seat))
            state.apply(seat, action)
            plain.apply(seat, action)
        assert state.fingerprint() == plain.fingerprint()


def test_a_clone_shares_the_rules_and_copies_every_piece() -> None:
    """A copy of the match shares its options, turn order and past events, but no
    piece, square or record it may change; edited, it leaves the original as it was."""
    state = GAME.start(None, None, 3)
    assert isinstance(state, GladiatorChessState)
    bots = make_bots(GAME, 3, dict.fromkeys(state.seats, "random"))
    for _ in range(60):
        seat = state.awaiting()[0]
        state.apply(seat, bots[seat].choose(Observation.of(state, seat)))
    before = state.fingerprint()
    twin = state.clone()
    assert twin.options is state.options and twin.order is state.order
    assert twin.events == state.events and twin.events is not state.events
    assert not {id(p) for p in twin.pos.pieces} & {id(p) for p in state.pos.pieces}
    assert all(
        (a is None) == (b is None) and (a is None or (a.pid, a.sq) == (b.pid, b.sq))
        for a, b in zip(twin.pos.board, state.pos.board, strict=True)
    )
    for piece in twin.pos.pieces:
        piece.hp, piece.sq = 0, -1
    twin.pos.board[:] = [None] * len(twin.pos.board)
    twin.pos.moved.add(99)
    twin.pos.lost["white"].append("W")
    twin.pos.frozen["white"] = 0
    assert state.fingerprint() == before
    assert twin.fingerprint() != before


def test_the_sites_kept_move_by_move_are_where_the_pieces_stand() -> None:
    """Position.sites, kept up to date square by square (and on promotion), equals the
    sites found afresh from the board after every action of seeded random games,
    frozen pieces, captive queens and promotions included."""
    compared = 0
    for seed, values in ((0, {}), (2, {"fight_to_the_fall": True}), (4, {})):
        state = GAME.start(values, None, seed)
        assert isinstance(state, GladiatorChessState)
        bots = make_bots(GAME, seed, dict.fromkeys(state.seats, "random"))
        while state.awaiting():
            seat = state.awaiting()[0]
            state.apply(seat, bots[seat].choose(Observation.of(state, seat)))
            fresh: dict[str, dict[str, int]] = {t: {} for t in TEAMS}
            for sq, piece in enumerate(state.pos.board):
                if piece is not None:
                    site = fresh[piece.team].setdefault(SITE_OF[piece.kind], 0)
                    fresh[piece.team][SITE_OF[piece.kind]] = site | 1 << sq
            for team in TEAMS:
                assert {k: v for k, v in state.pos.sites(team).items() if v} == fresh[team]
            compared += 1
    assert compared > 300
