"""The match page's picture shows each attack's chance to hit (the terminal's
``action_notes``) by the power and on each choice of target, only to the seat that acts."""

from __future__ import annotations

import html
import json
import re

from contract import random_walk
from gladiatorium.core import get_game
from gladiatorium.games.superhero_gladiators.actions import Attack


def test_each_attack_control_shows_its_chance_to_hit() -> None:
    game = get_game("superhero-gladiators")
    for seed in range(20):
        found = next(
            (
                (state, seat)
                for state, seat in random_walk(game, seed)
                if any(isinstance(a, Attack) for a in state.legal_actions(seat))
            ),
            None,
        )
        if found:
            break
    assert found is not None, "no attack in twenty random matches"
    state, seat = found
    notes = game.terminal.action_notes(state, seat)
    assert notes and all(re.fullmatch(r"\d+% to hit.*", n) for n in notes.values())
    picture = game.web.picture(state, seat)
    assert picture is not None
    shown = re.findall(r'<span class="odds">(.*?)</span></li>', picture)
    assert shown, "no chance shown by a power"
    labels: dict[str, str] = {}
    for raw in re.findall(r'data-labels="([^"]*)"', picture):
        labels.update(json.loads(html.unescape(raw)))
    assert labels == {a: f"{a}: {n}" for a, n in notes.items()}
    for action, note in notes.items():
        target = html.escape(action.rsplit(" with ", 1)[0])
        assert f"<span>{target}: {html.escape(note)}</span>" in picture
    watcher = game.web.picture(state, None)  # a spectator: no chances, nothing to click
    assert watcher is not None and "% to hit" not in watcher
