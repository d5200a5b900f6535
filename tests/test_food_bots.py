"""FoodAdvice bots: the greedy bot plays legally and clearly beats random players."""

from __future__ import annotations

import random
from typing import Any

import pytest

import potluck
from potluck.sim import play_game
from potluck.testing.bots import win_share

GAME = potluck.load_game("food-advice")


def _play(num_players: int, seed: int, agents: list[str], options: dict[str, Any] | None) -> Any:
    """A whole game; ``Game.step`` refuses any illegal choice, so this checks legality too."""
    return play_game(GAME, num_players, agents, seed, options).outcome


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
    # A fair share is 0.25; measured about 0.8.
    assert win_share(GAME, "greedy", 4, games=40, seed=20_000) > 0.5
