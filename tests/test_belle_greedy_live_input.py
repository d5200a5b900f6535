"""Belle of the Ball's ``Game.bot_view`` reads the state's lists live (issue 36): the seats'
chips, the parties and the seat's hand are the state's own lists, valid until the state
changes. What the greedy bot keeps from one decision to the next must not take a list
changed in place since for the one it saw:

- a bot kept through whole games (every decision asked as the engine's ``PlainChooser``
  asks, each decision's input read live) chooses what a fresh bot chooses at every
  decision, with the rules' own in-place changes between (the line reversed or turned by
  Contrary Cornelia and Fashionably Late Fiona, cards popped from it, chips paid onto it,
  parties grown) and with changes made in place by hand between a seat's decisions (the
  line and its chips reversed or turned, the seats' chips changed, a party grown);
- a decision writes nothing through the object: the state is as it was (its saved form)
  and its lists the same objects.

Development seeds 136000-136499 (issue 36, round twelve).
"""

from __future__ import annotations

import random

import pytest

from potluck.engine.bots import PlainChooser
from potluck.games.belle_of_the_ball.actions import PLAY, BelleAction
from potluck.games.belle_of_the_ball.bots import GreedyBot
from potluck.games.belle_of_the_ball.game import BelleOfTheBall
from potluck.games.belle_of_the_ball.seat_info import SeatInfo
from potluck.games.belle_of_the_ball.state import FULL, BelleState, state_to_json

G = BelleOfTheBall()


def _stir(state: BelleState, rng: random.Random) -> None:
    """Change the public lists in place as a rule might (a bot must see each afresh)."""
    kind = rng.randrange(5)
    if kind == 0:
        state.line.reverse()
        state.line_chips.reverse()
    elif kind == 1 and state.line:
        state.line.append(state.line.pop(0))
        state.line_chips.append(state.line_chips.pop(0))
    elif kind == 2 and state.line_chips:
        state.line_chips[rng.randrange(len(state.line_chips))] += 1
    elif kind == 3:
        state.chips[rng.randrange(state.num_players)] += rng.choice((1, 2))
    else:
        party = state.parties[rng.randrange(len(state.parties))]
        if len(party) < FULL - 1:
            party.append(rng.randrange(len(G.guest_names)))


@pytest.mark.parametrize(
    ("players", "variant", "stir"),
    [(2, False, False), (3, True, False), (4, False, True), (5, True, True), (4, True, True)],
)
def test_a_kept_bot_chooses_as_a_fresh_one_on_live_input(
    players: int, variant: bool, stir: bool
) -> None:
    decisions = plays = 0
    for seed in range(136000 + 10 * players, 136000 + 10 * players + 4):
        state = G.new_game(players, seed, {"belles_in_guest_deck": variant})
        kept = [PlainChooser(GreedyBot(), G) for _ in range(players)]
        rng = random.Random(seed)
        while state.acting:
            seat = state.acting[0]
            saved, lists = state_to_json(state), (state.line, state.chips, state.parties)
            action = kept[seat](state, seat, random.Random(0))
            assert state_to_json(state) == saved  # (nothing written through the input)
            assert state.line is lists[0]
            assert state.chips is lists[1]
            assert state.parties is lists[2]
            fresh = PlainChooser(GreedyBot(), G)(state, seat, random.Random(0))
            assert action is fresh, (players, variant, seed, decisions)
            assert isinstance(action, BelleAction)
            decisions += 1
            plays += action.kind == PLAY
            G.step(state, seat, action)
            if stir and state.acting and rng.random() < 0.3:
                # (by hand: then the state need not be one the rules reach; the bots
                # read it alike all the same)
                _stir(state, rng)
    assert decisions > 100
    assert plays > 10


def test_bot_view_reads_the_state_live_and_equals_the_view() -> None:
    """The object holds the state's lists (no copy) but the line's, and compares equal to
    the one its view gives (lists against lists and tuples of the same items)."""
    state = G.new_game(4, seed=136100)
    info = G.bot_view(state, 2)
    assert info.chips is state.chips
    assert info.party_lists is state.parties
    assert info.hand is state.hands[2]
    assert id(info.line) != id(state.line)  # (a tuple made for the object)
    assert info.line == tuple(state.line)
    assert info == SeatInfo.from_view(G, G.view(state, 2), 2)
    assert info.entries()[5] == tuple(state.chips)
