"""The web controls say why a vehicle lacks a step or the seat has no attack, in the
engine's own words (explain.why_not, attacks.no_attack_reason)."""

from __future__ import annotations

import re
from html import unescape

from eg_helpers import GAME, arena

from gladiatorium.games.electron_gladiators.state import ElectronGladiatorsState

FAR = "2 HT1 U21 N"


def reasons(state: ElectronGladiatorsState) -> list[str]:
    picture = GAME.web.picture(state, "1") or ""
    found = re.findall(r'class="eg-why[^"]*"[^>]*>(.*?)</(?:p|ul)>', picture)
    return [unescape(text) for text in found]


def test_a_scout_left_with_only_turn_180_says_why() -> None:
    state = arena(["1 SC K10 S", "2 LT A21 N", FAR], obstacles="J11 L11 K11 J10 L10 J9 K9 L9")
    state.act("1", "K10 turn l45")
    assert [str(a) for a in state.legal_actions("1")] == ["K10 turn 180"]
    assert reasons(state) == [
        "No attack now: no gun reaches an enemy.",
        "<li>the way is blocked: L11 is an obstacle</li>"
        "<li>the Scout cannot move in reverse</li>"
        "<li>a Scout's free 45/90-degree turns may not follow each other: drive first, "
        "or turn 180 (1 point)</li>",
    ]


def test_a_vehicle_that_moved_is_told_it_cannot_attack_a_scout() -> None:
    state = arena(["1 MT2 K10 S", "2 SC K14 N", FAR])
    assert reasons(state) == []  # the MT2 may fire at the Scout before it moves
    state.act("1", "K10 fwd 1")
    assert reasons(state) == [
        "No attack now: the MT2 on K11 reaches the SC on K14, but the MT2 moved this turn; "
        "only a vehicle that has not moved may attack a Scout/Mine Layer."
    ]


def test_a_fire_button_names_its_targets_type() -> None:
    state = arena(["1 MT2 K10 S", "2 SC K14 N", FAR])
    picture = GAME.web.picture(state, "1") or ""
    assert (
        'title="SC: Scout/Mine Layer: scout; speed 7, armour 0-0-0 (front-sides-rear), gun 1'
    ) in picture


def test_a_match_drawn_at_its_turn_limit_names_no_turn_past_it() -> None:
    """The limit's turn is played and the match drawn at its end: the picture's head says
    the match is over, not a turn after the limit (the view's turn has moved on)."""
    state = GAME.start({"max_turns": 1}, None, 3)
    while state.outcome() is None:
        seat = state.awaiting()[0]
        state.act(seat, str(state.legal_actions(seat)[-1]))
    assert state.view(None)["turn"] == 2
    head = re.search(r'<p class="pic-head">(.*?)</p>', GAME.web.picture(state, None) or "")
    assert head is not None and unescape(head.group(1)).endswith(
        ": the match is over; the final position"
    )
