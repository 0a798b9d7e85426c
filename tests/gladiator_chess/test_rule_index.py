"""The index of the rulebook's numbered rules and our rulings, each with the tests
that check it. A test counts for a rule only if its name names the rule
(``king_6_1``, ``queen_7_1_8``, ``r27``); renaming or deleting a test, or a rule
without a test, fails here."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from pathlib import Path

import pytest

RULE_TESTS: dict[str, tuple[str, ...]] = {
    "General 1": ("test_general_1_and_r1_board_is_12_files_by_10_ranks_with_symmetric_setup",),
    "General 2": ("test_general_2_eight_commander_seats_two_teams",),
    "General 3": ("test_general_3_4_and_r2_alternating_order_one_move_per_commander",),
    "General 4": ("test_general_3_4_and_r2_alternating_order_one_move_per_commander",),
    "General 5": (
        "test_general_5_king_8_king_cannot_override_his_own_move",
        "test_general_5_6_override_window_refusals_name_the_slot",
    ),
    "General 6": ("test_general_6_override_cannot_move_a_piece_twice",),
    "General 7": (
        "test_general_7_commander_with_no_move_is_overridden",
        "test_render_general_7_says_when_the_king_must_override",
        "test_general_7_when_the_king_must_override_the_refusal_says_so",
    ),
    "General 8": ("test_general_8_capture_is_by_dice_not_automatic",),
    "General 9": (
        "test_general_9_attacker_adds_a_die_loser_loses_difference_winner_takes_square",
        "test_general_9_defender_wins_ties",
        "test_general_9_attacker_reduced_to_zero_is_captured",
    ),
    "General 10": ("test_general_10_r26_three_ways_to_win_each_for_the_whole_team",),
    "King 1": ("test_king_1_moves_one_square",),
    "King 2": ("test_king_2_rolls_5d6_and_has_30_hit_points",),
    "King 3": (
        "test_king_3_any_piece_can_place_him_in_check",
        "test_king_3_kings_knight_3_no_piece_may_attack_a_protected_king",
    ),
    "King 4": ("test_king_4_commands_himself_the_mounted_knight_and_footmen",),
    "King 5": (
        "test_king_5_instantly_eliminates_an_enemy_without_dice_but_no_queen",
        "test_king_5_r3_eliminates_his_own_pieces_only_to_move_out_of_check",
    ),
    "King 6": (
        "test_r28_king_6_king_8_in_his_own_slot_only_his_own_pieces_may_answer_check",
        "test_r16_king_6_a_failed_answer_to_check_is_checkmate",
        "test_r16_king_6_an_answer_that_works_ends_the_check",
    ),
    "King 6.1": ("test_king_6_1_the_next_commander_must_move_the_king_out_of_check",),
    "King 6.2": ("test_king_6_2_the_king_overrides_to_move_himself_or_a_piece_out_of_check",),
    "King 6.3": ("test_king_6_3_checkmate_when_no_piece_can_save_him_having_moved_already",),
    "King 7": ("test_king_7_9_override_forfeits_the_commanders_move_only",),
    "King 8": (
        "test_general_5_king_8_king_cannot_override_his_own_move",
        "test_king_8_r3_option_king_slot_moves_any_moves_another_commanders_piece",
        "test_r28_king_6_king_8_in_his_own_slot_only_his_own_pieces_may_answer_check",
    ),
    "King 9": ("test_king_7_9_override_forfeits_the_commanders_move_only",),
    "King 10.1": (
        "test_king_10_1_without_his_knight_he_fights_and_may_be_attacked",
        "test_king_10_1_r18_only_the_king_in_question_changes_the_other_still_eliminates",
    ),
    "King 10.2": ("test_king_10_2_without_his_knight_he_cannot_be_checked_and_must_be_killed",),
    "King 11.1": (
        "test_king_11_1_while_his_queen_is_captive_the_king_moves_as_a_queen",
        "test_perft_captive_queen_king_11_1_moves_as_a_queen",
    ),
    "King 11.2": ("test_king_11_2_no_elimination_he_attacks_the_abductor_to_recover_her",),
    "King 11.3": ("test_king_11_3_while_his_queen_is_captive_he_can_be_attacked_but_not_checked",),
    "Mounted Knight 1": ("test_knights_leap_mounted_knight_1_black_knight_1_kings_knight_1",),
    "Mounted Knight 2": (
        "test_mounted_knight_2_black_knight_2_kings_knight_2_scout_2_dice_and_hit_points",
    ),
    "Footman 1": ("test_footman_1_steps_one_or_two_forward_all_game_and_attacks_diagonally",),
    "Footman 2": ("test_footman_2_warrior_2_squire_2_hit_points",),
    "Footman 3": (
        "test_footman_3_promotes_to_a_captured_warrior_or_scout_kings_choice",
        "test_footman_3_a_promotion_must_name_what_returns",
    ),
    "Footman 4": ("test_footman_4_returns_fully_healed_after_victory_attacking_or_defending",),
    "Queen 1": ("test_queen_1_moves_as_a_chess_queen",),
    "Queen 2": (
        "test_queen_2_3_she_freezes_a_piece_onto_the_tally_and_releases_it_on_leaving",
        "test_queen_2_a_frozen_commander_still_commands_his_minions",
        "test_queen_2_the_queen_square_is_not_a_target_for_a_warrior",
    ),
    "Queen 3": (
        "test_queen_3_she_freezes_any_piece_but_a_protected_king",
        "test_r15_queen_3_a_queen_freezes_the_other_queen",
    ),
    "Queen 4": ("test_queen_4_an_exposed_king_can_be_frozen_and_still_commands",),
    "Queen 5": (
        "test_queen_5_r13_only_black_knight_scout_or_exposed_king_take_her_without_dice",
        "test_queen_5_a_protected_king_cannot_take_her_an_exposed_one_can",
    ),
    "Queen 6": ("test_queen_6_r14_held_for_five_turns_the_captors_win",),
    "Queen 7.1": ("test_queen_7_1_8_r11_scout_4_killing_the_abductor_frees_her_beside_her_king",),
    "Queen 7.2": ("test_queen_7_2_taking_the_enemy_queen_swaps_the_queens",),
    "Queen 7.3": ("test_queen_7_3_killing_the_king_ends_the_game_while_she_is_held",),
    "Queen 8": ("test_queen_7_1_8_r11_scout_4_killing_the_abductor_frees_her_beside_her_king",),
    "Queen 9": ("test_queen_9_r25_taken_while_freezing_the_frozen_piece_goes_to_its_back_row",),
    "Queen 10": ("test_queen_10_a_bonus_die_against_the_piece_she_froze",),
    "Queen 11": (
        "test_queen_11_the_victor_holds_the_square_and_the_queen_goes_to_her_king",
        "test_queen_11_the_frozen_piece_wins_and_holds_the_square",
        "test_queen_11_and_r23_a_surviving_loser_leaves_the_freeze_in_place",
    ),
    "Queen 12": ("test_queen_12_she_commands_herself_her_champion_and_her_warriors",),
    "Queen 13": ("test_queen_13_r7_she_heals_adjacent_friends_at_the_start_of_her_slot",),
    "Champion 1": ("test_champion_1_moves_three_or_five_with_one_turn",),
    "Champion 2": ("test_champion_2_fights_with_4d6_and_is_not_healed_by_victory",),
    "Champion 3": ("test_champion_3_r24_the_bot_takes_its_queen_out_of_reach_of_queen_takers",),
    "Warrior 1": ("test_warrior_1_moves_as_a_rook_blocked_as_in_chess",),
    "Warrior 2": ("test_footman_2_warrior_2_squire_2_hit_points",),
    "Warrior 3": ("test_warrior_3_returns_fully_healed_after_victory",),
    "Black Knight 1": ("test_knights_leap_mounted_knight_1_black_knight_1_kings_knight_1",),
    "Black Knight 2": (
        "test_mounted_knight_2_black_knight_2_kings_knight_2_scout_2_dice_and_hit_points",
    ),
    "Black Knight 3": ("test_bot_r24_black_knight_3_overrides_to_take_the_enemy_queen",),
    "Black Knight 4": ("test_black_knight_4_scout_3_kings_knight_4_each_commands_his_own",),
    "Scout 1": (
        "test_scout_1_moves_as_a_bishop",
        "test_scout_1_the_two_scouts_stand_on_different_colours",
    ),
    "Scout 2": ("test_mounted_knight_2_black_knight_2_kings_knight_2_scout_2_dice_and_hit_points",),
    "Scout 3": ("test_black_knight_4_scout_3_kings_knight_4_each_commands_his_own",),
    "Scout 4": ("test_queen_7_1_8_r11_scout_4_killing_the_abductor_frees_her_beside_her_king",),
    "King's Knight 1": ("test_knights_leap_mounted_knight_1_black_knight_1_kings_knight_1",),
    "King's Knight 2": (
        "test_mounted_knight_2_black_knight_2_kings_knight_2_scout_2_dice_and_hit_points",
    ),
    "King's Knight 3": ("test_king_3_kings_knight_3_no_piece_may_attack_a_protected_king",),
    "King's Knight 4": ("test_black_knight_4_scout_3_kings_knight_4_each_commands_his_own",),
    "Squire 1": ("test_squire_1_moves_as_a_pawn_two_only_from_its_start",),
    "Squire 2": ("test_footman_2_warrior_2_squire_2_hit_points",),
    "Squire 3": ("test_squire_3_promotes_to_any_captured_piece",),
    "Squire 4": ("test_squire_4_heals_on_victory_and_attacks_diagonally",),
    "R1": ("test_general_1_and_r1_board_is_12_files_by_10_ranks_with_symmetric_setup",),
    "R2": (
        "test_general_3_4_and_r2_alternating_order_one_move_per_commander",
        "test_r2_option_team_blocks_each_team_moves_four_times_in_a_row",
    ),
    "R3": (
        "test_r3_slot_passes_when_no_piece_can_move",
        "test_king_5_r3_eliminates_his_own_pieces_only_to_move_out_of_check",
        "test_king_8_r3_option_king_slot_moves_any_moves_another_commanders_piece",
    ),
    "R4": ("test_r4_champion_does_not_leap_unless_the_option_says_so",),
    "R5": ("test_r5_no_castling_no_en_passant_no_diagonal_step_onto_empty",),
    "R6": (
        "test_r6_a_surviving_loser_stays_and_damage_persists",
        "test_r6_option_fight_to_the_fall_rolls_until_one_falls",
    ),
    "R7": ("test_queen_13_r7_she_heals_adjacent_friends_at_the_start_of_her_slot",),
    "R8": (
        "test_r30_r8_taking_the_queen_is_refused_when_her_king_would_then_check_ours",
        "test_r8_a_pinned_piece_may_not_expose_its_king",
        "test_r8_protected_kings_never_stand_side_by_side",
        "test_r8_a_move_into_check_is_refused_with_the_reason",
    ),
    "R9": ("test_r9_a_queen_never_gives_check",),
    "R10": ("test_r10_a_protected_king_never_enters_his_own_queens_square",),
    "R11": ("test_queen_7_1_8_r11_scout_4_killing_the_abductor_frees_her_beside_her_king",),
    "R12": ("test_r12_footman_with_nothing_to_return_stays_a_footman",),
    "R13": ("test_queen_5_r13_only_black_knight_scout_or_exposed_king_take_her_without_dice",),
    "R14": ("test_queen_6_r14_held_for_five_turns_the_captors_win",),
    "R15": (
        "test_r15_queen_3_a_queen_freezes_the_other_queen",
        "test_r15_a_queen_holding_a_frozen_piece_cannot_be_frozen",
        "test_r15_option_no_queen_freezes_the_other_queen",
    ),
    "R16": (
        "test_r16_king_6_a_failed_answer_to_check_is_checkmate",
        "test_r16_king_6_an_answer_that_works_ends_the_check",
        "test_r16_an_attack_that_cannot_fell_the_checker_is_no_answer",
        "test_r16_option_as_if_won_any_attack_answers_and_the_next_slot_must_answer",
    ),
    "R17": ("test_r17_option_the_king_overrides_only_a_commander_without_a_move",),
    "R18": ("test_king_10_1_r18_only_the_king_in_question_changes_the_other_still_eliminates",),
    "R19": ("test_r19_a_kings_knight_returned_by_promotion_protects_the_king_again",),
    "R20": ("test_r20_the_game_is_drawn_at_the_turn_limit",),
    "R21": ("test_r21_the_winner_of_an_exchange_heals_even_if_the_loser_survives",),
    "R22": ("test_r22_a_frozen_king_protected_again_cannot_be_attacked",),
    "R23": ("test_queen_11_and_r23_a_surviving_loser_leaves_the_freeze_in_place",),
    "R24": (
        "test_bot_r24_black_knight_3_overrides_to_take_the_enemy_queen",
        "test_champion_3_r24_the_bot_takes_its_queen_out_of_reach_of_queen_takers",
    ),
    "R25": ("test_queen_9_r25_taken_while_freezing_the_frozen_piece_goes_to_its_back_row",),
    "R26": ("test_general_10_r26_three_ways_to_win_each_for_the_whole_team",),
    "R27": ("test_r27_check_is_judged_before_the_freed_queen_is_placed",),
    "R28": (
        "test_r28_king_6_king_8_in_his_own_slot_only_his_own_pieces_may_answer_check",
        "test_r28_option_king_slot_moves_any_answers_check_with_any_piece",
    ),
    "R29": (
        "test_render_r29_shows_hit_points_frozen_captives_and_whose_command",
        "test_render_r29_marks_a_queen_holding_a_frozen_piece",
    ),
    "R30": ("test_r30_r8_taking_the_queen_is_refused_when_her_king_would_then_check_ours",),
}

#: every numbered rule of the rulebook (sections and their rule counts; sub-rules)
SECTIONS = {
    "General": 10,
    "King": 11,
    "Mounted Knight": 2,
    "Footman": 4,
    "Queen": 13,
    "Champion": 3,
    "Warrior": 3,
    "Black Knight": 4,
    "Scout": 4,
    "King's Knight": 4,
    "Squire": 4,
}
SUB_RULES = {"King 6": 3, "King 10": 2, "King 11": 3, "Queen 7": 3}
RULINGS = 30


def numbered_rules() -> list[str]:
    rules = []
    for section, count in SECTIONS.items():
        for n in range(1, count + 1):
            rule = f"{section} {n}"
            subs = SUB_RULES.get(rule, 0)
            if rule == "King 6":
                rules.append(rule)  # King 6 itself says more than its three cases
            rules.extend([f"{rule}.{s}" for s in range(1, subs + 1)] or [rule])
    return rules + [f"R{n}" for n in range(1, RULINGS + 1)]


def all_tests() -> dict[str, Callable[..., object]]:
    found: dict[str, Callable[..., object]] = {}
    for path in sorted(Path(__file__).parent.glob("test_*.py")):
        module = importlib.import_module(path.stem)
        for name in dir(module):
            if name.startswith("test_"):
                found[name] = getattr(module, name)
    return found


def names_rule(test_name: str, rule: str) -> bool:
    """``king_6_1`` names King 6.1; ``general_3_4`` names General 4; ``r27`` R27."""
    *words, number = rule.lower().replace("'", "").split()
    section = "_".join(words) + "_" if words else ""
    number = number.replace(".", "_")
    return (
        re.search(rf"(^|_){section}(\d+_)*{number}(_|$)", test_name.removeprefix("test_"))
        is not None
    )


def test_every_numbered_rule_and_ruling_has_a_test() -> None:
    missing = [rule for rule in numbered_rules() if not RULE_TESTS.get(rule)]
    assert missing == []
    assert set(RULE_TESTS) == set(numbered_rules())


@pytest.mark.parametrize("rule", sorted(RULE_TESTS))
def test_the_tests_of_each_rule_exist_and_name_it(rule: str) -> None:
    tests = all_tests()
    for name in RULE_TESTS[rule]:
        assert name in tests, f"{rule}: no test {name}"
        assert names_rule(name, rule), f"{rule}: {name} does not name the rule"
