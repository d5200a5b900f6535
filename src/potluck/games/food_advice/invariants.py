"""What every FoodAdvice state keeps true: the shapes of its lists, every card in
exactly one place, money never below zero. ``FoodAdvice.invariants`` returns these
problems, and ``from_json`` refuses a save that has any.
"""

from __future__ import annotations

from potluck.games.food_advice.state import (
    EVENTS,
    EXCHANGE,
    KEEP,
    NAMING,
    OVER,
    PHASE_NAMES,
    RESPOND,
    ROLES,
    FoodState,
)
from potluck.games.food_advice.tables import FoodTables

_PER_SEAT = (
    "roles", "money", "chips", "dealt_shape", "votes", "shop_chips", "channel_chips",
    "invest", "event_new", "extra", "order", "offered", "hands", "held", "pending_name",
    "pending_tagline",
)  # fmt: skip
_PER_PRODUCT = ("prod_owner", "prod_shape", "prod_round", "prod_ings", "prod_name")


def _shape_problems(game: FoodTables, state: FoodState) -> list[str]:
    """Every list the right length and every number in range: what a hand-edited save can
    break before the rules' own checks can even be read."""
    n = state.num_players
    seats = range(n)
    problems = [
        f"{name} has {len(getattr(state, name))} entries, not one per seat ({n})"
        for name in _PER_SEAT
        if len(getattr(state, name)) != n
    ]
    products = len(state.prod_owner)
    problems += [
        f"{name} has {len(getattr(state, name))} entries, not one per product ({products})"
        for name in (*_PER_PRODUCT, "prod_tagline")
        if len(getattr(state, name)) != products
    ]
    if problems:
        return problems

    def check(ok: bool, problem: str) -> None:
        if not ok:
            problems.append(problem)

    check(0 <= state.phase < len(PHASE_NAMES), f"phase {state.phase} is unknown")
    check(0 <= state.round <= game.rounds, f"round {state.round} is not 0 to {game.rounds}")
    check(0 <= state.turn <= n, f"turn {state.turn} is not 0 to {n}")
    check(sorted(state.order) == list(seats), f"the seat order {state.order} is not the seats")
    check(len(set(state.roles)) == n and all(0 <= r < len(ROLES) for r in state.roles),
          "the roles are not distinct roles")  # fmt: skip
    check(
        all(-1 <= v < n for v in state.votes + state.invest), "a vote or Mabius chip names no seat"
    )
    check(all(o in seats for o in state.prod_owner), "a product's owner is no seat")
    check(all(0 <= o <= game.rounds for o in state.offered), "an impossible count of offers")
    check(all(e >= 0 for e in state.extra + state.shop_chips + state.channel_chips),
          "a negative count of customers or chips")  # fmt: skip
    if state.offer_from >= 0:
        check(state.offer_from in seats and state.offer_to in seats, "the offer names no seat")
        check(0 < len(state.offer_ings) <= 3, f"an offer of {len(state.offer_ings)} cards")
        check(len(state.given_ings) < max(1, len(state.offer_ings)), "more given than offered")
        if not problems:
            check(all(i in state.hands[state.offer_from] for i in state.offer_ings),
                  "an offered card is not in the offerer's hand")  # fmt: skip
            check(all(i in state.hands[state.offer_to] for i in state.given_ings),
                  "a card given back is not in the giver's hand")  # fmt: skip
    else:
        check(not state.offer_ings and not state.given_ings, "cards on offer with no offer")
    check(state.phase != RESPOND or state.offer_from >= 0, "an answer is awaited to no offer")
    check(all(s in seats for s in state.acting), f"seat(s) {list(state.acting)} cannot act")
    check(all(isinstance(x, dict) for x in [*state.log, *state.trades, *state.sales]),
          "the logs hold something other than entries")  # fmt: skip
    return problems


def invariant_problems(game: FoodTables, state: FoodState) -> list[str]:
    problems = _shape_problems(game, state)
    if problems:
        return problems
    ings = list(state.ing_deck)
    for hand in state.hands:
        ings += hand
    for product in state.prod_ings:
        ings += product
    if sorted(ings) != list(range(len(game.ing_names))):
        problems.append("ingredient cards are not conserved")
    shapes = [*state.shape_deck, *state.prod_shape] + [s for s in state.dealt_shape if s >= 0]
    if sorted(shapes) != list(range(len(game.shapes))):
        problems.append("product shape cards are not conserved")
    if len(state.ing_returned) > len(state.ing_deck) or any(
        not -1 <= by < state.num_players for by in state.ing_returned
    ):
        problems.append("the ingredient deck's returned cards do not fit the deck")
    if sorted([*state.shop_deck, *state.board]) != list(range(len(game.shop_names))):
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
