"""Belle of the Ball's greedy planner (issue 36) against the rules it stands for.

The greedy bot values invitations from its groups counted in flat lists
(``greedy_plan.Planner``), changed guest by guest and put back after each re-plan:

- ``add`` and ``remove`` (guests joining and leaving as whole words of fields,
  ``add_fields``) keep the counts (packed, ``COUNT_BITS`` an interest) equal to the group
  counted afresh and to their definitions, in any order.
- ``Planner.value_of`` is ``group_value`` (the bot's estimate of a group) to the last
  bit, with and without one more guest, and so is ``estimate`` of a rival's group.
- ``best_invite`` is the best invitation as the rules list them: every position the
  seat can pay for (``invite.skip_cost``), a guest to each group it may join
  (``groups._places_by_sizes``), a Belle to hand, valued by ``group_value``, the first
  best kept; on the seat's groups in states of real games, under every bent rule, and
  with a position already taken (a second invitation).
- A planner kept from decision to decision, as the bot keeps one a seat (groups
  recounted only when changed, each group's best kept and reused by later searches and
  decisions with equal arguments), finds what a planner made for each search finds.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from belle_of_the_ball_helpers import GREEDY_WEIGHTS, random_play_states
from potluck.games.belle_of_the_ball import groups
from potluck.games.belle_of_the_ball.game import BelleOfTheBall
from potluck.games.belle_of_the_ball.greedy_counts import COUNT_BITS, Terms
from potluck.games.belle_of_the_ball.greedy_plan import (
    SCRATCH,
    Planner,
    Weights,
    estimate,
    group_value,
)
from potluck.games.belle_of_the_ball.state import BELLE_BASE, SLOTS, BelleState

G = BelleOfTheBall()
WIDTH = len(G.interest_names)
#: The most guests a group may hold in the planner (the rules allow five).
MOST_GUESTS = (1 << COUNT_BITS) - 1
_GUESTS = st.sampled_from(G.guest_interests)
#: Skips free, the full size, every interest scoring, a fifth group: the rules as bent.
_BENT_RULES = st.tuples(st.booleans(), st.sampled_from((4, 5)), st.booleans(), st.booleans())


def _counted_afresh(group: list[tuple[int, ...]]) -> Planner:
    planner = Planner(Weights())
    for shown in group:
        planner.add(0, shown)
    return planner


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.booleans(), _GUESTS), max_size=30), st.integers(0, SCRATCH))
def test_adding_and_removing_guests_keeps_the_counts_of_the_group(
    moves: list[tuple[bool, tuple[int, ...]]], slot: int
) -> None:
    planner = Planner(Weights())
    group: list[tuple[int, ...]] = []
    for joins, shown in moves:
        if (joins or not group) and len(group) < MOST_GUESTS:
            planner.add(slot, shown)
            group.append(shown)
        else:
            leaving = group.pop(len(group) // 2)
            planner.remove(slot, leaving)
        fresh = _counted_afresh(group)
        for interest in range(WIDTH):
            shown_by = sum(1 for guest in group if interest in guest)
            assert planner.count(slot, interest) == shown_by == fresh.count(0, interest)
        counted, afresh = planner.groups[slot], fresh.groups[0]
        for field in ("packed", "size", "shown", "matched", "spread", "once", "shared"):
            assert getattr(counted, field) == getattr(afresh, field)
        # ``once`` and ``shared``: the interests shown by one guest, by two or more, each
        # at its count's lowest bit; ``matched``, ``spread`` and ``shown`` as defined.
        counts = [sum(1 for guest in group if interest in guest) for interest in range(WIDTH)]
        for interest, shown_by in enumerate(counts):
            assert counted.once >> COUNT_BITS * interest & 1 == (shown_by == 1)
            assert counted.shared >> COUNT_BITS * interest & 1 == (shown_by >= 2)
        assert counted.once & ~sum(1 << COUNT_BITS * i for i in range(WIDTH)) == 0
        assert counted.shared & ~sum(1 << COUNT_BITS * i for i in range(WIDTH)) == 0
        assert counted.matched == sum(c for c in counts if c >= 2)
        assert counted.spread == sum(2 if c == 1 else 1 for c in counts if c)
        assert counted.shown == sum(counts)
        assert counted.size == len(group)
        for other in range(SCRATCH + 1):
            if other != slot:
                assert planner.groups[other].packed == planner.groups[other].size == 0
    planner.clear(slot)
    cleared = planner.groups[slot]
    assert cleared.packed == cleared.size == cleared.shown == cleared.once == cleared.shared == 0


@settings(max_examples=400, deadline=None)
@given(
    group=st.lists(_GUESTS, max_size=5),
    guest=_GUESTS,
    future=st.integers(0, 12),
    full=st.sampled_from((4, 5)),
    singles=st.booleans(),
    weights=GREEDY_WEIGHTS,
)
def test_planner_values_are_the_group_value(
    group: list[tuple[int, ...]],
    guest: tuple[int, ...],
    future: int,
    full: int,
    singles: bool,
    weights: Weights,
) -> None:
    planner = Planner(weights)
    planner.future = future
    for shown in group:
        planner.add(2, shown)
    expected = group_value(group, future, full, singles, weights)
    assert planner.value_of(2, full, singles) == expected
    counted = planner.groups[2]
    assert expected == estimate(
        counted.size,
        counted.matched,
        counted.spread,
        counted.shown,
        future,
        full,
        singles,
        weights.interest_share,
        weights.need_cost,
    )
    planner.add(2, guest)
    with_guest = group_value([*group, guest], future, full, singles, weights)
    assert planner.value_of(2, full, singles) == with_guest


def _reference_best(
    weights: Weights,
    future: int,
    line: list[int],
    line_chips: list[int],
    chips: int,
    rules: tuple[bool, int, bool, bool],
    party: list[list[tuple[int, ...]]],
) -> tuple[float, int, int]:
    """The best invitation as the rules list them, each valued by ``group_value``."""
    free, full, singles, fifth = rules
    sizes = tuple(len(g) for g in party)
    places = groups._places_by_sizes(sizes, fifth)  # type: ignore[arg-type]
    best = (-1e9, -1, -1)
    for pos, card in enumerate(line):
        cost = 0 if free else pos  # ``invite.skip_cost``
        if cost > chips:
            break
        gain = weights.chip_value * (line_chips[pos] - cost)
        if card >= BELLE_BASE:
            if gain + weights.belle_value > best[0]:
                best = (gain + weights.belle_value, pos, -1)
            continue
        for slot in range(SLOTS):
            if places >> slot & 1:
                group = party[slot]
                after = group_value(
                    [*group, G.guest_interests[card]], future, full, singles, weights
                )
                value = gain + after - group_value(group, future, full, singles, weights)
                if value > best[0]:
                    best = (value, pos, slot)
    return best


def _count_seat(planner: Planner, state: BelleState) -> tuple[list[list[tuple[int, ...]]], int]:
    """The groups of the seat to act in ``state`` (by guest, its interests), counted afresh
    in ``planner`` for a new decision, and the invitations it expects after this one (set
    as the planner's ``future``)."""
    seat = state.turn
    party = [
        [G.guest_interests[g] for g in state.parties[seat * SLOTS + slot]] for slot in range(SLOTS)
    ]
    planner.forget()
    for slot in range(SLOTS):
        planner.clear(slot)
        for shown in party[slot]:
            planner.add(slot, shown)
    future = planner.future = state.round % 7
    return party, future


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    variant=st.booleans(),
    weights=GREEDY_WEIGHTS,
    rules=_BENT_RULES,
    taken=st.integers(-1, 14),
    moves=st.lists(st.tuples(st.integers(0, SLOTS - 1), st.integers(0, SLOTS - 1)), max_size=2),
)
def test_best_invite_is_the_best_invitation_the_rules_allow(
    seed: int,
    variant: bool,
    weights: Weights,
    rules: tuple[bool, int, bool, bool],
    taken: int,
    moves: list[tuple[int, int]],
) -> None:
    """Also after guests move or swap between groups and back, and with Gwendolyn's
    fifth group open or not, searching again with the same line: what the first search
    kept is reused only for the groups left as they were."""
    free, full, singles, fifth = rules
    planner = Planner(weights)
    planner.use_guests(G)
    for state in random_play_states(G, seed, variant)[::7]:
        seat = state.turn
        party, future = _count_seat(planner, state)
        line, line_chips = list(state.line), list(state.line_chips)
        skip = taken if taken < len(line) else -1
        chips = state.chips[seat]
        cards, chips_on = tuple(line), tuple(line_chips)
        if skip >= 0:
            del line[skip], line_chips[skip]
        # Each step moves the last guest of one group to another, or swaps the last
        # guests of two (the sizes stay, the counts change); then all is put back.
        steps = [(-1, -1), *moves, (-1, -1), *[(b, a) for a, b in reversed(moves)]]
        for source, dest in steps:
            swap = source > dest
            if source >= 0 and party[source] and source != dest and (party[dest] or not swap):
                moved = party[source].pop()
                planner.remove(source, moved)
                if swap:
                    back = party[dest].pop()
                    planner.remove(dest, back)
                    party[source].append(back)
                    planner.add(source, back)
                party[dest].append(moved)
                planner.add(dest, moved)
            for opened in (fifth, not fifth):
                terms = Terms(cards, chips_on, chips, free, full, singles, opened)
                value = planner.best_invite(terms, skip)
                ruled = (free, full, singles, opened)
                expected = _reference_best(weights, future, line, line_chips, chips, ruled, party)
                assert (value, planner.best_pos, planner.best_slot) == expected


