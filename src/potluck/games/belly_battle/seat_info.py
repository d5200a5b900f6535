"""What Belly Battle's greedy bot reads, as one typed object (issue 36, lever 2).

A greedy decision used to read a dict of dicts (the seat's ``bot_view``), which compiled
code looks up as Python objects; a ``SeatInfo`` holds the same entries as typed fields.
``Game.bot_view`` builds it from the state (``SeatInfo.from_state``) and
``SeatInfo.from_view`` builds it from the seat's whole view: the conformance suite
(``check_bot_view_is_part_of_view``) holds the two equal, so the object is a function
of the view and shows nothing the view hides.

Most decisions read little of it (a window in which the seat has nothing to buy reads
its cash only), so the per-card entries (``owners``, ``chefs``, ``stars``, ``fees``) and
the seats' ``wealth`` are worked out at their first read, by the rules' own functions
(``munch_fees.listed_fee``, ``scoring.holdings_worth``) that the view uses too, from the
public card state (who owns each card, its chefs and star, who holds each one-round
card, where the Golden Belly Award is). That state changes seldom from one decision to
the next (four window turns in a row, mostly passes), so it is held once, in a
``PublicCards`` kept on the game (``BellyTables.seat_memo``) and given to every
``SeatInfo`` while the state's ``cards_token`` is the one it was made for (the rules make
a new token at every change of those lists, ``BellyState.cards_changed``), with what has
been worked out from it, rather than copying the lists at every decision and working the
entries out again (issue 36). Comparing the five lists instead cost about 2,200
instructions a decision (``valgrind``'s counts); the token is one comparison.

    >>> import potluck
    >>> game = potluck.load_game("belly-battle")
    >>> state = game.new_game(3, seed=3)
    >>> info = game.bot_view(state, 1)
    >>> info == SeatInfo.from_view(game, game.view(state, 1), 1)
    True
    >>> info.cash
    (1000, 1000, 1000)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from potluck.engine.seat_info import SeatInfoBase
from potluck.games.belly_battle.munch_fees import listed_fee
from potluck.games.belly_battle.scoring import holdings_worth
from potluck.games.belly_battle.state import BANK, NOBODY, OVER, PHASE_NAMES, RESPOND, BellyState
from potluck.games.belly_battle.tables import BellyTables


def shown_round(state: BellyState) -> int:
    """The round a view names: the one being played, or the last one once it is over (a
    game ended by a bankruptcy names the round it was in)."""
    return state.round + (0 if state.phase == OVER and state.bankrupt == NOBODY else 1)


class PublicCards:
    """The public card state a ``SeatInfo`` is worked out from (copies of the state's
    lists, never changed), and the per-card entries and worth once worked out from it.
    It depends on nothing else, so every ``SeatInfo`` of an equal card state shares one."""

    def __init__(
        self,
        num_players: int,
        owner: list[int],
        chefs: list[int],
        star: list[int],
        holders: list[int],
        golden: int,
        token: object = None,
    ) -> None:
        self.num_players = num_players
        #: The ``cards_token`` of the state these are the cards of (``None``: of none;
        #: the state keeps its token alive, and so does this reference).
        self.token = token
        self.owner = owner
        self.chefs = chefs
        self.star = star
        self.holders = holders
        self.golden = golden
        self._owners: tuple[int, ...] | None = None
        self._chefs_shown: tuple[int, ...] | None = None
        self._stars_shown: tuple[int, ...] | None = None
        self._fees: tuple[int, ...] | None = None
        self._worth: list[int] | None = None

    def __reduce__(self) -> tuple[object, ...]:
        # The game keeps one (``BellyTables.seat_memo``) and is pickled whole with an
        # OpenSpiel state; a compiled class is rebuilt by calling it, so give it the
        # arguments (what was worked out from them is worked out again when asked). The
        # token is left out: an unpickled state has a token of its own, so the copy is
        # never taken for a state's cards.
        return (
            PublicCards,
            (self.num_players, self.owner, self.chefs, self.star, self.holders, self.golden),
        )

    @staticmethod
    def of(game: BellyTables, state: BellyState) -> PublicCards:
        """The state's public card state: the game's kept one while the state's
        ``cards_token`` is the one it was made for, else a new one, kept in its place."""
        kept = game.seat_memo
        token = state.cards_token
        if isinstance(kept, PublicCards) and kept.token is token:
            return kept
        cards = PublicCards(
            state.num_players,
            state.owner.copy(),
            state.chefs.copy(),
            state.star.copy(),
            state.holders.copy(),
            state.golden,
            token,
        )
        game.seat_memo = cards
        return cards

    def owners(self) -> tuple[int, ...]:
        """Per card: the view's ``owner`` (``BANK`` for its ``None``)."""
        owners = self._owners
        if owners is None:
            owners = self._owners = tuple(self.owner)
        return owners

    def _show_tokens(self) -> None:
        """Work out ``chefs`` and ``stars`` (read together: one pass over the cards)."""
        chefs, stars = self.chefs.copy(), self.star.copy()
        for c, who in enumerate(self.owner):
            if who == BANK:
                chefs[c] = 0
                stars[c] = 0
        self._chefs_shown, self._stars_shown = tuple(chefs), tuple(stars)

    def chefs_shown(self) -> tuple[int, ...]:
        """Per card: the view's ``chefs`` (none on Mr. Munchwalla's cards)."""
        chefs = self._chefs_shown
        if chefs is None:
            self._show_tokens()
            chefs = self._chefs_shown
            assert chefs is not None
        return chefs

    def stars_shown(self) -> tuple[int, ...]:
        """Per card: the view's ``star`` (none on Mr. Munchwalla's cards)."""
        stars = self._stars_shown
        if stars is None:
            self._show_tokens()
            stars = self._stars_shown
            assert stars is not None
        return stars

    def fees(self, game: BellyTables) -> tuple[int, ...]:
        """Per card: the view's ``fee`` (``munch_fees.listed_fee``)."""
        fees = self._fees
        if fees is None:
            owner, chefs, star, holders, golden = (
                self.owner,
                self.chefs,
                self.star,
                self.holders,
                self.golden,
            )
            fees = self._fees = tuple(
                [
                    listed_fee(game, owner, chefs, star, holders, golden, c)
                    for c in range(len(owner))
                ]
            )
        return fees

    def worth(self, game: BellyTables) -> list[int]:
        """Per seat: its cards, chefs and stars as wealth counts them
        (``scoring.holdings_worth``). Read it, never change it."""
        worth = self._worth
        if worth is None:
            worth = self._worth = holdings_worth(
                game, self.owner, self.chefs, self.star, self.num_players
            )
        return worth


