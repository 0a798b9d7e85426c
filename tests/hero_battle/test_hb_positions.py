"""Positions: a Battle taken over between two rounds from a hand-written file
(--position FILE), played, recorded and replayed; hidden information stays hidden;
errors name the file, the line and the field."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest
from hb_helpers import battle_at, play_round, position_text
from typer.testing import CliRunner

from contract import leaks, twin_differences
from gladiatorium.cli.main import app
from gladiatorium.core import Observation, OptionsError, PositionError
from gladiatorium.core.match import make_bots, run_match
from gladiatorium.core.record import record_of, replay, verify
from gladiatorium.games.hero_battle import GAME, HeroBattleState
from gladiatorium.games.hero_battle.round_post import round_post

runner = CliRunner()
SHIPPED = resources.files("gladiatorium.games.hero_battle") / "data" / "positions"
TAKEOVER = (SHIPPED / "takeover.yaml").read_text(encoding="utf-8")


def takeover(seed: int = 3, **options: object) -> HeroBattleState:
    state = GAME.start(options, 8, seed, TAKEOVER, "takeover.yaml")
    assert isinstance(state, HeroBattleState)
    return state


def test_the_shipped_position_holds_its_battle() -> None:
    """The takeover: round 6 starts at once; the HP table, deaths and the outed hero
    are public, every other identity and every nemesis list stays secret."""
    state = takeover()
    assert state.round == 6 and state.deciding() == ("1", "2", "3", "5", "6", "7")
    heroes = state.heroes
    assert {n: (h.hp, h.status, h.revealed) for n, h in heroes.items()} == {
        "Captain Comet": (11, "alive", False),
        "Doctor Paradox": (7, "alive", True),
        "Granite Jack": (-1, "dead", True),
        "Iron Tortoise": (6, "alive", False),
        "Lady Lightning": (0, "dead", True),
        "Night Heron": (9, "alive", False),
        "Silver Sparrow": (13, "alive", False),
        "The Quiet Storm": (4, "alive", False),
    }
    assert state.names["1"] == "ann" and state.signups["1"] == "Captain Comet"
    assert state.nemeses["1"] == ("Granite Jack", "Iron Tortoise")
    public = state.view(None)
    assert public["identities"] == {
        "Doctor Paradox": "2",
        "Granite Jack": "4",
        "Lady Lightning": "8",
    }
    assert "you" not in public and "moderator" not in public
    ann = state.view("1")
    assert ann["you"]["hero"] == "Night Heron" and ann["identities"]["Night Heron"] == "1"
    assert ann["you"]["nemeses"] == ["Granite Jack", "Iron Tortoise"]
    assert "Captain Comet" not in ann["identities"]
    assert state.view("moderator")["identities"]["Captain Comet"] == "3"
    assert leaks(GAME, state) == []


def test_a_position_round_compiles_as_the_rules_say() -> None:
    """Round 6 from the position, forced moves: The Quiet Storm (4 HP) dies; its
    nemesis holders cy (Captain Comet) and hal (dead) — only cy gains 3 HP. The post
    is numbered 6 and names bob for Doctor Paradox, outed before the takeover."""
    state = takeover()
    moves = {s: "hit The Quiet Storm, Iron Tortoise heal Night Heron" for s in "12356"}
    moves["7"] = "hit Captain Comet, Silver Sparrow heal The Quiet Storm"
    report = play_round(state, moves)
    assert report["round"] == 6 and [d["hero"] for d in report["deaths"]] == ["The Quiet Storm"]
    assert report["nemesis_bonus"] == {"Captain Comet": 3}
    assert state.heroes["The Quiet Storm"].hp == 4 - 5 + 1
    assert state.heroes["Captain Comet"].hp == 11 - 1 + 3
    post = round_post(state.view(None), fmt="markdown")
    assert post.startswith("## Superhero Battle: Round 6 results")
    assert "| Doctor Paradox | **7** |  | alive | bob |" in post
    assert "| The Quiet Storm | 0 | -4 | dead | gus |" in post
    assert "| Night Heron | **14** | +5 | alive | ? |" in post
    with pytest.raises(Exception, match="compiled rounds are 6 to 6"):
        round_post(state.view(None), 5)


def test_anonymous_after_death_reads_the_death_of_the_round_before() -> None:
    """death_last_round: true makes round 6 anonymous under anonymous_after_death."""
    assert takeover(anonymous_after_death=True).anonymous
    assert not takeover().anonymous


@pytest.mark.parametrize("seed", [1, 2])
def test_a_position_battle_is_played_recorded_and_replayed(seed: int) -> None:
    """Bots play the takeover to the end; the record keeps the position (in its
    options too), so it replays alike without the file."""
    state = takeover(seed)
    bots = dict.fromkeys(state.seats, "inferrer") | {"2": "hunter", "5": "random-move"}
    run_match(state, make_bots(GAME, seed, bots))
    outcome = state.outcome()
    assert outcome is not None and state.round >= 6
    record = record_of(GAME, state)
    assert record.options["position"] == TAKEOVER and record.position == TAKEOVER
    assert verify(record, replay(record)) == []


def test_every_optional_rule_the_format_holds_plays_to_the_end() -> None:
    """Zombies, Random Player, teams, two heroes a player and a resurrection used:
    all written in the position, played by bots, recorded and replayed."""
    heroes = {
        "Ant": "{hp: -2, status: zombie}",
        "Bat": "{hp: 5, revived: true}",
        "Cat": "{hp: 0, status: dead}",
        "Eel": "{hp: 3, revealed: true}",
        "Yak": "{hp: 7}",
    }
    teams = "teams: {Red: [Ant, Bat, Cat, Dog], Blue: [Eel, Fox, Gnu, Hog]}\n"
    text = position_text(heroes, 4, "random_player: Yak\n" + teams)
    options = {
        "zombies": True,
        "random_player": True,
        "teams": True,
        "resurrection_every": 3,
    }
    state = GAME.start(options, 8, 5, text, "rules.yaml")
    assert isinstance(state, HeroBattleState)
    assert state.heroes["Yak"].player == "random" and state.heroes["Ant"].status == "zombie"
    assert state.team_bonus_given  # Red lost Ant and Cat, Blue is the last intact team
    assert state.teams == {
        "Red": ("Ant", "Bat", "Cat", "Dog"),
        "Blue": ("Eel", "Fox", "Gnu", "Hog"),
    }
    assert "Ant" not in [h for h in state.heroes if state.heroes[h].status == "dead"]
    run_match(state, make_bots(GAME, 5, dict.fromkeys(state.seats, "inferrer")))
    record = record_of(GAME, state)
    assert state.outcome() is not None and verify(record, replay(record)) == []


def test_two_heroes_a_player() -> None:
    """heroes_per_player 2: each player lists heroes: [A, B]; the lead hero moves.
    Names and sign-ups may be left out (no sign-up is shown)."""
    lines = ["round: 2", "players:"]
    names = [f"H{i:02d}" for i in range(16)]
    for i in range(8):
        mine = names[2 * i : 2 * i + 2]
        nem = [names[(2 * i + 2) % 16], names[(2 * i + 5) % 16]]
        lines.append(f"  - {{heroes: [{', '.join(mine)}], nemeses: [{', '.join(nem)}]}}")
    lines += ["heroes:", "  H00: {hp: -1, status: dead}"]
    lines += [f"  {name}: {{hp: 12}}" for name in names[1:]]
    state = GAME.start({"heroes_per_player": 2}, 8, 0, "\n".join(lines), "two.yaml")
    assert isinstance(state, HeroBattleState)
    assert [h.name for h in state.heroes_of("1")] == ["H00", "H01"]
    assert state.view(None)["players"]["1"] == {"name": "Player 1", "signup": None, "moved": False}
    assert state.hero_of("1").name == "H01"  # type: ignore[union-attr]
    run_match(state, make_bots(GAME, 0, dict.fromkeys(state.seats, "hunter")))
    assert state.outcome() is not None


def test_views_of_a_position_battle_keep_every_secret() -> None:
    """The conformance checks on a Battle taken over: no seat sees a secret of
    another, and no seat can tell the Battle from its secret twin (two other
    players' identities and nemeses swapped), bots' choices included."""
    state = takeover(4)
    bots = make_bots(GAME, 4, dict.fromkeys(state.seats, "random"))
    compared = 0
    for step in range(400):
        awaited = state.awaiting()
        if not awaited:
            break
        if step % 7 == 0:
            assert leaks(GAME, state) == []
            for seat in (*state.seats, None):
                twin = GAME.secret_twin(state, seat)
                if twin is not None:
                    compared += 1
                    assert twin_differences(GAME, state, twin, seat) == []
        state.apply(awaited[0], bots[awaited[0]].choose(Observation.of(state, awaited[0])))
    assert compared > 0 and leaks(GAME, state) == []


def _edited(old: str, new: str) -> str:
    assert old in TAKEOVER, old
    return TAKEOVER.replace(old, new, 1)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("round: 6", "round: 0", "pos.yaml:5: round: Input should be greater than or equal to 1"),
        ("round: 6", "round: 201", "pos.yaml:5: round: a Battle is drawn after 200 rounds"),
        (
            "hero: Night Heron ",
            "hero: Nite Heron ",
            "pos.yaml:9: player 1, hero: 'Nite Heron' is not in heroes",
        ),
        (
            "hero: Night Heron ",
            "hero: Doctor Paradox ",
            "pos.yaml:11: player 2, hero: Doctor Paradox is player 1's",
        ),
        (
            "signup: Captain Comet",
            "signup: Night Heron",
            "pos.yaml:8: player 1, signup: nobody plays the hero they submitted",
        ),
        (
            "signup: Captain Comet",
            "signup: Doctor Paradox",
            "pos.yaml:15: player 6, signup: Doctor Paradox is player 1's sign-up",
        ),
        (
            "nemeses: [Granite Jack, Iron Tortoise]",
            "nemeses: [Night Heron, Iron Tortoise]",
            "pos.yaml:10: player 1, nemeses: Night Heron is this player's own hero",
        ),
        (
            "nemeses: [Granite Jack, Iron Tortoise]",
            "nemeses: [Granite Jack, granite jack]",
            "pos.yaml:10: player 1, nemeses: two different nemeses",
        ),
        (
            "nemeses: [Granite Jack, Iron Tortoise]",
            "nemeses: [Granite Jack]",
            "pos.yaml:10: player 1, nemeses: List should have at least 2 items",
        ),
        (
            "Captain Comet: {hp: 11}",
            "Captain Comet: {hp: 0}",
            "pos.yaml:19: hero Captain Comet, hp: a living hero has 1 HP or more",
        ),
        (
            "Captain Comet: {hp: 11}",
            "Captain Comet: {hp: eleven}",
            "pos.yaml:19: hero Captain Comet, hp: Input should be a valid integer",
        ),
        (
            "Captain Comet: {hp: 11}",
            "Captain Comet: {hp: 11, mood: grim}",
            "pos.yaml:19: hero Captain Comet, mood: Extra inputs are not permitted",
        ),
        (
            "{hp: -1, status: dead}",
            "{hp: 3, status: dead}",
            "pos.yaml:21: hero Granite Jack, hp: a dead hero has 0 HP or less",
        ),
        (
            "{hp: -1, status: dead}",
            "{hp: -1, status: dead, revealed: false}",
            "pos.yaml:21: hero Granite Jack, revealed: a death reveals",
        ),
        (
            "{hp: -1, status: dead}",
            "{hp: -1, status: zombie}",
            "pos.yaml:21: hero Granite Jack, status: Zombies need the option zombies",
        ),
        (
            "{hp: -1, status: dead}",
            "{hp: -1, status: gone}",
            "pos.yaml:21: hero Granite Jack, status: Input should be 'alive', 'zombie' or 'dead'",
        ),
        (
            "Silver Sparrow: {hp: 13}",
            "Silver Sparrow: {hp: 13, revived: true}",
            "pos.yaml:25: hero Silver Sparrow, revived: no hero is ever resurrected",
        ),
        (
            "Silver Sparrow: {hp: 13}",
            "Silver Sparrow: {hp: 13}\n  Iron Wasp: {hp: 2}",
            "pos.yaml:26: hero Iron Wasp: nobody plays this hero",
        ),
        (
            "Silver Sparrow: {hp: 13}",
            "Silver Sparrow: {hp: 13}\n  silver sparrow: {hp: 2}",
            "pos.yaml:26: hero silver sparrow: also written 'Silver Sparrow'",
        ),
        (
            "Silver Sparrow: {hp: 13}",
            "Silver Sparrow: {hp: 13}\n  Silver Sparrow: {hp: 2}",
            "pos.yaml:26: Silver Sparrow: written twice",
        ),
        (
            "death_last_round: true",
            "random_player: Night Heron",
            "pos.yaml:27: random_player: the option random_player is off",
        ),
        (
            "death_last_round: true",
            "teams: {Red: [Night Heron]}",
            "pos.yaml:27: teams: the option teams is off",
        ),
        (
            "death_last_round: true",
            "posts: {}",
            "pos.yaml:27: posts: Extra inputs are not permitted",
        ),
        ("  - name: ann ", "  - name: bob ", "pos.yaml:11: player 2, name: 'bob' is player 1's"),
        (
            "  - name: ann ",
            "  - name: a,nn ",
            "pos.yaml:7: player 1, name: 'a,nn' may not contain ','",
        ),
        (
            "round: 6",
            "round: &r 6\nagain: *r",
            "pos.yaml:6: not valid YAML: aliases (*name) are not allowed",
        ),
        ("round: 6", "round: [6", "pos.yaml:6: not valid YAML"),
    ],
)
def test_position_errors_name_the_file_the_line_and_the_field(
    old: str, new: str, message: str
) -> None:
    with pytest.raises(PositionError) as err:
        GAME.start({}, 8, 0, _edited(old, new), "pos.yaml")
    assert message in str(err.value)


def test_the_battle_must_still_be_going() -> None:
    text = position_text(
        dict.fromkeys(("Ant", "Bat", "Cat", "Dog", "Eel", "Fox", "Gnu"), "{hp: 0, status: dead}")
    )
    with pytest.raises(PositionError, match="heroes: the Battle is over"):
        GAME.start({}, 8, 0, text, "over.yaml")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"assign_heroes": ["Bat"]}, "takeover.yaml: the position deals the Battle"),
        ({"signups": list("ABCDEFGH")}, "leave the option signups empty"),
        ({"random_player": True}, "random_player: the option random_player is on"),
        ({"teams": True}, "teams: the option teams is on: list each team's heroes"),
        ({"heroes_per_player": 2}, "takeover.yaml:9: player 1, hero: 2 hero(es) a player"),
        ({"zombies": True, "zombie_dead_dead_hp": 0}, None),
    ],
)
def test_options_the_position_cannot_express_are_refused(
    options: dict[str, object], message: str | None
) -> None:
    """A position is the deal: deal options are refused; options that need more in
    the position (Random Player's hero, the teams, two heroes each) say what is
    missing. Options it does express are taken (Zombies: its dead stay dead)."""
    if message is None:
        state = takeover(**options)
        assert state.options.zombies and state.heroes["Granite Jack"].status == "dead"
        return
    with pytest.raises(OptionsError) as err:
        takeover(**options)
    assert message in str(err.value)


def test_team_bonus_given_must_agree_with_the_teams() -> None:
    teams = "teams: {Red: [Ant, Bat, Cat, Dog], Blue: [Eel, Fox, Gnu, Hog]}\n"
    dead = {"Ant": "{hp: 0, status: dead}", "Eel": "{hp: 0, status: dead}"}
    with pytest.raises(PositionError, match=r"team_bonus_given: 0 team.*was paid"):
        battle_at(dead, 3, teams + "team_bonus_given: false\n", teams=True)
    with pytest.raises(PositionError, match=r"team_bonus_given: 2 teams .*no bonus yet"):
        battle_at({}, 3, teams + "team_bonus_given: true\n", teams=True)
    assert not battle_at({}, 3, teams, teams=True).team_bonus_given
    assert battle_at(dead, 3, teams, teams=True).team_bonus_given


def test_a_position_needs_one_seat_per_player() -> None:
    with pytest.raises(PositionError, match="the position has 8 players but the Battle 9"):
        GAME.start({}, 9, 0, TAKEOVER, "takeover.yaml")
    with pytest.raises(OptionsError, match="position: the position is empty"):
        GAME.start({"position": "# nothing\n"}, 8, 0)


def test_a_position_in_the_options_alone_starts_the_same_battle() -> None:
    """The position option (as a record or the server keeps it) starts the same
    Battle as the file did."""
    first = takeover(7)
    second = GAME.start({"position": TAKEOVER}, 8, 7)
    for state in (first, second):
        for seat in "123567":
            state.act(seat, "abstain")  # the last one closes the round: random hits
    assert first.view("moderator") == second.view("moderator")


def test_cli_plays_lists_and_simulates_from_a_position_file(tmp_path: Path) -> None:
    """--position FILE in play, legal and simulate; a bad file is refused by name,
    line and field."""
    file = tmp_path / "takeover.yaml"
    file.write_text(TAKEOVER, encoding="utf-8")
    where = ["--position", str(file), "--seed", "3"]
    legal = runner.invoke(app, ["legal", "hero-battle", *where, "--json"])
    assert legal.exit_code == 0, legal.output
    assert '"awaiting": ["1", "2", "3", "5", "6", "7", "moderator"]' in legal.output
    assert "hit Captain Comet, Doctor Paradox heal Night Heron" in legal.output
    assert "Granite Jack heal" not in legal.output  # the dead are not hit
    play = runner.invoke(app, ["play", "hero-battle", *where, "--seat", "1=inferrer"])
    assert play.exit_code == 0, play.output
    assert "is the last hero alive" in play.output or "died together" in play.output
    sim = runner.invoke(app, ["simulate", "hero-battle", *where, "--games", "2"])
    assert sim.exit_code == 0 and "2 games" in sim.output, sim.output
    file.write_text(TAKEOVER.replace("hero: Night Heron ", "hero: Nite Heron "), encoding="utf-8")
    bad = runner.invoke(app, ["play", "hero-battle", *where])
    assert bad.exit_code == 2
    assert "takeover.yaml:9: player 1, hero: 'Nite Heron' is not in heroes" in " ".join(
        bad.output.split()
    )


def test_the_rules_page_shows_the_shipped_position() -> None:
    """docs/rules/hero-battle.md, "Positions", shows the shipped file as it is."""
    page = Path(__file__).resolve().parents[2] / "docs" / "rules" / "hero-battle.md"
    section = page.read_text(encoding="utf-8").split("## Positions", 1)[1]
    block = section.split("```yaml\n", 1)[1].split("```", 1)[0]
    assert TAKEOVER.endswith(block) and TAKEOVER.startswith("# Hero Battle position")
