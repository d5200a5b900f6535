"""FoodAdvice's greedy bot skips work it can prove useless (issue 36): the keep skips
hands whose upper bound (``Baseline.sales_bound``, all of a hand's at once:
``sales_bounds``) cannot beat the best found, promotion
chips skip customers whom no discounted product can win, and removals skip customers
whose choice cannot change this seat's or the richest rival's takings. Each shortcut is
held here to the rule it stands for, over random tables and random games.
"""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from food_advice_helpers import random_play_state
from potluck.games.food_advice.actions import REMOVE, FoodAction
from potluck.games.food_advice.forecast import Baseline, count_customers
from potluck.games.food_advice.game import FoodAdvice
from potluck.games.food_advice.greedy_mind import (
    Mind,
    Weights,
    choice_product,
    chosen_cards,
    combination_places,
    combination_products,
    goes_first,
)
from potluck.games.food_advice.market import Offer, choose, new_offer
from potluck.games.food_advice.removal import best_removal
from potluck.games.food_advice.seat_info import SeatInfo

GAME = FoodAdvice()


@st.composite
def tables(draw: st.DrawFn) -> list[Offer]:
    """Up to eight products of up to six sellers, priced and tagged as the cards allow
    (three ingredients of 5, 10 or 20 F), often sharing prices, hashtags and shapes so
    that customers tie."""
    count = draw(st.integers(0, 8))
    tags = st.sets(st.integers(0, 5) | st.integers(0, len(GAME.hashtags) - 1), min_size=1)
    offers = []
    for number in range(count):
        price = sum(draw(st.lists(st.sampled_from([5, 10, 20]), min_size=1, max_size=3)))
        mask = sum(1 << t for t in draw(tags.filter(lambda t: len(t) <= 3)))
        shape = draw(st.integers(0, 3) | st.integers(0, len(GAME.shapes) - 1))
        offers.append(new_offer(number, draw(st.integers(0, 5)), shape, price, mask))
    return offers


@settings(max_examples=300, deadline=None)
@given(
    offers=tables(),
    price=st.sampled_from([5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60]),
    tags=st.sets(st.integers(0, 5) | st.integers(0, len(GAME.hashtags) - 1), max_size=5),
    shape=st.integers(0, 3) | st.integers(0, len(GAME.shapes) - 1),
    seat=st.integers(0, 5),
)
def test_the_sales_bound_is_never_below_the_sales(
    offers: list[Offer], price: int, tags: set[int], shape: int, seat: int
) -> None:
    baseline = Baseline(GAME, offers)
    mask = sum(1 << t for t in tags)
    exact = baseline.new_product_sales(price, mask, shape, seat)
    assert baseline.sales_bound(price, mask, shape, seat) >= exact


@settings(max_examples=200, deadline=None)
@given(
    offers=tables(),
    products=st.lists(
        st.tuples(
            st.sampled_from([5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 200]),
            st.sets(st.integers(0, 5) | st.integers(0, len(GAME.hashtags) - 1), max_size=5),
        ),
        max_size=20,
    ),
    shape=st.integers(0, 3) | st.integers(0, len(GAME.shapes) - 1),
    seat=st.integers(0, 5),
)
def test_the_keeps_bounds_in_one_pass_are_the_sales_bounds(
    offers: list[Offer], products: list[tuple[int, set[int]]], shape: int, seat: int
) -> None:
    """``sales_bounds`` (the keep's choices of a hand at once) is ``sales_bound`` of
    each, for products of up to five hashtags (more than three: its other way) and a
    price beyond every budget."""
    baseline = Baseline(GAME, offers)
    prices = [price for price, _ in products]
    masks = [sum(1 << t for t in tags) for _, tags in products]
    expected = [
        baseline.sales_bound(price, mask, shape, seat)
        for price, mask in zip(prices, masks, strict=True)
    ]
    assert baseline.sales_bounds(prices, masks, shape, seat) == expected


@settings(max_examples=200, deadline=None)
@given(
    offers=tables(),
    cards=st.lists(st.integers(0, len(GAME.ing_names) - 1), max_size=8, unique=True),
    shape=st.integers(0, 3) | st.integers(0, len(GAME.shapes) - 1),
    seat=st.integers(0, 5),
)
def test_the_keeps_bounds_by_nested_loops_are_the_sales_bounds(
    offers: list[Offer], cards: list[int], shape: int, seat: int
) -> None:
    """``keep_bounds`` (three cards of a hand, by nested loops) is ``sales_bounds`` of
    ``combination_products``' choices, hands with repeated hashtags and products beyond
    every budget included."""
    cards.sort()
    baseline = Baseline(GAME, offers)
    prices, masks = combination_products(GAME, cards, 3)
    expected = baseline.sales_bounds(prices, masks, shape, seat)
    assert baseline.keep_bounds(cards, shape, seat) == expected


