"""Benchmark: random playouts on one core, through the engine's fast path.

What it measures is the rules engine itself (``to_act``, ``legal_actions``,
``step``), which the lab and search bots call millions of times; the harness
adds as little as it can per step, so the figure is the game's, not ours::

    >>> import potluck
    >>> from potluck.bench import bench_game
    >>> result = bench_game(potluck.load_game("cafe-carnage"), seconds=0.2)
    >>> result.games >= 1 and result.steps_per_second > 0
    True
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace
from typing import Any

from potluck.engine.errors import PotluckError
from potluck.engine.game import Game

__all__ = ["BenchResult", "bench_best", "bench_game"]


@dataclass(frozen=True, slots=True)
class BenchResult:
    """How many random games and steps one core played in ``seconds``."""

    game: str
    players: int
    games: int
    steps: int
    seconds: float
    #: Steps per second of every trial when the figure is the best of several.
    trials: tuple[float, ...] = ()

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "games": self.games,
            "steps": self.steps,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "steps_per_second": self.steps_per_second,
            "trials_steps_per_second": list(self.trials or (self.steps_per_second,)),
        }


def bench_game(
    game: Game[Any, Any],
    num_players: int | None = None,
    seconds: float = 2.0,
    seed: int = 0,
) -> BenchResult:
    """Play uniformly random games for about ``seconds`` (at least one whole game).

    ``num_players`` defaults to the game's minimum. Game ``i`` is dealt from
    ``seed + i`` and moves are drawn from one generator seeded by ``seed``, so
    the sequence of games is the same on every run; only how many fit in the
    time varies.
    """
    players = game.min_players if num_players is None else num_players
    if seconds <= 0:
        raise PotluckError(f"the benchmark needs a positive time, not {seconds} seconds")
    game.new_game(players, seed)  # a bad player count fails here, with the game's message
    # Everything the loop touches is a local: attribute and global look-ups
    # would cost more per step than some games' rules do.
    rand = random.Random(seed).random
    new_game, to_act, legal_actions, step = (
        game.new_game,
        game.to_act,
        game.legal_actions,
        game.step,
    )
    clock = time.perf_counter
    games = steps = 0
    start = clock()
    deadline = start + seconds
    while True:
        state = new_game(players, seed + games)
        acting = to_act(state)
        while acting:
            seat = acting[0]
            legal = legal_actions(state, seat)
            step(state, seat, legal[int(rand() * len(legal))])
            steps += 1
            acting = to_act(state)
        games += 1
        # The clock is read once per game, not per step.
        now = clock()
        if now >= deadline:
            break
    return BenchResult(game.id, players, games, steps, now - start)


def bench_best(
    game: Game[Any, Any],
    num_players: int | None = None,
    seconds: float = 2.0,
    seed: int = 0,
    repeat: int = 3,
) -> BenchResult:
    """The fastest of ``repeat`` trials of ``seconds / repeat`` each.

    A shared machine slows some trials down and never speeds one up, so the
    fastest trial is the best estimate of the engine's own speed (as ``timeit``
    advises); every trial's figure is kept in ``trials``.
    """
    if repeat < 1:
        raise PotluckError(f"the benchmark needs at least one trial, not {repeat}")
    results = [bench_game(game, num_players, seconds / repeat, seed) for _ in range(repeat)]
    best = max(results, key=lambda r: r.steps_per_second)
    return replace(best, trials=tuple(r.steps_per_second for r in results))
