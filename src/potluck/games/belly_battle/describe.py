"""Belly Battle's actions in words, for menus and buttons (``Game.describe_action``).

The notation (``buy``, ``chef momo-mia``) is what a player types; these are what a
button says: ``Buy Momo Mia for 180``, ``Add a chef to Momo Mia (50)``.
"""

from __future__ import annotations

from potluck.games.belly_battle.actions import (
    ACCEPT,
    BUY,
    CHEF,
    DECLINE,
    INSURE,
    OFFER,
    PASS,
    SELL,
    SELL_CHEF,
    SELL_STAR,
    STAR,
    SWAP,
    TAKEOVER,
    TUNNEL,
    YUCK,
    BellyAction,
)
from potluck.games.belly_battle.bank_sales import sale_value
from potluck.games.belly_battle.state import (
    BUY_OR_PASS,
    INSURE_CHOICE,
    SWAP_CHOICE,
    TAKEOVER_CHOICE,
    TUNNEL_CHOICE,
    WINDOW,
    BellyState,
)
from potluck.games.belly_battle.tables import BellyTables

#: What "pass" means where it is offered.
_PASS_IN_PHASE = {
    BUY_OR_PASS: "Don't buy it (pay the fee)",
    TAKEOVER_CHOICE: "No Takeover Battle",
    SWAP_CHOICE: "Don't swap",
    INSURE_CHOICE: "Don't insure",
    TUNNEL_CHOICE: "Stay here (no tunnel)",
    WINDOW: "Done: end my upgrades",
}


def describe(game: BellyTables, state: BellyState, seat: int, action: BellyAction) -> str:
    """A legal action as a short sentence, with the card's name and the money involved."""
    kind, card, other = action.kind, action.card, action.other
    name = game.names[card] if card >= 0 else ""
    if kind == PASS:
        return _PASS_IN_PHASE.get(state.phase, "Pass")
    if kind == BUY:
        card = card if card >= 0 else game.space_card[state.pos[seat]]
        return f"Buy {game.names[card]} for {game.price[card]}" if card >= 0 else "Buy it"
    if kind == TUNNEL:
        return "Take the tunnel to the other end"
    if kind == ACCEPT:
        return "Accept the offer"
    if kind == DECLINE:
        return "Decline the offer"
    if kind == TAKEOVER:
        return f"Fight a Takeover Battle for {name}"
    if kind == SWAP:
        return f"Swap your {name} for {game.names[other]}"
    if kind == INSURE:
        return f"Insure {name} with a BellyGuard"
    if kind == YUCK:
        return f"Play Yuck! on seat {other}"
    if kind == CHEF:
        return f"Add a chef to {name} ({game.chef_price[card]})"
    if kind == STAR:
        return f"Add a star to {name} ({game.star_price[card]})"
    if kind == SELL:
        return f"Sell {name} to the bank ({sale_value(game, state, card)})"
    if kind == SELL_CHEF:
        return f"Sell a chef of {name} to the bank"
    if kind == SELL_STAR:
        return f"Sell the star of {name} to the bank"
    if kind == OFFER:
        return f"Offer {name} to seat {other} for {action.amount}"
    return str(action)
