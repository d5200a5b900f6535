"""Selling products (rulebook, chapter 6, and "Bonuses from shops"): six customers
one by one, each choosing by the rulebook's order (market.py); shop bonuses and
Mabius profits; then the extra personal customers of advertising and events; then
the round ends (the next one is dealt, or the winner determined).
"""

from __future__ import annotations

from typing import Final

from potluck.games.food_advice.characters import draw_customer
from potluck.games.food_advice.market import (
    Offer,
    choose,
    extra_customer_buys,
    joker_buys,
    matches,
)
from potluck.games.food_advice.presentation import offers as products_on_offer
from potluck.games.food_advice.presentation import votes_received
from potluck.games.food_advice.product import start_round
from potluck.games.food_advice.scoring import finish
from potluck.games.food_advice.state import OVER, FoodState
from potluck.games.food_advice.tables import FoodTables

#: ``schema.SHOP_TERMS``'s terms by their place there (``FoodTables.shop_term``).
_MALE: Final = 0
_FEMALE: Final = 1
_CATEGORY: Final = 2
_HASHTAG: Final = 3
_FAVOURITE_SHAPE: Final = 4
_PRICE_AT_MOST: Final = 5
_PRICE_AT_LEAST: Final = 6


def shop_term_met(tables: FoodTables, shop: int, customer: int, offer: Offer) -> bool:
    """Whether a sale meets ``shop``'s bonus term (``schema.SHOP_TERMS``)."""
    term, number = tables.shop_term[shop], tables.shop_number[shop]
    if term == _MALE:
        return tables.cust_male[customer]
    if term == _FEMALE:
        return not tables.cust_male[customer]
    if term == _CATEGORY:
        return tables.cust_category[customer] == tables.shop_value[shop]
    if term == _FAVOURITE_SHAPE:
        return bool(tables.buyers[customer].shapes >> offer.shape & 1)
    if number < 0:  # a value that is not a number (or a hashtag of the game): as written
        number = _term_value(tables, shop)
    if term == _HASHTAG:
        return bool(offer.tags >> number & 1)
    if term == _PRICE_AT_MOST:
        return offer.price <= number
    if term == _PRICE_AT_LEAST:
        return offer.price >= number
    return matches(tables.buyers[customer], offer) >= number  # matches_at_least


def _term_value(tables: FoodTables, shop: int) -> int:
    """A shop term's value read as written: the hashtag's index, or the whole number
    (``ValueError`` if it is neither)."""
    value = tables.shop_value[shop]
    if tables.shop_term[shop] == _HASHTAG:
        return tables.hashtags.index(str(value))
    return int(value)


def pay_sale(
    tables: FoodTables,
    state: FoodState,
    customer: int,
    offer: Offer,
    paid: int,
    reason: str,
    kind: str,
) -> None:
    """Pay the seller (plus shop bonuses for regular customers) and Mabius investors."""
    seller = offer.seller
    bonus = shape_bonus = 0
    shops: list[str] = []
    if kind == "regular":
        for slot, shop in enumerate(state.board):
            if not state.shop_chips[seller] >> slot & 1:
                continue
            gained = 0
            if shop_term_met(tables, shop, customer, offer):
                gained += tables.shop_bonus[shop]
                bonus += tables.shop_bonus[shop]
            if tables.shop_shapes[shop] >> offer.shape & 1:
                gained += tables.shape_match_bonus
                shape_bonus += tables.shape_match_bonus
            if gained:
                shops.append(f"{tables.shop_names[shop]} +{gained}")
    state.money[seller] = state.money[seller] + (paid + bonus + shape_bonus)
    for seat in range(state.num_players):
        if state.invest[seat] == seller:
            state.money[seat] = state.money[seat] + tables.mabius_profit
    state.sales.append(
        {
            "customer": tables.cust_names[customer],
            "kind": kind,
            "seller": seller,
            "product": offer.product,
            "paid": paid,
            "bonus": bonus + shape_bonus,
            "reason": f"{reason}; {', '.join(shops)}" if shops else reason,
        }
    )


