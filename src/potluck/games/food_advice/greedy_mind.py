"""What FoodAdvice's greedy bot works out at one decision (``Mind``, made by
``bots.GreedyBot`` from the seat's ``SeatInfo``) and its hand-set weights, in foodcoins.

    >>> Weights().min_chip_value == MIN_CHIP
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any, NamedTuple

from potluck.games.food_advice.actions import (
    DONE,
    GIVE,
    INVEST,
    SHOP,
    FoodAction,
)
from potluck.games.food_advice.forecast import Baseline
from potluck.games.food_advice.market import (
    LEFT_UNDECIDED,
    Choice,
    Offer,
    choose,
    count_bits,
    matches,
    new_offer,
)
from potluck.games.food_advice.seat_info import SeatInfo
from potluck.games.food_advice.selling import shop_term_met
from potluck.games.food_advice.tables import FoodTables

if TYPE_CHECKING:
    pass

#: What an extra personal customer is worth, roughly (an average sale).
EXTRA_CUSTOMER = 25.0
#: What a chip on any shop is worth beyond its bonuses (some shop beats none).
SHOP_BASE = 0.5
#: The least a chip must be worth for the bot to place it rather than stop.
MIN_CHIP = 1.0
#: What a foodcoin the richest rival loses to an event is worth against one it gains.
RIVAL_WEIGHT = 1.0


class Weights(NamedTuple):
    """The greedy bot's weights, in foodcoins (``GreedyBot.params`` says what each means)."""

    extra_customer_value: float = EXTRA_CUSTOMER
    shop_base_value: float = SHOP_BASE
    min_chip_value: float = MIN_CHIP
    rival_weight: float = RIVAL_WEIGHT


DEFAULT_WEIGHTS = Weights()


