"""``run_match`` draws for a bot that draws uniformly from its legal actions (the random
bot) with the bot's own stream, as the bot would, without making an observation."""

from __future__ import annotations

import pytest

from contract import play_random
from gladiatorium.core import Observation, games, get_game
from gladiatorium.core.match import make_bots, run_match


@pytest.mark.parametrize("slug", [g.info.slug for g in games()])
def test_the_match_draws_what_the_random_bot_would_choose(
    slug: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = get_game(slug)
    asked = [play_random(game, seed) for seed in (3, 4)]

    def no_observation(*args: object, **kwargs: object) -> None:
        raise AssertionError("an observation was made for the random bot")

    monkeypatch.setattr(Observation, "__init__", no_observation)
    for seed, by_choose in zip((3, 4), asked, strict=True):
        state = game.start(None, None, seed)
        run_match(state, make_bots(game, seed, dict.fromkeys(state.seats, "random")), game=game)
        assert state.history == by_choose.history and len(state.history) > 1
        assert [e.to_json() for e in state.events] == [e.to_json() for e in by_choose.events]


def test_a_bot_that_does_not_say_so_is_handed_its_observation() -> None:
    game = get_game("pig")
    seen: list[Observation] = []

    class Watching:
        def __init__(self) -> None:
            self.bot = make_bots(game, 1, {"1": "random"})["1"]

        def choose(self, observation: Observation) -> object:
            seen.append(observation)
            return self.bot.choose(observation)

    state = game.start(None, 2, 1)
    watching = Watching()
    run_match(state, {"1": watching, "2": watching}, game=game)  # type: ignore[dict-item]
    assert len(seen) == len(state.history) > 1
