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
from typing import Any

from potluck.engine.chance import choice, shuffle
from potluck.games.food_advice.presentation import votes_received
from potluck.games.food_advice.seat_info import SeatInfo, table_products, table_received
from potluck.games.food_advice.state import (
    EVENTS,
    NAMING,
    PHASE_NAMES,
    RESPOND,
    ROLES,
    VOTING,
    FoodState,
)
from potluck.games.food_advice.tables import FoodTables


def ingredient_json(game: FoodTables, ing: int) -> dict[str, Any]:
    return dict(game.ing_faces[ing])


def event_json(game: FoodTables, card: int) -> dict[str, Any]:
    return dict(game.event_faces[card])


def product_json(game: FoodTables, state: FoodState, p: int) -> dict[str, Any]:
    ings = state.prod_ings[p]
    slugs, prices, hashtags = game.ing_slugs, game.ing_price, game.ing_hashtag
    return {
        "product": p,
        "owner": state.prod_owner[p],
        "round": state.prod_round[p] + 1,
        "shape": game.shapes[state.prod_shape[p]],
        "name": state.prod_name[p],
        "tagline": state.prod_tagline[p],
        "ingredients": [slugs[i] for i in ings],
        "price": sum([prices[i] for i in ings]),
        "hashtags": sorted({hashtags[i] for i in ings}),
    }


def _products(game: FoodTables, state: FoodState) -> list[dict[str, Any]]:
    """``product_json`` of every product, in order."""
    slugs, prices, hashtags, shapes = game.ing_slugs, game.ing_price, game.ing_hashtag, game.shapes
    return [
        {
            "product": p,
            "owner": owner,
            "round": made + 1,
            "shape": shapes[shape],
            "name": name,
            "tagline": tagline,
            "ingredients": [slugs[i] for i in ings],
            "price": sum([prices[i] for i in ings]),
            "hashtags": sorted({hashtags[i] for i in ings}),
        }
        for p, (owner, made, shape, name, tagline, ings) in enumerate(
            zip(
                state.prod_owner,
                state.prod_round,
                state.prod_shape,
                state.prod_name,
                state.prod_tagline,
                state.prod_ings,
                strict=True,
            )
        )
    ]


def shop_json(game: FoodTables, shop: int) -> dict[str, Any]:
    face = game.shop_faces[shop]
    return {**face, "shapes": list(face["shapes"])}


def _players(game: FoodTables, state: FoodState) -> list[dict[str, Any]]:
    """Each seat's public entry."""
    acting = state.acting
    received = votes_received(state) if state.phase > VOTING else None
    board_slugs = [game.shop_slugs[shop] for shop in state.board]
    shapes, channel_lists = game.shapes, game.channel_lists
    return [
        {
            "seat": s,
            "role": ROLES[state.roles[s]],
            "money": state.money[s],
            "chips": state.chips[s],
            "hand_size": len(state.hands[s]),
            "shape": shapes[state.dealt_shape[s]] if state.dealt_shape[s] >= 0 else None,
            "to_act": s in acting,
            "held_events": len(state.held[s]),
            "votes_received": None if received is None else received[s],
            "shops": [slug for k, slug in enumerate(board_slugs) if state.shop_chips[s] >> k & 1],
            "channels": list(channel_lists[state.channel_chips[s]]),
            "invest": state.invest[s] if state.invest[s] >= 0 else None,
            "extra_customers": state.extra[s],
        }
        for s in range(state.num_players)
    ]


def _offer(game: FoodTables, state: FoodState) -> dict[str, Any] | None:
    """The offer being made (its cards lie face up) or answered (so do those given back)."""
    if state.offer_from < 0:
        return None
    return {
        "from": state.offer_from,
        "to": state.offer_to,
        "sent": state.phase == RESPOND,
        "ingredients": [ingredient_json(game, i) for i in state.offer_ings],
        "given": [ingredient_json(game, i) for i in state.given_ings],
    }


