"""Compiling a round, in the rulebook's Order of Damage.

1. Hits, heals, abstention hits, Random Player's hit, guessing bonuses and penalties are
   added up and applied at once (simultaneous).
2. Heroes at 0 HP or less die (or become Zombies); deaths are final; identities revealed.
3. Nemesis bonuses go to living heroes whose nemesis died; then the teamwork bonus.
4. The winner, if one hero is left; Last Man(s) Standing reveals.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

from gladiatorium.core import Ending, Outcome, Seat, Termination
from gladiatorium.games.hero_battle.actions import MODERATOR, RANDOM_PLAYER, Abstain, Guess, Move
from gladiatorium.games.hero_battle.setup import Hero, canonical

if TYPE_CHECKING:
    from gladiatorium.games.hero_battle.state import HeroBattleState

#: the ways the Battle ends: one player's heroes are the last alive (Random Player's:
#: every player lost), the last heroes die together, or the rounds run out
LAST_HERO = Ending(Termination.KNOCKOUT, "{names} is the last hero alive")
LAST_HEROES = Ending(Termination.KNOCKOUT, "{names} are the last heroes alive")
RANDOM_LAST = Ending(Termination.KNOCKOUT, "Random Player's hero is the last one alive")
DIED_TOGETHER = Ending(Termination.FELL_TOGETHER, "the last heroes died together")
ROUND_LIMIT = Ending(Termination.ROUND_LIMIT, "still {heroes} heroes after {rounds} rounds")

#: the parts of an HP change, in the order the round post lists them
PARTS = ("hits", "heals", "guess", "outing", "bad_call", "killed", "nemesis", "team", "zombie")


class Ledger:
    """HP changes per hero, by kind, for one compile."""

    def __init__(self) -> None:
        self.parts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))

    def add(self, hero: str, part: str, amount: int) -> None:
        self.parts[hero][part] += amount

    def total(self, hero: str) -> int:
        return sum(self.parts[hero].values()) if hero in self.parts else 0

    def to_json(self) -> dict[str, dict[str, int]]:
        return {
            hero: {p: parts[p] for p in PARTS if parts.get(p)} | {"total": sum(parts.values())}
            for hero, parts in sorted(self.parts.items())
            if any(parts.values())
        }


def compile_round(state: HeroBattleState) -> dict[str, Any]:
    """Compile the round of ``state`` in place; returns the public round report."""
    report: dict[str, Any] = {
        "round": state.round,
        "anonymous": state.anonymous,
        "effect": state.effect,
        "start": list(state.round_start),
        "random_player_hit": state.random_hit,
        "moves": {},
        "calls": [],
        "deaths": [],
        "dead_dead": [],
        "revealed": [],
        "nemesis_bonus": {},
        "team_bonus": {},
    }
    ledger = Ledger()
    before = {h.name: h.hp for h in state.heroes.values()}
    alive_before = [h.name for h in state.heroes.values() if h.alive]
    intact_before = intact_teams(state)
    leads = state.lead_heroes()
    _moves(state, leads, ledger, report)
    killed = _guesses(state, leads, ledger, report)
    _apply_changes(state, ledger)
    died = _deaths(state, killed, report, alive_before, ledger)
    _nemesis_bonuses(state, died, ledger, report)
    _team_bonus(state, intact_before, ledger, report)
    # public lists in hero order, never seat order (seat order would hint identities)
    report["calls"].sort(key=lambda c: (c["caller"].casefold(), c["target"].casefold()))
    for key in ("nemesis_bonus", "team_bonus"):
        report[key] = {h: report[key][h] for h in canonical(list(report[key]))}
    report["changes"] = ledger.to_json()
    report["hp_before"] = before
    report["hp"] = {h.name: h.hp for h in state.heroes.values()}
    report["status"] = {h.name: h.status for h in state.heroes.values()}
    state.death_last_round = bool(died)
    _winner(state, died, report)
    if state.result is None:
        report["revealed"] += [
            {"hero": n, "player": state.heroes[n].player, "how": "last-standing"}
            for n in state._last_standing()
        ]
    state.emit("round-post", round_summary(state, report), report=report)
    return report


def _moves(
    state: HeroBattleState, leads: dict[Seat, Hero], ledger: Ledger, report: dict[str, Any]
) -> None:
    """Hits and heals as submitted; abstainers get one random hit (never on their own
    hero, unless they are a Zombie); Random Player's hit."""
    opts = state.options
    heal = opts.hp_per_heal * (2 if state.effect == "double-heals" else 1)
    for seat in state.active_players():
        move = state.moves.get(seat, Abstain())
        hero = leads[seat]
        if isinstance(move, Move):
            for target in move.hits:
                ledger.add(target, "hits", -opts.hp_per_hit)
            for target in move.heals:
                ledger.add(target, "heals", heal)
            shown: dict[str, Any] = {"heals": list(move.heals)}
            if not state.anonymous:
                shown["hits"] = list(move.hits)
            else:
                _tell_private(state, seat, f"hits {', '.join(move.hits)}")
            report["moves"][seat] = shown
            continue
        entry: dict[str, Any] = {"abstained": True}
        if not opts.abstainers_get_no_move:
            targets = [
                h.name
                for h in state.heroes.values()
                if h.hittable and (h.player != seat or hero.status == "zombie")
            ]
            if targets:
                target = state.rng.choice(targets)
                ledger.add(target, "hits", -opts.hp_per_hit)
                if state.anonymous:
                    _tell_private(state, seat, f"random hit on {target}")
                else:
                    entry["random_hit"] = target
        report["moves"][seat] = entry
    if state.random_hit is not None:
        ledger.add(state.random_hit, "hits", -opts.hp_per_hit)


