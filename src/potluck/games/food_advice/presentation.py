"""Product presentation (rulebook, chapter 3): the Journalist lists every product,
everyone votes for one (not their own, ruling FA-8), 5 F per vote, and the most
voted take one more chip. Then the Retailer lays out the shops for chapter 4.

The products on the table (every product made so far, ruling FA-11) are offered
to customers as ``market.Offer``s: ``offers``.
"""

from __future__ import annotations

from potluck.games.food_advice.actions import VOTE, FoodAction
from potluck.games.food_advice.market import Offer, new_offer
from potluck.games.food_advice.state import PLACING, VOTING, FoodState, seal_choice
from potluck.games.food_advice.tables import FoodTables


def present_and_vote(state: FoodState) -> None:
    """Everyone named: the products join the table, and everyone votes."""
    n = state.num_players
    # New tuples: clones share them (``state.SHARED``).
    state.prod_owner = state.prod_owner + tuple(range(n))
    state.prod_shape = state.prod_shape + tuple(state.dealt_shape)
    state.prod_round = state.prod_round + (state.round,) * n
    state.prod_name = state.prod_name + tuple(state.pending_name)
    state.prod_tagline = state.prod_tagline + tuple(state.pending_tagline)
    state.prod_ings = state.prod_ings + tuple([tuple(hand) for hand in state.hands])
    state.hands = [[] for _ in range(state.num_players)]
    state.dealt_shape = [-1] * state.num_players
    state.phase, state.acting = VOTING, tuple(range(state.num_players))


def vote_actions(tables: FoodTables, state: FoodState, seat: int) -> list[FoodAction]:
    votes = tables.kind_actions[VOTE]
    return [votes[s] for s in tables.other_seats[state.num_players][seat]]


def vote(tables: FoodTables, state: FoodState, seat: int, target: int) -> None:
    """A sealed vote; the last one cast is counted."""
    state.votes[seat] = target
    if seal_choice(state, seat):
        tally_votes(tables, state)


def votes_received(state: FoodState) -> list[int]:
    """Per seat: the votes its product received this round."""
    received = [0] * state.num_players
    for target in state.votes:
        if target >= 0:
            received[target] = received[target] + 1
    return received


def tally_votes(tables: FoodTables, state: FoodState) -> None:
    """5 F per vote received; every player with the most votes takes one more chip (FA-8)."""
    received = votes_received(state)
    top = max(received)
    for seat, got in enumerate(received):
        state.money[seat] = state.money[seat] + (tables.vote_reward * got)
        if got == top:
            state.chips[seat] = state.chips[seat] + 1
    # Placing products in shops 1: six shops face up.
    # From the top of the shop deck; last round's shops went to its bottom.
    deck = state.shop_deck
    state.board = tuple([deck.pop() for _ in range(min(tables.board_size, len(deck)))])
    state.phase, state.turn = PLACING, 0
    state.acting = (state.order[0],)


def offers(tables: FoodTables, state: FoodState, seats: int = -1) -> list[Offer]:
    """Every product on offer (all products made so far, ruling FA-11) as ``Offer``s;
    ``seats`` is a bit mask to keep only some sellers' products."""
    prices, tag_of = tables.ing_price, tables.ing_tag
    # The offers made last time are used again where their product is as it was: an
    # ``Offer`` made from compiled code was about 1,400 instructions, and most products
    # stay as they are from one selling to the next (issue 36). Each is checked against
    # its product here, whoever changed it since (``tests/test_food_advice_rule_memos.py``).
    kept = state.offer_memo
    found = []
    for p, ings in enumerate(state.prod_ings):
        seller = state.prod_owner[p]
        if seats >> seller & 1:
            price = tags = 0
            for i in ings:
                price += prices[i]
                tags |= 1 << tag_of[i]
            shape = state.prod_shape[p]
            if p < len(kept):
                old = kept[p]
                if (
                    old.price == price
                    and old.tags == tags
                    and old.seller == seller
                    and old.shape == shape
                ):
                    found.append(old)
                    continue
                offer = new_offer(p, seller, shape, price, tags)
                kept[p] = offer
            else:
                offer = new_offer(p, seller, shape, price, tags)
                if p == len(kept):
                    kept.append(offer)
            found.append(offer)
    return found
