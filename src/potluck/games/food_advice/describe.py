"""FoodAdvice's actions in words, for buttons and menus (``Game.describe_action``).

``offer oat-flakes to 2`` is what a player types; the sentence names the card, its
price and hashtag, and what the move does at this point of the round.
"""

from __future__ import annotations

from potluck.games.food_advice.actions import (
    DECLINE,
    DISCARD,
    DONE,
    GIVE,
    INVEST,
    NAME,
    OFFER,
    PASS,
    PROMOTE,
    REMOVE,
    SHOP,
    TARGET,
    VOTE,
    FoodAction,
)
from potluck.games.food_advice.state import EXCHANGE, FoodState
from potluck.games.food_advice.tables import FoodTables


def _ingredient(game: FoodTables, ing: int) -> str:
    return f"{game.ing_names[ing]} ({game.ing_price[ing]} F, #{game.hashtags[game.ing_tag[ing]]})"


def _product_name(state: FoodState, owner: int) -> str:
    """`` "Trendy Porridge"``: the name of ``owner``'s product of this round, if named."""
    for k in range(len(state.prod_owner) - 1, -1, -1):
        if state.prod_owner[k] == owner and state.prod_round[k] == state.round:
            return f' "{state.prod_name[k]}"' if state.prod_name[k] else ""
    return ""


def describe(game: FoodTables, state: FoodState, seat: int, action: FoodAction) -> str:
    """A player-facing sentence for ``action``.

    >>> import potluck
    >>> game = potluck.load_game("food-advice")
    >>> state = game.new_game(4, seed=1)
    >>> game.describe_action(state, 0, game.legal_actions(state, 0)[0])
    'Make no (more) offers this round'
    """
    kind, thing = action.kind, action.thing
    if kind == PASS:
        return "Make no (more) offers this round"
    if kind == OFFER:
        more = " too" if state.offer_ings else ""
        return f"Offer {_ingredient(game, thing)} to seat {action.seat}{more}"
    if kind == DONE:
        if state.phase == EXCHANGE:
            return f"Send your offer to seat {state.offer_to}"
        return "Done placing chips"
    if kind == GIVE:
        return f"Give {_ingredient(game, thing)} back for the offer"
    if kind == DECLINE:
        return "Decline the offer"
    if kind == DISCARD:
        return f"Discard {_ingredient(game, thing)}"
    if kind == NAME:
        return f'Name your product "{action.name}"'
    if kind == VOTE:
        return f"Vote for seat {action.seat}'s product{_product_name(state, action.seat)}"
    if kind == SHOP:
        return f"Sell in {game.shop_names[thing]}"
    if kind == PROMOTE:
        return f"Promote on {game.channels[thing]}"
    if kind == INVEST:
        return f"Invest in seat {action.seat}'s products (Mabius)"
    if kind == TARGET:
        return f"Play your event card on seat {action.seat}"
    if kind == REMOVE:
        return f"Remove {_ingredient(game, thing)} from its product"
    return action.text