@given(st.integers(0, 2**70))
def test_counting_customers_is_counting_bits(mask: int) -> None:
    assert count_customers(mask) == mask.bit_count()
    assert count_customers(mask & ((1 << 56) - 1)) == (mask & ((1 << 56) - 1)).bit_count()


def _states() -> st.SearchStrategy[tuple[int, int, int]]:
    return st.tuples(st.integers(4, 6), st.integers(96000, 96199), st.integers(0, 200))


def _seat_and_hand(
    table: tuple[int, int, int], seat: int, dealt: random.Random
) -> tuple[SeatInfo, int, list[int]]:
    """The seat's input after ``table``'s random moves, the seat, and a hand of six of
    the ingredients no product holds (as the dealer's deck deals them)."""
    players, seed, steps = table
    state = random_play_state(GAME, players, seed, steps)
    seat %= players
    info = GAME.bot_view(state, seat)
    used = {i for product in info.products for i in product[4]}
    free = [i for i in range(len(GAME.ing_names)) if i not in used]
    return info, seat, dealt.sample(free, GAME.dealt)


def _every_keep(
    mind: Mind, hand: list[int], price_weight: float = 0.0
) -> tuple[float, tuple[int, ...]]:
    """``best_keep`` as the rule states it: every choice valued (its sales, plus
    ``price_weight`` per foodcoin of its price), the first best kept."""
    best_value, best = 0.0, None
    for combo in combinations(sorted(hand), GAME.kept):
        price = sum(GAME.ing_price[i] for i in combo)
        value = mind.product_value(combo) + price_weight * price
        if best is None or value > best_value:
            best_value, best = value, combo
    assert best is not None
    return best_value, best


@settings(max_examples=80, deadline=None)
@given(table=_states(), seat=st.integers(0, 5), dealt=st.randoms(use_true_random=False))
def test_the_pruned_keep_is_the_first_best_of_every_choice(
    table: tuple[int, int, int], seat: int, dealt: random.Random
) -> None:
    info, seat, hand = _seat_and_hand(table, seat, dealt)
    # Each on a game of its own, so that neither reads the other's product values.
    pruned = Mind(FoodAdvice(), info, seat).best_keep(hand)
    assert pruned == _every_keep(Mind(FoodAdvice(), info, seat), hand)


@settings(max_examples=80, deadline=None)
@given(table=_states(), seat=st.integers(0, 5), chips=st.integers(0, 3))
def test_promotion_sales_are_every_customer_choosing_by_the_rule(
    table: tuple[int, int, int], seat: int, chips: int
) -> None:
    players, seed, steps = table
    state = random_play_state(GAME, players, seed, steps)
    seat %= players
    mind = Mind(FoodAdvice(), GAME.bot_view(state, seat), seat)
    black_friday = 1 << seat if chips & 1 else 0
    flavor = 1 << seat if chips & 2 else 0
    limit = GAME.black_friday_limit
    expected = []
    for c in GAME.regular_customers:
        choice = choose(GAME.buyers[c], mind.offers, black_friday, flavor, limit)
        if choice.offer is not None:
            expected.append((c, choice.offer, choice.paid))
    assert list(mind.sales(black_friday, flavor)) == expected
    without = sum(paid for _, offer, paid in mind.sales() if offer.seller == seat)
    with_chips = sum(paid for _, offer, paid in expected if offer.seller == seat)
    assert mind.promotion_gain(seat, black_friday, flavor) == with_chips - without


