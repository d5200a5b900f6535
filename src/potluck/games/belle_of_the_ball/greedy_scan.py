"""Belle of the Ball's greedy planner's group search (``greedy_plan.Planner.best_invite``)
over the line read once per search's terms and skip, and shared by every group searched
on them (issue 36): a ``best_invite`` searches up to five groups, and Persuasive
Prudence's moves two a move, on the same terms.

``LineScan.read`` walks the reachable cards once: per guest its interests as fields
(``BelleTables.guest_interest_fields``), how many it shows, its position and the chips
term ``chip_value * (on_card - cost)``, into typed vectors kept and overwritten in place
(grown when short), and the best Belle to take to hand (the planner's one walk of the
line a search: it was a second, ``Planner._belles_best``, until round ten).
``LineScan.best`` then finds a group's best guest from those vectors alone: an item is
read with no tuple of Python ints untagged, no ``zip`` and no skip or reach test, and
the value is worked in ``group_value``'s order (the group with the guest, by
``estimate``'s formula, the counts ``Planner.add_fields`` would leave), so it is the
same float to the last bit (``tests/test_belle_greedy_scan.py`` holds it equal to
``group_value``'s best, and the Belle to hand to the best by the rule's costs).

The vectors are ``librt.vecs.vec`` (mypyc's runtime library, installed with mypy): on the
compiled build a native array of machine words or doubles, whose item is read with no
call, no boxing and no reference count. Plain typed lists were measured first and lost
(a list item is a boxed object: each read a call and an unboxing, each write a float or
an integer allocated, 8% more instructions a greedy game than the search this replaced,
where the vectors made 5% fewer; ``docs/games/belle-of-the-ball.md``, round nine). In
pure Python without ``librt`` (``make play`` installs no mypy) a list stands in for
``vec``: the same items, the same floats.

    >>> from potluck.games.belle_of_the_ball.greedy_counts import GroupCounts, Terms
    >>> scan = LineScan()
    >>> scan.use_guests((0b1001, 0b1), (2.0, 1.0))
    >>> scan.read(Terms((0, 1, BELLE_BASE), (2, 0, 4), 9), -1, 1.0, 3.0)
    >>> scan.count, [scan.pos[0], scan.pos[1]], [scan.chip[0], scan.chip[1]]
    (2, [0, 1], [2.0, -1.0])
    >>> scan.belles_value, scan.belles_pos
    (5.0, 2)
    >>> scan.best(GroupCounts(), Terms((0, 1), (2, 0), 9), 12, 0.3, 0.6)
    >>> scan.found_value, scan.found_pos
    (4.4, 0)
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import i64

from potluck.games.belle_of_the_ball.greedy_counts import (
    COUNT_BITS,
    COUNT_MASK,
    GROUP_SIZE,
    GroupCounts,
    Terms,
    estimate,
)
from potluck.games.belle_of_the_ball.state import BELLE_BASE

try:
    from librt.vecs import vec
except ImportError:  # (pure Python only: the compiled build needs librt, as mypyc does)
    # A list stands in: ``vec[i64](items)`` is then ``list[i64](items)``, a list.
    vec = list  # type: ignore[misc,assignment]

#: The most interests ``counting_magic`` counts by multiplication: a field times the
#: magic stays below 2**63 (an ``i64`` on the compiled build; no overflow).
_MAGIC_INTERESTS: Final = 10


def counting_magic(guest_fields: tuple[int, ...]) -> tuple[i64, i64]:
    """For guests' interests as fields (``BelleTables.guest_interest_fields``: bit
    ``COUNT_BITS * interest`` set), a magic number and a shift that count the bits of any
    part of a guest's fields in one multiplication: ``bits * magic >> shift`` holds, in
    its low ``COUNT_BITS`` bits, how many interests ``bits`` has (the product's field of
    the last interest sums one bit of ``bits`` per interest, and no field's sum carries
    into the next while a guest shows fewer than ``2**COUNT_BITS`` interests). ``(0,
    0)`` (count bit by bit) for tables where that does not hold, or with more interests
    than ``_MAGIC_INTERESTS``.

    >>> magic, shift = counting_magic((0b1001, 0b1))
    >>> (0b1001 * magic >> shift) & 7, (0b1000 * magic >> shift) & 7
    (2, 1)"""
    every = 0
    for fields in guest_fields:
        if fields < 0 or bin(fields).count("1") > COUNT_MASK:
            return 0, 0
        every |= fields
    interests = (every.bit_length() + COUNT_BITS - 1) // COUNT_BITS
    lowest = sum([1 << COUNT_BITS * interest for interest in range(interests)])
    if not every or interests > _MAGIC_INTERESTS or every & ~lowest:
        return 0, 0
    return lowest, COUNT_BITS * (interests - 1)


def _bits_counted(bits: i64) -> float:
    """How many bits ``bits`` has set, as a float (``LineScan.best`` without
    ``counting_magic``: the tables' guests do not allow one multiplication).

        >>> _bits_counted(0b1001001)
        3.0
    """
    count = 0.0
    while bits:
        bits &= bits - 1
        count += 1.0
    return count


class LineScan:
    """The reachable guests of one search's line (``read``), and a group's best among
    them (``best``: ``found_value``, ``found_pos``). A planner keeps one (``Planner.scan``)
    and reads a line again only for other terms or another skip."""

    def __init__(self) -> None:
        #: The terms and skip read last (``None``: nothing read, or the guests' tables
        #: changed: ``Planner.use_guests``).
        self.terms: Terms | None = None
        self.stamp: i64 = 0  # (``terms.stamp`` then: the bot fills its terms again)
        self.skip: i64 = -2
        #: How many guests were read: the first ``count`` items of each vector.
        self.count: i64 = 0
        self.fields: vec[i64] = vec[i64]()
        self.shown: vec[float] = vec[float]()
        self.chip: vec[float] = vec[float]()
        self.pos: vec[i64] = vec[i64]()
        #: The best Belle the read found to take to hand: her value (the chips term plus
        #: the planner's ``belle_value``) and position (-1e9 and -1 if none).
        self.belles_value = 0.0
        self.belles_pos: i64 = -1
        #: Per guest (by index, ``use_guests``): its interests as fields and how many it
        #: shows, as vectors (read with no integer or float unboxed).
        self.guest_fields: vec[i64] = vec[i64]()
        self.guest_shown: vec[float] = vec[float]()
        #: How ``best`` counts the interests a guest's fields share with a group's (set
        #: by ``use_guests``): ``count_magic`` 0, bit by bit; else a field times the
        #: magic, shifted right by ``count_shift``, its low ``COUNT_BITS`` bits
        #: (``counting_magic``).
        self.count_magic: i64 = 0
        self.count_shift: i64 = 0
        #: Each count's float (``float(count)`` at ``count``), up to ``COUNT_MASK``.
        self.count_floats: vec[float] = vec[float]([float(c) for c in range(COUNT_MASK + 1)])
        #: What ``best`` found last: the value of the best guest and the first position
        #: with it (-1e9 and -1 if none).
        self.found_value = 0.0
        self.found_pos: i64 = 0

    def use_guests(self, guest_fields: tuple[int, ...], guest_shown: tuple[float, ...]) -> None:
        """Read each guest's interests as fields and how many it shows (by guest:
        ``BelleTables.guest_interest_fields`` and ``guest_interest_counts``), and forget
        the last read."""
        self.guest_fields = vec[i64](guest_fields)
        self.guest_shown = vec[float](guest_shown)
        self.count_magic, self.count_shift = counting_magic(guest_fields)
        self.terms = None

    def read(self, terms: Terms, skip: i64, chip_value: float, belle_value: float) -> None:
        """Read the cards of the line of ``terms`` the seat can pay to reach (a skip
        costs a chip a card passed, none if ``free``: ``invite.skip_cost``; the card at
        ``skip`` left out, as if gone: the positions after it move up), unless these
        terms (as filled then: ``Terms.stamp``) and this skip were read last: the
        guests (``use_guests``' tables) into the vectors, and the best Belle to take to
        hand (``belles_value``: the chips term plus ``belle_value``; ``belles_pos``: the
        first position with it)."""
        if self.terms is terms and self.stamp == terms.stamp and self.skip == skip:
            return
        self.terms = terms
        self.stamp = terms.stamp
        self.skip = skip
        line, line_chips = terms.line, terms.line_chips
        size: i64 = len(line)
        if len(self.pos) < size:
            room: i64 = size + size
            self.fields = vec[i64]([0] * room)
            self.shown = vec[float]([0.0] * room)
            self.chip = vec[float]([0.0] * room)
            self.pos = vec[i64]([0] * room)
        fields, shown, chip, positions = self.fields, self.shown, self.chip, self.pos
        guest_fields, guest_shown = self.guest_fields, self.guest_shown
        free = terms.free
        chips: i64 = terms.chips
        paying: i64 = 0 if free else 1  # (a skip's cost is ``paying * pos``)
        belles_value = -1e9
        belles_pos: i64 = -1
        count: i64 = 0
        pos: i64 = 0
        index: i64 = -1
        on_card: i64 = 0
        # (the two are as long: ``strict=`` would make the compiled loop Python's
        # iterator instead of two reads by index without a bounds check)
        for card, on_card in zip(line, line_chips):  # noqa: B905
            index += 1
            if index == skip:
                continue
            cost = paying * pos
            if cost > chips:
                break
            # (the chips collected less those left, a whole number as ``invite.skip_cost``
            # gives it, then its float: ``i64`` words, where the float of a Python int
            # was a call)
            net = float(on_card - cost)
            if card < BELLE_BASE:
                fields[count] = guest_fields[card]
                shown[count] = guest_shown[card]
                chip[count] = chip_value * net
                positions[count] = pos
                count += 1
            else:
                value = chip_value * net + belle_value
                if value > belles_value:
                    belles_value, belles_pos = value, pos
            pos += 1
        self.count = count
        self.belles_value = belles_value
        self.belles_pos = belles_pos

    def best(
        self,
        group: GroupCounts,
        terms: Terms,
        future: i64,
        share: float,
        need_cost: float,
    ) -> None:
        """The best guest read (``read`` of these terms first) to invite into ``group``:
        its value (the chips term, plus the group's ``estimate`` with the guest, less
        without) in ``found_value`` and the first position with it in ``found_pos``.

        A guest's interests are intersected with the group's as ``i64`` bits and the
        counts that come of it summed as floats: each a whole number far below 2**53, so
        every sum is exact and equals the float of ``estimate``'s whole-number sum, and
        the operations after come in ``estimate``'s order. With the guest the group
        scores once full (every interest shown, with Romantic Rosalind's rule), is worth
        nothing if it cannot be finished, else ``estimate``: an interest the guest shows
        for the first time spreads it by 2, one shown once before matches 2 and spreads
        1 less, one shared already matches 1 more."""
        full, singles = terms.full, terms.singles
        size = group.size
        before = estimate(
            size, group.matched, group.spread, group.shown, future, full, singles, share, need_cost
        )
        count = self.count
        chip = self.chip
        positions = self.pos
        grown = size + 1
        need = GROUP_SIZE - grown
        scores = grown >= full
        best_value = -1e9
        best_pos: i64 = -1
        k: i64 = 0
        if scores and singles:
            shown_now = float(group.shown)
            shown = self.shown
            for k in range(count):
                value = chip[k] + (shown_now + shown[k]) - before
                if value > best_value:
                    best_value, best_pos = value, positions[k]
        elif not scores and need > future:  # (dead: the group cannot be finished)
            for k in range(count):
                value = chip[k] + 0.0 - before
                if value > best_value:
                    best_value, best_pos = value, positions[k]
        else:
            fields = self.fields
            matched_now = float(group.matched)
            spread_now = float(group.spread)
            once = group.once
            shared = group.shared
            unseen = ~(once | shared)
            needed = float(need)
            magic = self.count_magic
            top = self.count_shift
            mask: i64 = COUNT_MASK  # (an ``i64``: with the ``Final`` int, a boxed result)
            floats = self.count_floats
            for k in range(count):
                bits = fields[k]
                if magic:
                    # (each count one multiplication, ``counting_magic``, and its float
                    # read from a vector: ``float`` of an ``i64`` is a call)
                    matching = floats[(bits & once) * magic >> top & mask]
                    sharing = floats[(bits & shared) * magic >> top & mask]
                else:
                    # The interests the guest shares with one guest of the group, and with
                    # two or more, counted bit by bit (a guest shows a handful).
                    matching = _bits_counted(bits & once)
                    sharing = _bits_counted(bits & shared)
                matched = matched_now + matching + matching + sharing
                if scores:
                    after = matched
                else:
                    # (the interests new to the group: counted, not read as the guest's
                    # shown less those two, the same whole number)
                    if magic:
                        fresh = floats[(bits & unseen) * magic >> top & mask]
                    else:
                        fresh = _bits_counted(bits & unseen)
                    spread = spread_now + fresh + fresh - matching
                    after = matched + needed * (share * spread - need_cost)
                value = chip[k] + after - before
                if value > best_value:
                    best_value, best_pos = value, positions[k]
        self.found_value = best_value
        self.found_pos = best_pos
