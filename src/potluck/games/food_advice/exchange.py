"""The ingredient exchange (rulebook, "Creating a signature product" 3; ruling FA-13).

In seat order each player may make up to two offers a round: cards added one at a
time (at most three, all to one player), sent with 'done'. The other player gives
back as many cards, one at a time, or declines; the offerer then goes on or
passes. After everyone passed, all keep three (product.py).
"""

from __future__ import annotations

from potluck.games.food_advice.actions import DECLINE, DONE, GIVE, OFFER, PASS, FoodAction
from potluck.games.food_advice.state import EXCHANGE, KEEP, RESPOND, FoodState, holds, holds_tuple
from potluck.games.food_advice.tables import MAX_OFFER_CARDS, MAX_OFFERS, FoodTables


def exchange_actions(tables: FoodTables, state: FoodState, seat: int) -> list[FoodAction]:
    """Pass, or add a card to an offer (to one player, at most three cards, at most two
    offers a round), or send the offer made so far with 'done'."""
    bundle, to = state.offer_ings, state.offer_to
    pass_, done = tables.kind_actions[PASS][0], tables.kind_actions[DONE][0]
    if len(bundle) >= MAX_OFFER_CARDS:
        return [pass_, done]
    if not bundle and state.offered[seat] >= MAX_OFFERS:
        return [pass_]
    rows = tables.offer_rows
    if bundle:
        legal = [pass_, done]
        for i in sorted(state.hands[seat]):
            if not holds_tuple(bundle, i):
                legal.append(rows[i][to])
        return legal
    offers = tables.others_offers[state.num_players][seat]
    legal = [pass_]
    for i in sorted(state.hands[seat]):
        legal.extend(offers[i])
    return legal


def answer_actions(tables: FoodTables, state: FoodState, seat: int) -> list[FoodAction]:
    """Decline, or give back one more card not given yet."""
    given, gives = state.given_ings, tables.kind_actions[GIVE]
    legal = [tables.kind_actions[DECLINE][0]]
    for i in sorted(state.hands[seat]):
        if not holds_tuple(given, i):
            legal.append(gives[i])
    return legal


def exchange_allows(state: FoodState, seat: int, action: FoodAction) -> bool:
    """Whether ``action`` is in ``exchange_actions`` (without building the list)."""
    kind, bundle = action.kind, state.offer_ings
    if kind == PASS:
        return True
    if kind == DONE:
        return bool(bundle)
    if kind != OFFER or len(bundle) >= MAX_OFFER_CARDS:
        return False
    if bundle:
        to_ok = action.seat == state.offer_to
    else:
        to_ok = state.offered[seat] < MAX_OFFERS and action.seat != seat
    return (
        to_ok
        and action.seat < state.num_players
        and holds(state.hands[seat], action.thing)
        and not holds_tuple(bundle, action.thing)
    )


def answer_allows(state: FoodState, seat: int, action: FoodAction) -> bool:
    """Whether ``action`` is in ``answer_actions``."""
    if action.kind == DECLINE:
        return True
    return (
        action.kind == GIVE
        and holds(state.hands[seat], action.thing)
        and not holds_tuple(state.given_ings, action.thing)
    )


def why_not_offer(
    tables: FoodTables, state: FoodState, seat: int, action: FoodAction
) -> str | None:
    """Why adding a card to the offer (or sending it) is not allowed now, if it is not."""
    bundle = state.offer_ings
    if action.kind == DONE:
        return None if bundle else "Add an ingredient to your offer before sending it."
    if bundle and action.seat != state.offer_to:
        return f"Your offer is to seat {state.offer_to}: finish it ('done') or 'pass'."
    if action.thing in bundle:
        return f"{tables.ing_names[action.thing]} is in your offer already."
    if len(bundle) >= MAX_OFFER_CARDS:
        return f"An offer holds at most {MAX_OFFER_CARDS} ingredients: send it with 'done'."
    if not bundle and state.offered[seat] >= MAX_OFFERS:
        return f"You have made your {MAX_OFFERS} offers this round (ruling FA-13): 'pass'."
    return None


def exchange_step(tables: FoodTables, state: FoodState, seat: int, action: FoodAction) -> None:
    """Pass, add a card, send the offer ('done'), or answer it (give or decline)."""
    kind = action.kind
    if kind == PASS:
        state.offer_from = state.offer_to = -1  # an offer not sent is withdrawn
        state.offer_ings = ()
        next_exchange(state)
    elif kind == OFFER:
        state.offer_from, state.offer_to = seat, action.seat
        # (a new tuple: ``state.SHARED``; concatenated, where compiled code builds
        # ``(*offer, card)`` through a list)
        state.offer_ings = state.offer_ings + (action.thing,)  # noqa: RUF005
    elif kind == DONE:
        state.offered[seat] = state.offered[seat] + 1
        state.given_ings = ()
        state.phase, state.acting = RESPOND, (state.offer_to,)
    else:
        answer(tables, state, seat, action)


def next_exchange(state: FoodState) -> None:
    """The next seat's turn in the exchange window; after the last, everyone keeps three."""
    state.phase = EXCHANGE
    state.turn += 1
    if state.turn < state.num_players:
        state.acting = (state.order[state.turn],)
    else:
        state.phase, state.acting = KEEP, tuple(range(state.num_players))


def answer(tables: FoodTables, state: FoodState, seat: int, action: FoodAction) -> None:
    """The other player gives ingredients back, one at a time, until they match the
    offer's count (the cards then change hands), or declines it (nothing moves)."""
    giver, bundle = state.offer_from, state.offer_ings
    if action.kind == GIVE:
        state.given_ings = state.given_ings + (action.thing,)  # noqa: RUF005 (as above)
        if len(state.given_ings) < len(bundle):
            return  # more to give
    given = state.given_ings if action.kind == GIVE else ()
    if given:  # card for card: the offer's ingredients for those given back
        for ing in bundle:
            state.hands[giver].remove(ing)
            state.hands[seat].append(ing)
        for ing in given:
            state.hands[seat].remove(ing)
            state.hands[giver].append(ing)
    entry = {
        "from": giver,
        "to": seat,
        "offered": [tables.ing_slugs[i] for i in bundle],
        "given": [tables.ing_slugs[i] for i in given] if given else None,
    }
    state.trades = [*state.trades, entry]
    state.offer_from = state.offer_to = -1
    state.offer_ings, state.given_ings = (), ()
    # The offerer's turn goes on: another offer (up to two a round), or pass.
    state.phase, state.acting = EXCHANGE, (giver,)
