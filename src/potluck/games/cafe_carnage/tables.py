"""What the rules, view, encoding and invariant modules need from the game: its
per-game tables, as an interface below the ``CafeCarnage`` class.

``CafeCarnage`` (game.py) builds the tables from the dish data and satisfies
``CafeRules`` structurally; the chapter modules (``orders``, ``ballot``, ...) and
the modules that build views, encode them and check saved states take a
``CafeRules`` so they never import the class that imports them (no import
circle, docs/engine.md "The shape of a game").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Protocol

from potluck.games.cafe_carnage.actions import CafeAction
from potluck.games.cafe_carnage.state import RoundRecord

#: What a seat may do now: the legal actions, and the same as a bit mask of indices.
Choices = tuple[tuple[CafeAction, ...], int]


class Memo(dict[tuple[int, ...], Choices]):
    """A dict that computes a missing entry with ``function`` (a pure function of the key).

    >>> calls = []
    >>> memo = Memo(lambda key: (calls.append(key), ((), len(key)))[1])
    >>> memo[(1, 2)], memo[(1, 2)], calls
    (((), 2), ((), 2), [(1, 2)])
    """

    def __init__(self, function: Callable[[tuple[int, ...]], Choices]) -> None:
        super().__init__()
        self.function = function

    def __missing__(self, key: tuple[int, ...]) -> Choices:
        value = self[key] = self.function(key)
        return value


class CafeRules(Protocol):
    """The game's per-game tables, fixed when the game is built."""

    id: ClassVar[str]
    budget: int  # each player's dollars at the start
    rounds: int  # nights in the week
    menu_size: int  # cards of a course dealt to each player
    loan: int  # dollars (and Gourmet Points) of one IOU loan
    dish_names: tuple[str, ...]
    dish_slugs: tuple[str, ...]

    @property
    def dish_index(self) -> Mapping[str, int]: ...

    course_of: tuple[int, ...]  # per dish: its course
    value_of: tuple[int, ...]  # per dish: its price in dollars and Gourmet Points
    full_decks: tuple[tuple[int, ...], ...]  # per course: every card of the deck
    dish_views: tuple[dict[str, Any], ...]  # per dish: as views show it, read-only (copy it)
    dish_actions: tuple[CafeAction, ...]  # per dish: the action ordering it
    card_actions: tuple[CafeAction, ...]  # per action card: the action playing it
    # Memos of pure functions, filled as menus and hands are met (dealing is the hot path).
    menu_memo: Memo  # menu -> the dishes one may order from it
    hand_memo: Memo  # (split, separately, run) counts -> the cards one may play
    everyone: Mapping[int, tuple[int, ...]]  # number of players -> every seat
    eaten_memo: dict[int, tuple[str, ...]]  # bit mask of dishes -> their slugs (views)
    # (id of a past night's record, seat) -> the record and its read-only entry in views
    past_nights: dict[tuple[int, int | None], tuple[RoundRecord, dict[str, Any]]]
