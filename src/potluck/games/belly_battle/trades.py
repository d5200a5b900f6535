"""Selling to other players: offers and their answers (rulebook, Selling
Restaurants/Chefs/Star, "you can sell directly to any other players at any cost";
rulings BB-8, BB-13 and BB-19).

A seat offers a card, with its tokens, to one other player at 50%, 100%, 150% or
200% of its printed price: one offer per upgrade window, up to two for a debt. The
buyer answers at once; then the seller's window or debt goes on.

    >>> import potluck
    >>> g = potluck.load_game("belly-battle")
    >>> s = g.new_game(2, seed=1)
    >>> card = s.owner.index(0)
    >>> from potluck.games.belly_battle.state import WINDOW
    >>> make_offer(g, s, 0, g.offers(card, 1)[1], WINDOW); s.acting
    (1,)
"""

from __future__ import annotations

from potluck.games.belly_battle.actions import BellyAction
from potluck.games.belly_battle.ownership import gain
from potluck.games.belly_battle.state import ALONE, NO_OFFER, RESPOND, ST_TRADES, WINDOW, BellyState
from potluck.games.belly_battle.tables import BellyTables


def make_offer(
    game: BellyTables, state: BellyState, seat: int, offer: BellyAction, phase: int
) -> None:
    """``seat`` offers ``offer.card`` to ``offer.other`` for ``offer.amount``, from its
    window or debt (``phase``); the buyer must answer now."""
    if phase == WINDOW:
        state.window_offered = True
        state.window_actions += 1
    else:
        state.debt_offers -= 1
    state.offer = (seat, offer.card, offer.other, offer.amount)
    state.resume = phase
    state.phase = RESPOND
    state.acting = ALONE[offer.other]
    state.say(
        "Seat {} offers {} to seat {} for {}.",
        seat,
        game.names[offer.card],
        offer.other,
        offer.amount,
    )


def answer_offer(game: BellyTables, state: BellyState, accept: bool) -> int:
    """The buyer accepts (pays the price and takes the card with its tokens) or
    declines; the seller acts again. Returns the seller."""
    seller, card, buyer, price = state.offer
    if accept:
        state.cash[buyer] -= price
        state.cash[seller] += price
        gain(state, buyer, card)
        state.stats[ST_TRADES] += 1
        state.say("Seat {} buys {} for {}.", buyer, game.names[card], price)
    else:
        state.say("Seat {} declines.", buyer)
    state.offer = NO_OFFER
    state.phase = state.resume
    state.acting = ALONE[seller]
    return seller
