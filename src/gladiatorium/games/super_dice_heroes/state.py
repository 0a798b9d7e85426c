"""The match: set-up, ten rounds of one shared roll, simultaneous spending, scoring.

Heroes decide independently (ruling R12): while a round is being decided, a hero's
choices (the power picked at set-up, every spend of the round) reach only that hero.
Every other seat, and a spectator, sees each sheet as it stood when the round began
and who is done; when the last hero is done, every hero's choices are revealed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from gladiatorium.core import (
    Action,
    Copying,
    Ending,
    GladiatoriumError,
    OptionsError,
    Outcome,
    Rng,
    Seat,
    State,
    Termination,
)
from gladiatorium.games.super_dice_heroes.actions import POWERS, ChoosePower, Done
from gladiatorium.games.super_dice_heroes.hero import (
    MIDDLE,
    Die,
    Hero,
    SpendAction,
)
from gladiatorium.games.super_dice_heroes.options import SuperDiceHeroesOptions
from gladiatorium.games.super_dice_heroes.position import Position, load_position
from gladiatorium.games.super_dice_heroes.sheet import Sheet, load_sheet

SETUP = 0  # round number while heroes choose their superpowers
#: the actions that are no spend: choosing the superpower, being done with the round
SETTLING = frozenset({ChoosePower, Done})


#: being done with the round: one value serves every hero
DONE = Done()


def roll_power_choices(rng: Rng, reroll_doubles: bool = True) -> tuple[str, str]:
    """Set-up: roll 2d6 for two superpower choices, rerolling until they differ."""
    while True:
        first, second = rng.d(6), rng.d(6)
        if first != second or not reroll_doubles:
            return POWERS[first], POWERS[second]


#: the ways a match ends: the honor is counted once the last round is played
MOST_HONOR = Ending(Termination.SCORE, "most honor ({best})")
MOST_HONOR_SHARED = Ending(Termination.SCORE, "most honor ({best}), shared")
MOST_BYSTANDERS = Ending(Termination.SCORE, "most honor ({best}), then most bystanders ({most})")
MOST_BYSTANDERS_SHARED = Ending(
    Termination.SCORE, "most honor ({best}), then most bystanders ({most}), shared"
)
#: alone (R15): a title, and with a target, saved or short of it
TITLE = Ending(Termination.SCORE, "{score} honor: {title}")
SAVED = Ending(Termination.TARGET, "{score} honor, {title}: the city is saved")
SHORT = Ending(Termination.TARGET, "{score} honor, {title}: short of the {target} needed")


class SuperDiceHeroesState(State[SuperDiceHeroesOptions]):
    #: a copy (bots and searches copy a match at every decision) shares the sheet, the
    #: plain values and the heroes as the round began (never changed in place), and
    #: copies the heroes one by one and this round's dice and choices
    COPYING = Copying(
        shared=("sheet", "_places", "round", "_outcome", "_hidden_from", "_seats"),
        copied={
            "roll": list,
            "heroes": lambda heroes: {seat: hero.copy() for seat, hero in heroes.items()},
            **dict.fromkeys(("round_heroes", "pending"), dict),
            "choices_made": lambda made: {seat: list(each) for seat, each in made.items()},
        },
    )

    def __init__(
        self,
        options: SuperDiceHeroesOptions,
        players: int,
        seed: int,
        rng: Rng | None = None,
    ) -> None:
        super().__init__(options, players, seed)
        if rng is not None:
            self.rng = rng  # scenario tests force the set-up dice this way
        self.sheet: Sheet = load_sheet(options.sheet)
        #: where a hero stands, in words, by number
        self._places = {
            MIDDLE: "the middle",
            **{loc.number: loc.name for loc in self.sheet.locations},
        }
        self.round = SETUP
        self.roll: list[int] = []
        self.heroes: dict[Seat, Hero] = {}
        self.pending: dict[Seat, None] = {}
        self._outcome: Outcome | None = None
        self.choices_made: dict[Seat, list[str]] = {}  # this round's, revealed at its end
        #: the heroes as this round began (what the other seats see of them): never
        #: changed in place, so copies of the match share them
        self.round_heroes: dict[Seat, Hero] = {}
        self._hidden_from = 0  # index of the first event of the round being decided
        position = self._from_position(players) if options.position else None
        if position is None:
            self._set_up(players)
        self._seats = tuple(self.heroes)  # asked at every decision; no hero joins or leaves
        self._open_round()
        if position is not None:
            self._replay_round(position)

    def _set_up(self, players: int) -> None:
        """Each hero rolls its two superpower choices and is awaited to pick one."""
        options = self.options
        for n in range(1, players + 1):
            seat = str(n)
            name = options.hero_names[n - 1] if n <= len(options.hero_names) else f"Hero {n}"
            choices = roll_power_choices(self.rng, options.reroll_power_doubles)
            self.heroes[seat] = Hero.new(
                name, choices, self.sheet, options.power_uses, options.minions_last_resort
            )
            self.emit(
                "powers-rolled",
                f"{name} (seat {seat}) may choose {choices[0]} or {choices[1]}",
                seat=seat,
                choices=list(choices),
            )
        self.pending = dict.fromkeys(self.heroes)

    def _from_position(self, players: int) -> Position:
        """The sheets of the position, at the decision it is written at (no set-up): a
        round's roll as written (or rolled now, its named dice first), or the set-up's
        powers to choose, or the match over."""
        options = self.options
        position = load_position(options.position, self.sheet, options.power_uses, options.rounds)
        if len(position.heroes) != players:
            raise OptionsError(
                f"the position has {len(position.heroes)} heroes but the game {players} "
                f"players: give --players {len(position.heroes)}"
            )
        self.rng.queue(position.dice)
        for n, hero in enumerate(position.heroes, start=1):
            named = options.hero_names[n - 1] if n <= len(options.hero_names) else ""
            hero.name = hero.name or named or f"Hero {n}"
            hero.minions_last_resort = options.minions_last_resort
            self.heroes[str(n)] = hero
        self.emit("position", f"the game starts from a position: round {position.round}")
        if position.over:
            self.round, self.roll = position.round, list(position.roll or ())
            self._end()
        elif position.round == SETUP:
            self.pending = dict.fromkeys(self.heroes)
        elif position.roll is None:
            self.round = position.round - 1
            self._start_round()
        else:
            self.round, self.roll = position.round, list(position.roll)
            self._deal(self.roll)
        return position

    def _replay_round(self, position: Position) -> None:
        """Each hero's choices of the round so far, made again; then those done are
        done (one whose choices are not written, in a seat's position, is done with
        its dice unspent, or with the first power offered at set-up)."""
        for n, (chosen, done) in enumerate(zip(position.chosen, position.done, strict=True), 1):
            seat = str(n)
            for notation, where in zip(chosen, position.chosen_at[n - 1], strict=True):
                try:
                    self.apply(seat, self.parse(seat, notation))
                except GladiatoriumError as err:
                    raise OptionsError(f"{where} ({notation}): {err}") from err
            if done and seat in self.pending:
                hero = self.heroes[seat]
                self._apply(seat, ChoosePower(hero.choices[0]) if self.round == SETUP else DONE)
                self.revision += 1
        self.history.clear()  # the position is where the match starts
        self._legal_memo = None

    # ----- whose decisions -------------------------------------------------------------
    @property
    def seats(self) -> tuple[Seat, ...]:
        return self._seats

    def _awaiting(self) -> tuple[Seat, ...]:
        """Every hero that still has decisions this round (simultaneous play)."""
        return tuple(self.pending)

    def legal_actions(self, seat: Seat) -> list[Action]:
        return list(self._legal_list(seat))

    def _legal_list(self, seat: Seat) -> Sequence[Action]:
        """The powers to choose at set-up; then the hero's spends and Done (when it is
        legal). The spends are values made once (``hero.py``), so the list builds none."""
        if seat not in self.pending or self._outcome is not None:
            return ()
        hero = self.heroes[seat]
        if self.round == SETUP:
            return tuple(ChoosePower(p) for p in dict.fromkeys(hero.choices))
        values = hero.unspent()
        spends = hero.spends(self.sheet, values)
        return (*spends, DONE) if self._may_finish(values) else tuple(spends)

    def _may_finish(self, unspent: list[int]) -> bool:
        """Done is legal: dice may be wasted, or none is left unspent (``unspent``: the
        hero's :meth:`Hero.unspent`; a die left can always be spent, as
        :meth:`Hero.can_spend_a_die` says)."""
        return self.options.may_waste_dice or not unspent

    def illegal_reason(self, seat: Seat, action: Action) -> str | None:
        """A direct check (no listing of every action) with a message in game terms."""
        hero = self.heroes.get(seat)
        if hero is None or seat not in self.pending:
            return f"seat {seat} has nothing to decide now"
        if self.round == SETUP:
            if isinstance(action, ChoosePower) and action.power in hero.choices:
                return None
            return f"choose one of your rolled superpowers: {' or '.join(hero.choices)}"
        if isinstance(action, ChoosePower):
            return "superpowers are chosen at set-up only"
        if isinstance(action, Done):
            if self._may_finish(hero.unspent()):
                return None
            return "spend every die first (option may_waste_dice is off)"
        if not isinstance(action, SpendAction):
            return f"{action} is not a Super Dice Heroes action"
        return hero.spend_problem(self.sheet, action)

    # ----- doing it ---------------------------------------------------------------------
    def _apply(self, seat: Seat, action: Action) -> None:
        hero = self.heroes[seat]
        if type(action) not in SETTLING:  # a spend: most actions are
            self._spend(seat, hero, cast(SpendAction, action))
        elif isinstance(action, ChoosePower):
            hero.power = action.power
            self.choices_made[seat].append(str(action))
            text = f"{hero.name} chooses {action.power}"
            self.emit("power", text, to=seat, seat=seat, power=action.power)
            self._finish(seat)
        elif isinstance(action, Done):
            hero.done = True
            self.emit("done", f"{hero.name} is done", seat=seat)
            self._finish(seat)

    def _spend(self, seat: Seat, hero: Hero, action: SpendAction) -> None:
        """Spends are the hero's own business until the round resolves (R12)."""
        completed = hero.spend(self.sheet, action)
        here = hero.location
        where = self._places[here]
        said = str(action)
        self.choices_made[seat].append(said)
        text = f"{hero.name}: {said} ({where})"
        self.emit("spend", text, to=seat, seat=seat, action=said, location=here)
        for goal in completed:
            gains = [f"{goal.honor} honor"] if goal.honor else []
            gains += [f"{goal.wild} wild die"] * bool(goal.wild)
            gains += [f"{goal.bystander} bystander"] * bool(goal.bystander)
            self.emit(
                "goal",
                f"{hero.name} completes {where}'s {goal.name}: {', '.join(gains) or 'nothing'}",
                to=seat,
                seat=seat,
                location=here,
                goal=goal.name,
                honor=goal.honor,
                wild=goal.wild,
                bystander=goal.bystander,
            )

    def _finish(self, seat: Seat) -> None:
        del self.pending[seat]
        if not self.pending:
            self._reveal()
            if self.round == self.options.rounds:
                self._end()
            else:
                self._start_round()
            self._open_round()

    def _reveal(self) -> None:
        """Everybody is done: every hero's choices of the round become public."""
        for seat, hero in self.heroes.items():
            made = self.choices_made[seat]
            left = [d.value for d in hero.dice if not d.spent]
            text = f"{hero.name}: {', '.join(made) or 'no spend'}"
            text += f" ({len(left)} dice unspent)" if left else ""
            text += f"; {hero.score(self.sheet)} honor"
            self.emit("reveal", text, seat=seat, round=self.round, actions=list(made), unspent=left)

    def _open_round(self) -> None:
        """A round (or the set-up) to decide: the public picture is the sheets now."""
        self.choices_made = {seat: [] for seat in self.heroes}
        self.round_heroes = {seat: hero.copy() for seat, hero in self.heroes.items()}
        self._hidden_from = len(self.events)

    def _start_round(self) -> None:
        """One shared roll for everybody; every hero decides on it."""
        self.round += 1
        self.roll = self.rng.roll(self.options.dice_per_round, 6)
        self._deal(self.roll)
        shown = " ".join(map(str, self.roll))
        self.emit(
            "roll", f"round {self.round}: the dice show {shown}", round=self.round, dice=self.roll
        )

    def _deal(self, roll: list[int]) -> None:
        """Every hero gets the round's dice and is awaited."""
        dice = [Die(v, v) for v in roll]  # values: every hero's list holds the same
        for hero in self.heroes.values():
            hero.dice = dice[:]
            hero.done = False
        self.pending = dict.fromkeys(self.heroes)

    def _end(self) -> None:
        """Total the honor; the most honor wins (ties: ruling R14; solo: R15)."""
        scores = self.scores()
        self._outcome = self._solo(scores) if self.players == 1 else self._ranking(scores)
        self.pending = {}
        self.emit("end", self._outcome.reason, scores=dict(scores))

    def _solo(self, scores: dict[Seat, int]) -> Outcome:
        """Solo (R15): the rulebook only totals the honor, so the lone hero ends with a
        title and is never beaten; the house rule ``solo_target`` makes a low score a
        loss."""
        ((seat, score),) = scores.items()
        title = self.sheet.solo_title(score)
        target = self.options.solo_target
        if target is None:
            return Outcome.win([seat], TITLE(score=score, title=title), scores=scores)
        if score >= target:
            return Outcome.win([seat], SAVED(score=score, title=title), scores=scores)
        return Outcome.all_lost(SHORT(score=score, title=title, target=target), scores=scores)

    def _ranking(self, scores: dict[Seat, int]) -> Outcome:
        best = max(scores.values())
        leaders = [s for s, v in scores.items() if v == best]
        if len(leaders) > 1 and self.options.ties == "bystanders":
            most = max(self.heroes[s].bystanders for s in leaders)
            leaders = [s for s in leaders if self.heroes[s].bystanders == most]
            ending = MOST_BYSTANDERS_SHARED if len(leaders) > 1 else MOST_BYSTANDERS
            return Outcome.win(leaders, ending(best=best, most=most), scores=scores)
        ending = MOST_HONOR_SHARED if len(leaders) > 1 else MOST_HONOR
        return Outcome.win(leaders, ending(best=best), scores=scores)

    def scores(self) -> dict[Seat, int]:
        return {seat: hero.score(self.sheet) for seat, hero in self.heroes.items()}

    def outcome(self) -> Outcome | None:
        return self._outcome

    # ----- what a seat sees ---------------------------------------------------------------
    def view(self, seat: Seat | None) -> dict[str, Any]:
        """A seat's own sheet as it is now; every other sheet as the round began (R12).
        Fresh data: editing a view changes neither the match nor another seat's view."""
        heroes = {
            s: self._hero_view(h)
            if s == seat
            else {**self._hero_view(self.round_heroes[s]), "done": s not in self.pending}
            for s, h in self.heroes.items()
        }
        return {
            "sheet": self.sheet.name,
            "round": self.round,
            "rounds": self.options.rounds,
            "roll": list(self.roll),
            "awaiting": list(self.pending),
            "heroes": heroes,
            "solo": self.players == 1,
            "solo_target": self.options.solo_target if self.players == 1 else None,
        }

    def shared_view(self) -> dict[str, Any]:
        """What every seat's view holds alike: the spectator's view, every sheet as the
        round began (``Game.shared_view``)."""
        return self.view(None)

    def seat_view(self, seat: Seat | None, shared: dict[str, Any]) -> dict[str, Any]:
        """The view of ``seat`` (equal to :meth:`view`'s) from ``shared``: its own sheet
        as it is now in place of the one the round began with; the other sheets are
        ``shared``'s own objects (read them, never edit them)."""
        view = dict(shared)
        if seat in self.heroes:
            view["heroes"] = {**shared["heroes"], seat: self._hero_view(self.heroes[seat])}
        return view

    def secrets_for(self, seat: Seat | None) -> set[str]:
        """The other heroes' choices in the round being decided."""
        return {
            event.text
            for event in self.events[self._hidden_from :]
            if event.to is not None and not event.visible_to(seat)
        }

    def unsaid(self, seat: Seat) -> None:
        """Take back every other hero's choices of the round being decided, which
        ``seat`` may not know (R12): each is as the round began, a hero that is done
        stays done with its dice unspent (see ``Game.determinize``). Only what ``seat``
        may know is read; its events alone are kept."""
        self._hidden_from = sum(e.visible_to(seat) for e in self.events[: self._hidden_from])
        self.events = self.events_for(seat)
        for other, hero in self.round_heroes.items():
            if other != seat:
                self.heroes[other] = hero.copy()
                self.heroes[other].done = other not in self.pending
                self.choices_made[other] = []

    def _hero_view(self, hero: Hero) -> dict[str, Any]:
        return {
            "name": hero.name,
            "power_choices": list(hero.choices),
            "power": hero.power,
            "powers_left": hero.powers_left,
            "location": hero.location,
            "marks": [list(m) for m in hero.marks],
            "minions": list(hero.minions),
            "wild_earned": hero.wild_earned,
            "wild_spent": hero.wild_spent,
            "bystanders": hero.bystanders,
            "dice": [[d.rolled, d.value, d.spent] for d in hero.dice],
            "done": hero.done,
            "honor": hero.score(self.sheet),
        }
