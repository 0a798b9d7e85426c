"""A defence kept with the hero's turn it follows from (the action and the hits
waiting for it) is the defence the match awaits: its situation and legal reactions
are those worked out afresh, in every duel that meets it again."""

from __future__ import annotations

from gladiatorium.core.match import decide, make_bots
from gladiatorium.games.superhero_gladiators import SuperheroGladiators
from gladiatorium.games.superhero_gladiators.commands.duel import duel_options
from gladiatorium.games.superhero_gladiators.state import SuperheroGladiatorsState
from gladiatorium.games.superhero_gladiators.worlds import _situation

GAME = SuperheroGladiators()
#: pairs whose heroes defend (toughness, missile deflection, slippery, copy power)
PAIRS = (
    ["cowboy", "barbarian"],
    ["perseus", "wizard-of-the-wild-hair-cult"],
    ["porcupine-boar-guy", "giant-rubber-cement-archer"],
    ["stranger-of-solarium", "fred-the-giant"],
)


def test_a_kept_defence_is_the_one_worked_out_afresh() -> None:
    kept = 0
    for heroes in PAIRS:
        options = GAME.make_options(duel_options(heroes, [], None))
        for seed in range(40):
            state = GAME.start(options, 2, seed)
            assert isinstance(state, SuperheroGladiatorsState)
            bots = make_bots(GAME, seed, dict.fromkeys(state.seats, "greedy"))
            while awaited := state.awaiting():
                seat = awaited[0]
                with_turn = state._defence is not None  # kept when the hits landed
                action = decide(GAME, state, seat, bots[seat], awaited)
                if state.pending:
                    defence = state.kept_defence()
                    kept += with_turn
                    assert defence.situation == _situation(state)
                    assert list(state.legal_now(seat)) == state._legal()
                state.apply(seat, action)
    assert kept > 100  # most defences were met again
