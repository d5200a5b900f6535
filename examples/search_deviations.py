"""Diagnostic: where a search bot leaves the greedy bot's move, was that a good idea?

It plays games as ``examples/ismcts_strength.py`` does (game ``i`` dealt from
``seed + i``, the tested bot in seat ``i % players``, the others greedy, the same
generators), so the games are the benchmark's own. At each of the tested seat's
decisions it also asks the greedy bot what it would play there; where the two
differ, it *judges* both moves on ``--worlds`` common worlds drawn from the seat's
information (``InformationSet.sample``): each world is played on after each
move to the very end by the greedy bot in every seat, with the same dice, and
scored by the win share (1 shared among the winners). The judge is far slower
than the search (whole games, hundreds of worlds) and ignores any evaluation of
unfinished games, so it says whether the search's departures from greedy play
win more games when play goes on greedily, and which kinds of departure do.

    nice -n 19 python examples/search_deviations.py belly-battle --players 4 \\
        --games 12 --seed 0 --worlds 200 --json

One JSON line per departure (the game's seed, the round if the game's view has
one, the greedy and the searched move, the mean paired difference of the win
share with its standard error) and a summary grouped by the two moves' first
words. A difference above zero favours the search's move.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections import defaultdict
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
    moves: tuple[Action, Action],
    worlds: int,
    rng: random.Random,
) -> tuple[float, float, int]:
    """Mean paired win-share difference ``moves[1] - moves[0]`` for ``seat``, its
    standard error and the worlds it rests on (a world where either move is not
    legal is skipped), each world played to the end by greedy bots."""
    greedy = make_agent(game, "greedy")
    diffs: list[float] = []
    for _ in range(worlds):
        world = info.sample(rng)
        seed = rng.getrandbits(64)
        shares = []
        for move in moves:
            copy = world.clone()
            mine = next((a for a in game.legal_actions(copy, seat) if a == move), None)
            if mine is None:
                break
            game.step(copy, seat, mine)
            dice = random.Random(seed)  # the same generator after each move
            while not game.is_over(copy):
                who = game.to_act(copy)[0]
                game.step(copy, who, decide(greedy, game, copy, who, dice))
            shares.append(game.outcome(copy).win_shares()[seat])
        if len(shares) == 2:
            diffs.append(shares[1] - shares[0])
    n = len(diffs)
    if n == 0:
        return 0.0, 0.0, 0
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    return mean, math.sqrt(var / n), n


#: The stricter rules for leaving the greedy move (``improve:leave=K``) whose effect the
#: summary reads off the departures: a departure whose lead was within ``K`` standard
#: errors would have been the greedy move.
LEAVES = (1.5, 2.0, 2.5, 3.0)


def lead_of(bot: Any) -> dict[str, float]:
    """What the bot's own comparison found where it departed (the policy-improvement
    bot keeps its last judgement: the best move's lead over the greedy move on fresh
    worlds, in win chance and in points, with standard errors, and ``z``, the larger
    lead in standard errors); ``{}`` for a bot that keeps none."""
    found = getattr(bot, "last", None)
    if found is None or not hasattr(found, "loss_stderr") or found.best == found.played:
        return {}  # no judgement, or the bot's own base move (its greedy move differed)

    def z(lead: float, se: float) -> float:
        return lead / se if se > 0 else (math.inf if lead > 0 else 0.0)

    return {
        "lead": found.difference,
        "lead_se": found.loss_stderr,
        "point_lead": found.point_difference,
        "point_se": found.point_stderr,
        "z": max(
            z(found.difference, found.loss_stderr),
            z(found.point_difference, found.point_stderr),
        ),
    }


def _dropped(row: dict[str, Any], leave: float) -> bool:
    """Whether ``leave=K`` would have kept the greedy move at this departure."""
    return "z" in row and row["z"] <= leave


def per_game(rows: list[dict[str, Any]], games: int, keep: Any) -> dict[str, float]:
    """The judged win share the kept departures gained, summed a game and averaged over
    the games, with its standard error across games (every game counts, departures or
    none): what those departures were worth a game, as greedy play goes on."""
    sums: dict[int, float] = defaultdict(float)
    for row in rows:
        if keep(row):
            sums[row["seed"]] += row["diff"]
    values = [sums.get(seed, 0.0) for seed in {row["seed"] for row in rows}]
    values += [0.0] * max(0, games - len(values))
    mean = sum(values) / games if games else 0.0
    var = sum((v - mean) ** 2 for v in values) / max(1, games - 1)
    return {"mean": mean, "se": math.sqrt(var / games) if games else 0.0}


def deviations(
    game_id: str, players: int, games: int, bot: str, seed: int, worlds: int
) -> dict[str, Any]:
    """Every departure from the greedy move by ``bot`` in the benchmark's games, judged."""
    game = potluck.load_game(game_id)
    tested, greedy = make_agent(game, bot), make_agent(game, "greedy")
    found: list[dict[str, Any]] = []
    decisions = 0
    for i in range(games):
        state = game.new_game(players, seed + i)
        hero = i % players
        rngs = [bot_rng(seed + i, s) for s in range(players)]
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            if seat == hero and len(game.legal_actions(state, seat)) > 1:
                decisions += 1
                # its own generator, so the benchmark's games are not disturbed
                plain = decide(greedy, game, state, seat, random.Random(0))
                action = decide(tested, game, state, seat, rngs[seat])
                if action != plain:
                    info = InformationSet(game, state, seat)
                    rng = random.Random(f"judge:{seed + i}:{decisions}")
                    mean, se, n = judge(game, info, seat, (plain, action), worlds, rng)
                    row = {
                        "seed": seed + i,
                        "round": game.view(state, seat).get("round"),
                        "greedy": str(plain),
                        "search": str(action),
                        "diff": mean,
                        "se": se,
                        "worlds": n,
                        **lead_of(tested),
                    }
                    found.append(row)
                    print(json.dumps(row), file=sys.stderr, flush=True)
            else:
                action = decide(tested if seat == hero else greedy, game, state, seat, rngs[seat])
            game.step(state, seat, action)
    groups: dict[str, list[float]] = defaultdict(list)
    for row in found:
        groups[f"{row['greedy'].split()[0]} -> {row['search'].split()[0]}"].append(row["diff"])
    diffs = [row["diff"] for row in found]
    mean = sum(diffs) / len(diffs) if diffs else 0.0
    spread = (
        math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)) if len(diffs) > 1 else 0.0
    )
    return {
        "game": game_id,
        "bot": bot,
        "games": games,
        "gain_a_game": per_game(found, games, lambda row: True),
        "by_leave": {
            str(k): {
                "dropped": sum(1 for row in found if _dropped(row, k)),
                "gain_a_game": per_game(found, games, lambda row, k=k: _dropped(row, k)),
            }
            for k in LEAVES
            if any("z" in row for row in found)
        },
        "seed": seed,
        "worlds": worlds,
        "decisions": decisions,
        "departures": len(found),
        "mean_diff": mean,
        "mean_diff_se": spread / math.sqrt(len(diffs)) if diffs else 0.0,
        "better": sum(d > 0 for d in diffs),
        "worse": sum(d < 0 for d in diffs),
        "by_kind": {k: {"n": len(v), "mean_diff": sum(v) / len(v)} for k, v in groups.items()},
        "rows": found,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--bot", default="ismcts")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--worlds", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = deviations(args.game, args.players, args.games, args.bot, args.seed, args.worlds)
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{result['departures']} departures from greedy in {result['decisions']} decisions; "
            f"judged win share {result['mean_diff']:+.4f} +- {result['mean_diff_se']:.4f} a "
            f"departure ({result['better']} better, {result['worse']} worse)"
        )
        for kind, stats in sorted(result["by_kind"].items(), key=lambda kv: -kv[1]["n"]):
            print(f"  {kind}: {stats['n']}, {stats['mean_diff']:+.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
