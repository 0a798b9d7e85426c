"""The round post: one compiled round as a forum-ready BBCode or Markdown post.

Built only from the public view (its round reports), so it can hold nothing a forum
reader may not know: moves as posted (hits of anonymous rounds as totals only),
call-outs with right/wrong, deaths and identities revealed, bonuses, the HP table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from gladiatorium.core import GladiatoriumError

Format = Literal["bbcode", "markdown"]


class _Writer:
    """The little markup a post needs, in BBCode or Markdown."""

    def __init__(self, fmt: Format) -> None:
        self.fmt = fmt

    def bold(self, text: str) -> str:
        return f"[b]{text}[/b]" if self.fmt == "bbcode" else f"**{text}**"

    def heading(self, text: str) -> str:
        return f"[size=150][b]{text}[/b][/size]" if self.fmt == "bbcode" else f"## {text}"

    def items(self, lines: Sequence[str]) -> list[str]:
        if self.fmt == "bbcode":
            return ["[list]", *(f"[*]{line}" for line in lines), "[/list]"]
        return [f"- {line}" for line in lines]

    def table(self, head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
        if self.fmt == "bbcode":
            out = ["[table]", "[tr]" + "".join(f"[th]{h}[/th]" for h in head) + "[/tr]"]
            out += ["[tr]" + "".join(f"[td]{c}[/td]" for c in row) + "[/tr]" for row in rows]
            return [*out, "[/table]"]
        out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        return out + ["| " + " | ".join(row) + " |" for row in rows]


def round_post(
    view: dict[str, Any], round_number: int | None = None, fmt: Format = "bbcode"
) -> str:
    """The post for ``round_number`` (default: the last compiled round) of a view."""
    reports = view["reports"]
    if not reports:
        raise GladiatoriumError("no round has been compiled yet")
    number = round_number if round_number is not None else reports[-1]["round"]
    by_round = {r["round"]: r for r in reports}  # a Battle taken over starts past round 1
    if number not in by_round:
        first, last = reports[0]["round"], reports[-1]["round"]
        raise GladiatoriumError(f"round {number}: compiled rounds are {first} to {last}")
    report = by_round[number]
    names = {s: p["name"] for s, p in view["players"].items()} | {"random": "Random Player"}
    known = _identities_until(view, number)
    w = _Writer(fmt)
    lines = [w.heading(f"{view['theme']}: Round {number} results"), ""]
    if report["start"]:
        lines += [*w.items(report["start"]), ""]
    lines += _moves(w, report, names)
    lines += _callouts(w, report, names)
    lines += _deaths(w, report, names)
    lines += _bonuses(w, report)
    lines += [w.bold("Hit points"), *_hp_table(w, report, known, names), ""]
    if "winner" in report:
        winner = report["winner"]
        who = ", ".join(names[s] for s in winner["winners"]) or "nobody"
        lines.append(w.bold(f"The Battle is over: {winner['reason']}. Winner: {who}."))
    return "\n".join(lines).rstrip() + "\n"


def _identities_until(view: dict[str, Any], number: int) -> dict[str, str]:
    """Identities public once round ``number`` was compiled: those public now, less
    those revealed in later rounds (a Battle taken over from a written position starts
    with some public already)."""
    later = {
        item["hero"]
        for report in view["reports"]
        if report["round"] > number
        for item in report["revealed"]
    }
    return {
        hero: player
        for hero, player in view["identities"].items()
        if view["heroes"][hero]["revealed"] and hero not in later
    }


def _moves(w: _Writer, report: dict[str, Any], names: dict[str, str]) -> list[str]:
    rows = []
    for seat, move in report["moves"].items():
        if move.get("abstained"):
            hit = move.get("random_hit")
            rows.append([names[seat], f"abstained (random hit: {hit})" if hit else "abstained", ""])
        else:
            hits = ", ".join(move["hits"]) if "hits" in move else "(private)"
            rows.append([names[seat], hits, ", ".join(move["heals"])])
    title = "Moves" + (
        " (anonymous round: hits were sent privately)" if report["anonymous"] else ""
    )
    # Random Player's hit is announced with the round start, above the table
    return [w.bold(title), *w.table(["Player", "Hits", "Heals"], rows), ""]


def _callouts(w: _Writer, report: dict[str, Any], names: dict[str, str]) -> list[str]:
    lines = []
    for call in report["calls"]:
        text = f"{call['caller']} calls out {call['target']}"
        if call["correct"]:
            text += f": right! {call['target']} is {names[call['player']]} (outed)"
        elif "player" in call:
            text += f" as {names[call['player']]}: wrong"
        else:
            text += ": wrong"
        lines.append(text)
    return [w.bold("Call-outs"), *w.items(lines), ""] if lines else []


def _deaths(w: _Writer, report: dict[str, Any], names: dict[str, str]) -> list[str]:
    lines = []
    for death in report["deaths"]:
        fate = "becomes a Zombie" if death["zombie"] else "has died"
        lines.append(f"{death['hero']} {fate}. Secret identity: {names[death['player']]}")
    lines += [f"{hero} is dead-dead" for hero in report["dead_dead"]]
    lines += [
        f"Last Man(s) Standing: {item['hero']} is {names[item['player']]}"
        for item in report["revealed"]
        if item["how"] == "last-standing"
    ]
    return [w.bold("Deaths and revelations"), *w.items(lines), ""] if lines else []


def _bonuses(w: _Writer, report: dict[str, Any]) -> list[str]:
    lines = [f"{h} gains {n} HP (nemesis bonus)" for h, n in report["nemesis_bonus"].items()]
    lines += [f"{h} gains {n} HP (teamwork bonus)" for h, n in report["team_bonus"].items()]
    return [w.bold("Bonuses"), *w.items(lines), ""] if lines else []


def _hp_table(
    w: _Writer, report: dict[str, Any], known: dict[str, str], names: dict[str, str]
) -> list[str]:
    rows = []
    for hero, hp in report["hp"].items():
        change = report["changes"].get(hero, {}).get("total", 0)
        status = report["status"][hero]
        owner = names[known[hero]] if hero in known else "?"
        hp_text = w.bold(str(hp)) if status == "alive" else str(hp)
        rows.append([hero, hp_text, f"{change:+d}" if change else "", status, owner])
    return w.table(["Hero", "HP", "Change", "Status", "Player"], rows)
