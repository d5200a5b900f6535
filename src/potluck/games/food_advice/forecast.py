"""The greedy bot's forecast of the customer deck (bots.py): what each regular
customer buys with the products on the table, grouped as bit sets, so that what a
new product would sell is counted in a few integer operations.

    >>> import potluck
    >>> game = potluck.load_game("food-advice")
    >>> base = Baseline(game, [])  # no product on the table yet
    >>> base.best_of[:3], base.paid_groups(0)
    ([-1, -1, -1], [])
"""

from __future__ import annotations

from potluck.games.food_advice.market import (
    PICK_UNDECIDED,
    Buyer,
    Choice,
    Offer,
    best_matches,
    choose_among,
    count_bits,
    pick_among,
)
from potluck.games.food_advice.tables import FoodTables


class TableChoices:
    """What each regular customer (numbered 0..K-1 in ``game.regular_customers`` order)
    does with the products on offer, without promotion chips, by ``market.choose`` in
    its two parts: the reachable products with the most matches (``best_matches``: how
    many in ``bests``, -1 for none, and which in ``pools``), and the choice among them
    (``pick_among``: the product bought in ``bought``, ``None`` if they leave, and the
    price paid in ``paid``; ``choice`` is it as ``choose_among``'s ``Choice``). The
    greedy bot's sales, chips and removals and the forecast (``Baseline``) of one table
    share it.

    The choices are kept as the offer and the price, not a ``Choice`` per customer:
    every new table works out some forty customers, and its readers ask only who sells
    and for how much (a ``Choice`` was an object made and freed for each buyer).

        >>> import potluck
        >>> game = potluck.load_game("food-advice")
        >>> chosen = TableChoices(game, [])
        >>> chosen.bought[0], chosen.paid[0], chosen.choice(0).reason
        (None, 0, 'nothing on offer within budget')
    """

    def __init__(
        self, game: FoodTables, offers: list[Offer], before: TableChoices | None = None
    ) -> None:
        """``before``: the choices of a table whose products are the first of ``offers``
        (the same ``Offer`` objects: the bot tells products apart by identity), if
        already worked out; the products added since are then all that is asked."""
        self.buyers: list[Buyer] = [game.buyers[c] for c in game.regular_customers]
        #: How many products the table holds.
        self.count = len(offers)
        self.bests: list[int] = []
        self.pools: list[list[Offer]] = []
        #: Per customer: the offer bought (``None``: they leave) and the price paid.
        self.bought: list[Offer | None] = []
        self.paid: list[int] = []
        #: The customers (bit k) who could not choose among their pool: Flavor Sampling
        #: may choose for them (``market.choose`` step 4).
        self.undecided = 0
        added = offers if before is None else offers[before.count :]
        for k, buyer in enumerate(self.buyers):
            best, pool = best_matches(buyer, added)
            if before is not None:
                # ``best_matches`` of the whole table from those of its two parts: the
                # part with more matches, or both in order if as many (it keeps the
                # products with the most matches in table order); a customer whose pool
                # the added products leave as it was chooses as before.
                known = before.bests[k]
                if best < known or best < 0:
                    self.bests.append(known)
                    self.pools.append(before.pools[k])
                    self.bought.append(before.bought[k])
                    self.paid.append(before.paid[k])
                    self.undecided |= before.undecided & (1 << k)
                    continue
                if best == known:
                    pool = before.pools[k] + pool
            place, paid, why = pick_among(buyer, best, pool, 0)
            self.bests.append(best)
            self.pools.append(pool)
            self.bought.append(pool[place] if place >= 0 else None)
            self.paid.append(paid)
            if why == PICK_UNDECIDED:
                self.undecided |= 1 << k

    def choice(self, k: int) -> Choice:
        """Customer ``k``'s choice as ``market.choose_among`` gives it."""
        return choose_among(self.buyers[k], self.bests[k], self.pools[k], 0)


