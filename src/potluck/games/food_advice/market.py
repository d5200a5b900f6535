"""How customers choose products (rulebook, "How customers choose products").

Pure functions over ``Offer`` tuples, so that the rulebook's worked examples
can be tested on their own. Hashtags and shapes are bit masks over the data's
hashtag and shape lists.

    >>> hipster = Buyer(tags=0b111, shapes=0b1, budget=40)
    >>> chips = Offer(product=0, seller=1, shape=2, price=25, tags=0b101)
    >>> choc = Offer(product=1, seller=2, shape=3, price=35, tags=0b100)
    >>> choose(hipster, [choc, chips]).offer is chips
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

#: Why a customer bought or left, as words for the sales log.
BY_FLAVOUR: Final = "most hashtag matches"
BY_PRICE: Final = "price closest to the budget"
BY_SHAPE: Final = "favourite shape"
BY_SAMPLING: Final = "Flavor Sampling"
LEFT_NOTHING: Final = "nothing on offer within budget"
LEFT_NO_MATCH: Final = "no hashtag match and no favourite shape"
LEFT_UNDECIDED: Final = "could not choose"


class Offer(NamedTuple):
    """A product on offer: its index, seller, shape, price and hashtag mask."""

    product: int
    seller: int
    shape: int
    price: int
    tags: int


class Buyer(NamedTuple):
    """A customer: taste hashtags and favourite shapes (masks) and budget."""

    tags: int
    shapes: int
    budget: int


class Choice(NamedTuple):
    """What one customer did: the offer bought (``None``: left), the price paid, why."""

    offer: Offer | None
    paid: int
    reason: str


#: ``tuple.__new__``, looked up once: compiled code looked it up on ``tuple`` as a
#: method at every call (``PyObject_VectorcallMethod``), most of a Choice's cost.
_NEW_TUPLE: Final = tuple.__new__
#: The classes, read once (compiled code looks a Python class up by name at each use).
_CHOICE: Final = Choice
_OFFER: Final = Offer


def _choice(offer: Offer | None, paid: int, reason: str) -> Choice:
    """``Choice(offer, paid, reason)``, built without the Python-level ``__new__`` that
    a NamedTuple's constructor runs: ``choose`` runs for every customer of every sale a
    bot simulates, and from compiled code that ``__new__`` was up to a tenth of the greedy
    bot's time (cProfile of the compiled build, issue 36). The same tuple."""
    return _NEW_TUPLE(_CHOICE, (offer, paid, reason))


#: The choices of a customer who leaves, made once: a Choice is a tuple, never changed,
#: and most of a sale's customers leave without buying.
_LEAVES_NOTHING: Final = _choice(None, 0, LEFT_NOTHING)
_LEAVES_NO_MATCH: Final = _choice(None, 0, LEFT_NO_MATCH)
_LEAVES_UNDECIDED: Final = _choice(None, 0, LEFT_UNDECIDED)


def new_offer(product: int, seller: int, shape: int, price: int, tags: int) -> Offer:
    """``Offer(product, seller, shape, price, tags)`` without the NamedTuple's Python-level
    ``__new__`` (as ``_choice``): every sale lists the products on offer. The same tuple."""
    return _NEW_TUPLE(_OFFER, (product, seller, shape, price, tags))


#: How many bits are set in each byte.
_BITS_IN_BYTE: Final = tuple(bin(byte).count("1") for byte in range(256))


def count_bits(mask: int) -> int:
    """``mask.bit_count()``, by table for masks of up to 64 bits: compiled code calls the
    method through Python (tens of nanoseconds), and the greedy bot counts its sets of
    the 40 regular customers at most of its decisions (``count_few_bits`` counts the
    sparse masks: hashtag matches and chips).

        >>> count_bits(0b1011), count_bits(1 << 40 | 1), count_bits(1 << 70 | 1)
        (3, 2, 2)
    """
    if mask >= 0:
        high = mask >> 32
        if high == 0:
            return _count_word(mask)
        if high >> 32 == 0:
            return _count_word(mask & 0xFFFFFFFF) + _count_word(high)
    return mask.bit_count()


