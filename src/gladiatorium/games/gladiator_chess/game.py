"""Gladiator Chess: the rules (info, options, a match, bots, sides); shown by
``terminal.py`` and ``web.py``."""

from __future__ import annotations

from collections.abc import Mapping

from gladiatorium.core import (
    BotFactory,
    Channel,
    Game,
    GameInfo,
    Seat,
    State,
    standing,
)
from gladiatorium.core.channels import public_channels, team_channel
from gladiatorium.games.gladiator_chess.actions import ACTION_TYPES
from gladiatorium.games.gladiator_chess.diagram import read_diagram
from gladiatorium.games.gladiator_chess.options import GladiatorChessOptions
from gladiatorium.games.gladiator_chess.pieces import COMMANDERS, SEAT_ROLES, TEAMS, seat_of
from gladiatorium.games.gladiator_chess.state import GladiatorChessState
from gladiatorium.games.gladiator_chess.terminal import GladiatorChessTerminal
from gladiatorium.games.gladiator_chess.web import GladiatorChessWeb


class GladiatorChess(Game[GladiatorChessOptions]):
    info = GameInfo(
        slug="gladiator-chess",
        name="Gladiator Chess",
        summary="Chess on 12x10 with dice combat: two teams of four commanders, "
        "freezing queens, overrides.",
        min_players=2,
        max_players=8,
        default_players=8,
        hidden_information=False,
        simultaneous=False,
        version="3",
    )
    options_type = GladiatorChessOptions
    action_types = ACTION_TYPES
    terminal_presenter = GladiatorChessTerminal
    web_presenter = GladiatorChessWeb
    search_iterations = 40  # measured: 16 lost a game in ten to random, 40 none

    def new_state(
        self, options: GladiatorChessOptions, players: int, seed: int
    ) -> GladiatorChessState:
        """The eight commander seats exist whatever ``players`` is: a person may hold
        several commanders (``--seat`` maps each seat to a person or a bot)."""
        return GladiatorChessState(options, players, seed)

    def load_position(
        self, options: GladiatorChessOptions, players: int, seed: int, text: str, source: str
    ) -> GladiatorChessState:
        """A match from a written position (docs/rules/gladiator-chess.md, "Positions"):
        its next dice, if it names them, are rolled before the seed's."""
        diagram = read_diagram(text, source)
        state = GladiatorChessState(options, players, seed, diagram)
        state.rng.queue(diagram.dice)
        return state

    def write_position(self, state: State[GladiatorChessOptions], seat: Seat | None = None) -> str:
        """The match at any decision point; every seat knows everything, so a seat's
        position is the whole truth."""
        assert isinstance(state, GladiatorChessState)
        return state.position_text()

    def evaluate(self, state: State[GladiatorChessOptions]) -> dict[Seat, float]:
        """Each team's pieces on the board, by the Marshal's worth and their health,
        against the other team's; every commander of a team stands as the team."""
        from gladiatorium.games.gladiator_chess.bots import VALUE

        assert isinstance(state, GladiatorChessState)
        teams: dict[str, float] = {}
        for piece in state.pos.pieces:
            if piece.alive:
                worth = VALUE[piece.kind] * (0.6 + 0.4 * piece.hp / max(1, piece.max_hp))
                teams[piece.team] = teams.get(piece.team, 0.0) + worth
        by_team = standing(teams, 15.0)
        return {s: by_team.get(SEAT_ROLES[s][0], 0.0) for s in state.seats}

    def bots(self) -> Mapping[str, BotFactory]:
        from gladiatorium.games.gladiator_chess.bots import Marshal

        return {"marshal": Marshal, "bot": Marshal}

    def sides(self, state: State[GladiatorChessOptions]) -> tuple[tuple[Seat, ...], ...]:
        """White's four commanders, then Black's: a team wins or loses together."""
        return tuple(tuple(seat_of(team, c) for c in COMMANDERS) for team in TEAMS)

    def channels(
        self, state: State[GladiatorChessOptions], seat: Seat | None, over: bool
    ) -> list[Channel]:
        """The public thread and spectators' talk, and for a commander the channel of
        his colour's four commanders, where the King and his commanders plan together
        (the other side and spectators never read it)."""
        found = public_channels(seat, over)
        if seat in SEAT_ROLES:
            found.append(team_channel(SEAT_ROLES[seat][0]))
        return found
