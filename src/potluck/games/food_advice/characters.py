"""The decks the characters keep (rulebook, "Characters"): the Farmer's ingredients,
the Politician's customers, and drawing from an unordered deck.

The ingredient deck is an ordered pile (``deck[-1]`` the top): dealt from the top,
played cards to the bottom. The customer, shape and event decks are unordered: a
card is drawn at random, as from a shuffled deck.
"""

from __future__ import annotations

import random

from potluck.engine.chance import uniform
from potluck.games.food_advice.state import FoodState
from potluck.games.food_advice.tables import FoodTables


def draw(deck: list[int], rng: random.Random) -> int:
    """A random card of an unordered deck: dealing from a shuffled one (``uniform`` is
    ``rng.random()``'s draw without the method's look-up)."""
    # (``float(len(deck))``: a float times a float is multiplied in C by compiled code;
    # a float times an int went through Python's generic multiplication, boxed.)
    return deck.pop(int(uniform(rng) * float(len(deck))))


def deal_ingredients(tables: FoodTables, state: FoodState) -> list[int]:
    """The Farmer deals six ingredients from the top of the deck (the returned cards are
    reached only once every card above them is dealt)."""
    deck = state.ing_deck
    top = len(deck) - min(tables.dealt, len(deck))
    # The top cards in the order they come off the deck (the last card first): sliced
    # and turned round at once, not popped and appended one by one.
    hand = deck[top:]
    hand.reverse()
    del deck[top:]
    del state.ing_returned[top:]
    return hand


def return_ingredient(state: FoodState, ing: int, by: int) -> None:
    """A played ingredient goes to the bottom of the deck (rulebook, the Farmer); ``by``
    is the seat that put it there face down, or -1 when everyone saw it."""
    state.ing_deck.insert(0, ing)
    state.ing_returned.insert(0, by)


def draw_customer(state: FoodState) -> int:
    """The Politician's deck; when it runs out, the played cards are reshuffled.
    The customer drawn (it goes on the table), or -1 when there is none at all."""
    if not state.cust_deck:
        state.cust_deck, state.cust_discard = state.cust_discard, []
    if not state.cust_deck:
        return -1
    customer = draw(state.cust_deck, state.rng)
    state.cust_table.append(customer)
    return customer