def _count_word(word: int) -> int:
    """The bits set in ``word``, a whole number below 2**32, by table."""
    return (
        _BITS_IN_BYTE[word & 255]
        + _BITS_IN_BYTE[word >> 8 & 255]
        + _BITS_IN_BYTE[word >> 16 & 255]
        + _BITS_IN_BYTE[word >> 24]
    )


def count_few_bits(mask: int) -> int:
    """``mask.bit_count()`` for a whole number (>= 0) with few bits set, by clearing its
    lowest bit until none is left: the hashtags a customer and a product share are at
    most the product's ingredients, and a seat's chips at most five, and for so few bits
    this is cheaper than ``count_bits``'s four table look-ups (hashtag matches are
    counted for every customer and product of every sale, chips at every placing step).

        >>> count_few_bits(0), count_few_bits(0b1011), count_few_bits(1 << 25 | 1)
        (0, 3, 2)
    """
    count = 0
    while mask > 0:
        mask &= mask - 1
        count += 1
    return count


def matches(buyer: Buyer, offer: Offer) -> int:
    """How many of the buyer's hashtags the product carries."""
    return count_few_bits(buyer.tags & offer.tags)


def choose(
    buyer: Buyer,
    offers: Sequence[Offer],
    black_friday: int = 0,
    flavor_sampling: int = 0,
    limit: int = 20,
) -> Choice:
    """A regular customer's choice among every product on offer (rulings FA-4, FA-6, FA-9).

    1. Only products within budget count (a Black Friday seller's product up to
       ``limit`` over budget counts too, sold at the budget).
    2. The most hashtag matches; among those the price closest to the budget.
    3. Still tied, or no match at all: the favourite shape.
    4. Still tied: a Flavor Sampling seller's product, if exactly one such seller is
       among them (their newest product if two of theirs are tied).
    5. Otherwise the customer leaves.

    ``black_friday`` and ``flavor_sampling`` are bit masks of seats. The choice depends
    on which products are on offer, not on their order. Step 1 with the first half of
    step 2 (``best_matches``) and the rest (``choose_among``) are apart so that a bot
    weighing many tables can keep the first and ask the second of fewer products.
    """
    # (a list is walked by place in compiled code; any other sequence through an
    # iterator object, one more for the garbage collector to count)
    listed = offers if isinstance(offers, list) else list(offers)
    best, pool = best_matches(buyer, listed, black_friday, limit)
    return choose_among(buyer, best, pool, flavor_sampling)


def best_matches(
    buyer: Buyer, offers: list[Offer], black_friday: int = 0, limit: int = 20
) -> tuple[int, list[Offer]]:
    """``choose``'s first steps: the most hashtag matches among the products the buyer
    can reach (-1: none), and those products, in the order of ``offers``.

    ``choose`` picks among these alone, so the choice among more products is the choice
    among their ``best_matches`` together (a product reaching fewer matches loses).

        >>> fan = Buyer(tags=0b11, shapes=0, budget=30)
        >>> best_matches(fan, [Offer(0, 0, 0, 20, 0b1), Offer(1, 1, 0, 40, 0b11)])
        (1, [Offer(product=0, seller=0, shape=0, price=20, tags=1)])
    """
    # One pass keeps the reachable products with the most matches (this runs for every
    # customer in every sale, simulated or played, so it is the bots' hot loop). The pool
    # holds offers alone: what a pooled product costs the customer (``_paid``) follows
    # from its price and the budget, and a tuple per product made work for the garbage
    # collector in every sale (issue 36).
    best = -1
    pool: list[Offer] = []
    budget, tags, over = buyer.budget, buyer.tags, buyer.budget + limit
    for o in offers:
        price = o.price
        if price > budget and not (black_friday >> o.seller & 1 and price <= over):
            continue
        hits = count_few_bits(tags & o.tags)
        if hits > best:
            best = hits
            pool = [o]
        elif hits == best:
            pool.append(o)
    return best, pool


