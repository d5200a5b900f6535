"""Measure the bots' reference ratings with the arena and write ``bot_ratings.json``.

    python -m potluck.server.botratings                  # every pool (hours: hard bots think)
    python -m potluck.server.botratings --pool burger-joint --games 48

For each rating pool (``potluck.server.ratings.pools_of``) one arena
(``potluck.arena.run_arena``, what ``potluck arena`` runs) plays the three
difficulties against each other at the pool's measured player count, seats
rotated on shared deals, and rates them with openskill's Plackett-Luce model from
the same start as a new account (mu 25, sigma 25/3). The file keeps, per pool and
level, the spec the server plays, the spec resolved with the game's defaults (a
level whose bot changed since is unrated until measured again), the spec the
arena played and the equivalent ``potluck arena`` command.

The hard level is measured without its time budget (``ismcts:sims=2000`` for
``ismcts:sims=2000,time=1.5``): a time budget makes a bot's strength depend on
the machine and its load, which a reference must not. A server whose hard bots
hit their time budget plays them weaker than their reference.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import UTC, datetime
from typing import Any

from potluck.agents import effective_spec
from potluck.arena import run_arena
from potluck.engine.botspec import BotSpec
from potluck.engine.registry import load_game
from potluck.server.botpool import DIFFICULTIES, seat_bot_spec
from potluck.server.ratings import REFERENCE_FILE, Pool, all_pools, references


def without_time(spec: str) -> str:
    """``spec`` less a time budget (see the module's docstring).

    >>> without_time("ismcts:sims=2000,time=1.5")
    'ismcts:sims=2000'
    """
    parsed = BotSpec.parse(spec)
    kept = tuple((key, value) for key, value in parsed.params if key != "time")
    return str(BotSpec(parsed.name, kept))


def measure(pool: Pool, games: int, seed: int) -> dict[str, Any]:
    """One pool's arena: the three levels' ratings, and how they were measured."""
    game = load_game(pool.game)
    served = {level: seat_bot_spec(game, level) or "random" for level in DIFFICULTIES}
    played = {level: without_time(spec) for level, spec in served.items()}
    specs = list(played.values())
    started = time.process_time()
    ladder = run_arena(game, pool.measured_players, specs, games, seed=seed)
    by_spec = {entry.spec: entry for entry in ladder.entries}
    levels = {}
    for level, spec in served.items():
        entry = by_spec[played[level]]
        levels[level] = {
            "spec": spec,
            "resolved": str(effective_spec(game, spec)),
            "measured_as": played[level],
            "mu": round(entry.mu, 3),
            "sigma": round(entry.sigma, 3),
            "seat_games": entry.seat_games,
            "win_share": round(entry.win_share, 3),
        }
    return {
        "players": pool.measured_players,
        "games": ladder.games,
        "seed": seed,
        "errors": ladder.errors,
        "command": (
            f"potluck arena {pool.game} --players {pool.measured_players} "
            f"--agents {','.join(specs)} --games {games} --seed {seed} --json"
        ),
        "measured": datetime.now(UTC).strftime("%Y-%m-%d"),
        "cpu_seconds": round(time.process_time() - started),
        "levels": levels,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pool", action="append", help="only this pool (repeatable)")
    parser.add_argument("--games", type=int, default=48, help="games per pool's arena")
    parser.add_argument("--seed", type=int, default=35)
    args = parser.parse_args(argv)
    pools = [p for p in all_pools() if not args.pool or p.id in args.pool]
    if not pools:
        parser.error(f"no such pool; the pools: {', '.join(p.id for p in all_pools())}")
    data = json.loads(json.dumps(references())) or {"pools": {}}
    data["about"] = (
        "The bots' reference ratings (openskill Plackett-Luce, mu and sigma), measured "
        "with potluck arena by python -m potluck.server.botratings; see docs/web.md, "
        "'Ratings'. Measure again when a difficulty's bot changes."
    )
    for pool in pools:
        print(f"{pool.id}: {args.games} games at {pool.measured_players} players", flush=True)
        data.setdefault("pools", {})[pool.id] = measure(pool, args.games, args.seed)
        data["pools"] = dict(sorted(data["pools"].items()))
        REFERENCE_FILE.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        for level, entry in data["pools"][pool.id]["levels"].items():
            print(f"  {level}: mu {entry['mu']} sigma {entry['sigma']}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
