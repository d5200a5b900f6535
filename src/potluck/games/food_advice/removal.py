"""FoodAdvice's greedy bot at an event's removal: which card to trim from which product
(``best_removal``, asked by ``bots.GreedyBot`` with the decision's ``greedy_mind.Mind``).

The removal whose table sells best for the seat less the richest rival's takings is
found by asking again only the customers a trim can move (``_removal_score``);
``tests/test_food_advice_bot_paths.py`` holds it to every customer worked out by the
rule (``market.choose``).
"""

from __future__ import annotations

from potluck.games.food_advice.actions import FoodAction
from potluck.games.food_advice.forecast import within_budget
from potluck.games.food_advice.greedy_mind import Mind, goes_first, sold_by_any
from potluck.games.food_advice.market import (
    Offer,
    best_matches,
    count_few_bits,
    new_offer,
    pick_among,
)


def best_removal(mind: Mind, actions: list[FoodAction]) -> FoodAction:
    """The event's removal whose table sells best for ``mind``'s seat less the richest
    rival's takings (by ``rival_weight``), the first such in order."""
    game, seat, offers, money = mind.game, mind.seat, mind.offers, mind.money
    richest = max((s for s in range(len(money)) if s != seat), key=lambda s: money[s])
    interested = 1 << seat | 1 << richest  # (the sellers whose takings count)
    chosen = mind.chosen()
    bought, paid, pools = chosen.bought, chosen.paid, chosen.pools
    products = mind.info.products
    holder = {i: j for j, product in enumerate(products) for i in product[4]}
    # What this seat and the richest rival take without the removal; per product
    # the customers (bit k) whose pool holds it (by its number): a removal's table
    # differs from today's for those customers alone, and those who can reach the
    # trimmed product only now (below), so only they are asked to choose again; the
    # customers whose takings count today or whose pool holds a product of this
    # seat or the richest rival (``cares``), and those whose pool is one product.
    base_mine = base_theirs = cares = single = 0
    numbers = 0
    for o in offers:
        if o.product >= numbers:
            numbers = o.product + 1
    in_pool = [0] * numbers
    for k in range(len(bought)):
        offer = bought[k]
        if offer is not None:
            if offer.seller == seat:
                base_mine += paid[k]
            elif offer.seller == richest:
                base_theirs += paid[k]
            if interested >> offer.seller & 1:
                cares |= 1 << k
        pool = pools[k]
        if len(pool) == 1:
            single |= 1 << k
        for o in pool:
            in_pool[o.product] = in_pool[o.product] | (1 << k)
            if interested >> o.seller & 1:
                cares |= 1 << k
    # Per customer and product in their pool: their best matches without it, for
    # when that product is trimmed (``_removal_score``).
    others_of: dict[int, tuple[int, list[Offer]]] = {}
    # A removal's value depends on the product and what is left of it alone:
    # removals leaving the same price and hashtags are worked out once (keyed by
    # one number: price, hashtags and the product's place side by side).
    scores: dict[int, float] = {}
    ing_price, ing_tag, places = game.ing_price, game.ing_tag, len(offers)
    picked: FoodAction | None = None
    picked_score = 0.0
    for action in actions:
        j = holder[action.thing]
        # (the product without the first of its cards that is the removed one)
        new_price = new_tags = 0
        removed = False
        for i in products[j][4]:
            if i == action.thing and not removed:
                removed = True
            else:
                new_price += ing_price[i]
                new_tags |= 1 << ing_tag[i]
        key = (new_price << mind.tag_bits | new_tags) * places + j
        score = scores.get(key)
        if score is None:
            score = scores[key] = _removal_score(
                mind, offers[j], new_price, new_tags, richest, base_mine, base_theirs,
                in_pool, cares, single, others_of,
            )  # fmt: skip
        if picked is None or goes_first(score, action.index, picked_score, picked.index):
            picked, picked_score = action, score
    if picked is None:
        raise ValueError("best_removal() with no removal to choose")
    return picked


