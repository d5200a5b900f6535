"""Belle of the Ball test helpers shared by tests/test_belle_of_the_ball*.py: the loaded
game, the rulebook's example group and the rigging helpers that set up a state.

    from belle_of_the_ball_helpers import G, fresh, rig_line
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

import potluck
from potluck.games.belle_of_the_ball import BelleOfTheBall, BelleState
from potluck.games.belle_of_the_ball.greedy_plan import Weights
from potluck.games.belle_of_the_ball.state import BELLE_BASE, SLOTS

GAME = potluck.load_game("belle-of-the-ball")
assert isinstance(GAME, BelleOfTheBall)
G: BelleOfTheBall = GAME
VARIANT = {"belles_in_guest_deck": True}

# The rulebook's example group (authored data): two guests share hearts, all five globes.
HEARTS_AND_GLOBES = (
    "doctor-clementine-underhill",
    "mayor-quentin-ravenscroft",
    "judge-reginald-pickleworth",
    "captain-ignatius-nettlefold",
    "reverend-rupert-frobisher",
)


# ---------------------------------------------------------------------- rigging helpers


def guest(slug: str) -> int:
    return G.guest_slugs.index(slug)


def belle(slug: str) -> int:
    return G.belle_slugs.index(slug)


def _take(state: BelleState, card: int) -> None:
    """Take a guest card out of wherever it is; in the line a deck card takes its place."""
    if card in state.line:
        spare = next(c for c in state.deck if c < BELLE_BASE)
        state.deck.remove(spare)
        state.line[state.line.index(card)] = spare
        return
    for pile in (state.deck, state.boxed, state.guest_discard, *state.parties):
        if card in pile:
            pile.remove(card)
            return
    raise AssertionError(f"guest {card} is not free")


def rig_line(state: BelleState, cards: Sequence[int], chips: Sequence[int] | None = None) -> None:
    """Make the line exactly ``cards`` (with ``chips`` on them), keeping cards and chips
    conserved: the old line goes back into the deck."""
    state.minted -= sum(state.line_chips)
    state.deck.extend(state.line)
    state.line, state.line_chips = [], []
    for card in cards:
        if card < BELLE_BASE:
            _take(state, card)
        else:
            state.deck.remove(card)
    state.line = list(cards)
    state.line_chips = list(chips) if chips is not None else [0] * len(cards)
    state.minted += sum(state.line_chips)
    assert not G.invariants(state), G.invariants(state)


def rig_group(state: BelleState, seat: int, slot: int, cards: Sequence[int]) -> None:
    state.deck.extend(state.parties[seat * SLOTS + slot])
    state.parties[seat * SLOTS + slot] = []
    for card in cards:
        _take(state, card)
    state.parties[seat * SLOTS + slot] = list(cards)
    assert not G.invariants(state), G.invariants(state)


def rig_hand(state: BelleState, seat: int, kinds: Sequence[int]) -> None:
    state.belle_deck.extend(state.hands[seat])
    state.hands[seat] = []
    for kind in kinds:
        for pile in (state.belle_deck, state.belle_discard, *state.hands):
            if kind in pile:
                pile.remove(kind)
                break
        else:
            raise AssertionError(f"no free Belle of kind {kind}")
    state.hands[seat] = sorted(kinds)
    assert not G.invariants(state), G.invariants(state)


def set_chips(state: BelleState, seat: int, chips: int) -> None:
    state.minted += chips - state.chips[seat]
    state.chips[seat] = chips


def fresh(num_players: int = 3, seed: int = 1, **options: Any) -> BelleState:
    return G.new_game(num_players, seed, options)


def guests_with(interest: str, count: int, avoid: Sequence[int] = ()) -> list[int]:
    i = G.interest_names.index(interest)
    found = [g for g, shown in enumerate(G.guest_interests) if i in shown and g not in avoid]
    return found[:count]


def guests_without(interests: Sequence[str], count: int, avoid: Sequence[int] = ()) -> list[int]:
    banned = {G.interest_names.index(i) for i in interests}
    found = [
        g for g, shown in enumerate(G.guest_interests) if not banned & set(shown) and g not in avoid
    ]
    return found[:count]


def spread_turn(state: BelleState) -> None:
    """The seat to act invites the first card in line into its smallest group (or a new one),
    so that no group fills up."""
    seat = state.acting[0]
    slots = G.placeable(state, seat)
    slot = min(slots, key=lambda s: len(state.parties[seat * SLOTS + s]))
    G.step(state, seat, f"invite 1 to group {slot + 1}")


def finish_turn(state: BelleState) -> None:
    """The seat to act invites the first card in line into its first open group."""
    seat = state.acting[0]
    first = next(a for a in G.legal_actions(state, seat) if a.kind != 2 and a.pos == 0)
    G.step(state, seat, first)


def random_play_states(game: BelleOfTheBall, seed: int, variant: bool) -> list[BelleState]:
    """Every state of one 4-player game of uniformly random moves, each a clone."""
    rng = random.Random(seed)
    state = game.new_game(4, seed, {"belles_in_guest_deck": variant})
    found = []
    while state.acting:
        found.append(state.clone())
        seat = state.acting[0]
        legal = game.legal_actions(state, seat)
        game.step(state, seat, legal[rng.randrange(len(legal))])
    return found


#: The greedy planner's weights over the ranges its property tests explore.
GREEDY_WEIGHTS = st.builds(
    Weights,
    belle_value=st.floats(-2, 12),
    chip_value=st.floats(0, 2),
    need_cost=st.floats(-2, 2),
    interest_share=st.floats(0, 1),
)
