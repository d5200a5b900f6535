"""Belly Battle's rules: the turn, every space of the board, the upgrade window,
trades, debts, bankruptcy and the final wealth count.

Rulebook names are used throughout: *Takeover Battle* (``_battle``), *Swap
Swap*, *Sneaky Eyes*, *Golden Belly Award*, *Munchtime* (``_munchtime``),
*BellyGuard Insurance*, *Yuck!*, *Celebrity Visit*, *Bollywood Shooting*,
*Haunted*, *MonsterChef*, *Cheesy Scandal*, *Tunnel*, *Chefs and Star*,
*Selling*, *Double your Munch Fees* (``_in_triple``) and *Bankruptcy*. The
order in which fee modifiers stack is ``munch_fee``'s.

    >>> import potluck
    >>> g = potluck.load_game("belly-battle")
    >>> s = g.new_game(3, seed=1)
    >>> [p["cash"] for p in g.view(s, 0)["players"]]
    [1000, 1000, 1000]
    >>> g.to_act(s) == (s.turn,)   # the first mover has rolled and decides
    True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any, ClassVar

from potluck.engine.bots import Bot, RandomBot
from potluck.engine.data import DataSource, load_data
from potluck.engine.encoding import Feature, ObservationEncoding, ObservationWriter
from potluck.engine.errors import (
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    OptionError,
    PotluckError,
    RecordError,
)
from potluck.engine.game import Game
from potluck.engine.options import Option
from potluck.engine.outcome import Outcome
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
from potluck.games.belly_battle.describe import describe
from potluck.games.belly_battle.schema import BoardData
from potluck.games.belly_battle.state import (
    AFTER_LAND,
    AFTER_WINDOW,
    BANK,
    BUY_OR_PASS,
    CELEBRITY,
    CHEESY,
    DEBT,
    HAUNTED,
    INSURE_CHOICE,
    MONSTERCHEF,
    NEXT_TURN,
    NOBODY,
    OVER,
    PHASE_NAMES,
    RESPOND,
    ROUND_CARD_NAMES,
    ST_BOUGHT,
    ST_CHEFS,
    ST_DEBTS,
    ST_MUNCH,
    ST_SOLD,
    ST_STARS,
    ST_SWAPS,
    ST_TAKE_LOST,
    ST_TAKE_WON,
    ST_TRADES,
    ST_TUNNELS,
    STAT_NAMES,
    SWAP_CHOICE,
    TAKEOVER_CHOICE,
    TUNNEL_CHOICE,
    WINDOW,
    YUCK_CHOICE,
    BellyState,
)
from potluck.games.belly_battle.tables import DEBT_OFFERS, MAX_ROUNDS_LIMIT, WINDOW_CAP

#: Seats the action space is built for (the rulebook's largest table).
MAX_SEATS = 6
#: Seat metrics that count a seat's moves of some kinds (see ``seat_metrics``).
_CHOICE_METRICS = {
    "restaurants_bought": {BUY},
    "takeovers": {TAKEOVER},
    "upgrades": {CHEF, STAR},
    "sales_to_bank": {SELL, SELL_CHEF, SELL_STAR},
    "offers_made": {OFFER},
    "offers_accepted": {ACCEPT},
    "offers_declined": {DECLINE},
    "swaps": {SWAP},
    "yucks": {YUCK},
}
#: Offer prices, in halves of the card's price: 50%, 100%, 150%, 200%.
OFFER_HALVES = (1, 2, 3, 4)
#: How many lines of the table's log views keep.
LOG_LINES = 12

# Space kinds: a card space, or one of the special spaces.
_SPACE_KINDS = (
    "card",
    "start",
    "takeover",
    "swap",
    "sneaky-eyes",
    "golden-belly",
    "munchtime",
    "bellyguard",
    "yuck",
    "celebrity",
    "bollywood",
    "haunted",
    "monsterchef",
    "cheesy-scandal",
    "tunnel",
)
(
    SP_CARD,
    SP_START,
    SP_TAKEOVER,
    SP_SWAP,
    SP_SNEAKY,
    SP_GOLDEN,
    SP_MUNCH,
    SP_GUARD,
    SP_YUCK,
    SP_CELEBRITY,
    SP_BOLLYWOOD,
    SP_HAUNTED,
    SP_MONSTER,
    SP_CHEESY,
    SP_TUNNEL,
) = range(len(_SPACE_KINDS))
_ROUND_CARD_OF_SPACE = {
    SP_CELEBRITY: CELEBRITY,
    SP_HAUNTED: HAUNTED,
    SP_MONSTER: MONSTERCHEF,
    SP_CHEESY: CHEESY,
}


class BellyBattle(Game[BellyState, BellyAction]):
    """Belly Battle (Funskool 2021), for 2 to 6 players."""

    id: ClassVar[str] = "belly-battle"
    title: ClassVar[str] = "Belly Battle"
    version: ClassVar[int] = 2
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    options: ClassVar[Mapping[str, Option]] = {
        "max_rounds": Option(
            int,
            60,
            "Safety cap: after this many rounds the game ends and wealth ranks the "
            f"players as after a bankruptcy (1 to {MAX_ROUNDS_LIMIT}).",
        ),
    }
    summary: ClassVar[str] = resources.files(__package__).joinpath("summary.md").read_text("utf-8")
    notation: ClassVar[str] = (
        "buy | pass | tunnel | accept | decline | takeover <card> | "
        "swap <yours> for <theirs> | insure <restaurant> | yuck <seat> | chef <restaurant> | "
        "star <restaurant> | sell <card> | sell-chef <restaurant> | sell-star <restaurant> | "
        "offer <card> to <seat> for <price>. Cards are written in lower case with dashes, "
        "e.g. 'momo-mia'."
    )

    def __init__(self, data: DataSource = None) -> None:
        self.data = load_data(BoardData, data, package=__package__, default="data/board.toml")
        self.data_source = (
            None if data is None else str(data) if not isinstance(data, Mapping) else "custom"
        )
        bank = self.data.bank
        self.bank = bank
        rests, cafes = self.data.restaurant, self.data.cafe
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
            for m in self.data.munchtime
        )
        card_of_name = {slugify(name): i for i, name in enumerate(self.names)}
        kinds: list[int] = []
        cards: list[int] = []
        for space in self.data.board:
            if space in _SPACE_KINDS:
                kinds.append(_SPACE_KINDS.index(space))
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
        # The track as public, fixed data for views (built once, shared, never changed).
        self.board_json: list[dict[str, Any]] = [
            {
                "space": i,
                "kind": "restaurant"
                if 0 <= cards[i] < r_count
                else "cafe"
                if cards[i] >= r_count
                else _SPACE_KINDS[kinds[i]],
                "card": self.slugs[cards[i]] if cards[i] >= 0 else None,
                "name": self.space_name(i),
                "cuisine": rests[cards[i]].cuisine if 0 <= cards[i] < r_count else None,
                "price": self.price[cards[i]] if cards[i] >= 0 else None,
                "fees": list(self.fees[cards[i]]) if 0 <= cards[i] < r_count else None,
                # Printed on a restaurant card too: token prices and the cheese mark
                # (Cheesy Scandal); a cafe has its fixed fee and takes no tokens.
                "chef_price": rests[cards[i]].chef_price if 0 <= cards[i] < r_count else None,
                "star_price": rests[cards[i]].star_price if 0 <= cards[i] < r_count else None,
                "cheese": rests[cards[i]].cheese if 0 <= cards[i] < r_count else None,
                "cafe_fee": self.bank.cafe_fee if cards[i] >= r_count else None,
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
        self._first: dict[int, int] = {}
        self._first[TAKEOVER] = len(actions)
        for c in range(c_count):
            add(f"takeover {slugs[c]}", TAKEOVER, c)
        self._first[SWAP] = len(actions)
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
            self._first[kind] = len(actions)
            for c in range(count):
                add(f"{word} {slugs[c]}", kind, c)
        self._first[YUCK] = len(actions)
        for seat in range(MAX_SEATS):
            add(f"yuck {seat}", YUCK, other=seat)
        self._first[OFFER] = len(actions)
        for c in range(c_count):
            for seat in range(MAX_SEATS):
                for halves in OFFER_HALVES:
                    price = self.price[c] * halves // 2
                    add(f"offer {slugs[c]} to {seat} for {price}", OFFER, c, seat, price)
        self.actions = tuple(actions)
        self._by_text = {a.text: a for a in actions}
        self._pass, self._buy, self._tunnel = actions[0], actions[1], actions[2]
        self._accept, self._decline = actions[3], actions[4]

    def _act(self, kind: int, card: int = 0, other: int = 0) -> BellyAction:
        """The interned action of ``kind`` on ``card`` (and ``other`` for swaps and yucks)."""
        if kind == SWAP:
            return self.actions[self._first[SWAP] + card * self.num_restaurants + other]
        if kind == YUCK:
            return self.actions[self._first[YUCK] + other]
        return self.actions[self._first[kind] + card]

    def _offers(self, card: int, seat: int) -> tuple[BellyAction, ...]:
        base = self._first[OFFER] + (card * MAX_SEATS + seat) * len(OFFER_HALVES)
        return self.actions[base : base + len(OFFER_HALVES)]

    # ------------------------------------------------------------------ setup

    def _new_game(self, num_players: int, seed: int, options: Mapping[str, Any]) -> BellyState:
        rounds = options["max_rounds"]
        if not 1 <= rounds <= MAX_ROUNDS_LIMIT:
            raise OptionError(f"option 'max_rounds' must be 1 to {MAX_ROUNDS_LIMIT}, not {rounds}")
        if len(self.munch_cards) < num_players or self.num_restaurants < num_players:
            raise PotluckError(
                f"this board has too few restaurants or Munchtime cards for {num_players} players"
            )
        state = BellyState(num_players, seed, options)
        n, c_count, rng = num_players, self.num_cards, state.rng
        state.round = 0
        state.turn = 0  # the rulebook's "largest belly" goes first: seat 0
        state.phase = WINDOW
        state.dice = (0, 0)
        state.pos = [0] * n
        state.cash = [self.bank.start_money] * n
        state.tunnel_used = [False] * n
        state.tunnel_blocked = False
        state.owner = [BANK] * c_count
        state.chefs = [0] * c_count
        state.star = [0] * c_count
        state.insured = [False] * c_count
        state.acquired = [0] * c_count
        state.stamp = 0
        state.golden = -1
        state.holders = [NOBODY] * 4
        state.knows = [0] * n
        state.queue = []
        state.after = AFTER_WINDOW
        state.window_left = []
        state.window_actions = 0
        state.window_offered = False
        state.debt_offers = 0
        state.offer = (NOBODY, -1, NOBODY, 0)
        state.resume = WINDOW
        state.bankrupt = NOBODY
        state.bank_net = 0
        state.log = ()
        state.stats = [0] * len(STAT_NAMES)
        # Setup 3: one random restaurant (free: ruling BB-7) and one Munchtime card each.
        dealt = rng.sample(range(self.num_restaurants), n)
        for seat, card in enumerate(dealt):
            self._gain(state, seat, card)
        deck = list(range(len(self.munch_cards)))
        state.munch = []
        for _ in range(n):
            state.munch.append(deck.pop(int(rng.random() * len(deck))))
        state.deck = deck
        state.log = tuple(f"Seat {s} is dealt {self.names[c]}." for s, c in enumerate(dealt))
        self._start_turn(state)
        while state.phase == NEXT_TURN:
            self._start_turn(state)
        return state

    # ------------------------------------------------------------------ helpers

    def _say(self, state: BellyState, line: str) -> None:
        log = (*state.log, line)
        state.log = log[-LOG_LINES:] if len(log) > LOG_LINES else log

    def _gain(self, state: BellyState, seat: int, card: int) -> None:
        """``seat`` becomes the owner of ``card``; its tokens go along (ruling BB-8)."""
        state.owner[card] = seat
        state.stamp += 1
        state.acquired[card] = state.stamp

    def _to_bank(self, state: BellyState, card: int) -> None:
        """Mr. Munchwalla takes ``card`` back: its tokens return to their supplies."""
        state.owner[card] = BANK
        state.chefs[card] = 0
        state.star[card] = 0
        state.insured[card] = False
        state.acquired[card] = 0
        if state.golden == card:
            state.golden = -1

    def _d6(self, state: BellyState) -> int:
        return int(state.rng.random() * 6) + 1

    def owned(self, state: BellyState, seat: int) -> list[int]:
        """The cards ``seat`` owns, restaurants first."""
        return [c for c, o in enumerate(state.owner) if o == seat]

    def chef_supply(self, state: BellyState) -> int:
        return self.bank.chefs - sum(state.chefs)

    def star_supply(self, state: BellyState) -> int:
        return self.bank.stars - sum(state.star)

    def guard_supply(self, state: BellyState) -> int:
        return self.bank.bellyguards - sum(state.insured)

    def sale_value(self, state: BellyState, card: int) -> int:
        """What Mr. Munchwalla pays for ``card``: half its price, plus its tokens at 50."""
        return self.price[card] // 2 + self.bank.token_sellback * (
            state.chefs[card] + state.star[card]
        )

    def bank_value(self, state: BellyState, seat: int) -> int:
        """What Mr. Munchwalla would pay for everything ``seat`` owns."""
        return sum(self.sale_value(state, c) for c in self.owned(state, seat))

    def wealth(self, state: BellyState, seat: int) -> int:
        """Cards at their price, chefs 50, stars 150, and cash (rulebook, End of Game)."""
        total = state.cash[seat]
        bank = self.bank
        for card, owner in enumerate(state.owner):
            if owner == seat:
                total += (
                    self.price[card]
                    + bank.chef_wealth * state.chefs[card]
                    + bank.star_wealth * state.star[card]
                )
        return total

    def _in_triple(self, state: BellyState, card: int, owner: int) -> bool:
        owners = state.owner
        for a, b, c in self.triples[card]:
            if owners[a] == owner and owners[b] == owner and owners[c] == owner:
                return True
        return False

    def munch_fee(self, state: BellyState, card: int, payer: int) -> int:
        """The Munch Fee ``payer`` owes for ``card``, every modifier applied (ruling BB-3).

        Mr. Munchwalla's cards charge the plain basic fee (a cafe its fixed fee). For a
        player's restaurant: Haunted or Cheesy Scandal make it 0; otherwise the fee of
        its level (basic, 1 chef, 2 chefs, star) is doubled for three in a row, again
        for the Golden Belly Award, again for MonsterChef, and then Celebrity Visit
        adds 50. Cafes are never modified. An owner pays nothing to themselves.
        """
        owner = state.owner[card]
        if owner == payer:
            return 0
        if card >= self.num_restaurants:
            return self.bank.cafe_fee
        fees = self.fees[card]
        if owner == BANK:
            return fees[0]
        holders = state.holders
        if holders[HAUNTED] == owner or (holders[CHEESY] != NOBODY and self.cheese[card]):
            return 0
        fee = fees[3] if state.star[card] else fees[state.chefs[card]]
        if self.triples[card] and self._in_triple(state, card, owner):
            fee *= 2
        if state.golden == card:
            fee *= 2
        if holders[MONSTERCHEF] == owner:
            fee *= 2
        if holders[CELEBRITY] == owner:
            fee += self.bank.celebrity_bonus
        return fee

    def fee_recipient(self, state: BellyState, card: int, payer: int) -> int:
        """Who receives the fee paid on landing at ``card``: its owner, unless the card is
        next to the Golden Belly restaurant, whose owner then takes it (ruling BB-4)."""
        owner = state.owner[card]
        golden = state.golden
        if owner != BANK and golden >= 0 and card in self.neighbours[golden]:
            holder = state.owner[golden]
            if holder not in (BANK, owner, payer):
                return holder
        return owner

    def last_bought(self, state: BellyState, seat: int) -> int:
        """The restaurant ``seat`` acquired most recently and still owns, or -1."""
        best, when = -1, 0
        for card in range(self.num_restaurants):
            if state.owner[card] == seat and state.acquired[card] > when:
                best, when = card, state.acquired[card]
        return best

    def takeover_targets(self, state: BellyState, seat: int) -> list[int]:
        owner, insured = state.owner, state.insured
        return [
            c
            for c in range(self.num_cards)
            if owner[c] != BANK and owner[c] != seat and not insured[c]
        ]

    @staticmethod
    def defender_rolls(chefs: int, star: int) -> int:
        """Dice the owner rolls in a Takeover Battle: 1, 2 with a chef, 3 with two, 4 with a star.

        >>> BellyBattle.defender_rolls(0, 0), BellyBattle.defender_rolls(2, 0)
        (1, 3)
        >>> BellyBattle.defender_rolls(2, 1)
        4
        """
        return 4 if star else 1 + chefs

    # ------------------------------------------------------------------ the turn

    def _start_turn(self, state: BellyState) -> None:
        """Return one-round cards, roll two dice, move, pay passed cafes, then land."""
        mover = state.turn
        for slot, holder in enumerate(state.holders):
            if holder == mover:
                state.holders[slot] = NOBODY
                self._say(state, f"Seat {mover} returns the {ROUND_CARD_NAMES[slot]} card.")
        state.tunnel_blocked = state.tunnel_used[mover]
        state.tunnel_used[mover] = False
        one, two = self._d6(state), self._d6(state)
        state.dice = (one, two)
        start = state.pos[mover]
        size = self.board_size
        cafe_fee = self.bank.cafe_fee
        for step in range(1, one + two):
            space = (start + step) % size
            if space in self.cafe_spaces:
                card = self.space_card[space]
                if state.owner[card] != mover and cafe_fee:
                    state.queue += (mover, state.owner[card], cafe_fee)
                    self._say(state, f"Seat {mover} passes {self.names[card]}: fee {cafe_fee}.")
        state.pos[mover] = (start + one + two) % size
        self._say(
            state,
            f"Round {state.round + 1}: seat {mover} rolls {one}+{two} and lands on "
            f"{self.space_name(state.pos[mover])}.",
        )
        state.after = AFTER_LAND
        self._settle(state)

    def space_name(self, space: int) -> str:
        card = self.space_card[space]
        if card >= 0:
            return self.names[card]
        return _SPACE_KINDS[self.space_kind[space]]

    def _decide(self, state: BellyState, phase: int) -> None:
        state.phase = phase
        state.acting = (state.turn,)

    def _land(self, state: BellyState) -> None:
        """Resolve the space the mover landed on (rulebook, Spaces on the board)."""
        mover = state.turn
        space = state.pos[mover]
        kind = self.space_kind[space]
        names = self.names
        if kind == SP_CARD:
            card = self.space_card[space]
            owner = state.owner[card]
            if owner == BANK:
                # Short of cash, the mover may first sell to the bank (ruling BB-20).
                if state.cash[mover] + self.bank_value(state, mover) >= self.price[card]:
                    self._decide(state, BUY_OR_PASS)
                    return
                fee = self.munch_fee(state, card, mover)
                state.queue += (mover, BANK, fee)
                self._say(state, f"Seat {mover} cannot buy {names[card]}; pays {fee} to the bank.")
            elif owner != mover:
                fee = self.munch_fee(state, card, mover)
                payee = self.fee_recipient(state, card, mover)
                if fee:
                    state.queue += (mover, payee, fee)
                self._say(state, f"Seat {mover} owes {fee} to seat {payee} at {names[card]}.")
        elif kind == SP_TAKEOVER:
            if self.takeover_targets(state, mover):
                self._decide(state, TAKEOVER_CHOICE)
                return
            self._say(state, "Nothing to take over.")
        elif kind == SP_SWAP:
            if self._swap_pairs(state, mover):
                self._decide(state, SWAP_CHOICE)
                return
            self._say(state, "Nothing to swap.")
        elif kind == SP_SNEAKY:
            for seat in range(state.num_players):
                if seat != mover:
                    state.knows[mover] |= 1 << seat
            self._say(state, f"Seat {mover} peeks at every Munchtime card.")
        elif kind == SP_GOLDEN:
            state.golden = self.last_bought(state, mover)
            if state.golden >= 0:
                self._say(state, f"The Golden Belly Award goes to {names[state.golden]}.")
            else:
                self._say(state, "The Golden Belly Award returns to its space.")
        elif kind == SP_MUNCH:
            self._munchtime(state, mover)
        elif kind == SP_GUARD:
            if self.guard_supply(state) > 0 and any(
                state.owner[c] == mover and not state.insured[c]
                for c in range(self.num_restaurants)
            ):
                self._decide(state, INSURE_CHOICE)
                return
            self._say(state, "No BellyGuard card to take.")
        elif kind == SP_YUCK:
            self._decide(state, YUCK_CHOICE)
            return
        elif kind in _ROUND_CARD_OF_SPACE:
            slot = _ROUND_CARD_OF_SPACE[kind]
            if state.holders[slot] == NOBODY:
                state.holders[slot] = mover
                self._say(state, f"Seat {mover} takes the {ROUND_CARD_NAMES[slot]} card.")
            else:
                self._say(state, f"The {ROUND_CARD_NAMES[slot]} card is already out.")
        elif kind == SP_BOLLYWOOD:
            if any(state.owner[c] == mover for c in range(self.num_restaurants)):
                state.cash[mover] += self.bank.bollywood_bonus
                state.bank_net -= self.bank.bollywood_bonus
                self._say(state, f"Bollywood shoots at seat {mover}'s restaurant: +100.")
        elif kind == SP_TUNNEL:
            if not state.tunnel_blocked:
                self._decide(state, TUNNEL_CHOICE)
                return
            self._say(state, f"Seat {mover} went through the tunnel last turn and stays.")
        self._settle(state)

    def _munchtime(self, state: BellyState, lander: int) -> None:
        """Every other player reveals their card and pays the lander the fee of each of the
        lander's restaurants of its two cuisines; the cards go back and new ones are drawn."""
        n = state.num_players
        state.stats[ST_MUNCH] += 1
        mine = [c for c in range(self.num_restaurants) if state.owner[c] == lander]
        for k in range(1, n):
            seat = (lander + k) % n
            card = state.munch[seat]
            first, second = self.munch_cards[card]
            owed = 0
            for r in mine:
                if self.cuisine_of[r] in (first, second):
                    owed += self.munch_fee(state, r, seat)
            if owed:
                state.queue += (seat, lander, owed)
            self._say(
                state,
                f"Seat {seat} shows {self.cuisines[first]}+{self.cuisines[second]}: "
                f"owes {owed} to seat {lander}.",
            )
            deck = state.deck
            deck.append(card)
            deck.sort()
            state.munch[seat] = deck.pop(int(state.rng.random() * len(deck)))
            mask = ~(1 << seat)
            for other in range(n):
                state.knows[other] &= mask

    def _battle(self, state: BellyState, challenger: int, card: int) -> None:
        """Takeover Battle: one die against the owner's best of 1-4; ties roll again."""
        defender = state.owner[card]
        rolls = (
            self.defender_rolls(state.chefs[card], state.star[card])
            if card < self.num_restaurants
            else 1
        )
        while True:
            attack = self._d6(state)
            defence = max(self._d6(state) for _ in range(rolls))
            if attack != defence:
                break
        name = self.names[card]
        if attack > defence:
            self._gain(state, challenger, card)
            state.stats[ST_TAKE_WON] += 1
            self._say(
                state, f"Takeover: seat {challenger} rolls {attack} to {defence} and wins {name}."
            )
        else:
            fee = self.munch_fee(state, card, challenger)
            if fee:
                state.queue += (challenger, defender, fee)
            state.stats[ST_TAKE_LOST] += 1
            self._say(
                state,
                f"Takeover: seat {challenger} rolls {attack} to {defence}, fails at {name} "
                f"and owes {fee}.",
            )

    def _swap_pairs(self, state: BellyState, seat: int) -> bool:
        owner, insured = state.owner, state.insured
        r_count = self.num_restaurants
        mine = any(owner[c] == seat and not insured[c] for c in range(r_count))
        theirs = any(owner[c] not in (BANK, seat) and not insured[c] for c in range(r_count))
        return mine and theirs

    # ------------------------------------------------------------------ payments

    def _settle(self, state: BellyState) -> None:
        """Make the queued payments in order; a payer short of cash must raise it first
        (or is bankrupt when nothing is left to sell). Then go on with the turn."""
        queue, cash = state.queue, state.cash
        while queue:
            payer, payee, amount = queue[0], queue[1], queue[2]
            if cash[payer] >= amount:
                cash[payer] -= amount
                if payee != BANK:
                    cash[payee] += amount
                else:
                    state.bank_net += amount
                del queue[:3]
                continue
            if payer not in state.owner:
                return self._go_bankrupt(state, payer, payee)
            if state.phase != DEBT:
                state.debt_offers = DEBT_OFFERS
                state.stats[ST_DEBTS] += 1
                self._say(state, f"Seat {payer} owes {amount} and must sell to pay.")
            state.phase = DEBT
            state.acting = (payer,)
            return None
        if state.after == AFTER_LAND:
            state.after = AFTER_WINDOW
            return self._land(state)
        return self._open_window(state)

    def _go_bankrupt(self, state: BellyState, seat: int, payee: int) -> None:
        """Bankruptcy: the last cash goes to the creditor and the game ends."""
        if payee != BANK:
            state.cash[payee] += state.cash[seat]
        else:
            state.bank_net += state.cash[seat]
        state.cash[seat] = 0
        state.queue = []
        state.bankrupt = seat
        state.phase = OVER
        state.acting = ()
        self._say(state, f"Seat {seat} is bankrupt: the game ends.")

    # ------------------------------------------------------------------ the upgrade window

    def _open_window(self, state: BellyState) -> None:
        """After each turn every seat, in turn order from the mover, may deal (ruling BB-13)."""
        n, mover = state.num_players, state.turn
        state.window_left = [(mover + k) % n for k in range(n)]
        self._next_in_window(state)

    def _next_in_window(self, state: BellyState) -> None:
        owner = state.owner
        while state.window_left:
            seat = state.window_left.pop(0)
            if seat in owner:
                state.phase = WINDOW
                state.acting = (seat,)
                state.window_actions = 0
                state.window_offered = False
                return
        self._end_turn(state)

    def _end_turn(self, state: BellyState) -> None:
        n = state.num_players
        state.turn = (state.turn + 1) % n
        if state.turn == 0:
            state.round += 1
            if state.round >= state.options["max_rounds"]:
                state.phase = OVER
                state.acting = ()
                self._say(state, f"The {state.round}-round limit is reached: the game ends.")
                return
        state.phase = NEXT_TURN  # ``_step`` starts the turn

    # ------------------------------------------------------------------ legality

    def legal_actions(self, state: BellyState, seat: int) -> list[BellyAction]:
        if seat not in state.acting:
            return []
        problem = self._problem
        return [a for a in self._candidates(state, seat) if problem(state, seat, a) is None]

    def _candidates(self, state: BellyState, seat: int) -> list[BellyAction]:
        """The actions worth checking in this phase, in index order."""
        phase = state.phase
        if phase in (WINDOW, DEBT, OVER):
            return self._choices(state, seat)
        return self._choices(state, seat) + self._sales(state, seat)

    def _sales(self, state: BellyState, seat: int) -> list[BellyAction]:
        """Sales back to Mr. Munchwalla of what ``seat`` owns (allowed at any decision)."""
        mine = self.owned(state, seat)
        rests = [c for c in mine if c < self.num_restaurants]
        acts, first = self.actions, self._first
        out: list[BellyAction] = []
        for kind, cards in ((SELL, mine), (SELL_CHEF, rests), (SELL_STAR, rests)):
            base = first[kind]
            out += [acts[base + c] for c in cards]
        return out

    def _choices(self, state: BellyState, seat: int) -> list[BellyAction]:
        """The phase's own choices, in index order."""
        phase = state.phase
        acts, first = self.actions, self._first
        if phase == BUY_OR_PASS:
            return [self._pass, self._buy]
        if phase == TUNNEL_CHOICE:
            return [self._pass, self._tunnel]
        if phase == RESPOND:
            return [self._accept, self._decline]
        if phase == TAKEOVER_CHOICE:
            base = first[TAKEOVER]
            return [self._pass, *(acts[base + c] for c in self.takeover_targets(state, seat))]
        if phase == SWAP_CHOICE:
            r_count = self.num_restaurants
            mine = [c for c in range(r_count) if state.owner[c] == seat]
            theirs = [c for c in range(r_count) if state.owner[c] not in (BANK, seat)]
            base = first[SWAP]
            return [self._pass] + [acts[base + a * r_count + b] for a in mine for b in theirs]
        if phase == INSURE_CHOICE:
            base = first[INSURE]
            return [self._pass] + [
                acts[base + c] for c in range(self.num_restaurants) if state.owner[c] == seat
            ]
        if phase == YUCK_CHOICE:
            base = first[YUCK]
            return [acts[base + s] for s in range(state.num_players)]
        if phase in (WINDOW, DEBT):
            mine = self.owned(state, seat)
            rests = [c for c in mine if c < self.num_restaurants]
            out = [self._pass] if phase == WINDOW else []
            for kind in (CHEF, STAR):
                out += [acts[first[kind] + c] for c in rests]
            out += self._sales(state, seat)
            for c in mine:
                for other in range(state.num_players):
                    if other != seat:
                        out += self._offers(c, other)
            return out
        return []

    def _is_legal(self, state: BellyState, seat: int, action: Any) -> bool:
        return self._problem(state, seat, action) is None

    def describe_action(self, state: BellyState, seat: int, action: BellyAction) -> str:
        """``Buy Momo Mia for 180``, ``Add a chef to Momo Mia (50)``: a button's words."""
        return describe(self, state, seat, action)

    def _why_illegal(self, state: BellyState, seat: int, action: BellyAction) -> str:
        return self._problem(state, seat, action) or "That action is not allowed now."

    def _problem(self, state: BellyState, seat: int, action: BellyAction) -> str | None:
        """``None`` if ``seat`` (who is to act) may take ``action`` now, else why not."""
        kind, phase = action.kind, state.phase
        allowed = _KINDS_OF_PHASE[phase]
        if kind not in allowed:
            return _PHASE_HINT[phase]
        card, names = action.card, self.names
        owner, cash = state.owner, state.cash
        if kind == PASS:
            return None
        if kind == BUY:
            card = self.space_card[state.pos[seat]]
            if cash[seat] < self.price[card]:
                return (
                    f"You cannot buy {names[card]}: it costs {self.price[card]} and you "
                    f"have {cash[seat]}."
                )
            return None
        if kind in (TUNNEL, ACCEPT, DECLINE):
            return None
        if kind == YUCK:
            if action.other == seat:
                return "Yuck! You pay the 50 to another player, not to yourself."
            if action.other >= state.num_players:
                return f"There is no seat {action.other} at this table."
            return None
        if kind == TAKEOVER:
            if owner[card] in (BANK, seat):
                return (
                    f"Takeover Battle: {names[card]} is not another player's "
                    f"{'restaurant' if owner[card] == BANK else 'card: it is yours'}."
                )
            if state.insured[card]:
                return f"{names[card]} has BellyGuard Insurance: it cannot be taken over."
            return None
        if kind == SWAP:
            other = action.other
            if owner[card] != seat:
                return f"Swap Swap: you do not own {names[card]}."
            if owner[other] in (BANK, seat):
                return f"Swap Swap: {names[other]} is not another player's restaurant."
            for c in (card, other):
                if state.insured[c]:
                    return f"{names[c]} has BellyGuard Insurance: it cannot be swapped."
            return None
        if owner[card] != seat:
            return f"You do not own {names[card]}."
        if kind == INSURE:
            if state.insured[card]:
                return f"{names[card]} is insured already."
            return None
        if kind == CHEF:
            if state.star[card] or state.chefs[card] >= 2:
                return f"{names[card]} has its 2 chefs already (the most a restaurant may have)."
            if self.chef_supply(state) <= 0:
                return "Mr. Munchwalla has no chef tokens left."
            if cash[seat] < self.chef_price[card]:
                return (
                    f"A chef for {names[card]} costs {self.chef_price[card]}; "
                    f"you have {cash[seat]}."
                )
            return None
        if kind == STAR:
            if state.star[card]:
                return f"{names[card]} has its star already."
            if state.chefs[card] < 2:
                return f"A star needs two chefs first; {names[card]} has {state.chefs[card]}."
            if self.star_supply(state) <= 0:
                return "Mr. Munchwalla has no star tokens left."
            if cash[seat] < self.star_price[card]:
                return (
                    f"A star for {names[card]} costs {self.star_price[card]}; "
                    f"you have {cash[seat]}."
                )
            return None
        if kind == SELL:
            return None
        if kind == SELL_CHEF:
            if not state.chefs[card]:
                return f"{names[card]} has no chef to sell."
            if state.star[card]:
                return f"Sell {names[card]}'s star first: a star needs its two chefs."
            return None
        if kind == SELL_STAR:
            if not state.star[card]:
                return f"{names[card]} has no star to sell."
            return None
        # OFFER
        buyer = action.other
        if buyer == seat or buyer >= state.num_players:
            return "Offer your card to another seat at the table."
        if phase == WINDOW and state.window_offered:
            return "You have made your one offer of this window."
        if phase == DEBT and state.debt_offers <= 0:
            return f"You have made your {DEBT_OFFERS} offers for this debt: sell to the bank."
        if cash[buyer] < action.amount:
            return f"Seat {buyer} has only {cash[buyer]}, less than {action.amount}."
        return None

    def _not_your_turn(self, state: BellyState, seat: int) -> str:
        if not 0 <= seat < state.num_players or not state.acting:
            return super()._not_your_turn(state, seat)
        who = state.acting[0]
        return f"It is not seat {seat}'s turn: seat {who} must {_PHASE_DOING[state.phase]}."

    # ------------------------------------------------------------------ change

    def step(self, state: BellyState, seat: int, action: BellyAction | str) -> None:
        # The engine's checks, inlined: the hot path of every simulation.
        if type(action) is not BellyAction:
            action = self.parse_action(state, seat, action)  # type: ignore[arg-type]
        if seat not in state.acting:
            raise NotYourTurnError(
                "The game is over." if not state.acting else self._not_your_turn(state, seat)
            )
        problem = self._problem(state, seat, action)
        if problem is not None:
            raise IllegalActionError(problem)
        state.history.append((seat, action))
        self._step(state, seat, action)

    def _step(self, state: BellyState, seat: int, action: BellyAction) -> None:
        self._resolve(state, seat, action)
        # Turns that need no decision follow one another here, in a loop rather than
        # by recursion, so that no run of them can exhaust the stack.
        while state.phase == NEXT_TURN:
            self._start_turn(state)

    def _resolve(self, state: BellyState, seat: int, action: BellyAction) -> None:
        phase, kind, card = state.phase, action.kind, action.card
        names = self.names
        if kind in _SALES and phase not in (WINDOW, DEBT):
            # A sale in the middle of a decision: the decision waits for the seller.
            self._deal(state, seat, kind, card)
            return None
        if phase == BUY_OR_PASS:
            card = self.space_card[state.pos[seat]]
            if kind == BUY:
                state.cash[seat] -= self.price[card]
                state.bank_net += self.price[card]
                self._gain(state, seat, card)
                state.stats[ST_BOUGHT] += 1
                self._say(state, f"Seat {seat} buys {names[card]} for {self.price[card]}.")
            else:
                fee = self.munch_fee(state, card, seat)
                state.queue += (seat, BANK, fee)
                self._say(state, f"Seat {seat} passes on {names[card]}; pays {fee} to the bank.")
            return self._settle(state)
        if phase == TAKEOVER_CHOICE:
            if kind == TAKEOVER:
                self._battle(state, seat, card)
            return self._settle(state)
        if phase == SWAP_CHOICE:
            if kind == SWAP:
                other = action.other
                theirs = state.owner[other]
                self._gain(state, theirs, card)
                self._gain(state, seat, other)
                state.stats[ST_SWAPS] += 1
                self._say(
                    state,
                    f"Swap Swap: seat {seat} gives {names[card]} to seat {theirs} for "
                    f"{names[other]}.",
                )
            return self._settle(state)
        if phase == INSURE_CHOICE:
            if kind == INSURE:
                state.insured[card] = True
                self._say(state, f"Seat {seat} insures {names[card]} with BellyGuard.")
            return self._settle(state)
        if phase == YUCK_CHOICE:
            state.queue += (seat, action.other, self.bank.yuck_fine)
            self._say(
                state, f"Yuck! Seat {seat} owes {self.bank.yuck_fine} to seat {action.other}."
            )
            return self._settle(state)
        if phase == TUNNEL_CHOICE:
            if kind == TUNNEL:
                state.pos[seat] = self.tunnel_exit[state.pos[seat]]
                state.tunnel_used[seat] = True
                state.stats[ST_TUNNELS] += 1
                self._say(state, f"Seat {seat} goes through the tunnel.")
            return self._settle(state)
        if phase == RESPOND:
            return self._answer(state, seat, kind == ACCEPT)
        # WINDOW or DEBT: a deal.
        if kind == PASS:
            return self._next_in_window(state)
        if kind == OFFER:
            if phase == WINDOW:
                state.window_offered = True
                state.window_actions += 1
            else:
                state.debt_offers -= 1
            state.offer = (seat, card, action.other, action.amount)
            state.resume = phase
            state.phase = RESPOND
            state.acting = (action.other,)
            self._say(
                state,
                f"Seat {seat} offers {names[card]} to seat {action.other} for {action.amount}.",
            )
            return None
        self._deal(state, seat, kind, card)
        if phase == DEBT:
            return self._settle(state)
        state.window_actions += 1
        self._after_window_deal(state, seat)
        return None

    def _after_window_deal(self, state: BellyState, seat: int) -> None:
        if state.window_actions >= WINDOW_CAP or seat not in state.owner:
            self._next_in_window(state)

    def _deal(self, state: BellyState, seat: int, kind: int, card: int) -> None:
        """Buy a chef or star, or sell a card, chef or star to Mr. Munchwalla."""
        name = self.names[card]
        sellback = self.bank.token_sellback
        if kind == CHEF:
            state.cash[seat] -= self.chef_price[card]
            state.bank_net += self.chef_price[card]
            state.chefs[card] += 1
            state.stats[ST_CHEFS] += 1
            self._say(state, f"Seat {seat} hires a chef at {name}.")
        elif kind == STAR:
            state.cash[seat] -= self.star_price[card]
            state.bank_net += self.star_price[card]
            state.star[card] = 1
            state.stats[ST_STARS] += 1
            self._say(state, f"Seat {seat} earns a star for {name}.")
        elif kind == SELL:
            value = self.sale_value(state, card)
            state.cash[seat] += value
            state.bank_net -= value
            self._to_bank(state, card)
            state.stats[ST_SOLD] += 1
            self._say(state, f"Seat {seat} sells {name} back to the bank for {value}.")
        elif kind == SELL_CHEF:
            state.cash[seat] += sellback
            state.bank_net -= sellback
            state.chefs[card] -= 1
            self._say(state, f"Seat {seat} sells a chef of {name} for {sellback}.")
        else:  # SELL_STAR
            state.cash[seat] += sellback
            state.bank_net -= sellback
            state.star[card] = 0
            self._say(state, f"Seat {seat} sells the star of {name} for {sellback}.")

    def _answer(self, state: BellyState, seat: int, accept: bool) -> None:
        seller, card, buyer, price = state.offer
        if accept:
            state.cash[buyer] -= price
            state.cash[seller] += price
            self._gain(state, buyer, card)
            state.stats[ST_TRADES] += 1
            self._say(state, f"Seat {buyer} buys {self.names[card]} for {price}.")
        else:
            self._say(state, f"Seat {buyer} declines.")
        state.offer = (NOBODY, -1, NOBODY, 0)
        state.phase = state.resume
        state.acting = (seller,)
        if state.resume == DEBT:
            return self._settle(state)
        self._after_window_deal(state, seller)
        return None

    # ------------------------------------------------------------------ the end

    def standings(self, state: BellyState) -> tuple[float, ...]:
        """Wealth so far; a bankrupt seat has none."""
        return tuple(
            0.0 if s == state.bankrupt else float(self.wealth(state, s))
            for s in range(state.num_players)
        )

    def outcome(self, state: BellyState) -> Outcome:
        if state.phase != OVER:
            raise PotluckError(
                f"the game is not over: it is round {state.round + 1}, seat {state.turn}'s turn"
            )
        n = state.num_players
        scores = tuple(0 if s == state.bankrupt else self.wealth(state, s) for s in range(n))
        keys = [(0 if s == state.bankrupt else 1, scores[s], state.cash[s]) for s in range(n)]
        result = Outcome.from_keys(scores, keys, "")
        winners = result.winners
        best = scores[winners[0]]
        if state.bankrupt != NOBODY:
            why = f"Seat {state.bankrupt} went bankrupt"
        else:
            why = f"The {state.options['max_rounds']}-round limit was reached"
        if len(winners) > 1:
            reason = f"{why}; seats {', '.join(map(str, winners))} share the win on {best} wealth."
        else:
            reason = f"{why}; seat {winners[0]} is richest with {best} Brupees of wealth."
        return Outcome(result.scores, result.winners, result.ranking, result.places, reason)

    def metrics(self, state: BellyState) -> dict[str, float | int | str]:
        rounds = state.round + (1 if state.bankrupt != NOBODY else 0)
        out: dict[str, float | int | str] = {
            "rounds": rounds,
            "bankruptcy": 1 if state.bankrupt != NOBODY else 0,
            "ended_by": "bankruptcy" if state.bankrupt != NOBODY else "max_rounds",
        }
        for name, value in zip(STAT_NAMES, state.stats, strict=True):
            out[name] = value
        if state.phase == OVER:
            winner = self.outcome(state).winners[0]
            mine = self.owned(state, winner)
            out["winner_cards"] = len(mine)
            out["winner_chefs"] = sum(state.chefs[c] for c in mine)
            out["winner_stars"] = sum(state.star[c] for c in mine)
            out["winner_cash"] = state.cash[winner]
            out["winner_in_triple"] = int(
                any(c < self.num_restaurants and self._in_triple(state, c, winner) for c in mine)
            )
        return out

    def seat_metrics(self, state: BellyState, seat: int) -> dict[str, float | int]:
        """What ``seat`` held at the end, for the lab's "what goes with winning" tables.

        ``restaurant:<slug>`` (or a cafe's slug) is 1 for each card it owns;
        ``cuisine:<name>`` counts its restaurants of that cuisine; ``chefs``,
        ``stars`` and ``insured`` count what sits on its cards; ``cash`` and
        ``bankrupt`` are its final standing. Its choices over the game:
        ``restaurants_bought``, ``takeovers``, ``upgrades`` (chefs and stars bought),
        ``sales_to_bank``, ``offers_made``, ``offers_accepted``, ``offers_declined``,
        ``swaps`` and ``yucks``.
        """
        found: dict[str, float | int] = {}
        chefs = stars = insured = 0
        for card in self.owned(state, seat):
            found[f"restaurant:{self.slugs[card]}"] = 1
            if card < self.num_restaurants:
                key = f"cuisine:{self.cuisines[self.cuisine_of[card]]}"
                found[key] = found.get(key, 0) + 1
            chefs += state.chefs[card]
            stars += state.star[card]
            insured += int(state.insured[card])
        found["chefs"] = chefs
        found["stars"] = stars
        found["insured"] = insured
        found["cash"] = state.cash[seat]
        found["bankrupt"] = int(state.bankrupt == seat)
        # The choices a designer asks about: how often the seat bought, upgraded, sold
        # back to the bank and traded, counted from its moves.
        kinds = [a.kind for who, a in state.history if who == seat and isinstance(a, BellyAction)]
        for key, counted in _CHOICE_METRICS.items():
            found[key] = sum(1 for kind in kinds if kind in counted)
        return found

    # ------------------------------------------------------------------ text and numbers

    def parse_action(self, state: BellyState | None, seat: int, text: str) -> BellyAction:
        return self._action_from_text(text)

    def _action_from_text(self, text: str) -> BellyAction:
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
                f"{text!r} is not a Belly Battle action; actions are: {self.notation}"
            )
        return action

    def max_steps(self, num_players: int) -> int:
        n, cards, rests = num_players, self.num_cards, self.num_restaurants
        debts = 2 + (n - 1) * rests + 1
        # Sales at a decision (ruling BB-13): what a seat sells goes to the bank and cannot
        # come back before the next window, so each seat sells each card and token at most
        # once a turn.
        sales_at_decisions = n * (cards + 3 * rests)
        per_turn = (
            8
            + n * (2 * WINDOW_CAP + 2)
            + cards
            + 3 * rests
            + debts * (2 * DEBT_OFFERS + 1)
            + sales_at_decisions
        )
        return MAX_ROUNDS_LIMIT * n * per_turn

    def num_distinct_actions(
        self, num_players: int, options: Mapping[str, Any] | None = None
    ) -> int:
        return len(self.actions)

    def action_from_index(self, state: BellyState | None, seat: int, index: int) -> BellyAction:
        if (
            isinstance(index, bool)
            or not isinstance(index, int)
            or not 0 <= index < len(self.actions)
        ):
            raise InvalidActionError(
                f"action index {index!r} is out of range: Belly Battle has "
                f"{len(self.actions)} actions"
            )
        return self.actions[index]

    def action(self, text: str) -> BellyAction:
        """The action written ``text`` (for tests and bots)."""
        return self._action_from_text(text)

    def act(self, kind: int, card: int = 0, other: int = 0) -> BellyAction:
        """The action of ``kind`` on ``card`` (``other``: the second card or the seat)."""
        return self._act(kind, card, other)

    def offers(self, card: int, seat: int) -> tuple[BellyAction, ...]:
        """The offers of ``card`` to ``seat``, cheapest first."""
        return self._offers(card, seat)

    # ------------------------------------------------------------------ views

    def _observation_features(self, num_players: int, options: Mapping[str, Any]) -> list[Feature]:
        from potluck.games.belly_battle.encoding import features

        return features(self, num_players, options)

    def _encode_view(self, view: Mapping[str, Any], out: ObservationWriter) -> None:
        from potluck.games.belly_battle.encoding import encode

        encode(self, view, out)

    def _encode_state(
        self, state: BellyState, seat: int, encoding: ObservationEncoding
    ) -> list[float]:
        from potluck.games.belly_battle.encoding import encode_state

        return encode_state(self, state, seat, encoding)

    def view(self, state: BellyState, seat: int | None) -> dict[str, Any]:
        from potluck.games.belly_battle.view import build_view

        return build_view(self, state, seat)

    def redeal(self, state: BellyState, seat: int, rng: random.Random) -> BellyState:
        from potluck.games.belly_battle.view import redeal

        return redeal(self, state, seat, rng)

    def invariants(self, state: BellyState) -> list[str]:
        """Tokens within their supplies and rules; Munchtime cards conserved; cash >= 0."""
        from potluck.games.belly_battle.view import invariant_problems

        return invariant_problems(self, state)

    # ------------------------------------------------------------------ bots

    def bots(self) -> dict[str, Callable[[], Bot]]:
        from potluck.games.belly_battle.bots import GreedyBot

        return {"random": RandomBot, "greedy": GreedyBot}

    # ------------------------------------------------------------------ saving

    def _state_to_json(self, state: BellyState) -> dict[str, Any]:
        return {
            "round": state.round,
            "turn": state.turn,
            "phase": state.phase,
            "dice": list(state.dice),
            "pos": list(state.pos),
            "cash": list(state.cash),
            "tunnel_used": list(state.tunnel_used),
            "tunnel_blocked": state.tunnel_blocked,
            "owner": list(state.owner),
            "chefs": list(state.chefs),
            "star": list(state.star),
            "insured": list(state.insured),
            "acquired": list(state.acquired),
            "stamp": state.stamp,
            "golden": state.golden,
            "holders": list(state.holders),
            "munch": list(state.munch),
            "deck": list(state.deck),
            "knows": list(state.knows),
            "queue": list(state.queue),
            "after": state.after,
            "window_left": list(state.window_left),
            "window_actions": state.window_actions,
            "window_offered": state.window_offered,
            "debt_offers": state.debt_offers,
            "offer": list(state.offer),
            "resume": state.resume,
            "bankrupt": state.bankrupt,
            "bank_net": state.bank_net,
            "log": list(state.log),
            "stats": list(state.stats),
        }

    def _state_from_json(
        self, data: Mapping[str, Any], num_players: int, seed: int, options: Mapping[str, Any]
    ) -> BellyState:
        state = BellyState(num_players, seed, options)

        def ints(key: str) -> list[int]:
            return [int(x) for x in data[key]]

        try:
            state.round = int(data["round"])
            state.turn = int(data["turn"])
            state.phase = int(data["phase"])
            one, two = ints("dice")
            state.dice = (one, two)
            state.pos = ints("pos")
            state.cash = ints("cash")
            state.tunnel_used = [bool(x) for x in data["tunnel_used"]]
            state.tunnel_blocked = bool(data["tunnel_blocked"])
            state.owner = ints("owner")
            state.chefs = ints("chefs")
            state.star = ints("star")
            state.insured = [bool(x) for x in data["insured"]]
            state.acquired = ints("acquired")
            state.stamp = int(data["stamp"])
            state.golden = int(data["golden"])
            state.holders = ints("holders")
            state.munch = ints("munch")
            state.deck = ints("deck")
            state.knows = ints("knows")
            state.queue = ints("queue")
            state.after = int(data["after"])
            state.window_left = ints("window_left")
            state.window_actions = int(data["window_actions"])
            state.window_offered = bool(data["window_offered"])
            state.debt_offers = int(data["debt_offers"])
            a, b, c, d = ints("offer")
            state.offer = (a, b, c, d)
            state.resume = int(data["resume"])
            state.bankrupt = int(data["bankrupt"])
            state.bank_net = int(data["bank_net"])
            state.log = tuple(str(line) for line in data["log"])
            state.stats = ints("stats")
        except (KeyError, TypeError, ValueError) as error:
            raise RecordError(f"the saved Belly Battle state is malformed: {error!r}") from None
        if len(state.cash) != num_players or len(state.owner) != self.num_cards:
            raise RecordError("the saved Belly Battle state does not match its table or board")
        if not 0 <= state.phase < len(PHASE_NAMES):
            raise RecordError(f"the saved Belly Battle state has an unknown phase {state.phase}")
        return state


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


