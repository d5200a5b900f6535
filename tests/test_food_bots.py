"""FoodAdvice bots: the greedy bot plays legally and clearly beats random players."""

from __future__ import annotations

import random
from typing import Any

import pytest

import potluck

GAME = potluck.load_game("food-advice")


def _play(num_players: int, seed: int, agents: list[str], options: dict[str, Any] | None) -> Any:
    bots = {name: GAME.make_bot(name) for name in set(agents)}
    state = GAME.new_game(num_players, seed=seed, options=options)
    rngs = [random.Random(seed * 100 + i) for i in range(num_players)]
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        bot = bots[agents[seat]]
        legal = GAME.legal_actions(state, seat)
        view = GAME.view(state, seat) if bot.needs_view else None
        action = bot.choose(GAME, view, seat, legal, rngs[seat])
        assert action in legal
        GAME.step(state, seat, action)
    return GAME.outcome(state)


@pytest.mark.parametrize(
    ("num_players", "options"), [(2, {"small_table": True}), (4, None), (5, None), (6, None)]
)
def test_greedy_plays_legal_moves(num_players: int, options: dict[str, Any] | None) -> None:
    for seed in range(5):
        agents = ["greedy"] * (1 + seed % 2) + ["random"] * (num_players - 1 - seed % 2)
        _play(num_players, seed, agents, options)


def test_greedy_is_deterministic() -> None:
    bot = GAME.make_bot("greedy")
    state = GAME.new_game(4, seed=3)
    view = GAME.view(state, 0)
    legal = GAME.legal_actions(state, 0)
    picks = {bot.choose(GAME, view, 0, legal, random.Random(k)) for k in range(5)}
    assert len(picks) == 1


def test_greedy_beats_random_players() -> None:
    games, wins = 40, 0.0
    for i in range(games):
        agents = ["random"] * 4
        agents[i % 4] = "greedy"
        outcome = _play(4, 20_000 + i, agents, None)
        if i % 4 in outcome.winners:
            wins += 1 / len(outcome.winners)
    assert wins / games > 0.5  # a fair share is 0.25; measured about 0.8