def _you(game: FoodTables, state: FoodState, seat: int) -> dict[str, Any]:
    """What only ``seat`` knows: its hand, its discards' places, its sealed name and
    vote, its event cards."""
    faces = game.ing_faces
    card = state.event_new[seat]
    return {
        "seat": seat,
        "hand": [dict(faces[i]) for i in sorted(state.hands[seat])],
        # Where this seat's own discards lie in the deck (from the bottom).
        "returned": [
            {"position": k, **faces[state.ing_deck[k]]}
            for k, by in enumerate(state.ing_returned)
            if by == seat
        ],
        "name": state.pending_name[seat] or None,
        "tagline": state.pending_tagline[seat] or None,
        "vote": state.votes[seat] if state.votes[seat] >= 0 else None,
        "event": event_json(game, card) if card >= 0 else None,
        "held": [event_json(game, c) for c in state.held[seat]],
    }


def build_seat_info(game: FoodTables, state: FoodState, seat: int) -> SeatInfo:
    """What the greedy bot reads (``Game.bot_view``): the entries of ``seat``'s view that
    ``SeatInfo.from_view`` reads, taken from the state as ``build_view``'s helpers take
    them (``_players``, ``_products``, ``_offer``, ``_you``)."""
    # (the products and the votes received worked out last, while they are the state's:
    # ``table_products``, ``table_received``)
    products = table_products(game, state)
    offered = state.offer_from >= 0
    hand = state.hands[seat]
    return SeatInfo(
        seat,
        tuple(state.money),
        table_received(game, state),
        state.dealt_shape[seat],
        products,
        # (no hand from the presentation to the round's end: ``sorted`` made a list)
        tuple(sorted(hand)) if hand else (),
        state.offer_ings if offered else (),
        state.given_ings if offered else (),
        state.phase,
    )


