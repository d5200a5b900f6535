"""Belly Battle's fixed tables: what the board data says, read once per game.

``BellyTables`` turns a checked ``BoardData`` into flat tuples that the rules
index by card or space number (prices, fee levels, the track, the restaurants
"next to" each other, the runs of three), and interns every action. The
``BellyBattle`` game class is a ``BellyTables``, so the rules' chapter modules,
the views and the bots take a ``BellyTables`` and never import the class that
imports them (docs/engine.md, "The shape of a game")::

    def munch_fee(game: BellyTables, state: BellyState, card: int, payer: int) -> int: ...

    >>> import potluck
    >>> tables = potluck.load_game("belly-battle")  # the game is its own tables
    >>> tables.num_restaurants, tables.num_cards, tables.board_size, len(tables.actions)
    (24, 26, 44, 1383)
    >>> tables.act(CHEF, tables.card_index["momo-mia"]).text
    'chef momo-mia'
"""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import mypyc_attr

from potluck.engine.errors import InvalidActionError
from potluck.engine.game import Game
from potluck.engine.text import numbers_as_written, slugify
from potluck.games.belly_battle.actions import (
    ACCEPT,
    BUY,
    CHEF,
    DECLINE,
    INSURE,
    OFFER,
    PASS,
    SELL,
    SELL_CHEF,
    SELL_STAR,
    STAR,
    SWAP,
    TAKEOVER,
    TUNNEL,
    YUCK,
    BellyAction,
)
from potluck.games.belly_battle.schema import SPECIAL_SPACES, BoardData
from potluck.games.belly_battle.state import CELEBRITY, CHEESY, HAUNTED, MONSTERCHEF, BellyState

#: The game's id in the registry.
GAME_ID = "belly-battle"
#: Deals (buys, sales, offers) a seat may make in one upgrade window.
WINDOW_CAP: Final = 3
#: Offers a player raising cash for one debt may make.
DEBT_OFFERS: Final = 2
#: The largest ``max_rounds`` accepted (``max_steps`` is computed for it).
MAX_ROUNDS_LIMIT: Final = 1000
#: Seats the action space is built for (the rulebook's largest table).
MAX_SEATS: Final = 6
#: Offer prices, in halves of the card's price: 50%, 100%, 150%, 200%.
OFFER_HALVES: Final[tuple[int, ...]] = (1, 2, 3, 4)
# ``offers_within`` counts on the halves being 1, 2, 3... in order.
assert tuple(range(1, len(OFFER_HALVES) + 1)) == OFFER_HALVES


def offers_within(price: int, purse: int) -> int:
    """How many of a card's offer prices (``price * halves // 2`` for each of
    ``OFFER_HALVES``, cheapest first) are at most ``purse``: a whole ``x // 2`` is at most
    ``purse`` exactly when ``x <= 2 * purse + 1``, so the count is ``(2 * purse + 1) //
    price``, capped. One division instead of a price read and compared per level (the
    window's offers are listed at most steps, issue 36); ``tests/test_belly_battle_legal_lists.py``
    holds it to the count over every card and purse.

        >>> [offers_within(150, purse) for purse in (0, 74, 75, 150, 224, 225, 300, 999)]
        [0, 0, 1, 2, 2, 3, 4, 4]
    """
    levels = len(OFFER_HALVES)
    if purse < 0:
        return 0
    if price <= 0:
        return levels
    count = (2 * purse + 1) // price
    return levels if count > levels else count


