"""The conformance suite's own checks must catch what they are for."""

from __future__ import annotations

from typing import Any

from contract import leaks
from gladiatorium.core import Seat, get_game
from gladiatorium.games.pig import Pig, PigOptions, PigState


class LeakyPigState(PigState):
    """Pig with a secret per seat that its view wrongly shows to everyone."""

    def secrets_for(self, seat: Seat | None) -> set[str]:
        return {f"secret-of-{s}" for s in self.seats if s != seat}

    def view(self, seat: Seat | None) -> dict[str, Any]:
        return {**super().view(seat), "secrets": [f"secret-of-{s}" for s in self.seats]}


class LeakyPig(Pig):
    def new_state(self, options: PigOptions, players: int, seed: int) -> LeakyPigState:
        return LeakyPigState(options, players, seed)


def test_leak_check_finds_a_leaking_view() -> None:
    game = LeakyPig()
    found = leaks(game, game.start())
    assert "seat 1: 'secret-of-2' in its view" in found
    assert any(f.startswith("seat None:") for f in found)


def test_leak_check_finds_a_leaking_event() -> None:
    game = get_game("pig")
    state = LeakyPig().start()
    state.emit("whisper", "secret-of-2 is here")  # public by mistake
    assert "seat 1: 'secret-of-2' in its events" in leaks(game, state)


def test_leak_check_passes_private_event_to_its_owner() -> None:
    state = LeakyPig().start()
    state.emit("whisper", "secret-of-2", to="2")
    found = leaks(get_game("pig"), state)
    assert not any("in its events" in f for f in found)