def choose_among(buyer: Buyer, best: int, pool: list[Offer], flavor_sampling: int) -> Choice:
    """``choose``'s later steps among ``pool``, the reachable products with the most
    hashtag matches, ``best`` of them (``best_matches``): ``pick_among``'s pick as a
    ``Choice``."""
    place, paid, why = pick_among(buyer, best, pool, flavor_sampling)
    if place < 0:
        return _LEAVES[why]
    return _choice(pool[place], paid, _REASONS[why])


#: ``pick_among``'s reasons, by number: why the customer bought, then why they left.
_REASONS: Final = (BY_FLAVOUR, BY_PRICE, BY_SHAPE, BY_SAMPLING)
_WHY_FLAVOUR: Final = 0
_WHY_PRICE: Final = 1
_WHY_SHAPE: Final = 2
_WHY_SAMPLING: Final = 3
_WHY_NOTHING: Final = 4
_WHY_NO_MATCH: Final = 5
_WHY_UNDECIDED: Final = 6
#: ``pick_among``'s reason when the customer could not choose (Flavor Sampling may).
PICK_UNDECIDED: Final = _WHY_UNDECIDED
#: The choices of a customer who leaves, by ``pick_among``'s reason.
_LEAVES: Final = (
    _LEAVES_NOTHING,
    _LEAVES_NOTHING,
    _LEAVES_NOTHING,
    _LEAVES_NOTHING,
    _LEAVES_NOTHING,
    _LEAVES_NO_MATCH,
    _LEAVES_UNDECIDED,
)


def pick_among(
    buyer: Buyer, best: int, pool: list[Offer], flavor_sampling: int
) -> tuple[int, int, int]:
    """``choose_among``'s choice as numbers: (the place in ``pool`` of the product
    bought, -1 if the customer leaves; the price paid, 0 if none; why, an index into
    ``_REASONS`` when they buy). Three machine words in compiled code, no object made:
    the greedy bot's removals and promotion chips ask it for each customer they
    weigh and read only who sells and for how much.

    Each step narrows the products still tied by counting them in a pass over ``pool``
    and keeping the last one seen, without a list per step: each list was a Python
    object made and freed for every customer of every sale, played or simulated by a
    bot (issue 36). ``tests/test_food_advice_fast_paths.py`` holds ``choose`` to the
    rulebook's order one filter at a time.
    """
    if best < 0:
        return -1, 0, _WHY_NOTHING
    if not pool:  # (``best_matches`` never gives this: as the steps would end)
        return -1, 0, _WHY_UNDECIDED if best > 0 else _WHY_NO_MATCH
    budget, shapes = buyer.budget, buyer.shapes
    # Which of ``pool`` are still tied: those paying ``top`` (-1: any price), and with
    # a favourite shape when ``shaped_only``.
    shaped_only = False
    if best > 0:
        if len(pool) == 1:
            return 0, _paid(pool[0], budget), _WHY_FLAVOUR
        top = _top_paid(pool, budget, False, shapes)
        count, last = _tied(pool, budget, top, False, shapes)
        if count == 1:
            return last, top, _WHY_PRICE
        count, last = _tied(pool, budget, top, True, shapes)
        if count == 1:
            return last, top, _WHY_SHAPE
        shaped_only = count > 0
    else:
        count, last = _tied(pool, budget, -1, True, shapes)
        if count == 0:
            return -1, 0, _WHY_NO_MATCH
        if count == 1:
            return last, _paid(pool[last], budget), _WHY_SHAPE
        top = _top_paid(pool, budget, True, shapes)
        count, last = _tied(pool, budget, top, True, shapes)
        if count == 1:
            return last, top, _WHY_SHAPE
        shaped_only = True
    # One Flavor Sampling player among the tied: the customer buys from them; between
    # two of their products, the newest (ruling FA-6, as for an extra customer's tie,
    # FA-12).
    sampled = -1
    for place in range(len(pool)):
        o = pool[place]
        if _paid(o, budget) != top or (shaped_only and not shapes >> o.shape & 1):
            continue
        if flavor_sampling >> o.seller & 1:
            if sampled < 0:
                sampled = place
            elif o.seller != pool[sampled].seller:
                return -1, 0, _WHY_UNDECIDED  # two sellers sampling: no choice
            elif o.product > pool[sampled].product:
                sampled = place
    if sampled >= 0:
        return sampled, _paid(pool[sampled], budget), _WHY_SAMPLING
    return -1, 0, _WHY_UNDECIDED