def count_customers(mask: int) -> int:
    """``mask.bit_count()`` for a set of customers (a whole number >= 0), by adding bit
    pairs, nibbles and bytes in place (SWAR) below 2**56, in a dozen integer operations
    that compiled code runs on machine words; ``market.count_bits`` otherwise (its table
    look-ups box and unbox each byte: about 300 instructions a call by callgrind, and the
    keep's bounds count a few sets for each of its twenty choices).

        >>> count_customers(0), count_customers(0b1011), count_customers((1 << 40) - 1)
        (0, 3, 40)
    """
    if mask >> 56:
        return count_bits(mask)
    mask -= mask >> 1 & 0x55555555555555
    mask = (mask & 0x33333333333333) + (mask >> 2 & 0x33333333333333)
    mask = (mask + (mask >> 4)) & 0x0F0F0F0F0F0F0F
    mask += mask >> 8
    mask += mask >> 16
    mask += mask >> 32
    return mask & 0x7F


def within_budget(game: FoodTables, price: int) -> int:
    """The regular customers (bit k, ``TableChoices`` order) whose budget covers ``price``
    (every one for a price below 0)."""
    affording = game.regular_affording
    if price < 0:
        return (1 << len(game.regular_customers)) - 1
    return affording[price] if price < len(affording) else 0  # (beyond every budget)