class SeatInfo(SeatInfoBase):
    """The public table as the greedy bot reads it; each field is named after the view's
    entry it equals (``from_view``). Read it, never change it."""

    #: The entries equality compares and ``repr`` shows (the per-card ones and ``wealth``
    #: worked out from the card state, as at their first read).
    FIELDS: ClassVar[tuple[str, ...]] = (
        "seat",
        "phase",
        "rounds_to_play",
        "cash",
        "positions",
        "wealth",
        "owners",
        "chefs",
        "stars",
        "fees",
        "offer_card",
        "offer_price",
    )

    #: The seat the object is for.
    seat: int
    #: The view's ``phase``, as its index in ``PHASE_NAMES``.
    phase: int
    #: Rounds still to play, this one included (the view's ``max_rounds - round + 1``).
    rounds_to_play: int
    #: Per seat: the view's ``cash`` and ``position``.
    cash: tuple[int, ...]
    positions: tuple[int, ...]
    #: The open offer's card (``-1``: none) and price (the view's ``offer``).
    offer_card: int
    offer_price: int

    def __init__(
        self,
        game: BellyTables,
        seat: int,
        phase: int,
        rounds_to_play: int,
        cash: tuple[int, ...],
        positions: tuple[int, ...],
        offer_card: int,
        offer_price: int,
    ) -> None:
        self.seat = seat
        self.phase = phase
        self.rounds_to_play = rounds_to_play
        self.cash = cash
        self.positions = positions
        self.offer_card = offer_card
        self.offer_price = offer_price
        self._game = game
        # The public card state the per-card entries are worked out from (``from_state``),
        # or ``None`` where they were given (``from_view``).
        self._cards: PublicCards | None = None
        # The entries as given by ``from_view`` (``None``: read from ``_cards``).
        self._owners: tuple[int, ...] | None = None
        self._chefs_shown: tuple[int, ...] | None = None
        self._stars_shown: tuple[int, ...] | None = None
        self._fees: tuple[int, ...] | None = None
        self._wealth: tuple[int, ...] | None = None

    @staticmethod
    def from_state(game: BellyTables, state: BellyState, seat: int) -> SeatInfo:
        """The object for ``seat`` (``Game.bot_view``): the entries of its view that
        ``from_view`` reads, from the state's public parts only."""
        offer_card, offer_price = -1, 0
        phase = state.phase
        if phase == RESPOND:
            offer = state.offer
            offer_card, offer_price = offer[1], offer[3]
        # Typed, so the rounds left are worked out as whole numbers, not Python objects.
        max_rounds: int = state.options["max_rounds"]
        info = SeatInfo(
            game,
            seat,
            phase,
            max_rounds - shown_round(state) + 1,
            tuple(state.cash),
            tuple(state.pos),
            offer_card,
            offer_price,
        )
        info._cards = PublicCards.of(game, state)
        return info

    @staticmethod
    def from_view(game: BellyTables, view: Mapping[str, Any], seat: int) -> SeatInfo:
        """The object built from ``seat``'s view (or ``bot_view``) alone."""
        players, cards, offer = view["players"], view["cards"], view["offer"]
        info = SeatInfo(
            game,
            seat,
            PHASE_NAMES.index(view["phase"]),
            int(view["max_rounds"]) - int(view["round"]) + 1,
            tuple(int(player["cash"]) for player in players),
            tuple(int(player["position"]) for player in players),
            -1 if offer is None else game.slugs.index(offer["card"]),
            0 if offer is None else int(offer["price"]),
        )
        info._wealth = tuple(int(player["wealth"]) for player in players)
        info._owners = tuple(
            BANK if card["owner"] is None else int(card["owner"]) for card in cards
        )
        info._chefs_shown = tuple(int(card["chefs"]) for card in cards)
        info._stars_shown = tuple(int(card["star"]) for card in cards)
        info._fees = tuple(int(card["fee"]) for card in cards)
        return info

    def _public_cards(self) -> PublicCards:
        cards = self._cards
        assert cards is not None, "a SeatInfo from a view has every entry given"
        return cards

    @property
    def owners(self) -> tuple[int, ...]:
        """Per card: the view's ``owner`` (``BANK`` for its ``None``)."""
        owners = self._owners
        return self._public_cards().owners() if owners is None else owners

    @property
    def chefs(self) -> tuple[int, ...]:
        """Per card: the view's ``chefs`` (none on Mr. Munchwalla's cards)."""
        chefs = self._chefs_shown
        return self._public_cards().chefs_shown() if chefs is None else chefs

    @property
    def stars(self) -> tuple[int, ...]:
        """Per card: the view's ``star`` (none on Mr. Munchwalla's cards)."""
        stars = self._stars_shown
        return self._public_cards().stars_shown() if stars is None else stars

    @property
    def fees(self) -> tuple[int, ...]:
        """Per card: the view's ``fee`` (``munch_fees.listed_fee``)."""
        fees = self._fees
        return self._public_cards().fees(self._game) if fees is None else fees

    @property
    def wealth(self) -> tuple[int, ...]:
        """Per seat: the view's ``wealth`` (cash and ``scoring.holdings_worth``)."""
        wealth = self._wealth
        if wealth is None:
            cash = self.cash
            worth = self._public_cards().worth(self._game)
            wealth = self._wealth = tuple([cash[s] + worth[s] for s in range(len(cash))])
        return wealth
