"""Hero Battle scenario helpers: a fixed eight-player Battle with known identities."""

from __future__ import annotations

from typing import Any

from gladiatorium.games.hero_battle import HeroBattle, HeroBattleState

GAME = HeroBattle()
ANIMALS = ("Ant", "Bat", "Cat", "Dog", "Eel", "Fox", "Gnu", "Hog")
#: seat N plays the hero after the one it submitted: 1 Bat, 2 Cat ... 7 Hog, 8 Ant
HERO = {str(i + 1): ANIMALS[(i + 1) % 8] for i in range(8)}
#: seat N's nemeses are the heroes of seats N+1 and N+2: 1 -> Cat, Dog ...
NEMESES = tuple(tuple(sorted((ANIMALS[(i + 2) % 8], ANIMALS[(i + 3) % 8]))) for i in range(8))


def battle(players: int = 8, **options: Any) -> HeroBattleState:
    """Eight players with the fixed assignment above (options may override it)."""
    values: dict[str, Any] = {
        "signups": ANIMALS[:players],
        "assign_heroes": tuple(HERO[str(i)] for i in range(1, players + 1)),
        "assign_nemeses": NEMESES[:players],
    }
    values.update(options)
    state = GAME.start(values, players, seed=1)
    assert isinstance(state, HeroBattleState)
    return state


def play_round(
    state: HeroBattleState,
    moves: dict[str, str],
    guesses: dict[str, str] | None = None,
    dice: list[int] | None = None,
) -> dict[str, Any]:
    """Guesses, then moves (seats not listed do not move); the moderator closes the
    round if it is still open. ``dice`` are forced for the compile and next start."""
    state.rng.force(dice or [])
    start = state.round
    for seat, text in (guesses or {}).items():
        state.act(seat, text)
    for seat, text in moves.items():
        state.act(seat, text)
    if state.round == start and not state.is_over:
        state.act("moderator", "close")
    assert state.rng.forced_left == 0, "the test forced more dice than were drawn"
    return state.reports[-1]


def hp(state: HeroBattleState) -> dict[str, int]:
    return {name: hero.hp for name, hero in state.heroes.items()}


def everyone(text: str, players: int = 8) -> dict[str, str]:
    return {str(i): text for i in range(1, players + 1)}


def position_text(heroes: dict[str, str] | None = None, round_: int = 1, extra: str = "") -> str:
    """The fixed deal above as a hand-written position (docs/rules/hero-battle.md,
    "Positions"): ``heroes`` gives the HP-table entries that differ from ``{hp: 12}``
    (``{"Eel": "{hp: 2}"}``; other names add heroes); ``extra`` adds top-level lines."""
    lines = [f"round: {round_}", "players:"]
    for index, animal in enumerate(ANIMALS):
        nemeses = ", ".join(NEMESES[index])
        hero = HERO[str(index + 1)]
        lines.append(f"  - {{signup: {animal}, hero: {hero}, nemeses: [{nemeses}]}}")
    lines.append("heroes:")
    given = heroes or {}
    lines += [f"  {name}: {given.get(name, '{hp: 12}')}" for name in ANIMALS]
    lines += [f"  {name}: {entry}" for name, entry in given.items() if name not in ANIMALS]
    return "\n".join(lines) + "\n" + extra


def battle_at(
    heroes: dict[str, str] | None = None, round_: int = 1, extra: str = "", **options: Any
) -> HeroBattleState:
    """The fixed eight-player Battle started from a written position."""
    text = position_text(heroes, round_, extra)
    state = GAME.start(options, 8, seed=1, position=text, source="test.yaml")
    assert isinstance(state, HeroBattleState)
    return state
