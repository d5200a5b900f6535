"""Belle of the Ball's hot paths (issue 36) against the rules they stand for.

- ``scoring.score_group`` counts shared interests with bit sets: held equal to counting
  every interest shown (the rule as the rulebook states it, ruling BB-1).
- ``groups.place_mask`` (the legal list's look-up, cached by the sizes of the groups)
  against ``groups._places_by_sizes`` (the rule) for every shape of a party, and
  ``groups.may_join`` against ``placeable``.
- ``tables.EFFECT_CODES``, the one table of Belle effects as ints, covers the schema's.
- The legal list (invitations and Belle plays, from precomputed rows and lists) against
  the rule with its reasons (``Game.explain``) over every action, in random games of the
  base game and the variant.
- ``invite.paid_reach`` (the prefix of the line a seat can pay for, read once) against
  counting it with ``skip_cost`` position by position.
- ``Game.bot_view``'s parties (the state's lists, read live: ``SeatInfo.parties``,
  ``party``, ``party_size``) against ``tuple(tuple(g) for g in state.parties)`` as the
  parties stand, through random changes of the parties as the rules make them, clones
  included; and the rules' side of what the greedy bot's planner relies on, that a
  party's list only grows in place, over every step of random games.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from potluck.games.belle_of_the_ball import groups
from potluck.games.belle_of_the_ball.actions import PLAY
from potluck.games.belle_of_the_ball.game import BelleOfTheBall
from potluck.games.belle_of_the_ball.invite import paid_reach, skip_cost
from potluck.games.belle_of_the_ball.scoring import score_group
from potluck.games.belle_of_the_ball.seat_info import SeatInfo
from potluck.games.belle_of_the_ball.state import FREE_SKIPS, FULL, SLOTS, BelleState

G = BelleOfTheBall()


def _counted(interests: list[list[int]], singles: bool) -> int:
    counts: dict[int, int] = {}
    for shown in interests:
        for interest in shown:
            counts[interest] = counts.get(interest, 0) + 1
    least = 1 if singles else 2
    return sum(c for c in counts.values() if c >= least)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.lists(st.integers(min_value=0, max_value=19), max_size=6), max_size=6),
    st.booleans(),
)
def test_score_group_counts_every_shared_interest(
    interests: list[list[int]], singles: bool
) -> None:
    assert score_group(interests, singles) == _counted(interests, singles)


def test_place_mask_is_the_rule_for_every_shape() -> None:
    for sizes in itertools.product(range(FULL + 1), repeat=SLOTS):
        parties = [[7] * size for size in sizes]
        for fifth in (False, True):
            rule = groups._places_by_sizes(sizes, fifth)  # type: ignore[arg-type]
            assert groups.place_mask(parties, 0, fifth) == rule
            slots = tuple(s for s in range(SLOTS) if rule >> s & 1)
            assert groups.places_for(parties, 0, fifth) == slots
            for slot in range(SLOTS):
                assert groups.may_join(parties, 0, slot, fifth) == (slot in slots)


@pytest.mark.parametrize(("players", "variant"), [(2, False), (4, False), (3, True), (5, True)])
def test_legal_list_is_every_action_the_rule_allows(players: int, variant: bool) -> None:
    options = {"belles_in_guest_deck": variant}
    for seed in range(4):
        for state in _positions(players, seed, options):
            assert state.variant is variant
            seat = state.acting[0]
            allowed = [a for a in G.all_actions if G.explain(state, seat, a) is None]
            legal = G.legal_actions(state, seat)
            assert sorted(a.index for a in legal) == [a.index for a in allowed]
            assert len(set(legal)) == len(legal)
            for other in range(players):
                if other != seat:
                    assert G.legal_actions(state, other) == []


def _positions(players: int, seed: int, options: dict[str, bool]) -> list[BelleState]:
    """Copies of every third position of one random game."""
    rng = random.Random(seed)
    state = G.new_game(players, seed, options)
    states: list[BelleState] = []
    while state.acting:
        if len(state.history) % 3 == 0:
            states.append(state.clone())
        seat = state.acting[0]
        legal = G.legal_actions(state, seat)
        G.step(state, seat, legal[int(rng.random() * len(legal))])
    return states


def test_every_belle_effect_has_one_code_in_the_one_table() -> None:
    """``tables.EFFECT_CODES`` names each effect of the schema once, with its own code;
    the rules and the greedy bot read a Belle's effect by it (``belle_effect_codes``)."""
    from potluck.games.belle_of_the_ball.schema import EFFECTS
    from potluck.games.belle_of_the_ball.tables import EFFECT_CODES

    assert sorted(EFFECT_CODES) == sorted(EFFECTS)
    assert sorted(EFFECT_CODES.values()) == list(range(len(EFFECTS)))
    assert G.belle_effect_codes == tuple(EFFECT_CODES[e] for e in G.belle_effects)


