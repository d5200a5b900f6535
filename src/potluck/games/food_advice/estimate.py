"""FoodAdvice's standings: each seat's foodcoins plus what the customers are expected
to pay it, for search bots that cut a game short mid-round (``Game.standings``).

Foodcoins move only when products sell at the end of a round, so foodcoins alone
score every offer, discard, vote and chip of a round the same. The estimate adds,
for every selling still to come (this round's and the later rounds'), the average
over the customer cards (``tables.buyers``: regular customers by the rulebook's
order, Jokers by theirs) of what each would pay each seat, times the customers a
round draws, with every product on the table plus the ones still in the players'
hands (the best ``kept`` cards of a larger hand, by the greedy bot's forecast,
``forecast.Baseline``). This round's selling counts its shop bonuses, Flavor
Sampling, Black Friday and Mabius chips; later sellings count the table as it is,
without chips and without the products still to be made. Votes cast but not yet
tallied count their reward. Advertising and event customers are left out.

It draws nothing from the state's generator and reads only the state. Repeated
tables, hands and chips are looked up in small caches (a search's worlds share
most of them): about 10-30 µs a call then, a few hundred µs when nothing repeats
(measured on a loaded machine). Once the game is over it is the foodcoins, the
final scores.

    >>> import potluck
    >>> game = potluck.load_game("food-advice")
    >>> state = game.new_game(4, seed=7)  # the first deal: hands, no product yet
    >>> state.money, [round(x) for x in standings(game, state)]
    ([0, 0, 0, 0], [65, 143, 129, 82])
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from potluck.games.food_advice.forecast import Baseline
from potluck.games.food_advice.market import Offer, choose, joker_buys
from potluck.games.food_advice.presentation import offers as products_on_offer
from potluck.games.food_advice.selling import shop_term_met
from potluck.games.food_advice.state import NAMING, VOTING, FoodState
from potluck.games.food_advice.tables import FoodTables

#: How many tables (and hands) the caches keep: a search revisits a few hundred.
_CACHE = 512


def standings(tables: FoodTables, state: FoodState) -> tuple[float, ...]:
    """Each seat's foodcoins plus its expected takings from the sellings still to come
    (the foodcoins alone once the game is over)."""
    money = [float(m) for m in state.money]
    if not state.acting:  # over: the final scores
        return tuple(money)
    n = state.num_players
    sellings = tables.rounds - state.round  # this round's and the later ones
    table = tuple(products_on_offer(tables, state))
    if state.phase <= NAMING:
        # This round's products are still in the hands, and no chip is placed yet.
        made = len(state.prod_ings)
        pending = []
        for seat in range(n):
            shape, hand = state.dealt_shape[seat], tuple(sorted(state.hands[seat]))
            if shape >= 0 and hand:
                price, tags = _best_product(tables, table, seat, shape, hand)
                pending.append(Offer(made + seat, seat, shape, price, tags))
        each = _plain_takings(tables, table, tuple(pending), n)
        return tuple(m + sellings * e for m, e in zip(money, each, strict=True))
    if state.phase == VOTING:  # votes cast but not yet paid
        reward = tables.data.table.vote_reward
        for target in state.votes:
            if target >= 0:
                money[target] += reward
    now = _takings(
        tables,
        table,
        n,
        _channel_mask(state.channel_chips, tables.black_friday),
        _channel_mask(state.channel_chips, tables.flavor),
        state.board,
        tuple(state.shop_chips),
        tuple(state.invest),
    )
    if sellings > 1:
        later = _plain_takings(tables, table, (), n)
        return tuple(m + a + (sellings - 1) * b for m, a, b in zip(money, now, later, strict=True))
    return tuple(m + a for m, a in zip(money, now, strict=True))


def _channel_mask(channel_chips: list[int], channel: int) -> int:
    """The seats holding a chip on promotion ``channel``, as a bit mask."""
    return sum(1 << s for s, chips in enumerate(channel_chips) if chips >> channel & 1)


@lru_cache(maxsize=_CACHE)
def _baseline(tables: FoodTables, table: tuple[Offer, ...]) -> Baseline:
    return Baseline(tables, list(table))


@lru_cache(maxsize=_CACHE)
def _product_values(tables: FoodTables, table: tuple[Offer, ...]) -> dict[tuple[int, ...], int]:
    """What a new product sells against ``table``, by (seat, shape, price, hashtags)."""
    return {}


@lru_cache(maxsize=_CACHE * 8)
def _best_product(
    tables: FoodTables, table: tuple[Offer, ...], seat: int, shape: int, hand: tuple[int, ...]
) -> tuple[int, int]:
    """(price, hashtag mask) of the product ``seat`` makes from ``hand``: the hand
    itself, or the best ``kept`` cards of a larger hand by what they would sell
    against today's table (as the greedy bot keeps them)."""
    prices, tag_of = tables.ing_price, tables.ing_tag
    size = min(tables.kept, len(hand))
    best: tuple[int, int, int] = (-1, 0, 0)
    values = _product_values(tables, table) if len(hand) > size else {}
    for combo in combinations(hand, size):
        price = tags = 0
        for i in combo:
            price += prices[i]
            tags |= 1 << tag_of[i]
        if len(hand) == size:
            return price, tags
        key = (seat, shape, price, tags)
        value = values.get(key)
        if value is None:
            base = _baseline(tables, table)
            value = values[key] = base.new_product_sales(price, tags, shape, seat)
        if value > best[0]:
            best = (value, price, tags)
    return best[1], best[2]


