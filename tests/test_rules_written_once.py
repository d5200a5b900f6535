"""Rules written once (issue 36): where a fast path or a bot's estimate restates a rule,
a property test holds it equal to the rule over random cases.

- FoodAdvice: the greedy bot's forecast (``forecast.Baseline.new_product_sales``, bit
  sets over the customer deck) against the customers' own choice (``market.choose``)
  made again with the new product on the table.
- Burger Joint: the legal trades and abilities (``trading.add_legal_trades``, the hot
  path) against the rule with its reasons (``trading.why_not_trade``) over every trade
  and ability action, in states of random games; both ask ``trading.ability_ready``
  for the once-a-turn rule.
- Belle of the Ball: the invitations listed (``invite.invitations``) against the rule
  with its reasons (``invite.invite_problem``, which asks ``invite.skip_cost``); the
  greedy bot's group values from a group's counts (``greedy_plan.Planner.value_of``, its
  plans' fast path, with and without one more guest) against its estimate of a group
  (``greedy_plan.group_value``), float for float.
- FoodAdvice: the extra customer's one-pass pick (``market.choose_extra``) against its
  order as the rulebook gives it, one filter at a time (matches, then the price up to
  the budget, then a favourite shape, then the newest product).
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from potluck.games.belle_of_the_ball.actions import INVITE, TAKE_BELLE
from potluck.games.belle_of_the_ball.game import BelleOfTheBall
from potluck.games.belle_of_the_ball.greedy_plan import Planner, Weights, group_value
from potluck.games.belle_of_the_ball.invite import invitations, invite_problem
from potluck.games.burger_joint.actions import BurgerAction
from potluck.games.burger_joint.game import BurgerJoint
from potluck.games.burger_joint.state import TRADE, TRADE3, BurgerState
from potluck.games.burger_joint.trading import ABILITY_OF, add_legal_trades, why_not_trade
from potluck.games.food_advice.forecast import Baseline
from potluck.games.food_advice.game import FoodAdvice
from potluck.games.food_advice.market import (
    BY_FLAVOUR,
    BY_SHAPE,
    LEFT_NOTHING,
    Buyer,
    Offer,
    choose,
    choose_extra,
    matches,
)

FOOD = FoodAdvice()
BURGER = BurgerJoint()
BELLE = BelleOfTheBall()


def _offer(draw: st.DrawFn, product: int) -> Offer:
    return Offer(
        product=product,
        seller=draw(st.integers(0, 3)),
        shape=draw(st.integers(0, len(FOOD.shapes) - 1)),
        price=draw(st.integers(1, 40)),
        tags=draw(st.integers(0, (1 << len(FOOD.hashtags)) - 1)),
    )


@st.composite
def _tables(draw: st.DrawFn) -> tuple[list[Offer], Offer]:
    count = draw(st.integers(0, 8))
    offers = [_offer(draw, product) for product in range(count)]
    return offers, _offer(draw, count)


@settings(max_examples=300, deadline=None)
@given(_tables())
def test_food_advice_forecast_sells_what_the_customers_choose(
    case: tuple[list[Offer], Offer],
) -> None:
    offers, new = case
    forecast = Baseline(FOOD, offers).new_product_sales(new.price, new.tags, new.shape, new.seller)
    chosen = 0
    for c in FOOD.regular_customers:
        choice = choose(FOOD.buyers[c], [*offers, new])
        if choice.offer is not None and choice.offer.seller == new.seller:
            chosen += choice.paid
    assert forecast == chosen


def _states(game: BurgerJoint, players: int, seeds: range) -> list[BurgerState]:
    found = []
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_game(players, seed)
        while game.to_act(state):
            found.append(state.clone())
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            game.step(state, seat, legal[rng.randrange(len(legal))])
    return found


def test_burger_joint_legal_trades_are_those_the_rule_allows() -> None:
    kinds = {TRADE3, *ABILITY_OF}
    actions = [a for a in BURGER.actions if a.kind in kinds]
    checked = 0
    for state in _states(BURGER, 2, range(6)):
        if state.phase != TRADE:
            continue
        seat = state.active
        fast: list[BurgerAction] = []
        add_legal_trades(BURGER, state, seat, fast)
        ruled = [a for a in actions if why_not_trade(BURGER, state, seat, a) is None]
        assert sorted(a.index for a in fast) == sorted(a.index for a in ruled)
        checked += 1
    assert checked > 50


def test_belle_invitations_are_those_the_rule_allows() -> None:
    actions = [a for a in BELLE.all_actions if a.kind in (INVITE, TAKE_BELLE)]
    checked = 0
    for options in ({}, {"belles_in_guest_deck": True}):
        for seed in range(3):
            rng = random.Random(seed)
            state = BELLE.new_game(4, seed, options)
            while BELLE.to_act(state):
                seat = BELLE.to_act(state)[0]
                listed = invitations(BELLE, state, seat)
                if listed:
                    ruled = [a for a in actions if invite_problem(BELLE, state, seat, a) is None]
                    assert sorted(a.index for a in listed) == sorted(a.index for a in ruled)
                    checked += 1
                legal = BELLE.legal_actions(state, seat)
                BELLE.step(state, seat, legal[rng.randrange(len(legal))])
    assert checked > 50


_GUESTS = st.sampled_from(BELLE.guest_interests)


@settings(max_examples=400, deadline=None)
@given(
    group=st.lists(_GUESTS, max_size=5),
    guest=_GUESTS,
    future=st.integers(0, 12),
    full=st.sampled_from((4, 5)),
    singles=st.booleans(),
    share=st.floats(0, 1),
    cost=st.floats(-2, 2),
)
def test_belle_greedy_group_values_from_counts_are_the_estimate(
    group: list[tuple[int, ...]],
    guest: tuple[int, ...],
    future: int,
    full: int,
    singles: bool,
    share: float,
    cost: float,
) -> None:
    weights = Weights(interest_share=share, need_cost=cost)
    counted = Planner(weights)
    counted.future = future
    for shown in group:
        counted.add(0, shown)
    assert counted.value_of(0, full, singles) == group_value(group, future, full, singles, weights)
    counted.add(0, guest)
    assert counted.value_of(0, full, singles) == group_value(
        [*group, guest], future, full, singles, weights
    )


def _extra_pick_filter_by_filter(
    buyer: Buyer, offers: list[Offer]
) -> tuple[Offer | None, int, str]:
    """The extra customer's choice as the rule reads: each criterion narrows the pool."""
    if not offers:
        return None, 0, LEFT_NOTHING
    best = max(matches(buyer, o) for o in offers)
    pool = [o for o in offers if matches(buyer, o) == best]
    top = max(min(o.price, buyer.budget) for o in pool)
    pool = [o for o in pool if min(o.price, buyer.budget) == top]
    pool = [o for o in pool if buyer.shapes >> o.shape & 1] or pool
    pick = max(pool, key=lambda o: o.product)
    return pick, min(pick.price, buyer.budget), BY_FLAVOUR if best else BY_SHAPE


@settings(max_examples=400, deadline=None)
@given(
    st.integers(0, 255),
    st.integers(0, 15),
    st.integers(0, 40),
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 40), st.integers(0, 255)), max_size=8),
)
def test_food_advice_extra_customer_picks_by_the_rules_order(
    tags: int, shapes: int, budget: int, products: list[tuple[int, int, int]]
) -> None:
    buyer = Buyer(tags, shapes, budget)
    offers = [
        Offer(number, 0, shape, price, product_tags)
        for number, (shape, price, product_tags) in enumerate(products)
    ]
    random.Random(len(offers)).shuffle(offers)  # the newest is not always the last listed
    assert tuple(choose_extra(buyer, offers)) == _extra_pick_filter_by_filter(buyer, offers)
