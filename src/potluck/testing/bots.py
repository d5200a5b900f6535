"""Helpers for testing bots: how often one bot wins against others.

>>> import potluck
>>> from potluck.testing.bots import win_share
>>> share = win_share(potluck.load_game("cafe-carnage"), "greedy", 4, games=8, seed=1)
>>> 0.0 <= share <= 1.0
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from potluck.engine.game import Game
from potluck.sim import play_game


def win_share(
    game: Game[Any, Any],
    agent: str,
    num_players: int,
    games: int,
    *,
    seed: int = 0,
    against: str = "random",
    options: Mapping[str, Any] | None = None,
) -> float:
    """The share of ``games`` that one ``agent`` wins against ``against`` bots.

    The agent moves one seat per game (game ``i`` seats it at ``i % num_players``
    and is dealt from ``seed + i``), so seat order cancels out; a shared win
    counts ``1/k``. Every move goes through ``Game.step``, so an illegal choice
    by either bot fails the run. Its fair share is ``1 / num_players``.
    """
    wins = 0.0
    for i in range(games):
        seat = i % num_players
        agents = [against] * num_players
        agents[seat] = agent
        wins += play_game(game, num_players, agents, seed + i, options).outcome.win_shares()[seat]
    return wins / games
