"""The error classes every surface of Potluck raises and catches.

All of them derive from :class:`PotluckError`, itself a :class:`ValueError`, so
that a caller can catch "the input was wrong" in one clause, while the message
always says exactly which thing was wrong and why::

    >>> import potluck
    >>> potluck.load_game("chess")
    Traceback (most recent call last):
    ...
    potluck.engine.errors.UnknownGameError: unknown game 'chess'; known games: ...
"""

from __future__ import annotations


class PotluckError(ValueError):
    """Base class of every error Potluck raises on bad input."""


class UnknownGameError(PotluckError):
    """A game id that no registered game has."""


class OptionError(PotluckError):
    """A variant option that the game does not declare, or a value of the wrong type."""


class DataError(PotluckError):
    """A card or board data file that is missing, malformed or fails its schema."""


class InvalidActionError(PotluckError):
    """Action text that does not parse as any action of the game."""


class IllegalActionError(PotluckError):
    """An action that parses but is not allowed now.

    ``reason`` is the same sentence that ``Game.explain`` gives for the action.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NotYourTurnError(IllegalActionError):
    """An action from a seat that need not act now."""


class RecordError(PotluckError):
    """A game record or saved state that does not fit the game it names."""
