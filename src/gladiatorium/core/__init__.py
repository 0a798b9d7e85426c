"""The contract every game fulfils. Core knows no game."""

from gladiatorium.core.action import Action, action_from_json, is_number
from gladiatorium.core.channels import Channel
from gladiatorium.core.errors import (
    ForcedDiceExhausted,
    GameOver,
    GladiatoriumError,
    IllegalAction,
    NotYourTurn,
    OptionsError,
    PositionError,
    RecordError,
    UnknownGame,
)
from gladiatorium.core.events import Event, Seat
from gladiatorium.core.game import Bot, BotFactory, Game, GameInfo
from gladiatorium.core.legal import LegalList
from gladiatorium.core.legal_form import Choose, LegalForm, Pair, Pick
from gladiatorium.core.observation import Observation
from gladiatorium.core.outcome import Ending, Outcome, Reason, Termination, standing
from gladiatorium.core.presenters import (
    Code,
    ItemFacts,
    OptionChoice,
    TerminalPresenter,
    WebPresenter,
)
from gladiatorium.core.registry import (
    best_bot,
    bots_for,
    game_of,
    games,
    get_bot,
    get_game,
    lab_commands,
    register_game,
    register_generic_bot,
    register_lab_commands,
)
from gladiatorium.core.rng import Rng, derive_seed, entropy_seed
from gladiatorium.core.state import Copying, State

__all__ = [
    "Action",
    "Bot",
    "BotFactory",
    "Channel",
    "Choose",
    "Code",
    "Copying",
    "Ending",
    "Event",
    "ForcedDiceExhausted",
    "Game",
    "GameInfo",
    "GameOver",
    "GladiatoriumError",
    "IllegalAction",
    "ItemFacts",
    "LegalForm",
    "LegalList",
    "NotYourTurn",
    "Observation",
    "OptionChoice",
    "OptionsError",
    "Outcome",
    "Pair",
    "Pick",
    "PositionError",
    "Reason",
    "RecordError",
    "Rng",
    "Seat",
    "State",
    "TerminalPresenter",
    "Termination",
    "UnknownGame",
    "WebPresenter",
    "action_from_json",
    "best_bot",
    "bots_for",
    "derive_seed",
    "entropy_seed",
    "game_of",
    "games",
    "get_bot",
    "get_game",
    "is_number",
    "lab_commands",
    "register_game",
    "register_generic_bot",
    "register_lab_commands",
    "standing",
]
