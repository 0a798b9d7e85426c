"""A written round already under way, made again: its start as it was drawn (nothing is
drawn now), the moves and guesses posted so far (each checked as the rules check a
player's action, an error naming its line), and the Battle's end when it is over."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gladiatorium.core import Outcome, PositionError
from gladiatorium.games.hero_battle.actions import Abstain, Guess, Move
from gladiatorium.games.hero_battle.compile import ROUND_LIMIT, declare_winner
from gladiatorium.games.hero_battle.enumerate import move_targets, parse_guess, parse_move
from gladiatorium.games.hero_battle.setup import canonical

if TYPE_CHECKING:
    from gladiatorium.core import Seat
    from gladiatorium.games.hero_battle.position import Path, Position, Started
    from gladiatorium.games.hero_battle.state import HeroBattleState

#: the line of a round's start post that says it is anonymous
ANONYMOUS_LINE = "This is an anonymous round: hits are sent privately."


def start_lines(state: HeroBattleState, started: Started) -> list[str]:
    """The lines a round's start posts for its effect, forced abstainers, anonymity and
    Random Player's hit (a resurrection or an HP grant adds its own)."""
    lines = []
    if started.effect is not None:
        lines.append(f"Hand of God: {started.effect}.")
    if started.effect == "forced-abstain":
        lines.append(f"Forced to abstain: {', '.join(state.name(s) for s in started.forced)}.")
    if started.anonymous:
        lines.append(ANONYMOUS_LINE)
    if started.random_hit is not None:
        lines.append(f"Random Player hits {started.random_hit}.")
    return lines


def resume_round(state: HeroBattleState, position: Position) -> None:
    """The position's round as written: started, its moves and guesses posted, or the
    Battle over (its last round's moves and guesses as they were posted, checked
    before that round's compile changed the Battle: taken as written)."""
    started = position.started
    assert started is not None
    state.round = position.round
    state.effect = started.effect
    state.forced = started.forced
    state.anonymous = started.anonymous
    state.random_hit = started.random_hit
    state.round_start = list(
        start_lines(state, started) if started.posted is None else started.posted
    )
    state.moves = {seat: Abstain() for seat in started.forced}
    text = f"Round {state.round} begins."
    if state.round_start:
        text += " " + " ".join(state.round_start)
    state.emit("round", text, round=state.round, effect=state.effect, anonymous=state.anonymous)
    _post_moves(state, position)
    _post_guesses(state, position)
    if position.over:
        end_battle(state)


def _refuse(position: Position, path: Path, message: str) -> PositionError:
    assert position.fail is not None
    return position.fail(path, message)


def _post_moves(state: HeroBattleState, position: Position) -> None:
    active = state.active_players()
    for seat, text in position.moves.items():
        path: Path = ("moves", int(seat))
        if seat not in active and not position.over:
            raise _refuse(position, path, f"player {seat} has no hero alive or a Zombie")
        words = " ".join(text.split()).lower()
        if words.startswith("?") and position.seat not in (None, seat):
            action: Move | Abstain | None = _open_hits(state, seat, text, position.over)
        else:
            action = Abstain() if words == "abstain" else parse_move(text, state.heroes)
        if action is None:
            raise _refuse(position, path, f"{text!r}: write 'hit HERO, HERO heal HERO' or abstain")
        reason = None if position.over else state.illegal_reason(seat, action)
        if reason is not None:
            raise _refuse(position, path, f"{text!r}: {reason}")
        if isinstance(action, Move):
            action = Move(tuple(canonical(list(action.hits))), tuple(canonical(list(action.heals))))
        state.moves[seat] = action


def _open_hits(state: HeroBattleState, seat: Seat, text: str, over: bool) -> Move | None:
    """A move of an anonymous round whose hits a player's position leaves open (``?``
    or ``? heal HERO``): the first move the rules allow with those heals (the Battle
    over: the heals alone, the last compile having changed what the rules allow)."""
    rest = text.strip()[1:].strip()
    heals = parse_move(rest, state.heroes) if rest else None
    wanted = () if heals is None else heals.heals
    if over:
        return Move((), wanted)
    need = state.need(seat)
    for hits, healed in move_targets(need, state.heroes, state.double_up()):
        if tuple(canonical(list(healed))) == tuple(canonical(list(wanted))):
            return Move(tuple(hits), tuple(healed))
    return None


def _post_guesses(state: HeroBattleState, position: Position) -> None:
    active = state.active_players()
    for seat, guesses in position.guesses.items():
        path: Path = ("guesses", int(seat))
        if seat not in active and not position.over:
            raise _refuse(position, path, f"player {seat} has no hero alive or a Zombie")
        for text in guesses:
            guess = parse_guess(f"guess {text}", state.heroes)
            if guess is None:
                raise _refuse(position, path, f"{text!r}: write HERO=PLAYER")
            guess = Guess(guess.hero, state.seat_named(guess.player))
            reason = None if position.over else state.illegal_reason(seat, guess)
            if reason is not None:
                raise _refuse(position, path, f"{text!r}: {reason}")
            state.guesses.setdefault(seat, []).append(guess)


def end_battle(state: HeroBattleState) -> None:
    """The result of a Battle over, as its last compile gave it: the last heroes alive
    (those who died in the last round report, if they died together), else a draw at
    the round limit."""
    died = [death["hero"] for death in state.reports[-1]["deaths"]] if state.reports else []
    declare_winner(state, died)
    if state.result is None:
        state.result = Outcome.drawn(
            ROUND_LIMIT(heroes=len(state.active_players()), rounds=state.round),
            scores=state.scores(),
        )
