"""Steps per second through each adapter, next to the native engine, on random play.

    python -m potluck.interop.bench --seconds 2

Every row plays whole games with uniformly random legal actions and counts
engine steps (applied actions) per second of wall time, best of ``--trials``:
``native`` calls ``legal_actions`` and ``step`` directly; ``pettingzoo-aec``
goes through ``env.last()`` (observation vector and mask) and ``env.step``;
``pettingzoo-parallel`` (Café Carnage) steps every waiting seat at once;
``gymnasium`` plays seat 0 against random bots (the bots' steps count too);
``openspiel`` uses ``legal_actions`` and ``apply_action`` on a pyspiel state.
The adapters build an observation vector at each step, which the native loop
never does: that is most of the difference.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable

import numpy as np

from potluck.engine.registry import list_games, load_game

#: A bench: play for about ``seconds`` and return the number of engine steps.
Runner = Callable[[str, int, float], int]


def _native(game_id: str, players: int, seconds: float) -> int:
    game = load_game(game_id)
    rng = random.Random(0)
    steps, deadline, seed = 0, time.perf_counter() + seconds, 0
    while time.perf_counter() < deadline:
        state = game.new_game(players, seed)
        while state.acting:
            seat = state.acting[0]
            legal = game.legal_actions(state, seat)
            game.step(state, seat, legal[int(rng.random() * len(legal))])
        steps += len(state.history)
        seed += 1
    return steps


def _pettingzoo_aec(game_id: str, players: int, seconds: float) -> int:
    from potluck.interop.pettingzoo import raw_env

    env = raw_env(game_id, players)
    rng = np.random.default_rng(0)
    steps, deadline, seed = 0, time.perf_counter() + seconds, 0
    while time.perf_counter() < deadline:
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        steps += len(env.game_state.history)
        seed += 1
    return steps


def _pettingzoo_parallel(game_id: str, players: int, seconds: float) -> int:
    from potluck.interop.pettingzoo import parallel_env

    env = parallel_env(game_id, players)
    rng = np.random.default_rng(0)
    steps, deadline, seed = 0, time.perf_counter() + seconds, 0
    while time.perf_counter() < deadline:
        observations, _ = env.reset(seed=seed)
        while env.agents:
            actions = {
                agent: int(rng.choice(np.flatnonzero(obs["action_mask"])))
                for agent, obs in observations.items()
                if obs["action_mask"].any()
            }
            observations, *_ = env.step(actions)
        steps += len(env.game_state.history)
        seed += 1
    return steps


def _gymnasium(game_id: str, players: int, seconds: float) -> int:
    from potluck.interop.gymnasium import PotluckEnv

    env = PotluckEnv(game_id, players, opponents="random")
    rng = np.random.default_rng(0)
    steps, deadline, seed = 0, time.perf_counter() + seconds, 0
    while time.perf_counter() < deadline:
        observation, _ = env.reset(seed=seed)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            observation, _, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
        steps += len(env.game_state.history)
        seed += 1
    return steps


def _openspiel(game_id: str, players: int, seconds: float) -> int:
    import pyspiel

    from potluck.interop.openspiel import game_name

    game = pyspiel.load_game(game_name(game_id), {"players": players})
    rng = random.Random(0)
    steps, deadline = 0, time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
        steps += len(state.engine_state.history)
    return steps


RUNNERS: dict[str, Runner] = {
    "native": _native,
    "pettingzoo-aec": _pettingzoo_aec,
    "pettingzoo-parallel": _pettingzoo_parallel,
    "gymnasium": _gymnasium,
    "openspiel": _openspiel,
}


def bench(game_id: str, players: int, adapter: str, seconds: float, trials: int) -> float:
    """Best steps per second of ``trials`` runs of about ``seconds`` each."""
    best = 0.0
    for _ in range(trials):
        start = time.perf_counter()
        steps = RUNNERS[adapter](game_id, players, seconds)
        best = max(best, steps / (time.perf_counter() - start))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description="Steps per second through each adapter.")
    parser.add_argument("--games", default=",".join(list_games()))
    parser.add_argument("--adapters", default=",".join(RUNNERS))
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for game_id in args.games.split(","):
        game = load_game(game_id)
        players = 4 if game.min_players <= 4 <= game.max_players else game.min_players
        for adapter in args.adapters.split(","):
            if adapter == "pettingzoo-parallel" and game_id != "cafe-carnage":
                continue
            rate = bench(game_id, players, adapter, args.seconds, args.trials)
            rows.append(
                {
                    "game": game_id,
                    "players": players,
                    "adapter": adapter,
                    "steps_per_second": round(rate),
                }
            )
            if not args.json:
                print(f"{game_id:18} {players}p {adapter:20} {rate:>10,.0f} steps/s", flush=True)
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
