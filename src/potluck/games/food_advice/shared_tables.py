"""The regular customers' choices on one table, worked out once for every greedy bot of a
game (``SharedTable``, kept by the game's ``TableMemo``): a table is public, so what one
seat's bot works out of it is what any other's would (``forecast`` holds the choices and
the forecast themselves).

    >>> import potluck
    >>> game = potluck.load_game("food-advice")
    >>> memo = TableMemo()
    >>> table = memo.table(game, ())
    >>> table.serial, table.chosen().bought[:2], memo.table(game, ()) is table
    (0, [None, None], True)
"""

from __future__ import annotations

from typing import Final

from potluck.games.food_advice.forecast import Baseline, TableChoices
from potluck.games.food_advice.market import Offer, new_offer
from potluck.games.food_advice.tables import FoodTables

#: The shared tables a game keeps (``TableMemo``) before it forgets them all: a search's
#: worlds make new tables at every simulation, and a game of four seats about five (a
#: new game's first table forgets the games' before it: ``TableMemo.table``).
_TABLES_KEPT: Final = 256

#: A product as ``SeatInfo.products`` lists it: number, owner, shape, price, ingredients.
Product = tuple[int, int, int, int, tuple[int, ...]]
#: (customer, offer, paid) for every regular customer who buys from the table.
Sales = tuple[tuple[int, Offer, int], ...]


class SharedTable:
    """What the regular customers do with one table, worked out once for every greedy
    bot of a game (``TableMemo``): a table is public (every seat sees its products), and
    these depend on it and the card data alone, so the four seats' bots (each with its
    own memo) no longer work the same customers out four times.

    ``serial`` stands for the table in a bot's own memo keys (never reused by a game's
    ``TableMemo``, even after it forgets its tables)."""

    def __init__(
        self,
        game: FoodTables,
        products: tuple[Product, ...],
        serial: int,
        before: SharedTable | None = None,
    ) -> None:
        """``before``: a table whose products are the first of ``products`` (the same
        products joined by more), whose offers and choices this one goes on from."""
        self.serial = serial
        self.products = products
        self.offers: list[Offer] = [] if before is None else list(before.offers)
        for number, owner, shape, price, ings in products[len(self.offers) :]:
            tags = game.product_tags(list(ings))
            self.offers.append(new_offer(number, owner, shape, price, tags))
        self._game = game
        # (the earlier table's choices, if worked out, until this table's are: a table
        # holds no other table, so a game's tables never make a chain)
        self._before: TableChoices | None = None if before is None else before._chosen
        self._chosen: TableChoices | None = None
        self._baseline: Baseline | None = None
        #: ``greedy_mind.Mind.sales`` by its promotion chips (``sales_key``).
        self.sales: dict[int, Sales] = {}
        #: ``greedy_mind.Mind.sold_by``: per seat, how many buy from it without chips.
        self.sold_counts: list[int] | None = None

    def chosen(self) -> TableChoices:
        """What each regular customer does with the table without promotion chips."""
        known = self._chosen
        if known is None:
            known = self._chosen = TableChoices(self._game, self.offers, self._before)
            self._before = None
        return known

    def baseline(self) -> Baseline:
        """The forecast of a new product joining the table."""
        known = self._baseline
        if known is None:
            known = self._baseline = Baseline(self._game, self.offers, self.chosen())
        return known


def sales_key(black_friday: int, flavor: int) -> int:
    """One number for two bit masks of seats (at most ``tables.MAX_SEATS`` bits each)."""
    return black_friday << 8 | flavor


class TableMemo:
    """A game's ``SharedTable``s by the products on the table (``FoodTables.greedy_tables``).

    A pure cache: it pickles as an empty memo (an OpenSpiel state is serialized with its
    game) that numbers its tables on from where this one got to. It forgets its tables
    when a new game asks for the empty table, and past ``_TABLES_KEPT`` (a search's
    worlds of one game)."""

    def __init__(self, made: int = 0) -> None:
        self.tables: dict[tuple[Product, ...], SharedTable] = {}
        #: How many tables this memo and those it was pickled from have numbered.
        self.made = made
        # The table looked up last: most decisions, whichever seat's, are on the table of
        # the decision before, and comparing its products costs less than hashing them
        # for the dict.
        self._last: SharedTable | None = None
        #: The products a ``SeatInfo`` was built with last (``seat_info.table_products``):
        #: the next decision's, whichever seat's, while the table's products stay those.
        self.products: tuple[Product, ...] = ()
        #: The state's ``prod_ings``, ``prod_owner`` and ``prod_shape`` tuples that
        #: ``products`` was built from (the next state's are compared by identity).
        self.product_ings: tuple[tuple[int, ...], ...] = ()
        self.product_owners: tuple[int, ...] = ()
        self.product_shapes: tuple[int, ...] = ()
        #: The votes received a ``SeatInfo`` was built with last
        #: (``seat_info.table_received``), and a copy of the votes they were counted from.
        self.received: tuple[int, ...] = ()
        self.votes: list[int] = []

    def __reduce__(self) -> tuple[object, ...]:
        return (TableMemo, (self.made,))

    def table(self, game: FoodTables, products: tuple[Product, ...]) -> SharedTable:
        """The shared table of these products (made and kept if new)."""
        last = self._last
        if last is not None and (last.products is products or last.products == products):
            return last
        if not products and last is not None:
            # A new game's first table (products never leave a table, so a game asks
            # for the empty one in its first round alone): the tables of the games
            # before it are forgotten, all but the empty one. Kept, they were of no
            # more use and made the garbage collector's work: about 200 Python objects
            # a table, kept up to the limit below, so that every game's new tables
            # started collections that visited all of them (a fifth of a greedy game's
            # CPU time in ``bench_game``, by ``gc.callbacks``).
            empty = self.tables.get(products)
            self.tables.clear()
            if empty is not None:
                self.tables[products] = empty
        known = self.tables.get(products)
        if known is None:
            if len(self.tables) >= _TABLES_KEPT:
                self.tables.clear()
            # A table that is the last one with products added (products join the
            # table at the end, in number order) goes on from its work.
            before = last
            if before is not None and products[: len(before.products)] != before.products:
                before = None
            known = SharedTable(game, products, self.made, before)
            self.tables[products] = known
            self.made += 1
        self._last = known
        return known


def table_memo(game: FoodTables) -> TableMemo:
    """The game's ``TableMemo`` (``FoodTables.greedy_tables``, made at the first read)."""
    memo = game.greedy_tables
    if not isinstance(memo, TableMemo):
        memo = game.greedy_tables = TableMemo()
    return memo


def shared_table(game: FoodTables, products: tuple[Product, ...]) -> SharedTable:
    """``products``' ``SharedTable`` from the game's ``TableMemo``."""
    return table_memo(game).table(game, products)


__all__ = [
    "Product",
    "Sales",
    "SharedTable",
    "TableMemo",
    "sales_key",
    "shared_table",
    "table_memo",
]