def _fresh_best(
    weights: Weights,
    future: int,
    party: list[tuple[int, ...]],
    line: tuple[int, ...],
    line_chips: tuple[int, ...],
    chips: int,
    rules: tuple[bool, int, bool, bool],
) -> tuple[float, int, int]:
    """``best_invite`` of a planner made for this one search."""
    free, full, singles, fifth = rules
    planner = Planner(weights)
    planner.use_guests(G)
    for slot in range(SLOTS):
        planner.load(slot, party[slot])
    planner.future = future
    value = planner.best_invite(Terms(line, line_chips, chips, free, full, singles, fifth))
    return value, planner.best_pos, planner.best_slot


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    variant=st.booleans(),
    weights=GREEDY_WEIGHTS,
    bent=_BENT_RULES,
    mover=st.integers(0, SLOTS - 1),
)
def test_a_planner_kept_from_decision_to_decision_finds_what_a_fresh_one_finds(
    seed: int,
    variant: bool,
    weights: Weights,
    bent: tuple[bool, int, bool, bool],
    mover: int,
) -> None:
    """The bot keeps one planner a seat for the whole game (``GreedyBot``): groups
    recounted only when their guests changed, each group's best kept for two of its
    counts and reused by a later search, or a later decision, with the same arguments
    (equal values, not the same objects). In every state of a random game, for the seat
    to act: a search under the rules as they are, one under a bent rule, one with the
    last guest of a group moved to the next group, and the first again, each equal to
    the search of a planner made for it alone."""
    planners = [Planner(weights) for _ in range(4)]
    for planner in planners:
        planner.use_guests(G)
    plain = (False, 5, False, False)
    for state in random_play_states(G, seed, variant):
        seat = state.turn
        planner = planners[seat]
        planner.forget()
        party = [tuple(state.parties[seat * SLOTS + slot]) for slot in range(SLOTS)]
        for slot in range(SLOTS):
            planner.load(slot, party[slot])
        future = len(state.line) // 4 + state.round % 3
        planner.future = future
        chips = state.chips[seat]
        dest = (mover + 1) % SLOTS
        moved = list(party)
        if party[mover] and party[dest] and len(party[dest]) < 5:
            moved[mover], moved[dest] = party[mover][:-1], (*party[dest], party[mover][-1])
        for rules, searched in ((plain, party), (bent, party), (plain, moved), (plain, party)):
            # New tuples each search: the bot's input is rebuilt every decision.
            line, line_chips = tuple(state.line), tuple(state.line_chips)
            shifted = searched is moved and moved != party
            if shifted:
                guest = G.guest_interests[party[mover][-1]]
                planner.remove(mover, guest)
                planner.add(dest, guest)
            free, full, singles, fifth = rules
            value = planner.best_invite(Terms(line, line_chips, chips, free, full, singles, fifth))
            found = (value, planner.best_pos, planner.best_slot)
            if shifted:
                planner.remove(dest, guest)
                planner.add(mover, guest)
            assert found == _fresh_best(weights, future, searched, line, line_chips, chips, rules)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    variant=st.booleans(),
    steps=st.lists(
        st.tuples(st.integers(-1, 14), st.integers(-1, SLOTS - 1), _GUESTS), min_size=2, max_size=6
    ),
    weights=GREEDY_WEIGHTS,
    rules=_BENT_RULES,
)
def test_one_terms_searched_with_other_skips_in_turn_finds_each_best(
    seed: int,
    variant: bool,
    weights: Weights,
    rules: tuple[bool, int, bool, bool],
    steps: list[tuple[int, int, tuple[int, ...]]],
) -> None:
    """The same ``Terms`` searched with one position taken, then another (or none), in
    turn, a guest sometimes joining a group for the search and leaving after (the kept
    bests of a group changed are searched again on the kept terms, after the line was
    read for another skip): each search the best invitation the rules allow with that
    position gone (the planner asks ``LineScan.read`` again for another skip)."""
    planner = Planner(weights)
    planner.use_guests(G)
    for state in random_play_states(G, seed, variant)[::5]:
        seat = state.turn
        party, future = _count_seat(planner, state)
        chips = state.chips[seat]
        terms = Terms(tuple(state.line), tuple(state.line_chips), chips, *rules)
        for taken, joined, guest in steps:
            skip = taken if taken < len(state.line) else -1
            line, line_chips = list(state.line), list(state.line_chips)
            if skip >= 0:
                del line[skip], line_chips[skip]
            joins = joined >= 0 and 0 < len(party[joined]) < 4
            if joins:
                party[joined].append(guest)
                planner.add(joined, guest)
            value = planner.best_invite(terms, skip)
            expected = _reference_best(weights, future, line, line_chips, chips, rules, party)
            assert (value, planner.best_pos, planner.best_slot) == expected
            if joins:
                party[joined].pop()
                planner.remove(joined, guest)