def kept_dict(memo: dict[tuple[Any, ...], Any], key: tuple[Any, ...]) -> dict[Any, Any]:
    """``memo.setdefault(key, {})`` without making an empty dict when ``key`` is kept
    already (most decisions): fewer objects for the garbage collector to visit."""
    known: dict[Any, Any] | None = memo.get(key)
    if known is None:
        known = memo[key] = {}
    return known


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
        self.money = list(info.money)
        self.customers = game.regular_customers
        # The table's offers, and a number standing for the table in the memo's keys,
        # by the products as the SeatInfo lists them (number, owner, shape, price and
        # ingredients): the same for every decision until a product joins or an event
        # trims one. A key holding the offers themselves hashed every offer at each
        # look-up (a tuple keeps no hash), several times a decision.
        tables: dict[Any, tuple[tuple[Offer, ...], int]] = kept_dict(self.memo, ("tables",))
        known = tables.get(info.products)
        if known is None:
            made: list[Offer] = []
            for number, owner, shape, price, ings in info.products:
                made.append(new_offer(number, owner, shape, price, game.product_tags(list(ings))))
            # (numbered in order of arrival: the memo forgets every table at once)
            known = tables[info.products] = (tuple(made), len(tables))
        self.table, self.table_id = known
        self.offers = list(self.table)
        self.shape = info.shape
        # product_value by (price, hashtags), for this seat, shape and table
        key = ("values", seat, self.shape, self.table_id)
        self.values: dict[int, float] = kept_dict(self.memo, key)
        # (a product's price and hashtags as one key: the hashtags below these bits)
        self.tag_bits = len(game.hashtags)
        self._baseline: Baseline | None = None
        # This seat's sales without chips (``own_sales``), and each seat's count of
        # them (``sold_by``), once a decision.
        self._own: list[tuple[int, Offer, int]] | None = None
        self._sold_by: list[int] | None = None
        self._table_choices: tuple[Choice, ...] | None = None

    # ------------------------------------------------------------------ products

    def _offers_key(self, offers: list[Offer]) -> object:
        """``offers`` in a memo key: the table's number for the table's own list."""
        return self.table_id if offers is self.offers else tuple(offers)

    def sales(
        self, offers: list[Offer], black_friday: int = 0, flavor: int = 0
    ) -> tuple[tuple[int, Offer, int], ...]:
        """(customer, offer, paid) for every regular customer who would buy something.

        Kept as tuples (here and in ``choices``), which Python's cyclic garbage collector
        stops visiting once it finds they hold numbers and such tuples only (lists it
        visits at every collection, and the memo keeps hundreds)."""
        key = ("sales", self._offers_key(offers), black_friday, flavor)
        known: tuple[tuple[int, Offer, int], ...] | None = self.memo.get(key)
        if known is not None:
            return known
        base: Sequence[Choice] = self.choices(offers)
        if black_friday or flavor:
            changed = list(base)
            for k, choice in self.promoted(offers, black_friday, flavor):
                changed[k] = choice
            base = changed
        bought = tuple(
            [
                (c, choice.offer, choice.paid)
                for c, choice in zip(self.customers, base, strict=True)
                if choice.offer is not None
            ]
        )
        self.memo[key] = bought
        return bought

    def promoted(
        self, offers: list[Offer], black_friday: int, flavor: int
    ) -> list[tuple[int, Choice]]:
        """(k, choice) for each regular customer (``k``: their place in the deck's
        order) whose choice promotion chips can change, chosen again by the rule
        (``market.choose``); the others choose as without chips (``choices``).

        Only some customers can choose otherwise: those Black Friday brings a product
        within reach of, and those who could not choose (Flavor Sampling decides only
        what would otherwise be a tie, ``market.choose`` step 4). Each chooses among
        the products within budget with their most matches (``pools``) and those Black
        Friday brings within reach, in table order: ``market.choose`` keeps only the
        reachable products with the most matches before any other step, so it
        chooses among these as among the whole table."""
        base, pools = self.choices(offers), self.pools(offers)
        limit = self.game.black_friday_limit
        buyers = self.game.buyers
        discounted: list[int] = []  # the places of Black Friday sellers' products
        for place, o in enumerate(offers):
            if black_friday >> o.seller & 1:
                discounted.append(place)
        moved: list[tuple[int, Choice]] = []
        for k, c in enumerate(self.customers):
            buyer = buyers[c]
            budget = buyer.budget
            reached: list[int] = []
            for place in discounted:
                if budget < offers[place].price <= budget + limit:
                    reached.append(place)
            if reached or (flavor and base[k].reason == LEFT_UNDECIDED):
                candidates: list[Offer] = []
                pool, i = pools[k], 0
                # (the two lists of places merged in table order; a pool's products are
                # within budget, the reached ones beyond it, so none is in both)
                for place in reached:
                    while i < len(pool) and pool[i] < place:
                        candidates.append(offers[pool[i]])
                        i += 1
                    candidates.append(offers[place])
                while i < len(pool):
                    candidates.append(offers[pool[i]])
                    i += 1
                moved.append((k, choose(buyer, candidates, black_friday, flavor, limit)))
        return moved

    def promotion_gain(self, seller: int, black_friday: int, flavor: int) -> int:
        """What ``seller`` takes from the regular customers with these promotion chips
        less what it takes without them (``sales``), counted over the customers the
        chips can move (``promoted``) alone."""
        base = self.choices(self.offers)
        gain = 0
        for k, choice in self.promoted(self.offers, black_friday, flavor):
            if choice.offer is not None and choice.offer.seller == seller:
                gain += choice.paid
            before = base[k]
            if before.offer is not None and before.offer.seller == seller:
                gain -= before.paid
        return gain

    def choices(self, offers: list[Offer]) -> tuple[Choice, ...]:
        """What each regular customer does with ``offers``, without promotion chips."""
        on_table = offers is self.offers
        if on_table and self._table_choices is not None:
            return self._table_choices  # asked for again and again by a decision's chips
        known = self._choices_and_pools(offers)[0]
        if on_table:
            self._table_choices = known
        return known

    def pools(self, offers: list[Offer]) -> tuple[tuple[int, ...], ...]:
        """Per regular customer: the places in ``offers`` of the products within budget
        with the most hashtag matches, in order (worked out with ``choices``)."""
        return self._choices_and_pools(offers)[1]

    def _choices_and_pools(
        self, offers: list[Offer]
    ) -> tuple[tuple[Choice, ...], tuple[tuple[int, ...], ...]]:
        key = ("choices", self._offers_key(offers))
        known: tuple[tuple[Choice, ...], tuple[tuple[int, ...], ...]] | None = self.memo.get(key)
        if known is None:
            limit = self.game.black_friday_limit
            buyers = self.game.buyers
            choices: list[Choice] = []
            pools: list[tuple[int, ...]] = []
            for c in self.customers:
                buyer = buyers[c]
                budget, tags = buyer.budget, buyer.tags
                best = -1
                places: list[int] = []
                for place, o in enumerate(offers):
                    if o.price <= budget:
                        hits = count_bits(tags & o.tags)
                        if hits > best:
                            best = hits
                            places = [place]
                        elif hits == best:
                            places.append(place)
                pools.append(tuple(places))
                # Without promotion chips a customer chooses among these alone
                # (``market.choose`` keeps them before any other step).
                pool = [offers[place] for place in places]
                choices.append(choose(buyer, pool, 0, 0, limit))
            known = self.memo[key] = (tuple(choices), tuple(pools))
        return known

    def product_value(self, ings: Sequence[int]) -> float:
        if self.shape < 0:
            return 0.0
        prices, tag_of = self.game.ing_price, self.game.ing_tag
        price = tags = 0
        for i in ings:
            price += prices[i]
            tags |= 1 << tag_of[i]
        # Customers see only the price and hashtags, so hands that share them (common
        # when answering an offer) are simulated once; keyed by one number (price and
        # hashtags side by side), not a tuple made for every hand.
        key = price << self.tag_bits | tags
        known = self.values.get(key)
        if known is None:
            known = self.values[key] = float(self._new_product_sales(price, tags))
        return known

    def _new_product_sales(self, price: int, tags: int) -> int:
        """What this seat earns over the customer deck once a new product (``price``,
        ``tags``) joins the table (``Baseline.new_product_sales``)."""
        return self.baseline().new_product_sales(price, tags, self.shape, self.seat)

    def baseline(self) -> Baseline:
        """What each regular customer does with today's products (every seat's view
        of the same products shares it)."""
        known = self._baseline
        if known is None:
            key = ("baseline", self.table_id)
            known = self.memo.get(key)
            if known is None:
                known = self.memo[key] = Baseline(self.game, self.offers)
            self._baseline = known
        return known

    def best_keep(self, hand: list[int]) -> tuple[float, tuple[int, ...]]:
        """The best value of ``kept`` cards of ``hand`` and the first such cards, in
        ``combinations`` order (as ``max`` picks)."""
        best_value, best = 0.0, None
        for combo in combinations(sorted(hand), self.game.kept):
            value = self.product_value(combo)
            if best is None or value > best_value:
                best_value, best = value, combo
        if best is None:
            raise ValueError("best_keep() of a hand smaller than the cards kept")
        return best_value, best

    def hand(self) -> list[int]:
        return list(self.info.hand)

    def discard(self, actions: list[FoodAction]) -> FoodAction:
        hand = self.hand()
        # The cards to keep of a hand that is part of the hand of this seat's last
        # discard (same table and shape) and still holds the cards it chose to keep are
        # those cards again: they were the first best of a larger set of choices, in an
        # order that the smaller hand's choices follow (so a round's second and third
        # discards ask no product value again).
        key = ("keep", self.seat, self.shape, self.table_id)
        last: tuple[frozenset[int], tuple[int, ...]] | None = self.memo.get(key)
        if last is not None and last[0].issuperset(hand) and set(last[1]).issubset(hand):
            keep = last[1]
        else:
            keep = self.best_keep(hand)[1]
            self.memo[key] = (frozenset(hand), keep)
        for action in actions:
            if action.thing not in keep:
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
        # which change while chips are placed: the seat's later chips reuse them.
        received = self.info.votes_received
        known: dict[int, float] = kept_dict(self.memo, ("place", seat, self.table_id, received))
        # The best chip by (score, -index), the first such in order; by plain loops, not
        # a dict keyed by actions (an action's hash is Python code, called from compiled
        # code several times a chip).
        best: FoodAction | None = None
        best_score = 0.0
        done: FoodAction | None = None
        for action in actions:
            if done is None and action.kind == DONE:
                done = action
            score = known.get(action.index)
            if score is None:
                if action.kind == DONE:
                    continue
                score = known[action.index] = self._chip_value(action)
            if (
                best is None
                or score > best_score
                or (score == best_score and action.index < best.index)
            ):
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
            own = self._own = [sale for sale in self.sales(self.offers) if sale[1].seller == seat]
        return own

    def sold_by(self) -> list[int]:
        """Per seat: how many regular customers buy from it without chips (``sales``),
        counted once a decision for every rival a Mabius chip could invest in."""
        sold = self._sold_by
        if sold is None:
            sold = self._sold_by = [0] * len(self.money)
            for _, offer, _ in self.sales(self.offers):
                sold[offer.seller] += 1
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

    # ------------------------------------------------------------------ events

    def remove(self, actions: list[FoodAction]) -> FoodAction:
        game, seat = self.game, self.seat
        richest = max((s for s in range(len(self.money)) if s != seat), key=lambda s: self.money[s])
        base = self.choices(self.offers)
        limit = game.black_friday_limit
        products = self.info.products
        holder = {i: j for j, product in enumerate(products) for i in product[4]}
        buyers = [game.buyers[c] for c in self.customers]
        # Per customer: the matches of each product within budget (-1: beyond it), the
        # most, how many products reach it, and the runner-up; and the products (by
        # place on the table) with the most and with the runner-up's matches.
        hits_of: list[list[int]] = []
        tops: list[int] = []
        counts: list[int] = []
        runners_up: list[int] = []
        top_places: list[list[int]] = []
        runner_up_places: list[list[int]] = []
        for buyer in buyers:
            hits = [
                count_bits(buyer.tags & o.tags) if o.price <= buyer.budget else -1
                for o in self.offers
            ]
            top = max(hits, default=-1)
            runner_up = -1
            for h in hits:
                if runner_up < h < top:
                    runner_up = h
            hits_of.append(hits)
            tops.append(top)
            counts.append(hits.count(top))
            runners_up.append(runner_up)
            at_top: list[int] = []
            at_runner_up: list[int] = []
            if top >= 0:
                for place, h in enumerate(hits):
                    if h == top:
                        at_top.append(place)
                    elif h == runner_up and runner_up >= 0:
                        at_runner_up.append(place)
            top_places.append(at_top)
            runner_up_places.append(at_runner_up)
        rivals: dict[int, list[int]] = {}  # per product: each customer's best match elsewhere

        def others_best(j: int) -> list[int]:
            known = rivals.get(j)
            if known is None:
                known = rivals[j] = [
                    runners_up[k] if hits_of[k][j] == tops[k] and counts[k] == 1 else tops[k]
                    for k in range(len(buyers))
                ]
            return known

        def rivals_with(k: int, j: int, new: Offer) -> list[Offer]:
            """The products customer ``k`` chooses among once product ``j`` is ``new``:
            the others within budget with their most matches, and ``new``, in table
            order. Without promotion chips ``market.choose`` keeps only the reachable
            products with the most matches before any other step, so it chooses among
            these as among the whole table (``tests/test_food_bot_shortcuts.py``)."""
            if hits_of[k][j] == tops[k] and counts[k] == 1:
                places = runner_up_places[k]
            else:
                places = top_places[k]
            pool: list[Offer] = []
            offers = self.offers
            for place in places:
                if place < j:
                    pool.append(offers[place])
            pool.append(new)
            for place in places:
                if place > j:
                    pool.append(offers[place])
            return pool

        # A removal's value depends on the product and what is left of it alone:
        # removals leaving the same price and hashtags are worked out once.
        scores: dict[tuple[int, int, int], float] = {}

        def after(action: FoodAction) -> float:
            # Only customers for whom the trimmed product is (or was) among the best
            # matches within budget can choose otherwise; the others' choices stand.
            j = holder[action.thing]
            ings = list(products[j][4])
            ings.remove(action.thing)
            new_price = 0
            for i in ings:
                new_price += game.ing_price[i]
            new_tags = game.product_tags(ings)
            key = (j, new_price, new_tags)
            score = scores.get(key)
            if score is not None:
                return score
            old = self.offers[j]  # (``_replace`` is Python code, slow from compiled code)
            new = new_offer(old.product, old.seller, old.shape, new_price, new_tags)
            mine = theirs = 0
            best_elsewhere = others_best(j)
            for k, buyer in enumerate(buyers):
                choice = base[k]
                best = best_elsewhere[k]
                # hits_of[k][j]: the old product's matches, -1 when it was beyond the budget
                if hits_of[k][j] >= max(best, 0) or (
                    new_price <= buyer.budget and count_bits(buyer.tags & new_tags) >= best
                ):
                    choice = choose(buyer, rivals_with(k, j, new), 0, 0, limit)
                if choice.offer is not None:
                    if choice.offer.seller == seat:
                        mine += choice.paid
                    elif choice.offer.seller == richest:
                        theirs += choice.paid
            # At the default weight of 1.0 the product is exactly ``theirs``.
            score = scores[key] = float(mine) - self.weights.rival_weight * float(theirs)
            return score

        return max(actions, key=lambda a: (after(a), -a.index))
