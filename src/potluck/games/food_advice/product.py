"""Creating a signature product (rulebook, chapter 2): a random shape and six
ingredients each, the exchange (exchange.py), keeping three, and a name and
tagline, given all at once.
"""

from __future__ import annotations

from potluck.games.food_advice.actions import DISCARD, FoodAction
from potluck.games.food_advice.characters import deal_ingredients, draw, return_ingredient
from potluck.games.food_advice.presentation import present_and_vote
from potluck.games.food_advice.state import EXCHANGE, NAMING, FoodState, seal_choice
from potluck.games.food_advice.tables import FoodTables


def start_round(tables: FoodTables, state: FoodState) -> None:
    """Creating a signature product 1-2: a random shape and six ingredients each; the
    exchange window opens with this round's first seat."""
    n, r, rng = state.num_players, state.round, state.rng
    state.order = tuple([(r + i) % n for i in range(n)])
    state.dealt_shape = [draw(state.shape_deck, rng) for _ in range(n)]
    state.hands = [deal_ingredients(tables, state) for _ in range(n)]
    state.trades, state.sales, state.events_played = [], [], []
    state.extra, state.offered, state.votes = [0] * n, [0] * n, [-1] * n
    state.pending_name, state.pending_tagline = [""] * n, [""] * n
    state.shop_chips, state.channel_chips, state.invest = [0] * n, [0] * n, [-1] * n
    state.board, state.event_new = (), [-1] * n
    state.offer_from = state.offer_to = -1
    state.offer_ings, state.given_ings = (), ()
    state.phase, state.turn = EXCHANGE, 0
    state.acting = (state.order[0],)


def keep_actions(tables: FoodTables, state: FoodState, seat: int) -> list[FoodAction]:
    """Keeping three: discard one card at a time."""
    discards = tables.kind_actions[DISCARD]
    return [discards[i] for i in sorted(state.hands[seat])]


def discard(tables: FoodTables, state: FoodState, seat: int, ing: int) -> None:
    """A card goes face down to the bottom of the deck; once everyone kept three, the
    products are named, all at once."""
    state.hands[seat].remove(ing)
    return_ingredient(state, ing, seat)
    if len(state.hands[seat]) <= tables.kept and seal_choice(state, seat):
        state.phase, state.acting = NAMING, tuple(range(state.num_players))


def name_product(state: FoodState, seat: int, action: FoodAction) -> None:
    """A sealed name and tagline; the last one named starts the presentation."""
    state.pending_name[seat], state.pending_tagline[seat] = action.name, action.tagline
    if seal_choice(state, seat):
        present_and_vote(state)
