"""A Battle written as a position (docs/rules/hero-battle.md, "Positions"), at any
decision: the deal and the HP table, the round started (its start as drawn), the moves
and guesses posted so far, the guess results and round reports, the Battle over, the
next dice. ``position.py`` reads it back."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import yaml

from gladiatorium.core import OptionsError
from gladiatorium.games.hero_battle.actions import MODERATOR, RANDOM_PLAYER
from gladiatorium.games.hero_battle.position import Started
from gladiatorium.games.hero_battle.resume import start_lines

if TYPE_CHECKING:
    from gladiatorium.core import Seat
    from gladiatorium.games.hero_battle.setup import Hero
    from gladiatorium.games.hero_battle.state import HeroBattleState


def write_position(state: HeroBattleState, seat: Seat | None = None) -> str:
    """The whole truth (``seat`` None or the moderator's, who knows everything); a
    player's position, which would leave the others' secrets open, is refused rather
    than written whole."""
    if seat is not None and seat != MODERATOR:
        raise OptionsError(
            f"Hero Battle writes the moderator's position only (the whole truth), not "
            f"player {seat}'s"
        )
    data: dict[str, Any] = {"round": state.round}
    data["players"] = [_player(state, s) for s in state.player_seats]
    data["heroes"] = {hero.name: _hero(hero) for hero in state.heroes.values()}
    if state.options.random_player:
        data["random_player"] = next(
            h.name for h in state.heroes.values() if h.player == RANDOM_PLAYER
        )
    if state.options.teams:
        data["teams"] = {team: list(members) for team, members in state.teams.items()}
        data["team_bonus_given"] = state.team_bonus_given
    data["started"] = _started(state)
    moves = {int(s): str(m) for s, m in state.moves.items() if s not in state.forced}
    if moves:
        data["moves"] = dict(sorted(moves.items()))
    guesses = {int(s): [f"{g.hero}={g.player}" for g in gs] for s, gs in state.guesses.items()}
    if any(guesses.values()):
        data["guesses"] = {s: g for s, g in sorted(guesses.items()) if g}
    results = {int(s): [dict(r) for r in log] for s, log in state.guess_log.items() if log}
    if results:
        data["guess_results"] = dict(sorted(results.items()))
    if state.reports:
        data["reports"] = [dict(report) for report in state.reports]
    if state.result is not None:
        data["over"] = True
    dice = state.rng.next_dice()
    if dice:
        data["dice"] = dice
    return yaml.safe_dump(
        data, sort_keys=False, allow_unicode=True, width=100, default_flow_style=None
    )


def _player(state: HeroBattleState, seat: Seat) -> dict[str, Any]:
    out: dict[str, Any] = {"name": state.name(seat)}
    if state.signups[seat]:
        out["signup"] = state.signups[seat]
    mine = [h.name for h in state.heroes_of(seat)]
    if state.options.heroes_per_player == 1:
        out["hero"] = mine[0]
    else:
        out["heroes"] = mine
    out["nemeses"] = list(state.nemeses[seat])
    return out


def _hero(hero: Hero) -> dict[str, Any]:
    out: dict[str, Any] = {"hp": hero.hp}
    if hero.status != "alive":
        out["status"] = hero.status
    elif hero.revealed:
        out["revealed"] = True
    if hero.revived:
        out["revived"] = True
    return out


def _started(state: HeroBattleState) -> dict[str, Any]:
    """The round's start as drawn; its start post's lines only where they say more than
    the usual ones (a resurrection, an HP grant, a Last Man Standing reveal)."""
    out: dict[str, Any] = {}
    if state.effect is not None:
        out["hand_of_god"] = state.effect
    if state.forced:
        out["forced_abstain"] = [int(s) for s in state.forced]
    if state.random_hit is not None:
        out["random_player_hit"] = state.random_hit
    if state.anonymous:
        out["anonymous"] = True
    started = Started(state.effect, state.forced, state.random_hit, state.anonymous, None)
    if state.round_start != start_lines(state, started):
        out["posted"] = list(state.round_start)
    return out