def _tell_private(state: HeroBattleState, seat: Seat, what: str) -> None:
    state.emit(
        "move",
        f"Round {state.round}: {state.name(seat)} {what} (anonymous round).",
        to=[seat, MODERATOR],
    )


def _guesses(
    state: HeroBattleState, leads: dict[Seat, Hero], ledger: Ledger, report: dict[str, Any]
) -> set[str]:
    """Secret identity guesses, all simultaneous. A right guess outs the hero (one
    penalty however many guessed it) and gives each right guesser the bonus less
    ``shared_guess_reduction`` per extra right guesser; a wrong one costs the guesser.
    Returns heroes killed by a call-out (Random Player's; any, with outing_kills)."""
    opts = state.options
    right: dict[str, list[Seat]] = defaultdict(list)
    sent: list[tuple[Seat, Guess]] = [
        (seat, guess) for seat in state.player_seats for guess in state.guesses.get(seat, [])
    ]
    for seat, guess in sent:
        if state.heroes[guess.hero].player == guess.player:
            right[guess.hero].append(seat)
    killed: set[str] = set()
    for seat, guess in sent:
        caller = leads[seat].name
        correct = seat in right.get(guess.hero, [])
        call: dict[str, Any] = {"caller": caller, "target": guess.hero, "correct": correct}
        if correct:
            bonus = max(
                0,
                opts.correct_guess_bonus
                - opts.shared_guess_reduction * (len(right[guess.hero]) - 1),
            )
            ledger.add(caller, "guess", bonus)
            call["player"] = guess.player
        else:
            ledger.add(caller, "bad_call", -opts.bad_call_penalty)
            if opts.public_guesses:
                call["player"] = guess.player
        report["calls"].append(call)
        verdict = "right" if correct else "wrong"
        state.guess_log[seat].append(
            {"round": state.round, "hero": guess.hero, "player": guess.player, "correct": correct}
        )
        state.emit(
            "guess-result",
            f"Your call-out of {guess.hero} as {state.name(guess.player)} was {verdict}.",
            to=[seat],
        )
    for name in canonical_keys(right):  # only heroes someone guessed right
        hero = state.heroes[name]
        hero.revealed = True
        report["revealed"].append({"hero": name, "player": hero.player, "how": "outed"})
        if hero.player == RANDOM_PLAYER or opts.outing_kills:
            killed.add(name)
        if hero.player != RANDOM_PLAYER:
            ledger.add(name, "outing", -opts.outing_penalty)
    return killed


def canonical_keys(table: dict[str, list[Seat]]) -> list[str]:
    return sorted(table, key=lambda n: (n.casefold(), n))


def _apply_changes(state: HeroBattleState, ledger: Ledger) -> None:
    """All changes at once. A Zombie never gains HP (its gains are cancelled)."""
    for hero in state.heroes.values():
        if hero.name not in ledger.parts:
            continue
        if hero.status == "zombie":
            gains = sum(v for v in ledger.parts[hero.name].values() if v > 0)
            if gains:
                ledger.add(hero.name, "zombie", -gains)
        hero.hp += ledger.total(hero.name)


def _deaths(
    state: HeroBattleState,
    killed: set[str],
    report: dict[str, Any],
    alive_before: list[str],
    ledger: Ledger,
) -> list[str]:
    """Heroes at 0 HP or less die, identity revealed (with Zombies: they become Zombies;
    at the dead-dead line they are gone). Returns heroes that died this round."""
    opts = state.options
    died = []
    for name in alive_before:
        hero = state.heroes[name]
        if name in killed and hero.hp > 0:
            ledger.add(name, "killed", -hero.hp)  # a call-out kill takes it to 0 HP
            hero.hp = 0
        if hero.hp > 0:
            continue
        died.append(name)
        zombie = opts.zombies and not (name in killed and hero.player == RANDOM_PLAYER)
        hero.status = "zombie" if zombie and hero.hp > opts.zombie_dead_dead_hp else "dead"
        report["deaths"].append(
            {"hero": name, "player": hero.player, "zombie": hero.status == "zombie"}
        )
        if zombie and hero.status == "dead":
            report["dead_dead"].append(name)  # past the dead-dead line at once (R15)
        if not hero.revealed:
            hero.revealed = True
            report["revealed"].append({"hero": name, "player": hero.player, "how": "died"})
    for hero in state.heroes.values():
        if hero.status == "zombie" and hero.hp <= opts.zombie_dead_dead_hp:
            hero.status = "dead"
            report["dead_dead"].append(hero.name)
    return died


