"""Steps per second through the OpenSpiel adapter next to the native engine.

    python examples/openspiel_speed.py --seconds 2 --trials 3

Whole games of uniformly random legal actions, best of ``--trials`` runs of
about ``--seconds`` each, the rows of one game measured one after the other:

- ``native``: ``legal_actions`` and ``step`` on the engine state;
- ``openspiel``: ``legal_actions`` and ``apply_action`` on a pyspiel state;
- ``openspiel+tensor``: the same, also reading the acting seat's
  ``observation_tensor`` before each move, as a learner would;
- ``clone``, ``resample``: ``state.clone()`` and ``resample_from_infostate``
  a second, on a state some moves into a game (what search pays per simulation).
"""

from __future__ import annotations

import argparse
import random
import time

import pyspiel

from potluck.engine.registry import list_games, load_game
from potluck.interop.bench import bench
from potluck.interop.openspiel import game_name


def _openspiel_tensor(game_id: str, players: int, seconds: float) -> int:
    game = pyspiel.load_game(game_name(game_id), {"players": players})
    rng = random.Random(0)
    steps, deadline = 0, time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.observation_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
        steps += len(state.history())
    return steps


def _per_second(game_id: str, players: int, seconds: float, what: str) -> float:
    game = pyspiel.load_game(game_name(game_id), {"players": players})
    state = game.new_initial_state()
    rng = random.Random(0)
    for _ in range(10):
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.random() * len(legal))])
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0, 0.0, 1.0)
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        if what == "clone":
            state.clone()
        else:
            state.resample_from_infostate(seat, sampler)
        count += 1
    return count / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(list_games()))
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--trials", type=int, default=3)
    args = parser.parse_args()
    print("| game | players | native | openspiel | openspiel+tensor | clone/s | resample/s |")
    print("|---|---|---|---|---|---|---|")
    for game_id in args.games.split(","):
        game = load_game(game_id)
        players = 4 if game.min_players <= 4 <= game.max_players else game.min_players
        native = bench(game_id, players, "native", args.seconds, args.trials)
        spiel = bench(game_id, players, "openspiel", args.seconds, args.trials)
        tensor = 0.0
        for _ in range(args.trials):
            start = time.perf_counter()
            steps = _openspiel_tensor(game_id, players, args.seconds)
            tensor = max(tensor, steps / (time.perf_counter() - start))
        clones = _per_second(game_id, players, args.seconds / 2, "clone")
        resamples = _per_second(game_id, players, args.seconds / 2, "resample")
        print(
            f"| {game.title} | {players} | {native:,.0f} | {spiel:,.0f} | {tensor:,.0f} "
            f"| {clones:,.0f} | {resamples:,.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
