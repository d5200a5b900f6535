"""Checks that a search bot decides from its seat's information only.

>>> import random, potluck
>>> game = potluck.load_game("burger-joint")
>>> check_search_uses_information_only(game, game.new_game(2, seed=1), random.Random(0))
>>> belly = potluck.load_game("belly-battle")
>>> check_win_chances(belly, belly.new_game(4, seed=1))
"""

from __future__ import annotations

import math
import random

from potluck.agents import decide, make_agent
from potluck.engine.state import State
from potluck.testing.checks import AnyGame, where

#: A budget small enough for the conformance suite, large enough to walk a tree.
SEARCH_SPEC = "ismcts:sims=12,depth=12"


def check_search_uses_information_only(
    game: AnyGame, state: State, rng: random.Random, spec: str = SEARCH_SPEC
) -> None:
    """The search bot's choice with a given seed is the same in ``state`` and in a state
    redealt for its seat (the same view, other hidden cards, other seats' sealed choices
    and another future): it cannot have used what the seat does not know."""
    bot = make_agent(game, spec)
    for seat in game.to_act(state):
        if len(game.legal_actions(state, seat)) < 2:
            continue
        seed = rng.getrandbits(64)
        lookalike = game.redeal(state, seat, random.Random(rng.getrandbits(64)))
        chosen = decide(bot, game, state, seat, random.Random(seed))
        again = decide(bot, game, lookalike, seat, random.Random(seed))
        if chosen != again:
            raise AssertionError(
                f"{spec} for seat {seat} chooses {str(chosen)!r} in the true state but "
                f"{str(again)!r} in one redealt for it (same view, same seed): its choice "
                f"depends on more than the seat knows ({where(game, state, seat)})"
            )


def check_win_chances(game: AnyGame, state: State) -> None:
    """A game's ``win_chances`` (if it gives them) are one chance a seat, each in 0..1,
    summing to 1; a finished game's are its win shares (1 shared among the winners)."""
    chances = game.win_chances(state)
    if chances is None:
        return
    n = state.num_players
    if len(chances) != n or not all(0.0 <= c <= 1.0 for c in chances):
        raise AssertionError(f"win_chances gave {chances} for {n} seats ({where(game, state)})")
    if not math.isclose(sum(chances), 1.0, abs_tol=1e-9):
        raise AssertionError(f"win_chances {chances} do not sum to 1 ({where(game, state)})")
    if game.is_over(state):
        shares = game.outcome(state).win_shares()
        if not all(math.isclose(a, b) for a, b in zip(chances, shares, strict=True)):
            raise AssertionError(
                f"win_chances {chances} of a finished game are not its win shares {shares}"
            )
