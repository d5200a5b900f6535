"""Café Carnage's state: flat lists of small ints, cheap to copy."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, NamedTuple, Self

from mypy_extensions import mypyc_attr

from potluck.engine.state import State

# Final: the compiled rules read these as constants, not as module attributes looked up
# in a dict at every use (the phase is tested at every step).
STARTER: Final = 0
MAIN: Final = 1
DESSERT: Final = 2
BALLOT: Final = 3
OVER: Final = 4
PHASE_NAMES = ("starter", "main", "dessert", "ballot", "over")

SPLIT: Final = 0
SEPARATELY: Final = 1
RUN: Final = 2
CARD_WORDS = ("split", "separately", "run")
CARD_TITLES = ("Split the Bill Evenly", "Each Pay Separately", "RUN!")
#: The hand every player starts with: 2 Split, 2 Separately, 1 Run.
STARTING_HAND = (2, 2, 1)

NO_DISH: Final = -1
NO_CARD: Final = -1


class RoundRecord(NamedTuple):
    """What happened in one finished round, kept for views, bots and metrics.

    ``ballots`` is private (each seat may see only its own); everything else was
    revealed at the table. Votes of the players who stayed were shuffled before
    they were shown, so the public record keeps only their tally.
    """

    number: int  # 1-based
    orders: tuple[int, ...]  # dish index per seat and course, seat * 3 + course
    scored: tuple[int, ...]  # Gourmet Points gained per seat (0 for a repeat in the variant)
    ballots: tuple[int, ...]  # card per seat (private)
    runners: tuple[int, ...]
    caught: tuple[int, ...]
    runners_bill: int  # all runners' meals, paid by the caught ones (0 if none caught)
    split_votes: int
    separately_votes: int
    method: int  # SPLIT, SEPARATELY, or NO_CARD when nobody stayed at the table
    paid: tuple[int, ...]  # dollars each seat paid this round
    loans: tuple[int, ...]  # IOU loans each seat took this round (each $5 for 5 points)


@mypyc_attr(allow_interpreted_subclasses=True)
class CafeState(State):
    """The table during a game of Café Carnage.

    Seat-indexed lists hold one entry per seat; ``orders`` and ``hands`` hold three
    per seat (``seat * 3 + course`` / ``seat * 3 + card``). Dishes are indices into
    the game's dish list; identical cards of one dish share its index.
    """

    __slots__ = (
        "ballots",
        "choices",
        "consumed",
        "decks",
        "discards",
        "eaten",
        "fled",
        "hands",
        "iou",
        "log",
        "menus",
        "money",
        "orders",
        "phase",
        "points",
        "round",
    )

    round: int  # 0-based; equals the number of rounds once the game is over
    phase: int
    decks: list[list[int]]  # per course: the face-down deck (order is drawn, not kept)
    discards: list[list[int]]  # per course: menu cards not chosen this round
    consumed: list[list[int]]  # per course: dishes eaten (they leave the game)
    menus: list[tuple[int, ...]]  # per seat: the menu of the course being ordered
    orders: list[int]  # per seat and course: the dish chosen this round, or NO_DISH
    ballots: list[int]  # per seat: the action card played this round, or NO_CARD
    hands: list[int]  # per seat and card: how many of that action card the seat holds
    money: list[int]
    points: list[int]  # position on the Gourmet Track
    iou: list[bool]  # took an IOU token
    fled: list[bool]  # escaped successfully, so the Run! card is discarded
    eaten: list[int]  # per seat: bit mask of dishes eaten in earlier rounds
    log: tuple[RoundRecord, ...]
    # Derived from the fields above (never saved): per seat, the actions it may
    # take now, as a tuple for ``legal_actions`` and as a bit mask of action
    # indices for the legality check on the hot path. Recomputed on each deal.
    choices: list[tuple[tuple[Any, ...], int]]

    def __init__(self, num_players: int, seed: int, options: Mapping[str, Any]) -> None:
        super().__init__(num_players, seed, options)

    def clone(self) -> Self:
        twin = self._blank_copy()
        twin.round = self.round
        twin.phase = self.phase
        twin.decks = [deck.copy() for deck in self.decks]
        twin.discards = [pile.copy() for pile in self.discards]
        twin.consumed = [pile.copy() for pile in self.consumed]
        twin.menus = self.menus.copy()
        twin.orders = self.orders.copy()
        twin.ballots = self.ballots.copy()
        twin.hands = self.hands.copy()
        twin.money = self.money.copy()
        twin.points = self.points.copy()
        twin.iou = self.iou.copy()
        twin.fled = self.fled.copy()
        twin.eaten = self.eaten.copy()
        twin.log = self.log
        twin.choices = self.choices.copy()
        return twin
