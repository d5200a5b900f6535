"""FoodAdvice's observation vector: one seat's view as fixed-size numbers.

Per-player blocks list the observing seat first, then clockwise. Every
ingredient card is unique, so one block says where each one is that the seat
can see: in its own hand or in whose product. Products sit in slots by round
and owner. Shapes, shops, customers, events, channels, hashtags and roles are
in data order. Free text (product names and taglines, the log) is left out: no
rule reads it, and naming is one action whatever the words.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from typing import Any

from potluck.engine.encoding import Feature, ObservationEncoding, ObservationWriter, seats_from
from potluck.games.food_advice.presentation import votes_received
from potluck.games.food_advice.state import EVENTS, PHASE_NAMES, RESPOND, ROLES, VOTING, FoodState
from potluck.games.food_advice.tables import FoodTables


def _seat_of(view: Mapping[str, Any]) -> int:
    return int(view["you"]["seat"])


def features(game: FoodTables, num_players: int, options: Mapping[str, Any]) -> list[Feature]:
    n = num_players
    ings, shapes, shops = len(game.ing_names), len(game.shapes), len(game.shop_names)
    events, channels, tags = len(game.event_names), len(game.channels), len(game.hashtags)
    board = game.data.table.shops_on_board
    rounds = game.rounds
    most_price = game.kept * max(game.ing_price)
    return [
        Feature("round", rounds, "one-hot: the round"),
        Feature("phase", len(PHASE_NAMES), "one-hot: " + ", ".join(PHASE_NAMES)),
        Feature("small_table", 1, "1 if the option small_table is on"),
        Feature("acting", n, "1 for each player to act now, me first"),
        Feature(
            "order",
            n,
            "each player's place in this round's turn order (0 first), me first",
            high=n - 1,
        ),
        Feature("role", n * len(ROLES), "per player (me first), one-hot role: " + ", ".join(ROLES)),
        Feature("money", n, "each player's money, me first", high=math.inf),
        Feature("chips", n, "each player's chips, me first", high=math.inf),
        Feature("hand_size", n, "ingredients in each hand, me first", high=game.dealt + 1),
        Feature("dealt_shape", n * shapes, "per player (me first), one-hot shape dealt"),
        Feature("held_events", n, "event cards each player holds face down, me first", high=events),
        Feature("votes_received", n, "votes each product got (once all voted), me first", high=n),
        Feature("shop_chips", n * board, "per player (me first) and board slot: 1 for a chip"),
        Feature("channel_chips", n * channels, "per player (me first) and channel: 1 for a chip"),
        Feature("invest", n * n, "per player (me first), one-hot: whose product it invested in"),
        Feature("extra_customers", n, "extra personal customers, me first", high=math.inf),
        Feature(
            "ingredients",
            ings * (1 + n),
            "per ingredient: 1 in my hand, or 1 in the product of player slot k (me first)",
        ),
        Feature(
            "products",
            rounds * n * (1 + shapes + tags + 1),
            "per round and owner slot: present, one-hot shape, hashtags, price",
            high=most_price,
        ),
        Feature(
            "offer",
            2 + 2 * n + 2 * ings,
            "the offer being made or answered: present, sent, one-hot from and to (me "
            "first), the ingredients offered, the ingredients given back so far",
        ),
        Feature("trades", 1, "offers answered this round", high=n * n),
        Feature(
            "votes",
            n * n,
            "per voter (me first), one-hot whose product it voted for, once all have voted",
        ),
        Feature("board", board * shops, "per board slot, one-hot shop"),
        Feature("events_played", 1, "event cards played so far", high=events),
        Feature("playing", n + events, "the event being played: one-hot player, one-hot card"),
        Feature("sales", 1, "customers who have shopped this round", high=math.inf),
        Feature("customers_played", 1, "customer cards played", high=len(game.cust_names)),
        Feature(
            "decks",
            5,
            "cards left: ingredients, shapes, shops, customers, events",
            high=max(ings, shapes, shops, len(game.cust_names), events),
        ),
        Feature("my_name_given", 1, "1 once I have named my product this round"),
        Feature("my_vote", n, "one-hot: the player I voted for, me first"),
        Feature("my_event", events, "one-hot: the event card dealt to me, not yet played"),
        Feature("my_held", events, "event cards I hold face down"),
        Feature(
            "customers_discarded",
            len(game.cust_names),
            "per customer card (data order): 1 if in the played pile (what the deck lacks)",
            high=max(Counter(game.cust_names).values()),
        ),
        Feature(
            "events_this_round",
            events,
            "per event card: played face up this round",
            high=max(Counter(game.event_names).values()),
        ),
    ]


def encode(game: FoodTables, view: Mapping[str, Any], out: ObservationWriter) -> None:
    me = _seat_of(view)
    players = view["players"]
    n = len(players)
    order = seats_from(me, n)
    slot_of = {seat: slot for slot, seat in enumerate(order)}
    shapes, tags = len(game.shapes), len(game.hashtags)
    channels = len(game.channels)
    board = game.data.table.shops_on_board
    ing_index, shape_index = game.ing_index, game.shape_index
    out.one_hot("round", view["round"] - 1)
    out.one_hot("phase", PHASE_NAMES.index(view["phase"]))
    out.set("small_table", n < game.min_players)
    for place, seat in enumerate(view["order"]):
        out.set("order", place, slot_of[seat])
    for slot, seat in enumerate(order):
        player = players[seat]
        out.set("acting", player["to_act"], slot)
        out.set("role", 1.0, slot * len(ROLES) + ROLES.index(player["role"]))
        out.set("money", player["money"], slot)
        out.set("chips", player["chips"], slot)
        out.set("hand_size", player["hand_size"], slot)
        if player["shape"] is not None:
            out.set("dealt_shape", 1.0, slot * shapes + shape_index[player["shape"]])
        out.set("held_events", player["held_events"], slot)
        if player["votes_received"] is not None:
            out.set("votes_received", player["votes_received"], slot)
        board_slugs = [shop["shop"] for shop in view["board"]]
        for slug in player["shops"]:
            out.set("shop_chips", 1.0, slot * board + board_slugs.index(slug))
        for slug in player["channels"]:
            out.set("channel_chips", 1.0, slot * channels + game.channel_index[slug])
        if player["invest"] is not None:
            out.set("invest", 1.0, slot * n + slot_of[player["invest"]])
        out.set("extra_customers", player["extra_customers"], slot)
    width = 1 + n
    you = view["you"]
    for card in you["hand"]:
        out.set("ingredients", 1.0, ing_index[card["ingredient"]] * width)
    per_product = 1 + shapes + tags + 1
    for product in view["products"]:
        owner = slot_of[product["owner"]]
        for slug in product["ingredients"]:
            out.set("ingredients", 1.0, ing_index[slug] * width + 1 + owner)
        base = ((product["round"] - 1) * n + owner) * per_product
        out.set("products", 1.0, base)
        out.set("products", 1.0, base + 1 + shape_index[product["shape"]])
        for tag in product["hashtags"]:
            out.set("products", 1.0, base + 1 + shapes + game.hashtag_index[tag])
        out.set("products", product["price"], base + per_product - 1)
    offer = view["offer"]
    if offer is not None:
        out.set("offer", 1.0)
        out.set("offer", 1.0 if offer["sent"] else 0.0, 1)
        out.set("offer", 1.0, 2 + slot_of[offer["from"]])
        out.set("offer", 1.0, 2 + n + slot_of[offer["to"]])
        for card in offer["ingredients"]:
            out.set("offer", 1.0, 2 + 2 * n + ing_index[card["ingredient"]])
        for card in offer["given"]:
            out.set("offer", 1.0, 2 + 2 * n + len(ing_index) + ing_index[card["ingredient"]])
    out.set("trades", len(view["trades"]))
    if view["votes"] is not None:
        for voter, voted in enumerate(view["votes"]):
            if voted is not None and voted >= 0:
                out.set("votes", 1.0, slot_of[voter] * n + slot_of[voted])
    for k, shop in enumerate(view["board"]):
        out.set("board", 1.0, k * len(game.shop_names) + game.shop_index[shop["shop"]])
    out.set("events_played", len(view["events"]))
    playing = view["playing"]
    if playing is not None:
        out.set("playing", 1.0, slot_of[playing["seat"]])
        out.set("playing", 1.0, n + game.event_index[playing["event"]])
    out.set("sales", len(view["sales"]))
    out.set("customers_played", len(view["customers_played"]))
    decks = view["decks"]
    out.put("decks", [decks[k] for k in ("ingredients", "shapes", "shops", "customers", "events")])
    out.set("my_name_given", you["name"] is not None)
    if you["vote"] is not None:
        out.one_hot("my_vote", slot_of[you["vote"]])
    if you["event"] is not None:
        out.one_hot("my_event", game.event_index[you["event"]["event"]])
    out.many_hot("my_held", (game.event_index[card["event"]] for card in you["held"]))
    out.many_hot("customers_discarded", (game.cust_index[c] for c in view["customers_played"]))
    out.many_hot(
        "events_this_round",
        (game.event_index[e["event"]] for e in view["events"] if e["event"] is not None),
    )


def encode_state(
    game: FoodTables, state: FoodState, seat: int, encoding: ObservationEncoding
) -> list[float]:
    """The same vector as ``encode(view(state, seat))``, written straight from the state;
    the conformance suite checks along its playouts that the two agree."""
    n, phase = state.num_players, state.phase
    at = encoding.starts
    v = [0.0] * encoding.size
    shapes, tags, shops = len(game.shapes), len(game.hashtags), len(game.shop_names)
    channels = len(game.channels)
    board = game.data.table.shops_on_board
    roles = len(ROLES)
    v[at["round"] + min(state.round + 1, game.rounds) - 1] = 1.0
    v[at["phase"] + phase] = 1.0
    v[at["small_table"]] = 1.0 if n < game.min_players else 0.0
    for place, s in enumerate(state.order):
        v[at["order"] + (s - seat) % n] = place
    received = votes_received(state) if phase > VOTING else None
    for slot in range(n):
        s = (seat + slot) % n
        v[at["acting"] + slot] = 1.0 if s in state.acting else 0.0
        v[at["role"] + slot * roles + state.roles[s]] = 1.0
        v[at["money"] + slot] = state.money[s]
        v[at["chips"] + slot] = state.chips[s]
        v[at["hand_size"] + slot] = len(state.hands[s])
        if state.dealt_shape[s] >= 0:
            v[at["dealt_shape"] + slot * shapes + state.dealt_shape[s]] = 1.0
        v[at["held_events"] + slot] = len(state.held[s])
        if received is not None:
            v[at["votes_received"] + slot] = received[s]
        for k in range(len(state.board)):
            if state.shop_chips[s] >> k & 1:
                v[at["shop_chips"] + slot * board + k] = 1.0
        for c in range(channels):
            if state.channel_chips[s] >> c & 1:
                v[at["channel_chips"] + slot * channels + c] = 1.0
        if state.invest[s] >= 0:
            v[at["invest"] + slot * n + (state.invest[s] - seat) % n] = 1.0
        v[at["extra_customers"] + slot] = state.extra[s]
    width = 1 + n
    for ing in state.hands[seat]:
        v[at["ingredients"] + ing * width] = 1.0
    per_product = 1 + shapes + tags + 1
    for p, owner in enumerate(state.prod_owner):
        slot = (owner - seat) % n
        ings = state.prod_ings[p]
        for ing in ings:
            v[at["ingredients"] + ing * width + 1 + slot] = 1.0
        base = at["products"] + (state.prod_round[p] * n + slot) * per_product
        v[base] = 1.0
        v[base + 1 + state.prod_shape[p]] = 1.0
        for tag in {game.ing_tag[ing] for ing in ings}:
            v[base + 1 + shapes + tag] = 1.0
        v[base + per_product - 1] = sum(game.ing_price[ing] for ing in ings)
    if state.offer_from >= 0:
        v[at["offer"]] = 1.0
        v[at["offer"] + 1] = 1.0 if phase == RESPOND else 0.0
        v[at["offer"] + 2 + (state.offer_from - seat) % n] = 1.0
        v[at["offer"] + 2 + n + (state.offer_to - seat) % n] = 1.0
        for ing in state.offer_ings:
            v[at["offer"] + 2 + 2 * n + ing] = 1.0
        for ing in state.given_ings:
            v[at["offer"] + 2 + 2 * n + len(game.ing_names) + ing] = 1.0
    v[at["trades"]] = len(state.trades)
    if phase > VOTING:
        for voter, voted in enumerate(state.votes):
            if voted >= 0:
                v[at["votes"] + ((voter - seat) % n) * n + (voted - seat) % n] = 1.0
    for k, shop in enumerate(state.board):
        v[at["board"] + k * shops + shop] = 1.0
    v[at["events_played"]] = len(state.events_played)
    if phase == EVENTS and state.acting:
        player = state.acting[0]
        v[at["playing"] + (player - seat) % n] = 1.0
        card = state.event_new[player]
        v[at["playing"] + n + game.event_index[game.event_names[card]]] = 1.0
    v[at["sales"]] = len(state.sales)
    v[at["customers_played"]] = len(state.cust_discard)
    decks = (state.ing_deck, state.shape_deck, state.shop_deck, state.cust_deck, state.event_deck)
    for k, deck in enumerate(decks):
        v[at["decks"] + k] = len(deck)
    v[at["my_name_given"]] = 1.0 if state.pending_name[seat] else 0.0
    if state.votes[seat] >= 0:
        v[at["my_vote"] + (state.votes[seat] - seat) % n] = 1.0
    if state.event_new[seat] >= 0:
        v[at["my_event"] + game.event_index[game.event_names[state.event_new[seat]]]] = 1.0
    for card in state.held[seat]:
        v[at["my_held"] + game.event_index[game.event_names[card]]] += 1.0
    cust_index, cust_names = game.cust_index, game.cust_names
    for c in state.cust_discard:
        v[at["customers_discarded"] + cust_index[cust_names[c]]] += 1.0
    for entry in state.events_played:
        if entry["event"] is not None:
            v[at["events_this_round"] + game.event_index[entry["event"]]] += 1.0
    return v
