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
    ([5, 5, 5], 9, 1)

Built by ``Game.bot_view``, it is valid until the state changes (``docs/engine.md``):
the seats' chips, the parties and the seat's hand are the state's own lists, read live,
not copied (each party's size is its list's length), so a caller decides before it
steps the state, as every caller of ``bot_view`` here does. Nothing writes to them
through the object: the greedy bot only reads them. The line and the chips on it are
tuples made for the object, as the bot keeps them from one decision to the next (its
planner's kept searches compare them). Equality compares the entries' contents, a list
and a tuple of the same items alike (``entries``).

    >>> info.parties[:2], info.party_size(0)
    (((), ()), 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from mypy_extensions import i64

from potluck.engine.seat_info import SeatInfoBase
from potluck.games.belle_of_the_ball.actions import BelleAction
from potluck.games.belle_of_the_ball.state import (
    BELLE_BASE,
    FIFTH_GROUP,
    FOUR_IS_FULL,
    FREE_SKIPS,
    SINGLES_SCORE,
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
    #: ``parties``, each party the guests of its list in ``party_lists``. From
    #: ``Game.bot_view`` these are the state's lists, read live (valid until the state
    #: changes), from ``from_view`` lists of its own.
    chips: list[int]
    party_lists: list[list[int]]
    #: The rules bent this turn, as ``EFFECT_WORDS``' bits (``this_turn["rules_bent"]``).
    effects: int
    #: The view's ``this_turn["invites_left"]``.
    invites_left: int
    #: The view's ``this_turn["may_play_belle"]``: no Belle played yet this turn.
    may_play: bool
    #: The seat's own Belle hand, as kinds (the view's ``you["hand"]``; the state's list,
    #: read live, from ``Game.bot_view``).
    hand: list[int]
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
        chips: list[int],
        party_lists: list[list[int]],
        effects: int,
        invites_left: int,
        may_play: bool,
        hand: list[int],
        plays: list[BelleAction] | None = None,
    ) -> None:
        self.seat = seat
        self.rounds_left = rounds_left
        self.variant = variant
        self.line = line
        self.line_chips = line_chips
        self.chips = chips
        self.party_lists = party_lists
        self.effects = effects
        self.invites_left = invites_left
        self.may_play = may_play
        self.hand = hand
        self.plays = plays

    def party_size(self, party: i64) -> i64:
        """How many guests party ``party`` holds (its list's length)."""
        return len(self.party_lists[party])

    def party(self, party: int) -> tuple[int, ...]:
        """Party ``party``'s guests."""
        return tuple(self.party_lists[party])

    @property
    def parties(self) -> tuple[tuple[int, ...], ...]:
        """Every party's guests."""
        return tuple([tuple(group) for group in self.party_lists])

    def entries(self) -> tuple[object, ...]:
        """The entries (``FIELDS``), each list as a tuple of its items: equality compares
        contents, a list and a tuple of the same items alike (the state's lists, read
        live, against a view's)."""
        return (
            self.seat,
            self.rounds_left,
            self.variant,
            tuple(self.line),
            tuple(self.line_chips),
            tuple(self.chips),
            self.parties,
            self.effects,
            self.invites_left,
            self.may_play,
            tuple(self.hand),
        )

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
            [int(player["chips"]) for player in players],
            parties,
            sum(bit for bit, word in EFFECT_WORDS if word in bent),
            int(view["this_turn"]["invites_left"]),
            bool(view["this_turn"]["may_play_belle"]),
            [belles[card["belle"]] for card in view["you"]["hand"]],
        )