def _removal_score(
    mind: Mind,
    old: Offer,
    new_price: int,
    new_tags: int,
    richest: int,
    mine: int,
    theirs: int,
    in_pool: list[int],
    cares: int,
    single: int,
    others_of: dict[int, tuple[int, list[Offer]]],
) -> float:
    """What trimming ``old`` to ``new_price`` and ``new_tags`` changes in the seat's
    takings less the richest rival's (by ``rival_weight``), ``mine`` and ``theirs``
    today, over the customers who can choose otherwise (``best_removal``)."""
    game, seat, offers = mind.game, mind.seat, mind.offers
    chosen = mind.chosen()
    bought, paid = chosen.bought, chosen.paid
    bests, pools, buyers = chosen.bests, chosen.pools, chosen.buyers
    # (``_replace`` is Python code, slow from compiled code)
    new = new_offer(old.product, old.seller, old.shape, new_price, new_tags)
    alone = [new]
    interested = 1 << seat | 1 << richest
    old_pool = in_pool[old.product]
    # Only a customer for whom the old product was among the best matches within
    # budget (``old_pool``), or the new one is, can choose otherwise: the old one's
    # pool holders, and (a trimmed product has no hashtag the old one lacked and
    # costs no more) those whose budget reaches the new price but not the old;
    # every customer if a card data breaks that.
    if new_tags & ~old.tags or new_price > old.price:
        touched = within_budget(game, -1)
    else:
        touched = old_pool | (within_budget(game, new_price) & ~within_budget(game, old.price))
    # Only this seat's and the richest rival's takings count: a customer who buys
    # from neither today and finds neither's product among the products they
    # choose from changes neither. Unless the trimmed product is theirs, that
    # leaves those who ``care`` today, and those whose one pooled product is the
    # trimmed one (their runner-up pool may hold one of theirs); the loop's own
    # test below settles the rest.
    trimmed_counts = interested >> new.seller & 1 == 1
    if not trimmed_counts:
        touched &= cares | (single & old_pool)
    while touched:  # (set bits inline, as in ``Mind.promoted``)
        low = touched & -touched
        touched ^= low
        k = low.bit_length() - 1
        buyer = buyers[k]
        # They choose among the others' best matches (``rest``, ``best`` matches)
        # and the new one (``hits`` matches, -1 if beyond their budget):
        # ``market.choose`` picks among its ``best_matches`` alone, which are these
        # without the one with fewer matches.
        budget, tags = buyer.budget, buyer.tags
        best, rest = bests[k], pools[k]
        hits = count_few_bits(tags & new_tags) if new_price <= budget else -1
        if old_pool >> k & 1:
            # Their best matches without the old product (kept for the product's
            # other removals): the others in their pool, or, if it was alone
            # there, their ``best_matches`` among the others on the table.
            slot = k * len(in_pool) + old.product
            without = others_of.get(slot)
            if without is None:
                if len(rest) == 1:
                    others = [o for o in offers if o is not old]
                    without = best_matches(buyer, others)
                else:
                    without = (best, [o for o in rest if o is not old])
                others_of[slot] = without
            best, rest = without
        elif hits < best:
            continue
        before = bought[k]
        if not (
            trimmed_counts
            or (before is not None and interested >> before.seller & 1)
            or sold_by_any(rest, interested)
        ):
            continue
        if hits > best:
            best, rest = hits, alone
        elif hits == best:
            rest = [*rest, new]
        place, taken, _ = pick_among(buyer, best, rest, 0)
        if before is not None:
            if before.seller == seat:
                mine -= paid[k]
            elif before.seller == richest:
                theirs -= paid[k]
        if place >= 0:
            seller = rest[place].seller
            if seller == seat:
                mine += taken
            elif seller == richest:
                theirs += taken
    # At the default weight of 1.0 the product is exactly ``theirs``.
    return float(mine) - mind.weights.rival_weight * float(theirs)


__all__ = ["best_removal"]
