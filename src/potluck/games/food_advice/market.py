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


def _choice(offer: Offer | None, paid: int, reason: str) -> Choice:
    """``Choice(offer, paid, reason)``, built without the Python-level ``__new__`` that
    a NamedTuple's constructor runs: ``choose`` runs for every customer of every sale a
    bot simulates, and from compiled code that ``__new__`` was up to a tenth of the greedy
    bot's time (cProfile of the compiled build, issue 36). The same tuple."""
    return tuple.__new__(Choice, (offer, paid, reason))


def new_offer(product: int, seller: int, shape: int, price: int, tags: int) -> Offer:
    """``Offer(product, seller, shape, price, tags)`` without the NamedTuple's Python-level
    ``__new__`` (as ``_choice``): every sale lists the products on offer. The same tuple."""
    return tuple.__new__(Offer, (product, seller, shape, price, tags))


#: How many bits are set in each byte.
_BITS_IN_BYTE: Final = tuple(bin(byte).count("1") for byte in range(256))


def count_bits(mask: int) -> int:
    """``mask.bit_count()``, by table for masks of up to 32 bits: compiled code calls the
    method through Python (tens of nanoseconds), and hashtag matches and chip counts are
    taken at most steps.

        >>> count_bits(0b1011), count_bits(1 << 40 | 1)
        (3, 2)
    """
    if 0 <= mask < 1 << 32:
        return (
            _BITS_IN_BYTE[mask & 255]
            + _BITS_IN_BYTE[mask >> 8 & 255]
            + _BITS_IN_BYTE[mask >> 16 & 255]
            + _BITS_IN_BYTE[mask >> 24]
        )
    return mask.bit_count()


def matches(buyer: Buyer, offer: Offer) -> int:
    """How many of the buyer's hashtags the product carries."""
    return count_bits(buyer.tags & offer.tags)


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

    ``black_friday`` and ``flavor_sampling`` are bit masks of seats.
    """
    # One pass keeps the reachable products with the most matches (this runs for every
    # customer in every simulated sale, so it is the bots' hot loop).
    best, pool = -1, []
    budget, tags, over = buyer.budget, buyer.tags, buyer.budget + limit
    if black_friday:
        for o in offers:
            if o.price <= budget:
                paid = o.price
            elif black_friday >> o.seller & 1 and o.price <= over:
                paid = budget
            else:
                continue
            hits = count_bits(tags & o.tags)
            if hits > best:
                best, pool = hits, [(o, paid)]
            elif hits == best:
                pool.append((o, paid))
    else:  # the same, for the usual case without a Black Friday chip
        for o in offers:
            if o.price <= budget:
                hits = count_bits(tags & o.tags)
                if hits > best:
                    best, pool = hits, [(o, o.price)]
                elif hits == best:
                    pool.append((o, o.price))
    if best < 0:
        return _choice(None, 0, LEFT_NOTHING)
    if best > 0:
        if len(pool) == 1:
            return _choice(pool[0][0], pool[0][1], BY_FLAVOUR)
        top = max(p for _, p in pool)
        pool = [(o, p) for o, p in pool if p == top]
        if len(pool) == 1:
            return _choice(pool[0][0], pool[0][1], BY_PRICE)
        shaped = [(o, p) for o, p in pool if buyer.shapes >> o.shape & 1]
        if len(shaped) == 1:
            return _choice(shaped[0][0], shaped[0][1], BY_SHAPE)
        if shaped:
            pool = shaped
    else:
        pool = [(o, p) for o, p in pool if buyer.shapes >> o.shape & 1]
        if not pool:
            return _choice(None, 0, LEFT_NO_MATCH)
        if len(pool) == 1:
            return _choice(pool[0][0], pool[0][1], BY_SHAPE)
        top = max(p for _, p in pool)
        pool = [(o, p) for o, p in pool if p == top]
        if len(pool) == 1:
            return _choice(pool[0][0], pool[0][1], BY_SHAPE)
    sampled = [(o, p) for o, p in pool if flavor_sampling >> o.seller & 1]
    if sampled and len({o.seller for o, _ in sampled}) == 1:
        # One Flavor Sampling player: the customer buys from them; between two of their
        # products, the newest (ruling FA-6, as for an extra customer's tie, FA-12).
        offer, paid = max(sampled, key=lambda item: item[0].product)
        return _choice(offer, paid, BY_SAMPLING)
    return _choice(None, 0, LEFT_UNDECIDED)


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
        hits = count_bits(tags & o.tags)
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
        return _choice(None, 0, LEFT_NOTHING)
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
