"""The greedy bots' typed input (``Game.bot_view`` as an information object, issue 36):
it is what the seat's view alone gives, the bot plays the same from it as from the whole
view, and a game whose object holds what the view hides is caught by the conformance
check."""

from __future__ import annotations

import random

import pytest

import potluck
from potluck.engine.bots import bot_input
from potluck.games.cafe_carnage.game import CafeCarnage
from potluck.games.cafe_carnage.seat_info import SeatInfo
from potluck.games.cafe_carnage.state import CafeState
from potluck.testing import check_bot_view_is_part_of_view

#: Games whose ``bot_view`` is a typed information object.
TYPED = ("belle-of-the-ball", "belly-battle", "burger-joint", "cafe-carnage", "food-advice")


@pytest.mark.parametrize("game_id", TYPED)
def test_the_typed_input_is_what_the_view_gives(game_id: str) -> None:
    game = potluck.load_game(game_id)
    rng = random.Random(5)
    for seed in range(6):
        state = game.new_game(game.max_players if seed % 2 else game.min_players, seed)
        while state.acting:
            for seat in range(state.num_players):
                info = game.bot_view(state, seat)
                assert info == game.bot_view_from_view(game.view(state, seat), seat)
            seat = state.acting[0]
            legal = game.legal_actions(state, seat)
            game.step(state, seat, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("game_id", TYPED)
def test_the_greedy_bot_takes_the_typed_input_or_the_whole_view(game_id: str) -> None:
    game = potluck.load_game(game_id)
    bot = game.make_bot("greedy")
    for seed in range(4):
        state = game.new_game(game.min_players, seed)
        while state.acting:
            seat = state.acting[0]
            legal = game.legal_actions(state, seat)
            info = bot_input(bot, game, state, seat)
            assert not isinstance(info, dict)
            draw = f"{seed}-{len(state.history)}"
            typed = bot.choose(game, info, seat, legal, random.Random(draw))
            whole = bot.choose(game, game.view(state, seat), seat, legal, random.Random(draw))
            assert typed == whole
            game.step(state, seat, typed)


class PeekingCafe(CafeCarnage):
    """Gives its bots the next seat's sealed orders: what no view shows."""

    def bot_view(self, state: CafeState, seat: int) -> SeatInfo:
        info = super().bot_view(state, seat)
        other = 3 * ((seat + 1) % state.num_players)
        peeked = (state.orders[other], state.orders[other + 1], state.orders[other + 2])
        info.order = peeked
        return info


def test_a_typed_input_that_peeks_is_caught() -> None:
    game = PeekingCafe()
    state = game.new_game(4, seed=2)
    check_bot_view_is_part_of_view(game, state)  # nobody has ordered: nothing to see yet
    game.step(state, 1, game.legal_actions(state, 1)[0])
    with pytest.raises(AssertionError, match=r"bot_view\(seat 0\) is .* but its view gives"):
        check_bot_view_is_part_of_view(game, state)