@settings(max_examples=300, deadline=None)
@given(
    st.integers(min_value=0, max_value=15),
    st.integers(min_value=-3, max_value=20),
    st.booleans(),
    st.integers(min_value=2, max_value=5),
)
def test_paid_reach_is_the_prefix_skip_cost_allows(
    line: int, chips: int, free: bool, players: int
) -> None:
    state = G.new_game(players, seed=103000)
    state.line = [0] * line
    state.line_chips = [0] * line
    state.effects = FREE_SKIPS if free else 0
    seat = players - 1
    state.chips[seat] = chips
    reach = len(state.line)
    while reach and skip_cost(state, reach - 1) > state.chips[seat]:
        reach -= 1
    assert paid_reach(state, seat) == reach


#: A change of one party as the rules make them (``BelleState.parties``: a list only
#: grows in place): ``(kind, party, guest)``; kinds: 0 a guest joins, 1 the last guest
#: leaves (a new list), 2 emptied (a new list, as scoring leaves it), 3 the last guest
#: leaves and another joins the new list (as long as before, other guests), 4 build a
#: seat's ``bot_view`` and read it at once, 5 carry on in a clone.
_CHANGES = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=5),
        st.integers(min_value=0, max_value=4 * SLOTS - 1),
        st.integers(min_value=0, max_value=40),
    ),
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(_CHANGES)
def test_bot_view_parties_are_the_parties_as_they_stand(
    changes: list[tuple[int, int, int]],
) -> None:
    """A ``SeatInfo`` is valid until the state changes: read before the next change, its
    parties are the state's as they stand."""
    state = G.new_game(4, seed=103001)

    def rule() -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(group) for group in state.parties)

    for kind, party, guest in changes:
        group = state.parties[party]
        if kind == 0 and len(group) < FULL:
            group.append(guest)
        elif kind == 1 and group:
            state.parties[party] = group[:-1]
        elif kind == 2:
            state.parties[party] = []
        elif kind == 3 and group:
            state.parties[party] = group[:-1]
            state.parties[party].append(guest)
        elif kind == 4:
            info = G.bot_view(state, party % 4)
            stood = rule()
            assert info.party(party) == stood[party]
            assert info.party_size(party) == len(stood[party])
            assert info.parties == stood
        elif kind == 5:
            state = state.clone()
    info = G.bot_view(state, 0)
    assert info.parties == rule()
    assert info == SeatInfo.from_view(G, G.view(state, 0), 0)


@pytest.mark.parametrize(("players", "variant"), [(2, True), (3, False), (4, False), (5, True)])
def test_the_rules_only_grow_a_party_list_in_place(players: int, variant: bool) -> None:
    """The contract the greedy bot's planner relies on, over every step of random games (every
    Belle played in them included): a party's list that is the same object after a
    step holds the guests it held before, and maybe more after them; and ``bot_view``
    shows every party as it stands."""
    rng = random.Random(103002 + players)
    plays = 0
    for seed in range(103010, 103016):
        state = G.new_game(players, seed, {"belles_in_guest_deck": variant})
        while state.acting:
            seat = state.acting[0]
            before = [(group, tuple(group)) for group in state.parties]
            info = G.bot_view(state, rng.randrange(players))
            assert info.parties == tuple(tuple(group) for group in state.parties)
            action = rng.choice(G.legal_actions(state, seat))
            plays += action.kind == PLAY
            G.step(state, seat, action)
            for (old, guests), group in zip(before, state.parties, strict=True):
                if group is old:
                    assert tuple(group[: len(guests)]) == guests
    assert plays > 0
