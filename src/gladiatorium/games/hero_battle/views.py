"""Views: what each seat may know, built up piece by piece (never by deleting).

Everyone: the theme, the HP table, public identities, the moves as posted (hits of an
anonymous round excepted), the round reports. A player adds their own hero, nemeses,
team, move, guesses and guess results. The moderator sees everything.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from gladiatorium.core import Seat
from gladiatorium.games.hero_battle.actions import MODERATOR, Abstain, Move
from gladiatorium.games.hero_battle.rules import requirement

if TYPE_CHECKING:
    from gladiatorium.games.hero_battle.state import HeroBattleState


def build_view(state: HeroBattleState, seat: Seat | None) -> dict[str, Any]:
    """The view of ``seat``: fresh data (a deep copy), so that editing it changes
    neither the Battle nor what another seat sees."""
    return copy.deepcopy(_assemble(state, seat))


def shared_view(state: HeroBattleState) -> dict[str, Any]:
    """What every seat's view holds alike (the public record, fresh data), built once
    for all the seats of an action: ``Game.shared_view``."""
    shared = copy.deepcopy(public_view(state))
    shared["identities"] = dict(sorted(shared["identities"].items()))
    return shared


def seat_view(state: HeroBattleState, seat: Seat | None, shared: dict[str, Any]) -> dict[str, Any]:
    """The view of ``seat`` (equal to :func:`build_view`'s) from ``shared`` and the
    seat's own part, built as :func:`_assemble` builds it; the public parts are
    ``shared``'s own objects (read them, never edit them), the seat's part fresh."""
    view = dict(shared)
    if seat == MODERATOR:
        view["moderator"] = copy.deepcopy(moderator_part(state))
        view["identities"] = {h.name: h.player for h in state.heroes.values()}
    elif seat is not None and seat in state.player_seats:
        view["you"] = copy.deepcopy(player_part(state, seat))
        mine = view["you"]["heroes"]
        identities = {**shared["identities"], **dict.fromkeys(mine, seat)}
        view["identities"] = dict(sorted(identities.items()))
    if state.result is not None:
        view["outcome"] = copy.deepcopy(outcome_seen(state, seat))
    return view


def _assemble(state: HeroBattleState, seat: Seat | None) -> dict[str, Any]:
    view = public_view(state)
    if seat == MODERATOR:
        view["moderator"] = moderator_part(state)
    elif seat is not None and seat in state.player_seats:
        view["you"] = player_part(state, seat)
        for hero in state.heroes_of(seat):
            view["identities"][hero.name] = seat
    view["identities"] = dict(sorted(view["identities"].items()))
    if seat == MODERATOR:
        view["identities"] = {h.name: h.player for h in state.heroes.values()}
    view["outcome"] = outcome_seen(state, seat)
    return view


def outcome_seen(state: HeroBattleState, seat: Seat | None) -> dict[str, Any] | None:
    """The outcome as ``seat`` may know it: a player's score is the HP of their heroes,
    which beside the public HP table would name them, so it is left out for a player
    whose heroes are not all revealed, except to that player and the moderator."""
    if state.result is None:
        return None
    outcome = state.result.to_json()
    if seat != MODERATOR:
        outcome["scores"] = {
            player: score
            for player, score in outcome["scores"].items()
            if player == seat or all(h.revealed for h in state.heroes_of(player))
        }
    return outcome


def public_view(state: HeroBattleState) -> dict[str, Any]:
    """The public record: what any forum reader knows."""
    return {
        "theme": state.options.theme,
        "round": state.round,
        "anonymous": state.anonymous,
        "effect": state.effect,
        "forced_abstain": list(state.forced),
        "random_player": state.options.random_player,
        "random_player_hit": state.random_hit,
        "double_up": state.double_up(),
        "players": {
            s: {
                "name": state.name(s),
                "signup": state.signups[s] or None,
                "moved": s in state.moves,
            }
            for s in state.player_seats
        },
        "heroes": {
            h.name: {"hp": h.hp, "status": h.status, "revealed": h.revealed, "revived": h.revived}
            for h in state.heroes.values()
        },
        "identities": {h.name: h.player for h in state.heroes.values() if h.revealed},
        "posted": {s: posted(state, m) for s, m in state.moves.items()},
        "reports": list(state.reports),
        "awaiting": [s for s in state.awaiting() if s != MODERATOR and s not in state.moves],
        "outcome": outcome_seen(state, None),
    }


def posted(state: HeroBattleState, move: Move | Abstain) -> dict[str, Any]:
    """A move as the forum shows it."""
    if isinstance(move, Abstain):
        return {"abstain": True}
    shown: dict[str, Any] = {"heals": list(move.heals)}
    if not state.anonymous:
        shown["hits"] = list(move.hits)
    return shown


def player_part(state: HeroBattleState, seat: Seat) -> dict[str, Any]:
    """What only this player knows."""
    mine = state.heroes_of(seat)
    hero = state._seat_hero(seat)
    move = state.moves.get(seat)
    need = requirement(state.options, hero, state.effect)
    part: dict[str, Any] = {
        "seat": seat,
        "hero": hero.name,
        "heroes": [h.name for h in mine],
        "nemeses": list(state.nemeses[seat]),
        "move": None if move is None else str(move),
        "guesses": [{"hero": g.hero, "player": g.player} for g in state.guesses.get(seat, [])],
        "guess_results": list(state.guess_log[seat]),
        "need": {"hits": need.hits, "heals": need.heals} if hero.hittable else None,
    }
    teams = [h.team for h in mine if h.team is not None]
    if teams:
        part["team"] = {"name": teams[0], "heroes": list(state.teams[teams[0]])}
    if len(teams) > 1:
        part["teams"] = [{"name": t, "heroes": list(state.teams[t])} for t in teams]
    return part


def moderator_part(state: HeroBattleState) -> dict[str, Any]:
    """Everything: identities, nemeses, teams, every move and guess."""
    return {
        "nemeses": {s: list(n) for s, n in state.nemeses.items()},
        "teams": {t: list(m) for t, m in state.teams.items()},
        "moves": {s: str(m) for s, m in state.moves.items()},
        "guesses": {
            s: [{"hero": g.hero, "player": g.player} for g in gs] for s, gs in state.guesses.items()
        },
        "guess_log": {s: list(log) for s, log in state.guess_log.items()},
    }
