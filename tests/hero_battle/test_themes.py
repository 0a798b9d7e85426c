"""Hero Battle themes: the shipped ones hold a hundred players, a theme becomes a
Battle's options, and a bad theme is refused with every problem by field and line."""

from __future__ import annotations

import pytest

from gladiatorium.core import OptionsError, get_game
from gladiatorium.games import load
from gladiatorium.games.hero_battle.themes import check_theme, shipped_themes, theme_options

load()

LETTERS = "name: Letters\nheroes:\n" + "".join(f"  - Hero {chr(65 + n)}\n" for n in range(10))


def test_shipped_themes_hold_a_hundred_players() -> None:
    game = get_game("hero-battle")
    themes = shipped_themes()
    assert sorted(themes) == ["myth-and-machine", "the-hundred"]
    for stem, text in themes.items():
        name, data = check_theme(text, f"{stem}.yaml")
        assert len(data["heroes"]) == 120
        state = game.start(theme_options(data, 100), 100, 7)
        assert state.players == 100 and state.options.theme == name
        assert len(state.options.extra_heroes) == 20
    myth = check_theme(themes["myth-and-machine"], "myth.yaml")[1]
    options = theme_options(myth, 100)
    assert options["team_count"] == 10 and options["hand_of_god"] is True
    assert theme_options(myth, 8)["team_count"] == 2


def test_a_theme_as_options() -> None:
    _name, data = check_theme(LETTERS, "letters.yaml")
    assert theme_options(data, 8) == {
        "theme": "Letters",
        "signups": [f"Hero {c}" for c in "ABCDEFGH"],
        "extra_heroes": ["Hero I", "Hero J"],
        "random_player_hero": "Hero I",
    }
    assert theme_options(data, 10) == {
        "theme": "Letters",
        "signups": [f"Hero {c}" for c in "ABCDEFGHIJ"],
    }
    with pytest.raises(OptionsError, match="lists 10 heroes; a Battle of 11 players needs 11"):
        theme_options(data, 11)


@pytest.mark.parametrize(
    ("text", "problems"),
    [
        ("- a list\n", "t.yaml:1: (file): a theme is a mapping: name, heroes, restrictions, ..."),
        (
            LETTERS.replace("Hero B", "Hero A") + "colour: red\n",
            "t.yaml:13: colour: unknown field; a theme has name, heroes, restrictions, teams, "
            "hand_of_god; t.yaml:4: heroes[1]: 'Hero A' is listed twice",
        ),
        (
            "name: Few\nheroes: [A, B]\n",
            "t.yaml:2: heroes: list 8 to 200 hero names (got 2)",
        ),
        (
            LETTERS + "restrictions:\n  signups: [x]\n  starting_hp: 0\n",
            "t.yaml:14: restrictions.signups: set by the theme's own fields, not a restriction",
        ),
        (
            LETTERS + "restrictions:\n  starting_hp: 0\n  bogus: 1\n",
            "t.yaml:14: restrictions.starting_hp: Input should be greater than or equal to 1; "
            "t.yaml:15: restrictions.bogus: Extra inputs are not permitted",
        ),
        (
            LETTERS + "hand_of_god:\n  - calm\n  - storm\n",
            "t.yaml:15: hand_of_god: unknown effect 'storm'; anonymous-round, double-heals, "
            "extra-hit, forced-abstain, grant-hp, resurrection, extra-heal, no-heals, double-up, "
            "no-guesses, double-nemesis-bonus, calm",
        ),
    ],
)
def test_bad_themes_name_field_and_line(text: str, problems: str) -> None:
    with pytest.raises(OptionsError) as refused:
        check_theme(text, "t.yaml")
    assert str(refused.value) == problems
