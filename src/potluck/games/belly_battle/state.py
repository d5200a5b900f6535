"""Belly Battle's state: flat lists of small ints, cheap to copy."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Self, cast

from mypy_extensions import mypyc_attr

from potluck.engine.state import State

# Phases: who must decide what. (Constants are ``Final``: compiled modules read them as
# constants, not as module attributes.)
BUY_OR_PASS: Final = 0
TAKEOVER_CHOICE: Final = 1
SWAP_CHOICE: Final = 2
INSURE_CHOICE: Final = 3
YUCK_CHOICE: Final = 4
TUNNEL_CHOICE: Final = 5
WINDOW: Final = 6
RESPOND: Final = 7
DEBT: Final = 8
OVER: Final = 9
#: Never seen between steps: the turn is over and the next one is to start.
NEXT_TURN: Final = -1
#: (Typed as tuples of any length, as ``ALONE`` below is, so that compiled code keeps each
#: as one Python tuple.)
PHASE_NAMES: Final[tuple[str, ...]] = (
    "buy-or-pass",
    "takeover",
    "swap",
    "insure",
    "yuck",
    "tunnel",
    "upgrade-window",
    "respond-to-offer",
    "raise-cash",
    "over",
)

# The one-round cards, by their slot in ``holders``.
CELEBRITY: Final = 0
HAUNTED: Final = 1
MONSTERCHEF: Final = 2
CHEESY: Final = 3
ROUND_CARD_NAMES: Final[tuple[str, ...]] = (
    "Celebrity Visit",
    "Haunted",
    "MonsterChef",
    "Cheesy Scandal",
)

# Where play goes once the queue of payments is settled.
AFTER_LAND: Final = 0
AFTER_WINDOW: Final = 1

BANK: Final = -1
NOBODY: Final = -1
#: ``offer`` while no offer is open: (seller, card, buyer, price).
NO_OFFER: Final = (NOBODY, -1, NOBODY, 0)
#: ``(seat,)`` for each seat of the largest table (``tables.MAX_SEATS``): the ``acting``
#: of a decision one seat makes, shared rather than a new tuple made at every decision.
#: Typed as a tuple of any length on purpose: mypyc keeps a ``Final`` tuple of fixed
#: length as a C struct and builds it again as Python tuples wherever it is used as an
#: object, so ``ALONE[seat]`` made seven tuples (about 15% of a random game's instructions,
#: by ``valgrind``'s counts for the functions that read it, issue 36).
ALONE: Final[tuple[tuple[int, ...], ...]] = ((0,), (1,), (2,), (3,), (4,), (5,))
#: How many lines of the table's log the state keeps (views show them all).
LOG_LINES: Final = 12
#: ``say`` cuts the chain of lines back to ``LOG_LINES`` once it is this long (a cut makes
#: ``LOG_LINES`` new links, so cutting at twice the length cost a link a line: 4% of a
#: random step; at four times, cuts were still 2.8% of a compiled random step under
#: ``perf``, issue 36; at eight times, ``say`` and its cuts were 16.7 M instructions of 100
#: random games' 323 M by ``valgrind``'s counts, at 32 times 9.5 M). A longer chain holds
#: more lines alive, never more than this.
LOG_CHAIN_LIMIT: Final = 32 * LOG_LINES
#: A line of the table's log: ``(template, the line said before it or None, *values)``;
#: a plain tuple (a recursive tuple type compiles to slower code), one per line.
LogLine = tuple[object, ...]
#: The most values a line of the log fills in (``BellyState.say``).
LOG_VALUES: Final = 5
#: ``say``'s default for a value it was not given (none of the rules' values is this).
_UNSAID: Final = object()

#: Counters kept for ``metrics``, by their slot in ``stats``.
STAT_NAMES = (
    "restaurants_bought",
    "takeovers_won",
    "takeovers_lost",
    "swaps",
    "trades",
    "sold_to_bank",
    "chefs_bought",
    "stars_bought",
    "munchtimes",
    "tunnels",
    "debts",
)
ST_BOUGHT: Final = 0
ST_TAKE_WON: Final = 1
ST_TAKE_LOST: Final = 2
ST_SWAPS: Final = 3
ST_TRADES: Final = 4
ST_SOLD: Final = 5
ST_CHEFS: Final = 6
ST_STARS: Final = 7
ST_MUNCH: Final = 8
ST_TUNNELS: Final = 9
ST_DEBTS: Final = 10


@mypyc_attr(allow_interpreted_subclasses=True)
class BellyState(State):
    """The table during a game of Belly Battle.

    Card-indexed lists (``owner``, ``chefs``, ``star``, ``insured``, ``acquired``)
    hold restaurants first, then corner cafes. Seat-indexed lists hold one entry
    per seat. ``queue`` holds payments still to make, three ints each
    (payer, payee or ``BANK``, amount).
    """

    __slots__ = (
        "acquired",
        "after",
        "bank_net",
        "bankrupt",
        "cards_token",
        "cash",
        "chefs",
        "debt_offers",
        "deck",
        "dice",
        "golden",
        "holders",
        "holdings",
        "insured",
        "knows",
        "log_last",
        "log_size",
        "munch",
        "offer",
        "owner",
        "phase",
        "pos",
        "queue",
        "resume",
        "round",
        "stamp",
        "star",
        "stats",
        "tunnel_blocked",
        "tunnel_used",
        "turn",
        "window_actions",
        "window_offered",
        "window_waiting",
    )

    round: int  # 0-based round number
    turn: int  # the seat whose turn it is
    phase: int
    dice: tuple[int, int]  # the mover's last roll
    pos: list[int]  # per seat: board space
    cash: list[int]
    tunnel_used: list[bool]  # per seat: went through the tunnel this turn or last
    tunnel_blocked: bool  # the mover went through the tunnel on their previous turn
    owner: list[int]  # per card: seat or BANK
    #: Per seat: the cards it owns as bits (bit ``c``: card ``c``), the same thing as
    #: ``owner`` read the other way. Kept by ``ownership.gain`` and ``to_bank``, the only
    #: writers of ``owner``; ``invariants`` holds the two equal. "Does this seat own
    #: anything" and "which cards" are asked at most steps: reading them from the bits
    #: costs a look-up, not a pass over every card.
    holdings: list[int]
    chefs: list[int]  # per card
    star: list[int]  # per card: 0 or 1
    insured: list[bool]  # per card: a BellyGuard card sits by it
    acquired: list[int]  # per card: when its owner got it (``stamp`` then), for Golden Belly
    stamp: int
    golden: int  # card with the Golden Belly Award, or -1 (on its space)
    holders: list[int]  # per one-round card: the seat holding it, or NOBODY
    munch: list[int]  # per seat: its Munchtime card
    deck: list[int]  # Munchtime cards with Mr. Munchwalla, sorted (drawn at random)
    knows: list[int]  # per seat: bit mask of seats whose current card it has seen
    queue: list[int]  # payments to make, (payer, payee, amount) flattened
    after: int  # AFTER_LAND or AFTER_WINDOW, once the queue is settled
    #: Seats still to act in this upgrade window, the next one LAST (taken from the end:
    #: ``pop(0)`` moved the list down at every window turn; ``next_in_window`` fell from
    #: 11.4 M to 7.4 M instructions in 100 random games, issue 36). Saves and views show
    #: it in window order.
    window_waiting: list[int]
    window_actions: int  # deals the seat acting in the window has made
    window_offered: bool  # it has made its one offer of this window
    debt_offers: int  # offers the debtor may still make
    offer: tuple[int, int, int, int]  # (seller, card, buyer, price) of the open offer
    resume: int  # the phase to go back to after an offer is answered
    bankrupt: int  # the bankrupt seat, or NOBODY
    bank_net: int  # Brupees Mr. Munchwalla has taken in, less what he has paid out
    #: What happened lately: the newest line said, as ``(template, line before, *values)``
    #: (``None`` before the first), written out only when read (``log``), as a simulation
    #: never reads the lines it says. Lines are never changed, so clones share them.
    log_last: LogLine | None
    #: How many lines ``log_last`` reaches back (up to ``LOG_CHAIN_LIMIT``: ``say`` cuts
    #: the chain back to ``LOG_LINES`` then).
    log_size: int
    stats: list[int]
    #: A new object whenever the public card state (``owner``, ``chefs``, ``star``,
    #: ``holders``, ``golden``) may have changed (``cards_changed``); a clone shares it.
    #: The greedy bot's ``seat_info.PublicCards`` is reused while the token is the same
    #: object, one comparison instead of five lists compared at every decision
    #: (issue 36). Never saved: a loaded or unpickled state has a token of its own.
    cards_token: object

    def __init__(self, num_players: int, seed: int, options: Mapping[str, Any]) -> None:
        super().__init__(num_players, seed, options)
        self.cards_token = object()

    def cards_changed(self) -> None:
        """Say that the public card state may have changed: every rule that changes
        ``owner``, ``chefs``, ``star``, ``holders`` or ``golden`` calls it, and so must
        any other code that changes them (``tests/test_belly_battle_cards_token.py``
        plays random games and checks that an unchanged token means unchanged cards)."""
        self.cards_token = object()

    @property
    def log(self) -> tuple[str, ...]:
        """What happened lately, in words, newest last (the last ``LOG_LINES`` lines)."""
        return tuple(template.format(*values) for template, values in self.log_entries)

    @property
    def log_entries(self) -> tuple[tuple[str, tuple[object, ...]], ...]:
        """The last ``LOG_LINES`` lines said, oldest first: each line's template and values."""
        kept = _last_lines(self.log_last)
        return tuple((cast(str, line[0]), line[2:]) for line in reversed(kept))

    @log_entries.setter
    def log_entries(self, entries: tuple[tuple[str, tuple[object, ...]], ...]) -> None:
        line: LogLine | None = None
        for template, values in entries[-LOG_LINES:]:
            line = (template, line, *values)
        self.log_last = line
        self.log_size = min(len(entries), LOG_LINES)

    def say(
        self,
        template: str,
        first: object = _UNSAID,
        second: object = _UNSAID,
        third: object = _UNSAID,
        fourth: object = _UNSAID,
        fifth: object = _UNSAID,
    ) -> None:
        """Add the line ``template.format(first, second...)`` (up to ``LOG_VALUES`` values)
        to the table's log, keeping the last ``LOG_LINES``; it is written out only when
        the log is read (formatting every line was a tenth of a random step, issue 36).
        A line is linked to the one before it, not copied with them into a new tuple
        (that copy was a tenth of a random step again), and holds its values itself: one
        tuple a line (its values packed apart, as ``*values`` packs them, were a second
        one). The chain is cut back to ``LOG_LINES`` once it is ``LOG_CHAIN_LIMIT`` lines
        long, so it never holds more.

            >>> state = BellyState(2, seed=0, options={})
            >>> state.log_entries = ()
            >>> for number in range(30):
            ...     state.say("Line {} of {}.", number, 30)
            >>> state.log[0], state.log[-1], len(state.log)
            ('Line 18 of 30.', 'Line 29 of 30.', 12)
        """
        last = self.log_last
        if second is _UNSAID:
            if first is _UNSAID:
                self.log_last = (template, last)
            else:
                self.log_last = (template, last, first)
        elif third is _UNSAID:
            self.log_last = (template, last, first, second)
        elif fourth is _UNSAID:
            self.log_last = (template, last, first, second, third)
        elif fifth is _UNSAID:
            self.log_last = (template, last, first, second, third, fourth)
        else:
            self.log_last = (template, last, first, second, third, fourth, fifth)
        self.log_size += 1
        if self.log_size >= LOG_CHAIN_LIMIT:
            self._cut_log()

    def _cut_log(self) -> None:
        """Keep the last ``LOG_LINES`` lines, in a chain of their own (clones may still
        share the longer one)."""
        kept = _last_lines(self.log_last)
        last: LogLine | None = None
        for index in range(len(kept) - 1, -1, -1):
            line = kept[index]
            last = (line[0], last, *line[2:])
        self.log_last = last
        self.log_size = len(kept)

    def clone(self) -> Self:
        twin = self._blank_copy()
        twin.round = self.round
        twin.turn = self.turn
        twin.phase = self.phase
        twin.dice = self.dice
        twin.pos = self.pos.copy()
        twin.cash = self.cash.copy()
        twin.tunnel_used = self.tunnel_used.copy()
        twin.tunnel_blocked = self.tunnel_blocked
        twin.owner = self.owner.copy()
        twin.holdings = self.holdings.copy()
        twin.chefs = self.chefs.copy()
        twin.star = self.star.copy()
        twin.insured = self.insured.copy()
        twin.acquired = self.acquired.copy()
        twin.stamp = self.stamp
        twin.golden = self.golden
        twin.holders = self.holders.copy()
        twin.munch = self.munch.copy()
        twin.deck = self.deck.copy()
        twin.knows = self.knows.copy()
        twin.queue = self.queue.copy()
        twin.after = self.after
        twin.window_waiting = self.window_waiting.copy()
        twin.window_actions = self.window_actions
        twin.window_offered = self.window_offered
        twin.debt_offers = self.debt_offers
        twin.offer = self.offer
        twin.resume = self.resume
        twin.bankrupt = self.bankrupt
        twin.bank_net = self.bank_net
        twin.log_last = self.log_last
        twin.log_size = self.log_size
        twin.stats = self.stats.copy()
        twin.cards_token = self.cards_token
        return twin


def _last_lines(newest: LogLine | None) -> list[LogLine]:
    """The last ``LOG_LINES`` lines of the chain that ends with ``newest``, newest first
    (what ``log_entries`` shows and ``_cut_log`` keeps)."""
    kept: list[LogLine] = []
    line = newest
    while line is not None and len(kept) < LOG_LINES:
        kept.append(line)
        line = cast("LogLine | None", line[1])
    return kept