def sell(tables: FoodTables, state: FoodState) -> None:
    """Selling products: six customers one by one, then extra personal customers."""
    state.phase, state.acting = OVER, ()  # no seat acts while customers shop
    state.sales = []
    n, everyone = state.num_players, (1 << state.num_players) - 1
    offers = products_on_offer(tables, state, everyone)
    # The seats with a Black Friday or a Flavor Sampling chip, as bit masks (plain loops:
    # a generator is a Python object even in compiled code).
    bf = fs = 0
    for s in range(n):
        chips = state.channel_chips[s]
        if chips >> tables.black_friday & 1:
            bf |= 1 << s
        if chips >> tables.flavor & 1:
            fs |= 1 << s
    limit = tables.black_friday_limit
    for _ in range(tables.per_round):
        customer = draw_customer(state)
        if customer < 0:
            break
        buyer = tables.buyers[customer]
        if tables.cust_joker[customer]:
            bought = joker_buys(buyer, offers)
            for offer in bought:
                pay_sale(tables, state, customer, offer, offer.price, "Joker", "joker")
            if not bought:
                _log_leave(tables, state, customer, "Joker found nothing to his taste", "joker")
            continue
        choice = choose(buyer, offers, bf, fs, limit)
        if choice.offer is None:
            _log_leave(tables, state, customer, choice.reason, "regular")
        else:
            pay_sale(tables, state, customer, choice.offer, choice.paid, choice.reason, "regular")
    # Advertising: each channel whose terms are met brings an extra personal customer.
    extras = list(state.extra)
    for seat in range(n):
        for c in range(tables.num_ads):
            if state.channel_chips[seat] >> c & 1 and advert_met(tables, state, seat, c, offers):
                extras[seat] = extras[seat] + 1
    for seat in state.order:
        mine = [o for o in offers if o.seller == seat]
        for _ in range(extras[seat]):
            customer = draw_customer(state)
            if customer < 0:
                break
            buyer, joker = tables.buyers[customer], tables.cust_joker[customer]
            for choice in extra_customer_buys(buyer, mine, joker):
                if choice.offer is not None:
                    pay_sale(
                        tables, state, customer, choice.offer, choice.paid, choice.reason, "extra"
                    )
    end_round(tables, state)


def _log_leave(tables: FoodTables, state: FoodState, customer: int, reason: str, kind: str) -> None:
    state.sales.append(
        {"customer": tables.cust_names[customer], "kind": kind, "seller": None, "reason": reason}
    )


def advert_met(
    tables: FoodTables, state: FoodState, seat: int, channel: int, offers: list[Offer]
) -> bool:
    """Whether ``seat`` meets advertising ``channel``'s terms this round."""
    when, value = tables.ad_when[channel], tables.ad_value[channel]
    if when in ("votes_at_least", "top_vote"):
        received = votes_received(state)
        if when == "votes_at_least":
            return received[seat] >= value
        return received[seat] == max(received)
    if when == "sales_at_least":
        count = 0
        for sale in state.sales:
            if sale["seller"] == seat and sale["kind"] != "extra":
                count += 1
        return count >= value
    # (Plain loops below, not generators or comprehensions: each of those is a Python
    # object even in compiled code, and this runs for every seat's channel every round.)
    if when == "unique_hashtag":
        others = 0
        for o in offers:
            if o.seller != seat:
                others |= o.tags
        for o in offers:
            if o.seller == seat and state.prod_round[o.product] == state.round and o.tags & ~others:
                return True
        return False
    # matches_at_least: a regular customer bought from you with that many matches
    for sale in state.sales:
        if sale["seller"] != seat or sale["kind"] == "extra":
            continue
        product = sale["product"]
        for offer in offers:
            if offer.product == product:
                customer = tables.cust_index[sale["customer"]]  # the first of that name
                if matches(tables.buyers[customer], offer) >= value:
                    return True
                break
    return False


def end_round(tables: FoodTables, state: FoodState) -> None:
    """Customers, shops and chips go back; the round goes into the log; the next round
    is dealt, or after the last the winner is determined."""
    n = state.num_players
    state.log = [
        *state.log,
        {
            "round": state.round + 1,
            "trades": state.trades,
            "votes": list(state.votes),
            "shops": [
                [tables.shop_slugs[s] for k, s in enumerate(state.board) if m >> k & 1]
                for m in state.shop_chips
            ],
            "channels": [list(tables.channel_lists[m]) for m in state.channel_chips],
            "invest": list(state.invest),
            "events": state.events_played,
            "sales": state.sales,
        },
    ]
    state.cust_discard += state.cust_table
    state.cust_table = []
    # "Taking back played shop cards and placing them at the bottom of the deck",
    # face up, in board order (the first shop lowest).
    state.shop_deck = [*state.board, *state.shop_deck]
    state.board = ()
    state.shop_chips, state.channel_chips, state.invest = [0] * n, [0] * n, [-1] * n
    state.extra = [0] * n
    state.round += 1
    if state.round >= tables.rounds:
        finish(tables, state)
    else:
        start_round(tables, state)
