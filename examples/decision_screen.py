"""Screen: two search bots' choices at the same positions, judged by whole greedy games.

A paired screen for levers of a bot that improves on the greedy bot (``improve``):
cheaper and far less noisy than paired games, since both bots decide in the very same
positions and their moves are judged on the same worlds. It plays games as
``examples/ismcts_strength.py`` does (game ``i`` dealt from ``seed + i``, ``--bot`` in
seat ``i % players``, the others greedy, the same generators), so the positions are
those the current bot reaches. At each of its decisions with a choice it also asks
each ``--versus`` bot what it would play there, from a copy of the seat's generator (so both
draw the same worlds; the versus bot's choice never changes the game), and the greedy
bot. Where either differs from the greedy move, the moves are *judged* on ``--worlds``
common worlds drawn from the seat's information set (``InformationSet.sample``), each
played to the very end by the greedy bot in every seat with the same dice, scored by
the seat's win share: each move's gain over the greedy move, as greedy play goes on.

    nice -n 12 python examples/decision_screen.py food-advice --players 4 --games 30 \\
        --seed 86000 --bot improve:depth=40,cutoff=model \\
        --versus improve:depth=40,cutoff=model,time=0.45 --worlds 200 --json

The summary gives each bot's judged gain a game (summed over a game's decisions,
averaged over games) and the versus bot's lead, paired game by game, with standard
errors, and the versus bot's CPU seconds a decision. What it cannot tell: a game's
outcome (it judges one decision at a time, with greedy play after it, while a bot's
later moves are its own), and anything about players who are not greedy.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from typing import Any

import potluck
from potluck.agents import InformationSet, decide, make_agent
from potluck.engine.action import Action
from potluck.engine.game import Game
from potluck.sim import bot_rng


def judge(
    game: Game[Any, Any],
    info: InformationSet,
    seat: int,
    moves: list[Action],
    worlds: int,
    rng: random.Random,
) -> tuple[list[float], int]:
    """Each move's mean win-share gain over ``moves[0]`` for ``seat`` on common worlds
    (a world where a move is not legal is skipped), each world played to the end by
    greedy bots with the same dice after every move; and the worlds it rests on."""
    greedy = make_agent(game, "greedy")
    sums = [0.0] * len(moves)
    used = 0
    for _ in range(worlds):
        world = info.sample(rng)
        seed = rng.getrandbits(64)
        shares: list[float] = []
        for move in moves:
            copy = world.clone()
            mine = next((a for a in game.legal_actions(copy, seat) if a == move), None)
            if mine is None:
                break
            game.step(copy, seat, mine)
            dice = random.Random(seed)
            while not game.is_over(copy):
                who = game.to_act(copy)[0]
                game.step(copy, who, decide(greedy, game, copy, who, dice))
            shares.append(game.outcome(copy).win_shares()[seat])
        if len(shares) == len(moves):
            used += 1
            for k, share in enumerate(shares):
                sums[k] += share - shares[0]
    return [s / used if used else 0.0 for s in sums], used


def _mean_se(values: list[float]) -> tuple[float, float]:
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def screen(
    game_id: str,
    players: int,
    games: int,
    bot: str,
    versus: str | list[str],
    seed: int,
    worlds: int,
) -> dict[str, Any]:
    """The versus bots' choices at ``bot``'s decisions in the benchmark's games, judged
    beside ``bot``'s on common worlds (one summary a versus bot; a single one is given
    as the top-level figures)."""
    specs = [versus] if isinstance(versus, str) else list(versus)
    game = potluck.load_game(game_id)
    tested = make_agent(game, bot)
    others = [make_agent(game, spec) for spec in specs]
    greedy = make_agent(game, "greedy")
    rows: list[dict[str, Any]] = []
    gains: list[list[float]] = []  # per game: the bot's gain, then each versus bot's
    cpu: list[list[float]] = [[] for _ in specs]
    decisions = 0
    for i in range(games):
        deal = seed + i
        state = game.new_game(players, deal)
        hero = i % players
        rngs = [bot_rng(deal, s) for s in range(players)]
        total = [0.0] * (1 + len(specs))
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            if seat == hero and len(game.legal_actions(state, seat)) > 1:
                decisions += 1
                plain = decide(greedy, game, state, seat, random.Random(0))
                alts: list[Action] = []
                for k, other in enumerate(others):
                    twin = random.Random()
                    twin.setstate(rngs[seat].getstate())
                    began = time.process_time()
                    alts.append(decide(other, game, state, seat, twin))
                    cpu[k].append(time.process_time() - began)
                action = decide(tested, game, state, seat, rngs[seat])
                chosen = [action, *alts]
                if any(move != plain for move in chosen):
                    moves = [plain]
                    for move in chosen:
                        if move not in moves:
                            moves.append(move)
                    info = InformationSet(game, state, seat)
                    judge_rng = random.Random(f"screen:{deal}:{decisions}")
                    got, used = judge(game, info, seat, moves, worlds, judge_rng)
                    gain = [got[moves.index(move)] for move in chosen]
                    row = {
                        "seed": deal,
                        "greedy": str(plain),
                        "bot": str(action),
                        "versus": [str(move) for move in alts],
                        "bot_gain": gain[0],
                        "versus_gain": gain[1:],
                        "worlds": used,
                    }
                    total = [t + g for t, g in zip(total, gain, strict=True)]
                    rows.append(row)
                    print(json.dumps(row), file=sys.stderr, flush=True)
            else:
                action = decide(tested if seat == hero else greedy, game, state, seat, rngs[seat])
            game.step(state, seat, action)
        gains.append(total)
        print(json.dumps({"game": deal, "gains": total}), file=sys.stderr, flush=True)
    per_versus = []
    for k, spec in enumerate(specs):
        mean, se = _mean_se([g[k + 1] for g in gains])
        lead, lead_se = _mean_se([g[k + 1] - g[0] for g in gains])
        per_versus.append(
            {
                "versus": spec,
                "differ": sum(1 for row in rows if row["bot"] != row["versus"][k]),
                "versus_gain_a_game": [mean, se],
                "versus_lead_a_game": [lead, lead_se],
                "versus_cpu_median": statistics.median(cpu[k]) if cpu[k] else 0.0,
                "versus_cpu_slowest": max(cpu[k], default=0.0),
            }
        )
    bot_mean, bot_se = _mean_se([g[0] for g in gains])
    return {
        "game": game_id,
        "players": players,
        "bot": bot,
        "games": games,
        "seed": seed,
        "worlds": worlds,
        "decisions": decisions,
        "judged": len(rows),
        "bot_gain_a_game": [bot_mean, bot_se],
        **per_versus[0],
        "by_versus": per_versus,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--bot", required=True)
    parser.add_argument("--versus", nargs="+", required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--worlds", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = screen(
        args.game, args.players, args.games, args.bot, args.versus, args.seed, args.worlds
    )
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['judged']} positions judged in {result['decisions']} decisions")
        for one in result["by_versus"]:
            lead, se = one["versus_lead_a_game"]
            print(
                f"  {one['versus']} (differs {one['differ']} times) leads {args.bot} by "
                f"{lead:+.4f} +- {se:.4f} of judged win share a game"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
