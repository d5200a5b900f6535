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
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from potluck.games.belle_of_the_ball import groups
from potluck.games.belle_of_the_ball.game import BelleOfTheBall
from potluck.games.belle_of_the_ball.scoring import score_group
from potluck.games.belle_of_the_ball.state import FULL, SLOTS, BelleState

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
