"""What FoodAdvice's greedy bot works out at one decision (``Mind``, made by
``bots.GreedyBot`` from the seat's ``SeatInfo``) and its hand-set weights, in foodcoins.

    >>> Weights().min_chip_value == MIN_CHIP
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any, Final, NamedTuple

from potluck.games.food_advice.actions import (
    DONE,
    GIVE,
    INVEST,
    SHOP,
    TARGET,
    FoodAction,
)
from potluck.games.food_advice.forecast import Baseline, TableChoices, within_budget
from potluck.games.food_advice.market import (
    Offer,
    count_few_bits,
    matches,
    pick_among,
)
from potluck.games.food_advice.seat_info import SeatInfo
from potluck.games.food_advice.selling import shop_term_met
from potluck.games.food_advice.shared_tables import Sales, SharedTable, sales_key, shared_table
from potluck.games.food_advice.state import holds_tuple
from potluck.games.food_advice.tables import MAX_SEATS, FoodTables

#: What an extra personal customer is worth, roughly (an average sale).
EXTRA_CUSTOMER = 25.0
#: What a chip on any shop is worth beyond its bonuses (some shop beats none).
SHOP_BASE = 0.5
#: The least a chip must be worth for the bot to place it rather than stop.
MIN_CHIP = 1.0
#: What a foodcoin the richest rival loses to an event is worth against one it gains.
RIVAL_WEIGHT = 1.0
#: What each foodcoin of a kept product's price is worth beside its expected sales (0:
#: the sales alone, the default bot).
PRICE_WEIGHT = 0.0
#: A chip value not yet worked out (``Mind.place``; a chip's value is a finite number).
_UNKNOWN: Final = float("-inf")


class Weights(NamedTuple):
    """The greedy bot's weights, in foodcoins (``GreedyBot.params`` says what each means)."""

    extra_customer_value: float = EXTRA_CUSTOMER
    shop_base_value: float = SHOP_BASE
    min_chip_value: float = MIN_CHIP
    rival_weight: float = RIVAL_WEIGHT
    price_weight: float = PRICE_WEIGHT


DEFAULT_WEIGHTS = Weights()


def kept_dict(memo: dict[tuple[Any, ...], Any], key: tuple[Any, ...]) -> dict[Any, Any]:
    """``memo.setdefault(key, {})`` without making an empty dict when ``key`` is kept
    already (most decisions): fewer objects for the garbage collector to visit."""
    known: dict[Any, Any] | None = memo.get(key)
    if known is None:
        known = memo[key] = {}
    return known


def goes_first(score: float, index: int, best_score: float, best_index: int) -> bool:
    """Whether an action (``score``, ``index``) beats the best so far: the highest score,
    the lowest index among equals (``max`` by (score, -index)); the chip, the removal and
    the kept-cards choices share it."""
    return score > best_score or (score == best_score and index < best_index)


def sold_by_any(offers: list[Offer], sellers: int) -> bool:
    """Whether a seller of ``offers`` is in ``sellers`` (a bit mask of seats)."""
    # (a plain loop: ``any`` of a generator is a Python object even in compiled code)
    for o in offers:  # noqa: SIM110
        if sellers >> o.seller & 1:
            return True
    return False


def holds_all(whole: tuple[int, ...], part: tuple[int, ...]) -> bool:
    """Whether every card of ``part`` is in ``whole`` (a few cards each): plain loops
    over numbers, where sets made for ``issubset`` cost more than the test itself in
    compiled code (a set and a method call through Python at each discard)."""
    for card in part:  # noqa: SIM110
        if not holds_tuple(whole, card):
            return False
    return True


