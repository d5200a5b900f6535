"""FoodAdvice's speed-ups of issue 36 held equal to what they stand for, on random cases.

- ``FoodTables.generated_name`` writes its action without ``name_action``'s normalising
  and checks when its parts allow: the action must be the one ``name_action`` makes of
  the same name and tagline.
- ``market.choose`` keeps the pooled products without their prices paid: it must choose
  as the rulebook's order reads, one filter at a time, with the price paid written out.
- ``market.count_bits`` must count as ``int.bit_count`` for every whole number, and
  ``market.count_few_bits`` for every whole number from 0.
- The legal lists of the exchange, the answer, the keeping and the placing (which counts
  a seat's chips once for the list and its room): every action the rule allows
  (``Game.explain`` says nothing against it), in the order of the actions' codes (the
  placing's shops in board order), on states of random games whose hands, offers and
  chips hypothesis then changes at will.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from potluck.games.food_advice.actions import NAME, SHOP, FoodAction
from potluck.games.food_advice.game import FoodAdvice
from potluck.games.food_advice.market import (
    BY_FLAVOUR,
    BY_PRICE,
    BY_SAMPLING,
    BY_SHAPE,
    LEFT_NO_MATCH,
    LEFT_NOTHING,
    LEFT_UNDECIDED,
    Buyer,
    Choice,
    Offer,
    choose,
    count_bits,
    count_few_bits,
)
from potluck.games.food_advice.state import EXCHANGE, KEEP, PLACING, RESPOND, FoodState

GAME = FoodAdvice()
INGREDIENTS = len(GAME.ing_names)
SHAPES = len(GAME.shapes)


def _named_by_the_rule(hand: list[int], shape: int) -> FoodAction:
    tags: list[int] = []
    for i in hand:
        if GAME.ing_tag[i] not in tags:
            tags.append(GAME.ing_tag[i])
    adjective = GAME.hashtag_titles[tags[0]] if tags else "Mystery"
    noun = GAME.shape_titles[shape] if shape >= 0 else "Product"
    price = sum(GAME.ing_price[i] for i in hand)
    tagline = " ".join([*(GAME.hashtag_words[t] for t in tags), f"for {price} F"])
    return GAME.name_action(f"{adjective} {noun}", tagline)


@settings(max_examples=300, deadline=None)
@given(
    hand=st.lists(st.integers(0, INGREDIENTS - 1), max_size=GAME.dealt),
    shape=st.integers(-1, SHAPES - 1),
)
def test_generated_names_are_what_name_action_makes(hand: list[int], shape: int) -> None:
    state = GAME.new_game(4, seed=1)
    state.hands[0], state.dealt_shape[0] = list(hand), shape
    made, expected = GAME.generated_name(state, 0), _named_by_the_rule(hand, shape)
    assert (made.index, made.text, made.kind) == (expected.index, expected.text, expected.kind)
    assert (made.name, made.tagline) == (expected.name, expected.tagline)


def _rulebook_choice(
    buyer: Buyer, offers: list[Offer], black_friday: int, flavor: int, limit: int
) -> Choice:
    """``choose`` as the rulebook orders it, each step a filter over (offer, price paid)."""
    reach = [
        (o, o.price if o.price <= buyer.budget else buyer.budget)
        for o in offers
        if o.price <= buyer.budget
        or (black_friday >> o.seller & 1 and o.price <= buyer.budget + limit)
    ]
    if not reach:
        return Choice(None, 0, LEFT_NOTHING)
    hits = {o.product: (buyer.tags & o.tags).bit_count() for o, _ in reach}
    best = max(hits.values())
    pool = [(o, p) for o, p in reach if hits[o.product] == best]

    def dearest(items: list[tuple[Offer, int]]) -> list[tuple[Offer, int]]:
        return [(o, p) for o, p in items if p == max(q for _, q in items)]

    def liked(items: list[tuple[Offer, int]]) -> list[tuple[Offer, int]]:
        return [(o, p) for o, p in items if buyer.shapes >> o.shape & 1]

    if best > 0:
        if len(pool) == 1:
            return Choice(pool[0][0], pool[0][1], BY_FLAVOUR)
        pool = dearest(pool)
        if len(pool) == 1:
            return Choice(pool[0][0], pool[0][1], BY_PRICE)
        if len(liked(pool)) == 1:
            return Choice(liked(pool)[0][0], liked(pool)[0][1], BY_SHAPE)
        pool = liked(pool) or pool
    else:
        pool = liked(pool)
        if not pool:
            return Choice(None, 0, LEFT_NO_MATCH)
        pool = dearest(pool)
        if len(pool) == 1:
            return Choice(pool[0][0], pool[0][1], BY_SHAPE)
    sampled = [(o, p) for o, p in pool if flavor >> o.seller & 1]
    if sampled and len({o.seller for o, _ in sampled}) == 1:
        offer, paid = max(sampled, key=lambda item: item[0].product)
        return Choice(offer, paid, BY_SAMPLING)
    return Choice(None, 0, LEFT_UNDECIDED)


_OFFER = st.tuples(
    st.integers(0, 3),  # seller
    st.integers(0, 3),  # shape
    st.integers(5, 60),  # price
    st.integers(0, 15),  # hashtags
)


@settings(max_examples=2000, deadline=None)
@given(
    buyer=st.builds(Buyer, st.integers(0, 15), st.integers(0, 15), st.integers(10, 50)),
    specs=st.lists(_OFFER, max_size=7),
    black_friday=st.integers(0, 15),
    flavor=st.integers(0, 15),
    limit=st.integers(0, 30),
)
def test_choose_follows_the_rulebooks_order(
    buyer: Buyer,
    specs: list[tuple[int, int, int, int]],
    black_friday: int,
    flavor: int,
    limit: int,
) -> None:
    offers = [Offer(p, *spec) for p, spec in enumerate(specs)]
    expected = _rulebook_choice(buyer, offers, black_friday, flavor, limit)
    assert choose(buyer, offers, black_friday, flavor, limit) == expected


@given(st.integers(-(1 << 80), 1 << 80))
def test_count_bits_counts_as_bit_count(mask: int) -> None:
    assert count_bits(mask) == mask.bit_count()
    if mask >= 0:
        assert count_few_bits(mask) == mask.bit_count()


def _state_in(phase: int, seed: int, steps: int) -> FoodState | None:
    """The first state of ``phase`` at least ``steps`` moves into a random game."""
    state = GAME.new_game(4, seed)
    rng = random.Random(seed)
    for step in range(2000):
        if not state.acting:
            return None
        if state.phase == phase and step >= steps:
            return state
        seat = state.acting[0]
        legal = GAME.legal_actions(state, seat)
        GAME.step(state, seat, legal[rng.randrange(len(legal))])
    return None


@settings(max_examples=300, deadline=None)
@given(
    phase=st.sampled_from((EXCHANGE, RESPOND, KEEP, PLACING)),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 400),
    hand=st.none() | st.lists(st.integers(0, INGREDIENTS - 1), max_size=8, unique=True),
    bundle=st.none() | st.lists(st.integers(0, INGREDIENTS - 1), max_size=3, unique=True),
    offered=st.none() | st.integers(0, 2),
    chips=st.none() | st.tuples(st.integers(0, 63), st.integers(0, 127), st.integers(0, 6)),
)
def test_legal_lists_are_what_the_rule_allows_in_order(
    phase: int,
    seed: int,
    steps: int,
    hand: list[int] | None,
    bundle: list[int] | None,
    offered: int | None,
    chips: tuple[int, int, int] | None,
) -> None:
    state = _state_in(phase, seed, steps)
    if state is None:
        return
    seat = state.acting[0]
    if hand is not None:
        state.hands[seat] = hand
    if phase == EXCHANGE and bundle is not None:
        state.offer_ings = tuple(i for i in bundle if i in state.hands[seat])
        state.offer_to = (seat + 1) % 4 if state.offer_ings else -1
    if phase == RESPOND and bundle is not None:
        state.given_ings = tuple(i for i in bundle if i in state.hands[seat])
    if offered is not None:
        state.offered[seat] = offered
    if phase == PLACING and chips is not None:
        shops = (1 << len(state.board)) - 1
        state.shop_chips[seat] = chips[0] & shops
        state.channel_chips[seat] = chips[1]
        state.chips[seat] = chips[2]
    allowed = [a for a in GAME.actions if a.kind != NAME and GAME.explain(state, seat, a) is None]
    if phase == PLACING:  # the shops in board order, among the actions in code order
        on_board = [a for a in allowed if a.kind == SHOP]
        on_board.sort(key=lambda a: state.board.index(a.thing))
        allowed = (
            [a for a in allowed if a.kind < SHOP] + on_board + [a for a in allowed if a.kind > SHOP]
        )
    assert GAME.legal_actions(state, seat) == allowed
