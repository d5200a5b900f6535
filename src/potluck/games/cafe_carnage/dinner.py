"""Step 3 of a round, *Dinner is Served*: everyone reveals their dishes and scores them.

A dish's value is both its price in dollars and the Gourmet Points for eating
it. In the *Advanced Variant* a dish eaten on an earlier night scores nothing
(it is still paid for).

    >>> import potluck
    >>> game = potluck.load_game("cafe-carnage")
    >>> state = game.new_game(4, seed=1)
    >>> meal = [deck[0] for deck in game.full_decks]     # a starter, a main, a dessert
    >>> state.orders = meal * 4
    >>> meal_costs(game, state) == [sum(game.value_of[d] for d in meal)] * 4
    True
"""

from __future__ import annotations

from potluck.games.cafe_carnage.state import CafeState
from potluck.games.cafe_carnage.tables import CafeTables


def meal_costs(game: CafeTables, state: CafeState) -> list[int]:
    """Per seat, what tonight's starter, main and dessert cost together."""
    value, orders = game.value_of, state.orders
    return [
        value[orders[3 * s]] + value[orders[3 * s + 1]] + value[orders[3 * s + 2]]
        for s in range(state.num_players)
    ]


def serve(game: CafeTables, state: CafeState, costs: list[int]) -> list[int]:
    """Everyone scores their meal (``costs`` from ``meal_costs``); returns the points scored."""
    scored = costs
    if state.options["no_repeat_dishes"]:
        value, orders, eaten = game.value_of, state.orders, state.eaten
        scored = [
            sum(value[d] for d in orders[3 * s : 3 * s + 3] if not eaten[s] >> d & 1)
            for s in range(state.num_players)
        ]
    points = state.points
    for s in range(state.num_players):
        points[s] += scored[s]
    return scored
