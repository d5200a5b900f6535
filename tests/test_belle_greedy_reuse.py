"""Work Belle of the Ball's greedy bot reuses between decisions (issue 36), held to the
work done afresh:

- A seat's party as ``Planner.load_party`` leaves it counted (counted on from the
  guests counted last when the same list grew, counted again when it is another list or
  shorter): the counts of the party counted afresh, over random growths, shrinks, lists
  replaced and slots cleared.

- Scandalous Scarlett's loss of a rival's group, kept per party while it holds the same
  guests (``GreedyBot._kept_scandal_loss``): the loss worked out afresh.

- A Belle's re-plan, recorded (``Planner.trying``) and kept as the hint for the next
  decision (``Planner.keep_trial``), and the kept group bests a later search reuses when
  only the full size or Romantic Rosalind's rule differs: a planner kept through
  decisions that record, keep and search on random terms finds what a planner made for
  each search finds.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from belle_of_the_ball_helpers import GREEDY_WEIGHTS, random_play_states
from potluck.games.belle_of_the_ball.bots import GreedyBot
from potluck.games.belle_of_the_ball.game import BelleOfTheBall
from potluck.games.belle_of_the_ball.greedy_counts import Terms
from potluck.games.belle_of_the_ball.greedy_plan import DEFAULT_WEIGHTS, Planner, Weights
from potluck.games.belle_of_the_ball.state import SLOTS

G = BelleOfTheBall()


def _fresh(planner: Planner, weights: Weights, terms: Terms) -> tuple[float, int, int]:
    """``best_invite`` on ``terms`` of a planner made for this search, with the groups
    ``planner`` holds."""
    fresh = Planner(weights)
    fresh.use_guests(G)
    for slot in range(SLOTS):
        source, target = planner.groups[slot], fresh.groups[slot]
        for name in ("size", "shown", "matched", "spread", "packed", "once", "shared"):
            setattr(target, name, getattr(source, name))
    fresh.future = planner.future
    value = fresh.best_invite(terms)
    return value, fresh.best_pos, fresh.best_slot


_BENT = st.tuples(st.booleans(), st.sampled_from((4, 5)), st.booleans(), st.booleans())


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    variant=st.booleans(),
    weights=GREEDY_WEIGHTS,
    plays=st.lists(
        st.tuples(_BENT, st.integers(0, 3), st.integers(0, 2), st.booleans()), min_size=3
    ),
)
def test_reused_bests_are_what_a_fresh_planner_finds(
    seed: int,
    variant: bool,
    weights: Weights,
    plays: list[tuple[tuple[bool, int, bool, bool], int, int, bool]],
) -> None:
    """Each decision of the seat to act: a search on the rules as they are, then re-plans
    under bent rules (some recorded and kept as the hint, as the bot does for the Belle
    it rates best), then, as the next decision, a search on the terms of the last kept
    (the Belle played) or on the same line scored otherwise; every search equal to a
    fresh planner's."""
    planners = [Planner(weights) for _ in range(4)]
    for planner in planners:
        planner.use_guests(G)
    for number, state in enumerate(random_play_states(G, seed, variant)):
        seat = state.turn
        planner = planners[seat]
        party = [tuple(state.parties[seat * SLOTS + slot]) for slot in range(SLOTS)]
        for slot in range(SLOTS):
            planner.load(slot, party[slot])
        planner.future = len(state.line) // 4 + state.round % 3
        chips = state.chips[seat]
        line, line_chips = tuple(state.line), tuple(state.line_chips)
        played: Terms | None = None
        for decision in range(2):
            planner.forget()
            plain = played or Terms(line, line_chips, chips)
            if number % 3 == 2:  # the hint's line, but scored otherwise: not to be taken
                plain = Terms(plain.line, plain.line_chips, plain.chips, plain.free, 4, True)
            value = planner.best_invite(plain)
            assert (value, planner.best_pos, planner.best_slot) == _fresh(planner, weights, plain)
            bents = plays[(number + decision) % len(plays) :][:3]
            for (free, full, singles, fifth), more_chips, shift, record in bents:
                cards, chips_on = (
                    line[shift:] + line[:shift],
                    line_chips[shift:] + line_chips[:shift],
                )
                bent = Terms(cards, chips_on, chips + more_chips, free, full, singles, fifth)
                planner.trial_terms = None
                planner.trying = record
                value = planner.best_invite(bent)
                found = (value, planner.best_pos, planner.best_slot)
                assert found == _fresh(planner, weights, bent)
                if record:
                    planner.keep_trial()
                    played = bent


@settings(max_examples=100, deadline=None)
@given(
    parties=st.lists(
        st.tuples(
            st.integers(0, 19),
            st.lists(st.integers(0, len(G.guest_names) - 1), max_size=5),
            st.booleans(),
        ),
        min_size=1,
        max_size=30,
    )
)
def test_a_kept_scandal_loss_is_the_loss_worked_out_afresh(
    parties: list[tuple[int, list[int], bool]],
) -> None:
    """Parties asked in any order, again and changed: a party's list grown in place (as
    the rules grow one) or a new list (equal guests in a new list too), and asked again
    at a size it had before."""
    kept, fresh = GreedyBot(), GreedyBot()
    for bot in (kept, fresh):
        bot.choose(
            G,
            G.bot_view(G.new_game(4, seed=1), 0),
            0,
            G.legal_actions(G.new_game(4, seed=1), 0),
            random.Random(0),
        )
    lists: dict[int, list[int]] = {}
    for party, guests, grow in parties:
        group = lists.get(party)
        if grow and group is not None and len(group) + len(guests) <= 7:
            group.extend(guests)
        else:
            group = lists[party] = list(guests)
        for size in (len(group), len(group), len(group) - len(guests), len(group)):
            loss = fresh._planner.rival_loss(group[:size], size)
            assert kept._kept_scandal_loss(group, size, party) == loss


_COUNTED = ("size", "shown", "matched", "spread", "packed", "once", "shared")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=5),
            st.integers(min_value=0, max_value=SLOTS - 1),
            st.integers(min_value=0, max_value=len(G.guest_slugs) - 1),
        ),
        min_size=1,
        max_size=60,
    )
)
def test_a_grown_party_counted_again_is_counted_afresh(
    moves: list[tuple[int, int, int]],
) -> None:
    """``load_party`` after each move (0 a guest joins a party's list, 1 its list
    replaced by a copy one guest shorter, 2 an empty new list, 3 the slot cleared, 4 the
    same list loaded as it was, 5 its last guest taken off the same list): its counts
    are those of a planner loading every guest."""
    planner = Planner(DEFAULT_WEIGHTS)
    planner.use_guests(G)
    parties: list[list[int]] = [[] for _ in range(SLOTS)]
    for kind, slot, guest in moves:
        party = parties[slot]
        if kind == 0 and len(party) < 7:
            party.append(guest)
        elif kind == 1:
            parties[slot] = party[:-1]
        elif kind == 2:
            parties[slot] = []
        elif kind == 3:
            planner.clear(slot)
        elif kind == 5 and party:  # (no rule shrinks a list in place: counted afresh)
            party.pop()
        for each in range(SLOTS):
            planner.load_party(each, parties[each], len(parties[each]))
        fresh = Planner(DEFAULT_WEIGHTS)
        fresh.use_guests(G)
        for each in range(SLOTS):
            fresh.load(each, tuple(parties[each]))
            for name in _COUNTED:
                assert getattr(planner.groups[each], name) == getattr(fresh.groups[each], name)
