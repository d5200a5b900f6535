"""Shared by the FoodAdvice test files: the loaded game and builders of the rulebook's
example products, played with the real card data.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import strategies as st

import potluck
from potluck.games.food_advice import Buyer, FoodAdvice, FoodState, Offer

PRICE = {5: "economy", 10: "medium", 20: "premium"}


@pytest.fixture(scope="module")
def game() -> FoodAdvice:
    g = potluck.load_game("food-advice")
    assert isinstance(g, FoodAdvice)
    return g


def ing(game: FoodAdvice, price: int, hashtag: str) -> int:
    """The ingredient of this price with this hashtag (every pair exists in the data)."""
    tag = game.hashtags.index(hashtag)
    return next(
        i
        for i in range(len(game.ing_names))
        if game.ing_price[i] == price and game.ing_tag[i] == tag
    )


def product(
    game: FoodAdvice, number: int, seller: int, shape: str, parts: list[tuple[int, str]]
) -> Offer:
    ings = [ing(game, price, tag) for price, tag in parts]
    return Offer(
        number,
        seller,
        game.shapes.index(shape),
        sum(game.ing_price[i] for i in ings),
        game.product_tags(ings),
    )


def customer(game: FoodAdvice, name: str) -> int:
    return game.cust_names.index(name)


def hipster(game: FoodAdvice) -> Buyer:
    return game.buyers[customer(game, "Mister Hipster")]


def play_until(game: FoodAdvice, state: FoodState, phase: int, round_: int | None = None) -> None:
    """Play each seat's first legal action until ``phase`` (of ``round_``) is reached."""
    while state.acting and not (state.phase == phase and (round_ is None or state.round == round_)):
        seat = state.acting[0]
        game.step(state, seat, game.legal_actions(state, seat)[0])


def random_play_state(game: FoodAdvice, players: int, seed: int, steps: int) -> FoodState:
    """The state after up to ``steps`` random moves of a game of ``seed`` (moves drawn
    from ``random.Random(seed)``)."""
    state = game.new_game(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if not state.acting:
            break
        seat = state.acting[0]
        game.step(state, seat, rng.choice(game.legal_actions(state, seat)))
    return state


def state_lists(
    seeds: tuple[int, int], steps: int, max_size: int
) -> st.SearchStrategy[list[tuple[int, int, int]]]:
    """Lists of (players 4-6, a seed in ``seeds``, up to ``steps`` random moves), each
    a ``random_play_state`` to build."""
    return st.lists(
        st.tuples(st.integers(4, 6), st.integers(*seeds), st.integers(0, steps)),
        min_size=1,
        max_size=max_size,
    )
