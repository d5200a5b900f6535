"""``Game.bot_view``'s kept tuples (issue 36): the line, the chips on it, every seat's
chips and the parties' lists are given as the tuples the last
``SeatInfo`` was given (``view._Kept``) when the state's lists hold the same items. Held
here to a ``SeatInfo`` built afresh (``SeatInfo.from_view``, which reads the view) and to
the state's lists, over games played side by side, clones, every seat asked at random
moments and lists changed in place by hand between two asks (what no step records);
and every object built stays what it was when built.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from potluck.games.belle_of_the_ball.game import BelleOfTheBall
from potluck.games.belle_of_the_ball.seat_info import SeatInfo
from potluck.games.belle_of_the_ball.state import BelleState

G = BelleOfTheBall()

#: What to do, as (kind, which, number): 0 take a legal step in game ``which``, 1 nothing,
#: 2 carry on in a clone of it, 3 change one of its lists in place by hand (``_nudge``,
#: ``number`` its kind), 4 start it afresh; then ask ``bot_view`` of seat ``number`` there.
_MOVES = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=4),
        st.integers(min_value=0, max_value=2),
        st.integers(min_value=0, max_value=9),
    ),
    min_size=30,
    max_size=120,
)


def _fields(state: BelleState, seat: int) -> tuple[object, ...]:
    return (
        tuple(state.line),
        tuple(state.line_chips),
        tuple(state.chips),
        tuple(tuple(group) for group in state.parties),
        tuple(state.hands[seat]),
    )


def _nudge(state: BelleState, which: int, rng: random.Random) -> None:
    """Change one of the state's lists the kept tuples stand for, in place and within
    the rules' cards: two cards of the line swapped (``which`` 0), a chip more on a card
    (1) or a seat (2), a party's list replaced by another (3) or a Belle in hand turned
    into another kind (4)."""
    if which == 0 and len(state.line) > 1:
        a, b = rng.randrange(len(state.line)), rng.randrange(len(state.line))
        state.line[a], state.line[b] = state.line[b], state.line[a]
    elif which == 1 and state.line_chips:
        state.line_chips[rng.randrange(len(state.line_chips))] += 1
    elif which == 2:
        state.chips[rng.randrange(len(state.chips))] += 1
    elif which == 3:
        # (its first guest gone, as a guest moved away or a scored group leaves it; an
        # empty one by a new list of one guest)
        held = [party for party, group in enumerate(state.parties) if group]
        party = rng.choice(held) if held else rng.randrange(len(state.parties))
        group = state.parties[party]
        state.parties[party] = group[1:] if group else [0]
    elif which == 4:
        hand = state.hands[rng.randrange(len(state.hands))]
        if hand:
            hand[rng.randrange(len(hand))] = rng.randrange(len(G.belle_slugs))


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=112900, max_value=112999), _MOVES)
def test_kept_tuples_give_the_object_built_afresh(
    seed: int, moves: list[tuple[int, int, int]]
) -> None:
    rng = random.Random(seed)
    players = [2, 4, 5]
    states = [G.new_game(n, seed, {"belles_in_guest_deck": n == 5}) for n in players]
    for state in states:  # (played on a while, so that the parties hold guests)
        for _ in range(rng.randrange(60)):
            if state.acting:
                seat = state.acting[0]
                G.step(state, seat, rng.choice(G.legal_actions(state, seat)))
    built: list[tuple[SeatInfo, SeatInfo, tuple[object, ...]]] = []
    for kind, which, number in moves:
        state = states[which]
        if kind == 0 and state.acting:
            seat = state.acting[0]
            G.step(state, seat, rng.choice(G.legal_actions(state, seat)))
        elif kind == 2:
            state = states[which] = state.clone()
        elif kind == 3:
            _nudge(state, number % 5, rng)
        elif kind == 4:
            state = states[which] = G.new_game(players[which], seed + number % 7)
        # (then a seat of that game asked, each time)
        seat = number % state.num_players
        info = G.bot_view(state, seat)
        afresh = SeatInfo.from_view(G, G.view(state, seat), seat)
        assert info == afresh
        fields = _fields(state, seat)
        assert (info.line, info.line_chips, info.chips, info.parties, info.hand) == fields
        built.append((info, afresh, fields))
    for info, afresh, fields in built:
        assert info == afresh
        assert (info.line, info.line_chips, info.chips, info.parties, info.hand) == fields


def test_a_decision_after_a_small_change_gets_the_kept_tuples() -> None:
    """The point of keeping them: asked again with nothing changed, or after a step that
    leaves the line as it was, the objects share the tuples."""
    state = G.new_game(4, 112950)
    seat = state.acting[0]
    first = G.bot_view(state, seat)
    again = G.bot_view(state, seat)
    assert again.line is first.line
    assert again.line_chips is first.line_chips
    assert again.chips is first.chips
    assert again.party_lists is first.party_lists
    other = G.bot_view(state, (seat + 1) % 4)
    assert other.line is first.line
    assert other.party_lists is first.party_lists
    state.line_chips[0] += 1
    changed = G.bot_view(state, seat)
    assert changed.line is first.line
    assert changed.line_chips is not first.line_chips
    assert changed.line_chips == tuple(state.line_chips) != first.line_chips