# Space kinds: a card space, or one of the rulebook's special spaces (as the board file
# names them), in that order: the SP_* numbers below index this tuple.
SPACE_KINDS = ("card", *SPECIAL_SPACES)
#: What a special space is called on the board and in the log (the rulebook's names).
SPACE_TITLES = {
    "start": "Start",
    "takeover": "Takeover Battle",
    "swap": "Swap Swap",
    "sneaky-eyes": "Sneaky Eyes",
    "golden-belly": "Golden Belly Award",
    "munchtime": "Munchtime",
    "bellyguard": "BellyGuard Insurance",
    "yuck": "Yuck!",
    "celebrity": "Celebrity Visit",
    "bollywood": "Bollywood Shooting",
    "haunted": "Haunted",
    "monsterchef": "MonsterChef",
    "cheesy-scandal": "Cheesy Scandal",
    "tunnel": "Tunnel",
}
# Each kind's number, its place in ``SPACE_KINDS``. ``Final`` constants: compiled modules
# read them as numbers (unpacked from a ``range``, each was a look-up in the module's
# dict at every landing, issue 36).
SP_CARD: Final = 0
SP_START: Final = 1
SP_TAKEOVER: Final = 2
SP_SWAP: Final = 3
SP_SNEAKY: Final = 4
SP_GOLDEN: Final = 5
SP_MUNCH: Final = 6
SP_GUARD: Final = 7
SP_YUCK: Final = 8
SP_CELEBRITY: Final = 9
SP_BOLLYWOOD: Final = 10
SP_HAUNTED: Final = 11
SP_MONSTER: Final = 12
SP_CHEESY: Final = 13
SP_TUNNEL: Final = 14
assert len(SPACE_KINDS) == SP_TUNNEL + 1
#: The one-round card (its slot in ``BellyState.holders``) each such space hands out.
ROUND_CARD_OF_SPACE: Final = {
    SP_CELEBRITY: CELEBRITY,
    SP_HAUNTED: HAUNTED,
    SP_MONSTER: MONSTERCHEF,
    SP_CHEESY: CHEESY,
}

NOTATION = (
    "buy | pass | tunnel | accept | decline | takeover <card> | "
    "swap <yours> for <theirs> | insure <restaurant> | yuck <seat> | chef <restaurant> | "
    "star <restaurant> | sell <card> | sell-chef <restaurant> | sell-star <restaurant> | "
    "offer <card> to <seat> for <price>. Cards are written in lower case with dashes, "
    "e.g. 'momo-mia'."
)


