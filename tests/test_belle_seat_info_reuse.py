"""``Game.bot_view`` after a Belle's play keeps parts of the last ``SeatInfo`` it made
(``view.build_seat_info``, issue 36), held to the rules and to the object built afresh:

- ``belles.CHANGES`` (what each Belle's play changes of the line, the chips and the
  parties) against ``play_belle`` itself: every Belle play of random states, base game
  and variant, leaves the line, its chips, every seat's chips and every party as they
  were unless her bits say otherwise.
- The object made after any action equals the object made with nothing kept, field by
  field (its Belle plays too) and by ``SeatInfo.from_view`` of the seat's view, over
  random games with the seats' views asked in random order, the state cloned at random
  moments (a clone's history is another list: nothing is kept for it) and a step taken
  on a clone between (the original's next object is not the clone's).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from potluck.games.belle_of_the_ball import view
from potluck.games.belle_of_the_ball.actions import PLAY
from potluck.games.belle_of_the_ball.belles import CHANGES, CHIPS, LINE, PARTIES
from potluck.games.belle_of_the_ball.game import BelleOfTheBall
from potluck.games.belle_of_the_ball.seat_info import SeatInfo
from potluck.games.belle_of_the_ball.state import BelleState

G = BelleOfTheBall()


def _table(state: BelleState) -> tuple[object, ...]:
    return (
        list(state.line),
        list(state.line_chips),
        list(state.chips),
        [list(group) for group in state.parties],
    )


@pytest.mark.parametrize(("players", "variant"), [(2, False), (3, True), (4, False), (5, True)])
def test_changes_is_what_play_belle_changes(players: int, variant: bool) -> None:
    """Every Belle play listed in random games, each on a clone of its state."""
    plays = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = G.new_game(players, seed, {"belles_in_guest_deck": variant})
        while state.acting:
            seat = state.acting[0]
            legal = G.legal_actions(state, seat)
            for action in legal:
                if action.kind != PLAY:
                    continue
                twin = state.clone()
                line, line_chips, chips, parties = _table(twin)
                lists = list(twin.parties)
                G.step(twin, seat, action)
                changes = CHANGES[G.belle_effect_codes[action.belle]]
                if not changes & LINE:
                    assert (twin.line, twin.line_chips) == (line, line_chips)
                if not changes & CHIPS:
                    assert twin.chips == chips
                if not changes & PARTIES:
                    assert [list(group) for group in twin.parties] == parties
                    assert all(a is b for a, b in zip(twin.parties, lists, strict=True))
                plays += 1
            G.step(state, seat, legal[rng.randrange(len(legal))])
    assert plays > 50


def _fresh(state: BelleState, seat: int) -> SeatInfo:
    """``bot_view`` with nothing kept (and nothing left kept after it)."""
    view._LAST[0] = None
    info = G.bot_view(state, seat)
    view._LAST[0] = None
    return info


def _same(info: SeatInfo, state: BelleState, seat: int) -> None:
    kept = view._LAST[0]
    fresh = _fresh(state, seat)
    view._LAST[0] = kept
    assert info == fresh
    assert info.parties == fresh.parties
    assert (info.sizes_low, info.sizes_high) == (fresh.sizes_low, fresh.sizes_high)
    assert info.plays == fresh.plays
    assert info == SeatInfo.from_view(G, G.view(state, seat), seat)


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 5),
    variant=st.booleans(),
    asks=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 9)), min_size=1, max_size=40),
)
def test_a_seat_info_after_a_belle_is_the_one_built_afresh(
    seed: int, players: int, variant: bool, asks: list[tuple[int, int]]
) -> None:
    """Random games, the view of the seat to act asked before each step (as the greedy
    bot asks), of another seat at random, and of a clone, which may step first."""
    rng = random.Random(seed)
    state = G.new_game(players, seed, {"belles_in_guest_deck": variant})
    view._LAST[0] = None
    number = 0
    while state.acting:
        seat = state.acting[0]
        other, what = asks[number % len(asks)]
        number += 1
        _same(G.bot_view(state, seat), state, seat)
        if what == 0:
            _same(G.bot_view(state, other % players), state, other % players)
        elif what == 1:
            twin = state.clone()
            twin_seat = twin.acting[0]
            twin_legal = G.legal_actions(twin, twin_seat)
            G.step(twin, twin_seat, twin_legal[rng.randrange(len(twin_legal))])
            if twin.acting:
                _same(G.bot_view(twin, twin.acting[0]), twin, twin.acting[0])
        legal = G.legal_actions(state, seat)
        plays = [action for action in legal if action.kind == PLAY]
        # (a Belle played whenever one may be, so that most steps keep something)
        action = (plays or legal)[rng.randrange(len(plays or legal))]
        last = view._LAST[0]
        G.step(state, seat, action)
        if action.kind == PLAY and what != 1 and state.acting and last is not None:
            info = G.bot_view(state, state.acting[0])
            kept = not CHANGES[G.belle_effect_codes[action.belle]] & PARTIES
            assert (info.party_lists is last[5].party_lists) == kept  # (kept, not rebuilt)
            _same(info, state, state.acting[0])
