"""The web picture of a Hero Battle: my hero, its HP and my nemeses, every hero's HP and
status, the public round history, and the move as clicks: "hit" two heroes and "heal" one
(the choice narrows with each click; moving again edits the move until the round closes),
a private guess, or abstain. Built only from ``view(seat)`` and the seat's legal actions;
every name escaped."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from gladiatorium.core import Choose, ItemFacts, LegalForm, Seat, State, WebPresenter
from gladiatorium.core.presenters import named_seat
from gladiatorium.core.web_parts import button, e, pick_button
from gladiatorium.games.hero_battle.enumerate import legal_form
from gladiatorium.games.hero_battle.options import HeroBattleOptions
from gladiatorium.games.hero_battle.round_post import round_post
from gladiatorium.games.hero_battle.state import HeroBattleState

MOVE = re.compile(r"^hit (.+?)(?: heal (.+))?$")
GUESS = re.compile(r"^guess (.+)=(\w+)$")
#: the engine's own name of a player without a forum name (``setup.player_names``)
PLAYER = re.compile(r"\bPlayer (\d+)\b")


def player_name(view: dict[str, Any], seat: str, names: Mapping[Seat, str]) -> str:
    """How the picture names the player at ``seat``: the server's public name (a user
    name, a bot) with the seat, else the game's own ('Player 3' or a forum name)."""
    named = named_seat(seat, names)
    if named is None:
        player = (view.get("players") or {}).get(seat) or {}
        return str(player.get("name") or f"Player {seat}")
    return named


def named_event(text: str, names: Mapping[Seat, str]) -> str:
    """An event's text with each ``Player N`` whose seat someone named holds called by
    that name: ``Round 2: ada (seat 3) abstains.``. A name is public and tied to the seat
    only, as ``Player N`` was: an event that ties a hero to a player (a private
    assignment, a reveal) says no more than it said."""
    return PLAYER.sub(lambda m: named_seat(m[1], names) or m[0], text)


