"""Belle of the Ball's greedy bot's plan (``bots.GreedyBot``): its weights, its model of
the table (``Table``, read from the seat's ``SeatInfo``), the groups counted (``Counts``),
what it works out once per plan (``Memo``) and the best invitation(s) of a turn
(``best_invite``, ``value_now``). ``group_value`` is the rule its plans are held to:
``value_of`` and ``value_with`` give the same floats from a group's counts
(``tests/test_rules_written_once.py``).

    >>> group_value([(0, 1), (1, 2)], 12)
    4.7
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from potluck.games.belle_of_the_ball.scoring import score_group
from potluck.games.belle_of_the_ball.seat_info import SeatInfo
from potluck.games.belle_of_the_ball.state import (
    BELLE_BASE,
    FIFTH_GROUP,
    FOUR_IS_FULL,
    FREE_SKIPS,
    SINGLES_SCORE,
    SLOTS,
)
from potluck.games.belle_of_the_ball.tables import BelleTables

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

Group = list[tuple[int, ...]]


class Counts:
    """A group's guests counted: how many, how many show each interest (by index), the
    chips its matches score so far, and its spread (over the interests shown: 2 for
    one shown once, 1 for one shared), what one more guest is likely to add."""

    def __init__(self, group: Group, width: int) -> None:
        counts = [0] * width
        for shown in group:
            for i in shown:
                counts[i] += 1
        matched = spread = 0
        for c in counts:
            if c >= 2:
                matched += c
                spread += 1
            elif c == 1:
                spread += 2
        self.size = len(group)
        self.counts = counts
        self.shown = sum(counts)
        self.matched = matched
        self.spread = spread


class Memo:
    """What the bot works out once per plan (valid while its groups and expected
    invitations stay as they are; ``replanned`` starts a new one, keeping the counts of
    the groups that did not change): each group's counts, values, and where each guest
    may go, by the bent rules.

    A plan that is read once (``replanned``'s, for one Belle's move or a second
    invitation: ``shared`` false) keeps no guest's choices: ``best_invite`` works
    them out as it goes, the same values in the same order, without lists of them."""

    def __init__(self, counts: list[Counts] | None = None, shared: bool = True) -> None:
        self.counts = counts
        self.shared = shared
        #: Each group's value now, by (full, singles) as ``_rules``' number.
        self.now: dict[int, tuple[float, ...]] = {}
        #: Per bent rules (``_rules``), per guest: ``_choices``.
        self.choices: dict[int, dict[int, tuple[tuple[float, float, int], ...]]] = {}
        #: Each group's ``group_value`` (its future and no singles), by the group size
        #: that is full (``group_values``).
        self.values: dict[int, tuple[float, ...]] = {}


def _rules(full: int, singles: bool, fifth: bool) -> int:
    """The bent rules that change where a guest may go and what a group is worth, as
    one number (a memo's key)."""
    return full * 4 + (2 if singles else 0) + (1 if fifth else 0)


class Table:
    """The part of what the seat knows that the bot plans with."""

    seat: int
    n: int
    line: list[int]  # per card: the guest's index; -1 for a Belle
    line_chips: list[int]
    groups: list[Group]
    chips: int
    free: bool
    four_full: bool
    singles: bool
    fifth: bool
    invites_left: int
    future: int  # invitations the bot expects after this one
    # Per rival: seat, chips and groups (guests by index, every slot).
    rivals: list[tuple[int, int, tuple[tuple[int, ...], ...]]]
    weights: Weights
    memo: Memo
    interests_of: Sequence[tuple[int, ...]]
    #: How many interests there are (``Counts`` counts each by index).
    width: int

    # A plain class, not a dataclass (issue 36): mypyc compiles this ``__init__`` (a
    # dataclass's is generated at import and runs interpreted), made at every decision.
    def __init__(
        self,
        seat: int,
        n: int,
        line: list[int],
        line_chips: list[int],
        groups: list[Group],
        chips: int,
        free: bool,
        four_full: bool,
        singles: bool,
        fifth: bool,
        invites_left: int,
        future: int,
        rivals: list[tuple[int, int, tuple[tuple[int, ...], ...]]] | None = None,
        weights: Weights = DEFAULT_WEIGHTS,
        memo: Memo | None = None,
        interests_of: Sequence[tuple[int, ...]] = (),
        width: int = 0,
    ) -> None:
        self.seat = seat
        self.n = n
        self.line = line
        self.line_chips = line_chips
        self.groups = groups
        self.chips = chips
        self.free = free
        self.four_full = four_full
        self.singles = singles
        self.fifth = fifth
        self.invites_left = invites_left
        self.future = future
        self.rivals = [] if rivals is None else rivals
        self.weights = weights
        self.memo = Memo() if memo is None else memo
        self.interests_of = interests_of
        self.width = width


def read_table(info: SeatInfo, weights: Weights, tables: BelleTables) -> Table:
    """The bot's plan of the table from what its seat knows (``SeatInfo``); guests are
    planned by their interests (``BelleTables.guest_interests``, public card data)."""
    interests = tables.guest_interests
    seat, chips, parties = info.seat, info.chips, info.parties
    n = len(chips)
    line = [-1 if card >= BELLE_BASE else card for card in info.line]
    base = seat * SLOTS
    groups: list[Group] = [
        [interests[guest] for guest in parties[slot]] for slot in range(base, base + SLOTS)
    ]
    rivals = [(s, chips[s], parties[s * SLOTS : s * SLOTS + SLOTS]) for s in range(n) if s != seat]
    per_player = len(line) // n if line else 0
    future = per_player + 3 * info.rounds_left
    effects = info.effects
    return Table(
        seat=seat,
        n=n,
        line=line,
        line_chips=list(info.line_chips),
        groups=groups,
        chips=chips[seat],
        free=bool(effects & FREE_SKIPS),
        four_full=bool(effects & FOUR_IS_FULL),
        singles=bool(effects & SINGLES_SCORE),
        fifth=bool(effects & FIFTH_GROUP),
        invites_left=info.invites_left,
        future=future,
        rivals=rivals,
        weights=weights,
        memo=Memo(),
        interests_of=interests,
        width=len(tables.interest_names),
    )


def copy_table(table: Table) -> Table:
    """A shallow copy of ``table`` sharing its memo (a compiled class has no ``__dict__``
    to copy, so every field is passed on, as ``dataclasses.replace`` would)."""
    return Table(
        table.seat,
        table.n,
        table.line,
        table.line_chips,
        table.groups,
        table.chips,
        table.free,
        table.four_full,
        table.singles,
        table.fifth,
        table.invites_left,
        table.future,
        table.rivals,
        table.weights,
        table.memo,
        table.interests_of,
        table.width,
    )


def replanned(
    table: Table,
    groups: list[Group],
    changed: Sequence[int],
    counted: Sequence[Counts] = (),
) -> Table:
    """A copy of ``table`` with other ``groups`` (those in the slots ``changed``; their
    counts ``counted`` if the caller has them): a fresh memo, which keeps the counts of
    the groups that did not change."""
    twin = copy_table(table)
    twin.groups = groups
    counts = table.memo.counts
    if counts is not None:
        counts = counts.copy()
        for k, slot in enumerate(changed):
            counts[slot] = counted[k] if counted else Counts(groups[slot], table.width)
    twin.memo = Memo(counts, shared=False)
    return twin


def group_value(
    group: Group,
    future: int,
    full: int = 5,
    singles: bool = False,
    weights: Weights = DEFAULT_WEIGHTS,
) -> float:
    """What a group is worth: its score when full, else its matches so far plus what the
    guests it still needs are likely to add, if the bot can still finish it.

    The rule the bot's plans are held to: ``value_of`` and ``value_with`` give the
    same floats from a group's counts (``tests/test_belle_strategies.py``)."""
    if not group:
        return 0.0
    return _group_value(
        tuple(group), future, full, singles, weights.interest_share, weights.need_cost
    )


# A pure function of few distinct groups per game, asked ~100 times a decision: cached.
@lru_cache(maxsize=1 << 16)
def _group_value(
    group: tuple[tuple[int, ...], ...],
    future: int,
    full: int,
    singles: bool,
    interest_share: float,
    need_cost: float,
) -> float:
    if len(group) >= full:
        return float(score_group(group, singles))
    need = 5 - len(group)
    if need > future:
        return 0.0  # it cannot be finished before the game ends: it will not score
    counts: dict[int, int] = {}
    for shown in group:
        for i in shown:
            counts[i] = counts.get(i, 0) + 1
    matched = sum(c for c in counts.values() if c >= 2)
    # A further guest adds 2 for an interest shown once, 1 for one already shared.
    per_guest = interest_share * sum(2 if c == 1 else 1 for c in counts.values())
    return matched + need * (per_guest - need_cost)


def best_invite(table: Table, exclude: int = -1) -> tuple[float, int, int]:
    """The best (value, position, slot) of one invitation now; slot -1 for a Belle."""
    best_value, best_pos, best_slot = -1e9, -1, -1
    full = 4 if table.four_full else 5
    w = table.weights
    chip_value, belle_value = w.chip_value, w.belle_value
    free, chips, line_chips = table.free, table.chips, table.line_chips
    memo = table.memo
    by_card: dict[int, tuple[tuple[float, float, int], ...]] | None = None
    if memo.shared:
        rules = _rules(full, table.singles, table.fifth)
        by_card = memo.choices.get(rules)
        if by_card is None:
            by_card = memo.choices[rules] = {}
    slots: list[int] | None = None
    now: list[float] = []
    counts = memo.counts
    singles, future, interests_of = table.singles, table.future, table.interests_of
    for pos, card in enumerate(table.line):
        if pos == exclude:
            continue
        cost = 0 if free else pos
        if cost > chips:
            break
        gain = chip_value * (line_chips[pos] - cost)
        if card < 0:
            value = gain + belle_value
            if value > best_value:
                best_value, best_pos, best_slot = value, pos, -1
            continue
        if slots is None:
            slots, now = _open(table, full)
            counts = memo.counts
        if by_card is None:
            # (as ``_choices`` lists them, without the list: a plan read once)
            assert counts is not None
            shown = interests_of[card]
            for k, slot in enumerate(slots):
                value = gain + value_with(counts[slot], shown, future, full, singles, w) - now[k]
                if value > best_value:
                    best_value, best_pos, best_slot = value, pos, slot
            continue
        choices = by_card.get(card)
        if choices is None:
            choices = by_card[card] = _choices(table, interests_of[card], full, slots, now)
        for after, before, slot in choices:
            value = gain + after - before
            if value > best_value:
                best_value, best_pos, best_slot = value, pos, slot
    return best_value, best_pos, best_slot


def _open(table: Table, full: int) -> tuple[list[int], list[float]]:
    """The slots a guest may go to (Step 2, Group: an open group, or the first empty
    slot while a new group may start) and each one's group value now."""
    w = table.weights
    memo = table.memo
    counts = memo.counts
    if counts is None:
        counts = memo.counts = [Counts(g, table.width) for g in table.groups]
    singles, future = table.singles, table.future
    key = _rules(full, singles, False)
    values = memo.now.get(key)
    if values is None:
        values = memo.now[key] = tuple([value_of(c, future, full, singles, w) for c in counts])
    used = 0
    for group in table.groups:
        if group:
            used += 1
    limit = 5 if table.fifth else 4
    slots: list[int] = []
    now: list[float] = []
    new_done = False
    for slot, group in enumerate(table.groups):
        if group:
            if len(group) >= 5:
                continue
        elif new_done or used >= limit:
            continue
        else:
            new_done = True
        slots.append(slot)
        now.append(values[slot])
    return slots, now


def _choices(
    table: Table, card: tuple[int, ...], full: int, slots: list[int], now: list[float]
) -> tuple[tuple[float, float, int], ...]:
    """Where ``card`` may go (Step 2, Group), as (group's value after, before, slot):
    ``slots`` and ``now`` are ``_open``'s. A tuple of numbers' tuples, which Python's
    cyclic garbage collector stops visiting (a list it visits at every collection, and
    the kept plans hold thousands: a quarter of a greedy game was collections)."""
    counts = table.memo.counts
    assert counts is not None
    singles, future, w = table.singles, table.future, table.weights
    return tuple(
        [
            (value_with(counts[slot], card, future, full, singles, w), now[k], slot)
            for k, slot in enumerate(slots)
        ]
    )


def value_of(counted: Counts, future: int, full: int, singles: bool, w: Weights) -> float:
    """``group_value`` of the group ``counted`` (the same value to the last bit)."""
    size = counted.size
    if not size:
        return 0.0
    if size >= full:
        return float(counted.shown if singles else counted.matched)
    need = 5 - size
    if need > future:
        return 0.0
    return counted.matched + need * (w.interest_share * counted.spread - w.need_cost)


def value_with(
    counted: Counts, card: tuple[int, ...], future: int, full: int, singles: bool, w: Weights
) -> float:
    """``group_value`` of the group ``counted`` with ``card`` added, from the counts (the
    same integers, so the same value to the last bit)."""
    size = counted.size + 1
    if size >= full and singles:
        return float(counted.shown + len(card))
    counts = counted.counts
    matched, spread = counted.matched, counted.spread
    for i in card:  # a guest shows each interest at most once
        c = counts[i]
        if c == 0:
            spread += 2
        elif c == 1:
            matched += 2
            spread -= 1
        else:
            matched += 1
    if size >= full:
        return float(matched)
    need = 5 - size
    if need > future:
        return 0.0  # it cannot be finished before the game ends: it will not score
    return matched + need * (w.interest_share * spread - w.need_cost)


def value_now(table: Table, first: tuple[float, int, int] | None = None) -> float:
    """What the best move(s) this turn are worth, counting a second invitation if any;
    ``first`` is ``best_invite(table)`` if the caller has it."""
    value, pos, slot = best_invite(table) if first is None else first
    if table.invites_left > 1 and pos >= 0:
        card = table.line[pos]
        groups = [list(g) for g in table.groups]
        if card >= 0 and slot >= 0:
            groups[slot].append(table.interests_of[card])
        second = replanned(table, groups, [slot] if slot >= 0 else [])
        second.chips = table.chips + table.line_chips[pos] - (0 if table.free else pos)
        second.line = table.line[:pos] + table.line[pos + 1 :]
        second.line_chips = table.line_chips[:pos] + table.line_chips[pos + 1 :]
        value += max(0.0, best_invite(second)[0])
    return value


def group_values(table: Table, full: int) -> tuple[float, ...]:
    """Each of ``table``'s groups' ``group_value`` (no singles, from its counts: the same
    floats), once per plan."""
    memo = table.memo
    known = memo.values.get(full)
    if known is None:
        counts = memo.counts
        if counts is None:
            counts = memo.counts = [Counts(g, table.width) for g in table.groups]
        w, future = table.weights, table.future
        known = memo.values[full] = tuple([value_of(c, future, full, False, w) for c in counts])
    return known
