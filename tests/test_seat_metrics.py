"""Every game reports per-seat metrics for the lab's "what goes with winning" tables."""

from __future__ import annotations

import pytest

import potluck
from potluck.sim import play_game


@pytest.mark.parametrize("game_id", potluck.list_games())
def test_every_game_reports_what_each_seat_had(game_id: str) -> None:
    game = potluck.load_game(game_id)
    players = game.min_players
    result = play_game(game, players, ["greedy"] * players, seed=5)
    assert len(result.seat_metrics) == players
    for found in result.seat_metrics:
        assert found, f"{game_id} reports nothing about a seat"
        for key, value in found.items():
            assert isinstance(value, int | float), (key, value)
            assert value >= 0, f"{game_id}: {key} = {value}"
    # "kind:name" keys name things a seat can have (dishes, Belles, diners, restaurants, shapes).
    assert any(":" in key for found in result.seat_metrics for key in found)
