"""Burger Joint's speed in CPU time: random play, greedy play and clones, next to
OpenSpiel's C++ hearts, all in one process.

``potluck bench`` times by the wall clock, which on a shared, loaded machine
measures the machine's load as much as the engine. This script runs the same loops
(``potluck.bench``: random moves from one generator, greedy bots through
``potluck.agents.decide``, ``clone()`` of the mid-game state) but reads
``time.process_time``, the CPU time this process got, and alternates the trials
(hearts, random, greedy, clone) so that each figure is the best of several taken
under the same conditions. Needs the ``rl`` extra for hearts.

    python examples/burger_joint_speed.py            # about 15 seconds
    python examples/burger_joint_speed.py --seconds 0.5 --rounds 2
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import potluck
from potluck.agents import decide, make_agent
from potluck.bench import mid_game_state
from potluck.sim import bot_rng

clock = time.process_time


def hearts_steps(seconds: float) -> float:
    """OpenSpiel hearts played at random: steps per CPU second (as ``bench_hearts``)."""
    import pyspiel

    hearts = pyspiel.load_game("hearts")
    rand = random.Random(0).random
    steps, start = 0, clock()
    while True:
        state = hearts.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rand() * len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rand() * len(legal))])
            steps += 1
        now = clock()
        if now - start >= seconds:
            return steps / (now - start)


def random_play(game: Any, seconds: float) -> tuple[float, float]:
    """Random games: (games, steps) per CPU second (the loop of ``bench_game``)."""
    rand = random.Random(0).random
    new_game, to_act, legal_actions, step = (
        game.new_game,
        game.to_act,
        game.legal_actions,
        game.step,
    )
    games = steps = 0
    start = clock()
    while True:
        state = new_game(2, games)
        acting = to_act(state)
        while acting:
            seat = acting[0]
            legal = legal_actions(state, seat)
            step(state, seat, legal[int(rand() * len(legal))])
            steps += 1
            acting = to_act(state)
        games += 1
        now = clock()
        if now - start >= seconds:
            return games / (now - start), steps / (now - start)


def greedy_play(game: Any, seconds: float) -> float:
    """Greedy games per CPU second (the loop of ``potluck bench --bot greedy``)."""
    agent = make_agent(game, "greedy")
    games, start = 0, clock()
    while True:
        state = game.new_game(2, games)
        rngs = [bot_rng(games, seat) for seat in range(2)]
        acting = game.to_act(state)
        while acting:
            seat = acting[0]
            game.step(state, seat, decide(agent, game, state, seat, rngs[seat]))
            acting = game.to_act(state)
        games += 1
        now = clock()
        if now - start >= seconds:
            return games / (now - start)


def clones(game: Any, seconds: float) -> float:
    """``clone()`` calls per CPU second on the mid-game state of ``bench_clone``."""
    clone = mid_game_state(game, 2, 0).clone
    count, start = 0, clock()
    while True:
        for _ in range(1000):
            clone()
        count += 1000
        now = clock()
        if now - start >= seconds:
            return count / (now - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per trial")
    parser.add_argument("--rounds", type=int, default=3, help="trials of each kind")
    args = parser.parse_args()
    game = potluck.load_game("burger-joint")
    best: dict[str, float] = {}
    trials: list[tuple[str, Callable[[], Any]]] = [
        ("hearts_steps", lambda: hearts_steps(args.seconds)),
        ("random", lambda: random_play(game, args.seconds)),
        ("greedy_games", lambda: greedy_play(game, args.seconds)),
        ("clones", lambda: clones(game, args.seconds / 2)),
    ]
    for _ in range(args.rounds):
        for name, trial in trials:
            result = trial()
            if name == "random":
                games, steps = result
                best["random_games"] = max(best.get("random_games", 0.0), games)
                best["random_steps"] = max(best.get("random_steps", 0.0), steps)
            else:
                best[name] = max(best.get(name, 0.0), result)
    print(
        f"per CPU second, best of {args.rounds}: random {best['random_steps']:,.0f} steps "
        f"({best['random_steps'] / best['hearts_steps']:.2f}x hearts at "
        f"{best['hearts_steps']:,.0f}), {best['random_games']:,.0f} games; greedy "
        f"{best['greedy_games']:,.0f} games ({best['greedy_games'] / best['random_games']:.2f}"
        f" of random); {best['clones']:,.0f} mid-game clones"
    )


if __name__ == "__main__":
    main()