class Baseline:
    """The regular customers (numbered 0..K-1 in ``game.regular_customers`` order) as
    bit sets, for counting what a new product would sell (``new_product_sales``).

    Per customer: the most hashtag matches among the products within budget today
    (-1: none), what they buy today, and the products tied at that best that a new
    product tying them would compete with (``tie_gain``).
    """

    def __init__(
        self, game: FoodTables, offers: list[Offer], chosen: TableChoices | None = None
    ) -> None:
        """``chosen``: ``TableChoices(game, offers)`` if already worked out."""
        self.game = game
        if chosen is None:
            chosen = TableChoices(game, offers)
        self.buyers = chosen.buyers
        self.everyone = (1 << len(self.buyers)) - 1
        #: Per customer: the most matches within budget (-1: nothing within it).
        self.best_of: list[int] = chosen.bests
        #: Per customer: the products within budget with the most matches, among which
        #: alone they choose (a new product joins this pool or beats it).
        self.pools: list[list[Offer]] = chosen.pools
        customers = len(self.buyers)
        # Per customer, for a tie with a new product (``tie_gain``), worked out at their
        # first tie (``_tie_terms``: most customers meet none for a table): with
        # matches, the highest price among the best-matching products; without, the
        # highest price among the products of a liked shape (-1: none; -2: not yet
        # worked out) ...
        self.top_price: list[int] = [-2] * customers
        # ... who sells to them when the new product does not join the tie at that
        # price (-1: nobody), who when it joins it without a liked shape, and whether
        # a new product of a liked shape would be the only one of a liked shape there
        self.seller_below: list[int] = [-1] * customers
        self.seller_level: list[int] = [-1] * customers
        self.none_liked: list[bool] = [False] * customers
        #: Per customer: who sells to them today (-1: nobody) and the price paid (0:
        #: none), as numbers (a tuple per customer was an object made for each table).
        self.seller_of: list[int] = []
        self.paid_of: list[int] = chosen.paid
        # The customers with no hashtag match anywhere and no product of a shape they like.
        self.alone = 0
        top_best = 1
        for k, buyer in enumerate(self.buyers):
            offer = chosen.bought[k]
            self.seller_of.append(offer.seller if offer is not None else -1)
            best = self.best_of[k]
            if best <= 0:
                # (without matches the pool is every product within budget)
                shapes, liked = buyer.shapes, False
                for o in self.pools[k]:
                    if shapes >> o.shape & 1:
                        liked = True
                        break
                if not liked:
                    self.alone |= 1 << k
            if best + 2 > top_best:
                top_best = best + 2
        # best_above[j]: the customers whose best match today is at least j (j >= 0).
        # (padded with empty sets up to every count of matches a product can have, and
        # to 4 for ``sales_bounds``)
        self.best_above = [0] * max(top_best, len(game.hashtags) + 2, 5)
        for k, best in enumerate(self.best_of):
            for j in range(best + 1):
                # (not ``|=``: compiled code does a list item's augmented assignment
                # through Python's generic operator, about 150 instructions)
                self.best_above[j] = self.best_above[j] | (1 << k)
        # (the first four as numbers: ``bound``)
        self.above_1, self.above_2 = self.best_above[1], self.best_above[2]
        self.above_3, self.above_4 = self.best_above[3], self.best_above[4]
        self._paid: dict[int, list[tuple[int, int]]] = {}
        self._takings: dict[int, int] = {}
        # ``dearer`` by price for every price some budget covers (``dearer_table``;
        # a dearer product reaches nobody), made at the first ask.
        self._dearer: list[int] | None = None

    def paid_groups(self, seat: int) -> list[tuple[int, int]]:
        """(price paid, the customers paying it) for what ``seat`` sells today."""
        known = self._paid.get(seat)
        if known is None:
            groups: dict[int, int] = {}
            sellers, paid_by = self.seller_of, self.paid_of
            for k in range(len(sellers)):
                paid = paid_by[k]
                if sellers[k] == seat and paid:
                    groups[paid] = groups.get(paid, 0) | 1 << k
            known = self._paid[seat] = sorted(groups.items())
        return known

    def reach(self, price: int) -> int:
        """The customers whose budget covers ``price``."""
        return within_budget(self.game, price)

    def liking_shape(self, shape: int) -> int:
        """The customers whose favourite shapes include ``shape``."""
        return self.game.regular_liking_shape[shape]

    def _tie_terms(self, k: int) -> None:
        """``market.choose`` steps 2 and 3 among customer ``k``'s tied products, worked
        out once for any new product's price and shape (``tie_gain``)."""
        pool, shapes = self.pools[k], self.buyers[k].shapes
        # (plain loops: a generator is a Python object even in compiled code)
        if self.best_of[k] > 0:  # matches tie: the highest price, then the shape
            top = -1
            for o in pool:
                if o.price > top:
                    top = o.price
            tied = [o for o in pool if o.price == top]
            liked = [o for o in tied if shapes >> o.shape & 1]
            below = tied if len(tied) == 1 else liked
            self.seller_below[k] = below[0].seller if len(below) == 1 else -1
            self.seller_level[k] = liked[0].seller if len(liked) == 1 else -1
        else:  # no match anywhere: the shape, then the highest price
            liked = [o for o in pool if shapes >> o.shape & 1]
            top = -1
            for o in liked:
                if o.price > top:
                    top = o.price
            tied = [o for o in liked if o.price == top]
            self.seller_below[k] = tied[0].seller if len(tied) == 1 else -1
            self.seller_level[k] = -1
        self.none_liked[k] = not liked
        self.top_price[k] = top

    def tie_gain(self, k: int, price: int, liked: bool, seat: int) -> int:
        """What customer ``k`` pays ``seat`` when its new product (``price``, a shape
        ``liked`` or not) ties their best match today: ``market.choose`` steps 2 and 3
        among the tied products (no promotion chips: step 4 never picks), read from
        what ``_tie_terms`` worked out of the tied products once."""
        top = self.top_price[k]
        if top == -2:
            self._tie_terms(k)
            top = self.top_price[k]
        if self.best_of[k] > 0:  # matches tie: the highest price, then the shape
            if price > top:
                return price
            if price == top:
                if liked:  # theirs unless another tied product has a liked shape
                    return price if self.none_liked[k] else 0
                return top if self.seller_level[k] == seat else 0
        elif liked:  # no match anywhere: the shape, then the highest price
            if price > top:
                return price
            if price == top:
                return 0  # still undecided: they leave
        return top if self.seller_below[k] == seat else 0

    def match_counts(self, tags: int) -> list[int]:
        """``at_least[j]``: the customers who find at least ``j`` of their hashtags in a
        product with hashtag mask ``tags`` (``at_least[0]`` is everyone), with an empty
        set after the last (``new_product_sales`` and ``sales_bound`` read them)."""
        liking = self.game.regular_liking_tag
        # (adding its hashtags one by one: a product has a few of the game's hashtags;
        # set bits visited inline: a helper listing them cost 500-800 instructions a call
        # in the compiled build, by callgrind, more than this loop's work)
        at_least = [self.everyone]
        rest = tags
        while rest:
            low = rest & -rest
            rest ^= low
            tag = liking[low.bit_length() - 1]  # the customers who like this hashtag
            at_least.append(at_least[-1] & tag)
            for j in range(len(at_least) - 2, 0, -1):
                at_least[j] = at_least[j] | (at_least[j - 1] & tag)
        at_least.append(0)
        return at_least

    def new_product_sales(self, price: int, tags: int, shape: int, seat: int) -> int:
        """What ``seat`` earns over the regular customers once its new product
        (``price``, hashtag mask ``tags``, ``shape``) joins today's products, counting
        its products already on the table too, without simulating every customer
        again. A customer who cannot afford it, or finds more matches elsewhere,
        chooses as today; one who finds fewer matches elsewhere (and at least one
        here) buys it; only a tie is worked out again, by the rulebook's steps among
        the tied products alone (``tie_gain``). Customers are grouped as bit sets, so
        the rest of the count takes a few integer operations.
        """
        everyone, best_above = self.everyone, self.best_above
        reach = self.reach(price)
        at_least = self.match_counts(tags)
        # with no match here they lose to any match elsewhere (or tie)
        loses = (everyone & ~at_least[1]) & best_above[1]
        wins = 0
        for hits in range(1, len(at_least) - 1):
            exactly = at_least[hits] & ~at_least[hits + 1]
            loses |= exactly & best_above[hits + 1]
            wins |= exactly & ~best_above[hits]
        wins &= reach
        loses = (loses & reach) | (everyone & ~reach)
        total = price * count_customers(wins)
        for paid, group in self.paid_groups(seat):
            total += paid * count_customers(loses & group)
        ties = everyone & ~wins & ~loses
        liked = self.liking_shape(shape)
        # Those with no rival product to weigh buy it only for its shape.
        total += price * count_customers(ties & self.alone & liked)
        ties &= ~self.alone
        while ties:  # (set bits visited inline, as in ``match_counts``)
            k = (ties & -ties).bit_length() - 1
            ties &= ties - 1
            total += self.tie_gain(k, price, bool(liked >> k & 1), seat)
        return total

    def sales_bound(self, price: int, tags: int, shape: int, seat: int) -> int:
        """At least ``new_product_sales(price, tags, shape, seat)``, in a few integer
        operations (the greedy bot's keep skips the hands it bounds below its best).

        Each customer pays ``seat`` either nothing, the new product's price, or what
        they pay it today (a customer who chooses as today, or whose tie is settled
        for today's product: ``tie_gain``'s ``top`` is then today's price paid to
        ``seat``). Only a customer within budget can pay the price, and only one who
        finds at least as many of their hashtags in it as in any product within budget
        today (``match_counts``: exactly ``j`` here, at most ``j`` elsewhere), or,
        finding none in it and none anywhere, likes its shape; and of those who tie
        with matches, only one whose tied products cost no more than it (``dearer``:
        the highest price wins the tie). One who pays ``seat`` something today pays
        it at most the price now. So the bound is today's takings plus, for each
        customer who may pay the price, what the price adds to what they pay today."""
        best_above = self.best_above  # (long enough for every count of hashtags + 1)
        at_least = self.match_counts(tags)
        may_pay_price = self.liking_shape(shape) & ~best_above[1] & ~at_least[1]
        dearer = self.dearer(price)
        for hits in range(1, len(at_least) - 1):
            exactly = at_least[hits] & ~at_least[hits + 1]
            # more matches here than anywhere, or as many where nothing costs more
            may_pay_price |= exactly & ~best_above[hits + 1] & ~(best_above[hits] & dearer)
        may_pay_price &= self.reach(price)
        total = self.takings(seat)
        for paid, group in self.paid_groups(seat):
            if paid < price:
                total += (price - paid) * count_customers(may_pay_price & group)
            may_pay_price &= ~group
        return total + price * count_customers(may_pay_price)

    def sales_bounds(
        self, prices: list[int], tag_masks: list[int], shape: int, seat: int
    ) -> list[int]:
        """``sales_bound(prices[j], tag_masks[j], shape, seat)`` for every ``j``: the
        keep's choices of one hand, bounded in one pass.

        The same sets as ``sales_bound`` (``tests/test_food_advice_pruned_choices.py``
        holds the two equal), with what depends on the seat and shape alone (today's
        takings, the price groups, the customers a shape alone can win) found once, and
        the customers finding one, two and three of a product's hashtags kept in plain
        integers instead of ``match_counts``' list (storing a mask in a list makes a
        Python object of it in compiled code: ``bound``); a product of more than three
        hashtags (never three cards) is bounded by ``sales_bound`` itself."""
        liking = self.game.regular_liking_tag
        priced = len(self.dearer_table())  # (every price some budget covers)
        shape_alone = self.liking_shape(shape) & ~self.above_1
        takings = self.takings(seat)
        groups = self.paid_groups(seat)
        bounds: list[int] = []
        for j in range(len(prices)):
            price, tags = prices[j], tag_masks[j]
            if price >= priced:  # (beyond every budget: today's takings, as ``sales_bound``)
                bounds.append(takings)
                continue
            one = two = three = hashtags = 0
            rest = tags
            while rest:  # (set bits inline: see ``match_counts``)
                low = rest & -rest
                rest ^= low
                like = liking[low.bit_length() - 1]
                three |= two & like
                two |= one & like
                one |= like
                hashtags += 1
            if hashtags > 3:
                bounds.append(self.sales_bound(price, tags, shape, seat))
                continue
            bounds.append(self.bound(price, one, two, three, shape_alone, takings, groups))
        return bounds

    def keep_bounds(self, cards: list[int], shape: int, seat: int) -> list[int]:
        """The ``sales_bound`` of the product made of each choice of three of ``cards``,
        in ``combinations`` order (the keep's choices of a hand): ``sales_bounds`` of
        ``combination_products`` in one pass (the bounds alone: the keep works out the
        two or three products it values again), by nested loops over
        the cards' places, the customers finding one and two of the first cards'
        hashtags found once for every third card (a card whose hashtag is among the
        cards before it adds none). ``tests/test_food_advice_pruned_choices.py`` holds
        it to those two."""
        game = self.game
        ing_price, ing_tag, liking = game.ing_price, game.ing_tag, game.regular_liking_tag
        card_prices = [ing_price[c] for c in cards]
        card_tags = [1 << ing_tag[c] for c in cards]
        card_likes = [liking[ing_tag[c]] for c in cards]
        priced = len(self.dearer_table())  # (every price some budget covers)
        shape_alone = self.liking_shape(shape) & ~self.above_1
        takings = self.takings(seat)
        groups = self.paid_groups(seat)
        bounds: list[int] = []
        n = len(cards)
        for a in range(n - 2):
            price_a, tags_a, one_a = card_prices[a], card_tags[a], card_likes[a]
            for b in range(a + 1, n - 1):
                price_b, tag, like = price_a + card_prices[b], card_tags[b], card_likes[b]
                if tags_a & tag:
                    tags_b, one_b, two_b = tags_a, one_a, 0
                else:
                    tags_b, one_b, two_b = tags_a | tag, one_a | like, one_a & like
                for c in range(b + 1, n):
                    price, tag, like = price_b + card_prices[c], card_tags[c], card_likes[c]
                    if tags_b & tag:
                        one, two, three = one_b, two_b, 0
                    else:
                        one, two, three = one_b | like, two_b | (one_b & like), two_b & like
                    if price >= priced:  # (beyond every budget)
                        bounds.append(takings)
                    else:
                        bounds.append(
                            self.bound(price, one, two, three, shape_alone, takings, groups)
                        )
        return bounds

    def bound(
        self,
        price: int,
        one: int,
        two: int,
        three: int,
        shape_alone: int,
        takings: int,
        groups: list[tuple[int, int]],
    ) -> int:
        """``sales_bound`` of a product at ``price`` (below ``len(dearer_table())``) of
        at most three hashtags, in which the customers ``one``, ``two`` and ``three``
        find at least one, two and three of theirs, for a seat taking ``takings`` today
        in these price ``groups`` (``paid_groups``), whose shape alone wins the
        customers ``shape_alone`` (``liking_shape`` without any match today)."""
        above_1, above_2, above_3 = self.above_1, self.above_2, self.above_3
        dearer = self.dearer_table()[price]
        # exactly j here: more than anywhere, or as many where nothing costs more
        may_pay_price = shape_alone & ~one
        may_pay_price |= one & ~two & ~above_2 & ~(above_1 & dearer)
        may_pay_price |= two & ~three & ~above_3 & ~(above_2 & dearer)
        may_pay_price |= three & ~self.above_4 & ~(above_3 & dearer)
        may_pay_price &= self.game.regular_affording[price]  # (``reach``)
        total = takings
        for paid, group in groups:
            if paid < price:
                total += (price - paid) * count_customers(may_pay_price & group)
            may_pay_price &= ~group
        return total + price * count_customers(may_pay_price)

    def dearer(self, price: int) -> int:
        """The customers with at least one hashtag match today (``best_of`` > 0) whose
        best-matching products within budget include one dearer than ``price``: a new
        product at ``price`` tying their matches loses the tie (``market.choose`` step
        2, the price closest to the budget; every pooled product is within it)."""
        known = 0
        for k, pool in enumerate(self.pools):
            if self.best_of[k] > 0:
                for o in pool:
                    if o.price > price:
                        known |= 1 << k
                        break
        return known

    def dearer_table(self) -> list[int]:
        """``dearer(price)`` for every price some budget covers (0 up to the highest
        budget), made in one pass at the first ask: each customer joins the prices below
        their dearest pooled product (``tests/test_food_advice_pruned_choices.py``
        holds it to ``dearer``). The keep bounds twenty hands of each seat on a table,
        and working each price out over every customer cost more than all of them."""
        table = self._dearer
        if table is None:
            size = len(self.game.regular_affording)
            # below[p]: the customers whose dearest pooled product costs p + 1 (at most
            # ``size``: every pooled product is within a budget)
            below = [0] * (size + 1)
            for k, pool in enumerate(self.pools):
                if self.best_of[k] > 0:
                    top = 0
                    for o in pool:
                        if o.price > top:
                            top = o.price
                    if top > 0:
                        at = min(top, size) - 1
                        below[at] = below[at] | (1 << k)
            table = [0] * size
            dearer = 0
            for price in range(size - 1, -1, -1):
                dearer |= below[price]
                table[price] = dearer
            self._dearer = table
        return table

    def takings(self, seat: int) -> int:
        """What ``seat`` takes from the regular customers today."""
        known = self._takings.get(seat)
        if known is None:
            known = 0
            for paid, group in self.paid_groups(seat):
                known += paid * count_customers(group)
            self._takings[seat] = known
        return known


__all__ = [
    "Baseline",
    "TableChoices",
    "count_customers",
    "within_budget",
]
