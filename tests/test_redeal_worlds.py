"""Worlds a search bot plans on are drawn from what its seat knows, and only that."""

from __future__ import annotations

import random

import pytest

import potluck
from potluck.engine.state import State
from potluck.games.food_advice.state import VOTING
from potluck.testing.redeal_checks import check_redeal_canonical
from potluck.testing.suite import USUAL_TABLES, random_playout
from toygame import BidsState, SecretBids


class PeekingRedeal(SecretBids):
    """Draws other hands in the order the true deck holds them: not canonical."""

    def redeal(self, state: BidsState, seat: int, rng: random.Random) -> BidsState:
        twin = super().redeal(state, seat, rng)
        twin.cards = state.cards
        return twin


class TrueChance(SecretBids):
    """Keeps the true state's generator, so the world's future chance is the true one."""

    def redeal(self, state: BidsState, seat: int, rng: random.Random) -> BidsState:
        twin = super().redeal(state, seat, rng)
        twin.rng = random.Random()
        twin.rng.setstate(state.rng.getstate())
        return twin


def test_a_redeal_that_depends_on_hidden_cards_is_caught() -> None:
    game = PeekingRedeal()
    with pytest.raises(AssertionError, match="depends on more than the seat knows"):
        check_redeal_canonical(game, game.new_game(3, 0), random.Random(0))


def test_a_redeal_that_keeps_the_true_chance_is_caught() -> None:
    game = TrueChance()
    with pytest.raises(AssertionError, match="generator"):
        check_redeal_canonical(game, game.new_game(3, 0), random.Random(0))


@pytest.mark.parametrize(("game_id", "num_players"), USUAL_TABLES)
def test_redeal_is_canonical_along_a_game(game_id: str, num_players: int) -> None:
    game = potluck.load_game(game_id)
    rng = random.Random(7)
    checked = 0

    def check(state: State) -> None:
        nonlocal checked
        if len(state.history) % 4 == 0:
            check_redeal_canonical(game, state, rng)
            checked += 1

    random_playout(game, num_players, seed=11, on_step=check)
    assert checked > 3


def test_food_advice_sealed_votes_and_names_are_redrawn() -> None:
    game = potluck.load_game("food-advice")
    state = game.new_game(4, seed=2)
    chooser = random.Random(0)
    while state.phase != VOTING:
        actor = chooser.choice(game.to_act(state))
        game.step(state, actor, chooser.choice(game.legal_actions(state, actor)))
    for voter in (1, 2, 3):
        game.step(state, voter, game.legal_actions(state, voter)[0])
    seen = {tuple(game.redeal(state, 0, random.Random(k)).votes[1:]) for k in range(30)}
    assert len(seen) > 1
