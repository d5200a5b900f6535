"""Benchmark: win shares of a fixed line-up of bots, turned round the table on paired deals.

Block ``b`` deals seed ``seed + b`` once per seat: the line-up sits as given, then
turned one seat, and so on, so every bot plays every seat on the same cards (the
arena's blocks, ``potluck.arena``, but a spec may sit more than once, and each
place in the line-up is counted on its own). A shared win counts ``1/k``; the
interval is Wilson's 95% (``potluck.intervals.wilson_interval``).

    python examples/lineup_shares.py cafe-carnage "ismcts|greedy|greedy|random" \\
        --blocks 40 --seed 1 --json

Specs are separated by ``|`` because a spec may hold commas
(``ismcts:sims=100,prior=greedy``). This is a benchmark: run it with ``nice``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import potluck
from potluck.intervals import wilson_interval
from potluck.sim import play_game


def lineup_shares(game_id: str, lineup: list[str], blocks: int, seed: int) -> dict[str, Any]:
    """Play ``blocks`` blocks of ``len(lineup)`` games; each place's win share with its interval."""
    game = potluck.load_game(game_id)
    players = len(lineup)
    wins = [0.0] * players
    for block in range(blocks):
        for turn in range(players):
            seats = [lineup[(s + turn) % players] for s in range(players)]
            outcome = play_game(game, players, seats, seed + block).outcome
            for seat, share in enumerate(outcome.win_shares()):
                # seat s holds lineup[(s + turn) % players]
                wins[(seat + turn) % players] += share
        shares = ", ".join(f"{w / (players * (block + 1)):.3f}" for w in wins)
        print(f"{block + 1} blocks: {shares}", file=sys.stderr, flush=True)
    games = players * blocks
    places = []
    for place, spec in enumerate(lineup):
        low, high = wilson_interval(wins[place], games)
        places.append(
            {"place": place, "spec": spec, "win_share": wins[place] / games, "ci95": [low, high]}
        )
    return {
        "game": game_id,
        "lineup": lineup,
        "blocks": blocks,
        "games": games,
        "seed": seed,
        "fair_share": 1 / players,
        "places": places,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("lineup", help="bot specs seat by seat, separated by |")
    parser.add_argument("--blocks", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = lineup_shares(args.game, args.lineup.split("|"), args.blocks, args.seed)
    if args.json:
        print(json.dumps(result))
    else:
        for place in result["places"]:
            low, high = place["ci95"]
            print(f"{place['spec']:>30}  {place['win_share']:.3f} [{low:.3f}, {high:.3f}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
