"""The greedy bot's last choice in each situation object (found without hashing the
situation) recalls what its kept choices by situation do: seeded duels play the same
with it and without it."""

from __future__ import annotations

from contract import played_digest
from gladiatorium.games.superhero_gladiators import SuperheroGladiators, bots
from gladiatorium.games.superhero_gladiators.commands.duel import duel_options

GAME = SuperheroGladiators()
PAIRS = (["cowboy", "barbarian"], ["perseus", "wizard-of-the-wild-hair-cult"])


def digests(forget_last: bool) -> list[tuple[int, str, str]]:
    """Each pair's duels of seeds 0-11, twice: the second time from what was kept.
    ``forget_last``: the last choices are forgotten after every action, so that none
    is recalled from there (the bot is compiled: its functions cannot be swapped)."""

    def forget(*_: object) -> None:
        bots._LAST.empty()

    found = []
    for _ in range(2):
        for heroes in PAIRS:
            options = GAME.make_options(duel_options(heroes, [], None))
            for seed in range(12):
                state = GAME.start(options, 2, seed)
                told = forget if forget_last else None
                found.append(played_digest(GAME, state, "greedy", seed, on_events=told))
    return found


def test_duels_play_the_same_with_and_without_the_last_choices() -> None:
    with_last = digests(forget_last=False)
    assert bots._LAST  # the turns met again were recalled from there
    assert digests(forget_last=True) == with_last
