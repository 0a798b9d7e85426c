"""The round post: the public result of a round in BBCode and Markdown."""

from __future__ import annotations

import pytest
from hb_helpers import battle, battle_at, everyone, play_round

from gladiatorium.core import GladiatoriumError
from gladiatorium.games.hero_battle.round_post import round_post


def _round_with_everything() -> object:
    names = ("ann", "bob", "cy", "di", "ed", "flo", "gus", "hal")
    state = battle_at({"Cat": "{hp: 1}"}, player_names=names)
    moves = everyone("hit Ant, Cat heal Dog")
    moves["5"] = "abstain"
    play_round(state, moves, guesses={"1": "guess Dog=3", "2": "guess Eel=3"}, dice=[0])
    return state


def test_markdown_post_holds_the_public_result() -> None:
    """Round post (Markdown): moves, abstention hit, call-outs right and wrong, the
    death with its identity, nemesis bonuses and the HP table."""
    post = round_post(_round_with_everything().view(None), fmt="markdown")  # type: ignore[attr-defined]
    assert post.startswith("## Superhero Battle: Round 1 results\n")
    assert "| ann | Ant, Cat | Dog |" in post
    assert "| ed | abstained (random hit: Ant) |  |" in post
    assert "- Bat calls out Dog: right! Dog is cy (outed)" in post
    assert "- Cat calls out Eel: wrong" in post
    assert "- Cat has died. Secret identity: bob" in post
    assert "- Ant gains 3 HP (nemesis bonus)\n- Bat gains 3 HP (nemesis bonus)" in post
    # Ant: 12 - 8 hits + 3 nemesis = 7; Bat: 12 + 3 guess + 3 nemesis = 18
    assert "| Ant | **7** | -5 | alive | ? |" in post
    assert "| Bat | **18** | +6 | alive | ? |" in post
    # Cat: 1 - 7 hits - 2 bad call = -8; Dog: 12 + 7 heals - 4 outing = 15
    assert "| Cat | -8 | -9 | dead | bob |" in post
    assert "| Dog | **15** | +3 | alive | cy |" in post


def test_bbcode_post_and_secrets() -> None:
    """Round post (BBCode): the same content as forum tags; no hidden identity, no
    guesser's player and no nemesis list appears."""
    state = _round_with_everything()
    post = round_post(state.view(None), 1, "bbcode")  # type: ignore[attr-defined]
    assert post.startswith("[size=150][b]Superhero Battle: Round 1 results[/b][/size]")
    assert "[tr][td]Ant[/td][td][b]7[/b][/td][td]-5[/td][td]alive[/td][td]?[/td][/tr]" in post
    assert "[*]Cat calls out Eel: wrong" in post
    for hidden in ("ann", "di", "ed", "flo", "gus", "hal"):
        assert (
            f"is {hidden}" not in post
            and f"[td]{hidden}[/td][/tr]" not in post.split("Hit points")[1]
        )
    assert post == round_post(state.view("3"), 1, "bbcode")  # type: ignore[attr-defined]


def test_anonymous_round_post_shows_heals_only() -> None:
    """Round post of an anonymous round: hits private, heals public."""
    state = battle(anonymous_rounds=(1,))
    play_round(state, everyone("hit Ant, Cat heal Dog"))
    post = round_post(state.view(None), fmt="markdown")
    assert "| Player 1 | (private) | Dog |" in post
    assert "anonymous round" in post


def test_post_of_a_round_not_compiled() -> None:
    """Round post: asking for a round not compiled yet is a clear error."""
    state = battle()
    with pytest.raises(GladiatoriumError, match="no round"):
        round_post(state.view(None))
    play_round(state, everyone("hit Ant, Cat heal Dog"))
    with pytest.raises(GladiatoriumError, match="round 4"):
        round_post(state.view(None), 4)


def test_post_of_a_round_with_random_player_and_hand_of_god() -> None:
    """Round post: the round-start events (Random Player's hit, the Hand of God roll)
    open the post, once each; a Zombie's move and a dead-dead hero are listed."""
    state = battle(
        random_player=True,
        random_player_hero="Yak",
        zombies=True,
        hand_of_god=True,
        hand_of_god_rounds=(3,),
    )
    state.heroes["Ant"].hp = 1
    quiet = everyone("hit Eel, Fox heal Gnu")
    # round 1: Ant becomes a Zombie; round 2's Random Player hit: Dog (index 3 of Ant..Hog)
    play_round(state, quiet | {s: "hit Ant, Eel heal Gnu" for s in "12"}, dice=[3])
    moves = everyone("hit Ant, Ant heal Dog") | {"8": "hit Gnu"}
    # round 2: Ant is hit to dead-dead; round 3 rolls 2 (double-heals), RP hits Bat
    play_round(state, moves, dice=[2, 0])
    post = round_post(state.view(None), 2, "markdown")
    assert post.count("Random Player hits Dog") == 1
    assert "- Random Player hits Dog.\n\n**Moves**" in post
    assert "| Player 8 | Gnu |  |" in post
    assert "- Ant is dead-dead" in post
    play_round(state, everyone("hit Eel, Fox heal Gnu", players=7), dice=[0])
    post = round_post(state.view(None), 3, "bbcode")
    assert post.count("Hand of God: double-heals.") == 1
    assert "[*]Random Player hits Bat." in post
