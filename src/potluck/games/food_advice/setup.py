"""Getting ready for the game (rulebook, "Getting ready for the game" and "Dealing
character cards and chips"): roles, foodcoins and chips, the decks shuffled, and
the first round's deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from potluck.engine.chance import sample, shuffle
from potluck.games.food_advice.product import start_round
from potluck.games.food_advice.state import ROLES, FoodState
from potluck.games.food_advice.tables import FoodTables


def new_state(
    tables: FoodTables, num_players: int, seed: int, options: Mapping[str, Any]
) -> FoodState:
    """A new game, dealt for the first round's exchange (the deals drawn by
    ``potluck.engine.chance``, card for card as ``random.Random``'s own methods draw)."""
    state = FoodState(num_players, seed, options)
    rng, n, t = state.rng, num_players, tables.data.table
    # The decks' cards numbered from 0, copied from one tuple (``FoodTables.card_numbers``):
    # a list made from a range counts its way up one boxed number at a time.
    numbers = tables.card_numbers
    state.roles = tuple(sample(rng, range(len(ROLES)), n))  # the Character deck, shuffled and dealt
    state.money = [t.starting_money] * n
    state.chips = [t.starting_chips] * n
    state.ing_deck = list(numbers[: len(tables.ing_names)])
    shuffle(rng, state.ing_deck)
    state.ing_returned = []
    state.shape_deck = list(numbers[: len(tables.shapes)])
    state.shop_deck = list(numbers[: len(tables.shop_names)])
    shuffle(rng, state.shop_deck)
    state.event_deck = list(numbers[: len(tables.event_names)])
    state.cust_deck = list(numbers[: len(tables.cust_names)])
    state.event_discard, state.cust_discard, state.cust_table = [], [], []
    state.prod_owner, state.prod_shape, state.prod_round = (), (), ()
    state.prod_ings, state.prod_name, state.prod_tagline = (), (), ()
    state.held = [[] for _ in range(n)]
    state.log, state.tiebreak = [], None
    state.round = 0
    start_round(tables, state)
    return state