def web_picture(
    view: dict[str, Any],
    legal: Sequence[str],
    over: bool = False,
    names: Mapping[Seat, str] | None = None,
    form: LegalForm | None = None,
) -> str:
    """``over``: the match has ended (no round goes on, no move is asked for);
    ``names``: the people at the seats, as the server names them (public); ``form``:
    the seat's legal actions as choices (``enumerate.legal_form``), whose buttons pick
    names (``data-pick``) rather than list every action they take part in: ``legal``
    then holds its listed actions only."""
    known = names or {}
    hit: dict[str, list[str]] = {}
    heal: dict[str, list[str]] = {}
    guess: dict[str, list[str]] = {}
    other: list[str] = []
    for action in legal:
        if m := GUESS.match(action):
            guess.setdefault(m[1], []).append(action)
        elif m := MOVE.match(action):
            for name in m[1].split(", "):
                hit.setdefault(name, []).append(action)
            for name in (m[2] or "").split(", "):
                if name:
                    heal.setdefault(name, []).append(action)
        elif action != "close":  # the moderator closes the round from the page's console
            other.append(action)
    picks = _picks(form)
    you = view.get("you") or {}
    heroes: dict[str, dict[str, Any]] = view["heroes"]
    parts = ['<div class="hb">']
    parts.append(
        f'<p class="pic-head">{e(view["theme"])}: round {e(view["round"])}'
        + (" (anonymous)" if view.get("anonymous") else "")
        + ("; the match is over" if over else "")
        + "</p>"
    )
    if you.get("hero"):
        mine = heroes.get(you["hero"], {})
        need = you.get("need") or {}
        move = you.get("move")
        # a round asks for a move only of a living hero in a match still going on
        asked = not over and mine.get("status") != "dead"
        parts.append(
            '<div class="card my-hero">'
            f"<h3>My hero: {e(you['hero'])} · HP <strong>{e(mine.get('hp', '?'))}</strong> · "
            f"{e(mine.get('status', ''))}</h3>"
            f"<p>My nemeses: {e(', '.join(you.get('nemeses') or []) or 'none')}</p>"
            + (
                f"<p>This round: {e(need.get('hits', 0))} hits and {e(need.get('heals', 0))}"
                f' heal(s) on different heroes. My move: <strong id="my-move">'
                f"{e(move or 'none yet')}</strong>"
                + (" (click again to change it until the round closes)" if move and legal else "")
                + "</p>"
                if asked
                else ""
            )
            + "".join(
                f"<p>My guess: {e(g['hero'])} is {e(player_name(view, str(g['player']), known))}"
                "</p>"
                for g in (you.get("guesses") or [])
                if isinstance(g, dict)
            )
            + "</div>"
        )
    if other:
        labels = {"abstain": "Abstain (no move)"}
        buttons = "".join(button(labels.get(a, a), [a], a) for a in other)
        parts.append(f'<div class="pic-prompt"><div class="buttons">{buttons}</div></div>')
    rows = []
    # the "My move" column, only with something to click
    column = bool(hit or heal or guess or any(picks.values()))
    for name, hero in sorted(heroes.items(), key=lambda kv: (kv[1]["status"] != "alive", kv[0])):
        controls = []
        if hit.get(name):
            controls.append(button("hit", hit[name], None, "hit"))
        if name in picks["hit"]:
            controls.append(pick_button("hit", "hit", name, "hit"))
        if heal.get(name):
            controls.append(button("heal", heal[name], None, "heal"))
        if name in picks["heal"]:
            controls.append(pick_button("heal", "heal", name, "heal"))
        if name in picks["guess"]:
            controls.append(pick_button("guess who", "guess", name, "guess"))
        if guess.get(name):
            said = {
                a: f"{name} is {player_name(view, GUESS.match(a)[2], known)}"  # type: ignore[index]
                for a in guess[name]
            }
            extra = {"data-labels": json.dumps(said, sort_keys=True)}
            controls.append(button("guess who", guess[name], None, "guess", extra))
        notes = []
        if hero.get("revealed"):
            notes.append("revealed")
        if hero.get("revived"):
            notes.append("revived")
        me = ' class="me"' if name == you.get("hero") else ""
        rows.append(
            f'<tr{me} data-hero="{e(name)}"><td>{e(name)}</td><td>{e(hero["hp"])}</td>'
            f"<td>{e(hero['status'])}{(' (' + e(', '.join(notes)) + ')') if notes else ''}</td>"
            + (f'<td class="buttons">{"".join(controls)}</td>' if column else "")
            + "</tr>"
        )
    # a guess picked by its hero offers its players, each named once here
    named = {p: f"{{left}} is {player_name(view, p, known)}" for p in picks["players"]}
    right_labels = f' data-right-labels="{e(json.dumps(named, sort_keys=True))}"' if named else ""
    parts.append(
        f'<table class="hb-heroes"{right_labels}><thead><tr><th>Hero</th><th>HP</th><th>Status</th>'
        + ("<th>My move</th>" if column else "")
        + f"</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )
    parts.append(players(view, known))
    parts.append(history(view, known))
    parts.append("</div>")
    return "".join(parts)


def _picks(form: LegalForm | None) -> dict[str, set[str]]:
    """The names the form's buttons pick: the heroes to hit, to heal and to guess (one
    with a player left to name), and the players a guess may name."""
    picks: dict[str, set[str]] = {"hit": set(), "heal": set(), "guess": set(), "players": set()}
    for part in form.parts if form is not None else ():
        if isinstance(part, Choose):
            for pick in part.picks:
                if pick.count and pick.word in ("hit", "heal"):
                    picks[pick.word].update(pick.names)
        else:
            taken = set(part.taken)
            picks["guess"].update(
                left for left in part.left if any((left, r) not in taken for r in part.right)
            )
            picks["players"].update(part.right)
    return picks


def players(view: dict[str, Any], names: Mapping[Seat, str]) -> str:
    """The players by seat with their names, and who has moved this round (public)."""
    rows = []
    for seat, player in (view.get("players") or {}).items():
        moved = "moved" if player.get("moved") else "not yet"
        rows.append(
            f"<tr><td>{e(seat)}</td><td>{e(player_name(view, seat, names))}</td>"
            f"<td>{e(moved)}</td></tr>"
        )
    if not rows:
        return ""
    return (
        '<table class="hb-players"><caption>Players</caption><thead><tr><th>Seat</th>'
        "<th>Player</th><th>This round</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


def history(view: dict[str, Any], names: Mapping[Seat, str] | None = None) -> str:
    items = []
    known = names or {}
    for report in reversed(view.get("reports") or []):
        deaths = ", ".join(
            f"{d['hero']}"
            + (f" ({player_name(view, str(d['player']), known)})" if d.get("player") else "")
            for d in report.get("deaths") or []
        )
        changes = ", ".join(
            f"{hero} {c['total']:+d}"
            for hero, c in sorted((report.get("changes") or {}).items())
            if isinstance(c, dict) and isinstance(c.get("total"), int)
        )
        items.append(
            f"<li><strong>Round {e(report['round'])}</strong>: "
            f"died: {e(deaths or 'nobody')}; HP: {e(changes or 'no change')}</li>"
        )
    if not items:
        return '<p class="muted">No round has closed yet.</p>'
    return f'<h3>Round history</h3><ul class="plain hb-history">{"".join(items)}</ul>'


class HeroBattleWeb(WebPresenter):
    """Hero Battle on the match page: my hero, the HP table, the rounds, the move as
    clicks; and the round post to publish."""

    def item_facts(self, kind: str, data: Mapping[str, Any]) -> ItemFacts:
        """A published theme: how many heroes it lists, the rules it sets."""
        if kind != "theme":
            return ItemFacts()
        words = [str(k) for k in data.get("restrictions") or {}]
        words += [k for k in ("teams", "hand_of_god") if data.get(k)]
        return ItemFacts(None, tuple(words), {"heroes": len(data.get("heroes") or ())})

    def server_seat(self, seat: Seat) -> str:
        """The moderator's seat left to the server."""
        return "the server: closes each round at its deadline"

    def picture(self, state: State[HeroBattleOptions], seat: Seat | None) -> str | None:
        """My hero, the heroes' HP, the round history and the move as clicks."""
        return self.named_picture(state, seat, {})

    def named_picture(
        self, state: State[HeroBattleOptions], seat: Seat | None, names: Mapping[Seat, str]
    ) -> str | None:
        """The picture with the players named as the server knows them (public)."""
        assert isinstance(state, HeroBattleState)
        form = legal_form(state, seat) if seat is not None else None
        if form is not None:
            legal: list[str] = list(form.listed)
        else:
            legal = [str(a) for a in state.legal_actions(seat)] if seat is not None else []
        return web_picture(state.view(seat), legal, state.outcome() is not None, names, form)

    def named_event(self, text: str, names: Mapping[Seat, str]) -> str:
        """The event's ``Player N`` named as the server knows the seat's holder."""
        return named_event(text, names)

    def posts(self, state: State[HeroBattleOptions], seat: Seat | None) -> dict[str, str]:
        """The last compiled round's forum post in BBCode and Markdown (public text)."""
        public = state.view(None)
        if not public.get("reports"):
            return {}
        return {
            "BBCode": round_post(public, None, "bbcode"),
            "Markdown": round_post(public, None, "markdown"),
        }
