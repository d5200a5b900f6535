"""An upper bound on what the greedy planner's group search can find (``GuestBounds``),
so that the bot may skip a re-plan that cannot change its choice (issue 36).

Persuasive Prudence moves the last guest of one of the seat's groups to another; the
bot values each such move by searching the turn's invitations again on the moved counts
(``bots.GreedyBot._move_gain``), about 120 searches a 4-player greedy game, most of which
cannot beat the Belle the bot already rates best. After the move only the two groups
the guest left and joined have new counts, so the best invitation is at most the best
of the decision's first search or of those two groups' searches, and each of the two is
at most ``GuestBounds.bound`` of its counts: read from the line once a decision, a few
operations a group, with no search.

The bound follows ``greedy_scan.LineScan.best`` term by term. A guest who shows ``k``
interests, ``m`` of them shown once in the group and ``s`` shared already, leaves an
open group of ``n`` guests still needed worth

    matched + n * (share * spread - need_cost)
        + 2 * n * share * k + m * (2 - 3 * n * share) + s * (1 - 2 * n * share)

(``matched`` and ``spread`` the group's now), so the best guest's chips and value are at
most the line's best ``chips + 2 * n * share * k`` plus each of the last two terms at
its largest (``m`` at most the interests shown once and the most any guest shows,
``s`` likewise); a full group's value ``matched + 2 * m + s`` at most the line's best
``chips + 2 * k`` (or ``chips`` plus every interest shown once and shared counted);
with Romantic Rosalind every interest shown, the line's best ``chips + k``.
``tests/test_belle_greedy_bound.py`` holds the bound above the search and
``group_value`` over random groups, lines and weights.

Bounding a whole search (every group and the Belles to hand) to skip other Belles'
re-plans, or groups within a search, was measured and dropped: on the compiled build a
bound costs a third of a group search, and those searches mostly reuse kept bests.

    >>> import potluck
    >>> from potluck.games.belle_of_the_ball.greedy_plan import DEFAULT_WEIGHTS, Planner
    >>> planner = Planner(DEFAULT_WEIGHTS)
    >>> planner.use_guests(potluck.load_game("belle-of-the-ball"))
    >>> planner.future = 12
    >>> planner.add(0, (0, 1, 2))
    >>> terms = Terms((0, 1), (2, 0), 5)
    >>> best = planner.best_invite(terms)
    >>> planner.group_bound(0, terms) >= planner.groups[0].kept_value  # (its best kept)
    True
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import i64

from potluck.games.belle_of_the_ball.greedy_counts import GROUP_SIZE, GroupCounts, Terms, estimate
from potluck.games.belle_of_the_ball.state import BELLE_BASE

#: ``LineScan.best``'s value when the line has no guest the seat can reach.
NO_GUEST: Final = -1e9


def _bits(bits: i64) -> float:
    """How many bits of ``bits`` are set, as a float."""
    count = 0.0
    while bits:
        bits &= bits - 1
        count += 1.0
    return count


class GuestBounds:
    """The line's best chips and interests, read once for a search's terms
    (``read_line``), and from them an upper bound on the best invitation into a group of
    any counts (``bound``). Floats in typed fields, compared by hand: on the compiled
    build nothing here is boxed or allocated."""

    def __init__(self) -> None:
        #: The most ``chips``, ``chips + k`` and ``chips + 2 * k`` of a guest the seat
        #: can reach (``k`` the interests it shows).
        self.chips_best = NO_GUEST
        self.singles_best = NO_GUEST
        self.pairs_best = NO_GUEST
        #: The most ``chips + lean * n`` of a reachable guest for ``n`` guests still
        #: needed after it, 1 to 4 (``lean`` is ``2 * share * k``).
        self.need_1 = NO_GUEST
        self.need_2 = NO_GUEST
        self.need_3 = NO_GUEST
        self.need_4 = NO_GUEST
        #: The most interests a reachable guest shows.
        self.most_shown = 0.0

    def read_line(
        self,
        terms: Terms,
        chip_value: float,
        share: float,
        guest_shown: tuple[float, ...],
    ) -> None:
        """Read the line of ``terms`` as ``greedy_scan.LineScan.best`` does with no position
        taken: the guests the seat can pay to reach, each with the chips it collects
        less those it leaves (by ``chip_value``) and the interests it shows
        (``guest_shown``, by guest), with the planner's weights."""
        line, line_chips = terms.line, terms.line_chips
        free, chips_held = terms.free, terms.chips
        chips_best = singles_best = pairs_best = NO_GUEST
        need_1 = need_2 = need_3 = need_4 = NO_GUEST
        most_shown = 0.0
        for pos in range(len(line)):
            cost = 0 if free else pos
            if cost > chips_held:
                break
            card = line[pos]
            if card >= BELLE_BASE:
                continue
            chips = chip_value * (line_chips[pos] - cost)
            shown = guest_shown[card]
            if chips > chips_best:
                chips_best = chips
            if chips + shown > singles_best:
                singles_best = chips + shown
            if chips + 2.0 * shown > pairs_best:
                pairs_best = chips + 2.0 * shown
            if shown > most_shown:
                most_shown = shown
            lean = 2.0 * share * shown
            if chips + lean > need_1:
                need_1 = chips + lean
            if chips + 2.0 * lean > need_2:
                need_2 = chips + 2.0 * lean
            if chips + 3.0 * lean > need_3:
                need_3 = chips + 3.0 * lean
            if chips + 4.0 * lean > need_4:
                need_4 = chips + 4.0 * lean
        self.chips_best = chips_best
        self.singles_best = singles_best
        self.pairs_best = pairs_best
        self.need_1 = need_1
        self.need_2 = need_2
        self.need_3 = need_3
        self.need_4 = need_4
        self.most_shown = most_shown

    def bound(
        self, group: GroupCounts, terms: Terms, future: i64, share: float, need_cost: float
    ) -> float:
        """At least the value of the best invitation into ``group`` that
        ``greedy_scan.LineScan.best`` finds on ``terms`` (the line read by ``read_line``) with
        the planner's ``future`` and weights, ``NO_GUEST`` if it finds none."""
        if self.chips_best == NO_GUEST:
            return NO_GUEST
        size = group.size
        full, singles = terms.full, terms.singles
        before = estimate(
            size, group.matched, group.spread, group.shown, future, full, singles, share, need_cost
        )
        grown = size + 1
        need = GROUP_SIZE - grown
        scores = grown >= full
        if scores and singles:
            top = self.singles_best + float(group.shown)
        elif not scores and need > future:
            top = self.chips_best
        else:
            most = self.most_shown
            once = _bits(group.once)
            if once > most:
                once = most
            shared = _bits(group.shared)
            if shared > most:
                shared = most
            matched = float(group.matched)
            if scores:
                top = self.chips_best + 2.0 * once + shared
                if self.pairs_best < top:
                    top = self.pairs_best
                top += matched
            else:
                needed = float(need)
                if need <= 1:
                    lean_best = self.need_1
                elif need == 2:
                    lean_best = self.need_2
                elif need == 3:
                    lean_best = self.need_3
                else:
                    lean_best = self.need_4
                top = lean_best + matched + needed * (share * float(group.spread) - need_cost)
                # (each guest's interests shown once, or shared, at their largest worth)
                by_once = 2.0 - 3.0 * needed * share
                if by_once > 0.0:
                    top += by_once * once
                by_shared = 1.0 - 2.0 * needed * share
                if by_shared > 0.0:
                    top += by_shared * shared
        return top - before
