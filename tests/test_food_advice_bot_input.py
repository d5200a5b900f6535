"""The greedy bot's input keeps the table's products between decisions (issue 36): the
``SeatInfo.products`` tuple built last is given again while a state's products are still
the tuples it was built from (``seat_info.table_products``). Held here to the seat's
view, whatever states of the game ask and in whatever order (a search's worlds and
clones share one game), and to a fresh game's.
"""

from __future__ import annotations

import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from food_advice_helpers import random_play_state, state_lists
from potluck.games.food_advice.game import FoodAdvice
from potluck.games.food_advice.seat_info import SeatInfo, table_products
from potluck.games.food_advice.shared_tables import Product, TableMemo
from potluck.games.food_advice.state import SHARED, FoodState

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


def _shared_are_tuples(state: FoodState) -> None:
    for name in SHARED:
        value = getattr(state, name)
        assert type(value) is tuple, name
        if name == "prod_ings":
            assert all(type(ings) is tuple for ings in value)


def _fresh(state: FoodState, seat: int) -> SeatInfo:
    """The seat's input built by a game with nothing kept, and checked against its view."""
    fresh = FoodAdvice()
    info = fresh.bot_view(state, seat)
    assert info == SeatInfo.from_view(fresh, fresh.view(state, seat), seat)
    return info


@settings(max_examples=40, deadline=None)
@given(
    table=st.tuples(st.integers(2, 6), st.integers(112000, 112499)),
    plan=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 10**6)), min_size=1, max_size=40),
)
def test_the_input_after_any_steps_in_clones_too_is_the_fresh_one(
    table: tuple[int, int], plan: list[tuple[int, int]]
) -> None:
    """The products can change only by the rules giving the state new tuples (the state's
    products, their owners and shapes are tuples: nothing changes them in place), so the
    tuple kept by identity is the state's own. Held here: several clones of one game,
    played on apart with their own random moves (through events that trim products, the
    clones trimming different cards of the same products) and asked in any order through
    one game's memo, each time give the input a fresh game builds from the state, which
    is the one built from the seat's view; the shared fields stay tuples throughout, and
    through a save and a load."""
    players, seed = table
    options = {"small_table": True} if players < 4 else None
    game = FoodAdvice()
    states = [game.new_game(players, seed=seed, options=options)]
    rng = random.Random(seed)
    for what, which in plan:
        state = states[which % len(states)]
        if what == 0 and len(states) < 4:
            states.append(state.clone())
            continue
        # Up to 40 random moves (so that games reach the events that trim products).
        for _ in range(1 + which % 40):
            if not state.acting:
                break
            seat = state.acting[0]
            game.step(state, seat, rng.choice(game.legal_actions(state, seat)))
        for state in states:
            _shared_are_tuples(state)
            seat = which % players
            assert game.bot_view(state, seat) == _fresh(state, seat)
    for state in states:
        _shared_are_tuples(game.from_json(game.to_json(state)))
        _shared_are_tuples(pickle.loads(pickle.dumps(state)))