def build_view(game: FoodTables, state: FoodState, seat: int | None) -> dict[str, Any]:
    n, phase = state.num_players, state.phase
    acting = state.acting
    faces = game.ing_faces
    view: dict[str, Any] = {
        "game": game.id,
        "round": min(state.round + 1, game.rounds),
        "rounds": game.rounds,
        "phase": PHASE_NAMES[phase],
        "acting": list(acting),
        "order": list(state.order),
        "players": _players(game, state),
        "products": _products(game, state),
        "offer": _offer(game, state),
        "trades": state.trades,
        "votes": list(state.votes) if phase > VOTING else None,
        "board": [shop_json(game, shop) for shop in state.board],
        "channels": list(game.channels),
        "events": state.events_played,
        "playing": _playing(game, state),
        "sales": state.sales,
        "customers_played": [game.cust_names[c] for c in state.cust_discard],
        "customer_cards": _customer_cards(game, state),
        # The decks' known order: who put each card at the bottom of the ingredient deck
        # (its face is known to that seat only, or to all if removed in the open), and the
        # shops returned face up, bottom first; everything above them was never seen.
        "ingredient_deck_bottom": [
            dict(faces[state.ing_deck[k]]) if by == -1 else {"returned_by": by}
            for k, by in enumerate(state.ing_returned)
        ],
        "shop_deck_bottom": [shop_json(game, shop) for shop in _seen_shops(game, state)],
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
        view["you"] = _you(game, state, seat)
    return view


def _customer_cards(game: FoodTables, state: FoodState) -> dict[str, dict[str, Any]]:
    """The face of every customer card turned up so far (played, on the table, or named
    by a sale or the tie-break): gender, budget, hashtags and favourite shapes."""
    index = game.cust_last_index
    seen = {*state.cust_discard, *state.cust_table}
    named = [sale["customer"] for sale in state.sales]
    for entry in state.log:
        named += [sale["customer"] for sale in entry["sales"]]
    if state.tiebreak:
        named += state.tiebreak["customers"]
    seen.update([index[name] for name in named if name in index])
    names, faces = game.cust_names, game.customer_faces
    return {
        names[c]: {
            **faces[c],
            "hashtags": list(faces[c]["hashtags"]),
            "shapes": list(faces[c]["shapes"]),
        }
        for c in sorted(seen)
    }


def _playing(game: FoodTables, state: FoodState) -> dict[str, Any] | None:
    """The event card being played (face up on the table) while its player chooses."""
    if state.phase != EVENTS or not state.acting:
        return None
    seat = state.acting[0]
    return {"seat": seat, **event_json(game, state.event_new[seat])}


def _unseen_shops(game: FoodTables, state: FoodState) -> int:
    """How many shop cards on top of the deck were never on the board: the deck is dealt
    from the top and played shops go to the bottom, so each board took the next unseen."""
    boards = state.round + (1 if state.board else 0)
    return max(0, len(game.shop_names) - game.board_size * boards)


def _seen_shops(game: FoodTables, state: FoodState) -> list[int]:
    """The shop deck's bottom part, face up when it was played: bottom first."""
    unseen = _unseen_shops(game, state)
    return state.shop_deck[: len(state.shop_deck) - unseen]


def redeal(game: FoodTables, state: FoodState, seat: int, rng: random.Random) -> FoodState:
    """Re-deal what ``seat`` cannot see: the other hands with the ingredient deck, the
    other seats' unplayed and held event cards with the event deck, the other seats'
    sealed names and votes; reshuffle decks and reseed the world's generator.

    Canonical: for a given ``rng`` the result depends only on what ``seat`` knows.
    """
    other = state.clone()
    n = state.num_players
    # Unseen ingredients: the other hands, the other seats' face-down discards at the
    # bottom of the deck (their positions are known, their faces not) and the cards
    # above them. This seat's own discards and the ones removed in the open stay put.
    returned = len(other.ing_returned)
    hidden_at = [k for k, by in enumerate(other.ing_returned) if by not in (-1, seat)]
    pool = [other.ing_deck[k] for k in hidden_at] + other.ing_deck[returned:]
    for s in range(n):
        if s != seat:
            pool += other.hands[s]
    # Every unseen pile is sorted before it is shuffled, so the draw depends only on
    # what the seat knows, never on the true order.
    pool.sort()
    shuffle(rng, pool)
    for s in range(n):
        if s != seat:
            size = len(other.hands[s])
            other.hands[s], pool = sorted(pool[:size]), pool[size:]
    # Ingredients on offer, and those given back, lie face up in their holders' hands.
    public = [(other.offer_from, ing) for ing in other.offer_ings]
    public += [(other.offer_to, ing) for ing in other.given_ings]
    for holder, ing in public:
        hand = other.hands[holder]
        if holder == seat or ing in hand:
            continue
        swap = next(i for i in hand if (holder, i) not in public)
        where = next((s for s in range(n) if ing in other.hands[s]), -1)
        if where >= 0:
            other.hands[where][other.hands[where].index(ing)] = swap
        else:
            pool[pool.index(ing)] = swap
        hand[hand.index(swap)] = ing
    for k in hidden_at:
        other.ing_deck[k] = pool.pop()
    other.ing_deck[returned:] = pool
    events = list(other.event_deck)
    # The card being played is face up on the table; the others are not.
    playing = state.acting[0] if state.phase == EVENTS and state.acting else -1
    hidden = [s for s in range(n) if s not in (seat, playing)]
    for s in hidden:
        events += other.held[s]
        if other.event_new[s] >= 0:
            events.append(other.event_new[s])
    events.sort()
    shuffle(rng, events)
    for s in hidden:
        size = len(other.held[s])
        other.held[s], events = events[:size], events[size:]
        if other.event_new[s] >= 0:
            other.event_new[s] = events.pop()
    other.event_deck = events
    for deck in (other.shape_deck, other.cust_deck):
        deck.sort()
        shuffle(rng, deck)
    # Only the never-seen top of the shop deck is shuffled; the played shops below it
    # went back face up, in an order everyone saw.
    seen = len(_seen_shops(game, state))
    unseen = sorted(other.shop_deck[seen:])
    shuffle(rng, unseen)
    other.shop_deck[seen:] = unseen
    # Sealed choices others already made are theirs alone: a name comes from the
    # (redrawn) hand, a vote is drawn among the products it could go to.
    for s in range(n):
        if s == seat or s in state.acting:
            continue
        if state.phase == NAMING and other.pending_name[s]:
            named = game.generated_name(other, s)
            other.pending_name[s], other.pending_tagline[s] = named.name, named.tagline
        elif state.phase == VOTING and other.votes[s] >= 0:
            other.votes[s] = choice(rng, [p for p in range(n) if p != s])
    # The world's own chance is drawn anew too, so its future is not the true one.
    other.seed_rng(rng.getrandbits(64))
    return other
