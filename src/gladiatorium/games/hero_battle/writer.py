"""A Battle written as a position (docs/rules/hero-battle.md, "Positions"), at any
decision: the deal and the HP table, the round started (its start as drawn), the moves
and guesses posted so far, the guess results and round reports, the Battle over, the
next dice. ``position.py`` reads it back."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import yaml

from gladiatorium.core import OptionsError
from gladiatorium.games.hero_battle.actions import MODERATOR, RANDOM_PLAYER, Abstain, Move
from gladiatorium.games.hero_battle.position import Started
from gladiatorium.games.hero_battle.resume import start_lines

if TYPE_CHECKING:
    from gladiatorium.core import Seat
    from gladiatorium.games.hero_battle.setup import Hero
    from gladiatorium.games.hero_battle.state import HeroBattleState


def write_position(state: HeroBattleState, seat: Seat | None = None) -> str:
    """The whole truth (``seat`` None or the moderator's, who knows everything), or a
    player's position: ``seat:`` and what that player knows, the other players' hidden
    identities, nemeses, teams, guesses and guess results and an anonymous round's hits
    left open (the next dice too)."""
    if seat is not None and seat not in state.seats:
        raise OptionsError(f"no seat {seat!r} in this Battle")
    mine = None if seat in (None, MODERATOR) else seat
    data: dict[str, Any] = {"round": state.round}
    if mine is not None:
        data["seat"] = int(mine)
    data["players"] = [_player(state, s, mine) for s in state.player_seats]
    data["heroes"] = {hero.name: _hero(hero) for hero in state.heroes.values()}
    if state.options.random_player:
        hero = next(h for h in state.heroes.values() if h.player == RANDOM_PLAYER)
        if mine is None or hero.revealed:
            data["random_player"] = hero.name
    if state.options.teams:
        known = {h.team for h in state.heroes_of(mine)} if mine is not None else None
        data["teams"] = {
            team: list(members)
            for team, members in state.teams.items()
            if known is None or team in known
        }
        data["team_bonus_given"] = state.team_bonus_given
    data["started"] = _started(state)
    moves = {
        int(s): _move_seen(state, m, mine is None or s == mine)
        for s, m in state.moves.items()
        if s not in state.forced
    }
    if moves:
        data["moves"] = dict(sorted(moves.items()))
    guesses = {
        int(s): [f"{g.hero}={g.player}" for g in gs]
        for s, gs in state.guesses.items()
        if mine is None or s == mine
    }
    if any(guesses.values()):
        data["guesses"] = {s: g for s, g in sorted(guesses.items()) if g}
    results = {
        int(s): [dict(r) for r in log]
        for s, log in state.guess_log.items()
        if log and (mine is None or s == mine)
    }
    if results:
        data["guess_results"] = dict(sorted(results.items()))
    if state.reports:
        data["reports"] = [dict(report) for report in state.reports]
    if state.result is not None:
        data["over"] = True
    dice = state.rng.next_dice()
    if dice and mine is None:
        data["dice"] = dice
    return yaml.safe_dump(
        data, sort_keys=False, allow_unicode=True, width=100, default_flow_style=None
    )


def _player(state: HeroBattleState, seat: Seat, mine: Seat | None) -> dict[str, Any]:
    """A player's entry; in ``mine``'s position another player's hidden heroes and
    nemeses are left out (open)."""
    out: dict[str, Any] = {"name": state.name(seat)}
    if state.signups[seat]:
        out["signup"] = state.signups[seat]
    known = mine is None or seat == mine
    heroes = [h.name for h in state.heroes_of(seat) if known or h.revealed]
    if state.options.heroes_per_player == 1:
        if heroes:
            out["hero"] = heroes[0]
    elif heroes:
        out["heroes"] = heroes
    if known:
        out["nemeses"] = list(state.nemeses[seat])
    return out


def _move_seen(state: HeroBattleState, move: Move | Abstain, known: bool) -> str:
    """A posted move; an anonymous round's hits left open (``?``) unless ``known``."""
    if known or not state.anonymous or not isinstance(move, Move):
        return str(move)
    return f"? heal {', '.join(move.heals)}" if move.heals else "?"


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
