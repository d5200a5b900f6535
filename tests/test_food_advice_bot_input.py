"""The greedy bot's input keeps the table's products between decisions (issue 36): the
``SeatInfo.products`` tuple built last is given again while a state's products are still
those (``seat_info.table_products``). Held here to the seat's view, whatever states of
the game ask and in whatever order (a search's worlds share one game), and to a fresh
game's.
"""

from __future__ import annotations

import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from food_advice_helpers import random_play_state, state_lists
from potluck.games.food_advice.game import FoodAdvice
from potluck.games.food_advice.seat_info import SeatInfo, table_products
from potluck.games.food_advice.shared_tables import Product, TableMemo

GAME = FoodAdvice()


@settings(max_examples=25, deadline=None)
@given(
    states=state_lists((100000, 100199), 300, 4),
    repeat=st.booleans(),
)
def test_the_products_kept_between_decisions_are_the_views(
    states: list[tuple[int, int, int]], repeat: bool
) -> None:
    game = FoodAdvice()
    for players, seed, steps in states * (2 if repeat else 1):
        state = random_play_state(GAME, players, seed, steps)
        for seat in range(players):
            from_view = SeatInfo.from_view(game, game.view(state, seat), seat)
            assert game.bot_view(state, seat) == from_view
            assert table_products(game, state) == from_view.products


def test_a_state_played_on_gets_its_own_products() -> None:
    """The kept tuple is given back only while the products are the state's: a product
    joining, or an event trimming one, is seen at the next decision."""
    game = FoodAdvice()
    state = game.new_game(4, seed=100000)
    seen: list[tuple[Product, ...]] = []
    while state.acting:
        seat = state.acting[0]
        products = game.bot_view(state, seat).products
        assert products == SeatInfo.from_view(game, game.view(state, seat), seat).products
        if not seen or seen[-1] is not products:
            seen.append(products)
        legal = game.legal_actions(state, seat)
        game.step(state, seat, legal[len(legal) // 2])
    # (the same tuple object kept while nothing changed: far fewer than the decisions)
    assert 1 < len(seen) < 60


def test_the_memo_pickles_without_the_products() -> None:
    game = FoodAdvice()
    state = random_play_state(GAME, 4, 100001, 200)
    table_products(game, state)
    memo = game.greedy_tables
    assert isinstance(memo, TableMemo)
    assert memo.products
    copy = pickle.loads(pickle.dumps(memo))
    assert isinstance(copy, TableMemo)
    assert copy.products == ()


@settings(max_examples=60, deadline=None)
@given(
    table=st.tuples(st.integers(4, 6), st.integers(102000, 102199), st.integers(60, 300)),
    changes=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 40), st.integers(0, 40))),
)
def test_products_changed_in_place_are_seen(
    table: tuple[int, int, int], changes: list[tuple[int, int, int]]
) -> None:
    """The kept tuple is compared with copies of the lists it was built from, so a
    product's ingredients, owner or shape changed in place in the state's own lists (as
    an event trims a product) is seen at the next read, whatever changes and in what
    order; and the tuple is the view's after each."""
    players, seed, steps = table
    game = FoodAdvice()
    state = random_play_state(GAME, players, seed, steps)
    for kind, where, value in [(0, 0, 0), *changes]:
        count = len(state.prod_owner)
        if count:
            p = where % count
            if kind == 0 and len(state.prod_ings[p]) > 1:
                state.prod_ings[p].remove(state.prod_ings[p][value % len(state.prod_ings[p])])
            elif kind == 1:
                state.prod_owner[p] = value % players
            elif kind == 2:
                state.prod_shape[p] = value % len(GAME.shapes)
        seat = where % players
        view = game.view(state, seat)
        assert table_products(game, state) == SeatInfo.from_view(game, view, seat).products
