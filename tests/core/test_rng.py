"""The seeded RNG: same seed, same dice on every machine; forced dice for scenarios."""

import copy
import pickle
import random

import pytest

from gladiatorium.core import ForcedDiceExhausted, Rng, derive_seed


def test_same_seed_same_rolls() -> None:
    assert Rng(42).roll(10, 20) == Rng(42).roll(10, 20)


def test_known_sequence_is_stable_across_machines() -> None:
    # Python's Mersenne Twister with an int seed is specified; pin it.
    assert Rng(1).roll(5, 6) == [2, 5, 1, 3, 1]


def test_forced_values_come_in_order_then_stop() -> None:
    rng = Rng.forced([3, 20, 1])
    assert [rng.d(6), rng.d(20), rng.d(20)] == [3, 20, 1]
    with pytest.raises(ForcedDiceExhausted, match="no forced value"):
        rng.d(6)


def test_forced_value_out_of_range_is_refused() -> None:
    with pytest.raises(ForcedDiceExhausted, match=r"outside 1\.\.6"):
        Rng.forced([7]).d(6)


def test_choice_and_shuffle_draw_through_forced_values() -> None:
    rng = Rng.forced([2, 0])
    assert rng.choice(["a", "b", "c"]) == "c"
    items = ["x", "y"]
    rng.shuffle(items)
    assert items == ["y", "x"]


def test_derived_seeds_differ_and_repeat() -> None:
    assert derive_seed(1, "bot", "1") == derive_seed(1, "bot", "1")
    assert derive_seed(1, "bot", "1") != derive_seed(1, "bot", "2")
    assert Rng(5).spawn("x").seed == Rng(5).spawn("x").seed


def test_a_copy_goes_on_with_the_same_stream_apart_from_the_original() -> None:
    rng = Rng(5)
    rng.d(6)
    twin = copy.deepcopy(rng)
    assert [twin.d(100) for _ in range(30)] == [rng.d(100) for _ in range(30)]
    forced = Rng.forced([3, 4])
    kept = copy.deepcopy(forced)
    assert forced.d(6) == 3 and kept.forced_left == 2 and kept.d(6) == 3


@pytest.mark.parametrize(
    "low, high", [(0, 0), (1, 6), (0, 1), (1, 20), (0, 99), (0, 2**62), (-3, 3)]
)
def test_draws_are_the_standard_librarys_randint(low: int, high: int) -> None:
    """Seeded draws stay those of ``random.Random.randint`` (records and seeds depend
    on them), drawn without its layers of checks."""
    for seed in (0, 1, 7, 2**40 + 3):
        ours, theirs = Rng(seed), random.Random(seed)
        assert [ours.randint(low, high) for _ in range(300)] == [
            theirs.randint(low, high) for _ in range(300)
        ]
    with pytest.raises(ValueError):
        Rng(0).randint(2, 1)


def _draws(rng: Rng, ranges: list[tuple[int, int]]) -> list[int]:
    return [rng.randint(low, high) for low, high in ranges]


def test_a_remembered_stream_draws_as_a_plain_one_however_it_is_read() -> None:
    """Streams from the same seeds, read with the same ranges, other ranges, past the
    draws remembered, copied midway or asked for the generator's state, all draw what
    ``Rng(seed)`` draws."""
    from gladiatorium.core import rng as module

    module._REMEMBERED.empty()
    plan = Rng(5)
    for round_ in range(60):
        seed = plan.randint(0, 3)  # a few seeds, over and over
        ranges = [(0, 2**62)] + [
            (1, plan.choice([6, 20, 1000])) for _ in range(plan.randint(0, 24))
        ]
        remembered = Rng.remembered(seed)
        if round_ % 7 == 3:  # midway: a copy goes on as a plain stream
            half = len(ranges) // 2
            fresh = Rng(seed)
            assert _draws(remembered, ranges[:half]) == _draws(fresh, ranges[:half])
            twin = copy.deepcopy(remembered)
            assert type(twin) is Rng
            rest = ranges[half:]
            assert _draws(twin, rest) == _draws(remembered, rest) == _draws(fresh, rest)
            drawn = _draws(Rng.remembered(seed), ranges)
        elif round_ % 7 == 5:  # the generator's state, asked for midway
            _draws(remembered, ranges[:3])
            fresh = Rng(seed)
            _draws(fresh, ranges[:3])
            assert remembered.generator().getstate() == fresh.generator().getstate()
            drawn = _draws(Rng.remembered(seed), ranges)
        else:
            drawn = _draws(remembered, ranges)
        assert drawn == _draws(Rng(seed), ranges)
    assert len(module._REMEMBERED) == 4 and all(module._REMEMBERED.entries.values())


def test_a_remembered_stream_reads_its_draws_without_a_generator() -> None:
    first = Rng.remembered(123456)
    drawn = _draws(first, [(0, 2**62), (1, 1000), (1, 1000)])
    again = Rng.remembered(123456)
    assert _draws(again, [(0, 2**62), (1, 1000), (1, 1000)]) == drawn
    assert again._random is None and first._random is not None


def test_queued_values_come_first_then_the_seed_goes_on() -> None:
    rng = Rng(7)
    rng.queue([4, 2])
    assert rng.next_dice() == [4, 2]
    assert [rng.d(6), rng.d(6)] == [4, 2]
    assert rng.next_dice() == []
    assert rng.roll(3, 6) == Rng(7).roll(3, 6)


def test_queued_values_survive_a_copy_and_a_pickle() -> None:
    rng = Rng(3)
    rng.queue([5, 1])
    for twin in (copy.deepcopy(rng), pickle.loads(pickle.dumps(rng))):
        assert twin.next_dice() == [5, 1]
        assert twin.roll(4, 6) == [5, 1, *Rng(3).roll(2, 6)]


def test_forcing_after_queueing_stops_at_the_forced_values() -> None:
    rng = Rng(3)
    rng.queue([5])
    rng.force([2])
    assert rng.d(6) == 2
    with pytest.raises(ForcedDiceExhausted):
        rng.d(6)
