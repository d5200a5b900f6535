"""Benchmark: our search against OpenSpiel's ISMCTS at equal CPU time, resumable.

Game ``i`` is dealt from ``seed + i // k`` with our bot (``--bot``, the hard
difficulty's ``ismcts`` by default) in ``--our-seats`` seats spread round the
table, turned one seat each game of a deal (``k`` placements), and OpenSpiel's
ISMCTS (``open_spiel.python.algorithms.ismcts``, random rollouts to the end,
``uct_c`` 2) in the others. OpenSpiel's bot gets, each decision, as many CPU
seconds (``time.process_time``) as our bot has used a decision on average so far
in the run (``potluck.search.openspiel.duel``), so both sides think equally long
on average. Prints our seats' summed win share with its 95% Wilson interval, the
fair share, and both sides' CPU seconds and OpenSpiel's simulations a decision.

    python examples/openspiel_equal_time.py burger-joint --players 2 --games 100 \\
        --seed 64000 --results runs/os-burger.jsonl --json

Every game is appended to ``--results`` as it ends, with both sides' CPU seconds
a decision; a run started again with the same file and settings plays only the
games it lacks (its running mean rebuilt from the file), then reports on all.
Needs the ``rl`` extra (OpenSpiel). A benchmark: minutes to hours.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from potluck.search.openspiel import CpuLedger, duel, summarise_duels


def run(
    game_id: str,
    players: int,
    bot: str,
    seats: int,
    games: int,
    seed: int,
    results: Path | None,
) -> dict[str, Any]:
    header = {"game": game_id, "players": players, "bot": bot, "seats": seats, "seed": seed}
    done: dict[int, dict[str, Any]] = {}
    if results is not None:
        if results.exists():
            lines = [json.loads(x) for x in results.read_text().splitlines() if x.strip()]
            if not lines or lines[0].get("run") != header:
                raise SystemExit(f"{results} holds another run ({lines[0] if lines else None})")
            done = {int(row["game"]): row for row in lines[1:]}
        else:
            results.parent.mkdir(parents=True, exist_ok=True)
            results.write_text(json.dumps({"run": header}) + "\n")
    ledger = CpuLedger(
        [c for row in done.values() for c in row["cpu_ours"]],
        [c for row in done.values() for c in row["cpu_openspiel"]],
    )
    for number in range(games):
        if number in done:
            continue
        row = duel(game_id, players, bot, 0, number, seed, seats, ledger)
        done[number] = row
        if results is not None:
            with results.open("a") as out:
                out.write(json.dumps(row) + "\n")
        shares = [done[j]["share"] for j in sorted(done)]
        print(
            f"{len(shares)} games: our seats' share {sum(shares) / len(shares):.3f} "
            f"(game {number}, deal {row['deal']}, seats {row['seats']}: {row['share']:.2f}); "
            f"CPU s a decision ours {ledger.budget() or 0:.3f}, OpenSpiel's "
            f"{sum(ledger.theirs) / max(1, len(ledger.theirs)):.3f}",
            file=sys.stderr,
            flush=True,
        )
    rows = [done[j] for j in sorted(done) if j < games]
    return summarise_duels(game_id, players, bot, seats, rows, 0, True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--bot", default="ismcts")
    parser.add_argument("--our-seats", type=int, default=1)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--results", type=Path)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(
        args.game, args.players, args.bot, args.our_seats, args.games, args.seed, args.results
    )
    if args.json:
        print(json.dumps({k: v for k, v in result.items() if k != "results"}))
    else:
        low, high = result["ci95"]
        print(
            f"{args.game} {args.players}p: {result['spec']} in {args.our_seats} seat(s) against "
            f"OpenSpiel's ISMCTS at equal CPU time: {result['win_share']:.3f} "
            f"[{low:.3f}, {high:.3f}] over {result['games']} games "
            f"(fair {result['fair_share']:.2f}); CPU s a decision ours "
            f"{result['seconds_per_decision']:.3f}, OpenSpiel's "
            f"{result['openspiel_seconds_per_decision']:.3f} "
            f"({result['openspiel_simulations_per_decision']:.0f} simulations)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
