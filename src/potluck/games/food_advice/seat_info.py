"""What FoodAdvice's greedy bot reads, as one typed object (issue 36, lever 2).

A greedy decision used to read a dict of dicts (the seat's ``bot_view``: players,
products, the offer and its hand, every card spelled out), which compiled code looks up
as Python objects; a ``SeatInfo`` holds the entries the bot reads as typed fields,
ingredients and shapes as their indices in the tables. ``Game.bot_view`` builds it from
the state (``view.build_seat_info``) and ``SeatInfo.from_view`` builds it from the
seat's whole view: the conformance suite (``check_bot_view_is_part_of_view``) holds the
two equal, so the object is a function of the view and shows nothing the view hides.

    >>> import potluck
    >>> game = potluck.load_game("food-advice")
    >>> state = game.new_game(4, seed=3)
    >>> info = game.bot_view(state, 1)
    >>> info == SeatInfo.from_view(game, game.view(state, 1), 1)
    True
    >>> info.money, info.products, len(info.hand)
    ((0, 0, 0, 0), (), 6)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from potluck.engine.seat_info import SeatInfoBase
from potluck.games.food_advice.presentation import votes_received
from potluck.games.food_advice.shared_tables import Product, table_memo
from potluck.games.food_advice.state import PHASE_NAMES, VOTING, FoodState
from potluck.games.food_advice.tables import FoodTables


class SeatInfo(SeatInfoBase):
    """One seat's knowledge that the greedy bot reads; each field is named after the
    view's entry it equals (``from_view``)."""

    FIELDS: ClassVar[tuple[str, ...]] = (
        "seat",
        "money",
        "votes_received",
        "shape",
        "products",
        "hand",
        "offer_ingredients",
        "offer_given",
        "phase",
    )

    #: The seat the object is for.
    seat: int
    #: Per seat: the view's ``money`` and ``votes_received`` (0 for the view's ``None``,
    #: before every vote is cast).
    money: tuple[int, ...]
    votes_received: tuple[int, ...]
    #: The seat's dealt shape (its index in ``FoodTables.shapes``; -1: none).
    shape: int
    #: Per product on the table, in order: (number, owner, shape, price, ingredients).
    products: tuple[tuple[int, int, int, int, tuple[int, ...]], ...]
    #: The seat's ingredient hand, sorted as the view shows it.
    hand: tuple[int, ...]
    #: The offer's ingredients and those given back so far (empty: no offer).
    offer_ingredients: tuple[int, ...]
    offer_given: tuple[int, ...]
    #: The round's phase (``state.EXCHANGE`` ... ``state.EVENTS``; the view's ``phase``
    #: by its place in ``state.PHASE_NAMES``; -1: not given): what lets the bot answer
    #: some decisions before the legal list is built (``GreedyBot.choose_early``).
    phase: int

    def __init__(
        self,
        seat: int,
        money: tuple[int, ...],
        votes_received: tuple[int, ...],
        shape: int,
        products: tuple[tuple[int, int, int, int, tuple[int, ...]], ...],
        hand: tuple[int, ...],
        offer_ingredients: tuple[int, ...],
        offer_given: tuple[int, ...],
        phase: int = -1,
    ) -> None:
        self.seat = seat
        self.money = money
        self.votes_received = votes_received
        self.shape = shape
        self.products = products
        self.hand = hand
        self.offer_ingredients = offer_ingredients
        self.offer_given = offer_given
        self.phase = phase

    @staticmethod
    def from_view(game: FoodTables, view: Mapping[str, Any], seat: int) -> SeatInfo:
        """The object built from ``seat``'s view (or its ``bot_view``) alone."""
        ings, shapes = game.ing_index, game.shape_index
        players, offer = view["players"], view["offer"]
        mine = players[seat]["shape"]
        return SeatInfo(
            seat,
            tuple(int(player["money"]) for player in players),
            tuple(int(player["votes_received"] or 0) for player in players),
            -1 if mine is None else shapes[mine],
            tuple(
                (
                    int(p["product"]),
                    int(p["owner"]),
                    shapes[p["shape"]],
                    int(p["price"]),
                    tuple(ings[i] for i in p["ingredients"]),
                )
                for p in view["products"]
            ),
            tuple(ings[card["ingredient"]] for card in view["you"]["hand"]),
            () if offer is None else tuple(ings[c["ingredient"]] for c in offer["ingredients"]),
            () if offer is None else tuple(ings[c["ingredient"]] for c in offer["given"]),
            PHASE_NAMES.index(view["phase"]),
        )


def table_received(game: FoodTables, state: FoodState) -> tuple[int, ...]:
    """``SeatInfo.votes_received`` of ``state``: per seat, the votes its product received
    this round once every vote is cast (``presentation.votes_received``), else 0.

    The votes stay as they are from the tally to the round's end, while the chips and
    the events (most of a round's decisions) read them: so the tuple worked out last is
    kept on the game (``TableMemo.received``) with a copy of the votes it was worked out
    from, and given again while the state's votes equal that copy (it is a function of
    the votes alone, one per seat)."""
    if state.phase <= VOTING:
        return (0,) * state.num_players
    memo = table_memo(game)
    votes = state.votes
    if votes == memo.votes:
        return memo.received
    received = memo.received = tuple(votes_received(state))
    memo.votes = votes.copy()
    return received


def table_products(game: FoodTables, state: FoodState) -> tuple[Product, ...]:
    """``SeatInfo.products`` of ``state``: per product on the table, in order, (number,
    owner, shape, price, ingredients), as the view lists them (``from_view``).

    The products change a few times a round (a product joins, an event trims one), while
    every greedy decision reads them, whichever seat's: so the tuple built last is kept on
    the game (``shared_tables.TableMemo.products``) and given again while the state's
    products are still those it was built from. The state holds its products' ingredients,
    owners and shapes as tuples (``state.SHARED``), which nothing can change in place: a
    product joining or trimmed gives the state new tuples. So the state's three tuples
    being the very objects the kept tuple was built from (which the memo holds, so no
    other object can take their place in memory) means the products are those, in any
    state of the game that asks (a search's worlds and clones too, which share the
    tuples until one of them changes its products)."""
    memo = table_memo(game)
    ings_of, owners, shapes = state.prod_ings, state.prod_owner, state.prod_shape
    # (three identity tests, where comparing the lists' contents cost about 1,850
    # instructions a decision)
    if (
        ings_of is memo.product_ings
        and owners is memo.product_owners
        and shapes is memo.product_shapes
    ):
        return memo.products
    prices = game.ing_price
    # Plain loops: a generator, ``zip(..., strict=True)`` and ``sum`` are Python calls
    # from compiled code.
    built: list[Product] = []
    for p in range(len(ings_of)):
        ings = ings_of[p]
        price = 0
        for i in ings:
            price += prices[i]
        built.append((p, owners[p], shapes[p], price, ings))
    products = memo.products = tuple(built)
    memo.product_ings, memo.product_owners, memo.product_shapes = ings_of, owners, shapes
    return products
