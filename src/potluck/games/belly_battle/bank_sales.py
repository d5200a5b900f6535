"""Bank sales: selling restaurants, chefs and stars back to Mr. Munchwalla (rulebook,
Selling Restaurants/Chefs/Star; rulings BB-1 and BB-13). Named apart from FoodAdvice's
``selling.py`` (customers buying products), which is another thing.

The bank pays half a card's printed price, plus the sell-back price (50) of each
token on it; a chef or star alone sells for 50. Selling to the bank is allowed at
any decision of one's own, besides the upgrade window and debts. Selling to other
players is an offer (``trades``).

    >>> import potluck
    >>> g = potluck.load_game("belly-battle")
    >>> s = g.new_game(2, seed=1)
    >>> card = s.owner.index(0)
    >>> sale_value(g, s, card) == g.price[card] // 2
    True
"""

from __future__ import annotations

from potluck.games.belly_battle.ownership import to_bank
from potluck.games.belly_battle.state import ST_SOLD, BellyState
from potluck.games.belly_battle.tables import BellyTables


def sale_value(game: BellyTables, state: BellyState, card: int) -> int:
    """What Mr. Munchwalla pays for ``card``: half its price, plus its tokens at 50."""
    return game.price[card] // 2 + game.token_sellback * (state.chefs[card] + state.star[card])


def bank_value(game: BellyTables, state: BellyState, seat: int) -> int:
    """What Mr. Munchwalla would pay for everything ``seat`` owns (read from the seat's
    card bits, ``state.holdings``, without listing them: every landing on a restaurant
    for sale asks it, and a pass over every card's owner was 1.9% of a random step)."""
    total = 0
    bits, card = state.holdings[seat], 0
    while bits:
        if bits & 1:
            total += sale_value(game, state, card)
        bits >>= 1
        card += 1
    return total


def sell_card(game: BellyTables, state: BellyState, seat: int, card: int) -> None:
    """``seat`` sells ``card`` with its tokens to the bank."""
    value = sale_value(game, state, card)
    state.cash[seat] += value
    state.bank_net -= value
    to_bank(state, card)
    state.stats[ST_SOLD] += 1
    state.say("Seat {} sells {} back to the bank for {}.", seat, game.names[card], value)


def sell_chef(game: BellyTables, state: BellyState, seat: int, card: int) -> None:
    """``seat`` sells one chef of ``card`` to the bank."""
    sellback = game.token_sellback
    state.cash[seat] += sellback
    state.bank_net -= sellback
    state.chefs[card] -= 1
    state.cards_changed()
    state.say("Seat {} sells a chef of {} for {}.", seat, game.names[card], sellback)


def sell_star(game: BellyTables, state: BellyState, seat: int, card: int) -> None:
    """``seat`` sells the star of ``card`` to the bank."""
    sellback = game.token_sellback
    state.cash[seat] += sellback
    state.bank_net -= sellback
    state.star[card] = 0
    state.cards_changed()
    state.say("Seat {} sells the star of {} for {}.", seat, game.names[card], sellback)
