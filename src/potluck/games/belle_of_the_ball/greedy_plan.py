"""Belle of the Ball's greedy bot's plan (``bots.GreedyBot``): its weights, the rule it
values a group by (``group_value``) and the ``Planner`` that values a turn's invitations
(``best_invite``, ``value_now``) from its groups counted.

A ``Planner`` holds its seat's groups as counts (guests per interest, matched chips,
spread) in flat lists of small ints. A Belle's re-plan changes them in place and puts
them back (a guest added for a second invitation, a guest moved): a decision builds no
table, plan or group object, so the garbage collector has next to nothing to visit
(issue 36: making, freeing and collecting those objects was most of a greedy game).
``estimate`` is ``group_value`` worked from the counts, the same float to the last bit
(``tests/test_rules_written_once.py`` and ``tests/test_belle_greedy_planner.py``).

    >>> group_value([(0, 1), (1, 2)], 12)
    4.7
    >>> planner = Planner(DEFAULT_WEIGHTS, width=3)
    >>> planner.add(0, (0, 1)); planner.add(0, (1, 2)); planner.future = 12
    >>> planner.value_of(0, 5, False)
    4.7
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from potluck.games.belle_of_the_ball.scoring import score_group
from potluck.games.belle_of_the_ball.state import BELLE_BASE, SLOTS

#: Chance that a given interest is on a random guest (3 interests of 10 in the built-in data).
SHARE: Final = 0.3
#: What one more guest needed costs a group: finishing sooner is worth something.
NEED_COST: Final = 0.6
#: What a Belle in hand is worth (the variant's reason to invite one).
BELLE_WORTH: Final = 3.0
#: How much better a Belle must make this turn before the bot plays her, in the
#: variant, where a played Belle is gone for good. In the base game the hand is
#: drawn back up to three every round, so a Belle kept is a draw lost: the bot
#: plays its best Belle every turn (measured: 64% against 33% for the bot that
#: waited for a 0.75-chip gain, 240 three-player games).
PLAY_MARGIN: Final = 0.75
#: Weight of a rival's loss (a chip taken from a rival is worth less than one gained).
RIVAL_WEIGHT: Final = 0.5
#: The most guests in a group (a fuller group is scored at the end of the turn).
GROUP_SIZE: Final = 5
#: The ``Planner``'s slot past the seat's own, where a rival's group is counted.
SCRATCH: Final = SLOTS


@dataclass(frozen=True)
class Weights:
    """The greedy bot's hand-set weights; each is a bot parameter (``greedy:belle_value=8``)."""

    belle_value: float = BELLE_WORTH
    chip_value: float = 1.0
    need_cost: float = NEED_COST
    interest_share: float = SHARE
    play_margin: float = PLAY_MARGIN
    rival_weight: float = RIVAL_WEIGHT


DEFAULT_WEIGHTS = Weights()

Group = Sequence[Sequence[int]]


def group_value(
    group: Group,
    future: int,
    full: int = GROUP_SIZE,
    singles: bool = False,
    weights: Weights = DEFAULT_WEIGHTS,
) -> float:
    """What a group (per guest, the interests it shows) is worth: its score when full,
    else its matches so far plus what the guests it still needs are likely to add, if
    the bot can still finish it (``future``: the invitations it expects after this one).

    The rule the bot's plans are held to: ``estimate``, from a group's counts, gives
    the same floats (``tests/test_rules_written_once.py``)."""
    if not group:
        return 0.0
    if len(group) >= full:
        return float(score_group(group, singles))
    need = GROUP_SIZE - len(group)
    if need > future:
        return 0.0  # it cannot be finished before the game ends: it will not score
    counts: dict[int, int] = {}
    for shown in group:
        for i in shown:
            counts[i] = counts.get(i, 0) + 1
    matched = sum(c for c in counts.values() if c >= 2)
    # A further guest adds 2 for an interest shown once, 1 for one already shared.
    per_guest = weights.interest_share * sum(2 if c == 1 else 1 for c in counts.values())
    return matched + need * (per_guest - weights.need_cost)


