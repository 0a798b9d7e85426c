"""Errors shared by every game. Each says what is wrong and where."""


class GladiatoriumError(Exception):
    """Base of every error the engine raises on purpose."""


class IllegalAction(GladiatoriumError):
    """An action that the rules do not allow now; the state is unchanged."""


class NotYourTurn(IllegalAction):
    """A seat acted while the game was not waiting for it; the state is unchanged."""


class GameOver(IllegalAction):
    """An action was sent to a finished game; the state is unchanged."""


class OptionsError(GladiatoriumError):
    """Options that do not validate (names the option and why)."""


class PositionError(OptionsError):
    """A written position that does not read (names the source, the line and the field)."""


class RecordError(GladiatoriumError):
    """A match record that cannot be read or does not replay (names the place)."""


class UnknownGame(GladiatoriumError):
    """A game slug or bot name that is not registered."""


class ForcedDiceExhausted(GladiatoriumError):
    """A scenario ran out of the dice it forced: the test forced too few."""
