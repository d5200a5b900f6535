"""What FoodAdvice's rules remember between steps (issue 36), held equal to what it
stands for, over random states: the products' ``Offer``s, made once per product
(``presentation.offers``, which keeps them in ``state.offer_memo``).

- ``offers`` (of every seller, and of some) are the offers made afresh from the products
  at every step of random games at 2-6 players, and after products are changed behind
  the memo's back (an ingredient replaced or added, the shapes dealt again) in clones,
  which share the memo with the state they were made from.
- The memo pickles (an OpenSpiel state is serialized with its game) and is not saved:
  a state read back from JSON, or unpickled, gives the same offers and the same JSON.
"""

from __future__ import annotations

import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from potluck.games.food_advice.game import FoodAdvice
from potluck.games.food_advice.market import Offer
from potluck.games.food_advice.presentation import offers
from potluck.games.food_advice.state import FoodState
from potluck.testing.suite import random_position

GAME = FoodAdvice()
SEEDS = st.integers(min_value=0, max_value=10**9)
PLAYERS = st.integers(min_value=2, max_value=6)


def _new_game(players: int, seed: int) -> FoodState:
    options = {"small_table": True} if players < 4 else None
    return GAME.new_game(players, seed=seed, options=options)


def _fresh_offers(state: FoodState, seats: int) -> list[Offer]:
    return [
        Offer(
            p,
            state.prod_owner[p],
            state.prod_shape[p],
            sum(GAME.ing_price[i] for i in ings),
            GAME.product_tags(list(ings)),
        )
        for p, ings in enumerate(state.prod_ings)
        if seats >> state.prod_owner[p] & 1
    ]


def _check_offers(state: FoodState) -> None:
    for seats in (-1, 0b101, 0b10, (1 << state.num_players) - 1):
        assert offers(GAME, state, seats) == _fresh_offers(state, seats)


def _shake(state: FoodState, rng: random.Random) -> None:
    """Change a product as nothing in the rules does, behind the memo's back (the state's
    products are tuples: a change gives the state new ones)."""
    if not state.prod_ings:
        return
    products = [list(ings) for ings in state.prod_ings]
    ings = products[rng.randrange(len(products))]
    way = rng.randrange(3)
    if way == 0 and ings:
        ings[rng.randrange(len(ings))] = rng.randrange(len(GAME.ing_names))
    elif way == 1:
        ings.append(rng.randrange(len(GAME.ing_names)))
    else:
        state.prod_shape = tuple(rng.randrange(len(GAME.shapes)) for _ in state.prod_shape)
    state.prod_ings = tuple(tuple(ings) for ings in products)


@settings(max_examples=60, deadline=None)
@given(SEEDS, PLAYERS)
def test_offers_along_random_games(seed: int, players: int) -> None:
    state, rng = _new_game(players, seed), random.Random(seed)
    while state.acting:
        seat = state.acting[0]
        if rng.random() < 0.2:
            _check_offers(state)
        if rng.random() < 0.05:
            twin = state.clone()
            _check_offers(twin)
            for _ in range(rng.randrange(1, 4)):
                _shake(twin, rng)
                _check_offers(twin)
            _check_offers(state)
        legal = GAME.legal_actions(state, seat)
        GAME.step(state, seat, legal[rng.randrange(len(legal))])
    _check_offers(state)


@settings(max_examples=20, deadline=None)
@given(SEEDS, PLAYERS, st.integers(min_value=0, max_value=400))
def test_the_memo_pickles_and_is_not_saved(seed: int, players: int, steps: int) -> None:
    state = random_position(GAME, _new_game(players, seed), seed, steps)
    offers(GAME, state)  # the memo filled, if there are products
    for copy in (pickle.loads(pickle.dumps(state)), GAME.from_json(GAME.to_json(state))):
        _check_offers(copy)
        assert GAME.to_json(copy) == GAME.to_json(state)
        if copy.acting:
            seat = copy.acting[0]
            assert GAME.legal_actions(copy, seat) == GAME.legal_actions(state, seat)