@lru_cache(maxsize=_CACHE * 8)
def _plain_takings(
    tables: FoodTables, table: tuple[Offer, ...], pending: tuple[Offer, ...], players: int
) -> tuple[float, ...]:
    """``_takings`` without promotion or shop chips, for the products on ``table``
    and ``pending`` (not yet on it): each regular customer chooses among the
    best-matching products of the table within budget (``Baseline.pools``, all
    the rest lose to them) and the pending ones."""
    base = _baseline(tables, table)
    earned = [0.0] * players
    for k, buyer in enumerate(base.buyers):
        if pending:
            choice = choose(buyer, [*base.pools[k], *pending])
            if choice.offer is not None:
                earned[choice.offer.seller] += choice.paid
        else:
            seller = base.seller_of[k]
            if seller >= 0:
                earned[seller] += base.paid_of[k]
    offers = table + pending
    for customer, joker in enumerate(tables.cust_joker):
        if not joker:
            continue
        for offer in joker_buys(tables.buyers[customer], offers):
            earned[offer.seller] += offer.price
    scale = tables.per_round / len(tables.buyers)
    return tuple(e * scale for e in earned)


@lru_cache(maxsize=_CACHE)
def _takings(
    tables: FoodTables,
    offers: tuple[Offer, ...],
    players: int,
    black_friday: int,
    flavor: int,
    board: tuple[int, ...],
    shop_chips: tuple[int, ...],
    invest: tuple[int, ...],
) -> tuple[float, ...]:
    """Per seat: what one selling's customers pay it on average (and its shops and
    Mabius investments), as ``selling.sell`` and ``selling.pay_sale`` pay them."""
    earned = [0.0] * players
    limit = tables.black_friday_limit
    shape_bonus = tables.shape_match_bonus
    profit = tables.mabius_profit
    for customer, buyer in enumerate(tables.buyers):
        if tables.cust_joker[customer]:
            bought = [(offer, offer.price) for offer in joker_buys(buyer, offers)]
            regular = False
        else:
            choice = choose(buyer, offers, black_friday, flavor, limit)
            bought = [] if choice.offer is None else [(choice.offer, choice.paid)]
            regular = True
        for offer, paid in bought:
            seller = offer.seller
            earned[seller] += paid
            if regular:
                chips = shop_chips[seller]
                for slot, shop in enumerate(board):
                    if chips >> slot & 1:
                        if shop_term_met(tables, shop, customer, offer):
                            earned[seller] += tables.shop_bonus[shop]
                        if tables.shop_shapes[shop] >> offer.shape & 1:
                            earned[seller] += shape_bonus
            for seat in range(players):
                if invest[seat] == seller:
                    earned[seat] += profit
    scale = tables.per_round / len(tables.buyers)
    return tuple(e * scale for e in earned)


__all__ = ["standings"]
