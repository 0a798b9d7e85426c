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
    if not 1 <= number <= len(reports):
        raise GladiatoriumError(f"round {number}: compiled rounds are 1 to {len(reports)}")
    report = reports[number - 1]
    names = {s: p["name"] for s, p in view["players"].items()} | {"random": "Random Player"}
    known = _identities_until(reports, number)
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


def _identities_until(reports: list[dict[str, Any]], number: int) -> dict[str, str]:
    known: dict[str, str] = {}
    for report in reports[:number]:
        for item in report["revealed"]:
            known[item["hero"]] = item["player"]
    return known


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
