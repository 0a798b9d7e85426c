"""Hero Battle bots. Each reads only its seat's view (the public record plus its own
secrets); the observation's world is used only as a safety net for the move it built
(``illegal_reason``). The world's identities and nemeses are invented
(``sampling.py``), so there is nothing true to read there; the conformance suite checks
that swapping two other players' identities never changes a bot's choice.

- ``inferrer``: hunts its nemeses and infers secret identities from the public record
  of hits, heals and abstentions; calls a hero out when 95% confident.
- ``hunter``: hits its nemeses first; never guesses.
Both keep their secret: a heal goes to a random hero among those they do not hunt, their
own among them at the same rate as any other, whatever its HP, so that the heals, the
record everyone reads, say nothing of who they are (benchmarks/hero_battle_secrecy.py).
Once their identity is public (outed, or one of the last standing) there is nothing left
to keep: they heal their own hero.
- ``random-move``: a random valid move every round; never guesses.
On the moderator's seat every bot just closes the round when asked (the deadline).
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from gladiatorium.core import Action, BotFactory, Observation, Rng, Seat
from gladiatorium.games.hero_battle.actions import (
    MODERATOR,
    RANDOM_PLAYER,
    Abstain,
    Close,
    Guess,
    Move,
)
from gladiatorium.games.hero_battle.setup import canonical

#: a player is believed to heal their own hero this much more often than another's
HEAL_WEIGHT = 1.0
#: and to hit their own hero this much less often (log scale)
HIT_WEIGHT = -1.5
#: the inferrer calls out a hero when it believes the owner with this probability
CONFIDENCE = 0.95


def hittable(view: dict[str, Any]) -> list[str]:
    return [h for h, info in view["heroes"].items() if info["status"] in ("alive", "zombie")]


def healable(view: dict[str, Any]) -> list[str]:
    return [h for h, info in view["heroes"].items() if info["status"] == "alive"]


def build_move(view: dict[str, Any], hit_order: list[str], heal_order: list[str]) -> Move | None:
    """The first hits and heals of the preference lists that make a valid move shape."""
    need = view["you"]["need"]
    if need is None:
        return None
    zombies = {h for h, i in view["heroes"].items() if i["status"] == "zombie"}
    hits: list[str] = []
    for name in hit_order:
        if len(hits) == need["hits"]:
            break
        if name not in hits:
            hits.append(name)
            if (view["double_up"] or name in zombies) and len(hits) < need["hits"]:
                hits.append(name)
    heals = [h for h in heal_order if h not in hits][: need["heals"]]
    if len(hits) != need["hits"] or len(heals) != need["heals"]:
        return None
    # written as the legal moves are (canonical order), so a search finds it among them
    return Move(tuple(canonical(hits)), tuple(canonical(heals)))


class HeroBattleBot:
    """Shared plumbing: moderator duty, guesses first, a safe fallback."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, observation: Observation) -> Action:
        state, seat = observation.world(), observation.seat
        if seat == MODERATOR:
            return Close()
        view = state.view(seat)
        you = view["you"]
        if not you["move"] and not you["guesses"]:
            guess = self.guess(view, seat)
            if guess is not None and state.illegal_reason(seat, guess) is None:
                return guess
        move = self.move(view, seat)
        if move is not None and state.illegal_reason(seat, move) is None:
            return move
        return Abstain()

    def guess(self, view: dict[str, Any], seat: Seat) -> Guess | None:
        return None

    def move(self, view: dict[str, Any], seat: Seat) -> Move | None:
        raise NotImplementedError

    def shuffled(self, items: list[str]) -> list[str]:
        out = list(items)
        self.rng.shuffle(out)
        return out


class RandomMoveBot(HeroBattleBot):
    """A random valid move each round (hits and heal on random heroes)."""

    def move(self, view: dict[str, Any], seat: Seat) -> Move | None:
        targets = self.shuffled(hittable(view))
        view = {**view, "double_up": False}
        return build_move(view, targets, self.shuffled(healable(view)))


