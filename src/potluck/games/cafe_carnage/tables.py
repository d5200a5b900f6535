"""Café Carnage's tables: the table constants, the dishes by index, the decks and every
action, built once per game from the dish data, with the tables and memos the hot paths read.

The rules chapter modules (``setup``, ``round``, ``orders``, ``ballot``, ``dinner``,
``check_please``, ``settle_up``, ``clear_table``, ``end``) and the modules that show
the game (``view``, ``encoding``, ``invariants``) take a ``CafeTables``; the
``CafeCarnage`` class (``game.py``) is one, so they never import the class that
imports them (docs/engine.md, "The shape of a game"). ``CafeTables`` is the abstract
``Game`` of Café Carnage holding its tables, and ``CafeCarnage`` its one subclass with
the verbs: one line of inheritance, which the compiled build needs (docs/engine.md,
"Compiled build").

    >>> import potluck
    >>> tables = potluck.load_game("cafe-carnage")  # the game is its own tables
    >>> tables.budget, tables.rounds, tables.menu_size, tables.loan
    (30, 5, 3, 5)
    >>> tables.dish_slugs[0], tables.value_of[0], tables.dish_views[0]["course"]
    ('tomato-soup', 1, 'starter')
    >>> tables.by_text["pay separately"].text, tables.everyone[4]
    ('separately', (0, 1, 2, 3))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from mypy_extensions import mypyc_attr

from potluck.engine.game import Game
from potluck.engine.text import slugify
from potluck.games.cafe_carnage.actions import CafeAction
from potluck.games.cafe_carnage.readonly import ReadOnlyDict
from potluck.games.cafe_carnage.schema import COURSES, MAX_PLAYERS, DishData
from potluck.games.cafe_carnage.state import (
    CARD_WORDS,
    RUN,
    SEPARATELY,
    SPLIT,
    CafeState,
    RoundRecord,
)

#: The game's id in the registry (``CafeCarnage.id``).
GAME_ID = "cafe-carnage"

#: What a seat may do now: the legal actions, and the same as a bit mask of indices.
Choices = tuple[tuple[CafeAction, ...], int]

#: Words accepted for the action cards, besides their notation.
_CARD_SYNONYMS = {
    "split": SPLIT,
    "split the bill": SPLIT,
    "split the bill evenly": SPLIT,
    "separately": SEPARATELY,
    "separate": SEPARATELY,
    "pay separately": SEPARATELY,
    "each pay separately": SEPARATELY,
    "run": RUN,
    "run!": RUN,
}


@mypyc_attr(allow_interpreted_subclasses=True)
class CafeTables(Game[CafeState, CafeAction]):
    """What a game of Café Carnage fixes when it is built: the table constants, the
    dishes by index (starters, then mains, then desserts, as in the data), the full
    decks, the actions interned once, the cards playable from each hand, and memos."""

    def __init__(self, data: DishData) -> None:
        self.data = data
        table = data.table
        # The table (TableSpec).
        self.budget = table.budget  # each player's dollars at the start
        self.rounds = table.rounds  # nights in the week
        self.menu_size = table.menu_size  # cards of a course dealt to each player
        self.loan = table.iou_loan  # dollars (and Gourmet Points) of one IOU loan
        # The dishes, by index.
        names: list[str] = []
        course_of: list[int] = []
        value_of: list[int] = []
        full_decks: list[list[int]] = [[], [], []]
        for course, course_name in enumerate(COURSES):
            for spec in getattr(data, course_name):
                full_decks[course].extend([len(names)] * spec.copies)
                names.append(spec.name)
                course_of.append(course)
                value_of.append(spec.value)
        self.dish_names: tuple[str, ...] = tuple(names)
        self.dish_slugs: tuple[str, ...] = tuple(slugify(name) for name in names)
        self.dish_index: Mapping[str, int] = {slug: i for i, slug in enumerate(self.dish_slugs)}
        #: Per dish: its course.
        self.course_of: tuple[int, ...] = tuple(course_of)
        #: Per dish: its price in dollars and Gourmet Points.
        self.value_of: tuple[int, ...] = tuple(value_of)
        #: Per course: every card of its deck.
        self.full_decks: tuple[tuple[int, ...], ...] = tuple(tuple(deck) for deck in full_decks)
        #: Per dish: as views show it, read-only (``readonly.py``; copy it to change it).
        self.dish_views: tuple[dict[str, Any], ...] = tuple(
            ReadOnlyDict(dish_json(self, d)) for d in range(len(names))
        )
        # The actions, interned once: per dish the order, per action card playing it.
        self.dish_actions: tuple[CafeAction, ...] = tuple(
            CafeAction(i, slug, dish=i) for i, slug in enumerate(self.dish_slugs)
        )
        self.card_actions: tuple[CafeAction, ...] = tuple(
            CafeAction(len(names) + card, word, card=card) for card, word in enumerate(CARD_WORDS)
        )
        #: ``(seat, action)`` for every seat and action, by the action's index: the entries
        #: of ``state.history``, shared rather than a new tuple at every step (typed
        #: ``Any``: compiled code would unpack a typed pair it reads and pack it anew).
        self.moves: tuple[tuple[Any, ...], ...] = tuple(
            tuple((seat, action) for action in (*self.dish_actions, *self.card_actions))
            for seat in range(MAX_PLAYERS)
        )
        #: Every accepted text (in lower case, spaces single) -> its action.
        self.by_text: dict[str, CafeAction] = {}
        for i, action in enumerate(self.dish_actions):
            self.by_text[action.text] = action
            self.by_text[self.dish_names[i].lower()] = action
        for word, card in _CARD_SYNONYMS.items():
            self.by_text[word] = self.card_actions[card]
        #: Number of players -> every seat.
        self.everyone: Mapping[int, tuple[int, ...]] = {
            n: tuple(range(n)) for n in range(MAX_PLAYERS + 1)
        }
        #: The seats of a bit mask (bit ``s``: seat ``s``), in seat order, one shared tuple
        #: per mask: who still acts once a seat has made its sealed choice (``round.play``;
        #: slicing the tuple made three new ones at most steps, issue 36).
        self.seats_of_mask: tuple[tuple[int, ...], ...] = tuple(
            tuple(s for s in range(MAX_PLAYERS) if mask >> s & 1)
            for mask in range(1 << MAX_PLAYERS)
        )
        #: The cards one may play from a hand (``hand_choices``), by which of the three
        #: cards it holds (bit ``card`` set: it holds one or more): ``ballot_choices``.
        self.hand_table: tuple[Choices, ...] = tuple(
            self.hand_choices((held & 1, held >> 1 & 1, held >> 2 & 1)) for held in range(8)
        )
        # Memos of pure functions, filled as they are met.
        #: A bit mask of dishes -> their slugs (views).
        self.eaten_memo: dict[int, tuple[str, ...]] = {}
        #: (id of a past night's record, seat) -> the record and its read-only entry in views.
        self.past_nights: dict[tuple[int, int | None], tuple[RoundRecord, dict[str, Any]]] = {}
        #: The last log whose meal costs a greedy bot's input read, and those costs
        #: (``view.build_seat_info``): a log is a tuple shared by a game's states and
        #: replaced when a night ends, so the costs are worked out once a night, not once
        #: a decision. One pair, replaced whole (views built in two threads never mix).
        self.meal_costs_memo: tuple[tuple[RoundRecord, ...], tuple[tuple[int, ...], ...]] = (
            (),
            (),
        )
        #: Every seat's hand size and RUN! card as a greedy bot's input last read them
        #: (``view.public_cards``): one pair of tuples, replaced whole.
        self.public_cards_memo: tuple[tuple[int, ...], tuple[bool, ...]] = ((), ())

    def dish_choices(self, dishes: Iterable[int]) -> Choices:
        """Ordering each of ``dishes`` (distinct): the actions, and a bit mask of their indices.

        >>> import potluck
        >>> game = potluck.load_game("cafe-carnage")
        >>> actions, mask = game.dish_choices([1, 0])
        >>> [str(action) for action in actions], mask
        (['spring-rolls', 'tomato-soup'], 3)
        """
        dishes = list(dishes)
        return tuple(self.dish_actions[d] for d in dishes), sum(1 << d for d in dishes)

    def hand_choices(self, hand: tuple[int, ...]) -> Choices:
        """The action cards one may play from a hand of (split, separately, run) counts:
        the actions, and a bit mask of their indices.

        >>> import potluck
        >>> game = potluck.load_game("cafe-carnage")
        >>> [str(action) for action in game.hand_choices((2, 0, 1))[0]]
        ['split', 'run']
        """
        held = [card for card in range(3) if hand[card]]
        offset = len(self.dish_actions)
        return tuple(self.card_actions[c] for c in held), sum(1 << (offset + c) for c in held)


def dish_json(tables: CafeTables, dish: int) -> dict[str, Any]:
    """A dish as the views show it: slug, name, course and value."""
    return {
        "dish": tables.dish_slugs[dish],
        "name": tables.dish_names[dish],
        "course": COURSES[tables.course_of[dish]],
        "value": tables.value_of[dish],
    }
