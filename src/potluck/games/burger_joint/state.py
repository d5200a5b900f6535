"""Burger Joint's state: flat lists of small ints, cheap to copy.

Per-seat-and-colour lists are indexed ``seat * C + colour`` (``C`` colours);
per-seat-and-bistro lists ``seat * B + slot``. Seat 0 plays the Burger board
and starts; seat 1 plays Pizza.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Self

from mypy_extensions import mypyc_attr

from potluck.engine.state import State

# Phases of a turn.
DRAFT: Final = 0
TRADE: Final = 1
BUILD: Final = 2
REDRAW: Final = 3
DISCARD: Final = 4
OVER: Final = 5
PHASE_NAMES: Final[tuple[str, ...]] = (
    "production",
    "trading",
    "building",
    "redraw",
    "discard",
    "over",
)

# Kinds of action.
TAKE: Final = 0
TRADE3: Final = 1
REDRAW_START: Final = 2
PUT: Final = 3
DRAW: Final = 4
SWAP_TWO: Final = 5
EXTRA: Final = 6
SWAP_ONE: Final = 7
PICK: Final = 8
PUB_BOTH: Final = 9
PUB_STEAL: Final = 10
PUB_ADVANCE: Final = 11
BASIC: Final = 12
DINER: Final = 13
BISTRO: Final = 14
END: Final = 15
DISCARD_ONE: Final = 16

# Ability numbers (the order of ``schema.ABILITIES``); bit ``1 << n`` in ``used``.
AB_REDRAW: Final = 0
AB_SWAP_TWO: Final = 1
AB_EXTRA: Final = 2
AB_SWAP_ONE: Final = 3
AB_PICK: Final = 4
AB_NONE: Final = 5

NO_WINNER: Final = -1


@mypyc_attr(allow_interpreted_subclasses=True)
class BurgerState(State):
    """The table during a game of Burger Joint.

    The bag is a count per colour: its order does not exist, every draw is made
    from ``rng`` when it happens, so the bag's contents are public (known by
    counting) and nothing about it is hidden but the future.
    """

    __slots__ = (
        "active",
        "aside",
        "bag",
        "basics",
        "bistros",
        "cubes",
        "diners",
        "owed",
        "phase",
        "pool",
        "pub_buys",
        "publicity",
        "score",
        "taken",
        "turn",
        "used",
        "winner",
    )

    active: int  # the active player's seat
    phase: int
    turn: int  # turns started so far (1 during the first turn)
    bag: list[int]  # per colour
    cubes: list[int]  # per seat and colour: each player's storage
    pool: list[int]  # per colour: production cubes not yet taken
    owed: list[int]  # per seat: cubes it may take this production (capacity, at most 4)
    taken: list[int]  # per seat: cubes taken this production
    basics: list[int]  # per seat: basic restaurants (top spaces of the column)
    diners: list[int]  # per seat and colour: 1 if the diner is owned
    bistros: list[int]  # per seat and slot: 1 if the bistro is built
    publicity: list[int]  # per seat: 0 off the track, k on its k-th space
    score: list[int]  # per seat: the scoring marker
    used: int  # bit mask of abilities used this turn
    pub_buys: int  # publicity bought this turn
    aside: list[int]  # per colour: cubes put aside for the redraw ability
    winner: int  # the seat that reached the winning score, or NO_WINNER

    def __init__(self, num_players: int, seed: int, options: Mapping[str, Any]) -> None:
        super().__init__(num_players, seed, options)

    def clone(self) -> Self:
        twin = self._blank_copy()
        twin.active = self.active
        twin.phase = self.phase
        twin.turn = self.turn
        twin.bag = self.bag.copy()
        twin.cubes = self.cubes.copy()
        twin.pool = self.pool.copy()
        twin.owed = self.owed.copy()
        twin.taken = self.taken.copy()
        twin.basics = self.basics.copy()
        twin.diners = self.diners.copy()
        twin.bistros = self.bistros.copy()
        twin.publicity = self.publicity.copy()
        twin.score = self.score.copy()
        twin.used = self.used
        twin.pub_buys = self.pub_buys
        twin.aside = self.aside.copy()
        twin.winner = self.winner
        return twin
