"""Benchmark: one search seat against greedy opponents (or any others), win share with 95% CI.

Game ``i`` is dealt from ``seed + i`` and the tested bot sits in seat ``i % players``,
so every seat hosts it equally often. A shared win counts as a share (1/k for k
winners). The interval is the normal one on the mean share (Wald; with 200 games
and shares near 0.3 it is within a point of Wilson's).

    python examples/ismcts_strength.py cafe-carnage --players 4 --games 200 \\
        --bot ismcts --others greedy --json

It plays through ``potluck.agents.decide``, the call every surface uses, so the
search bot sees only its seat's information set. This is a benchmark: run it
with ``nice`` and expect minutes, not seconds.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from typing import Any

import potluck
from potluck.agents import decide, make_agent
from potluck.sim import bot_rng


def play(
    game_id: str, players: int, games: int, bot: str, others: str, seed: int
) -> dict[str, Any]:
    game = potluck.load_game(game_id)
    tested, rival = make_agent(game, bot), make_agent(game, others)
    shares: list[float] = []
    start = time.perf_counter()
    for i in range(games):
        state = game.new_game(players, seed + i)
        hero = i % players
        bots = [tested if s == hero else rival for s in range(players)]
        rngs = [bot_rng(seed + i, s) for s in range(players)]
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            game.step(state, seat, decide(bots[seat], game, state, seat, rngs[seat]))
        winners = game.outcome(state).winners
        shares.append(1.0 / len(winners) if hero in winners else 0.0)
        if (i + 1) % 10 == 0:  # progress, so a run cut short still says something
            print(f"{i + 1} games: win share {sum(shares) / len(shares):.3f}", file=sys.stderr)
    mean = sum(shares) / len(shares)
    var = sum((x - mean) ** 2 for x in shares) / max(1, len(shares) - 1)
    half = 1.96 * math.sqrt(var / len(shares))
    return {
        "game": game_id,
        "players": players,
        "games": games,
        "bot": bot,
        "others": others,
        "seed": seed,
        "win_share": mean,
        "ci95": [max(0.0, mean - half), min(1.0, mean + half)],
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
            f"(fair share {result['fair_share']:.3f}), {result['seconds']:.0f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
