"""Potluck: faithful rules engines, bots and tools for food-themed tabletop games.

>>> import potluck
>>> "cafe-carnage" in potluck.list_games()
True
>>> g = potluck.load_game("cafe-carnage")
>>> s = g.new_game(num_players=4, seed=42)
>>> len(g.legal_actions(s, 0)) >= 1
True
"""

# First of all: importing potluck.native loads the compiled build of the rules when a
# fresh one is there (docs/engine.md, "Compiled build"); every module below may be one.
from potluck import native
from potluck.engine.action import Action
from potluck.engine.bots import Bot, RandomBot
from potluck.engine.errors import (
    DataError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    OptionError,
    PotluckError,
    RecordError,
    UnknownGameError,
)
from potluck.engine.game import Game
from potluck.engine.options import Option
from potluck.engine.outcome import Outcome
from potluck.engine.registry import list_games, load_game, register, unregister
from potluck.engine.state import State

__all__ = [
    "Action",
    "Bot",
    "DataError",
    "Game",
    "IllegalActionError",
    "InvalidActionError",
    "NotYourTurnError",
    "Option",
    "OptionError",
    "Outcome",
    "PotluckError",
    "RandomBot",
    "RecordError",
    "State",
    "UnknownGameError",
    "list_games",
    "load_game",
    "native",
    "register",
    "unregister",
]
