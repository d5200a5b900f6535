"""Playing events (rulebook, "Events"; ruling FA-10): in the event rounds the
Journalist deals one card to each player, played in seat order; a card that needs
a choice (a rival to rob, an ingredient to remove) waits for it. A shield card is
kept face down and cancels the next attack on its holder.
"""

from __future__ import annotations

from typing import Any, Final

from potluck.games.food_advice.actions import REMOVE, TARGET, FoodAction
from potluck.games.food_advice.characters import draw, return_ingredient
from potluck.games.food_advice.selling import sell
from potluck.games.food_advice.state import EVENTS, FoodState
from potluck.games.food_advice.tables import FoodTables

#: Event kinds whose player chooses a target (a seat, or an ingredient of a product).
CHOICE_EVENTS: Final[tuple[str, ...]] = ("steal", "remove_other", "remove_own")


def event_choices(tables: FoodTables, state: FoodState, seat: int) -> list[FoodAction]:
    """The targets ``seat``'s event card may choose: a rival, or an ingredient of a
    product (a rival's or its own, as the card says) that has more than one."""
    card = state.event_new[seat]
    kind = tables.event_kind[card]
    if kind == "steal":
        return [tables.act(TARGET, s) for s in range(state.num_players) if s != seat]
    mine = kind == "remove_own"
    return [
        tables.act(REMOVE, i)
        for p, ings in enumerate(state.prod_ings)
        if (state.prod_owner[p] == seat) == mine and len(ings) > 1
        for i in sorted(ings)
    ]


def event_allows(tables: FoodTables, state: FoodState, seat: int, action: FoodAction) -> bool:
    """Whether ``action`` is in ``event_choices`` (without building the list)."""
    kind = tables.event_kind[state.event_new[seat]]
    if kind == "steal":
        return action.kind == TARGET and action.seat != seat and action.seat < state.num_players
    if action.kind != REMOVE:
        return False
    mine = kind == "remove_own"
    return any(
        (state.prod_owner[p] == seat) == mine and len(ings) > 1 and action.thing in ings
        for p, ings in enumerate(state.prod_ings)
    )


def deal_events(tables: FoodTables, state: FoodState) -> None:
    """The Journalist deals one card to each player (ruling FA-10)."""
    for seat in range(state.num_players):
        if not state.event_deck:
            state.event_deck, state.event_discard = state.event_discard, []
        if state.event_deck:
            state.event_new[seat] = draw(state.event_deck, state.rng)
    state.phase, state.turn = EVENTS, -1
    next_event(tables, state)


def next_event(tables: FoodTables, state: FoodState) -> None:
    """Play the cards in seat order; a card that needs a choice waits for it."""
    n = state.num_players
    while True:
        state.turn += 1
        if state.turn >= n:
            sell(tables, state)
            return
        seat = state.order[state.turn]
        card = state.event_new[seat]
        if card < 0:
            continue
        kind = tables.event_kind[card]
        if kind in CHOICE_EVENTS and event_choices(tables, state, seat):
            state.acting = (seat,)
            return
        play_event(tables, state, seat, card, -1, -1)


def _log_event(state: FoodState, entry: dict[str, Any]) -> None:
    state.events_played = [*state.events_played, entry]


def shielded(tables: FoodTables, state: FoodState, victim: int) -> int:
    """Use the victim's held shield card, if any; the card used, or -1."""
    for card in state.held[victim]:
        if tables.event_kind[card] == "shield":
            state.held[victim].remove(card)
            state.event_discard.append(card)
            return card
    return -1


def play_event(
    tables: FoodTables, state: FoodState, seat: int, card: int, target: int, ing: int
) -> None:
    """Resolve one event card as it says (``target``/``ing``: the choice, if any)."""
    kind, value, n = tables.event_kind[card], tables.event_value[card], state.num_players
    state.event_new[seat] = -1
    entry: dict[str, Any] = {"seat": seat, "event": tables.event_names[card], "effect": ""}
    if kind == "shield":
        state.held[seat].append(card)
        entry = {"seat": seat, "event": None, "effect": "kept a card face down"}
        _log_event(state, entry)
        return
    state.event_discard.append(card)
    if kind in CHOICE_EVENTS and target < 0 and ing < 0:
        entry["effect"] = "no product to take an ingredient from: no effect"
        _log_event(state, entry)
        return
    if kind in ("steal", "remove_other"):
        victim = target if kind == "steal" else state.prod_owner[product_of(state, ing)]
        shield = shielded(tables, state, victim)
        if shield >= 0:
            entry["effect"] = f"cancelled by seat {victim}'s {tables.event_names[shield]}"
            _log_event(state, entry)
            return
    if kind == "steal":
        taken = min(value, state.money[target])
        state.money[target] = state.money[target] - taken
        state.money[seat] = state.money[seat] + taken
        entry["effect"] = f"took {taken} F from seat {target}"
    elif kind in ("remove_other", "remove_own"):
        product = product_of(state, ing)
        # A new tuple of products with the product's new tuple (``state.SHARED``),
        # concatenated (compiled code builds ``(*a, b, *c)`` through a list).
        products = state.prod_ings
        trimmed = tuple([i for i in products[product] if i != ing])
        state.prod_ings = products[:product] + (trimmed,) + products[product + 1 :]  # noqa: RUF005
        return_ingredient(state, ing, -1)  # everyone saw it removed
        entry["effect"] = (
            f"removed {tables.ing_names[ing]} from {state.prod_name[product]} "
            f"(seat {state.prod_owner[product]})"
        )
    elif kind == "gain":
        state.money[seat] = state.money[seat] + value
        entry["effect"] = f"received {value} F"
    elif kind == "lose":
        paid = min(value, state.money[seat])
        state.money[seat] = state.money[seat] - paid
        entry["effect"] = f"paid {paid} F"
    elif kind == "tribute":
        total = 0
        for other in range(n):
            if other != seat:
                paid = min(value, state.money[other])
                state.money[other] = state.money[other] - paid
                total += paid
        state.money[seat] = state.money[seat] + total
        entry["effect"] = f"received {total} F from the others"
    elif kind == "extra_customer":
        state.extra[seat] = state.extra[seat] + value
        customers = "customer" if value == 1 else "customers"
        entry["effect"] = f"{value} extra personal {customers} at the end of the round"
    elif kind == "chip":
        state.chips[seat] = state.chips[seat] + value
        entry["effect"] = f"{value} more {'chip' if value == 1 else 'chips'} from the next round on"
    else:
        entry["effect"] = "nothing happens"
    _log_event(state, entry)


def product_of(state: FoodState, ing: int) -> int:
    """The product holding ingredient card ``ing``."""
    return next(p for p, ings in enumerate(state.prod_ings) if ing in ings)


def resolve_choice(tables: FoodTables, state: FoodState, seat: int, action: FoodAction) -> None:
    """The choice for the waiting card is made: play it, and go on with the next."""
    card = state.event_new[seat]
    if action.kind == TARGET:
        play_event(tables, state, seat, card, action.seat, -1)
    else:
        play_event(tables, state, seat, card, -1, action.thing)
    next_event(tables, state)
