"""The conformance suite's own checks must catch what they are for."""

from __future__ import annotations

from typing import Any

from contract import copy_reaches, leaks, mutate_deeply, twin_differences
from gladiatorium.core import Action, Copying, Seat, State, get_game
from gladiatorium.games.pig import Pig, PigOptions, PigState
from gladiatorium.games.pig.game import Roll


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


class OrderedPigState(PigState):
    """Pig with a secret coin per seat that wrongly orders the legal actions, and a
    view that hands out its own list of banked points."""

    def __init__(self, options: PigOptions, players: int, seed: int) -> None:
        super().__init__(options, players, seed)
        self.coin = {s: self.rng.d(2) for s in self.seats}
        self.shared = {"banked": [0]}

    def legal_actions(self, seat: Seat) -> list[Action]:
        actions = super().legal_actions(seat)
        return actions[::-1] if self.coin["2"] == 2 else actions

    def view(self, seat: Seat | None) -> dict[str, Any]:
        return {**super().view(seat), "shared": self.shared}


class OrderedPig(Pig):
    def new_state(self, options: PigOptions, players: int, seed: int) -> OrderedPigState:
        return OrderedPigState(options, players, seed)

    def secret_twin(self, state: State[PigOptions], seat: Seat | None) -> OrderedPigState | None:
        assert isinstance(state, OrderedPigState)
        if seat == "2":
            return None
        twin = state.clone()
        twin.coin["2"] = 3 - state.coin["2"]
        return twin


def test_twin_check_finds_legal_actions_ordered_by_a_secret() -> None:
    game = OrderedPig()
    state = game.start()
    state.rng.force([3])  # a roll of 3: roll and hold are both legal now
    state.apply("1", Roll())
    twin = game.secret_twin(state, "1")
    assert twin is not None
    assert "seat 1: its legal differs" in twin_differences(game, state, twin, "1")


def test_fresh_view_check_finds_a_shared_list() -> None:
    state = OrderedPig().start()
    before = state.view("1")["shared"]["banked"][:]
    mutate_deeply(state.view("1"))
    assert state.view("2")["shared"]["banked"] != before


class SharingPigState(PigState):
    """Pig whose copies share the banked points, which a hold changes in place."""

    COPYING = Copying(shared=("turn_total", "to_move", "banked"))


class SharingPig(Pig):
    def new_state(self, options: PigOptions, players: int, seed: int) -> SharingPigState:
        return SharingPigState(options, players, seed)


class UndeclaredPigState(PigState):
    """Pig with a field its copies are not told how to take."""

    def __init__(self, options: PigOptions, players: int, seed: int) -> None:
        super().__init__(options, players, seed)
        self.notes: list[str] = []


class UndeclaredPig(Pig):
    def new_state(self, options: PigOptions, players: int, seed: int) -> UndeclaredPigState:
        return UndeclaredPigState(options, players, seed)


def test_copy_check_finds_a_field_shared_both_ways() -> None:
    found = copy_reaches(SharingPig(), 3, samples=40)
    assert any(f.endswith("a move on the copy shows in the original") for f in found)
    assert any(f.endswith("the original's later moves show in its copy") for f in found)


def test_copy_check_finds_an_undeclared_field() -> None:
    found = copy_reaches(UndeclaredPig(), 3)
    assert found
    assert all(f.endswith("notes is not in COPYING") for f in found)


def test_copy_check_passes_pig() -> None:
    assert copy_reaches(Pig(), 3, samples=40) == []
