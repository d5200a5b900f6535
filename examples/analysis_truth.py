"""What a random seat truly loses against a greedy one: the yardstick for the move judge.

For each deal, one seat (turned round the table from deal to deal) is played by
``--bot`` (default ``random``) and, on the same deal with the same bots and bot
generators elsewhere, by ``--base`` (default ``greedy``); the other seats are
greedy. The paired difference of that seat's win share (and points: its score
less the others' mean) is the real cost of playing ``--bot`` instead of
``--base`` over a whole game, against greedy opponents.

Why it is the judge's yardstick: the judge prices a move by playouts in which
every seat plays on as the greedy bot does. Summed over a seat's decisions, the
win chance a random move loses against the greedy bot's own choice at the same
position telescopes (the performance difference lemma of reinforcement learning)
to the greedy seat's expected win share less the random seat's, on the same
deals: so a true judge's mean loss *against the greedy choice* per random move
is this gap divided by the random seat's decisions. Its loss against the *best*
move found adds the greedy bot's own shortfall there, which a greedy seat loses
too; so the random seat's mean loss is at least 3 times the greedy seat's only
where the gap per decision is at least twice the greedy seat's shortfall per
decision.

    nice -n 10 python examples/analysis_truth.py --game cafe-carnage --deals 2000 \\
        --deal-seed 870000 --json
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from typing import Any

import potluck
from potluck.judge import points
from potluck.judge_params import ANALYSIS_PLAYERS
from potluck.sim import play_game

PLAYERS = ANALYSIS_PLAYERS


def paired(game_id: str, deals: int, deal_seed: int, bot: str, base: str) -> dict[str, Any]:
    """The seat's win share, points and decisions with ``bot`` and with ``base`` there."""
    game = potluck.load_game(game_id)
    players = PLAYERS[game_id]
    rows = []
    for index in range(deals):
        seat = index % players
        row: dict[str, Any] = {"deal": deal_seed + index, "seat": seat}
        for label, spec in (("bot", bot), ("base", base)):
            agents = ["greedy"] * players
            agents[seat] = spec
            result = play_game(game, players, agents, seed=deal_seed + index, keep_record=True)
            assert result.record is not None
            row[label] = {
                "share": result.outcome.win_shares()[seat],
                "points": points(result.outcome.scores, seat),
                "decisions": sum(1 for who, _ in result.record["actions"] if who == seat),
            }
        rows.append(row)
    return summarise(game_id, bot, base, deal_seed, rows)


def _mean_se(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, se


def summarise(
    game_id: str, bot: str, base: str, deal_seed: int, rows: list[dict[str, Any]]
) -> dict[str, Any]:
    out: dict[str, Any] = {"game": game_id, "bot": bot, "base": base, "deals": len(rows)}
    out["deal_seeds"] = [deal_seed, deal_seed + len(rows) - 1]
    for key in ("share", "points", "decisions"):
        for label in ("bot", "base"):
            out[f"{label}_{key}"] = statistics.fmean(r[label][key] for r in rows)
    for key in ("share", "points"):
        gap, se = _mean_se([r["base"][key] - r["bot"][key] for r in rows])
        out[f"{key}_gap"] = gap
        out[f"{key}_gap_95"] = [gap - 1.96 * se, gap + 1.96 * se]
        # a game's gap spread over the bot's decisions in it: what a true judge's
        # loss against the base bot's choice averages per move of the bot's seat
        per_move = sum(r["base"][key] - r["bot"][key] for r in rows) / sum(
            r["bot"]["decisions"] for r in rows
        )
        out[f"{key}_gap_per_bot_decision"] = per_move
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=sorted(PLAYERS), required=True)
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--deal-seed", type=int, default=870000)
    parser.add_argument("--bot", default="random")
    parser.add_argument("--base", default="greedy")
    parser.add_argument("--json", action="store_true", help="print JSON, not a table")
    args = parser.parse_args(argv)
    results = [
        paired(game_id, args.deals, args.deal_seed, args.bot, args.base) for game_id in args.game
    ]
    if args.json:
        json.dump(results, sys.stdout, indent=1)
        print()
        return 0
    for r in results:
        low, high = r["share_gap_95"]
        print(
            f"{r['game']}: {r['deals']} deals, share {r['bot']} {r['bot_share']:.3f} / "
            f"{r['base']} {r['base_share']:.3f}, gap {r['share_gap']:+.3f} [{low:+.3f}, "
            f"{high:+.3f}], decisions {r['bot_decisions']:.1f} / {r['base_decisions']:.1f}, "
            f"gap per {r['bot']} decision {r['share_gap_per_bot_decision']:.4f}; points gap "
            f"{r['points_gap']:+.2f} ({r['points_gap_per_bot_decision']:.3f} a decision)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
