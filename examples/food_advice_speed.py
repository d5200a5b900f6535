"""FoodAdvice's speed in CPU seconds, and where a greedy game's time goes.

    python examples/food_advice_speed.py --random 200 --greedy 30 --hearts 400

``potluck bench`` times wall-clock seconds, which on a shared, loaded machine
mostly measure the other processes; this times the process's own CPU seconds
(``time.process_time``) over fixed workloads of 4 players, best of ``--trials``:

- ``random``: games drawing uniformly among the legal actions (seeds 0, 1, ...;
  the moves from one generator seeded 0, as in ``bench``);
- ``greedy``: games of greedy bots (``potluck.agents.decide``, which builds the
  seat's view at every decision), and per greedy game the CPU milliseconds of
  each part: the views, the bot's decisions by the kind of the first legal
  action (``discard``, ``shop`` for placing chips, ``remove`` for an event...),
  the legal lists and the steps;
- ``hearts``: OpenSpiel's C++ hearts played at random from Python, chance
  included, as ``potluck.bench.bench_hearts`` does (skipped without pyspiel).

It prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import defaultdict
from collections.abc import Callable

import potluck
from potluck.agents import make_agent
from potluck.games.food_advice.actions import KIND_WORDS
from potluck.sim import bot_rng

GAME = potluck.load_game("food-advice")
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


def greedy_parts(count: int) -> dict[str, float]:
    """CPU seconds of each part of ``count`` greedy games (``decide``'s work, split)."""
    bot, clock = make_agent(GAME, "greedy"), time.process_time
    parts: dict[str, float] = defaultdict(float)
    for seed in range(count):
        state = GAME.new_game(PLAYERS, seed)
        rngs = [bot_rng(seed, seat) for seat in range(PLAYERS)]
        while state.acting:
            seat = state.acting[0]
            began = clock()
            legal = GAME.legal_actions(state, seat)
            listed = clock()
            view = GAME.view(state, seat)
            viewed = clock()
            action = bot.choose(GAME, view, seat, legal, rngs[seat])
            chosen = clock()
            GAME.step(state, seat, action)
            parts["legal"] += listed - began
            parts["view"] += viewed - listed
            parts[f"bot {KIND_WORDS[legal[0].kind]}"] += chosen - viewed
            parts["step"] += clock() - chosen
    return parts


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
    parser.add_argument("--random", type=int, default=200, help="random games per trial")
    parser.add_argument("--greedy", type=int, default=30, help="greedy games per trial")
    parser.add_argument("--hearts", type=int, default=400, help="hearts games per trial")
    parser.add_argument("--trials", type=int, default=3)
    args = parser.parse_args()
    rows: dict[str, float] = {}
    seconds, steps = fastest(random_games, args.random, args.trials)
    rows["random_games_per_cpu_second"] = args.random / seconds
    rows["random_steps_per_cpu_second"] = steps / seconds
    best: dict[str, float] | None = None
    for _ in range(args.trials):
        parts = greedy_parts(args.greedy)
        if best is None or sum(parts.values()) < sum(best.values()):
            best = parts
    assert best is not None
    rows["greedy_games_per_cpu_second"] = args.greedy / sum(best.values())
    rows["greedy_to_random_games"] = (
        rows["greedy_games_per_cpu_second"] / rows["random_games_per_cpu_second"]
    )
    for part, spent in sorted(best.items(), key=lambda item: -item[1]):
        rows[f"greedy_ms_per_game: {part}"] = 1000 * spent / args.greedy
    try:
        seconds, steps = fastest(hearts_games, args.hearts, args.trials)
    except ImportError:
        pass
    else:
        rows["hearts_steps_per_cpu_second"] = steps / seconds
        rows["random_steps_to_hearts"] = (
            rows["random_steps_per_cpu_second"] / rows["hearts_steps_per_cpu_second"]
        )
    print(json.dumps({key: round(value, 3) for key, value in rows.items()}, indent=1))


if __name__ == "__main__":
    main()
