"""The greedy bots of FoodAdvice and Belle of the Ball keep work from earlier decisions
(FoodAdvice's memo of tables, sales and kept cards; Belle's plans by a seat's groups):
a cache only. A bot that has played every decision of a game so far chooses what a
fresh bot chooses from the same seat's information, at every decision."""

from __future__ import annotations

import pytest

import potluck
from potluck.agents import make_agent
from potluck.sim import bot_rng


@pytest.mark.parametrize(
    ("game_id", "players", "options"),
    [
        ("food-advice", 4, {}),
        ("food-advice", 5, {}),
        ("belle-of-the-ball", 4, {}),
        ("belle-of-the-ball", 3, {"belles_in_guest_deck": True}),
    ],
)
def test_a_greedy_bot_with_memos_chooses_as_a_fresh_one(
    game_id: str, players: int, options: dict[str, bool]
) -> None:
    game = potluck.load_game(game_id)
    kept = make_agent(game, "greedy")
    checked = 0
    for seed in range(2):
        state = game.new_game(players, seed=seed, options=options)
        rngs = [bot_rng(seed, seat) for seat in range(players)]
        while state.acting:
            seat = state.acting[0]
            legal = game.legal_actions(state, seat)
            info = game.bot_view(state, seat)
            action = kept.choose(game, info, seat, legal, rngs[seat])
            fresh = make_agent(game, "greedy").choose(game, info, seat, legal, rngs[seat])
            assert fresh == action, (seed, seat, action, fresh)
            checked += 1
            game.step(state, seat, action)
    assert checked > 100
