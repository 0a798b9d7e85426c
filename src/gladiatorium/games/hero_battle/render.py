"""Terminal text of a Battle as one seat may see it (built from that seat's view)."""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from gladiatorium.core import Seat
from gladiatorium.games.hero_battle.actions import MODERATOR


def battle_text(view: dict[str, Any], seat: Seat | None) -> str:
    """The HP table, the round's posted moves, and the seat's own secrets."""
    names = {s: p["name"] for s, p in view["players"].items()}
    names["random"] = "Random Player"
    lines = [f"[bold]{escape(view['theme'])}[/bold]  round {view['round']}"]
    flags = []
    if view["anonymous"]:
        flags.append("anonymous round")
    if view["effect"]:
        flags.append(f"Hand of God: {view['effect']}")
    if view["double_up"]:
        flags.append("Double-Up in effect")
    if view["random_player_hit"]:
        flags.append(f"Random Player hits {view['random_player_hit']}")
    if flags:
        lines.append("  " + "; ".join(escape(f) for f in flags))
    last = view["reports"][-1]["changes"] if view["reports"] else {}
    for hero, info in view["heroes"].items():
        owner = view["identities"].get(hero)
        who = f"  {escape(hero)} ({escape(names[owner])})" if owner else f"  {escape(hero)}"
        status = "" if info["status"] == "alive" else f"  ({info['status']})"
        change = last.get(hero, {}).get("total", 0)
        delta = f" ({change:+d})" if change else ""
        lines.append(f"{who:<40} {info['hp']:>4} HP{delta}{status}")
    for s, move in view["posted"].items():
        if move.get("abstain"):
            text = "abstains"
        else:
            hits = ", ".join(move["hits"]) if "hits" in move else "(private)"
            text = f"hits {hits}; heals {', '.join(move['heals']) or '-'}"
        lines.append(f"  {escape(names[s])}: {escape(text)}")
    if view["awaiting"]:
        lines.append("  waiting for: " + ", ".join(escape(names[s]) for s in view["awaiting"]))
    you = view.get("you")
    if you is not None:
        mine = escape(", ".join(you["heroes"]))
        lines.append(f"You: {mine}; nemeses {escape(', '.join(you['nemeses']))}")
        if "team" in you:
            team = you["team"]
            lines.append(f"Team {escape(team['name'])}: {escape(', '.join(team['heroes']))}")
        if you["need"]:
            need = you["need"]
            lines.append(f"This round: {need['hits']} hit(s), {need['heals']} heal(s)")
        if you["move"]:
            lines.append(f"Your move: {escape(you['move'])}")
        for guess in you["guesses"]:
            lines.append(f"Your guess: {escape(guess['hero'])} as {escape(names[guess['player']])}")
    if seat == MODERATOR and "moderator" in view:
        lines += _moderator_lines(view, names)
    if view["outcome"]:
        lines.append(escape(view["outcome"]["reason"]))
    return "\n".join(lines)


def _moderator_lines(view: dict[str, Any], names: dict[str, str]) -> list[str]:
    """Every player's secrets, move and guesses, for the moderator's eyes."""
    mod = view["moderator"]
    hero_of: dict[str, str] = {}
    for hero, player in view["identities"].items():
        hero_of[player] = f"{hero_of[player]}, {hero}" if player in hero_of else hero
    lines = ["[bold]Moderator[/bold]"]
    for seat in view["players"]:
        text = f"{names[seat]}: {hero_of.get(seat, '?')}; nemeses {', '.join(mod['nemeses'][seat])}"
        if seat in mod["moves"]:
            text += f"; move: {mod['moves'][seat]}"
        for guess in mod["guesses"].get(seat, []):
            text += f"; guess {guess['hero']} as {names[guess['player']]}"
        lines.append("  " + escape(text))
    if "random" in hero_of:
        lines.append(f"  Random Player: {escape(hero_of['random'])}")
    for team, members in mod["teams"].items():
        lines.append(f"  Team {escape(team)}: {escape(', '.join(members))}")
    return lines
