"""The shortcuts of listing a hero's spends give what the rules give worked out in
full. A hero keeps the boxes open at each location and, when it marks one, updates
them from the mark, and a chain's location keeps its helps by the boxes filled and the
last number: the kept ones always equal those worked out afresh from the marks, in
every kind of location and in play. A hero may be done (R6) when no die is unspent,
since an unspent die can always move it."""

from __future__ import annotations

import pytest

from gladiatorium.core import Rng
from gladiatorium.core.match import make_bots, run_match
from gladiatorium.games.super_dice_heroes import GAME, SuperDiceHeroesState
from gladiatorium.games.super_dice_heroes.actions import Defeat, Help, Move, Teleport
from gladiatorium.games.super_dice_heroes.hero import (
    FACES,
    Helps,
    help_spends,
    helps_after_mark,
    helps_for,
    open_boxes,
)
from gladiatorium.games.super_dice_heroes.sheet import Kind, Location, load_sheet
from gladiatorium.games.super_dice_heroes.state import DONE

SHEET = load_sheet("standard")


def afresh(loc: Location, marks: tuple[int, ...]) -> Helps:
    """The open boxes from the location's rule, and the help filling each."""
    openings = open_boxes(loc, marks)
    made = help_spends(loc)[0]
    return Helps(
        openings, tuple(tuple(made[n][b] for b in boxes) for n, boxes in enumerate(openings))
    )


@pytest.mark.parametrize("loc", SHEET.locations, ids=lambda loc: loc.kind.value)
def test_a_mark_updates_the_open_boxes_as_working_them_out_afresh(loc: Location) -> None:
    """Fill each location box by box with random dice that fit (a wild die's number
    too), 20 times over: after every mark the updated helps equal fresh ones."""
    rng = Rng(loc.number)
    filled = 0
    for _ in range(20):
        marks = (0,) * loc.size
        helps = helps_for(loc, marks)
        while fitting := [(n, box) for n in FACES for box in helps.openings[n]]:
            die, box = rng.choice(fitting)
            marks = (*marks[:box], die, *marks[box + 1 :])
            helps = helps_after_mark(loc, helps, marks, box)
            assert helps == afresh(loc, marks) == helps_for(loc, marks), (marks, box)
            filled += 1
    assert filled >= 20 * (loc.size if loc.kind in (Kind.GRID, Kind.PAIRS) else 1)


def test_every_kept_help_in_play_equals_the_help_worked_out_afresh() -> None:
    """Random games of one to four heroes: at the end, each hero's kept helps at every
    location it worked out equal those of its marks there, and the play marked boxes."""
    marked = 0
    for players in (1, 2, 3, 4):
        state = GAME.start(None, players, 40 + players)
        assert isinstance(state, SuperDiceHeroesState)
        run_match(state, make_bots(GAME, players, dict.fromkeys(state.seats, "random")))
        for hero in state.heroes.values():
            for index, loc in enumerate(state.sheet.locations):
                kept = hero._helps[index]
                if kept is not None and hero._helps_marks[index] is hero.marks[index]:
                    assert kept == afresh(loc, hero.marks[index])
                    marked += sum(1 for m in hero.marks[index] if m)
    assert marked > 50


def test_a_hero_can_spend_a_die_exactly_when_a_listed_spend_uses_one() -> None:
    """At every decision of random games (one to four heroes, every die spent or, with
    ``may_waste_dice``, not): some spend listed uses a rolled die (a move, a help, a
    defeat, a teleport) exactly when a die is unspent, and done is listed exactly when
    none is (or the house rule allows it)."""
    uses_a_die = (Move, Help, Defeat, Teleport)
    decisions = 0
    for players, waste in ((1, False), (2, True), (3, False), (4, False)):
        state = GAME.start({"may_waste_dice": waste}, players, 60 + players)
        assert isinstance(state, SuperDiceHeroesState)
        rng = Rng(players)
        while state.awaiting():
            seat = state.awaiting()[0]
            hero, legal = state.heroes[seat], state.legal_actions(seat)
            if state.round:
                spends = hero.spends(state.sheet)
                unspent = any(not die.spent for die in hero.dice)
                assert any(isinstance(a, uses_a_die) for a in spends) == unspent
                assert hero.can_spend_a_die() == unspent
                assert (DONE in legal) == (waste or not unspent)
                decisions += 1
            state.apply(seat, rng.choice(legal))
    assert decisions > 300
