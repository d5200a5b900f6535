"""FoodAdvice's greedy bot works a table out from the table before it when products
join it (issue 36): ``forecast.TableChoices`` goes on from the choices of the table's
first products, and the game's ``TableMemo`` hands the table looked up last to the one
made after it and answers a repeated look-up without its dict. Each is held here to the
table worked out whole.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import test_food_advice_pruned_choices as pruned
from food_advice_helpers import random_play_state, state_lists
from potluck.games.food_advice.forecast import TableChoices
from potluck.games.food_advice.game import FoodAdvice
from potluck.games.food_advice.market import LEFT_UNDECIDED, Offer, choose, choose_among
from potluck.games.food_advice.shared_tables import Product, TableMemo

GAME = FoodAdvice()


def _same(a: TableChoices, b: TableChoices) -> None:
    assert a.count == b.count
    assert a.bests == b.bests
    assert a.pools == b.pools
    assert a.bought == b.bought
    assert a.paid == b.paid
    assert a.undecided == b.undecided


@settings(max_examples=300, deadline=None)
@given(offers=pruned.tables(), data=st.data())
def test_a_table_from_its_first_products_is_the_table_worked_out_whole(
    offers: list[Offer], data: st.DataObject
) -> None:
    first = data.draw(st.integers(0, len(offers)))
    before = TableChoices(GAME, offers[:first])
    after = TableChoices(GAME, offers, before)
    _same(after, TableChoices(GAME, offers))
    # Customers whose pool did not change keep the earlier table's choice, the same tuple
    # (identity: the bot tells products apart by it).
    for k, pool in enumerate(after.pools):
        for o in pool:
            assert any(o is p for p in offers)
        bought = after.bought[k]
        assert bought is None or any(bought is p for p in pool)


@settings(max_examples=300, deadline=None)
@given(offers=pruned.tables())
def test_the_choices_kept_as_numbers_are_the_rules(offers: list[Offer]) -> None:
    """Each customer's offer bought and price paid, kept without a ``Choice``, and the
    undecided customers are ``market.choose``'s over the whole table (without promotion
    chips) and ``choose_among``'s over their pool."""
    chosen = TableChoices(GAME, offers)
    for k, c in enumerate(GAME.regular_customers):
        whole = choose(GAME.buyers[c], offers, 0, 0, GAME.black_friday_limit)
        among = choose_among(chosen.buyers[k], chosen.bests[k], chosen.pools[k], 0)
        assert chosen.choice(k) == among == whole
        assert chosen.bought[k] is whole.offer
        assert chosen.paid[k] == whole.paid
        assert (chosen.undecided >> k & 1 == 1) == (whole.reason == LEFT_UNDECIDED)


def _products_of(players: int, seed: int, steps: int) -> tuple[Product, ...]:
    return GAME.bot_view(random_play_state(GAME, players, seed, steps), 0).products


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(4, 6),
    seed=st.integers(96000, 96199),
    steps=st.lists(st.integers(0, 260), min_size=1, max_size=6),
    worked=st.lists(st.booleans(), min_size=6, max_size=6),
)
def test_the_memo_hands_each_table_what_a_fresh_one_works_out(
    players: int, seed: int, steps: list[int], worked: list[bool]
) -> None:
    """A game's tables looked up in play order (products join, events trim them, and
    a table comes back), some of them worked out before the next is made."""
    memo = TableMemo()
    for step, work in zip(sorted(steps), worked, strict=False):
        products = _products_of(players, seed, step)
        table = memo.table(GAME, products)
        assert table.products == products
        assert memo.table(GAME, products) is table
        if work:
            fresh = TableMemo().table(GAME, products)
            assert table.offers == fresh.offers
            _same(table.chosen(), fresh.chosen())
            for k, pool in enumerate(table.chosen().pools):
                assert all(any(o is p for p in table.offers) for o in pool), k


@settings(max_examples=60, deadline=None)
@given(
    looks=state_lists((102000, 102199), 260, 8),
)
def test_a_new_games_first_table_forgets_the_games_before(
    looks: list[tuple[int, int, int]],
) -> None:
    """Tables of several games looked up in any order (a new game asks for the empty
    table first): the empty table forgets every other, each table is what a fresh memo
    works out, and no two tables made share a number."""
    memo = TableMemo()
    serials: dict[int, tuple[Product, ...]] = {}
    for players, seed, step in looks:
        products = _products_of(players, seed, step)
        table = memo.table(GAME, products)
        if not products:
            assert list(memo.tables) == [()]
        assert serials.setdefault(table.serial, products) == products
        fresh = TableMemo().table(GAME, products)
        assert table.offers == fresh.offers
        _same(table.chosen(), fresh.chosen())
