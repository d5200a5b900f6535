"""Checks that a game's ``redeal`` draws worlds from what the seat may know, and only that.

A search bot plans on worlds drawn by ``redeal``. For its choice to depend only on
its seat's information, a world drawn with a given generator must depend only on
that information: never on the true order of a deck, the true cards of another
hand, another seat's sealed choice or the true state of the game's own generator.

    >>> import random, potluck
    >>> game = potluck.load_game("cafe-carnage")
    >>> check_redeal_canonical(game, game.new_game(4, seed=3), random.Random(1))
"""

from __future__ import annotations

import random
from typing import Any

from potluck.engine.state import State, rng_to_json
from potluck.testing.checks import AnyGame, first_difference, where


def _world(game: AnyGame, state: State) -> dict[str, Any]:
    """The world's JSON without its history (the record of how the true game went,
    which rules may read but a search bot does not)."""
    data: dict[str, Any] = game.to_json(state)
    data.pop("history")
    return data


def check_redeal_canonical(game: AnyGame, state: State, rng: random.Random) -> None:
    """``redeal`` is canonical and draws chance anew.

    For each seat: redealing the true state and redealing a state already redealt
    for that seat (so one with the same view, but other hidden parts) with equal
    generators gives the same world; and the world's generator is not the true
    state's, so future chance and deck draws are drawn anew.
    """
    for seat in range(state.num_players):
        seed, other_seed = rng.getrandbits(64), rng.getrandbits(64)
        at = where(game, state, seat)
        world = game.redeal(state, seat, random.Random(seed))
        lookalike = game.redeal(state, seat, random.Random(other_seed))
        again = game.redeal(lookalike, seat, random.Random(seed))
        found = first_difference(_world(game, world), _world(game, again))
        if found is not None:
            raise AssertionError(
                f"redeal for seat {seat} depends on more than the seat knows: redealing a "
                f"state with the same view gives another world ({at}): {found}"
            )
        if not game.is_over(state) and rng_to_json(world.rng) == rng_to_json(state.rng):
            raise AssertionError(
                f"redeal for seat {seat} keeps the true state's generator, so the world's "
                f"future chance is the true one ({at})"
            )