def estimate(
    size: int,
    matched: int,
    spread: int,
    shown: int,
    future: int,
    full: int,
    singles: bool,
    share: float,
    need_cost: float,
) -> float:
    """``group_value`` of a group from its counts: ``size`` guests, ``shown`` interests
    shown in all, ``matched`` chips its matches score so far (every guest showing an
    interest another shows too, counted per interest) and its ``spread`` (over the
    interests shown: 2 for one shown once, 1 for one shared, so that ``share * spread``
    is what a further guest is likely to add)."""
    if not size:
        return 0.0
    if size >= full:
        return float(shown if singles else matched)
    need = GROUP_SIZE - size
    if need > future:
        return 0.0
    return matched + need * (share * spread - need_cost)


class Planner:
    """One seat's groups counted, and the turn's invitations valued from the counts.

    Per slot (the seat's ``SLOTS`` groups, then ``SCRATCH``): ``size`` guests,
    ``shown`` interests in all, ``matched`` and ``spread`` (``estimate``), and in
    ``counts[slot * width + interest]`` how many of its guests show each interest.
    ``add`` and ``remove`` keep them in step guest by guest, so a re-plan changes a
    group and puts it back rather than copying anything."""

    def __init__(self, weights: Weights, width: int = 0) -> None:
        self.share = weights.interest_share
        self.need_cost = weights.need_cost
        self.chip_value = weights.chip_value
        self.belle_value = weights.belle_value
        self.width = 0
        self.counts: list[int] = []
        self.size = [0] * (SCRATCH + 1)
        self.shown = [0] * (SCRATCH + 1)
        self.matched = [0] * (SCRATCH + 1)
        self.spread = [0] * (SCRATCH + 1)
        #: Each open group's value now, by slot (``best_invite``'s, kept to avoid a list).
        self.now = [0.0] * SLOTS
        #: Invitations the bot expects after this one (``group_value``'s ``future``).
        self.future = 0
        #: Where ``best_invite``'s best invitation is: its position in line and its slot
        #: (-1 for a Belle to hand; both -1 if it found none).
        self.best_pos = -1
        self.best_slot = -1
        self.set_width(width)

    def set_width(self, width: int) -> None:
        """Count ``width`` interests per group (the card data's), every group empty."""
        self.width = width
        self.counts = [0] * ((SCRATCH + 1) * width)
        for slot in range(SCRATCH + 1):
            self.size[slot] = self.shown[slot] = self.matched[slot] = self.spread[slot] = 0

    def clear(self, slot: int) -> None:
        """Empty group ``slot``."""
        width = self.width
        counts = self.counts
        for i in range(slot * width, slot * width + width):
            counts[i] = 0
        self.size[slot] = self.shown[slot] = self.matched[slot] = self.spread[slot] = 0

    def add(self, slot: int, interests: Sequence[int]) -> None:
        """A guest showing ``interests`` (each at most once) joins group ``slot``."""
        counts = self.counts
        base = slot * self.width
        matched = self.matched[slot]
        spread = self.spread[slot]
        for i in interests:
            c = counts[base + i]
            if c == 0:
                spread += 2
            elif c == 1:
                matched += 2
                spread -= 1
            else:
                matched += 1
            counts[base + i] = c + 1
        self.matched[slot] = matched
        self.spread[slot] = spread
        self.shown[slot] += len(interests)
        self.size[slot] += 1

    def remove(self, slot: int, interests: Sequence[int]) -> None:
        """A guest showing ``interests`` leaves group ``slot`` (``add`` undone)."""
        counts = self.counts
        base = slot * self.width
        matched = self.matched[slot]
        spread = self.spread[slot]
        for i in interests:
            c = counts[base + i]
            if c == 1:
                spread -= 2
            elif c == 2:
                matched -= 2
                spread += 1
            else:
                matched -= 1
            counts[base + i] = c - 1
        self.matched[slot] = matched
        self.spread[slot] = spread
        self.shown[slot] -= len(interests)
        self.size[slot] -= 1

    def value_of(self, slot: int, full: int, singles: bool) -> float:
        """``group_value`` of group ``slot`` with the bot's weights."""
        return estimate(
            self.size[slot],
            self.matched[slot],
            self.spread[slot],
            self.shown[slot],
            self.future,
            full,
            singles,
            self.share,
            self.need_cost,
        )

    def value_with(self, slot: int, interests: Sequence[int], full: int, singles: bool) -> float:
        """``group_value`` of group ``slot`` with a guest showing ``interests`` added,
        without adding it (``estimate`` of the counts ``add`` would leave)."""
        size = self.size[slot] + 1
        if size >= full and singles:
            return float(self.shown[slot] + len(interests))
        counts = self.counts
        base = slot * self.width
        matched = self.matched[slot]
        spread = self.spread[slot]
        for i in interests:  # a guest shows each interest at most once
            c = counts[base + i]
            if c == 0:
                spread += 2
            elif c == 1:
                matched += 2
                spread -= 1
            else:
                matched += 1
        if size >= full:
            return float(matched)
        need = GROUP_SIZE - size
        if need > self.future:
            return 0.0  # it cannot be finished before the game ends: it will not score
        return matched + need * (self.share * spread - self.need_cost)

    def best_invite(
        self,
        line: tuple[int, ...],
        line_chips: tuple[int, ...],
        interests_of: tuple[tuple[int, ...], ...],
        chips: int,
        free: bool,
        full: int,
        singles: bool,
        fifth: bool,
        skip: int,
    ) -> float:
        """The value of the best invitation now (the first best, by position then slot),
        its place left in ``best_pos`` and ``best_slot``; ``line`` holds the cards
        (``BELLE_BASE`` and up: a Belle, to hand) and ``skip`` a position taken already
        (-1: none), as if it were gone from the line."""
        best_value = -1e9
        best_pos = best_slot = -1
        size = self.size
        now = self.now
        # Step 2, Group: an open group, or the first empty slot while a new group may
        # start (``groups._places_by_sizes``, read from the counted sizes).
        used = 0
        for slot in range(SLOTS):
            if size[slot]:
                used += 1
        limit = 5 if fifth else 4
        open_slots = 0
        new_done = False
        for slot in range(SLOTS):
            if size[slot]:
                if size[slot] >= GROUP_SIZE:
                    continue
            elif new_done or used >= limit:
                continue
            else:
                new_done = True
            open_slots |= 1 << slot
            now[slot] = self.value_of(slot, full, singles)
        chip_value, belle_value = self.chip_value, self.belle_value
        pos = 0
        for index in range(len(line)):
            if index == skip:
                continue
            cost = 0 if free else pos
            if cost > chips:
                break
            gain = chip_value * (line_chips[index] - cost)
            card = line[index]
            if card >= BELLE_BASE:
                value = gain + belle_value
                if value > best_value:
                    best_value, best_pos, best_slot = value, pos, -1
            else:
                interests = interests_of[card]
                for slot in range(SLOTS):
                    if open_slots >> slot & 1:
                        value = gain + self.value_with(slot, interests, full, singles) - now[slot]
                        if value > best_value:
                            best_value, best_pos, best_slot = value, pos, slot
            pos += 1
        self.best_pos = best_pos
        self.best_slot = best_slot
        return best_value

    def value_now(
        self,
        line: tuple[int, ...],
        line_chips: tuple[int, ...],
        interests_of: tuple[tuple[int, ...], ...],
        chips: int,
        free: bool,
        full: int,
        singles: bool,
        fifth: bool,
        invites_left: int,
        first: float,
    ) -> float:
        """What the best move(s) this turn are worth: ``first``, the value of
        ``best_invite`` just made on the same arguments (its place still in ``best_pos``
        and ``best_slot``), and a second invitation's if any (not below nothing)."""
        pos = self.best_pos
        if invites_left <= 1 or pos < 0:
            return first
        slot = self.best_slot
        card = line[pos]
        joined = card < BELLE_BASE and slot >= 0
        if joined:
            self.add(slot, interests_of[card])
        paid = 0 if free else pos
        second = self.best_invite(
            line,
            line_chips,
            interests_of,
            chips + line_chips[pos] - paid,
            free,
            full,
            singles,
            fifth,
            pos,
        )
        if joined:
            self.remove(slot, interests_of[card])
        return first + (second if second > 0.0 else 0.0)

    def plan_value(
        self,
        line: tuple[int, ...],
        line_chips: tuple[int, ...],
        interests_of: tuple[tuple[int, ...], ...],
        chips: int,
        free: bool,
        full: int,
        singles: bool,
        fifth: bool,
        invites_left: int,
    ) -> float:
        """``value_now`` of its own best invitation."""
        first = self.best_invite(
            line, line_chips, interests_of, chips, free, full, singles, fifth, -1
        )
        return self.value_now(
            line, line_chips, interests_of, chips, free, full, singles, fifth, invites_left, first
        )
