"""Belle of the Ball's greedy group search over the line read once (``greedy_scan``,
issue 36) against the rule it stands for:

- ``LineScan.read``'s best Belle to take to hand is the best by the chips she collects
  less those left on skipped cards plus the Belle's worth (the same float, the first
  position), over the same random lines.
- ``LineScan.best`` after ``LineScan.read`` is the best guest for a group by
  ``group_value`` (the chips the invitation collects less those it leaves on skipped
  cards, plus the group's value with the guest less without): the same float to the last
  bit and the same first position, over random groups, lines (Belles among them), chips
  on them and the seat's, skips, bent rules (free skips, full at 4 or 5, singles) and
  weights.
- Terms alike by ``Terms.same_line`` with the seat's chips other (skips free, or
  chips enough on both to pass every card) reach the same cards by the rule and read
  the same.
- A read kept for the searches after it (the same terms and skip: ``read`` does nothing)
  finds what a fresh read finds, after reads of other lines, longer and shorter.
- A group kept through guests joining and leaving and searched again and again (its
  worth with each guest kept per guest while its counts, full size and weights are the
  same: ``GroupCounts.afters``) finds, every time, the best by ``group_value``, over
  random lines, skips, bent rules, weights and invitations left.
- ``counting_magic``'s one multiplication counts the interests of any part of a guest's
  fields, over random tables, and it refuses tables where that does not hold (more
  interests than it allows, a guest showing eight or more, a bit off an interest's).
- Without ``librt`` (a fresh ``make play`` installs no mypy, which brings it) the pure
  Python rules fall back to lists and play the same games.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from belle_of_the_ball_helpers import GREEDY_WEIGHTS
from potluck.games.belle_of_the_ball.game import BelleOfTheBall
from potluck.games.belle_of_the_ball.greedy_counts import GroupCounts, Terms
from potluck.games.belle_of_the_ball.greedy_plan import Planner, Weights, group_value
from potluck.games.belle_of_the_ball.greedy_scan import LineScan, counting_magic
from potluck.games.belle_of_the_ball.invite import skip_cost
from potluck.games.belle_of_the_ball.state import BELLE_BASE, FREE_SKIPS

G = BelleOfTheBall()
#: A state whose bent rules ``_skip_cost`` sets, to ask the rule itself.
_STATE = G.new_game(2, seed=0)
_GUEST_COUNT = len(G.guest_interests)
#: A card of the line: a guest (by index) or, one time in five, a Belle.
_CARDS = st.one_of(
    st.integers(0, _GUEST_COUNT - 1),
    st.integers(0, _GUEST_COUNT - 1),
    st.integers(0, _GUEST_COUNT - 1),
    st.integers(0, _GUEST_COUNT - 1),
    st.integers(BELLE_BASE, BELLE_BASE + 5),
)
_LINES = st.lists(st.tuples(_CARDS, st.integers(0, 6)), max_size=14)
_GROUPS = st.lists(st.sampled_from(G.guest_interests), max_size=4)
_RULES = st.tuples(st.booleans(), st.sampled_from((4, 5)), st.booleans())


def _reachable(
    line: tuple[int, ...], line_chips: tuple[int, ...], chips: int, free: bool, skip: int
) -> list[tuple[int, int, int, int]]:
    """The cards the seat can pay to reach as the rules list the invitations (the card
    at ``skip`` gone): position, card, chips on it and the skip's cost
    (``invite.skip_cost``)."""
    cards = [
        (card, on)
        for index, (card, on) in enumerate(zip(line, line_chips, strict=True))
        if index != skip
    ]
    reached = []
    _STATE.effects = FREE_SKIPS if free else 0
    for pos, (card, on_card) in enumerate(cards):
        cost = skip_cost(_STATE, pos)
        if cost > chips:
            break
        reached.append((pos, card, on_card, cost))
    return reached


def _reference(
    group: list[tuple[int, ...]],
    line: tuple[int, ...],
    line_chips: tuple[int, ...],
    chips: int,
    skip: int,
    rules: tuple[bool, int, bool],
    future: int,
    weights: Weights,
) -> tuple[float, int]:
    """The best guest for ``group`` as the rules list the invitations, by ``group_value``:
    its value and first position (-1e9 and -1 if none)."""
    free, full, singles = rules
    before = group_value(group, future, full, singles, weights)
    best = (-1e9, -1)
    for pos, card, on_card, cost in _reachable(line, line_chips, chips, free, skip):
        if card >= BELLE_BASE:
            continue
        after = group_value([*group, G.guest_interests[card]], future, full, singles, weights)
        value = weights.chip_value * (on_card - cost) + after - before
        if value > best[0]:
            best = (value, pos)
    return best


def _counted(group: list[tuple[int, ...]]) -> GroupCounts:
    planner = Planner(Weights())
    for shown in group:
        planner.add(0, shown)
    return planner.groups[0]


def _found(
    scan: LineScan, group: list[tuple[int, ...]], terms: Terms, future: int, weights: Weights
) -> tuple[str, int]:
    """``best`` of ``group`` on what ``scan`` read: the value as its exact bits, and the
    position."""
    scan.best(_counted(group), terms, future, weights.interest_share, weights.need_cost)
    return scan.found_value.hex(), scan.found_pos


def _scan() -> LineScan:
    """A scan with the game's guests' tables (``use_guests``), nothing read yet."""
    scan = LineScan()
    scan.use_guests(G.guest_interest_fields, G.guest_interest_counts)
    return scan


def _read(scan: LineScan, terms: Terms, skip: int, weights: Weights) -> None:
    scan.read(terms, skip, weights.chip_value, weights.belle_value)


def _belles_reference(
    line: tuple[int, ...],
    line_chips: tuple[int, ...],
    chips: int,
    free: bool,
    skip: int,
    weights: Weights,
) -> tuple[float, int]:
    """The best Belle to take to hand as the rules list the invitations: the chips she
    collects less those left on skipped cards (``invite.skip_cost``), plus ``belle_value``,
    and her first position with it (-1e9 and -1 if none)."""
    best = (-1e9, -1)
    for pos, card, on_card, cost in _reachable(line, line_chips, chips, free, skip):
        if card >= BELLE_BASE:
            value = weights.chip_value * (on_card - cost) + weights.belle_value
            if value > best[0]:
                best = (value, pos)
    return best


@settings(max_examples=400, deadline=None)
@given(
    group=_GROUPS,
    cards=_LINES,
    chips=st.integers(0, 12),
    skip=st.integers(-1, 14),
    rules=_RULES,
    future=st.integers(0, 12),
    weights=GREEDY_WEIGHTS,
    bit_by_bit=st.booleans(),
)
def test_the_best_guest_read_is_the_best_by_group_value(
    group: list[tuple[int, ...]],
    cards: list[tuple[int, int]],
    chips: int,
    skip: int,
    rules: tuple[bool, int, bool],
    future: int,
    weights: Weights,
    bit_by_bit: bool,
) -> None:
    """Also with the interests counted bit by bit (``bit_by_bit``: the way for tables
    whose guests ``counting_magic`` refuses)."""
    line = tuple(card for card, _ in cards)
    line_chips = tuple(on for _, on in cards)
    skip = skip if skip < len(line) else -1
    free, full, singles = rules
    terms = Terms(line, line_chips, chips, free, full, singles)
    scan = _scan()
    if bit_by_bit:
        scan.count_magic = 0
    _read(scan, terms, skip, weights)
    value, pos = _reference(group, line, line_chips, chips, skip, rules, future, weights)
    assert _found(scan, group, terms, future, weights) == (value.hex(), pos)
    value, pos = _belles_reference(line, line_chips, chips, free, skip, weights)
    assert (scan.belles_value.hex(), scan.belles_pos) == (value.hex(), pos)


@settings(max_examples=150, deadline=None)
@given(
    lines=st.lists(
        st.tuples(_LINES, st.integers(0, 12), st.integers(-1, 14), _RULES), min_size=1, max_size=4
    ),
    searches=st.lists(
        st.tuples(st.integers(0, 3), st.integers(-1, 14), _GROUPS, st.integers(0, 12)),
        min_size=1,
        max_size=12,
    ),
    weights=GREEDY_WEIGHTS,
)
def test_a_read_kept_across_searches_finds_what_a_fresh_read_finds(
    lines: list[tuple[list[tuple[int, int]], int, int, tuple[bool, int, bool]]],
    searches: list[tuple[int, int, list[tuple[int, ...]], int]],
    weights: Weights,
) -> None:
    """One scan searched on random terms in turn (as a planner keeps it: read again only
    for other terms or another skip; the same terms twice in a row read once, another
    line in between read again over the items of a longer or shorter one), each search
    equal to that of a scan made for it."""
    terms_made = [
        Terms(tuple(c for c, _ in cards), tuple(on for _, on in cards), chips, *rules)
        for cards, chips, _, rules in lines
    ]
    kept = _scan()
    for which, skip, group, future in searches:
        terms = terms_made[which % len(terms_made)]
        skip = skip if skip < len(terms.line) else -1
        again = kept.terms is terms and kept.skip == skip
        count = kept.count
        _read(kept, terms, skip, weights)
        if again:
            assert kept.count == count  # (nothing read)
        fresh = _scan()
        _read(fresh, terms, skip, weights)
        assert kept.count == fresh.count
        assert _found(kept, group, terms, future, weights) == _found(
            fresh, group, terms, future, weights
        )


@settings(max_examples=300, deadline=None)
@given(
    cards=_LINES,
    chips=st.tuples(st.integers(0, 15), st.integers(0, 15)),
    skip=st.integers(-1, 14),
    rules=_RULES,
    group=_GROUPS,
    weights=GREEDY_WEIGHTS,
)
def test_terms_alike_by_same_line_reach_the_same_cards_and_find_the_same(
    cards: list[tuple[int, int]],
    chips: tuple[int, int],
    skip: int,
    rules: tuple[bool, int, bool],
    group: list[tuple[int, ...]],
    weights: Weights,
) -> None:
    """Two terms on one line whose seat's chips differ (``Terms.same_line`` calls them
    alike when skips are free or both pay to pass every card): the rule lists the same
    cards within reach for both, and the reads find the same."""
    line = tuple(card for card, _ in cards)
    line_chips = tuple(on for _, on in cards)
    skip = skip if skip < len(line) else -1
    free, full, singles = rules
    one, other = (Terms(line, line_chips, held, free, full, singles) for held in chips)
    if not one.same_line(other):
        return
    assert _reachable(line, line_chips, chips[0], free, skip) == _reachable(
        line, line_chips, chips[1], free, skip
    )
    scans = _scan(), _scan()
    found: list[tuple[object, ...]] = []
    for scan, terms in zip(scans, (one, other), strict=True):
        _read(scan, terms, skip, weights)
        found.append((scan.count, _found(scan, group, terms, 12, weights)))
        found.append((scan.belles_value.hex(), scan.belles_pos))
    assert found[:2] == found[2:]


@settings(max_examples=200, deadline=None)
@given(
    steps=st.lists(
        st.tuples(
            st.sampled_from(("join", "leave", "search", "search")),
            st.sampled_from(G.guest_interests),
            _LINES,
            st.tuples(st.integers(0, 12), st.integers(-1, 14), st.integers(0, 12)),
            _RULES,
            st.integers(0, 1),
        ),
        min_size=1,
        max_size=24,
    ),
    weights=st.lists(GREEDY_WEIGHTS, min_size=2, max_size=2),
)
def test_a_group_kept_through_changes_finds_the_best_by_group_value_every_time(
    steps: list[
        tuple[
            str,
            tuple[int, ...],
            list[tuple[int, int]],
            tuple[int, int, int],
            tuple[bool, int, bool],
            int,
        ]
    ],
    weights: list[Weights],
) -> None:
    """One planner's group, guests joining and leaving it (up to four: the line's guest
    makes five), searched on random terms between: each search's value (to the last bit)
    and first position are the rule's (``_reference``), whatever the group's kept worths
    were worked out for before (other counts, full sizes, weights, lines)."""
    planner = Planner(Weights())
    group: list[tuple[int, ...]] = []
    scan = _scan()
    for action, shown, cards, (chips, skip, future), rules, which in steps:
        if action == "join" and len(group) < 4:
            planner.add(0, shown)
            group.append(shown)
        elif action == "leave" and group:
            planner.remove(0, group.pop())
        else:
            line = tuple(card for card, _ in cards)
            line_chips = tuple(on for _, on in cards)
            skip = skip if skip < len(line) else -1
            free, full, singles = rules
            terms = Terms(line, line_chips, chips, free, full, singles)
            used = weights[which]
            _read(scan, terms, skip, used)
            scan.best(planner.groups[0], terms, future, used.interest_share, used.need_cost)
            value, pos = _reference(group, line, line_chips, chips, skip, rules, future, used)
            assert (scan.found_value.hex(), scan.found_pos) == (value.hex(), pos)


@settings(max_examples=300, deadline=None)
@given(
    guests=st.lists(
        st.lists(st.integers(0, 12), min_size=1, max_size=9, unique=True), min_size=1, max_size=8
    ),
    parts=st.lists(st.integers(0, 2**40), min_size=1, max_size=6),
    stray=st.integers(0, 40),
)
def test_counting_magic_counts_every_part_of_a_guest_or_refuses(
    guests: list[list[int]], parts: list[int], stray: int
) -> None:
    """Random tables (up to 13 interests, guests showing up to nine): where
    ``counting_magic`` gives a magic, every part of every guest's fields is counted right
    by it; it gives none exactly when the tables have more than ten interests or a guest
    showing eight or more, or when a bit lies off an interest's."""
    fields = tuple(sum(1 << 3 * interest for interest in shown) for shown in guests)
    magic, shift = counting_magic(fields)
    interests = 1 + max(max(shown) for shown in guests)
    allowed = interests <= 10 and all(len(shown) <= 7 for shown in guests)
    assert (magic != 0) == allowed
    for guest in fields:
        for part in parts:
            bits = guest & part
            if magic:
                assert (bits * magic >> shift) & 7 == bin(bits).count("1")
                assert bits * magic < 2**63
    if stray % 3:  # (a bit between two interests' places: refused)
        assert counting_magic((*fields, 1 << stray)) == (0, 0)


