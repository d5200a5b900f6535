"""Speed benchmarks of every game (pytest-benchmark): random games, greedy decisions, clones.

The suite's default options disable timing (``--benchmark-disable``), so CI runs each
body once, as a smoke test, with no thresholds. To measure, on a quiet machine:

    .venv/bin/pytest tests/benchmarks --benchmark-enable -p no:randomly -p no:xdist

``potluck bench`` gives the headline figures (games, steps, decisions and clones
per second, and the OpenSpiel hearts comparison); these keep a history of the
same hot paths for pytest-benchmark's ``--benchmark-compare``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import potluck
from potluck.agents import decide, make_agent
from potluck.bench import mid_game_state

GAMES = potluck.list_games()


def _players(game: Any) -> int:
    return 4 if game.min_players <= 4 <= game.max_players else game.min_players


def _random_game(game: Any, players: int, seed: int) -> int:
    rng = random.Random(seed)
    state = game.new_game(players, seed)
    while game.to_act(state):
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        game.step(state, seat, legal[int(rng.random() * len(legal))])
    return len(state.history)


@pytest.mark.parametrize("game_id", GAMES)
def test_random_game(benchmark: Any, game_id: str) -> None:
    game = potluck.load_game(game_id)
    steps = benchmark(_random_game, game, _players(game), 1)
    assert steps > 0


@pytest.mark.parametrize("game_id", GAMES)
def test_clone_mid_game(benchmark: Any, game_id: str) -> None:
    game = potluck.load_game(game_id)
    state = mid_game_state(game, _players(game), 1)
    twin = benchmark(state.clone)
    assert game.to_json(twin) == game.to_json(state)


@pytest.mark.parametrize("game_id", GAMES)
def test_greedy_decision(benchmark: Any, game_id: str) -> None:
    game = potluck.load_game(game_id)
    if "greedy" not in game.bots():
        pytest.skip(f"{game.title} has no greedy bot")
    state = mid_game_state(game, _players(game), 1)
    seat = game.to_act(state)[0]
    bot = make_agent(game, "greedy")
    action = benchmark(decide, bot, game, state, seat, random.Random(0))
    assert action in game.legal_actions(state, seat)