def _every_removal(mind: Mind, info: SeatInfo, actions: list[FoodAction]) -> FoodAction:
    """``removal.best_removal`` as the rule states it: every customer chooses again among the
    trimmed table, and the first best score by ``goes_first`` is played."""
    seat, money = mind.seat, info.money
    richest = max((s for s in range(len(money)) if s != seat), key=lambda s: money[s])

    def takings(offers: list[Offer]) -> tuple[int, int]:
        mine = theirs = 0
        for c in GAME.regular_customers:
            choice = choose(GAME.buyers[c], offers, 0, 0, GAME.black_friday_limit)
            if choice.offer is not None and choice.offer.seller == seat:
                mine += choice.paid
            elif choice.offer is not None and choice.offer.seller == richest:
                theirs += choice.paid
        return mine, theirs

    picked: FoodAction | None = None
    picked_score = 0.0
    for action in actions:
        offers = []
        for number, owner, shape, _, ings in info.products:
            left = [i for i in ings if i != action.thing]
            price = sum(GAME.ing_price[i] for i in left)
            offers.append(new_offer(number, owner, shape, price, GAME.product_tags(left)))
        mine, theirs = takings(offers)
        score = float(mine) - mind.weights.rival_weight * float(theirs)
        if picked is None or goes_first(score, action.index, picked_score, picked.index):
            picked, picked_score = action, score
    assert picked is not None
    return picked


@settings(max_examples=80, deadline=None)
@given(table=_states(), seat=st.integers(0, 5), seed=st.integers(0, 2**16))
def test_the_pruned_removal_is_the_rules_best(
    table: tuple[int, int, int], seat: int, seed: int
) -> None:
    players, game_seed, steps = table
    state = random_play_state(GAME, players, game_seed, max(steps, 120))
    seat %= players
    info = GAME.bot_view(state, seat)
    # Money drawn at random, so that every seat is the richest rival in some examples.
    rng = random.Random(seed)
    info.money = tuple(rng.randrange(0, 200, 5) for _ in range(players))
    actions = [
        GAME.act(REMOVE, i)
        for product in info.products
        if len(product[4]) > 1
        for i in sorted(product[4])
    ]
    if not actions:
        return
    mind = Mind(FoodAdvice(), info, seat)
    assert best_removal(mind, actions) == _every_removal(mind, info, actions)


@settings(max_examples=200, deadline=None)
@given(offers=tables())
def test_the_dearer_table_is_dearer_at_every_price(offers: list[Offer]) -> None:
    """``dearer_table`` (made in one pass) is ``dearer`` of every price some budget covers."""
    baseline = Baseline(GAME, offers)
    table = baseline.dearer_table()
    assert len(table) == len(GAME.regular_affording)
    assert table == [baseline.dearer(price) for price in range(len(table))]


@settings(max_examples=200, deadline=None)
@given(
    cards=st.lists(st.integers(0, len(GAME.ing_names) - 1), max_size=8, unique=True),
    kept=st.integers(0, 5),
)
def test_the_keeps_products_are_every_combination(cards: list[int], kept: int) -> None:
    """``combination_products`` is the price and hashtags of every choice in
    ``combinations`` order (by nested loops for three cards), and the choice at each
    place of ``combination_places`` (asked twice: the second from its kept list) has
    those cards (``chosen_cards``) and that product (``choice_product``)."""
    cards.sort()
    combos = list(combinations(cards, kept))
    prices, masks = combination_products(GAME, cards, kept)
    assert prices == [sum(GAME.ing_price[i] for i in combo) for combo in combos]
    assert masks == [GAME.product_tags(list(combo)) for combo in combos]
    for _ in range(2):
        places = combination_places(len(cards), kept)
        assert len(places) == len(combos)
        for index, combo in enumerate(combos):
            assert chosen_cards(cards, places[index]) == combo
            assert choice_product(GAME, cards, places[index]) == (prices[index], masks[index])


@settings(max_examples=60, deadline=None)
@given(
    table=_states(),
    seat=st.integers(0, 5),
    dealt=st.randoms(use_true_random=False),
    weight=st.sampled_from([0.5, 5.0, 20.0, 1000.0]),
)
def test_a_keep_weighing_the_price_is_the_first_best_of_every_choice(
    table: tuple[int, int, int], seat: int, dealt: random.Random, weight: float
) -> None:
    """``greedy:price_weight=W`` (``greedy-tuned``'s keep): each choice's sales plus W per
    foodcoin of its price, every choice valued, the first best kept; at a weight no sales
    figure reaches, the dearest product."""
    info, seat, hand = _seat_and_hand(table, seat, dealt)
    weights = Weights(price_weight=weight)
    value, kept = Mind(FoodAdvice(), info, seat, weights=weights).best_keep(hand)
    assert (value, kept) == _every_keep(Mind(FoodAdvice(), info, seat), hand, weight)
    if weight == 1000.0:
        dearest = max(sum(GAME.ing_price[i] for i in c) for c in combinations(hand, GAME.kept))
        assert sum(GAME.ing_price[i] for i in kept) == dearest
