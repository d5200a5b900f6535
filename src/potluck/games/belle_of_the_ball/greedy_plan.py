"""Belle of the Ball's greedy bot's plan (``bots.GreedyBot``): the ``Planner`` that values
a turn's invitations (``best_invite``, ``value_now``) from its groups counted, by the rule
and weights of ``greedy_value`` (``group_value``, ``Weights``).

A ``Planner`` holds its seat's groups as counts (guests per interest, matched chips,
spread) in flat lists of small ints. A Belle's re-plan changes them in place and puts
them back (a guest added for a second invitation, a guest moved): a decision builds no
table, plan or group object, so the garbage collector has next to nothing to visit
(issue 36: making, freeing and collecting those objects was most of a greedy game).
``estimate`` is ``group_value`` worked from the counts, the same float to the last bit
(``tests/test_rules_written_once.py`` and ``tests/test_belle_greedy_planner.py``).

    >>> group_value([(0, 1), (1, 2)], 12)
    4.7
    >>> planner = Planner(DEFAULT_WEIGHTS)
    >>> planner.add(0, (0, 1)); planner.add(0, (1, 2)); planner.future = 12
    >>> planner.value_of(0, 5, False)
    4.7
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import i64

from potluck.games.belle_of_the_ball.greedy_bound import GuestBounds
from potluck.games.belle_of_the_ball.greedy_counts import (
    COUNT_BITS,
    COUNT_MASK,
    GROUP_SIZE,
    NOT_LOADED,
    GroupCounts,
    Terms,
)
from potluck.games.belle_of_the_ball.greedy_counts import estimate as estimate
from potluck.games.belle_of_the_ball.greedy_scan import LineScan
from potluck.games.belle_of_the_ball.greedy_value import DEFAULT_WEIGHTS as DEFAULT_WEIGHTS
from potluck.games.belle_of_the_ball.greedy_value import NEED_COST, SHARE
from potluck.games.belle_of_the_ball.greedy_value import Weights as Weights
from potluck.games.belle_of_the_ball.greedy_value import group_value as group_value
from potluck.games.belle_of_the_ball.state import BELLE_BASE, SLOTS
from potluck.games.belle_of_the_ball.tables import BelleTables

#: The ``Planner``'s slot past the seat's own, where a rival's group is counted.
SCRATCH: Final = SLOTS


#: How far below a value to beat an upper bound must be before the search it bounds is
#: skipped: more than the bound's and the search's sums round apart (values of a few
#: dozen chips, exact to about 1e-14).
BOUND_MARGIN: Final = 1e-9
#: Scandalous Scarlett's loss is valued as if her target had this many invitations left.
RIVAL_FUTURE: Final = 12


class Planner:
    """One seat's groups counted, and the turn's invitations valued from the counts.

    ``groups[slot]`` is the seat's group in ``slot`` (``SLOTS`` of them, then
    ``SCRATCH``), as ``GroupCounts``. ``add`` and ``remove`` keep the counts in step
    guest by guest, so a re-plan changes a group and puts it back rather than copying
    anything. A group holds at most seven guests here (the rules allow five)."""

    def __init__(self, weights: Weights) -> None:
        self.share = weights.interest_share
        self.need_cost = weights.need_cost
        self.chip_value = weights.chip_value
        self.belle_value = weights.belle_value
        # (a tuple: compiled, a read of it is inlined, where a list's was a call)
        self.groups = tuple([GroupCounts() for _ in range(SCRATCH + 1)])
        #: Per guest (by index): its interests, the same as fields (``add_fields``), and
        #: how many it shows (``use_guests``, from the game's tables).
        self.guest_interests: tuple[tuple[int, ...], ...] = ()
        self.guest_fields: tuple[int, ...] = ()
        self.guest_shown_floats: tuple[float, ...] = ()
        #: True while a decision changes the counts (and puts them back): still true at
        #: the next decision, it stopped half-way and ``GroupCounts.loaded`` is not to be
        #: trusted.
        self.busy = False
        #: Invitations the bot expects after this one (``group_value``'s ``future``).
        self.future: i64 = 0
        #: Where ``best_invite``'s best invitation is: its position in line and its slot
        #: (-1 for a Belle to hand; both -1 if it found none).
        self.best_pos = -1
        self.best_slot = -1
        # What the first search of a decision kept, unless it had the same arguments as
        # the last one kept: its terms, skip and future, the best Belle to hand (and per
        # group, in ``GroupCounts``, its best guest); ``rekeep`` until it is made.
        self.rekeep = True
        self.kept_terms: Terms | None = None
        self.kept_skip = 0
        self.kept_future = 0
        self.kept_belles_value = 0.0
        self.kept_belles_pos = 0
        # A Belle's re-plan (``trying``) records its first search here and in each
        # group's trial record; the best Belle's is kept as the hint (``keep_trial``),
        # the next decision's kept bests if its terms are the same (she was played).
        # The trial record is ``GroupCounts.b_*`` while ``trial_b``, else ``a_*``, and
        # the hint's is the other (``hint_b`` is never ``trial_b``).
        self.trying = False
        self.trial_b = False
        self.hint_b = True
        self.trial_terms: Terms | None = None
        self.trial_future = 0
        self.trial_belles_value = 0.0
        self.trial_belles_pos = 0
        self.hint_terms: Terms | None = None
        self.hint_future = 0
        self.hint_belles_value = 0.0
        self.hint_belles_pos = 0
        # The terms above are the planner's own copies (``Terms.copy_of``), made once:
        # the terms it is given are filled again by the bot (``Terms.fill``).
        self.kept_copy = Terms((), (), 0)
        self.trial_copy = Terms((), (), 0)
        self.hint_copy = Terms((), (), 0)
        #: The terms of a second invitation (``value_now``), filled for each.
        self.second_terms = Terms((), (), 0)
        #: Upper bounds of group searches (``greedy_bound``), from the line of
        #: ``bounds_terms`` as filled then (``bounds_stamp``; ``None``: no line read yet).
        self.bounds = GuestBounds()
        self.bounds_terms: Terms | None = None
        self.bounds_stamp: i64 = 0
        #: The line read once per search's terms and skip, for the group searches.
        self.scan = LineScan()

    def use_guests(self, tables: BelleTables) -> None:
        """Read each guest's interests, as fields and counted, from the game's tables (made
        once per card data, ``BelleTables.guest_interest_fields``)."""
        if tables.guest_interests is self.guest_interests:
            return
        self.guest_interests = tables.guest_interests
        self.guest_fields = tables.guest_interest_fields
        self.guest_shown_floats = tables.guest_interest_counts
        self.scan.use_guests(self.guest_fields, self.guest_shown_floats)
        for group in self.groups:
            group.loaded = NOT_LOADED
        self.kept_terms = None
        self.hint_terms = None
        self.bounds_terms = None

    def count(self, slot: int, interest: int) -> int:
        """How many guests of group ``slot`` show ``interest``."""
        return self.groups[slot].packed >> COUNT_BITS * interest & COUNT_MASK

    def clear(self, slot: int) -> None:
        """Empty group ``slot`` (and forget what ``load`` counted there)."""
        group = self.groups[slot]
        group.loaded = NOT_LOADED
        group.packed = group.size = group.shown = group.matched = group.spread = 0
        group.once = group.shared = 0

    def load(self, slot: int, guests: tuple[int, ...]) -> None:
        """Count ``guests`` (by index) as group ``slot`` (``load_party``)."""
        self.load_party(slot, list(guests), len(guests))

    def load_party(self, slot: int, guests: list[int], size: i64) -> None:
        """Count the first ``size`` guests of ``guests`` (by index, their interests read
        from ``use_guests``' tables) as group ``slot``, unless they are the guests it
        counted last time: the same list as long (a party's list only grows in place,
        ``BelleState.parties``; a seat's planner is reused from decision to decision,
        its groups put back after every re-plan). The same list grown since is counted
        on from the guests counted then (its first ones, which a list grown in place
        keeps): the counts are whole numbers, the same whichever way they are summed."""
        group = self.groups[slot]
        start: i64 = 0
        if guests is group.loaded:
            start = group.loaded_size
            if size == start:
                return
            if size < start:
                start = 0
        if not start:
            self.clear(slot)
        fields_of = self.guest_fields
        for index in range(start, size):
            self.add_fields(slot, fields_of[guests[index]])
        group.loaded = guests
        group.loaded_size = size

    def add(self, slot: int, interests: tuple[int, ...]) -> None:
        """A guest showing ``interests`` (each at most once) joins group ``slot``."""
        fields: i64 = 0
        interest: i64 = 0
        for interest in interests:
            fields |= 1 << COUNT_BITS * interest
        self.add_fields(slot, fields)

    def remove(self, slot: int, interests: tuple[int, ...]) -> None:
        """A guest showing ``interests`` leaves group ``slot`` (``add`` undone)."""
        fields: i64 = 0
        interest: i64 = 0
        for interest in interests:
            fields |= 1 << COUNT_BITS * interest
        self.remove_fields(slot, fields)

    def add_fields(self, slot: int, fields: i64) -> None:
        """``add`` of a guest whose interests are ``fields`` (bit ``COUNT_BITS *
        interest`` set: ``BelleTables.guest_interest_fields``), all at once: an interest
        shown by no guest of the group yet spreads it by 2, one shown once matches 2 and
        spreads 1 less, one shared already matches 1 more."""
        group = self.groups[slot]
        once = group.once
        shared = group.shared
        fresh = fields & ~(once | shared)
        pairing = fields & once
        # (counted in one walk over the guest's interests, a handful: three counting
        # loops, or calls, cost more)
        fresh_count: i64 = 0
        pairing_count: i64 = 0
        more_count: i64 = 0
        rest = fields
        while rest:
            bit = rest & -rest
            rest ^= bit
            if bit & pairing:
                pairing_count += 1
            elif bit & shared:
                more_count += 1
            else:
                fresh_count += 1
        group.spread += fresh_count + fresh_count - pairing_count
        group.matched += pairing_count + pairing_count + more_count
        group.once = (once | fresh) & ~pairing
        group.shared = shared | pairing
        group.packed += fields
        group.shown += fresh_count + pairing_count + more_count
        group.size += 1

    def remove_fields(self, slot: int, fields: i64) -> None:
        """``add_fields`` undone: an interest the guest alone showed goes, one shown by
        exactly two guests is shown once again (its count, read from ``packed``, is 2),
        one shown by more stays shared."""
        group = self.groups[slot]
        once = group.once
        shared = group.shared
        # The guest's interests' counts, and a field at 0 exactly where a count is 2.
        counts = group.packed & fields * COUNT_MASK
        off_two = counts ^ fields << 1
        twice = fields & ~(off_two | off_two >> 1 | off_two >> 2)
        alone = fields & once
        more = fields & shared & ~twice
        # (counted in one walk, as in ``add_fields``: the two walks are written out, a
        # shared function's call per guest costs what the walk saves)
        alone_count: i64 = 0
        twice_count: i64 = 0
        more_count: i64 = 0
        rest = alone | twice | more
        while rest:
            bit = rest & -rest
            rest ^= bit
            if bit & alone:
                alone_count += 1
            elif bit & twice:
                twice_count += 1
            else:
                more_count += 1
        group.spread += twice_count - alone_count - alone_count
        group.matched -= twice_count + twice_count + more_count
        group.once = (once & ~alone) | twice
        group.shared = shared & ~twice
        group.packed -= fields
        group.shown -= alone_count + twice_count + more_count
        group.size -= 1

    def rival_loss(self, group: list[int], size: i64) -> float:
        """What Scandalous Scarlett takes from the rival group of the first ``size``
        guests of ``group``: its ``group_value`` (default weights, ``RIVAL_FUTURE``
        invitations left) less that without its last guest, counted in ``SCRATCH``."""
        fields_of = self.guest_fields
        self.clear(SCRATCH)
        for index in range(size):
            self.add_fields(SCRATCH, fields_of[group[index]])
        whole = self._scratch_value()
        if size:
            self.remove_fields(SCRATCH, fields_of[group[size - 1]])
        return whole - self._scratch_value()

    def _scratch_value(self) -> float:
        """``group_value`` of the group counted in ``SCRATCH`` as ``rival_loss`` values it."""
        group = self.groups[SCRATCH]
        return estimate(
            group.size,
            group.matched,
            group.spread,
            group.shown,
            RIVAL_FUTURE,
            GROUP_SIZE,
            False,
            SHARE,
            NEED_COST,
        )

    def value_of(self, slot: int, full: int, singles: bool) -> float:
        """``group_value`` of group ``slot`` with the bot's weights."""
        group = self.groups[slot]
        return estimate(
            group.size,
            group.matched,
            group.spread,
            group.shown,
            self.future,
            full,
            singles,
            self.share,
            self.need_cost,
        )

    def forget(self) -> None:
        """A new decision: its first search keeps what it finds (``best_invite``), unless
        its arguments are those kept already (the line, the chips and the rules as at the
        seat's last decision: its kept bests are still what a search would find)."""
        self.rekeep = True

    def best_invite(self, terms: Terms, skip: int = -1) -> float:
        """The value of the best invitation on ``terms`` now, its place left in
        ``best_pos`` and ``best_slot``; ``skip`` is a position taken already (-1: none),
        as if it were gone.

        Each invitation is worth the chips it collects less those it leaves on skipped
        cards (by ``chip_value``), plus the Belle's worth or what the guest adds to the
        group; the first best in the order of the legal list (by position, then slot)
        is kept. It is found group by group (``greedy_scan.LineScan.best``, over the line
        read once for these terms and skip, ``LineScan.read``, and each group's counts
        read once): the best of each, and of the Belles to hand, taken in slot order, an
        equal value winning only from an earlier position.

        The first search after ``forget`` keeps each group's best, and a later search
        on the same terms (``Terms.same_search``: the same values, a later decision's
        too) and skip reuses those of the groups whose counts are as they were at one
        of the two kept searches of the group (a Belle's guest move changes two, Grand
        Dame Gwendolyn opens one more; each value depends on nothing else:
        ``LineScan.best``)."""
        groups = self.groups
        scan = self.scan
        kept_terms = self.kept_terms
        line_kept = (
            kept_terms is not None
            and skip == self.kept_skip
            and self.future == self.kept_future
            and kept_terms.same_line(terms)
        )
        # (``Terms.same_search``, its ``same_line`` known already)
        kept = (
            line_kept
            and kept_terms is not None
            and kept_terms.full == terms.full
            and kept_terms.singles == terms.singles
        )
        keeping = kept or self.rekeep
        # The open groups whose kept bests hold on these terms: those of fewer guests
        # than this (every open group on the kept terms; with only the full size or
        # Romantic Rosalind's rule bent, a group that neither is full nor fills with
        # the guest under either terms, as ``full`` and ``singles`` then change none of
        # its values).
        alike_below = GROUP_SIZE if keeping else 0
        if line_kept and not keeping and kept_terms is not None:
            alike_below = min(kept_terms.full, terms.full) - 1
        self.rekeep = False
        if not kept and keeping:
            self.kept_terms = self.kept_copy.copy_of(terms)
            self.kept_skip, self.kept_future = skip, self.future
            hint_terms = self.hint_terms
            self.hint_terms = None
            if (
                hint_terms is not None
                and skip < 0
                and self.future == self.hint_future
                and hint_terms.same_search(terms)
            ):
                # The Belle just played was re-planned on these terms last decision.
                hint_b = self.hint_b
                for slot in range(SLOTS):
                    group = groups[slot]
                    if hint_b:
                        group.kept_size = group.b_size
                        group.kept_packed = group.b_packed
                        group.kept_value = group.b_value
                        group.kept_pos = group.b_pos
                    else:
                        group.kept_size = group.a_size
                        group.kept_packed = group.a_packed
                        group.kept_value = group.a_value
                        group.kept_pos = group.a_pos
                    group.other_size = -1
                self.kept_belles_value = self.hint_belles_value
                self.kept_belles_pos = self.hint_belles_pos
            else:
                for slot in range(SLOTS):
                    groups[slot].kept_size = groups[slot].other_size = -1
                scan.read(terms, skip, self.chip_value, self.belle_value)
                self.kept_belles_value, self.kept_belles_pos = scan.belles_value, scan.belles_pos
        if keeping or line_kept:  # (the Belles to hand: the line's alone)
            best_value, best_pos = self.kept_belles_value, self.kept_belles_pos
        else:
            scan.read(terms, skip, self.chip_value, self.belle_value)
            best_value, best_pos = scan.belles_value, scan.belles_pos
        trying = self.trying
        trial_b = self.trial_b
        if trying:
            self.trying = False  # (a second invitation's search is not recorded)
            self.trial_terms, self.trial_future = self.trial_copy.copy_of(terms), self.future
            self.trial_belles_value = best_value
            self.trial_belles_pos = best_pos
            for slot in range(SLOTS):
                if trial_b:
                    groups[slot].b_size = -1
                else:
                    groups[slot].a_size = -1
        best_slot = -1
        # Step 2, Group: an open group, or the first empty slot while a new group may
        # start (``groups._places_by_sizes``, read from the counted sizes).
        used = 0
        for slot in range(SLOTS):
            if groups[slot].size:
                used += 1
        limit = 5 if terms.fifth else 4
        new_done = False
        for slot in range(SLOTS):
            group = groups[slot]
            members = group.size
            if members:
                if members >= GROUP_SIZE:
                    continue
            elif new_done or used >= limit:
                continue
            else:
                new_done = True
            packed = group.packed
            alike = members < alike_below
            if alike and group.kept_size == members and group.kept_packed == packed:
                value, pos = group.kept_value, group.kept_pos
            elif alike and group.other_size == members and group.other_packed == packed:
                value, pos = group.other_value, group.other_pos
            else:
                if (  # (``read``'s own test)
                    scan.terms is not terms or scan.stamp != terms.stamp or scan.skip != skip
                ):
                    scan.read(terms, skip, self.chip_value, self.belle_value)
                scan.best(group, terms, self.future, self.share, self.need_cost)
                value, pos = scan.found_value, scan.found_pos
                if keeping and group.kept_size < 0:
                    group.kept_size = members
                    group.kept_packed = packed
                    group.kept_value = value
                    group.kept_pos = pos
                elif keeping:
                    group.other_size = members
                    group.other_packed = packed
                    group.other_value = value
                    group.other_pos = pos
            if trying:
                if trial_b:
                    group.b_size = members
                    group.b_packed = packed
                    group.b_value = value
                    group.b_pos = pos
                else:
                    group.a_size = members
                    group.a_packed = packed
                    group.a_value = value
                    group.a_pos = pos
            if value > best_value or (value == best_value and pos < best_pos):
                best_value, best_pos, best_slot = value, pos, slot
        self.best_pos = best_pos
        self.best_slot = best_slot
        return best_value

    def group_bound(self, slot: int, terms: Terms) -> float:
        """At least the value of the best guest a search on ``terms`` (no position
        taken) finds for group ``slot`` as counted now (``GuestBounds.bound``)."""
        bounds = self.bounds
        if self.bounds_terms is not terms or self.bounds_stamp != terms.stamp:
            self.bounds_terms = terms
            self.bounds_stamp = terms.stamp
            bounds.read_line(terms, self.chip_value, self.share, self.guest_shown_floats)
        return bounds.bound(self.groups[slot], terms, self.future, self.share, self.need_cost)

    def keep_trial(self) -> None:
        """Keep the last recorded re-plan (``trying``) as the hint for the next decision
        (none if the Belle rated best has no re-plan: ``trial_terms`` is then ``None``):
        the groups' trial records become the hint's and the next trial is recorded over
        the last hint's (copying each group's four fields whenever a Belle was rated
        best was about 0.02 million instructions a greedy game, issue 36)."""
        hint = self.hint_terms = self.trial_terms
        if hint is not None and hint is not self.hint_copy:
            # (the trial's copy is the hint's, and the next trial is copied to the other)
            self.trial_copy, self.hint_copy = self.hint_copy, hint
        self.hint_future = self.trial_future
        self.hint_belles_value = self.trial_belles_value
        self.hint_belles_pos = self.trial_belles_pos
        self.hint_b = self.trial_b
        self.trial_b = not self.trial_b

    def value_now(self, terms: Terms, first: float) -> float:
        """What the best move(s) this turn are worth: ``first``, the value of
        ``best_invite`` just made on ``terms`` (its place still in ``best_pos`` and
        ``best_slot``), and a second invitation's if any (not below nothing)."""
        pos = self.best_pos
        if terms.invites_left <= 1 or pos < 0:
            return first
        slot = self.best_slot
        card = terms.line[pos]
        joined = card < BELLE_BASE and slot >= 0
        if joined:
            self.add_fields(slot, self.guest_fields[card])
        paid = 0 if terms.free else pos
        more = terms.with_chips(terms.chips + terms.line_chips[pos] - paid, self.second_terms)
        second = self.best_invite(more, pos)
        if joined:
            self.remove_fields(slot, self.guest_fields[card])
        return first + (second if second > 0.0 else 0.0)

    def plan_value(self, terms: Terms) -> float:
        """``value_now`` of its own best invitation on ``terms``."""
        return self.value_now(terms, self.best_invite(terms))