class HunterBot(HeroBattleBot):
    """Nemeses first (weakest first), then the strongest other hero; heals a random
    hero that is neither a nemesis nor a target, its own no more often than another."""

    def move(self, view: dict[str, Any], seat: Seat) -> Move | None:
        heroes = view["heroes"]
        mine = set(view["you"]["heroes"])
        living_mine = [h for h in view["you"]["heroes"] if heroes[h]["status"] == "alive"]
        me = min(living_mine, key=lambda h: heroes[h]["hp"]) if living_mine else view["you"]["hero"]
        alive = [h for h in hittable(view) if h not in mine]
        nemeses = sorted(
            (h for h in view["you"]["nemeses"] if h in alive), key=lambda h: heroes[h]["hp"]
        )
        others = sorted((h for h in alive if h not in nemeses), key=lambda h: -heroes[h]["hp"])
        hits = nemeses + self.tiebreak(others, heroes)
        heals = self.heal_order(view, me, nemeses)
        return build_move(view, hits, heals)

    def tiebreak(self, others: list[str], heroes: dict[str, Any]) -> list[str]:
        """Strongest first, random among equals."""
        shuffled = self.shuffled(others)
        return sorted(shuffled, key=lambda h: -heroes[h]["hp"])

    def heal_order(self, view: dict[str, Any], me: str, nemeses: list[str]) -> list[str]:
        """Its own heroes whose identity is public first, weakest first: healing them
        gives nothing away. Then every other healable hero but the nemeses, in random
        order, its own hidden ones included: a heal that favoured a hidden hero of its
        own (when low, or always) would name it."""
        heroes = view["heroes"]
        public = sorted(
            (h for h in view["you"]["heroes"] if heroes[h]["revealed"] and h in healable(view)),
            key=lambda h: heroes[h]["hp"],
        )
        rest = [h for h in self.shuffled(healable(view)) if h not in nemeses and h not in public]
        return public + rest


class InferrerBot(HunterBot):
    """A hunter that keeps a chart: who healed and hit whom, abstention hits, sign-ups
    and its own guess results, turned into beliefs about every hidden identity."""

    def guess(self, view: dict[str, Any], seat: Seat) -> Guess | None:
        beliefs = infer_identities(view, seat)
        best: tuple[float, str, str] | None = None
        for player, row in beliefs.items():
            for hero, p in row.items():
                if best is None or p > best[0]:
                    best = (p, hero, player)
        if best is None or best[0] < CONFIDENCE:
            return None
        return Guess(best[1], best[2])


def infer_identities(view: dict[str, Any], seat: Seat) -> dict[str, dict[str, float]]:
    """P(player owns hero) for every hidden hero and every player still hidden, from the
    public record: heals on a hero raise the chance it is the healer's, hits lower it,
    an abstention hit or a sign-up rules it out, and so do this seat's wrong guesses.
    The evidence matrix is balanced by Sinkhorn scaling: each hidden hero has one owner,
    each player owns as many hidden heroes as they have heroes not yet revealed."""
    mine = set(view["you"]["heroes"])
    each = len(mine)
    hidden = [h for h, i in view["heroes"].items() if not i["revealed"] and h not in mine]
    shown = Counter(view["identities"].values())
    owners = [s for s in view["players"] if s != seat]
    if view.get("random_player"):
        owners.append(RANDOM_PLAYER)
    share = {p: (1 if p == RANDOM_PLAYER else each) - shown[p] for p in owners}
    players = [p for p in owners if share[p] > 0]
    if not hidden or sum(share[p] for p in players) != len(hidden):
        return {}
    score = {p: dict.fromkeys(hidden, 0.0) for p in players}
    for player in players:
        signup = view["players"].get(player, {}).get("signup")
        if signup in score[player]:
            score[player][signup] = -math.inf
    for report in view["reports"]:
        _read_report(report, score)
    for result in view["you"]["guess_results"]:
        if not result["correct"] and result["player"] in score:
            score[result["player"]][result["hero"]] = -math.inf
    return sinkhorn(score, hidden, {p: float(share[p]) for p in players})


def _read_report(report: dict[str, Any], score: dict[str, dict[str, float]]) -> None:
    for player, move in report["moves"].items():
        row = score.get(player)
        if row is None:
            continue
        for hero in move.get("heals", []):
            if hero in row:
                row[hero] += HEAL_WEIGHT
        for hero in move.get("hits", []):
            if hero in row:
                row[hero] += HIT_WEIGHT
        hit = move.get("random_hit")
        if hit in row:
            row[hit] = -math.inf
    rp_hit = report.get("random_player_hit")
    if rp_hit and RANDOM_PLAYER in score and rp_hit in score[RANDOM_PLAYER]:
        score[RANDOM_PLAYER][rp_hit] = -math.inf


def sinkhorn(
    score: dict[str, dict[str, float]],
    heroes: list[str],
    rows: dict[str, float],
    rounds: int = 30,
) -> dict[str, dict[str, float]]:
    """Scale exp(score) until each player's row sums to ``rows`` (heroes they hold) and
    every hero's column to 1; a cell is then P(player owns hero)."""
    weight = {p: {h: math.exp(min(v, 50.0)) for h, v in row.items()} for p, row in score.items()}
    for _ in range(rounds):
        for player, row in weight.items():
            total = sum(row.values())
            if total > 0:
                for h in row:
                    row[h] *= rows[player] / total
        for h in heroes:
            total = sum(row[h] for row in weight.values())
            if total > 0:
                for row in weight.values():
                    row[h] /= total
    return weight


BOTS: dict[str, BotFactory] = {
    "inferrer": InferrerBot,
    "hunter": HunterBot,
    "random-move": RandomMoveBot,
}
