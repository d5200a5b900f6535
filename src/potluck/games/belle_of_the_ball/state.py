"""Belle of the Ball's state: flat lists of small ints, cheap to copy.

Cards are ints: guest ``g`` (its index in the data) is ``g``; a Belle of kind
``b`` is ``BELLE_BASE + b`` (copies of one Belle share their code).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Self

from mypy_extensions import mypyc_attr

from potluck.engine.errors import RecordError
from potluck.engine.state import State

#: Card codes at or above this are Belles.
BELLE_BASE: Final = 1000
#: Group slots per player: four, and a fifth that only Grand Dame Gwendolyn opens.
SLOTS: Final = 5
MAX_GROUPS: Final = 4
FULL: Final = 5
#: The longest line: three guests for each of five players.
MAX_LINE: Final = 15
MAX_SEATS: Final = 5


def play_key(seat: int, group: int, dest: int) -> int:
    """A Belle play's target (seat, group, dest; -1 where unused) as one whole number,
    the key of ``BelleTables.play_keys`` (no tuple to build and hash on the legal list).

        >>> play_key(-1, -1, -1), play_key(2, 0, -1)
        (0, 310)
    """
    return ((seat + 1) * 10 + group + 1) * 10 + dest + 1


# Bits of ``effects``: what the Belle played this turn allows.
FREE_SKIPS: Final = 1
FOUR_IS_FULL: Final = 2
SINGLES_SCORE: Final = 4
FIFTH_GROUP: Final = 8


@mypyc_attr(allow_interpreted_subclasses=True)
class BelleState(State):
    """The ballroom during a game of Belle of the Ball.

    ``parties[seat * SLOTS + slot]`` is the list of guests in that group, in the
    order they were placed (empty: no group there).
    """

    __slots__ = (
        "belle_deck",
        "belle_discard",
        "belle_skip_chips",
        "belles_invited",
        "belles_played",
        "boxed",
        "chips",
        "deck",
        "effects",
        "group_chips",
        "groups_scored",
        "guest_discard",
        "hands",
        "invites_left",
        "line",
        "line_chips",
        "minted",
        "parties",
        "played_now",
        "round",
        "skip_chips",
        "start",
        "turn",
        "variant",
    )

    deck: list[int]  # face down; drawn from the end
    boxed: list[int]  # the guests discarded unseen at setup
    line: list[int]
    line_chips: list[int]  # chips lying on each card of the line
    #: A party's list only ever grows in place (a guest joins at its end); a guest who
    #: leaves it leaves a new list behind (``belles.play_belle``), as a scored group
    #: does (``scoring``). So a list that is the same object and as long as before
    #: holds the same guests: the greedy bot's planner relies on it (a party it counted
    #: is counted on from the guests it had, ``greedy_plan.Planner.load_party``).
    parties: list[list[int]]
    chips: list[int]
    hands: list[list[int]]  # Belle kinds per seat, sorted
    belle_deck: list[int]
    belle_discard: list[int]
    guest_discard: list[int]  # scored full groups and guests sent away, face up
    start: int  # the seat holding the Start Player token
    turn: int  # whose turn it is (also in ``acting`` while the game goes on)
    round: int  # 1-based; the number of rounds played once the game is over
    played_now: int  # the Belle kind played this turn, or -1
    invites_left: int  # invitations still to make this turn
    effects: int  # bits: rules bent for this turn
    minted: int  # chips the bank has paid out in all (the bank is unlimited)
    # Statistics for views and metrics, per seat.
    groups_scored: list[int]
    group_chips: list[int]
    skip_chips: list[int]
    belles_invited: list[int]  # Belles taken from the line (the variant)
    belle_skip_chips: list[int]  # chips paid to skip guests on the way to those Belles
    belles_played: list[int]  # per seat and Belle kind: seat * kinds + kind
    #: The designer's variant, ``options["belles_in_guest_deck"]`` (read on every step,
    #: so kept as a typed field rather than looked up in the options by name).
    variant: bool

    def __init__(self, num_players: int, seed: int, options: Mapping[str, Any]) -> None:
        super().__init__(num_players, seed, options)
        self.variant = bool(options.get("belles_in_guest_deck", False))

    def clone(self) -> Self:
        twin = self._blank_copy()
        twin.deck = self.deck.copy()
        twin.boxed = self.boxed.copy()
        twin.line = self.line.copy()
        twin.line_chips = self.line_chips.copy()
        twin.parties = list(map(list.copy, self.parties))
        twin.chips = self.chips.copy()
        twin.hands = list(map(list.copy, self.hands))
        twin.belle_deck = self.belle_deck.copy()
        twin.belle_discard = self.belle_discard.copy()
        twin.guest_discard = self.guest_discard.copy()
        twin.start = self.start
        twin.turn = self.turn
        twin.round = self.round
        twin.played_now = self.played_now
        twin.invites_left = self.invites_left
        twin.effects = self.effects
        twin.minted = self.minted
        twin.groups_scored = self.groups_scored.copy()
        twin.group_chips = self.group_chips.copy()
        twin.skip_chips = self.skip_chips.copy()
        twin.belles_invited = self.belles_invited.copy()
        twin.belle_skip_chips = self.belle_skip_chips.copy()
        twin.belles_played = self.belles_played.copy()
        twin.variant = self.variant
        return twin


# ------------------------------------------------------------------ saving

_LISTS = (
    "deck",
    "boxed",
    "line",
    "line_chips",
    "chips",
    "belle_deck",
    "belle_discard",
    "guest_discard",
    "groups_scored",
    "group_chips",
    "skip_chips",
    "belles_invited",
    "belle_skip_chips",
    "belles_played",
)
_INTS = ("start", "turn", "round", "played_now", "invites_left", "effects", "minted")


def state_to_json(state: BelleState) -> dict[str, Any]:
    """The state's fields as JSON-ready lists and ints (``Game.to_json`` adds the rest)."""
    data: dict[str, Any] = {name: list(getattr(state, name)) for name in _LISTS}
    data.update({name: getattr(state, name) for name in _INTS})
    data["parties"] = [list(g) for g in state.parties]
    data["hands"] = [list(h) for h in state.hands]
    return data


def state_from_json(
    data: Mapping[str, Any], num_players: int, seed: int, options: Mapping[str, Any]
) -> BelleState:
    """The state ``state_to_json`` saved; ``RecordError`` if its fields are malformed."""
    state = BelleState(num_players, seed, options)
    try:
        for name in _LISTS:
            setattr(state, name, [int(x) for x in data[name]])
        for name in _INTS:
            setattr(state, name, int(data[name]))
        state.parties = [[int(x) for x in g] for g in data["parties"]]
        state.hands = [[int(x) for x in h] for h in data["hands"]]
    except (KeyError, TypeError, ValueError) as error:
        raise RecordError(f"the saved Belle of the Ball state is malformed: {error!r}") from None
    if len(state.chips) != num_players or len(state.parties) != num_players * SLOTS:
        raise RecordError("the saved Belle of the Ball state does not match its number of players")
    return state
