"""Who rolls each die, and each attack's chance in the action list, from the view alone."""

from __future__ import annotations

from arena_helpers import act, attacker, defender, duel, power, skip_to, texts
from typer.testing import CliRunner

from gladiatorium.cli.main import app
from gladiatorium.games.superhero_gladiators import GAME

LINE = "1..2"  # a1 to d1
AT = {"1A": "a1", "2A": "d1"}
BOLT = power("distance", level=2, name="Bolt")  # the usual attacker's To-Hit Number is 17
SHAKY = power("distance", flaws=("unreliable",), level=2, name="Shaky")
LASSO = power("distance", "entangling", level=2, name="Lasso")


def test_each_roll_line_names_who_rolls() -> None:
    hide = power("defense", "toughness", flaws=("wild",), level=2, uses=3, name="Hide")
    state = duel([attacker(BOLT, SHAKY)], [defender(hide)], AT, LINE)
    act(state, "attack 2A with Bolt", [17])
    assert texts(state)[-1] == (
        "Attacker (1A) rolls to hit Defender (2A): d20 = 17, needs 17 or less "
        "(7 or less doubles): hit"
    )
    act(state, "use Hide", [11])
    assert texts(state)[-2] == (
        "Defender (2A), defending, rolls for Hide: flaw die = 11, needs 10 or less, the power fails"
    )
    skip_to(state, "1A")
    act(state, "attack 2A with Shaky", [3, 15])
    assert texts(state)[-1].startswith(
        "Attacker (1A) rolls to hit Defender (2A): d20 = 3, needs 17 or less "
        "(7 or less doubles); flaw die = 15, needs 15 or less, works: double damage hit"
    )


def test_the_action_list_gives_each_attacks_chance_to_land() -> None:
    state = duel([attacker(BOLT, SHAKY, LASSO)], [defender()], AT, LINE)
    notes = GAME.terminal.action_notes(state, "1")
    assert notes == {
        "attack 2A with Bolt": "85% to hit, 35% double damage",  # 17 in 20, 7 in 20
        # 17/20 x 15/20 and 7/20 x 15/20
        "attack 2A with Shaky": "64% to hit with the flaw die, 26% double damage",
        "attack 2A with Lasso": "85% to hit",  # entangling: no damage to double
    }
    assert "attack 2A with Bolt (85% to hit, 35% double damage)" in GAME.terminal.render(state, "1")
    assert GAME.terminal.action_notes(state, "2") == {}  # not its turn


def test_a_gizmo_attack_uses_perception_and_cannot_double() -> None:
    shield = power("defense", "toughness", gizmo="vulnerable", level=2, uses=3, name="Shield")
    state = duel([attacker(BOLT)], [defender(shield)], AT, LINE)
    # 2 x Perception 4 - Perception 4 = 4: a d20 of 4 or less
    assert (
        GAME.terminal.action_notes(state, "1")["attack 2A gizmo Shield with Bolt"] == "20% to hit"
    )


def test_legal_at_the_prompt_lists_the_odds() -> None:
    result = CliRunner().invoke(
        app,
        ["play", "superhero-gladiators", "--seed", "3"],
        input="legal attack\nquit\n",
        env={"COLUMNS": "300"},
    )
    assert result.exit_code == 0, result.output
    assert "attack 2A with Six-shooter (95% to hit, 45% double damage)" in result.output
    assert "attack 2A with Lasso (95% to hit)" in result.output


def test_a_copied_attack_has_its_odds_too() -> None:
    mirror = power("defense", "copy-power", level=2, uses=3, name="Mirror")
    state = duel([attacker(BOLT)], [defender(mirror)], AT, LINE)
    act(state, "attack 2A with Bolt", [17])
    act(state, "copy Mirror")
    # 15 + Combat 11 - 13 = 13: 13 in 20 hit, 3 in 20 double
    assert GAME.terminal.action_notes(state, "2") == {
        "attack 1A with copied Bolt": "65% to hit, 15% double damage",
        "attack 1A gizmo Bolt with copied Bolt": "20% to hit",  # 2 x 4 - 4 = 4
    }
