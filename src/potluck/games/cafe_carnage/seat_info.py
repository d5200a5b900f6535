"""What Café Carnage's greedy bot reads, as one typed object (issue 36, lever 2).

A greedy decision used to read a dict of dicts (the seat's ``bot_view``), which compiled
code looks up as Python objects; a ``SeatInfo`` holds the same entries as typed fields.
``Game.bot_view`` builds it from the state (``view.build_seat_info``) and
``SeatInfo.from_view`` builds it from the seat's whole view: the conformance suite
(``check_bot_view_is_part_of_view``) holds the two equal, so the object is a function
of the view and shows nothing the view hides.

    >>> import potluck
    >>> game = potluck.load_game("cafe-carnage")
    >>> state = game.new_game(4, seed=3)
    >>> info = game.bot_view(state, 1)
    >>> info == SeatInfo.from_view(game, game.view(state, 1), 1)
    True
    >>> info.nights_left, info.phase, info.hand
    (5, 0, (2, 2, 1))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from potluck.engine.seat_info import SeatInfoBase
from potluck.games.cafe_carnage.schema import COURSES
from potluck.games.cafe_carnage.state import NO_DISH, PHASE_NAMES
from potluck.games.cafe_carnage.tables import CafeTables


class SeatInfo(SeatInfoBase):
    """One seat's knowledge that the greedy bot reads; each field is named after the
    view's entry it equals (``from_view``)."""

    FIELDS: ClassVar[tuple[str, ...]] = (
        "seat",
        "nights_left",
        "phase",
        "no_repeat",
        "meal_costs",
        "hand_sizes",
        "run_cards",
        "money",
        "iou",
        "eaten",
        "hand",
        "has_card",
        "order",
    )

    #: The seat the object is for.
    seat: int
    #: Nights left this week, tonight included (the view's ``rounds - round + 1``).
    nights_left: int
    #: The view's ``phase``, as its index in ``PHASE_NAMES`` (0-2 a course, 3 the ballot).
    phase: int
    #: The advanced variant (the view's ``options["no_repeat_dishes"]``).
    no_repeat: bool
    #: Per past night in order, each seat's meal cost (the log's ``meals[s]["cost"]``).
    meal_costs: tuple[tuple[int, ...], ...]
    #: Per seat: the view's ``hand_size`` and ``has_run_card``.
    hand_sizes: tuple[int, ...]
    run_cards: tuple[bool, ...]
    #: The seat's own money, IOU token and dishes eaten (a bit mask of dish indices).
    money: int
    iou: bool
    eaten: int
    #: The seat's hand of (split, separately, run) cards and whether it has played a card.
    hand: tuple[int, int, int]
    has_card: bool
    #: The dish the seat ordered for each course this night, or ``NO_DISH``.
    order: tuple[int, int, int]

    def __init__(
        self,
        seat: int,
        nights_left: int,
        phase: int,
        no_repeat: bool,
        meal_costs: tuple[tuple[int, ...], ...],
        hand_sizes: tuple[int, ...],
        run_cards: tuple[bool, ...],
        money: int,
        iou: bool,
        eaten: int,
        hand: tuple[int, int, int],
        has_card: bool,
        order: tuple[int, int, int],
    ) -> None:
        self.seat = seat
        self.nights_left = nights_left
        self.phase = phase
        self.no_repeat = no_repeat
        self.meal_costs = meal_costs
        self.hand_sizes = hand_sizes
        self.run_cards = run_cards
        self.money = money
        self.iou = iou
        self.eaten = eaten
        self.hand = hand
        self.has_card = has_card
        self.order = order

    @staticmethod
    def from_view(game: CafeTables, view: Mapping[str, Any], seat: int) -> SeatInfo:
        """The object built from ``seat``'s view (or ``bot_view``) alone."""
        players = view["players"]
        me = players[seat]
        hand = view["you"]["hand"]
        order = view["you"]["order"]
        eaten = 0
        for slug in me["eaten"]:
            eaten |= 1 << game.dish_index[slug]
        return SeatInfo(
            seat,
            int(view["rounds"]) - int(view["round"]) + 1,
            PHASE_NAMES.index(view["phase"]),
            bool(view["options"].get("no_repeat_dishes")),
            tuple(tuple(int(meal["cost"]) for meal in night["meals"]) for night in view["log"]),
            tuple(int(player["hand_size"]) for player in players),
            tuple(bool(player["has_run_card"]) for player in players),
            int(me["money"]),
            bool(me["iou"]),
            eaten,
            (int(hand["split"]), int(hand["separately"]), int(hand["run"])),
            view["you"]["card"] is not None,
            _order_of(game, order),
        )


def _order_of(game: CafeTables, order: Mapping[str, Any]) -> tuple[int, int, int]:
    dishes = [NO_DISH if order[c] is None else game.dish_index[order[c]["dish"]] for c in COURSES]
    return (dishes[0], dishes[1], dishes[2])
