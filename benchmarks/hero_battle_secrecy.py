"""Hero Battle: do the bots keep their secret? How often the inferrer's chart, read from
another player's seat, names a bot's hero, against chance.

Battles of ``--players`` players are played with the same bot in every seat. At the end
of rounds 2, 4 and 6, every active player reads the public record with the inferrer's
chart (``infer_identities``: heals, hits, abstention hits, sign-ups, its own guesses) and
names, for every other player still hidden, the hero it believes most likely theirs. A
naming is right when that is the player's hero; chance is one over the number of hidden
heroes the reader could pick from. The anchor in the same run is ``open-healer``, the
inferrer as it played before (it healed its own hero every round). Rates come with their
95% Wilson interval (namings within a Battle are not independent: read it as a guide).
A Battle is played until the last reading (round 6). ``--bots`` picks the bots (any of
the game's, or a generic one such as ``mcts``; the anchor always plays first).

    nice .venv/bin/python benchmarks/hero_battle_secrecy.py --games 40
    nice .venv/bin/python benchmarks/hero_battle_secrecy.py --games 6 --bots inferrer,mcts
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Any

from gladiatorium.core import Observation, Rng, Seat, derive_seed, get_bot
from gladiatorium.core.batches import wilson_interval
from gladiatorium.games import load
from gladiatorium.games.hero_battle import GAME
from gladiatorium.games.hero_battle.bots import BOTS, InferrerBot, healable, infer_identities
from gladiatorium.games.hero_battle.state import HeroBattleState

ROUNDS = (2, 4, 6)


class OpenHealer(InferrerBot):
    """The inferrer as it played before: it healed its own hero every round."""

    def heal_order(self, view: dict[str, Any], me: str, nemeses: list[str]) -> list[str]:
        others = [h for h in self.shuffled(healable(view)) if h != me and h not in nemeses]
        return [me, *others]


FACTORIES: dict[str, Any] = {"open-healer": OpenHealer, **BOTS}


@dataclass
class Tally:
    namings: int = 0
    right: int = 0
    chance: float = 0.0

    def add(self, right: bool, candidates: int) -> None:
        self.namings += 1
        self.right += right
        self.chance += 1 / candidates


def read_round(state: HeroBattleState, tally: Tally) -> None:
    """Every active player names every other hidden player's hero from the record."""
    for reader in state.active_players():
        view = state.view(reader)
        chart = infer_identities(view, reader)
        for player, row in chart.items():
            if player not in state.player_seats or not row:
                continue
            named = max(sorted(row), key=lambda hero: row[hero])
            truth = {h.name for h in state.heroes_of(player)}
            tally.add(named in truth, sum(p > 1e-9 for p in row.values()))


def battle(bot: str, players: int, seed: int, tally: Tally) -> None:
    state = GAME.start(None, players, seed)
    assert isinstance(state, HeroBattleState)
    factory = FACTORIES[bot] if bot in FACTORIES else get_bot(GAME, bot)
    bots = {s: factory(Rng(derive_seed(seed, "bot", s))) for s in state.seats}
    read = set()
    while state.awaiting() and len(read) < len(ROUNDS):
        seat: Seat = state.awaiting()[0]
        state.apply(seat, bots[seat].choose(Observation(GAME, state, seat)))
        finished = state.round - 1
        if finished in ROUNDS and finished not in read and not state.is_over:
            read.add(finished)
            read_round(state, tally)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="Battles per bot")
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", help="comma-separated (default: the game's bots)")
    args = parser.parse_args()
    names = ["open-healer"] + [b for b in (args.bots or "").split(",") if b and b != "open-healer"]
    load()
    print("| bot | namings | named right | chance | right / chance | seconds |")
    print("|---|---|---|---|---|---|")
    for bot in names if args.bots else FACTORIES:
        tally = Tally()
        start = time.perf_counter()
        for index in range(args.games):
            battle(bot, args.players, derive_seed(args.seed, "secrecy", bot, index), tally)
        low, high = wilson_interval(tally.right, tally.namings)
        rate, chance = tally.right / tally.namings, tally.chance / tally.namings
        print(
            f"| {bot} | {tally.namings} | {rate:.1%} [{low:.1%}, {high:.1%}] "
            f"| {chance:.1%} | {rate / chance:.2f} | {time.perf_counter() - start:.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
