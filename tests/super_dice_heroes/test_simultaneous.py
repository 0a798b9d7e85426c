"""Simultaneous play (ruling R12): heroes decide on the same roll independently; what
one hero does in a round reaches nobody else until every hero is done."""

from __future__ import annotations

import json

from sdh_helpers import acts, hero, place, start

from contract import leaks
from gladiatorium.core import Rng
from gladiatorium.games.super_dice_heroes import GAME, SuperDiceHeroesState


def seen_by(state: SuperDiceHeroesState, seat: str | None) -> tuple[str, str, str]:
    """Everything a seat can see: its view, its events and its terminal picture."""
    events = json.dumps([e.to_json() for e in state.events_for(seat)])
    return json.dumps(state.view(seat)), events, GAME.terminal.render(state, seat)


def test_a_heros_spends_reach_nobody_else_before_the_round_resolves() -> None:
    """Simultaneous play: seat 2 and a spectator see nothing of seat 1's spends while
    the round is being decided (sheet, position, dice, powers, honor, events)."""
    state = start(("grow", "ice", "fire"), rolls=[(1, 2, 3, 5), (6, 6, 6, 6)])
    before = {seat: seen_by(state, seat) for seat in ("2", "3", None)}
    place(state, 1)
    acts(state, "help 1 at 1", "grow 2", "move 6 with 6", "help 3 at 5")
    assert hero(state).powers_left == 2 and hero(state).marks[5][4] == 3
    assert {seat: seen_by(state, seat) for seat in ("2", "3", None)} == before
    assert leaks(GAME, state) == []
    assert "Hero 1: move 6 with 6 (Church)" in state.secrets_for("2")
    assert "Hero 1: move 6 with 6 (Church)" not in state.secrets_for("1")


def test_others_see_only_that_a_hero_is_done() -> None:
    """Simultaneous play: 'done' is public (the table waits for the others), not what
    the hero did nor how many dice it left."""
    state = start(("grow", "ice"), rolls=[(1, 2, 3, 5), (6, 6, 6, 6)])
    acts(state, "move 5 with 5", "done")
    view = state.view("2")
    assert view["awaiting"] == ["2"] and view["heroes"]["1"]["done"] is True
    assert view["heroes"]["1"]["location"] == 0 and view["heroes"]["1"]["dice"][3][2] is False
    texts = [e.text for e in state.events_for("2")]
    assert texts[-1] == "Hero 1 is done" and not any("move 5" in t for t in texts)
    assert "Hero 1: move 5 with 5 (Warehouse)" in [e.text for e in state.events_for("1")]


def test_every_choice_is_revealed_when_the_last_hero_is_done() -> None:
    """Simultaneous play: the round resolves when all are done; then every hero's
    spends, unspent dice and honor are public and every sheet shows as it is."""
    state = start(("grow", "ice"), rolls=[(1, 2, 3, 5), (6, 6, 6, 6)])
    place(state, 1)
    acts(state, "help 1 at 1", "help 2 at 5", "done")
    acts(state, "move 2 with 2", "done", seat="2")
    reveals = [e.text for e in state.events_for("2") if e.kind == "reveal"]
    assert reveals[-2:] == [
        "Hero 1: help 1 at 1, help 2 at 5 (2 dice unspent); 0 honor",
        "Hero 2: move 2 with 2 (3 dice unspent); 0 honor",
    ]
    assert state.view("2")["heroes"]["1"]["marks"][0][:5] == [1, 0, 0, 0, 2]
    assert state.view(None)["heroes"]["2"]["location"] == 2


def test_the_chosen_superpower_is_hidden_until_everyone_has_chosen() -> None:
    """Setup, simultaneous: the two rolled powers are public, the pick is not until
    every hero has picked."""
    state = SuperDiceHeroesState(
        GAME.make_options({}), 2, 0, rng=Rng.forced([1, 6, 3, 4, 2, 2, 2, 2])
    )
    state.act("1", "choose grow")
    assert state.view("2")["heroes"]["1"]["power"] is None
    assert state.view("2")["heroes"]["1"]["power_choices"] == ["shrink", "grow"]
    assert "grow x3" not in GAME.terminal.render(state, "2")
    state.act("2", "choose ice")
    assert state.view("2")["heroes"]["1"]["power"] == "grow"
    assert "Hero 1: choose grow; 0 honor" in [e.text for e in state.events_for("2")]