def _nemesis_bonuses(
    state: HeroBattleState, died: list[str], ledger: Ledger, report: dict[str, Any]
) -> None:
    """After deaths are final: each living hero gains the bonus per nemesis that died."""
    bonus = state.options.nemesis_bonus * (2 if state.effect == "double-nemesis-bonus" else 1)
    for seat, hero in state.lead_heroes().items():
        if not hero.alive:
            continue
        count = sum(1 for n in state.nemeses[seat] if n in died)
        if count and bonus:
            hero.hp += bonus * count
            ledger.add(hero.name, "nemesis", bonus * count)
            report["nemesis_bonus"][hero.name] = bonus * count


def intact_teams(state: HeroBattleState) -> list[str]:
    """Teams whose heroes are all alive."""
    return [t for t, members in state.teams.items() if all(state.heroes[m].alive for m in members)]


def _team_bonus(
    state: HeroBattleState, before: list[str], ledger: Ledger, report: dict[str, Any]
) -> None:
    """The last team with all heroes alive gains the teamwork bonus each; two teams
    losing their last intact status together gain the tie bonus; three or more: none."""
    if not state.teams or state.team_bonus_given:
        return
    after = intact_teams(state)
    if len(after) == 1:
        winners, amount = after, state.options.team_bonus
    elif not after and before:
        winners = before
        amount = state.options.team_tie_bonus if len(before) == 2 else 0
        if len(before) == 1:
            amount = state.options.team_bonus
    else:
        return
    state.team_bonus_given = True
    for team in winners:
        for member in state.teams[team]:
            hero = state.heroes[member]
            if hero.alive and amount:
                hero.hp += amount
                ledger.add(member, "team", amount)
                report["team_bonus"][member] = amount


def _winner(state: HeroBattleState, died: list[str], report: dict[str, Any]) -> None:
    """The result, if the Battle is over, into the report."""
    declare_winner(state, died)
    if state.result is not None:
        report["winner"] = state.result.to_json()


def declare_winner(state: HeroBattleState, died: list[str]) -> None:
    """The last hero alive wins. If the last ones (``died`` this round) die together,
    ``tie`` decides (R9); Random Player's hero winning means every player lost."""
    living = [h for h in state.heroes.values() if h.alive]
    scores = state.scores()
    if living and len({h.player for h in living}) == 1:
        owner = living[0].player
        if owner == RANDOM_PLAYER:
            state.result = Outcome.all_lost(RANDOM_LAST(), scores)
        else:
            ending = LAST_HERO if len(living) == 1 else LAST_HEROES
            names = " and ".join(h.name for h in living)
            state.result = Outcome.win([owner], ending(names=names), scores=scores)
    elif not living:
        last = [state.heroes[n] for n in died if state.heroes[n].player != RANDOM_PLAYER]
        if state.options.tie == "highest-hp" and last:
            top = max(h.hp for h in last)
            last = [h for h in last if h.hp == top]
        if not last:
            state.result = Outcome.all_lost(DIED_TOGETHER(), scores)
        elif state.options.tie == "draw":
            state.result = Outcome.drawn(DIED_TOGETHER(), scores)
        else:
            seats = sorted({h.player for h in last}, key=int)
            state.result = Outcome.win(seats, DIED_TOGETHER(), scores=scores)


def round_summary(state: HeroBattleState, report: dict[str, Any]) -> str:
    """One line of the public round result (the full post is in round_post)."""
    parts = [f"Round {report['round']} compiled."]
    for call in report["calls"]:
        verdict = "right" if call["correct"] else "wrong"
        parts.append(f"{call['caller']} calls out {call['target']}: {verdict}.")
    for death in report["deaths"]:
        kind = "becomes a Zombie" if death["zombie"] else "dies"
        parts.append(f"{death['hero']} {kind}.")
    for item in report["revealed"]:
        parts.append(f"Revealed: {item['hero']} is {state.name(item['player'])}.")
    for hero, amount in report["nemesis_bonus"].items():
        parts.append(f"{hero} gains {amount} HP (nemesis bonus).")
    if "winner" in report:
        parts.append(state.result.reason if state.result else "")
    return " ".join(parts)