def combination_products(
    game: FoodTables, cards: list[int], kept: int
) -> tuple[list[int], list[int]]:
    """The price and hashtag mask of the product made of each choice of ``kept`` of
    ``cards``, in ``combinations`` order (``best_keep``'s choices): each card's price
    and hashtag read once, three cards (the game's keep) by nested loops over their
    places, without a tuple per choice (``tests/test_food_advice_pruned_choices.py``
    holds it to ``combinations``)."""
    ing_price, ing_tag = game.ing_price, game.ing_tag
    card_prices = [ing_price[c] for c in cards]
    card_tags = [1 << ing_tag[c] for c in cards]
    prices: list[int] = []
    tag_masks: list[int] = []
    n = len(cards)
    if kept == 3:
        for a in range(n - 2):
            price_a, tags_a = card_prices[a], card_tags[a]
            for b in range(a + 1, n - 1):
                price_b, tags_b = price_a + card_prices[b], tags_a | card_tags[b]
                for c in range(b + 1, n):
                    prices.append(price_b + card_prices[c])
                    tag_masks.append(tags_b | card_tags[c])
        return prices, tag_masks
    for combo in combinations(range(n), kept):
        price = tags = 0
        for place in combo:
            price += card_prices[place]
            tags |= card_tags[place]
        prices.append(price)
        tag_masks.append(tags)
    return prices, tag_masks


# ``combination_places``' lists, by hand size and cards kept (``n * 64 + kept``).
_PLACES: dict[int, list[tuple[int, ...]]] = {}


def combination_places(n: int, kept: int) -> list[tuple[int, ...]]:
    """``list(combinations(range(n), kept))``: the places in a hand of ``n`` cards of
    each choice of ``kept``, in ``combinations`` order; made once for each size."""
    key = n * 64 + kept
    places = _PLACES.get(key)
    if places is None:
        places = list(combinations(range(n), kept))
        _PLACES[key] = places
    return places


def choice_product(game: FoodTables, cards: list[int], places: tuple[int, ...]) -> tuple[int, int]:
    """The price and hashtag mask of the product made of the ``cards`` at ``places``
    (a choice ``combination_products`` lists)."""
    ing_price, ing_tag = game.ing_price, game.ing_tag
    price = tags = 0
    for place in places:
        card = cards[place]
        price += ing_price[card]
        tags |= 1 << ing_tag[card]
    return price, tags


def chosen_cards(cards: list[int], places: tuple[int, ...]) -> tuple[int, ...]:
    """The ``cards`` at ``places``."""
    return tuple([cards[place] for place in places])


def kept_before(
    memo: dict[tuple[Any, ...], Any], info: SeatInfo, seat: int
) -> tuple[int, ...] | None:
    """The cards ``seat`` keeps of ``info``'s hand as its last keep on ``memo`` chose
    them (``Mind.discard``), or ``None``: the cards to keep of a hand that is part of
    the hand of this seat's last keep (same products on the table, same shape) and
    still holds the cards it chose to keep are those cards again. They were the first
    best of a larger set of choices, in an order that the smaller hand's choices
    follow, so a round's second and third discards ask no product value again (and
    ``bots.GreedyBot.choose_early`` answers them before a ``Mind`` is made)."""
    last: tuple[Any, ...] | None = memo.get(("keep", seat))
    if last is None:
        return None
    products, shape, before, keep = last
    hand = info.hand
    if (
        shape == info.shape
        and (products is info.products or products == info.products)
        and holds_all(before, hand)
        and holds_all(hand, keep)
    ):
        kept: tuple[int, ...] = keep
        return kept
    return None


