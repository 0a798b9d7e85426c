"""The greedy bot's last choice in each situation object (found without hashing the
situation) recalls what its kept choices by situation do: seeded duels play the same
with it and without it."""

from __future__ import annotations

import pytest

from contract import played_digest
from gladiatorium.games.superhero_gladiators import SuperheroGladiators, bots
from gladiatorium.games.superhero_gladiators.commands.duel import duel_options

GAME = SuperheroGladiators()
PAIRS = (["cowboy", "barbarian"], ["perseus", "wizard-of-the-wild-hair-cult"])


def digests() -> list[tuple[int, str, str]]:
    """Each pair's duels of seeds 0-11, twice: the second time from what was kept."""
    found = []
    for _ in range(2):
        for heroes in PAIRS:
            options = GAME.make_options(duel_options(heroes, [], None))
            for seed in range(12):
                found.append(played_digest(GAME, GAME.start(options, 2, seed), "greedy", seed))
    return found


def test_duels_play_the_same_with_and_without_the_last_choices(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with_last = digests()
    assert bots._LAST  # the turns met again were recalled from there
    monkeypatch.setattr(bots, "_LAST", {})
    monkeypatch.setattr(bots, "_remember", lambda *args: None)
    assert digests() == with_last
    assert not bots._LAST
