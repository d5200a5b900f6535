"""FoodAdvice's greedy bot re-simulates only the customers a promotion chip or an event
removal can change (``greedy_mind.Mind.sales``, ``Mind.promotion_gain`` and
``removal.best_removal``): these tests hold each shortcut equal to every customer
choosing again by the rule (``market.choose``), in positions of real games. (The
new-product forecast has its property test in ``tests/test_rules_written_once.py``.)"""

from __future__ import annotations

import random
from typing import cast

from potluck.agents import decide, make_agent
from potluck.games.food_advice.actions import REMOVE, FoodAction
from potluck.games.food_advice.game import FoodAdvice
from potluck.games.food_advice.greedy_mind import Mind
from potluck.games.food_advice.market import Offer, choose
from potluck.games.food_advice.removal import best_removal
from potluck.games.food_advice.seat_info import SeatInfo
from potluck.games.food_advice.state import FoodState
from potluck.sim import bot_rng
from potluck.testing.suite import playout_positions

GAME = FoodAdvice()
LIMIT = GAME.data.marketing.black_friday_limit


def _everyone_chooses(
    offers: list[Offer], black_friday: int, flavor: int
) -> list[tuple[int, Offer, int]]:
    bought = []
    for c in GAME.regular_customers:
        choice = choose(GAME.buyers[c], offers, black_friday, flavor, LIMIT)
        if choice.offer is not None:
            bought.append((c, choice.offer, choice.paid))
    return bought


def test_promoted_sales_are_every_customers_choice() -> None:
    checked = changed = 0
    for seed in range(4):
        for position in playout_positions(GAME, 4, seed, every=9):
            state = cast(FoodState, position)
            seat = state.acting[0]
            mind = Mind(GAME, GAME.bot_view(state, seat), seat)
            if not mind.offers:
                continue
            plain = _everyone_chooses(mind.offers, 0, 0)
            assert list(mind.sales()) == plain
            for s in range(4):
                for black_friday, flavor in ((1 << s, 0), (0, 1 << s), (1 << s, 1 << s)):
                    expected = _everyone_chooses(mind.offers, black_friday, flavor)
                    assert list(mind.sales(black_friday, flavor)) == expected
                    for seller in range(4):
                        gain = sum(paid for _, o, paid in expected if o.seller == seller)
                        gain -= sum(paid for _, o, paid in plain if o.seller == seller)
                        assert mind.promotion_gain(seller, black_friday, flavor) == gain
                    checked += 1
                    changed += expected != plain
    assert checked > 100
    assert changed > 10


def _removal_by_every_customer(info: SeatInfo, seat: int, actions: list[FoodAction]) -> int:
    """The removal the greedy bot's rule picks (its own sales less the richest rival's,
    at the default weight), with every customer choosing again."""
    mind = Mind(GAME, info, seat)
    money = info.money
    richest = max((s for s in range(len(money)) if s != seat), key=lambda s: money[s])
    holder = {i: j for j, product in enumerate(info.products) for i in product[4]}

    def after(action: FoodAction) -> float:
        j = holder[action.thing]
        ings = list(info.products[j][4])
        ings.remove(action.thing)
        new = mind.offers[j]._replace(
            price=sum(GAME.ing_price[i] for i in ings), tags=GAME.product_tags(ings)
        )
        offers = [*mind.offers[:j], new, *mind.offers[j + 1 :]]
        mine = theirs = 0
        for _, offer, paid in _everyone_chooses(offers, 0, 0):
            if offer.seller == seat:
                mine += paid
            elif offer.seller == richest:
                theirs += paid
        return float(mine) - float(theirs)

    return max(actions, key=lambda a: (after(a), -a.index)).index


def test_event_removals_match_every_customer_choosing_again() -> None:
    bot = make_agent(GAME, "greedy")
    checked = 0
    for seed in range(12):
        state = GAME.new_game(4, seed=seed)
        rngs = [bot_rng(seed, s) for s in range(4)]
        while state.acting:
            seat = state.acting[0]
            legal = GAME.legal_actions(state, seat)
            removals = [a for a in legal if a.kind == REMOVE]
            if removals and len(removals) == len(legal):
                info = GAME.bot_view(state, seat)
                picked = best_removal(Mind(GAME, info, seat), removals)
                assert picked.index == _removal_by_every_customer(info, seat, removals)
                checked += 1
            action = cast(FoodAction, decide(bot, GAME, state, seat, rngs[seat]))
            GAME.step(state, seat, action)
    assert checked >= 5


def test_random_positions_cover_removals_too() -> None:
    # Removals in positions the greedy bots do not reach: random play, every seat's view.
    rng = random.Random(7)
    checked = 0
    for seed in range(30):
        state = GAME.new_game(4, seed=100 + seed)
        while state.acting:
            seat = state.acting[0]
            legal = GAME.legal_actions(state, seat)
            if legal and all(a.kind == REMOVE for a in legal) and len(legal) > 1:
                info = GAME.bot_view(state, seat)
                picked = best_removal(Mind(GAME, info, seat), list(legal))
                assert picked.index == _removal_by_every_customer(info, seat, list(legal))
                checked += 1
            GAME.step(state, seat, legal[int(rng.random() * len(legal))])
    assert checked >= 5