def _top_paid(pool: list[Offer], budget: int, shaped_only: bool, shapes: int) -> int:
    """The highest price paid (the closest to the budget, ``choose`` step 2) among the
    products of ``pool`` (those with a favourite shape alone when ``shaped_only``)."""
    top = -1
    for o in pool:
        if shaped_only and not shapes >> o.shape & 1:
            continue
        paid = _paid(o, budget)
        if paid > top:
            top = paid
    return top


def _tied(
    pool: list[Offer], budget: int, top: int, shaped_only: bool, shapes: int
) -> tuple[int, int]:
    """How many products of ``pool`` pay ``top`` (-1: any price) and, when
    ``shaped_only``, have a favourite shape; and the place of the last of them (0 if
    none)."""
    count = last = 0
    for place in range(len(pool)):
        o = pool[place]
        if top >= 0 and _paid(o, budget) != top:
            continue
        if shaped_only and not shapes >> o.shape & 1:
            continue
        count += 1
        last = place
    return count, last


def _paid(offer: Offer, budget: int) -> int:
    """What a customer with ``budget`` pays for a product they may buy: its price, or
    the budget for a Black Friday product over it (``choose`` step 1)."""
    return offer.price if offer.price <= budget else budget


def choose_extra(buyer: Buyer, offers: Sequence[Offer]) -> Choice:
    """An extra personal customer buys one of this player's products, always (ruling FA-12).

    The usual order picks among the player's products (matches, then the price
    closest to the budget counting an over-budget product at the budget, then
    shape); if that leaves a tie, the newest product. A product over budget is
    sold at the customer's budget (the Mary Shoppins example).

    One pass keeps the product that is first by that order (most matches, then the
    highest price up to the budget, then a favourite shape, then the newest).
    """
    pick: Offer | None = None
    best = top = shaped = newest = -1
    budget, tags, shapes = buyer.budget, buyer.tags, buyer.shapes
    for o in offers:
        hits = count_few_bits(tags & o.tags)
        capped = o.price if o.price < budget else budget
        liked = shapes >> o.shape & 1
        if (
            pick is None
            or hits > best
            or (
                hits == best
                and (
                    capped > top
                    or (
                        capped == top
                        and (liked > shaped or (liked == shaped and o.product > newest))
                    )
                )
            )
        ):
            pick, best, top, shaped, newest = o, hits, capped, liked, o.product
    if pick is None:
        return _LEAVES_NOTHING
    return _choice(pick, top, BY_FLAVOUR if best else BY_SHAPE)


def joker_buys(buyer: Buyer, offers: Sequence[Offer]) -> list[Offer]:
    """What a Joker buys (ruling FA-7): every product with a hashtag match (or, if none
    matches, with one of his shapes), most matches first, then the most expensive,
    then the oldest, while his budget lasts; he skips what he can no longer afford."""
    pool = [o for o in offers if matches(buyer, o) > 0]
    if not pool:
        pool = [o for o in offers if buyer.shapes >> o.shape & 1]
    pool.sort(key=lambda o: (-matches(buyer, o), -o.price, o.product))
    left, bought = buyer.budget, []
    for offer in pool:
        if offer.price <= left:
            bought.append(offer)
            left -= offer.price
    return bought


def extra_customer_buys(buyer: Buyer, offers: Sequence[Offer], joker: bool) -> list[Choice]:
    """What an extra personal customer buys from the player who drew them (ruling FA-12):
    at least one product whenever the player has one, a Joker's usual buys if he finds any.

        >>> joker = Buyer(tags=0b1, shapes=0b1, budget=150)
        >>> odd = Offer(product=0, seller=1, shape=2, price=30, tags=0b10)
        >>> [c.paid for c in extra_customer_buys(joker, [odd], joker=True)]
        [30]
    """
    if joker:
        bought = joker_buys(buyer, offers)
        if bought:
            return [_choice(offer, offer.price, "Joker") for offer in bought]
    choice = choose_extra(buyer, offers)
    return [choice] if choice.offer is not None else []