class Mind:
    """What the bot works out from one decision's ``SeatInfo``."""

    def __init__(
        self,
        game: FoodTables,
        info: SeatInfo,
        seat: int,
        memo: dict[tuple[Any, ...], Any] | None = None,
        weights: Weights = DEFAULT_WEIGHTS,
    ) -> None:
        self.game, self.info, self.seat = game, info, seat
        self.weights = weights
        self.memo: dict[tuple[Any, ...], Any] = {} if memo is None else memo
        self.money: tuple[int, ...] = info.money
        self.customers = game.regular_customers
        # The table's offers, what the customers do with them, and a number standing
        # for the table in the memo's keys, by the products as the SeatInfo lists them
        # (number, owner, shape, price and ingredients): the same for every decision
        # until a product joins or an event trims one, and for every seat, so kept on
        # the game for all its bots (``shared_tables.TableMemo``). A key holding the offers
        # themselves hashed every offer at each look-up (a tuple keeps no hash).
        self.table: SharedTable = shared_table(game, info.products)
        self.offers, self.table_id = self.table.offers, self.table.serial
        self.shape = info.shape
        # product_value by (price, hashtags), for this seat, shape and table (looked up
        # in the memo at the decision's first product value: most decisions ask none)
        self._values: dict[int, float] | None = None
        # (a product's price and hashtags as one key: the hashtags below these bits)
        self.tag_bits = len(game.hashtags)
        # This seat's sales without chips (``own_sales``), once a decision.
        self._own: list[tuple[int, Offer, int]] | None = None

    # ------------------------------------------------------------------ products

    def sales(self, black_friday: int = 0, flavor: int = 0) -> Sales:
        """(customer, offer, paid) for every regular customer who would buy something
        from the table, with these promotion chips (bit masks of seats), kept with the
        table for every seat's bot.

        Kept as tuples, which Python's cyclic garbage collector stops visiting once it
        finds they hold numbers and such tuples only (lists it visits at every
        collection, and the memo keeps hundreds)."""
        kept = self.table.sales
        key = sales_key(black_friday, flavor)
        known = kept.get(key)
        if known is not None:
            return known
        chosen = self.chosen()
        bought, paid = chosen.bought, chosen.paid
        if black_friday or flavor:
            bought, paid = list(bought), list(paid)
            moved, tops, pools = self.promoted(black_friday, flavor)
            buyers = chosen.buyers
            for m in range(len(moved)):
                k, pool = moved[m], pools[m]
                place, paid[k], _ = pick_among(buyers[k], tops[m], pool, flavor)
                bought[k] = pool[place] if place >= 0 else None
        customers = self.customers
        sold: list[tuple[int, Offer, int]] = []
        for k in range(len(bought)):
            offer = bought[k]
            if offer is not None:
                sold.append((customers[k], offer, paid[k]))
        known = kept[key] = tuple(sold)
        return known

    def promoted(
        self, black_friday: int, flavor: int
    ) -> tuple[list[int], list[int], list[list[Offer]]]:
        """Each regular customer (``k``: their place in the deck's order) whose choice
        promotion chips can change, with the most matches and the products they choose
        among with these chips (three lists, one entry per customer): each chooses by
        ``market.choose_among`` (``pick_among``) among these, which is their choice by
        the rule (``market.choose``); the others choose as without chips (``chosen``).

        Only some customers can choose otherwise: those Black Friday brings a product
        within reach of, and those who could not choose (Flavor Sampling decides only
        what would otherwise be a tie, ``market.choose`` step 4). Each chooses among
        their ``best_matches`` within budget (``chosen().pools``) and the products Black
        Friday brings within reach: ``market.choose`` picks among the reachable products
        with the most matches alone, whatever their order, so among these as among the
        whole table."""
        chosen = self.chosen()
        pools, buyers, bests = chosen.pools, chosen.buyers, chosen.bests
        game = self.game
        limit = game.black_friday_limit
        discounted: list[Offer] = []  # Black Friday sellers' products
        # The customers (bit k) a discounted product is over budget for by at most the
        # limit (budget < price <= budget + limit), and, with Flavor Sampling, those
        # who could not choose: no other customer can choose otherwise, so the others
        # are not visited at all.
        sampled = chosen.undecided if flavor else 0
        movable = sampled
        for o in self.offers:
            if black_friday >> o.seller & 1:
                discounted.append(o)
                movable |= within_budget(game, o.price - limit) & ~within_budget(game, o.price)
        moved: list[int] = []
        tops: list[int] = []
        chosen_among: list[list[Offer]] = []
        while movable:  # (set bits inline: see ``forecast.Baseline.match_counts``)
            low = movable & -movable
            movable ^= low
            k = low.bit_length() - 1
            buyer = buyers[k]
            budget, tags, best = buyer.budget, buyer.tags, bests[k]
            # A product brought within reach with fewer matches than their best today
            # loses to their pool (``best_matches``), so only the others join it: those
            # with the most matches among them and the pool (``market.choose``'s first
            # steps, whose pool keeps the order of the table's products), then the rest
            # of the rule's order among them (``choose_among``).
            top, joined = best, None
            for o in discounted:
                if budget < o.price <= budget + limit:
                    hits = count_few_bits(tags & o.tags)
                    if hits > top:
                        top, joined = hits, [o]
                    elif hits == top:
                        if joined is None:
                            joined = list(pools[k])
                        joined.append(o)
            if joined is not None:
                moved.append(k)
                tops.append(top)
                chosen_among.append(joined)
            elif sampled >> k & 1 and sold_by_any(pools[k], flavor):
                # Undecided, and their pool is their ``best_matches`` among the whole
                # table with these chips too (no product brought within reach beats
                # or ties it): only the rest of the rule's order is asked again, and
                # only if a Flavor Sampling seller's product is in it (else they stay
                # undecided).
                moved.append(k)
                tops.append(best)
                chosen_among.append(pools[k])
            # (any other customer's pool and step 4 are today's: they choose as today)
        return moved, tops, chosen_among

    def promotion_gain(self, seller: int, black_friday: int, flavor: int) -> int:
        """What ``seller`` takes from the regular customers with these promotion chips
        less what it takes without them (``sales``), counted over the customers the
        chips can move (``promoted``) alone."""
        chosen = self.chosen()
        bought, base_paid, buyers = chosen.bought, chosen.paid, chosen.buyers
        gain = 0
        moved, tops, pools = self.promoted(black_friday, flavor)
        for m in range(len(moved)):
            k, pool = moved[m], pools[m]
            place, paid, _ = pick_among(buyers[k], tops[m], pool, flavor)
            if place >= 0 and pool[place].seller == seller:
                gain += paid
            before = bought[k]
            if before is not None and before.seller == seller:
                gain -= base_paid[k]
        return gain

    def chosen(self) -> TableChoices:
        """What each regular customer does with the table without promotion chips (every
        seat's decisions on one table, and its forecast, share it)."""
        return self.table.chosen()

    def product_value(self, ings: Sequence[int]) -> float:
        if self.shape < 0:
            return 0.0
        prices, tag_of = self.game.ing_price, self.game.ing_tag
        price = tags = 0
        for i in ings:
            price += prices[i]
            tags |= 1 << tag_of[i]
        return self._value(price, tags)

    def _value(self, price: int, tags: int) -> float:
        """``product_value`` of a product of this price and these hashtags."""
        # Customers see only the price and hashtags, so hands that share them (common
        # when answering an offer) are simulated once; keyed by one number (price and
        # hashtags side by side), not a tuple made for every hand.
        key = price << self.tag_bits | tags
        values = self._values
        if values is None:
            memo_key = ("values", self.seat, self.shape, self.table_id)
            values = self._values = kept_dict(self.memo, memo_key)
        known = values.get(key)
        if known is None:
            known = values[key] = float(self._new_product_sales(price, tags))
        return known

    def _new_product_sales(self, price: int, tags: int) -> int:
        """What this seat earns over the customer deck once a new product (``price``,
        ``tags``) joins the table (``Baseline.new_product_sales``)."""
        return self.baseline().new_product_sales(price, tags, self.shape, self.seat)

    def baseline(self) -> Baseline:
        """What each regular customer does with today's products (every seat's view
        of the same products shares it)."""
        return self.table.baseline()

    def best_keep(self, hand: list[int]) -> tuple[float, tuple[int, ...]]:
        """The best value of ``kept`` cards of ``hand`` and the first such cards, in
        ``combinations`` order (as ``max`` picks).

        Exact bound and prune: each choice gets a cheap upper bound of its value
        (``Baseline.sales_bound``, all of them in one pass: ``keep_bounds`` for three
        cards, else ``sales_bounds``); they
        are worked out highest bound first, and once a bound cannot beat the best found
        (a higher value, or an equal one earlier in ``combinations`` order) neither can
        any after it, so they are never simulated.
        The choice is the one ``max`` over every value would make."""
        cards = sorted(hand)
        kept = self.game.kept
        if kept > len(cards):
            raise ValueError("best_keep() of a hand smaller than the cards kept")
        places = combination_places(len(cards), kept)
        if self.weights.price_weight:
            return self._priced_keep(cards, places)
        if self.shape < 0:  # (every value is 0.0: the first)
            return 0.0, chosen_cards(cards, places[0])
        baseline, shape, seat, game = self.baseline(), self.shape, self.seat, self.game
        if kept == 3:  # (the game's keep: the bounds alone, by nested loops)
            bounds = baseline.keep_bounds(cards, shape, seat)
        else:
            prices, tag_masks = combination_products(game, cards, kept)
            bounds = baseline.sales_bounds(prices, tag_masks, shape, seat)
        # (only the two or three choices valued need their product: worked out again
        # from their places, not kept in lists of twenty boxed numbers each)
        count = len(bounds)
        best_value, best_index = -1.0, count
        # The next choice is the first of the highest bound not worked out yet (every
        # bound is at least today's takings, so -1 marks a choice worked out): a few
        # scans of the twenty bounds, as only two or three choices a hand are valued,
        # instead of sorting them all (a list of numbers made, boxed and sorted).
        while True:
            ceiling, index = -1, count
            for j in range(count):
                if bounds[j] > ceiling:
                    ceiling, index = bounds[j], j
            if index == count or not goes_first(float(ceiling), index, best_value, best_index):
                break  # (and so every choice after it: lower bounds, or later in order)
            bounds[index] = -1
            price, tags = choice_product(game, cards, places[index])
            value = self._value(price, tags)
            if goes_first(value, index, best_value, best_index):
                best_value, best_index = value, index
        return best_value, chosen_cards(cards, places[best_index])

    def _priced_keep(
        self, cards: list[int], places: list[tuple[int, ...]]
    ) -> tuple[float, tuple[int, ...]]:
        """``best_keep`` with each choice's price, times the ``price_weight``, added to
        its expected sales: every choice valued (the bounds that let the default skip
        most hold for the sales alone)."""
        weight = self.weights.price_weight
        best_value, best_index = -1.0, len(places)
        for index in range(len(places)):
            price, tags = choice_product(self.game, cards, places[index])
            value = (self._value(price, tags) if self.shape >= 0 else 0.0) + weight * price
            if goes_first(value, index, best_value, best_index):
                best_value, best_index = value, index
        return best_value, chosen_cards(cards, places[best_index])

    def hand(self) -> list[int]:
        return list(self.info.hand)

    def discard(self, actions: list[FoodAction]) -> FoodAction:
        info, seat = self.info, self.seat
        keep = kept_before(self.memo, info, seat)
        if keep is None:
            keep = self.best_keep(list(info.hand))[1]
            self.memo[("keep", seat)] = (info.products, info.shape, info.hand, keep)
        for action in actions:
            if not holds_tuple(keep, action.thing):
                return action
        return actions[0]

    def answer(self, actions: list[FoodAction]) -> FoodAction:
        """Give back, card by card, the set of cards whose exchange for the offer most
        improves the best product this hand can make; decline if none improves it."""
        hand = self.hand()
        offered = list(self.info.offer_ingredients)
        given = list(self.info.offer_given)
        rest = [i for i in hand if i not in given]
        best, pick = self.best_keep(hand)[0], None
        for extra in combinations(rest, len(offered) - len(given)):
            out = set(given) | set(extra)
            value = self.best_keep([i for i in hand if i not in out] + offered)[0]
            if value > best:
                best, pick = value, extra
        if pick is None:
            return actions[0]  # decline
        for action in actions:
            if action.kind == GIVE and action.thing == pick[0]:
                return action
        return actions[0]

    # ------------------------------------------------------------------ placing

    def place(self, actions: list[FoodAction]) -> FoodAction:
        seat = self.seat
        # An action's score depends on the table, the seat and the votes alone, none of
        # which change while chips are placed: the seat's later chips reuse them. Kept
        # in a list by the chip's place among the shop, promotion and investment actions
        # (their codes follow one another from ``base[SHOP]``): a dict keyed by a boxed
        # code cost about 300 instructions a chip and decision in compiled code.
        received = self.info.votes_received
        first = self.game.base[SHOP]
        key = ("place", seat, self.table_id, received)
        known: list[float] | None = self.memo.get(key)
        if known is None:
            known = self.memo[key] = [_UNKNOWN] * (self.game.base[TARGET] - first)
        # The best chip by ``goes_first``, the first such in order; by plain loops, not
        # a dict keyed by actions (an action's hash is Python code, called from compiled
        # code several times a chip).
        best: FoodAction | None = None
        best_score = 0.0
        done: FoodAction | None = None
        for action in actions:
            if action.kind == DONE:
                if done is None:
                    done = action
                continue
            slot = action.index - first
            if 0 <= slot < len(known):
                score = known[slot]
                if score == _UNKNOWN:
                    score = known[slot] = self._chip_value(action)
            else:  # (no chip of these kinds: worked out, not kept)
                score = self._chip_value(action)
            if best is None or goes_first(score, action.index, best_score, best.index):
                best, best_score = action, score
        if best is None:
            return actions[0]
        if done is not None and best_score <= self.weights.min_chip_value:
            return done
        return best

    def own_sales(self) -> list[tuple[int, Offer, int]]:
        """(customer, offer, paid) for what this seat sells without chips (``sales``)."""
        own = self._own
        if own is None:
            seat = self.seat
            own = self._own = [sale for sale in self.sales() if sale[1].seller == seat]
        return own

    def sold_by(self) -> list[int]:
        """Per seat (up to ``tables.MAX_SEATS``): how many regular customers buy from it
        without chips (``sales``), counted once a table for every seat's bot (kept with
        the table: every rival a Mabius chip could invest in reads it). Read only."""
        table = self.table
        sold = table.sold_counts
        if sold is None:
            sold = [0] * MAX_SEATS
            for _, offer, _ in self.sales():
                sold[offer.seller] = sold[offer.seller] + 1
            table.sold_counts = sold
        return sold

    def _chip_value(self, action: FoodAction) -> float:
        """What a chip on this shop or channel is worth to this seat."""
        game = self.game
        if action.kind == SHOP:
            shop = action.thing
            bonus = game.shop_bonus[shop]
            shapes = game.shop_shapes[shop]
            shape_bonus = game.shape_match_bonus
            value = 0.0
            for c, offer, _ in self.own_sales():
                if shop_term_met(game, shop, c, offer):
                    value += bonus
                if shapes >> offer.shape & 1:
                    value += shape_bonus
            return value * 6 / len(self.customers) + self.weights.shop_base_value
        if action.kind == INVEST:
            sold = self.sold_by()[action.seat]
            return sold * 6 / len(self.customers) * game.mabius_profit
        return self.channel_value(action.thing)

    def channel_value(self, channel: int) -> float:
        game, seat = self.game, self.seat
        scale = 6 / len(self.customers)
        if channel in (game.black_friday, game.flavor):
            # (float: the takings with the chip less those without, both whole numbers)
            bf, fs = (1 << seat, 0) if channel == game.black_friday else (0, 1 << seat)
            return float(self.promotion_gain(seat, bf, fs)) * scale
        when, value = game.ad_when[channel], game.ad_value[channel]
        received = self.info.votes_received
        sold = self.own_sales()
        if when == "votes_at_least":
            met = received[seat] >= value
        elif when == "top_vote":
            met = received[seat] == max(received)
        elif when == "sales_at_least":
            met = len(sold) * scale >= value
        elif when == "matches_at_least":
            hits = 0
            for c, o, _ in sold:
                if matches(game.buyers[c], o) >= value:
                    hits += 1
            met = hits * scale >= 1
        else:
            newest = [o for o in self.offers if o.seller == seat][-1:]
            others = 0
            for o in self.offers:
                if o.seller != seat:
                    others |= o.tags
            met = any(o.tags & ~others for o in newest)
        return self.weights.extra_customer_value if met else 0.0
