"""Belly Battle's observation vector: one seat's view as fixed-size numbers.

Per-player blocks list the observing seat first, then clockwise; a seat
reference (an owner, the seller of an offer) is a one-hot over those slots, all
zero for Mr. Munchwalla's bank. Cards (restaurants, then cafes), cuisines and
board spaces are in data order. Money has no upper bound (fees can keep
coming), so cash and wealth are the only features whose range is open; the
text log is left out (everything it reports is in the numbers).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from potluck.engine.encoding import Feature, ObservationEncoding, ObservationWriter, seats_from
from potluck.games.belly_battle.munch_fees import munch_fee
from potluck.games.belly_battle.ownership import chef_supply, guard_supply, star_supply
from potluck.games.belly_battle.scoring import outcome, wealth
from potluck.games.belly_battle.state import (
    BANK,
    DEBT,
    NOBODY,
    OVER,
    PHASE_NAMES,
    RESPOND,
    ROUND_CARD_NAMES,
    BellyState,
)
from potluck.games.belly_battle.tables import DEBT_OFFERS, WINDOW_CAP, BellyTables

#: The highest multiplier on a fee: three in a row, Golden Belly, MonsterChef.
_MOST_DOUBLINGS = 8


def features(game: BellyTables, num_players: int, options: Mapping[str, Any]) -> list[Feature]:
    n, cards, spaces = num_players, game.num_cards, game.board_size
    cuisines = len(game.cuisines)
    bank = game.bank
    most_fee = (
        max(max(fees) for fees in game.fees) * _MOST_DOUBLINGS + bank.celebrity_bonus
        if game.fees
        else bank.cafe_fee
    )
    most_fee = max(most_fee, bank.cafe_fee)
    most_price = 2 * max(game.price) if game.price else 1
    return [
        Feature("round", 1, "the round number", high=options["max_rounds"] + 1),
        Feature("max_rounds", 1, "the option max_rounds", high=1000),
        Feature("turn", n, "one-hot: whose turn it is, me first"),
        Feature("phase", len(PHASE_NAMES), "one-hot: " + ", ".join(PHASE_NAMES)),
        Feature("dice", 2, "the last roll", high=6),
        Feature("cash", n, "each player's cash, me first", high=math.inf),
        Feature("wealth", n, "each player's wealth, me first", high=math.inf),
        Feature("position", n * spaces, f"per player (me first), one-hot of the {spaces} spaces"),
        Feature("tunnel_used", n, "1 if the player has used the tunnel, me first"),
        Feature("bankrupt", n, "1 if the player went bankrupt, me first"),
        Feature("owner", n * cards, "per player slot (me first) and card: 1 if the player owns it"),
        Feature("chefs", cards, "chefs on each card", high=2),
        Feature("star", cards, "1 if the card has a star"),
        Feature("insured", cards, "1 if the card is insured by a BellyGuard"),
        Feature("fee", cards, "the Munchtime fee each card charges now", high=most_fee),
        Feature("golden_belly", cards, "one-hot: the card with the Golden Belly Award"),
        Feature(
            "round_cards",
            len(ROUND_CARD_NAMES) * n,
            "per one-round card (" + ", ".join(ROUND_CARD_NAMES) + "): one-hot holder, me first",
        ),
        Feature(
            "supply",
            4,
            "chefs, stars, BellyGuards, Munchtime cards left",
            high=max(bank.chefs, bank.stars, bank.bellyguards, len(game.munch_cards)),
        ),
        Feature("window_deals", 1, "deals made in this upgrade window", high=WINDOW_CAP),
        Feature("window_offered", 1, "1 if an offer was made in this window"),
        Feature("window_waiting", n, "1 for each player still to act in the window, me first"),
        Feature(
            "offer",
            1 + 2 * n + cards,
            "an offer: present, one-hot seller and buyer (me first), one-hot card",
        ),
        Feature("offer_price", 1, "the offer's price", high=most_price),
        Feature(
            "debt",
            1 + 2 * n,
            "a debt being raised: present, one-hot payer and payee (payee zero: the bank)",
        ),
        Feature("debt_amount", 1, "the debt's amount", high=math.inf),
        Feature("debt_offers_left", 1, "offers the debtor may still make", high=DEBT_OFFERS),
        Feature(
            "munchtime",
            n * cuisines,
            "per player (me first), the cuisines of its "
            "Munchtime card when I know it (mine always)",
        ),
        Feature("winners", n, "at the end: 1 for each winner, me first"),
    ]


def encode(game: BellyTables, view: Mapping[str, Any], out: ObservationWriter) -> None:
    n, me = view["num_players"], view["seat"]
    order = seats_from(me, n)
    slot_of = {seat: slot for slot, seat in enumerate(order)}
    cards, spaces = game.num_cards, game.board_size
    cuisine = game.cuisine_index
    card_index = game.card_index
    out.set("round", view["round"])
    out.set("max_rounds", view["max_rounds"])
    out.one_hot("turn", slot_of.get(view["turn"]))
    out.one_hot("phase", PHASE_NAMES.index(view["phase"]))
    out.put("dice", view["dice"])
    for slot, seat in enumerate(order):
        player = view["players"][seat]
        out.set("cash", player["cash"], slot)
        out.set("wealth", player["wealth"], slot)
        out.set("position", 1.0, slot * spaces + player["position"])
        out.set("tunnel_used", player["tunnel_used"], slot)
        out.set("bankrupt", player["bankrupt"], slot)
        if seat in view.get("winners", ()):
            out.set("winners", 1.0, slot)
    for c, card in enumerate(view["cards"]):
        if card["owner"] is not None:
            out.set("owner", 1.0, slot_of[card["owner"]] * cards + c)
        out.set("chefs", card["chefs"], c)
        out.set("star", card["star"], c)
        out.set("insured", card["insured"], c)
        out.set("fee", card["fee"], c)
    if view["golden_belly"] is not None:
        out.one_hot("golden_belly", card_index[view["golden_belly"]])
    for k, name in enumerate(ROUND_CARD_NAMES):
        holder = view["round_cards"][name]
        if holder is not None:
            out.set("round_cards", 1.0, k * n + slot_of[holder])
    supply = view["supply"]
    out.put(
        "supply",
        [supply["chefs"], supply["stars"], supply["bellyguards"], supply["munchtime_cards"]],
    )
    window = view["window"]
    out.set("window_deals", window["deals_made"])
    out.set("window_offered", window["offered"])
    for seat in window["still_to_act"]:
        out.set("window_waiting", 1.0, slot_of[seat])
    offer = view["offer"]
    if offer is not None:
        out.set("offer", 1.0)
        out.set("offer", 1.0, 1 + slot_of[offer["seller"]])
        out.set("offer", 1.0, 1 + n + slot_of[offer["buyer"]])
        out.set("offer", 1.0, 1 + 2 * n + card_index[offer["card"]])
        out.set("offer_price", offer["price"])
    debt = view["debt"]
    if debt is not None:
        out.set("debt", 1.0)
        out.set("debt", 1.0, 1 + slot_of[debt["payer"]])
        if debt["payee"] is not None:
            out.set("debt", 1.0, 1 + n + slot_of[debt["payee"]])
        out.set("debt_amount", debt["amount"])
        out.set("debt_offers_left", debt["offers_left"])
    you = view.get("you")
    if you is not None:
        known = {me: you["munchtime"], **{int(s): pair for s, pair in you["seen"].items()}}
        width = len(game.cuisines)
        for seat, pair in known.items():
            out.many_hot("munchtime", (slot_of[seat] * width + cuisine[c] for c in pair))


def encode_state(
    game: BellyTables, state: BellyState, seat: int, encoding: ObservationEncoding
) -> list[float]:
    """The same vector as ``encode(view(state, seat))``, written straight from the state;
    the conformance suite checks along its playouts that the two agree."""
    n, cards, spaces = state.num_players, game.num_cards, game.board_size
    at = encoding.starts
    v = [0.0] * encoding.size
    phase = state.phase
    r_count = game.num_restaurants
    v[at["round"]] = state.round + (0 if phase == OVER and state.bankrupt == NOBODY else 1)
    v[at["max_rounds"]] = state.options["max_rounds"]
    if 0 <= state.turn < n:
        v[at["turn"] + (state.turn - seat) % n] = 1.0
    v[at["phase"] + phase] = 1.0
    for k, die in enumerate(state.dice[:2]):
        v[at["dice"] + k] = die
    winners = outcome(game, state).winners if phase == OVER else ()
    for slot in range(n):
        s = (seat + slot) % n
        v[at["cash"] + slot] = state.cash[s]
        v[at["wealth"] + slot] = wealth(game, state, s)
        v[at["position"] + slot * spaces + state.pos[s]] = 1.0
        v[at["tunnel_used"] + slot] = 1.0 if state.tunnel_used[s] else 0.0
        v[at["bankrupt"] + slot] = 1.0 if state.bankrupt == s else 0.0
        if s in winners:
            v[at["winners"] + slot] = 1.0
    owner = state.owner
    for c in range(cards):
        if owner[c] != BANK:
            v[at["owner"] + ((owner[c] - seat) % n) * cards + c] = 1.0
            fee = munch_fee(game, state, c, NOBODY)
        else:
            fee = game.fees[c][0] if c < r_count else game.bank.cafe_fee
        v[at["chefs"] + c] = state.chefs[c]
        v[at["star"] + c] = state.star[c]
        v[at["insured"] + c] = 1.0 if state.insured[c] else 0.0
        v[at["fee"] + c] = fee
    if state.golden >= 0:
        v[at["golden_belly"] + state.golden] = 1.0
    for k, holder in enumerate(state.holders):
        if holder != NOBODY:
            v[at["round_cards"] + k * n + (holder - seat) % n] = 1.0
    v[at["supply"]] = chef_supply(game, state)
    v[at["supply"] + 1] = star_supply(game, state)
    v[at["supply"] + 2] = guard_supply(game, state)
    v[at["supply"] + 3] = len(state.deck)
    v[at["window_deals"]] = state.window_actions
    v[at["window_offered"]] = 1.0 if state.window_offered else 0.0
    for s in state.window_waiting:
        v[at["window_waiting"] + (s - seat) % n] = 1.0
    if phase == RESPOND:
        seller, card, buyer, price = state.offer
        v[at["offer"]] = 1.0
        v[at["offer"] + 1 + (seller - seat) % n] = 1.0
        v[at["offer"] + 1 + n + (buyer - seat) % n] = 1.0
        v[at["offer"] + 1 + 2 * n + card] = 1.0
        v[at["offer_price"]] = price
    if state.queue and (phase == DEBT or (state.resume == DEBT and phase == RESPOND)):
        payer, payee, amount = state.queue[0], state.queue[1], state.queue[2]
        v[at["debt"]] = 1.0
        v[at["debt"] + 1 + (payer - seat) % n] = 1.0
        if payee != BANK:
            v[at["debt"] + 1 + n + (payee - seat) % n] = 1.0
        v[at["debt_amount"]] = amount
        v[at["debt_offers_left"]] = state.debt_offers
    width = len(game.cuisines)
    for s in range(n):
        if s == seat or state.knows[seat] >> s & 1:
            for cuisine in game.munch_cards[state.munch[s]]:
                v[at["munchtime"] + ((s - seat) % n) * width + cuisine] += 1.0
    return v
