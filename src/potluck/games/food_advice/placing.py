"""Placing products in shops and Product promotion (rulebook, chapter 4).

In seat order each player puts chips on two shops of the six on the board and on
one promotion channel (an advertising channel, Flavor Sampling, Black Friday or
Mabius, where the chip invests in another player); a spare chip adds a third shop
or a second channel (ruling FA-16). Then come the events (in the event rounds)
or the customers.
"""

from __future__ import annotations

from potluck.games.food_advice.actions import DONE, INVEST, PROMOTE, SHOP, FoodAction
from potluck.games.food_advice.events import deal_events
from potluck.games.food_advice.market import count_few_bits
from potluck.games.food_advice.selling import sell
from potluck.games.food_advice.state import FoodState, place_of
from potluck.games.food_advice.tables import MAX_CHANNELS, MAX_SHOPS, FoodTables


def placing_actions(tables: FoodTables, state: FoodState, seat: int) -> list[FoodAction]:
    """'done' once two shops and a channel hold a chip; a shop or channel with room."""
    shop_chips, channel_chips = state.shop_chips[seat], state.channel_chips[seat]
    shops, channels = count_few_bits(shop_chips), count_few_bits(channel_chips)
    shop_ok, channel_ok = room_for(shops, channels, state.chips[seat])
    legal: list[FoodAction] = []
    if shops >= 2 and channels >= 1:
        legal.append(tables.kind_actions[DONE][0])
    if shop_ok:
        shop_actions = tables.kind_actions[SHOP]
        for slot, shop in enumerate(state.board):
            if not shop_chips >> slot & 1:
                legal.append(shop_actions[shop])
    if channel_ok:
        legal.extend(tables.open_promotions[channel_chips])
        if not channel_chips >> tables.mabius & 1:
            legal.extend(tables.invest_rows[state.num_players][seat])
    return legal


def placing_allows(tables: FoodTables, state: FoodState, seat: int, action: FoodAction) -> bool:
    """Whether ``action`` is in ``placing_actions`` (without building the list)."""
    kind = action.kind
    shop_chips, channel_chips = state.shop_chips[seat], state.channel_chips[seat]
    shops, channels = count_few_bits(shop_chips), count_few_bits(channel_chips)
    if kind == DONE:
        return shops >= 2 and channels >= 1
    shop_ok, channel_ok = room_for(shops, channels, state.chips[seat])
    if kind == SHOP:
        slot = place_of(state.board, action.thing)
        return shop_ok and slot >= 0 and not shop_chips >> slot & 1
    if kind == PROMOTE:
        return channel_ok and action.thing < tables.mabius and not channel_chips >> action.thing & 1
    if kind == INVEST:
        return (
            channel_ok
            and not channel_chips >> tables.mabius & 1
            and action.seat != seat
            and action.seat < state.num_players
        )
    return False


def room(state: FoodState, seat: int) -> tuple[bool, bool]:
    """Whether ``seat`` may place a chip on one more shop, and on one more channel.

    Two shops and one channel come first; a spare chip (won by votes or an
    event) adds a third shop or a second channel (ruling FA-16).
    """
    shops = count_few_bits(state.shop_chips[seat])
    channels = count_few_bits(state.channel_chips[seat])
    return room_for(shops, channels, state.chips[seat])


def room_for(shops: int, channels: int, chips: int) -> tuple[bool, bool]:
    """``room`` for a seat with chips on ``shops`` shops and ``channels`` channels of
    its ``chips`` (the legal list counts them once for itself and for this)."""
    free = chips - shops - channels
    shop_ok = shops < 2 or (shops < MAX_SHOPS and free - (channels == 0) > 0)
    channel_ok = channels < 1 or (channels < MAX_CHANNELS and free - max(0, 2 - shops) > 0)
    return shop_ok and free > 0, channel_ok and free > 0


def place(tables: FoodTables, state: FoodState, seat: int, action: FoodAction) -> None:
    """One chip (or 'done'); a player who is done passes the turn on, and after the last
    one come the events or the customers."""
    if action.kind == SHOP:
        state.shop_chips[seat] = state.shop_chips[seat] | (1 << place_of(state.board, action.thing))
    elif action.kind == PROMOTE:
        state.channel_chips[seat] = state.channel_chips[seat] | (1 << action.thing)
    elif action.kind == INVEST:
        state.channel_chips[seat] = state.channel_chips[seat] | (1 << tables.mabius)
        state.invest[seat] = action.seat
    shops = count_few_bits(state.shop_chips[seat])
    channels = count_few_bits(state.channel_chips[seat])
    used = shops + channels
    finished = action.kind == DONE or used >= state.chips[seat]
    if not finished and shops == MAX_SHOPS and channels == MAX_CHANNELS:
        finished = True
    if not finished:
        return
    state.turn += 1
    if state.turn < state.num_players:
        state.acting = (state.order[state.turn],)
    elif state.round + 1 in tables.event_rounds:
        deal_events(tables, state)
    else:
        sell(tables, state)
