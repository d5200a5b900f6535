"""Where a FoodAdvice greedy game's CPU time goes, part by part.

    python examples/food_advice_speed.py --greedy 30

Games of 4 greedy bots (seeds 0, 1, ...), each decision taken as
``potluck.agents.decide`` takes it but timed in parts, in the process's CPU seconds
(``time.process_time``), best of ``--trials``: the views, the bot's decisions by the
kind of the first legal action (``discard``, ``shop`` for placing chips, ``remove``
for an event...), the legal lists and the steps. It prints one JSON object of CPU
milliseconds per game. The whole-game figures (random and greedy games per CPU
second, OpenSpiel hearts in the same run) come from ``potluck bench food-advice
--players 4 --clock cpu --hearts`` and ``--bot greedy``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict

import potluck
from potluck.agents import make_agent
from potluck.games.food_advice.actions import KIND_WORDS
from potluck.sim import bot_rng

GAME = potluck.load_game("food-advice")
PLAYERS = 4


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--greedy", type=int, default=30, help="greedy games per trial")
    parser.add_argument("--trials", type=int, default=3)
    args = parser.parse_args()
    best: dict[str, float] | None = None
    for _ in range(args.trials):
        parts = greedy_parts(args.greedy)
        if best is None or sum(parts.values()) < sum(best.values()):
            best = parts
    assert best is not None
    rows = {"greedy_games_per_cpu_second": args.greedy / sum(best.values())}
    for part, spent in sorted(best.items(), key=lambda item: -item[1]):
        rows[f"greedy_ms_per_game: {part}"] = 1000 * spent / args.greedy
    print(json.dumps({key: round(value, 3) for key, value in rows.items()}, indent=1))


if __name__ == "__main__":
    main()
