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

Thinking time is measured twice: by the wall clock and by the process's CPU
clock (``time.process_time``, which a busy machine's waiting does not inflate);
``cpu_median_decision_seconds`` and ``cpu_slowest_decision_seconds`` are the
latter. ``--baseline greedy`` also plays every deal with that bot in the tested
seat (the paired baseline, reported as ``baseline_win_share``). ``--stop-below X``
is a futility stop written down before a run: after every 50 games, the run stops
once the 99% Wilson interval's upper end is below ``X`` (the target cannot be met).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

import potluck
from potluck.agents import decide, effective_spec, make_agent
from potluck.intervals import wilson_interval
from potluck.sim import bot_rng

#: z of a two-sided 99% interval, for the futility stop.
Z99 = 2.5758293035489


def one_game(
    game: Any, players: int, deal: int, hero: int, tested: Any, rival: Any, cpu: list[float]
) -> tuple[float, float, float]:
    """The hero's win share in one game, with its wall seconds and its slowest wall
    decision; appends each decision's CPU seconds to ``cpu``."""
    state = game.new_game(players, deal)
    rngs = [bot_rng(deal, s) for s in range(players)]
    thinking = slowest = 0.0
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        if seat == hero and len(game.legal_actions(state, seat)) > 1:
            began, began_cpu = time.perf_counter(), time.process_time()
            action = decide(tested, game, state, seat, rngs[seat])
            cpu.append(time.process_time() - began_cpu)
            took = time.perf_counter() - began
            thinking += took
            slowest = max(slowest, took)
        else:
            action = decide(tested if seat == hero else rival, game, state, seat, rngs[seat])
        game.step(state, seat, action)
    return game.outcome(state).win_shares()[hero], thinking, slowest


def play(
    game_id: str,
    players: int,
    games: int,
    bot: str,
    others: str,
    seed: int,
    baseline: str | None = None,
    stop_below: float | None = None,
) -> dict[str, Any]:
    game = potluck.load_game(game_id)
    tested, rival = make_agent(game, bot), make_agent(game, others)
    paired = make_agent(game, baseline) if baseline else None
    shares: list[float] = []
    base_shares: list[float] = []
    cpu: list[float] = []
    thinking, slowest = 0.0, 0.0
    stopped = False
    start = time.perf_counter()
    for i in range(games):
        hero = i % players
        share, took, worst = one_game(game, players, seed + i, hero, tested, rival, cpu)
        shares.append(share)
        thinking += took
        slowest = max(slowest, worst)
        if paired is not None:
            base_shares.append(one_game(game, players, seed + i, hero, paired, rival, [])[0])
        # Progress after every game, so a run cut short still says something.
        print(
            f"{i + 1} games: win share {sum(shares) / len(shares):.3f} "
            f"(game {seed + i}: {shares[-1]:.2f})"
            + (f" baseline {sum(base_shares) / len(base_shares):.3f}" if base_shares else ""),
            file=sys.stderr,
            flush=True,
        )
        if (
            stop_below is not None
            and len(shares) % 50 == 0
            and i + 1 < games
            and wilson_interval(sum(shares), len(shares), Z99)[1] < stop_below
        ):
            stopped = True
            break
    played = len(shares)
    low, high = wilson_interval(sum(shares), played)
    decisions = len(cpu)
    result: dict[str, Any] = {
        "game": game_id,
        "players": players,
        "games": played,
        "games_planned": games,
        "stopped_for_futility": stopped,
        "bot": bot,
        "effective_spec": str(effective_spec(game, bot)),
        "decisions": decisions,
        "seconds_per_decision": thinking / max(1, decisions),
        "slowest_decision_seconds": slowest,
        "cpu_mean_decision_seconds": sum(cpu) / max(1, decisions),
        "cpu_median_decision_seconds": statistics.median(cpu) if cpu else 0.0,
        "cpu_slowest_decision_seconds": max(cpu, default=0.0),
        "simulations_per_decision": getattr(tested, "simulations_run", 0) / max(1, decisions),
        "others": others,
        "seed": seed,
        "wins": sum(shares),
        "win_share": sum(shares) / played,
        "ci95": [low, high],
        "fair_share": 1.0 / players,
        "seconds": time.perf_counter() - start,
    }
    if base_shares:
        result["baseline"] = baseline
        result["baseline_wins"] = sum(base_shares)
        result["baseline_win_share"] = sum(base_shares) / played
        result["baseline_ci95"] = list(wilson_interval(sum(base_shares), played))
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--bot", default="ismcts")
    parser.add_argument("--others", default="greedy")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--baseline", help="also play each deal with this bot in the seat")
    parser.add_argument("--stop-below", type=float, help="futility stop (see above)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = play(
        args.game,
        args.players,
        args.games,
        args.bot,
        args.others,
        args.seed,
        args.baseline,
        args.stop_below,
    )
    if args.json:
        print(json.dumps(result))
    else:
        low, high = result["ci95"]
        print(
            f"{args.game} {args.players}p: {args.bot} vs {args.others}: win share "
            f"{result['win_share']:.3f} [{low:.3f}, {high:.3f}] over {result['games']} games "
            f"(fair share {result['fair_share']:.3f}), {result['seconds']:.0f} s, "
            f"{result['seconds_per_decision']:.2f} s a decision "
            f"(slowest {result['slowest_decision_seconds']:.2f} s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