@mypyc_attr(allow_interpreted_subclasses=True)
class BellyTables(Game[BellyState, BellyAction]):
    """The per-game tables built from the board data. Card numbers run over the
    restaurants first, then the corner cafes; spaces are numbered from Start."""

    def __init__(self, data: BoardData) -> None:
        self.data = data
        self.bank = bank = data.bank
        #: The chef and star tokens of the game (``bank.chefs``, ``bank.stars``), as
        #: typed whole numbers for the compiled rules.
        self.chef_tokens: int = bank.chefs
        self.star_tokens: int = bank.stars
        #: The bank's figures that turns read, as typed fields (a pydantic model's
        #: attribute is a Python look-up even in compiled code).
        self.token_sellback: int = bank.token_sellback
        self.cafe_fee: int = bank.cafe_fee
        self.celebrity_bonus: int = bank.celebrity_bonus
        rests, cafes = data.restaurant, data.cafe
        self.num_restaurants = r_count = len(rests)
        self.num_cards = c_count = r_count + len(cafes)
        self.names = tuple([r.name for r in rests] + [c.name for c in cafes])
        self.slugs = tuple(slugify(name) for name in self.names)
        self.price = tuple([r.price for r in rests] + [c.price for c in cafes])
        self.fees = tuple(tuple(r.fees) for r in rests)
        self.chef_price = tuple(r.chef_price for r in rests)
        self.star_price = tuple(r.star_price for r in rests)
        self.cheese = tuple(r.cheese for r in rests)
        self.cuisines = tuple(sorted({r.cuisine for r in rests}))
        self.cuisine_of = tuple(self.cuisines.index(r.cuisine) for r in rests)
        self.cuisine_index = {name: i for i, name in enumerate(self.cuisines)}
        self.card_index = {slug: c for c, slug in enumerate(self.slugs)}
        self.munch_cards = tuple(
            (self.cuisines.index(m.cuisines[0]), self.cuisines.index(m.cuisines[1]))
            for m in data.munchtime
        )
        #: Each Munchtime card's two cuisines by name.
        self.munch_card_cuisines = tuple(
            (self.cuisines[a], self.cuisines[b]) for a, b in self.munch_cards
        )
        card_of_name = {slugify(name): i for i, name in enumerate(self.names)}
        kinds: list[int] = []
        cards: list[int] = []
        for space in data.board:
            if space in SPACE_KINDS:
                kinds.append(SPACE_KINDS.index(space))
                cards.append(-1)
            else:
                kinds.append(SP_CARD)
                cards.append(card_of_name[slugify(space)])
        self.space_kind = tuple(kinds)
        self.space_card = tuple(cards)
        self.board_size = size = len(kinds)
        self.space_of = tuple(cards.index(c) for c in range(c_count))
        ends = [i for i, k in enumerate(kinds) if k == SP_TUNNEL]
        self.tunnel_exit = {ends[0]: ends[1], ends[1]: ends[0]} if ends else {}
        self.cafe_spaces = frozenset(i for i, c in enumerate(cards) if c >= r_count)
        #: The corner cafes passed (not landed on) moving ``total`` spaces from ``start``,
        #: in the order passed: ``cafes_passed[start][total]`` (totals of two dice).
        self.cafes_passed = tuple(
            tuple(
                tuple(
                    cards[(start + step) % size]
                    for step in range(1, total)
                    if (start + step) % size in self.cafe_spaces
                )
                for total in range(13)
            )
            for start in range(size)
        )
        #: Each space's name (``space_name``), and what a player reads (``space_title``).
        self.space_names = tuple(self.space_name(i) for i in range(size))
        self.space_titles = _titles(self.space_names, [cards[i] >= 0 for i in range(size)])
        # The track as public, fixed data for views (built once, shared, never changed).
        self.board_json: list[dict[str, Any]] = [
            {
                "space": i,
                "kind": "restaurant"
                if 0 <= cards[i] < r_count
                else "cafe"
                if cards[i] >= r_count
                else SPACE_KINDS[kinds[i]],
                "card": self.slugs[cards[i]] if cards[i] >= 0 else None,
                "name": self.space_name(i),
                "title": self.space_titles[i],
                "cuisine": rests[cards[i]].cuisine if 0 <= cards[i] < r_count else None,
                "price": self.price[cards[i]] if cards[i] >= 0 else None,
                "fees": list(self.fees[cards[i]]) if 0 <= cards[i] < r_count else None,
                # Printed on a restaurant card too: token prices and the cheese mark
                # (Cheesy Scandal); a cafe has its fixed fee and takes no tokens.
                "chef_price": rests[cards[i]].chef_price if 0 <= cards[i] < r_count else None,
                "star_price": rests[cards[i]].star_price if 0 <= cards[i] < r_count else None,
                "cheese": rests[cards[i]].cheese if 0 <= cards[i] < r_count else None,
                "cafe_fee": bank.cafe_fee if cards[i] >= r_count else None,
            }
            for i in range(len(kinds))
        ]

        def is_rest(space: int) -> bool:
            return 0 <= cards[space % size] < r_count

        # Three restaurants on three spaces in a row (Double your Munch Fees).
        triples: list[list[tuple[int, int, int]]] = [[] for _ in range(r_count)]
        for start in range(size):
            trio = [(start + k) % size for k in range(3)]
            if size >= 3 and all(is_rest(s) for s in trio):
                triple = (cards[trio[0]], cards[trio[1]], cards[trio[2]])
                for card in triple:
                    triples[card].append(triple)
        self.triples = tuple(tuple(t) for t in triples)
        #: The fee each card charges while Mr. Munchwalla owns it: the basic fee, or a
        #: cafe's fixed fee (ruling BB-3: the bank's fees are never modified).
        self.bank_fee = tuple(
            self.fees[c][0] if c < r_count else bank.cafe_fee for c in range(c_count)
        )
        #: A view's entry for a card Mr. Munchwalla owns (no tokens, the bank's fee);
        #: views copy it.
        self.bank_card_json = tuple(
            {
                "card": self.slugs[c],
                "owner": None,
                "chefs": 0,
                "star": 0,
                "insured": False,
                "fee": self.bank_fee[c],
            }
            for c in range(c_count)
        )
        # The restaurants "next to" each one: the nearest on either side along the track.
        neighbours: list[tuple[int, ...]] = []
        for card in range(r_count):
            home = self.space_of[card]
            found: list[int] = []
            for direction in (-1, 1):
                for k in range(1, size):
                    other = cards[(home + direction * k) % size]
                    if 0 <= other < r_count:
                        if other != card and other not in found:
                            found.append(other)
                        break
            neighbours.append(tuple(sorted(found)))
        self.neighbours = tuple(neighbours)
        self._build_actions()
        #: The last view's shared parts, for ``view.build_view`` to reuse while the cards
        #: stay the same (a ``view._Shared``), or ``None``.
        self.view_memo: Any = None
        #: The public card state the last ``SeatInfo`` was worked out from, for the next
        #: to share while the cards stay the same (a ``seat_info.PublicCards``), or ``None``.
        self.seat_memo: Any = None

    def space_name(self, space: int) -> str:
        """The card's name on a card space, else the special space's word."""
        card = self.space_card[space]
        if card >= 0:
            return self.names[card]
        return SPACE_KINDS[self.space_kind[space]]

    def space_title(self, space: int) -> str:
        """The space as a player reads it: the card's name, or the special space's name,
        numbered along the track where the board has two ("Tunnel 2")."""
        return self.space_titles[space]

    # ------------------------------------------------------------------ actions

    def _build_actions(self) -> None:
        actions: list[BellyAction] = []

        def add(text: str, kind: int, card: int = -1, other: int = -1, amount: int = 0) -> None:
            actions.append(BellyAction(len(actions), text, kind, card, other, amount))

        r_count, c_count, slugs = self.num_restaurants, self.num_cards, self.slugs
        for word, kind in (
            ("pass", PASS),
            ("buy", BUY),
            ("tunnel", TUNNEL),
            ("accept", ACCEPT),
            ("decline", DECLINE),
        ):
            add(word, kind)
        #: The index of each kind's first action (its cards follow in card order).
        self.first: dict[int, int] = {}
        self.first[TAKEOVER] = len(actions)
        for c in range(c_count):
            add(f"takeover {slugs[c]}", TAKEOVER, c)
        self.first[SWAP] = len(actions)
        for a in range(r_count):
            for b in range(r_count):
                add(f"swap {slugs[a]} for {slugs[b]}", SWAP, a, b)
        for kind, word, count in (
            (INSURE, "insure", r_count),
            (CHEF, "chef", r_count),
            (STAR, "star", r_count),
            (SELL, "sell", c_count),
            (SELL_CHEF, "sell-chef", r_count),
            (SELL_STAR, "sell-star", r_count),
        ):
            self.first[kind] = len(actions)
            for c in range(count):
                add(f"{word} {slugs[c]}", kind, c)
        self.first[YUCK] = len(actions)
        for seat in range(MAX_SEATS):
            add(f"yuck {seat}", YUCK, other=seat)
        self.first[OFFER] = len(actions)
        for c in range(c_count):
            for seat in range(MAX_SEATS):
                for halves in OFFER_HALVES:
                    price = self.price[c] * halves // 2
                    add(f"offer {slugs[c]} to {seat} for {price}", OFFER, c, seat, price)
        self.actions = tuple(actions)
        #: The offers of each card to each seat, cheapest first (``offers``), and their
        #: prices (the same for every seat).
        self.offer_table = tuple(
            tuple(self.offers(c, seat) for seat in range(MAX_SEATS)) for c in range(c_count)
        )
        #: Every offer of each card from ``seat`` to the other seats of an ``n``-seat
        #: table, in index order: ``offers_to_others[n][seat][card]``.
        self.offers_to_others = tuple(
            tuple(
                tuple(
                    tuple(
                        offer
                        for other in range(n)
                        if other != seat
                        for offer in self.offer_table[c][other]
                    )
                    for c in range(c_count)
                )
                for seat in range(n)
            )
            for n in range(MAX_SEATS + 1)
        )
        #: The ``k`` cheapest offers of each card to each seat (``offers``' first ``k``):
        #: ``cheapest_offers[card][seat][k]``, shared rather than sliced at every window.
        self.cheapest_offers = tuple(
            tuple(
                tuple(self.offer_table[c][seat][:k] for k in range(len(OFFER_HALVES) + 1))
                for seat in range(MAX_SEATS)
            )
            for c in range(c_count)
        )
        #: Per card: the price of its dearest offer: a buyer who has this much can pay
        #: every offer of it (``choices._deals`` then lists them all at once).
        self.dearest_offer: tuple[int, ...] = tuple(
            max(offer.amount for offer in self.offer_table[c][0]) for c in range(c_count)
        )
        #: Each card's own actions: sell, then for a restaurant sell-chef, sell-star, chef
        #: and star (a cafe takes no tokens).
        self.card_actions: tuple[tuple[BellyAction, ...], ...] = tuple(
            (
                self.act(SELL, c),
                *(
                    (self.act(k, c) for k in (SELL_CHEF, SELL_STAR, CHEF, STAR))
                    if c < r_count
                    else ()
                ),
            )
            for c in range(c_count)
        )
        self._by_text = {a.text: a for a in actions}
        #: Per action index: the card of an offer made at the card's own price, else -1
        #: (the greedy bot's "fair" offers, looked up by index instead of reading each
        #: action's fields, which are Python attributes).
        self.offer_at_price: tuple[int, ...] = tuple(
            a.card if a.kind == OFFER and a.amount == self.price[a.card] else -1 for a in actions
        )
        #: ``(seat, action)`` for every seat and action, by the action's index: the entries
        #: of ``state.history``, shared rather than a new tuple at every step. Typed
        #: ``Any``: compiled code unpacks a ``tuple[int, BellyAction]`` it reads into two
        #: values and packs a new tuple to store it, which is what this table saves.
        self.moves: tuple[tuple[Any, ...], ...] = tuple(
            tuple((seat, action) for action in actions) for seat in range(MAX_SEATS)
        )
        self.pass_action, self.buy_action, self.tunnel_action = actions[0], actions[1], actions[2]
        self.accept_action, self.decline_action = actions[3], actions[4]

    def act(self, kind: int, card: int = 0, other: int = 0) -> BellyAction:
        """The action of ``kind`` on ``card`` (``other``: the second card or the seat)."""
        if kind == SWAP:
            return self.actions[self.first[SWAP] + card * self.num_restaurants + other]
        if kind == YUCK:
            return self.actions[self.first[YUCK] + other]
        return self.actions[self.first[kind] + card]

    def offers(self, card: int, seat: int) -> tuple[BellyAction, ...]:
        """The offers of ``card`` to ``seat``, cheapest first."""
        base = self.first[OFFER] + (card * MAX_SEATS + seat) * len(OFFER_HALVES)
        return self.actions[base : base + len(OFFER_HALVES)]

    def action(self, text: str) -> BellyAction:
        """The action written ``text``: its notation, or with full card names."""
        if not isinstance(text, str):
            raise InvalidActionError(f"an action is text, not {type(text).__name__}")
        key = " ".join(text.strip().lower().split())
        action = self._by_text.get(key)
        if action is None:
            words = key.split(" ")
            if len(words) > 1 and numbers_as_written(words):
                # Full card names work too: "chef Momo Mia" (numbers never fold: "yuck -1").
                action = self._by_text.get(_slug_words(words))
        if action is None:
            raise InvalidActionError(
                f"{text!r} is not a Belly Battle action; actions are: {NOTATION}"
            )
        return action


def _slug_words(words: list[str]) -> str:
    """Re-slug the card names inside an action written with full names."""
    head, rest = words[0], " ".join(words[1:])
    if head == "swap" and " for " in rest:
        mine, theirs = rest.split(" for ", 1)
        return f"swap {slugify(mine)} for {slugify(theirs)}"
    if head == "offer" and " to " in rest:
        card, tail = rest.rsplit(" to ", 1)
        return f"offer {slugify(card)} to {tail}"
    return f"{head} {slugify(rest)}"


def _titles(names: tuple[str, ...], is_card: list[bool]) -> tuple[str, ...]:
    """Each space's title: a card's name, or its special space's name, numbered from Start
    on where the kind comes more than once, so that no two spaces read alike."""
    kinds = [name for name, card in zip(names, is_card, strict=True) if not card]
    seen: dict[str, int] = {}
    titles = []
    for name, card in zip(names, is_card, strict=True):
        if card:
            titles.append(name)
            continue
        seen[name] = seen.get(name, 0) + 1
        title = SPACE_TITLES.get(name, name.replace("-", " ").capitalize())
        titles.append(f"{title} {seen[name]}" if kinds.count(name) > 1 else title)
    return tuple(titles)
