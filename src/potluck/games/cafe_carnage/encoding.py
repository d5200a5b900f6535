"""Café Carnage's observation vector: one seat's view as fixed-size numbers.

Per-player blocks list the observing seat first, then clockwise. Dishes are
indexed in data order (starters, mains, desserts), as ``CafeCarnage.dish_slugs``.
The last night's bill is encoded in full; earlier nights survive in the
running totals (money, points, eaten dishes, cards left).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from potluck.engine.encoding import Feature, ObservationEncoding, ObservationWriter, seats_from
from potluck.games.cafe_carnage.end import outcome
from potluck.games.cafe_carnage.state import (
    BALLOT,
    CARD_WORDS,
    NO_CARD,
    NO_DISH,
    OVER,
    PHASE_NAMES,
    STARTING_HAND,
    CafeState,
)
from potluck.games.cafe_carnage.tables import CafeTables

_BILLS = ("split", "separately")


def features(game: CafeTables, num_players: int, options: Mapping[str, Any]) -> list[Feature]:
    n, dishes = num_players, len(game.dish_slugs)
    most_money = game.budget + game.loan * game.rounds
    best_meal = sum(
        max(game.value_of[d] for d in range(dishes) if game.course_of[d] == c) for c in range(3)
    )
    most_points = best_meal * game.rounds
    # A night's bill for one player is at most every meal at the table (a caught runner
    # pays all runners' meals), and each payment short of money takes $5 loans that cost
    # 5 points each (rulebook, Settle Up), so points can fall below zero this far.
    most_paid_a_night = n * best_meal
    fewest_points = -game.rounds * (most_paid_a_night + game.loan)
    deck = max(len(d) for d in game.full_decks)
    return [
        Feature("phase", len(PHASE_NAMES), "one-hot: starter, main, dessert, ballot, over"),
        Feature("round", game.rounds, "one-hot: the night being played (1-based order)"),
        Feature("no_repeat_dishes", 1, "1 if the advanced variant is on"),
        Feature("decks", 3, "cards left in the starter, main and dessert decks", high=deck),
        Feature("money", n, "each player's dollars, me first", high=most_money),
        Feature(
            "points",
            n,
            "each player's Gourmet Points, me first (below zero after IOU loans)",
            low=fewest_points,
            high=most_points,
        ),
        Feature("iou", n, "1 if the player holds an IOU token, me first"),
        Feature("hand_size", n, "action cards in hand incl. a sealed one, me first", high=5),
        Feature("has_run_card", n, "1 while the player still has the RUN! card, me first"),
        Feature("waiting_for", n, "1 if the player has still to choose now, me first"),
        Feature("eaten", n * dishes, "per player (me first) and dish: 1 if eaten this week"),
        Feature("my_hand", 3, "my Split, Separately, RUN! cards", high=max(STARTING_HAND)),
        Feature("my_menu", dishes, "copies of each dish on my menu now", high=game.menu_size),
        Feature("my_order", dishes, "dishes I have ordered this night", high=3),
        Feature("my_card", 3, "one-hot: the card I sealed this night (split, separately, run)"),
        Feature("last_meals", n * dishes, "last night: per player (me first) and dish eaten"),
        Feature("last_runners", n, "last night: 1 if the player ran, me first"),
        Feature("last_caught", n, "last night: 1 if the runner was caught, me first"),
        Feature("last_votes", 2, "last night: Split and Separately votes", high=n),
        Feature("last_bill", 2, "last night: one-hot split / separately (zero: nobody stayed)"),
        Feature("last_my_card", 3, "last night: one-hot card I played"),
        Feature(
            "last_paid", n, "last night: dollars each player paid, me first", high=most_paid_a_night
        ),
        Feature("winners", n, "at the end: 1 for each winner, me first"),
    ]


def encode(game: CafeTables, view: Mapping[str, Any], out: ObservationWriter) -> None:
    n, me = view["num_players"], view["seat"]
    order = seats_from(me, n)
    dishes = len(game.dish_slugs)
    index = game.dish_index
    out.one_hot("phase", PHASE_NAMES.index(view["phase"]))
    out.one_hot("round", view["round"] - 1)
    out.set("no_repeat_dishes", 1.0 if view["options"].get("no_repeat_dishes") else 0.0)
    out.put("decks", [view["decks"][course] for course in ("starter", "main", "dessert")])
    players = view["players"]
    for slot, seat in enumerate(order):
        player = players[seat]
        out.set("money", player["money"], slot)
        out.set("points", player["points"], slot)
        out.set("iou", player["iou"], slot)
        out.set("hand_size", player["hand_size"], slot)
        out.set("has_run_card", player["has_run_card"], slot)
        out.set("waiting_for", player["waiting_for"], slot)
        out.many_hot("eaten", (slot * dishes + index[d] for d in player["eaten"]))
    you = view["you"]
    out.put("my_hand", [you["hand"][word] for word in CARD_WORDS])
    out.many_hot("my_menu", (index[d["dish"]] for d in you["menu"]))
    out.many_hot("my_order", (index[d["dish"]] for d in you["order"].values() if d))
    if you["card"] is not None:
        out.one_hot("my_card", CARD_WORDS.index(you["card"]))
    if view["log"]:
        last = view["log"][-1]
        for slot, seat in enumerate(order):
            meal = last["meals"][seat]
            out.many_hot("last_meals", (slot * dishes + index[d["dish"]] for d in meal["dishes"]))
            out.set("last_runners", seat in last["runners"], slot)
            out.set("last_caught", seat in last["caught"], slot)
            out.set("last_paid", last["paid"][seat], slot)
        out.put("last_votes", [last["votes"]["split"], last["votes"]["separately"]])
        if last["bill"] is not None:
            out.one_hot("last_bill", _BILLS.index(last["bill"]))
        out.one_hot("last_my_card", CARD_WORDS.index(last["your_card"]))
    for slot, seat in enumerate(order):
        if seat in view.get("winners", ()):
            out.set("winners", 1.0, slot)


def encode_state(
    game: CafeTables, state: CafeState, seat: int, encoding: ObservationEncoding
) -> list[float]:
    """The same vector as ``encode(view(state, seat))``, written straight from the state.

    The fast path for learning loops (no view is built). The conformance suite checks,
    along its playouts, that it gives exactly the view's vector, so it can show
    nothing the view hides.
    """
    n = state.num_players
    dishes = len(game.dish_slugs)
    at = encoding.starts
    v = [0.0] * encoding.size
    phase = state.phase
    v[at["phase"] + phase] = 1.0
    v[at["round"] + min(state.round + 1, game.rounds) - 1] = 1.0
    v[at["no_repeat_dishes"]] = 1.0 if state.options.get("no_repeat_dishes") else 0.0
    for course in range(3):
        v[at["decks"] + course] = len(state.decks[course])
    acting = state.acting
    hands, ballots = state.hands, state.ballots
    # Each per-seat block's start read once, not once a seat (a search encodes every
    # seat of every world it scores).
    money, points, iou, hand_size = at["money"], at["points"], at["iou"], at["hand_size"]
    has_run, waiting, eaten_at = at["has_run_card"], at["waiting_for"], at["eaten"]
    for slot in range(n):
        s = (seat + slot) % n
        v[money + slot] = state.money[s]
        v[points + slot] = state.points[s]
        v[iou + slot] = 1.0 if state.iou[s] else 0.0
        held = hands[3 * s] + hands[3 * s + 1] + hands[3 * s + 2]
        v[hand_size + slot] = held + (1 if ballots[s] != NO_CARD else 0)
        v[has_run + slot] = 0.0 if state.fled[s] else 1.0
        v[waiting + slot] = 1.0 if s in acting else 0.0
        eaten, base = state.eaten[s], eaten_at + slot * dishes
        while eaten:
            low = eaten & -eaten
            v[base + low.bit_length() - 1] = 1.0
            eaten ^= low
    for card in range(3):
        v[at["my_hand"] + card] = hands[3 * seat + card]
    if phase < BALLOT:
        for dish in state.menus[seat]:
            v[at["my_menu"] + dish] += 1.0
    for course in range(3):
        dish = state.orders[3 * seat + course]
        if dish != NO_DISH:
            v[at["my_order"] + dish] += 1.0
    if ballots[seat] != NO_CARD:
        v[at["my_card"] + ballots[seat]] = 1.0
    if state.log:
        last = state.log[-1]
        meals, runners, caught = at["last_meals"], at["last_runners"], at["last_caught"]
        paid = at["last_paid"]
        for slot in range(n):
            s = (seat + slot) % n
            for dish in last.orders[3 * s : 3 * s + 3]:
                v[meals + slot * dishes + dish] += 1.0
            v[runners + slot] = 1.0 if s in last.runners else 0.0
            v[caught + slot] = 1.0 if s in last.caught else 0.0
            v[paid + slot] = last.paid[s]
        v[at["last_votes"]] = last.split_votes
        v[at["last_votes"] + 1] = last.separately_votes
        if last.method != NO_CARD:
            v[at["last_bill"] + last.method] = 1.0
        v[at["last_my_card"] + last.ballots[seat]] = 1.0
    if phase == OVER:
        for winner in outcome(game, state).winners:
            v[at["winners"] + (winner - seat) % n] = 1.0
    return v
