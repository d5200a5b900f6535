"""FoodAdvice's state: flat lists of small ints (and the products' names), cheap to copy."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Self

from mypy_extensions import mypyc_attr

from potluck.engine.state import State
from potluck.games.food_advice.market import Offer

# Phases of a round, in order (``PHASE_NAMES`` for views).
# (``Final``: compiled modules read them as constants, not as module attributes.)
EXCHANGE: Final = 0
RESPOND: Final = 1
KEEP: Final = 2
NAMING: Final = 3
VOTING: Final = 4
PLACING: Final = 5
EVENTS: Final = 6
OVER: Final = 7
PHASE_NAMES: Final[tuple[str, ...]] = (
    "exchange",
    "respond",
    "keep",
    "naming",
    "voting",
    "placing",
    "events",
    "over",
)

ROLES: Final[tuple[str, ...]] = (
    "Banker",
    "Journalist",
    "Farmer",
    "Politician",
    "Retailer",
    "Prosecutor",
)
# Promotion channels: the data's advertising channels come first (0..A-1), then these.
FLAVOR_SAMPLING: Final = "Flavor Sampling"
BLACK_FRIDAY: Final = "Black Friday"
MABIUS: Final = "Mabius"

#: Slots holding ints, one list or tuple each, in the order a saved state lists them.
INT_SLOTS = (
    "roles",
    "money",
    "chips",
    "ing_deck",
    "ing_returned",
    "shape_deck",
    "dealt_shape",
    "prod_owner",
    "prod_shape",
    "prod_round",
    "votes",
    "shop_deck",
    "board",
    "shop_chips",
    "channel_chips",
    "invest",
    "event_deck",
    "event_discard",
    "event_new",
    "extra",
    "cust_deck",
    "cust_discard",
    "cust_table",
    "order",
    "offered",
    "offer_ings",
    "given_ings",
)
#: Slots holding lists of ints, one a seat (or a product), likewise.
NESTED_SLOTS = ("hands", "prod_ings", "held")
#: Slots holding strings, one list or tuple each, likewise.
STR_SLOTS = ("prod_name", "prod_tagline", "pending_name", "pending_tagline")
#: Of these, the slots holding tuples (of ints, of tuples of ints, of strings), never
#: lists: the rules replace them with a new tuple to change them (a tuple cannot be
#: changed in place), so clones share them. They are fixed for the game (``roles``), set
#: once a round (``order``, ``board``), per product joining the table or trimmed
#: (``prod_*``), or per card offered or given (``offer_ings``, ``given_ings``); the
#: greedy bot's input knows the products are unchanged by their tuples' identity
#: (``seat_info.table_products``). The other slots' lists are copied on clone.
SHARED = (
    "roles",
    "prod_owner",
    "prod_shape",
    "prod_round",
    "order",
    "board",
    "offer_ings",
    "given_ings",
    "prod_ings",
    "prod_name",
    "prod_tagline",
)
#: Slots holding ints.
INTS = ("round", "phase", "turn", "offer_from", "offer_to")
#: Slots holding public logs: lists of JSON-ready dicts, never changed in place (a new
#: list is made to add an entry), so clones share them.
LOGS = ("log", "trades", "sales", "events_played")
#: The end-of-game tie-break, a JSON-ready dict (or ``None``), never changed in place.
OTHER = ("tiebreak",)
ALL_SLOTS = INTS + INT_SLOTS + NESTED_SLOTS + STR_SLOTS + LOGS + OTHER
#: A slot that remembers what the rules worked out from other slots: never saved, and
#: checked against what it was worked out from at every read (``presentation.offers``).
MEMOS = ("offer_memo",)


@mypyc_attr(allow_interpreted_subclasses=True)
class FoodState(State):
    """The table during a game of FoodAdvice.

    Cards are indices into the game's data lists. The ingredient and shop decks are
    ordered piles (``deck[-1]`` is the top, ``deck[0]`` the bottom): shuffled once,
    dealt from the top, and played cards go to the bottom (rulebook, Farmer and
    Retailer). ``ing_returned[k]`` says who put ``ing_deck[k]`` there (a seat's
    face-down discard, or -1 for a card removed from a product in the open); the
    cards above them were never seen. Other decks are unordered: a card is drawn at
    random when dealt (as from a shuffled deck). Products are parallel tuples (``prod_*``), one
    entry per product created, in order of creation. ``order`` is this round's seat
    order for turns (it starts one seat further each round); ``turn`` indexes it.
    """

    __slots__ = ALL_SLOTS + MEMOS

    round: int  # 0-based; equals the number of rounds once the game is over
    phase: int
    turn: int
    offer_from: int  # the offer being made or answered (-1 when none)
    offer_to: int
    offer_ings: tuple[int, ...]  # the ingredients offered (in the offerer's hand until it is done)
    given_ings: tuple[int, ...]  # those the other player has given back so far
    roles: tuple[int, ...]
    money: list[int]
    chips: list[int]  # chips each player holds (3 + votes won + events)
    ing_deck: list[int]
    ing_returned: list[int]  # per card at the bottom of ing_deck: who returned it (-1: all saw)
    shape_deck: list[int]
    dealt_shape: list[int]  # per seat: the shape dealt this round (-1 before the deal)
    prod_owner: tuple[int, ...]
    prod_shape: tuple[int, ...]
    prod_round: tuple[int, ...]
    votes: list[int]  # per seat: the seat voted for this round (-1: not yet)
    shop_deck: list[int]
    board: tuple[int, ...]  # shop cards face up this round
    shop_chips: list[int]  # per seat: bit mask of board slots holding its chip
    channel_chips: list[int]  # per seat: bit mask of promotion channels holding its chip
    invest: list[int]  # per seat: the seat invested in through Mabius (-1: none)
    event_deck: list[int]
    event_discard: list[int]
    event_new: list[int]  # per seat: the event card dealt and not yet played (-1: none)
    extra: list[int]  # per seat: extra personal customers won by events this round
    cust_deck: list[int]
    cust_discard: list[int]
    cust_table: list[int]  # customers revealed this round (kept until the round ends)
    order: tuple[int, ...]
    offered: list[int]  # per seat: offers made in this round's exchange window
    hands: list[list[int]]  # per seat: ingredient cards in hand
    prod_ings: tuple[tuple[int, ...], ...]  # per product: its ingredients (events may remove some)
    held: list[list[int]]  # per seat: event cards held face down for later
    prod_name: tuple[str, ...]
    prod_tagline: tuple[str, ...]
    pending_name: list[str]  # per seat: the name given this round, secret until all named
    pending_tagline: list[str]
    log: list[dict[str, Any]]  # one entry per finished round
    trades: list[dict[str, Any]]  # this round's offers and answers
    sales: list[dict[str, Any]]  # this round's customers and what they did
    events_played: list[dict[str, Any]]  # this round's events
    tiebreak: dict[str, Any] | None
    offer_memo: list[Offer]  # per product: its ``Offer`` as last made (``offers``)

    def __init__(self, num_players: int, seed: int, options: Mapping[str, Any]) -> None:
        super().__init__(num_players, seed, options)
        self.offer_memo = []

    def clone(self) -> Self:
        # Written out slot by slot: a loop over the names with getattr and setattr
        # costs more than the copies. The tuples (``SHARED``) are shared.
        twin = self._blank_copy()
        twin.round = self.round
        twin.phase = self.phase
        twin.turn = self.turn
        twin.offer_from = self.offer_from
        twin.offer_to = self.offer_to
        twin.log = self.log
        twin.trades = self.trades
        twin.sales = self.sales
        twin.events_played = self.events_played
        twin.tiebreak = self.tiebreak
        twin.roles = self.roles
        twin.prod_owner = self.prod_owner
        twin.prod_shape = self.prod_shape
        twin.prod_round = self.prod_round
        twin.prod_name = self.prod_name
        twin.prod_tagline = self.prod_tagline
        twin.order = self.order
        twin.board = self.board
        twin.offer_ings = self.offer_ings
        twin.given_ings = self.given_ings
        twin.prod_ings = self.prod_ings
        twin.money = self.money.copy()
        twin.chips = self.chips.copy()
        twin.ing_deck = self.ing_deck.copy()
        twin.ing_returned = self.ing_returned.copy()
        twin.shape_deck = self.shape_deck.copy()
        twin.dealt_shape = self.dealt_shape.copy()
        twin.votes = self.votes.copy()
        twin.shop_deck = self.shop_deck.copy()
        twin.shop_chips = self.shop_chips.copy()
        twin.channel_chips = self.channel_chips.copy()
        twin.invest = self.invest.copy()
        twin.event_deck = self.event_deck.copy()
        twin.event_discard = self.event_discard.copy()
        twin.event_new = self.event_new.copy()
        twin.extra = self.extra.copy()
        twin.cust_deck = self.cust_deck.copy()
        twin.cust_discard = self.cust_discard.copy()
        twin.cust_table = self.cust_table.copy()
        twin.offered = self.offered.copy()
        twin.pending_name = self.pending_name.copy()
        twin.pending_tagline = self.pending_tagline.copy()
        twin.hands = [inner.copy() for inner in self.hands]
        twin.held = [inner.copy() for inner in self.held]
        # Shared, though changed in place: every read checks an offer against its
        # product, so one made for either state is right for both.
        twin.offer_memo = self.offer_memo
        return twin


def seal_choice(state: FoodState, seat: int) -> bool:
    """A sealed simultaneous choice: ``seat`` leaves ``acting``, unless it is the last to
    choose; then ``acting`` stays and this says True (the caller moves the round on)."""
    acting = state.acting
    if len(acting) > 1:
        i = acting.index(seat)
        state.acting = acting[:i] + acting[i + 1 :]
        return False
    return True


# The card lists of a hand, an offer or the board, and the seats to act, hold a few small
# ints. The legal lists and checks look cards up in them at most steps of a game (issue
# 36), and compiled code pays for ``in`` and ``list.index`` (the number boxed, each
# element compared through Python's generic comparison) far more than for a plain loop
# over whole numbers, which it runs in C. (Sorting a hand stays ``sorted``: an insertion
# sort in compiled code cost 2,350 instructions for a hand against ``sorted``'s 1,020,
# by callgrind, its list reads and writes boxed one by one.)


def holds(cards: list[int], card: int) -> bool:
    """``card in cards``, by a plain loop.

    >>> holds([3, 7], 7), holds([3, 7], 4)
    (True, False)
    """
    for held in cards:  # noqa: SIM110 (``any`` over a generator is a Python object)
        if held == card:
            return True
    return False


def holds_tuple(cards: tuple[int, ...], card: int) -> bool:
    """``holds`` of a tuple (an offer's cards, the board, a bot's choice): compiled code
    reads a tuple by place, where ``in`` asks Python's sequence protocol.

    >>> holds_tuple((3, 7), 7), holds_tuple((3, 7), 4)
    (True, False)
    """
    for held in cards:  # noqa: SIM110 (as in ``holds``)
        if held == card:
            return True
    return False


def place_of(cards: tuple[int, ...], card: int) -> int:
    """``cards.index(card)``, or -1 when ``card`` is not there (a shop's slot on the board).

    >>> place_of((9, 4, 6), 6), place_of((9, 4, 6), 5)
    (2, -1)
    """
    for k, held in enumerate(cards):
        if held == card:
            return k
    return -1


def is_acting(acting: tuple[int, ...], seat: int) -> bool:
    """``seat in acting``, by a plain loop."""
    for s in acting:  # noqa: SIM110 (as in ``holds``)
        if s == seat:
            return True
    return False
