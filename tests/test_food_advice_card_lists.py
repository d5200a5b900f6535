"""FoodAdvice's plain-loop readings of its card lists (issue 36) held equal to what they
stand for, on random cases.

- ``state.holds``, ``state.holds_tuple`` and ``state.is_acting`` answer as ``in``;
  ``state.place_of`` finds as ``tuple.index`` (and says -1 where it would raise).
- The rows the placing's legal list reads whole (``FoodTables.open_promotions`` and
  ``invest_rows``) hold the actions its loop over the channels and seats wrote.
- A new game's decks, copied from ``FoodTables.card_numbers``, are the cards counted
  from 0; the customer a sale names is found by ``cust_index`` as ``tuple.index`` finds it.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from potluck.games.food_advice.actions import INVEST, PROMOTE
from potluck.games.food_advice.game import FoodAdvice
from potluck.games.food_advice.state import holds, holds_tuple, is_acting, place_of

GAME = FoodAdvice()
SMALL = st.integers(min_value=-3, max_value=300)


@settings(max_examples=400, deadline=None)
@given(st.lists(SMALL, max_size=12), SMALL)
def test_holds_place_of_and_is_acting_answer_as_in_and_index(cards: list[int], card: int) -> None:
    assert holds(cards, card) == (card in cards)
    assert holds_tuple(tuple(cards), card) == (card in cards)
    assert is_acting(tuple(cards), card) == (card in cards)
    assert place_of(tuple(cards), card) == (cards.index(card) if card in cards else -1)


def test_placing_rows_hold_what_the_loop_wrote() -> None:
    promotions, invest = GAME.kind_actions[PROMOTE], GAME.kind_actions[INVEST]
    assert len(GAME.open_promotions) == 1 << len(GAME.channels)
    for mask, row in enumerate(GAME.open_promotions):
        assert row == tuple(promotions[c] for c in range(GAME.mabius) if not mask >> c & 1)
    for n in range(2, 7):
        for seat in range(n):
            expected = tuple(invest[s] for s in range(n) if s != seat)
            assert GAME.invest_rows[n][seat] == expected


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=4, max_value=6))
def test_new_decks_hold_every_card_once(seed: int, players: int) -> None:
    state = GAME.new_game(players, seed=seed)
    dealt = [i for hand in state.hands for i in hand]
    assert sorted(state.ing_deck + dealt) == list(range(len(GAME.ing_names)))
    assert sorted(state.shop_deck) == list(range(len(GAME.shop_names)))
    assert sorted(state.event_deck) == list(range(len(GAME.event_names)))
    assert sorted(state.cust_deck) == list(range(len(GAME.cust_names)))
    assert sorted(state.shape_deck + state.dealt_shape) == list(range(len(GAME.shapes)))


def test_customer_index_finds_as_tuple_index() -> None:
    for name in GAME.cust_names:
        assert GAME.cust_index[name] == GAME.cust_names.index(name)
