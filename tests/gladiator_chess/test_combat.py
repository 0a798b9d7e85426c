"""Dice combat: General 8-9, ruling R6, and the heal-on-victory rules (Footman 4,
Warrior 3, Squire 4), with forced dice and exact numbers."""

from __future__ import annotations

from gc_helpers import act, code_at, piece_at, with_royals


def warrior_against(defender: str, **options: object) -> object:
    state = with_royals({"e4": "W", "e5": defender}, to_move=("white", "queen"), **options)
    act(state, "let queen")
    return state


def test_general_9_attacker_adds_a_die_loser_loses_difference_winner_takes_square() -> None:
    """Warrior 2d6 + 1d6 = 3+3+3 = 9 against a footman's 1d6 = 5: the footman loses
    4 of its 4 hit points, is captured, and the warrior takes e5."""
    state = warrior_against("f")
    events = act(state, "queen: W e4xe5", dice=[3, 3, 3, 5])
    assert any("3+3+3=9 against 5=5" in e for e in events)
    assert code_at(state, "e5") == "W@6" and code_at(state, "e4") == "."
    assert state.pos.lost["black"] == ["F"]


def test_general_9_defender_wins_ties() -> None:
    """6 against 6: the defender wins, the attacker loses nothing and stays."""
    state = warrior_against("f")
    act(state, "queen: W e4xe5", dice=[2, 2, 2, 6])
    assert code_at(state, "e4") == "W@6" and code_at(state, "e5") == "f@4"


def test_r6_a_surviving_loser_stays_and_damage_persists() -> None:
    """12 against 3: the scout loses 9 of 12, survives with 3; nobody moves."""
    state = warrior_against("s")
    events = act(state, "queen: W e4xe5", dice=[4, 4, 4, 1, 1, 1])
    assert code_at(state, "e4") == "W@6" and code_at(state, "e5") == "s@3"
    assert any("survives with 3 hit points" in e for e in events)
    act(state, state.legal_actions(state.awaiting()[0])[0].__str__())
    assert code_at(state, "e5").endswith("@3")


def test_general_9_attacker_reduced_to_zero_is_captured() -> None:
    """A 2-hit-point warrior rolls 3 against 6: it loses 3 and is captured; the
    footman that won is fully healed (Footman 4)."""
    state = warrior_against("f@1")
    piece_at(state, "e4").hp = 2  # type: ignore[union-attr]
    act(state, "queen: W e4xe5", dice=[1, 1, 1, 6])
    assert code_at(state, "e4") == "." and code_at(state, "e5") == "f@4"
    assert state.pos.lost["white"] == ["W"]


def test_r6_option_fight_to_the_fall_rolls_until_one_falls() -> None:
    """Exchanges 12-3 (scout to 3), 3-6 (warrior to 3), 18-3 (scout falls); the
    warrior wins and is fully healed (Warrior 3)."""
    state = warrior_against("s", fight_to_the_fall=True)
    act(state, "queen: W e4xe5", dice=[4, 4, 4, 1, 1, 1, 1, 1, 1, 2, 2, 2, 6, 6, 6, 1, 1, 1])
    assert code_at(state, "e5") == "W@6" and code_at(state, "e4") == "."


def test_warrior_3_returns_fully_healed_after_victory() -> None:
    state = warrior_against("f")
    piece_at(state, "e4").hp = 2  # type: ignore[union-attr]
    act(state, "queen: W e4xe5", dice=[6, 6, 6, 1])
    assert code_at(state, "e5") == "W@6"


def test_squire_4_heals_on_victory_and_attacks_diagonally() -> None:
    state = with_royals({"d4": "SQ@1", "e5": "f"}, to_move=("white", "kings-knight"))
    act(state, "let kings-knight")
    act(state, "kings-knight: SQ d4xe5", dice=[6, 6, 1])
    assert code_at(state, "e5") == "SQ@2"


def test_champion_2_fights_with_4d6_and_is_not_healed_by_victory() -> None:
    """Champion 4d6 + 1d6 against a warrior's 2d6; he keeps his wounds."""
    state = with_royals({"e5": "C@5", "h5": "w"}, to_move=("white", "queen"))
    act(state, "let queen")
    act(state, "queen: C e5xh5", dice=[6, 6, 6, 6, 6, 1, 1])
    assert code_at(state, "h5") == "C@5"


def test_mounted_knight_2_black_knight_2_kings_knight_2_scout_2_dice_and_hit_points() -> None:
    """Each piece rolls its own dice: MK 3d6, BK 4d6, KK 4d6, scout 3d6; the forced
    dice are used up exactly, and hit points start at 16, 20, 20, 12."""
    state = with_royals({"e4": "MK", "f6": "bk"})
    act(state, "king: MK e4xf6", dice=[1, 1, 1, 1, 6, 6, 6, 6])
    assert code_at(state, "e4") == "."  # 3+1 dice = 4 against 24: loses 20 > 16
    assert code_at(state, "f6") == "bk@20"
    state = with_royals({"e4": "S", "g6": "kk@20"}, to_move=("white", "black-knight"))
    act(state, "let black-knight")
    act(state, "black-knight: S e4xg6", dice=[1, 1, 1, 1, 1, 1, 1, 1])
    assert code_at(state, "e4") == "S@12" and code_at(state, "g6") == "kk@20"


def test_footman_2_warrior_2_squire_2_hit_points() -> None:
    state = with_royals({"a3": "F", "b3": "W", "d3": "SQ"})
    assert [code_at(state, s) for s in ("a3", "b3", "d3")] == ["F@4", "W@6", "SQ@2"]


def test_footman_4_returns_fully_healed_after_victory_attacking_or_defending() -> None:
    """A 1-hit-point footman attacks a warrior: 1d6 + 1d6 = 6+6 = 12 against 1+1 = 2;
    the warrior (6) falls, the footman takes e5 with its 4 hit points back. A hurt
    footman that beats off an attack (2+2+2 = 6 against 6, a tie) is healed too."""
    state = with_royals({"d4": "F@1", "e5": "w"})
    act(state, "king: F d4xe5", dice=[6, 6, 1, 1])
    assert code_at(state, "e5") == "F@4" and code_at(state, "d4") == "."
    state = with_royals({"e4": "W", "e5": "f@1"}, to_move=("white", "queen"))
    act(state, "let queen")
    act(state, "queen: W e4xe5", dice=[2, 2, 2, 6])
    assert code_at(state, "e5") == "f@4" and code_at(state, "e4") == "W@6"
