"""Benchmark: one search seat against greedy opponents (or any others), win share with 95% CI.

Game ``i`` is dealt from ``seed + i`` and the tested bot sits in seat ``i % players``,
so every seat hosts it equally often. A shared win counts as a share (1/k for k
winners). The interval is Wilson's on the summed shares
(``potluck.intervals.wilson_interval``). ``--bot ismcts`` is the search bot with
the game's tuned defaults (``potluck.agents.search_defaults``).

    python examples/ismcts_strength.py cafe-carnage --players 4 --games 200 \\
        --bot ismcts --others greedy --json

It plays through ``potluck.agents.decide``, the call every surface uses, so the
search bot sees only its seat's information set. This is a benchmark: run it
with ``nice`` and expect minutes, not seconds.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import potluck
from potluck.agents import decide, effective_spec, make_agent
from potluck.intervals import wilson_interval
from potluck.sim import bot_rng


def play(
    game_id: str, players: int, games: int, bot: str, others: str, seed: int
) -> dict[str, Any]:
    game = potluck.load_game(game_id)
    tested, rival = make_agent(game, bot), make_agent(game, others)
    shares: list[float] = []
    thinking, slowest, decisions = 0.0, 0.0, 0
    start = time.perf_counter()
    for i in range(games):
        state = game.new_game(players, seed + i)
        hero = i % players
        bots = [tested if s == hero else rival for s in range(players)]
        rngs = [bot_rng(seed + i, s) for s in range(players)]
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            if seat == hero and len(game.legal_actions(state, seat)) > 1:
                began = time.perf_counter()
                action = decide(tested, game, state, seat, rngs[seat])
                took = time.perf_counter() - began
                thinking += took
                slowest = max(slowest, took)
                decisions += 1
            else:
                action = decide(bots[seat], game, state, seat, rngs[seat])
            game.step(state, seat, action)
        shares.append(game.outcome(state).win_shares()[hero])
        # Progress after every game, so a run cut short still says something.
        print(
            f"{i + 1} games: win share {sum(shares) / len(shares):.3f} "
            f"(game {seed + i}: {shares[-1]:.2f})",
            file=sys.stderr,
            flush=True,
        )
    mean = sum(shares) / len(shares)
    low, high = wilson_interval(sum(shares), len(shares))
    return {
        "game": game_id,
        "players": players,
        "games": games,
        "bot": bot,
        "effective_spec": str(effective_spec(game, bot)),
        "decisions": decisions,
        "seconds_per_decision": thinking / max(1, decisions),
        "slowest_decision_seconds": slowest,
        "simulations_per_decision": getattr(tested, "simulations_run", 0) / max(1, decisions),
        "others": others,
        "seed": seed,
        "win_share": mean,
        "ci95": [low, high],
        "fair_share": 1.0 / players,
        "seconds": time.perf_counter() - start,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--bot", default="ismcts")
    parser.add_argument("--others", default="greedy")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = play(args.game, args.players, args.games, args.bot, args.others, args.seed)
    if args.json:
        print(json.dumps(result))
    else:
        low, high = result["ci95"]
        print(
            f"{args.game} {args.players}p: {args.bot} vs {args.others}: win share "
            f"{result['win_share']:.3f} [{low:.3f}, {high:.3f}] over {args.games} games "
            f"(fair share {result['fair_share']:.3f}), {result['seconds']:.0f} s, "
            f"{result['seconds_per_decision']:.2f} s a decision "
            f"(slowest {result['slowest_decision_seconds']:.2f} s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
