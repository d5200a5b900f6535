"""FoodAdvice's greedy bot chooses for customers by the rule (``market.choose``) over
fewer products than the whole table; these hold each such path equal to the rule on
tables hypothesis draws at will (issue 36):

- ``market.choose`` depends on which products are on offer, not on their order (the
  paths below list their products in another order than the table's).
- ``Mind.promoted``: with promotion chips, a customer chooses among their
  ``best_matches`` within budget (``TableChoices.pools``) and the products Black Friday
  brings within reach; it must choose as among the whole table.
- ``market.pick_among``: ``choose_among``'s pick as numbers.
- ``removal.best_removal``: after an event trims a product, a customer chooses among the other
  products' ``best_matches`` and the trimmed one; the removal picked must be the one
  every customer choosing again among the whole table gives.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from potluck.games.food_advice.actions import REMOVE
from potluck.games.food_advice.game import FoodAdvice
from potluck.games.food_advice.greedy_mind import Mind
from potluck.games.food_advice.market import (
    Buyer,
    Offer,
    best_matches,
    choose,
    choose_among,
    pick_among,
)
from potluck.games.food_advice.removal import best_removal
from potluck.games.food_advice.seat_info import SeatInfo

GAME = FoodAdvice()
LIMIT = GAME.black_friday_limit
INGREDIENTS = len(GAME.ing_names)

#: A product: its owner, shape and ingredients (distinct cards).
_PRODUCT = st.tuples(
    st.integers(0, 3),
    st.integers(0, len(GAME.shapes) - 1),
    st.lists(st.integers(0, INGREDIENTS - 1), min_size=1, max_size=3, unique=True),
)


#: A table of up to 16 products, a regular customer and promotion chips (bit masks).
_CUSTOMER_AT_A_TABLE = {
    "products": st.lists(_PRODUCT, max_size=16),
    "customer": st.sampled_from(GAME.regular_customers),
    "black_friday": st.integers(0, 15),
    "flavor": st.integers(0, 15),
}


@settings(max_examples=300, deadline=None)
@given(**_CUSTOMER_AT_A_TABLE, order=st.randoms(use_true_random=False))
def test_customers_choose_alike_whatever_the_order_of_the_products(
    products: list[tuple[int, int, list[int]]],
    customer: int,
    black_friday: int,
    flavor: int,
    order: random.Random,
) -> None:
    buyer: Buyer = GAME.buyers[customer]
    offers = _mind(products, 0, [0, 0, 0, 0]).offers
    shuffled: list[Offer] = list(offers)
    order.shuffle(shuffled)
    expected = choose(buyer, offers, black_friday, flavor, LIMIT)
    assert choose(buyer, shuffled, black_friday, flavor, LIMIT) == expected


@settings(max_examples=300, deadline=None)
@given(**_CUSTOMER_AT_A_TABLE)
def test_the_pick_as_numbers_is_the_choice(
    products: list[tuple[int, int, list[int]]], customer: int, black_friday: int, flavor: int
) -> None:
    """``pick_among`` (the removals' and promotion chips' pick, no object made) names
    the product and price of ``choose_among``'s ``Choice``, and no product when the
    customer leaves."""
    buyer: Buyer = GAME.buyers[customer]
    offers = _mind(products, 0, [0, 0, 0, 0]).offers
    best, pool = best_matches(buyer, offers, black_friday, LIMIT)
    choice = choose_among(buyer, best, pool, flavor)
    place, paid, _ = pick_among(buyer, best, pool, flavor)
    assert (pool[place] if place >= 0 else None) is choice.offer
    assert paid == choice.paid


def _mind(products: list[tuple[int, int, list[int]]], seat: int, money: list[int]) -> Mind:
    """The bot's mind for ``seat`` with these products on the table."""
    listed = tuple(
        (number, owner, shape, sum(GAME.ing_price[i] for i in ings), tuple(ings))
        for number, (owner, shape, ings) in enumerate(products)
    )
    info = SeatInfo(seat, tuple(money), (0, 0, 0, 0), 0, listed, (), (), ())
    return Mind(GAME, info, seat)


@settings(max_examples=300, deadline=None)
@given(
    products=st.lists(_PRODUCT, max_size=16),
    black_friday=st.integers(0, 15),
    flavor=st.integers(0, 15),
)
def test_promoted_customers_choose_as_among_the_whole_table(
    products: list[tuple[int, int, list[int]]], black_friday: int, flavor: int
) -> None:
    mind = _mind(products, 0, [0, 0, 0, 0])
    base = [mind.chosen().choice(k) for k in range(len(GAME.regular_customers))]
    ks, tops, pools = mind.promoted(black_friday, flavor)
    buyers = mind.chosen().buyers
    moved = {
        k: choose_among(buyers[k], top, pool, flavor)
        for k, top, pool in zip(ks, tops, pools, strict=True)
    }
    for k, c in enumerate(GAME.regular_customers):
        whole = choose(GAME.buyers[c], mind.offers, black_friday, flavor, LIMIT)
        assert moved.get(k, base[k]) == whole


def _removal_by_every_customer(mind: Mind, seat: int, money: list[int]) -> int:
    """The removal the bot's rule picks, with every customer choosing again among the
    whole table (its own takings less the richest rival's, the default weight)."""
    richest = max((s for s in range(4) if s != seat), key=lambda s: money[s])
    scores: dict[int, tuple[float, int]] = {}
    for j, (_, _, _, _, ings) in enumerate(mind.info.products):
        if len(ings) < 2:
            continue
        for ing in ings:
            rest = [i for i in ings if i != ing]
            old = mind.offers[j]
            new = old._replace(
                price=sum(GAME.ing_price[i] for i in rest), tags=GAME.product_tags(rest)
            )
            offers = [*mind.offers[:j], new, *mind.offers[j + 1 :]]
            mine = theirs = 0
            for c in GAME.regular_customers:
                choice = choose(GAME.buyers[c], offers, 0, 0, LIMIT)
                if choice.offer is not None:
                    if choice.offer.seller == seat:
                        mine += choice.paid
                    elif choice.offer.seller == richest:
                        theirs += choice.paid
            index = GAME.act(REMOVE, ing).index
            scores[index] = (float(mine) - float(theirs), -index)
    return max(scores, key=lambda index: scores[index])


@settings(max_examples=200, deadline=None)
@given(
    products=st.lists(_PRODUCT, min_size=1, max_size=12).filter(
        # every card in one product at most (as on a real table)
        lambda ps: (
            len({i for _, _, ings in ps for i in ings}) == sum(len(ings) for _, _, ings in ps)
        )
    ),
    seat=st.integers(0, 3),
    money=st.lists(st.integers(0, 200), min_size=4, max_size=4),
)
def test_removals_pick_what_every_customer_choosing_again_gives(
    products: list[tuple[int, int, list[int]]], seat: int, money: list[int]
) -> None:
    mind = _mind(products, seat, money)
    actions = [
        GAME.act(REMOVE, ing)
        for _, _, _, _, ings in mind.info.products
        if len(ings) > 1
        for ing in ings
    ]
    if not actions:
        return
    assert best_removal(mind, actions).index == _removal_by_every_customer(mind, seat, money)
