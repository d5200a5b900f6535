"""Belly Battle's speed in CPU seconds, next to OpenSpiel's hearts, in one process.

    python examples/belly_battle_speed.py --random 150 --greedy 30 --hearts 400

``potluck bench`` times wall-clock seconds, which on a shared, loaded machine
mostly measure the other processes; this times the process's own CPU seconds
(``time.process_time``) over fixed workloads, best of ``--trials`` runs each:

- ``random``: games of 4 players drawing uniformly among the legal actions, dealt
  from seeds 0, 1, ... (the moves from one generator seeded 0, as in ``bench``);
- ``greedy``: games of 4 greedy bots (``potluck.agents.decide``, their view built
  at every decision), dealt from seeds 0, 1, ...;
- ``hearts``: OpenSpiel's C++ hearts played at random from Python, chance included,
  as ``potluck.bench.bench_hearts`` does (skipped without pyspiel).

It prints one JSON object: games and steps per CPU second of each, and the ratios
the issue's targets name (random steps to hearts steps, greedy games to random games).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable

import potluck
from potluck.agents import decide, make_agent
from potluck.sim import bot_rng

GAME = potluck.load_game("belly-battle")
PLAYERS = 4


def random_games(count: int) -> int:
    rand = random.Random(0).random
    legal_actions, step = GAME.legal_actions, GAME.step
    steps = 0
    for seed in range(count):
        state = GAME.new_game(PLAYERS, seed)
        while state.acting:
            seat = state.acting[0]
            legal = legal_actions(state, seat)
            step(state, seat, legal[int(rand() * len(legal))])
            steps += 1
    return steps


def greedy_games(count: int) -> int:
    bot = make_agent(GAME, "greedy")
    steps = 0
    for seed in range(count):
        state = GAME.new_game(PLAYERS, seed)
        rngs = [bot_rng(seed, seat) for seat in range(PLAYERS)]
        while state.acting:
            seat = state.acting[0]
            GAME.step(state, seat, decide(bot, GAME, state, seat, rngs[seat]))
            steps += 1
    return steps


def hearts_games(count: int) -> int:
    import pyspiel

    hearts = pyspiel.load_game("hearts")
    rand = random.Random(0).random
    steps = 0
    for _ in range(count):
        state = hearts.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rand() * len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rand() * len(legal))])
            steps += 1
    return steps


def fastest(play: Callable[[int], int], count: int, trials: int) -> tuple[float, int]:
    """The least CPU time of ``trials`` runs of ``play(count)``, and its steps."""
    best, steps = float("inf"), 0
    for _ in range(trials):
        began = time.process_time()
        steps = play(count)
        best = min(best, time.process_time() - began)
    return best, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--random", type=int, default=150, help="random games per trial")
    parser.add_argument("--greedy", type=int, default=30, help="greedy games per trial")
    parser.add_argument("--hearts", type=int, default=400, help="hearts games per trial")
    parser.add_argument("--trials", type=int, default=3)
    args = parser.parse_args()
    rows: dict[str, float] = {}
    seconds, steps = fastest(random_games, args.random, args.trials)
    rows["random_games_per_cpu_second"] = args.random / seconds
    rows["random_steps_per_cpu_second"] = steps / seconds
    seconds, steps = fastest(greedy_games, args.greedy, args.trials)
    rows["greedy_games_per_cpu_second"] = args.greedy / seconds
    rows["greedy_steps_per_cpu_second"] = steps / seconds
    rows["greedy_to_random_games"] = (
        rows["greedy_games_per_cpu_second"] / rows["random_games_per_cpu_second"]
    )
    try:
        seconds, steps = fastest(hearts_games, args.hearts, args.trials)
    except ImportError:
        pass
    else:
        rows["hearts_steps_per_cpu_second"] = steps / seconds
        rows["random_steps_to_hearts"] = (
            rows["random_steps_per_cpu_second"] / rows["hearts_steps_per_cpu_second"]
        )
    print(json.dumps({key: round(value, 3) for key, value in rows.items()}))


if __name__ == "__main__":
    main()
