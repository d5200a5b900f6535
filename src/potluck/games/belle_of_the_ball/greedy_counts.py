"""The greedy planner's two typed records (``greedy_plan.Planner``): ``GroupCounts``, one
of the seat's groups counted, and ``Terms``, what one search of the turn's invitations
is given (the line, the seat's chips and the rules as bent), in place of the nine
arguments each search and re-plan used to pass along.

Their whole numbers are ``i64``: on the compiled build each is a machine word, read and
changed with no check of whether it is a small or a boxed Python integer and no
overflow test (a plain ``int`` pays both on every operation; the group search's
per-guest arithmetic was a third of a greedy game, issue 36). In pure Python ``i64`` is
``int``. The values held are small (a count per interest in ``COUNT_BITS`` bits, ten
interests in the built-in data), far from the 64-bit limits.

    >>> counts = GroupCounts()
    >>> counts.size, counts.once, counts.shared
    (0, 0, 0)
    >>> Terms((3, 1000), (0, 1), 2).with_chips(5).chips
    5
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import i64

#: Bits per interest in a group's packed counts (``GroupCounts.packed``): a count up to
#: 7, where the rules allow five guests to a group.
COUNT_BITS: Final = 3
#: One interest's count in a packed field (``COUNT_BITS`` bits): 7.
COUNT_MASK: Final = (1 << COUNT_BITS) - 1
#: The most guests in a group (a fuller group is scored at the end of the turn).
GROUP_SIZE: Final = 5
#: ``GroupCounts.loaded`` of a group whose guests are not a party's list counted.
NOT_LOADED: Final[list[int]] = [-1]


class GroupCounts:
    """One group counted (``Planner.groups``): ``size`` guests, ``shown`` interests in
    all, ``matched`` and ``spread`` (``greedy_plan.estimate``), ``packed``, how many of
    its guests show each interest, ``COUNT_BITS`` bits an interest (``packed >>
    COUNT_BITS * interest & 7``), and the same counts as two sets of interests, each
    interest's bit ``COUNT_BITS * interest`` (its count's lowest) in ``once`` (shown by
    one guest) or in ``shared`` (by two or more): with a guest's interests laid out
    alike (``BelleTables.guest_interest_fields``), what the guest would add is two
    intersections counted (``greedy_scan.LineScan.best``) and a guest joins or leaves with a
    few operations on whole words (``Planner.add_fields``) instead of a count read per
    interest.

    Its fields are typed attributes of a compiled object, so counting a guest changes
    them in place. ``kept_size``... are what ``Planner.best_invite`` kept for the group."""

    def __init__(self) -> None:
        self.size: i64 = 0
        self.shown: i64 = 0
        self.matched: i64 = 0
        self.spread: i64 = 0
        self.packed: i64 = 0
        self.once: i64 = 0
        self.shared: i64 = 0
        #: The guests ``Planner.load_party`` counted here: the first ``loaded_size`` of
        #: the party's list ``loaded`` (fields, not the planner's lists: read with no
        #: list item fetched and no whole number boxed).
        self.loaded: list[int] = NOT_LOADED
        self.loaded_size: i64 = 0
        #: The group's value as it stands, no singles (``GreedyBot._move_gain``: a field,
        #: not a list's boxed float).
        self.move_value = 0.0
        # The kept bests below are plain fields, not small objects with a copy method:
        # made objects, 24 a planner to make and free, they cost more than the Prudence
        # bound saved (callgrind, 2026-11-29: a greedy game 2.0% dearer in all).
        #: The group's size and packed counts when ``best_invite`` kept its best guest
        #: (size -1: nothing kept), and that guest's value and position: the counts of
        #: the first search (the group as it stands) and of the latest other (a guest
        #: moved out: Persuasive Prudence's moves from one group re-plan it alike).
        self.kept_size: i64 = -1
        self.kept_packed: i64 = 0
        self.kept_value = 0.0
        self.kept_pos = 0
        self.other_size: i64 = -1
        self.other_packed: i64 = 0
        self.other_value = 0.0
        self.other_pos = 0
        #: The same for a Belle's re-plan (``Planner.trying``: size -1, not searched), and
        #: for the re-plan of the Belle the bot rates best so far (``Planner.keep_trial``),
        #: which the next decision, once she is played, searches again on equal terms:
        #: two records, ``a_*`` and ``b_*``, one the trial's and the other the hint's
        #: (``Planner.trial_b``): keeping a trial swaps their parts, copying nothing.
        self.a_size: i64 = -1
        self.a_packed: i64 = 0
        self.a_value = 0.0
        self.a_pos = 0
        self.b_size: i64 = -1
        self.b_packed: i64 = 0
        self.b_value = 0.0
        self.b_pos = 0


class Terms:
    """What one search of the turn's invitations is given (``Planner.best_invite``):
    the ``line``'s cards (a guest's index, or ``BELLE_BASE`` and up: a Belle, to hand)
    and the ``line_chips`` on them, the seat's ``chips``, and the rules as bent this
    turn: skips cost nothing (``free``), a group of ``full`` guests scores, every
    interest scores (``singles``), a fifth group may open (``fifth``), and
    ``invites_left`` invitations are still to make. The bot makes one per decision from
    its ``SeatInfo`` and one per Belle's re-plan, with her bent rule."""

    def __init__(
        self,
        line: tuple[int, ...],
        line_chips: tuple[int, ...],
        chips: int,
        free: bool = False,
        full: int = GROUP_SIZE,
        singles: bool = False,
        fifth: bool = False,
        invites_left: int = 1,
    ) -> None:
        # (the fields set here, not by ``fill``: mypyc then knows each is always set and
        # reads it with no check that it is)
        self.line = line
        self.line_chips = line_chips
        self.chips = chips
        self.free = free
        self.full = full
        self.singles = singles
        self.fifth = fifth
        self.invites_left = invites_left
        #: How many times ``fill`` has changed these terms: a reader that keeps what it
        #: read from them (``LineScan.read``, ``Planner.group_bound``) keeps the object and
        #: its stamp, as the bot fills the same objects again (issue 36: a ``Terms`` made
        #: and freed per decision and re-plan, and the collector's passes its making set
        #: off, were about a twelfth of a greedy game).
        self.stamp: i64 = 0

    def fill(
        self,
        line: tuple[int, ...],
        line_chips: tuple[int, ...],
        chips: int,
        free: bool,
        full: int,
        singles: bool,
        fifth: bool,
        invites_left: int,
    ) -> Terms:
        """These terms made those given (as ``Terms(...)`` makes them), a new stamp."""
        self.line = line
        self.line_chips = line_chips
        self.chips = chips
        self.free = free
        self.full = full
        self.singles = singles
        self.fifth = fifth
        self.invites_left = invites_left
        self.stamp += 1
        return self

    def copy_of(self, other: Terms) -> Terms:
        """These terms made equal to ``other`` (``fill``)."""
        return self.fill(
            other.line,
            other.line_chips,
            other.chips,
            other.free,
            other.full,
            other.singles,
            other.fifth,
            other.invites_left,
        )

    def with_chips(self, chips: int, into: Terms | None = None) -> Terms:
        """The same terms with the seat holding ``chips`` (after a first invitation): in
        ``into`` (``fill``), or new terms."""
        made = into if into is not None else Terms((), (), 0)
        return made.fill(
            self.line,
            self.line_chips,
            chips,
            self.free,
            self.full,
            self.singles,
            self.fifth,
            self.invites_left,
        )

    def same_search(self, other: Terms) -> bool:
        """Whether a search on ``other`` finds each group's best guest where one on these
        terms does: the same line, chips on it and reach (``same_line``) and bent scoring
        rules (``fifth`` and ``invites_left`` open or add searches, not change one)."""
        return self.same_line(other) and self.full == other.full and self.singles == other.singles

    def same_line(self, other: Terms) -> bool:
        """Whether ``other`` has the same line, chips on it, cost of a skip and reach:
        the seat's chips the same, or enough on both terms to pay for a skip past every
        card (or skips free: the seat's chips are read for the reach alone,
        ``greedy_scan.LineScan.read``): a search on either finds the same Belle to hand
        and reaches as far, and the same best guest for a group whose values the full
        size and Romantic Rosalind's rule do not change (``Planner.best_invite``)."""
        # (the whole numbers first, and the tuples' lengths before their items: a line
        # other seats took a card from is shorter, and a tuple's ``==`` compares items
        # before lengths)
        line, other_line = self.line, other.line
        on_line, other_on_line = self.line_chips, other.line_chips
        chips, other_chips = self.chips, other.chips
        last = len(line) - 1  # (what a skip to the line's last card costs)
        return (
            self.free == other.free
            and (chips == other_chips or self.free or (chips >= last and other_chips >= last))
            and (line is other_line or (len(line) == len(other_line) and line == other_line))
            and (on_line is other_on_line or on_line == other_on_line)
        )


def estimate(
    size: i64,
    matched: i64,
    spread: i64,
    shown: i64,
    future: i64,
    full: i64,
    singles: bool,
    share: float,
    need_cost: float,
) -> float:
    """``group_value`` of a group from its counts: ``size`` guests, ``shown`` interests
    shown in all, ``matched`` chips its matches score so far (every guest showing an
    interest another shows too, counted per interest) and its ``spread`` (over the
    interests shown: 2 for one shown once, 1 for one shared, so that ``share * spread``
    is what a further guest is likely to add). The whole numbers are ``i64`` (machine
    words on the compiled build: their floats are C conversions, where an ``int``'s was a
    call), the same floats."""
    if not size:
        return 0.0
    if size >= full:
        return float(shown if singles else matched)
    need = GROUP_SIZE - size
    if need > future:
        return 0.0
    return float(matched) + float(need) * (share * float(spread) - need_cost)
