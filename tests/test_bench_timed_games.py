"""The bot benchmark's rates come from its untimed games: the games it times part by part
(view, thought) read the clock at every decision, a cost of the measurement, not the bot's."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

import potluck
from potluck import bench


def test_greedy_rates_leave_the_timed_games_out(monkeypatch: pytest.MonkeyPatch) -> None:
    ticks = itertools.count()
    # A clock that moves one second a read: an untimed game reads it once, a timed one
    # at every decision, so only the untimed games' reads may make up the seconds.
    monkeypatch.setitem(bench.CLOCKS, "fake", lambda: float(next(ticks)))
    game = potluck.load_game("cafe-carnage")
    played: list[int] = []
    new_game = game.new_game

    def counted_new_game(players: int, seed: int, **options: Any) -> Any:
        played.append(seed)
        return new_game(players, seed, **options)

    monkeypatch.setattr(game, "new_game", counted_new_game)
    result = bench._bench_bot_games(game, 4, 2000.0, 0, "greedy", bench.clock_named("fake"))
    timed = len(range(0, len(played), bench._TIMED_EVERY))
    assert len(played) > timed > 0
    assert result.games == len(played) - timed
    assert result.decisions == result.steps
    # Each untimed game took one read; each timed game's two reads outside its own clock
    # (its start counted from the game before, the read after it) fall to the next game.
    assert result.seconds == result.games + 2 * timed
    assert 0 < result.viewing < result.thinking
