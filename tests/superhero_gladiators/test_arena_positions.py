"""Positions: a fight in progress written by hand (--position FILE), played, recorded
and replayed; errors name the file, the line and the field."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gladiatorium.cli.main import app
from gladiatorium.core import OptionsError
from gladiatorium.core.match import make_bots, run_match
from gladiatorium.core.record import record_of, replay, verify
from gladiatorium.games.superhero_gladiators import GAME
from gladiatorium.games.superhero_gladiators.position import apply_position
from gladiatorium.games.superhero_gladiators.state import SuperheroGladiatorsState

runner = CliRunner()
SHIPPED = resources.files("gladiatorium.games.superhero_gladiators") / "data" / "positions"
HARPE = (SHIPPED / "harpe.yaml").read_text(encoding="utf-8")


def from_position(text: str, seed: int = 0) -> SuperheroGladiatorsState:
    state = GAME.start({"position": text}, 2, seed)
    assert isinstance(state, SuperheroGladiatorsState)
    return state


def test_a_position_puts_every_hero_where_it_says_and_the_segment_goes_on() -> None:
    """The shipped puzzle, on the default match: turn 4, segment 5, the Cowboy (1A) to
    act at d2 with one bullet; Perseus hovers at e2, altitude 1, with 9 Harpe uses,
    which team 1 has noticed. Attacking the Harpe's gizmo needs 2 x 1 - 4: only a 1
    hits, and it does; the wild brawl then works on a flaw die of 10 or less."""
    state = from_position(HARPE)
    cowboy, perseus = state.fighters["1A"], state.fighters["2A"]
    assert (state.turn, state.segment, state.actor, state.awaiting()) == (4, 5, "1A", ("1",))
    assert (cowboy.square, cowboy.oomph, cowboy.uses["Six-shooter"]) == ((3, 1), 31, 1)
    assert (perseus.square, perseus.altitude, perseus.flight_level) == ((4, 1), 1, 3)
    assert state.noticed["1"] == ["2A:Harpe"]
    assert state.view("1")["heroes"][1]["gizmos"]["Harpe"] == "hidden"
    state.rng.force([1, 5])
    state.act("1", "attack 2A gizmo Harpe with Saloon brawl")
    assert perseus.destroyed == ["Harpe"] and state.rng.forced_left == 0


def test_a_position_match_is_recorded_and_replays_alike() -> None:
    """A record keeps the position in its options, so it replays without the file."""
    state = from_position(HARPE, seed=3)
    run_match(state, make_bots(GAME, 3, dict.fromkeys(state.seats, "greedy")))
    record = record_of(GAME, state)
    assert record.options["position"] == HARPE
    assert verify(record, replay(record)) == []


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("square: e2", "square: d2", "pos.yaml:14: heroes.2A.square: d2 is taken"),
        ("square: e2", "square: d3", "pos.yaml:14: heroes.2A.square: a hero stands on floor"),
        ("oomph: 31", "oomph: 61", "pos.yaml:10: heroes.1A.oomph: 1 to 60"),
        ("Harpe: 9", "Harpe: 16", "pos.yaml:17: heroes.2A.uses.Harpe: 0 to 15 uses"),
        ("Lasso, Trusty", "Lariat, Trusty", "pos.yaml:12: heroes.1A.used: Cowboy (1A) has no"),
        ("segment: 5", "segment: 7", "pos.yaml:6: segment: Input should be less than or"),
        ("2A:Harpe", "2A:Head of Medusa", "pos.yaml:19: noticed.1: '2A:Head of Medusa' is"),
        ("  2A:\n", "  2B:\n", "pos.yaml:13: heroes.2B: no hero 2B; heroes: 1A, 2A"),
    ],
)
def test_position_errors_name_the_file_the_line_and_the_field(
    old: str, new: str, message: str
) -> None:
    state = GAME.start(None, 2, 0)
    assert isinstance(state, SuperheroGladiatorsState)
    assert old in HARPE
    with pytest.raises(OptionsError) as err:
        apply_position(state, HARPE.replace(old, new), "pos.yaml")
    assert message in str(err.value)


def test_a_flyer_needs_flight_and_every_hero_a_place() -> None:
    state = GAME.start(None, 2, 0)
    assert isinstance(state, SuperheroGladiatorsState)
    flying = HARPE.replace("square: d2\n", "square: d2\n    altitude: 1\n")
    with pytest.raises(OptionsError, match=r"heroes.1A.altitude: Cowboy \(1A\) has no flight"):
        apply_position(state, flying, "pos.yaml")
    with pytest.raises(OptionsError, match="every hero needs a place; missing: 1A"):
        apply_position(state, "heroes: {2A: {square: e2}}", "pos.yaml")


def test_cli_plays_lists_and_simulates_from_a_position_file(tmp_path: Path) -> None:
    """--position FILE in play, legal and simulate; a bad file is refused by name."""
    file = tmp_path / "puzzle.yaml"
    file.write_text(HARPE, encoding="utf-8")
    legal = runner.invoke(app, ["legal", "superhero-gladiators", "--position", str(file)])
    listed = " ".join(legal.output.split())
    assert legal.exit_code == 0 and "attack 2A gizmo Harpe with Saloon brawl" in listed
    bots = ["--seat", "1=greedy", "--seat", "2=greedy"]
    play = runner.invoke(app, ["play", "superhero-gladiators", "--position", str(file), *bots])
    assert play.exit_code == 0, play.output
    sim = runner.invoke(
        app, ["simulate", "superhero-gladiators", "--position", str(file), "--games", "2"]
    )
    assert sim.exit_code == 0, sim.output
    file.write_text(HARPE.replace("square: e2", "square: z9"), encoding="utf-8")
    bad = runner.invoke(app, ["play", "superhero-gladiators", "--position", str(file)])
    assert bad.exit_code == 2
    assert "puzzle.yaml:14: heroes.2A.square: 'z9' is not a square" in " ".join(bad.output.split())
