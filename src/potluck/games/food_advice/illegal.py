"""Why a move is not legal now, in words the player can act on (``Game.explain``)."""

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
from potluck.games.food_advice.exchange import why_not_offer
from potluck.games.food_advice.placing import room
from potluck.games.food_advice.state import (
    EVENTS,
    EXCHANGE,
    KEEP,
    NAMING,
    PLACING,
    RESPOND,
    VOTING,
    FoodState,
)
from potluck.games.food_advice.tables import MAX_CHANNELS, MAX_SHOPS, FoodTables


def why_illegal(tables: FoodTables, state: FoodState, seat: int, action: FoodAction) -> str:
    """Why ``action`` is not legal for ``seat`` now, in words (``Game.explain``)."""
    phase, kind = state.phase, action.kind
    doing = {
        EXCHANGE: "It is your turn in the ingredient exchange: make an offer or pass.",
        RESPOND: "An offer is waiting for your answer: give an ingredient or decline.",
        KEEP: "Keep three ingredients: discard the others one at a time.",
        NAMING: "Name your product and give it a tagline.",
        VOTING: "Vote for one product you like.",
        PLACING: "Place your chips on shops and promotion channels.",
        EVENTS: "Play your event card: choose its target.",
    }.get(phase, "The game is over.")
    if phase == EXCHANGE and kind in (OFFER, DONE):
        why = why_not_offer(tables, state, seat, action)
        if why:
            return why
    wanted = {
        EXCHANGE: (PASS, OFFER, DONE),
        RESPOND: (DECLINE, GIVE),
        KEEP: (DISCARD,),
        NAMING: (NAME,),
        VOTING: (VOTE,),
        PLACING: (DONE, SHOP, PROMOTE, INVEST),
        EVENTS: (TARGET, REMOVE),
    }.get(phase, ())
    if kind not in wanted:
        return f"You cannot {action.text.split()[0]} now. {doing}"
    hand = state.hands[seat]
    if kind == GIVE and action.thing in state.given_ings:
        return f"You have given {tables.ing_names[action.thing]} already."
    if kind in (OFFER, GIVE, DISCARD) and action.thing not in hand:
        return f"{tables.ing_names[action.thing]} is not in your hand."
    if kind in (OFFER, VOTE, INVEST, TARGET) and action.seat == seat:
        what = {OFFER: "trade with", VOTE: "vote for", INVEST: "invest in", TARGET: "target"}
        return f"You cannot {what[kind]} yourself (ruling FA-8)."
    if kind in (OFFER, VOTE, INVEST, TARGET) and action.seat >= state.num_players:
        return f"There is no seat {action.seat} at this table."
    if kind == SHOP:
        if action.thing not in state.board:
            return f"{tables.shop_names[action.thing]} is not on the board this round."
        if state.shop_chips[seat] >> state.board.index(action.thing) & 1:
            return f"You already have a chip in {tables.shop_names[action.thing]}: one per shop."
        if state.shop_chips[seat].bit_count() >= MAX_SHOPS:
            return f"You may sell in at most {MAX_SHOPS} shops."
        if not room(state, seat)[0]:
            return "Your last chip must go on a promotion channel: one is required."
    if kind in (PROMOTE, INVEST):
        channel = action.thing if kind == PROMOTE else tables.mabius
        if state.channel_chips[seat] >> channel & 1:
            return f"You already have a chip on {tables.channels[channel]}."
        if state.channel_chips[seat].bit_count() >= MAX_CHANNELS:
            return f"You may use at most {MAX_CHANNELS} promotion channels."
        if not room(state, seat)[1]:
            return "Your remaining chips must go on shops first: two shops are required."
    if kind in (SHOP, PROMOTE, INVEST):
        return "You have no chip left to place: say 'done'."
    if kind == DONE:
        return "Place chips on two shops and one promotion channel first."
    if kind == REMOVE:
        return (
            f"{tables.ing_names[action.thing]} is not an ingredient you may remove with "
            f"{tables.event_names[state.event_new[seat]]} (a product keeps at least one)."
        )
    return f"That is not a legal move now. {doing}"
