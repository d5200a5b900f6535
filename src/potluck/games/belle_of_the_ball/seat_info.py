"""What Belle of the Ball's greedy bot reads, as one typed object (issue 36, lever 2).

A greedy decision used to read the seat's whole view, a dict of dicts spelling every
card out in words, which compiled code looks up as Python objects; a ``SeatInfo`` holds
the entries the bot reads as typed fields, cards as their codes in ``state.py``.
``Game.bot_view`` builds it from the state (``view.build_seat_info``) and
``SeatInfo.from_view`` builds it from the seat's whole view: the conformance suite
(``check_bot_view_is_part_of_view``) holds the two equal, so the object is a function
of the view and shows nothing the view hides.

    >>> import potluck
    >>> game = potluck.load_game("belle-of-the-ball")
    >>> state = game.new_game(3, seed=7)
    >>> info = game.bot_view(state, 1)
    >>> info == SeatInfo.from_view(game, game.view(state, 1), 1)
    True
    >>> info.chips, len(info.line), info.invites_left
    ((5, 5, 5), 9, 1)

Its ``parties`` are made when first read: the object keeps each party's list and how
long it was (``party_lists`` and ``party_size``), which name the same guests for good,
since a party's list only ever grows in place (``BelleState.parties``). The greedy bot
reads a party by its list and size and makes no tuple of it (issue 36).

    >>> info.parties[:2], info.party_size(0)
    (((), ()), 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final

from mypy_extensions import i64

from potluck.engine.seat_info import SeatInfoBase
from potluck.games.belle_of_the_ball.actions import BelleAction
from potluck.games.belle_of_the_ball.state import (
    BELLE_BASE,
    FIFTH_GROUP,
    FOUR_IS_FULL,
    FREE_SKIPS,
    SINGLES_SCORE,
    SLOTS,
)
from potluck.games.belle_of_the_ball.tables import BelleTables

#: The rules a played Belle bends this turn (``effects``' bits), by the view's words
#: (``this_turn["rules_bent"]``), in the view's order.
EFFECT_WORDS: tuple[tuple[int, str], ...] = (
    (FREE_SKIPS, "free_skips"),
    (FOUR_IS_FULL, "four_is_full"),
    (SINGLES_SCORE, "singles_score"),
    (FIFTH_GROUP, "fifth_group"),
)

#: Bits a party's size takes in ``SeatInfo``'s packed sizes (``pack_sizes``), the most a
#: size may be, and how many sizes a word holds (two words: up to 30 parties, three
#: seats' five a word, so that no seat's sizes are split between the words).
SIZE_BITS: Final = 4
_SIZE_MASK: Final = 15
_PER_WORD: Final = 15
_SEATS_PER_WORD: Final = 3


def pack_sizes(parties: list[list[int]]) -> tuple[i64, i64]:
    """Each party's size, ``SIZE_BITS`` bits a party, the first ``_PER_WORD`` in the
    first word and the rest in the second (``SeatInfo.party_size`` reads them)."""
    low: i64 = 0
    high: i64 = 0
    shift: i64 = 0
    for group in parties:
        size: i64 = len(group)
        if size > _SIZE_MASK or shift >= 2 * _PER_WORD * SIZE_BITS:
            raise ValueError("a party too large or too many parties to pack")
        if shift < _PER_WORD * SIZE_BITS:
            low |= size << shift
        else:
            high |= size << shift - _PER_WORD * SIZE_BITS
        shift += SIZE_BITS
    return low, high


class SeatInfo(SeatInfoBase):
    """One seat's knowledge that the greedy bot reads; each field is named after the
    view's entry it equals (``from_view``)."""

    FIELDS: ClassVar[tuple[str, ...]] = (
        "seat",
        "rounds_left",
        "variant",
        "line",
        "line_chips",
        "chips",
        "parties",
        "effects",
        "invites_left",
        "may_play",
        "hand",
    )

    #: The seat the object is for.
    seat: int
    #: The view's ``rounds_left_after_this``.
    rounds_left: int
    #: The designer's variant (the view's ``options["belles_in_guest_deck"]``).
    variant: bool
    #: The line's cards (a guest's index, or ``BELLE_BASE`` + a Belle's kind) and the
    #: chips on each (the view's ``line``).
    line: tuple[int, ...]
    line_chips: tuple[int, ...]
    #: Per seat: its ``chips``, and its ``groups`` as guest indices, every slot of every
    #: seat in turn (``parties[seat * SLOTS + slot]``, as in the state): the property
    #: ``parties``, each party the first ``party_size(party)`` guests of its list in
    #: ``party_lists`` (a list that may have grown since, never changed before them).
    chips: tuple[int, ...]
    party_lists: tuple[list[int], ...]
    #: The parties' sizes, packed (``pack_sizes``).
    sizes_low: i64
    sizes_high: i64
    #: The rules bent this turn, as ``EFFECT_WORDS``' bits (``this_turn["rules_bent"]``).
    effects: int
    #: The view's ``this_turn["invites_left"]``.
    invites_left: int
    #: The view's ``this_turn["may_play_belle"]``: no Belle played yet this turn.
    may_play: bool
    #: The seat's own Belle hand, as kinds (the view's ``you["hand"]``).
    hand: tuple[int, ...]
    #: When the seat is to act and may play a Belle: the Belle plays its legal list
    #: starts with (``belles.hand_plays``, worked out by ``Game.bot_view`` from the
    #: state, what the seat's hand and the public table allow), else ``None`` (and
    #: always ``None`` from a view). Not an entry: a function of the entries above and
    #: the rules, so it neither shows more than the view nor takes part in equality.
    plays: list[BelleAction] | None

    def __init__(
        self,
        seat: int,
        rounds_left: int,
        variant: bool,
        line: tuple[int, ...],
        line_chips: tuple[int, ...],
        chips: tuple[int, ...],
        party_lists: tuple[list[int], ...],
        sizes: tuple[i64, i64],
        effects: int,
        invites_left: int,
        may_play: bool,
        hand: tuple[int, ...],
        plays: list[BelleAction] | None = None,
    ) -> None:
        self.seat = seat
        self.rounds_left = rounds_left
        self.variant = variant
        self.line = line
        self.line_chips = line_chips
        self.chips = chips
        self.party_lists = party_lists
        self.sizes_low, self.sizes_high = sizes
        self._parties: tuple[tuple[int, ...], ...] | None = None
        self.effects = effects
        self.invites_left = invites_left
        self.may_play = may_play
        self.hand = hand
        self.plays = plays

    def party_size(self, party: i64) -> i64:
        """How many guests party ``party`` held (its list's first items are they)."""
        if party < _PER_WORD:
            return self.sizes_low >> party * SIZE_BITS & _SIZE_MASK
        return self.sizes_high >> (party - _PER_WORD) * SIZE_BITS & _SIZE_MASK

    def seat_sizes(self, seat: i64) -> i64:
        """The sizes of ``seat``'s parties, ``SIZE_BITS`` bits a slot from the lowest:
        slot ``slot``'s is ``seat_sizes(seat) >> SIZE_BITS * slot & 15``."""
        word = self.sizes_low if seat < _SEATS_PER_WORD else self.sizes_high
        return word >> seat % _SEATS_PER_WORD * SLOTS * SIZE_BITS

    def party(self, party: int) -> tuple[int, ...]:
        """Party ``party``'s guests."""
        return tuple(self.party_lists[party][: self.party_size(party)])

    @property
    def parties(self) -> tuple[tuple[int, ...], ...]:
        """Every party's guests (made at the first read)."""
        parties = self._parties
        if parties is None:
            parties = self._parties = tuple(
                [self.party(party) for party in range(len(self.party_lists))]
            )
        return parties

    @staticmethod
    def from_view(game: BelleTables, view: Mapping[str, Any], seat: int) -> SeatInfo:
        """The object built from ``seat``'s view alone."""
        guests, belles = game.guest_index, game.belle_index
        line = tuple(
            guests[card["guest"]] if "guest" in card else BELLE_BASE + belles[card["belle"]]
            for card in view["line"]
        )
        players = view["players"]
        bent = view["this_turn"]["rules_bent"]
        parties = [
            [guests[guest["guest"]] for guest in group]
            for player in players
            for group in player["groups"]
        ]
        return SeatInfo(
            seat,
            int(view["rounds_left_after_this"]),
            bool(view["options"].get("belles_in_guest_deck")),
            line,
            tuple(int(card["chips"]) for card in view["line"]),
            tuple(int(player["chips"]) for player in players),
            tuple(parties),
            pack_sizes(parties),
            sum(bit for bit, word in EFFECT_WORDS if word in bent),
            int(view["this_turn"]["invites_left"]),
            bool(view["this_turn"]["may_play_belle"]),
            tuple(belles[card["belle"]] for card in view["you"]["hand"]),
        )