#: Selling back to Mr. Munchwalla is allowed "at any time" (ruling BB-13): at every
#: decision a player has, besides the windows and debts.
_SALES = frozenset({SELL, SELL_CHEF, SELL_STAR})
_KINDS_OF_PHASE: dict[int, frozenset[int]] = {
    BUY_OR_PASS: frozenset({BUY, PASS}) | _SALES,
    TAKEOVER_CHOICE: frozenset({TAKEOVER, PASS}) | _SALES,
    SWAP_CHOICE: frozenset({SWAP, PASS}) | _SALES,
    INSURE_CHOICE: frozenset({INSURE, PASS}) | _SALES,
    YUCK_CHOICE: frozenset({YUCK}) | _SALES,
    TUNNEL_CHOICE: frozenset({TUNNEL, PASS}) | _SALES,
    WINDOW: frozenset({CHEF, STAR, SELL, SELL_CHEF, SELL_STAR, OFFER, PASS}),
    RESPOND: frozenset({ACCEPT, DECLINE}) | _SALES,
    DEBT: frozenset({SELL, SELL_CHEF, SELL_STAR, OFFER}),
    OVER: frozenset(),
}
_PHASE_HINT = {
    BUY_OR_PASS: "You landed on a restaurant for sale: 'buy' it or 'pass' (and pay its basic fee).",
    TAKEOVER_CHOICE: "Takeover Battle: challenge with 'takeover <card>' or 'pass'.",
    SWAP_CHOICE: "Swap Swap: 'swap <yours> for <theirs>' or 'pass'.",
    INSURE_CHOICE: "BellyGuard Insurance: 'insure <restaurant>' or 'pass'.",
    YUCK_CHOICE: "Yuck! Choose the player you pay 50 to: 'yuck <seat>'.",
    TUNNEL_CHOICE: "Tunnel: go through with 'tunnel' or stay with 'pass'.",
    WINDOW: ("Upgrade window: buy a chef or star, sell to the bank, make an offer, or 'pass'."),
    RESPOND: "Answer the offer: 'accept' or 'decline'.",
    DEBT: (
        "You owe more than your cash: sell a card, chef or star to the bank, or offer a "
        "card to a player, until you can pay."
    ),
    OVER: "The game is over.",
}
_PHASE_DOING = {
    BUY_OR_PASS: "buy or pass",
    TAKEOVER_CHOICE: "choose a takeover",
    SWAP_CHOICE: "choose a swap",
    INSURE_CHOICE: "choose a restaurant to insure",
    YUCK_CHOICE: "choose who gets the Yuck! compensation",
    TUNNEL_CHOICE: "choose whether to take the tunnel",
    WINDOW: "deal or pass in the upgrade window",
    RESPOND: "answer an offer",
    DEBT: "raise cash to pay a debt",
    OVER: "nothing",
}