_PLAY = """
import hashlib, json, sys
sys.modules["librt"] = None  # (as if not installed: its import fails)
sys.modules["librt.vecs"] = None
from potluck import native
from potluck.engine.registry import load_game
from potluck.games.belle_of_the_ball import greedy_scan
from potluck.sim import play_game
assert native.status().build == "pure" and greedy_scan.vec is list
game = load_game("belle-of-the-ball")
h = hashlib.sha256()
for seed in range(133000, 133004):
    r = play_game(game, 4, ["greedy"] * 4, seed, None, keep_record=True)
    h.update(json.dumps([r.record, repr(r.outcome), r.steps], sort_keys=True, default=str).encode())
print(h.hexdigest())
"""


def test_without_librt_pure_python_falls_back_to_lists_and_plays_the_same_games() -> None:
    from potluck.engine.registry import load_game
    from potluck.sim import play_game

    game = load_game("belle-of-the-ball")
    digest = hashlib.sha256()
    for seed in range(133000, 133004):
        r = play_game(game, 4, ["greedy"] * 4, seed, None, keep_record=True)
        digest.update(
            json.dumps([r.record, repr(r.outcome), r.steps], sort_keys=True, default=str).encode()
        )
    source = Path(__file__).resolve().parents[1] / "src"
    env = {**os.environ, "PYTHONPATH": str(source), "POTLUCK_BUILD": "pure"}
    other = subprocess.run(
        [sys.executable, "-c", _PLAY], env=env, capture_output=True, text=True, check=False
    )
    assert other.returncode == 0, other.stderr
    assert other.stdout.strip() == digest.hexdigest()
