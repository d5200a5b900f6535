"""Café Carnage's actions in words, for buttons and menus (``Game.describe_action``).

An order names the dish and its price; an action card is its title:

    >>> import potluck
    >>> game = potluck.load_game("cafe-carnage")
    >>> state = game.new_game(4, seed=1)
    >>> describe(game, state, 0, game.legal_actions(state, 0)[0])
    'Tomato Soup ($1)'
"""

from __future__ import annotations

from potluck.games.cafe_carnage.actions import CafeAction
from potluck.games.cafe_carnage.state import CARD_TITLES, CafeState
from potluck.games.cafe_carnage.tables import CafeTables


def describe(game: CafeTables, state: CafeState, seat: int, action: CafeAction) -> str:
    """``Vegetable Samosas ($2)`` for an order, the card's title for a card."""
    if action.dish >= 0:
        return f"{game.dish_names[action.dish]} (${game.value_of[action.dish]})"
    return CARD_TITLES[action.card]
