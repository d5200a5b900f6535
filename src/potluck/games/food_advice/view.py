"""What each seat may know in FoodAdvice, and re-dealing what it may not.

Public: roles, money, chips, hand sizes, the shapes dealt (face up), every
product once presented (shape, ingredients, price, hashtags, name, tagline),
the pending offer and every offer's answer, who has chosen in a sealed choice,
the votes once all are cast, the shops on the board and every chip on them and
on the promotion channels, the events played, each customer and what they did,
the played customer cards and the face of every customer card turned up, the
deck sizes and the log of finished rounds.
Private to a seat: its ingredient hand, its name before the presentation, its
vote before all have voted, the event card dealt to it and not yet played, and
the cards it holds face down. Never shown: other seats' hands, pending names,
sealed votes and event cards, the decks' contents and the RNG.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from potluck.games.food_advice.state import (
    EVENTS,
    EXCHANGE,
    KEEP,
    NAMING,
    OVER,
    PHASE_NAMES,
    RESPOND,
    ROLES,
    VOTING,
    FoodState,
)

if TYPE_CHECKING:
    from potluck.games.food_advice.rules import FoodAdvice


def ingredient_json(game: FoodAdvice, ing: int) -> dict[str, Any]:
    return {
        "ingredient": game.ing_slugs[ing],
        "name": game.ing_names[ing],
        "category": game.ing_category[ing],
        "price": game.ing_price[ing],
        "hashtag": game.hashtags[game.ing_tag[ing]],
    }


def event_json(game: FoodAdvice, card: int) -> dict[str, Any]:
    spec = game.data.events[card]
    return {
        "event": game.event_names[card],
        "kind": spec.kind,
        "value": spec.value,
        "text": spec.text,
    }


def product_json(game: FoodAdvice, state: FoodState, p: int) -> dict[str, Any]:
    ings = state.prod_ings[p]
    return {
        "product": p,
        "owner": state.prod_owner[p],
        "round": state.prod_round[p] + 1,
        "shape": game.shapes[state.prod_shape[p]],
        "name": state.prod_name[p],
        "tagline": state.prod_tagline[p],
        "ingredients": [game.ing_slugs[i] for i in ings],
        "price": sum(game.ing_price[i] for i in ings),
        "hashtags": sorted({game.hashtags[game.ing_tag[i]] for i in ings}),
    }


def shop_json(game: FoodAdvice, shop: int) -> dict[str, Any]:
    spec = game.data.shops[shop]
    return {
        "shop": game.shop_slugs[shop],
        "name": spec.name,
        "bonus": spec.bonus,
        "when": spec.when,
        "value": spec.value,
        "shapes": list(spec.shapes),
    }


def build_view(game: FoodAdvice, state: FoodState, seat: int | None) -> dict[str, Any]:
    n, phase = state.num_players, state.phase
    acting = state.acting
    players = []
    received = game.votes_received(state) if phase > VOTING else None
    for s in range(n):
        players.append(
            {
                "seat": s,
                "role": ROLES[state.roles[s]],
                "money": state.money[s],
                "chips": state.chips[s],
                "hand_size": len(state.hands[s]),
                "shape": game.shapes[state.dealt_shape[s]] if state.dealt_shape[s] >= 0 else None,
                "to_act": s in acting,
                "held_events": len(state.held[s]),
                "votes_received": None if received is None else received[s],
                "shops": [
                    game.shop_slugs[shop]
                    for k, shop in enumerate(state.board)
                    if state.shop_chips[s] >> k & 1
                ],
                "channels": [
                    game.channel_slugs[c]
                    for c in range(len(game.channels))
                    if state.channel_chips[s] >> c & 1
                ],
                "invest": state.invest[s] if state.invest[s] >= 0 else None,
                "extra_customers": state.extra[s],
            }
        )
    view: dict[str, Any] = {
        "game": game.id,
        "round": min(state.round + 1, game.rounds),
        "rounds": game.rounds,
        "phase": PHASE_NAMES[phase],
        "acting": list(acting),
        "order": list(state.order),
        "players": players,
        "products": [product_json(game, state, p) for p in range(len(state.prod_owner))],
        "offer": None
        if state.offer_from < 0
        else {
            "from": state.offer_from,
            "to": state.offer_to,
            "ingredient": ingredient_json(game, state.offer_ing),
        },
        "trades": state.trades,
        "votes": list(state.votes) if phase > VOTING else None,
        "board": [shop_json(game, shop) for shop in state.board],
        "channels": list(game.channels),
        "events": state.events_played,
        "playing": _playing(game, state),
        "sales": state.sales,
        "customers_played": [game.cust_names[c] for c in state.cust_discard],
        "customer_cards": _customer_cards(game, state),
        "decks": {
            "ingredients": len(state.ing_deck),
            "shapes": len(state.shape_deck),
            "shops": len(state.shop_deck),
            "customers": len(state.cust_deck),
            "events": len(state.event_deck),
        },
        "log": state.log,
        "tiebreak": state.tiebreak,
    }
    if seat is not None and 0 <= seat < n:
        card = state.event_new[seat]
        view["you"] = {
            "seat": seat,
            "hand": [ingredient_json(game, i) for i in sorted(state.hands[seat])],
            "name": state.pending_name[seat] or None,
            "tagline": state.pending_tagline[seat] or None,
            "vote": state.votes[seat] if state.votes[seat] >= 0 else None,
            "event": event_json(game, card) if card >= 0 else None,
            "held": [event_json(game, c) for c in state.held[seat]],
        }
    return view


def _customer_cards(game: FoodAdvice, state: FoodState) -> dict[str, dict[str, Any]]:
    """The face of every customer card turned up so far (played, on the table, or named
    by a sale or the tie-break): gender, budget, hashtags and favourite shapes."""
    index = {name: c for c, name in enumerate(game.cust_names)}
    cards = [*state.cust_discard, *state.cust_table]
    named = [sale["customer"] for sale in state.sales]
    for entry in state.log:
        named += [sale["customer"] for sale in entry["sales"]]
    if state.tiebreak:
        named += state.tiebreak["customers"]
    cards += [index[name] for name in named if name in index]
    faces = {}
    for c in sorted(set(cards)):
        spec = game.data.customers[c]
        faces[game.cust_names[c]] = {
            "gender": spec.gender,
            "category": spec.category,
            "budget": game.buyers[c].budget,
            "hashtags": list(spec.hashtags),
            "shapes": list(spec.shapes),
        }
    return faces


def _playing(game: FoodAdvice, state: FoodState) -> dict[str, Any] | None:
    """The event card being played (face up on the table) while its player chooses."""
    if state.phase != EVENTS or not state.acting:
        return None
    seat = state.acting[0]
    return {"seat": seat, **event_json(game, state.event_new[seat])}


def redeal(game: FoodAdvice, state: FoodState, seat: int, rng: random.Random) -> FoodState:
    """Re-deal what ``seat`` cannot see: the other hands with the ingredient deck, the
    other seats' unplayed and held event cards with the event deck, the other seats'
    sealed names and votes; reshuffle decks and reseed the world's generator.

    Canonical: for a given ``rng`` the result depends only on what ``seat`` knows.
    """
    other = state.clone()
    n = state.num_players
    pool = list(other.ing_deck)
    for s in range(n):
        if s != seat:
            pool += other.hands[s]
    # Every unseen pile is sorted before it is shuffled, so the draw depends only on
    # what the seat knows, never on the true order.
    pool.sort()
    rng.shuffle(pool)
    for s in range(n):
        if s != seat:
            size = len(other.hands[s])
            other.hands[s], pool = sorted(pool[:size]), pool[size:]
    # An ingredient on offer is in the offerer's hand, in the open.
    if other.offer_from >= 0 and other.offer_from != seat:
        hand = other.hands[other.offer_from]
        if other.offer_ing not in hand:
            where = next((s for s in range(n) if other.offer_ing in other.hands[s]), -1)
            swap = hand[0]
            if where >= 0:
                other.hands[where][other.hands[where].index(other.offer_ing)] = swap
            else:
                pool[pool.index(other.offer_ing)] = swap
            hand[0] = other.offer_ing
    other.ing_deck = pool
    events = list(other.event_deck)
    # The card being played is face up on the table; the others are not.
    playing = state.acting[0] if state.phase == EVENTS and state.acting else -1
    hidden = [s for s in range(n) if s not in (seat, playing)]
    for s in hidden:
        events += other.held[s]
        if other.event_new[s] >= 0:
            events.append(other.event_new[s])
    events.sort()
    rng.shuffle(events)
    for s in hidden:
        size = len(other.held[s])
        other.held[s], events = events[:size], events[size:]
        if other.event_new[s] >= 0:
            other.event_new[s] = events.pop()
    other.event_deck = events
    for deck in (other.shape_deck, other.shop_deck, other.cust_deck):
        deck.sort()
        rng.shuffle(deck)
    # Sealed choices others already made are theirs alone: a name comes from the
    # (redrawn) hand, a vote is drawn among the products it could go to.
    for s in range(n):
        if s == seat or s in state.acting:
            continue
        if state.phase == NAMING and other.pending_name[s]:
            named = game.generated_name(other, s)
            other.pending_name[s], other.pending_tagline[s] = named.name, named.tagline
        elif state.phase == VOTING and other.votes[s] >= 0:
            other.votes[s] = rng.choice([p for p in range(n) if p != s])
    # The world's own chance is drawn anew too, so its future is not the true one.
    other.rng = random.Random(rng.getrandbits(64))
    return other


def invariant_problems(game: FoodAdvice, state: FoodState) -> list[str]:
    problems = []
    ings = list(state.ing_deck)
    for hand in state.hands:
        ings += hand
    for product in state.prod_ings:
        ings += product
    if sorted(ings) != list(range(len(game.ing_names))):
        problems.append("ingredient cards are not conserved")
    shapes = state.shape_deck + state.prod_shape + [s for s in state.dealt_shape if s >= 0]
    if sorted(shapes) != list(range(len(game.shapes))):
        problems.append("product shape cards are not conserved")
    if sorted(state.shop_deck + state.board) != list(range(len(game.shop_names))):
        problems.append("shop cards are not conserved")
    customers = state.cust_deck + state.cust_discard + state.cust_table
    if sorted(customers) != list(range(len(game.cust_names))):
        problems.append("customer cards are not conserved")
    events = state.event_deck + state.event_discard + [e for e in state.event_new if e >= 0]
    for held in state.held:
        events += held
    if sorted(events) != list(range(len(game.event_names))):
        problems.append("event cards are not conserved")
    if any(m < 0 for m in state.money):
        problems.append("a player has negative money")
    if any(c < game.data.table.starting_chips for c in state.chips):
        problems.append("a player has fewer chips than at the start")
    if state.phase == KEEP and any(len(h) < game.kept for h in state.hands):
        problems.append("a player kept fewer ingredients than a product needs")
    if state.phase in (EXCHANGE, RESPOND) and any(len(h) != game.dealt for h in state.hands):
        problems.append("a hand does not hold the ingredients dealt")
    if state.phase in (NAMING,) and any(len(h) != game.kept for h in state.hands):
        problems.append("a product does not have the ingredients kept")
    if state.phase == OVER and state.acting:
        problems.append("the game is over but seats are to act")
    if state.phase == EVENTS and not state.acting:
        problems.append("events wait for nobody")
    return problems
