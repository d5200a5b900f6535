"""Measure the bots' reference ratings with the arena and write ``bot_ratings.json``.

    python -m potluck.server.botratings                        # easy and medium, every pool
    python -m potluck.server.botratings --hard --pool cafe-carnage --games 24
    python -m potluck.server.botratings --pool burger-joint --bridge SPEC --bridge SPEC

A rated table's bots play fixed specs, so that a rating means the same on every
server: easy ``random``, medium ``greedy``, and hard ``ismcts``, the game's tuned
search with its own budget of simulations and no time budget. The lobby's hard
bot (``ismcts:time=0.4``) is the same search stopped at 0.4 s of wall time if its
simulations have not all run, which makes its strength depend on the machine and
its load; a reference must not, so the measured (and rated) hard bot always runs
its whole budget of simulations and plays the same moves on every machine
(docs/bots.md "Difficulties"; where the search ends within 0.4 s the two are the
same bot). Only the CPU seconds a measurement takes depend on the machine.

Each pool (``potluck.server.ratings.pools_of``) is measured at its measured
player count with ``potluck.arena.run_arena`` (what ``potluck arena`` runs:
seats rotated on shared deals, openskill Plackett-Luce from the same start as a
new account, mu 25 and sigma 25/3), in two steps, because a hard bot's game
costs seconds to tens of seconds of CPU and the others' milliseconds:

1. easy and medium against each other (cheap: many games). Where medium wins
   every game, their gap has no finite estimate (each game only widens it):
   ``--bridge`` adds bots between them to the same arena (weakest first), each
   winning some games against the one below and losing some to the one above;
2. ``--hard``: hard against medium. Hard's rating is medium's from step 1 plus
   the difference the second arena measured between them (Plackett-Luce's
   chances depend only on differences of mu), its sigma that arena's (medium's
   own uncertainty added in quadrature). The difference is kept
   (``above_medium``), so measuring step 1 again moves hard with medium.

The file keeps, per pool and level, the spec a rated seat plays, that spec
resolved with the game's tuned defaults (a level whose bot changed since is
unrated until measured again), the rating, and how it was measured (the
equivalent ``potluck arena`` command, games, date, CPU and wall seconds, the
machine's load). ``--log`` appends every game as it ends, so a run cut short
still shows what it played.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from potluck.agents import effective_spec
from potluck.arena import Ladder, run_arena
from potluck.engine.registry import load_game
from potluck.server.ratings import REFERENCE_FILE, Pool, all_pools, references
from potluck.sim import GameResult

BASE = {"easy": "random", "medium": "greedy"}


#: The hard level at a rated table: the game's tuned search with its own budget of
#: simulations (``ismcts``, "Defaults per game" in docs/bots.md), without the web's
#: 0.4 s cap (``DIFFICULTIES``), so that it plays the same moves on every machine.
HARD = "ismcts"


def command(pool: Pool, specs: list[str], games: int, seed: int) -> str:
    return (
        f"potluck arena {pool.game} --players {pool.measured_players} "
        f"--agents {','.join(specs)} --games {games} --seed {seed} --json"
    )


#: Where each game of a measurement is appended as it ends (``--log``), so that a run
#: cut short still shows what it played.
GAME_LOG: Path | None = None


def arena(pool: Pool, specs: list[str], games: int, seed: int) -> tuple[Ladder, dict[str, Any]]:
    started, wall, load = time.process_time(), time.monotonic(), os.getloadavg()[0]

    def logged(result: GameResult | None) -> None:
        if GAME_LOG is None:
            return
        line = {"pool": pool.id, "cpu_seconds": round(time.process_time() - started, 1)}
        if result is not None:
            line |= {"seed": result.seed, "agents": result.agents}
            line |= {"places": list(result.outcome.places)}
        with GAME_LOG.open("a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")

    game = load_game(pool.game)
    ladder = run_arena(game, pool.measured_players, specs, games, seed=seed, progress=logged)
    how = {
        "command": command(pool, specs, games, seed),
        "games": ladder.games,
        "errors": len(ladder.errors),
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "cpu_seconds": round(time.process_time() - started, 1),
        # the machine's load (1-minute average) as the run began and ended: the ratings
        # do not depend on it (no time budget), only the CPU and wall seconds do
        "wall_seconds": round(time.monotonic() - wall, 1),
        "load_average": [round(load, 1), round(os.getloadavg()[0], 1)],
    }
    return ladder, how


def entry(
    game: Any, spec: str, mu: float, sigma: float, win_share: float, how: dict[str, Any]
) -> dict[str, Any]:
    return {
        "spec": spec,
        "resolved": str(effective_spec(game, spec)),
        "mu": round(mu, 3),
        "sigma": round(sigma, 3),
        # its share of the wins in the arena that measured it (against medium, for hard)
        "win_share": round(win_share, 3),
        "measured": how,
    }


def measure_base(
    pool: Pool, games: int, seed: int, bridges: list[str] | None = None
) -> dict[str, dict[str, Any]]:
    """Step 1: easy and medium of one pool; with ``bridges``, more specs in the same
    arena, each of which beats the one below it and loses to the one above only some
    of the time (see ``--bridge``)."""
    game = load_game(pool.game)
    specs = [BASE["easy"], *(bridges or []), BASE["medium"]]
    ladder, how = arena(pool, specs, games, seed)
    found = {e.spec: e for e in ladder.entries}
    if bridges:
        how["bridges"] = [
            {
                "spec": bridge,
                "mu": round(found[bridge].mu, 3),
                "sigma": round(found[bridge].sigma, 3),
                "win_share": round(found[bridge].win_share, 3),
            }
            for bridge in bridges
        ]
    return {
        level: entry(game, spec, found[spec].mu, found[spec].sigma, found[spec].win_share, how)
        for level, spec in BASE.items()
    }


def measure_hard(pool: Pool, games: int, seed: int, medium: dict[str, Any]) -> dict[str, Any]:
    """Step 2: hard against medium, chained to medium's rating from step 1."""
    game = load_game(pool.game)
    spec = HARD
    ladder, how = arena(pool, [BASE["medium"], spec], games, seed)
    found = {e.spec: e for e in ladder.entries}
    above = {
        "mu": round(found[spec].mu - found[BASE["medium"]].mu, 3),
        "sigma": round(found[spec].sigma, 3),
    }
    return chained(
        entry(game, spec, 0.0, 0.0, found[spec].win_share, {**how, "anchor": "medium"}),
        above,
        medium,
    )


def chained(
    hard: dict[str, Any], above: dict[str, float], medium: dict[str, Any]
) -> dict[str, Any]:
    """``hard`` placed ``above`` medium (the difference of mu its arena measured, and its
    sigma there): medium's mu plus the difference (Plackett-Luce's chances depend only
    on differences of mu), medium's sigma and the arena's added in quadrature.

    >>> chained({}, {"mu": 5.0, "sigma": 4.0}, {"mu": 30.0, "sigma": 3.0})
    {'mu': 35.0, 'sigma': 5.0, 'above_medium': {'mu': 5.0, 'sigma': 4.0}}
    """
    return {
        **hard,
        "mu": round(medium["mu"] + above["mu"], 3),
        "sigma": round(math.hypot(above["sigma"], medium["sigma"]), 3),
        "above_medium": above,
    }


def markdown() -> str:
    """The references as docs/web.md shows them (``--table``)."""
    lines = [
        "| pool | players measured | easy (`random`) | medium (`greedy`) | hard (`ismcts`) "
        "| hard's share of the wins against medium |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for pool_id, pool in references().get("pools", {}).items():
        cells = []
        for level in ("easy", "medium", "hard"):
            found = pool["levels"].get(level)
            if found is None:
                cells.append("not measured")
                continue
            how = found["measured"]
            against = " against medium" if level == "hard" else ""
            bridged = ", bridged" if how.get("bridges") else ""
            cells.append(
                f"{found['mu']:.1f} ± {found['sigma']:.1f} "
                f"({how['games']} games{against}{bridged}, {how['date']})"
            )
        hard = pool["levels"].get("hard")
        cells.append("" if hard is None else f"{hard['win_share']:.2f}")
        lines.append(f"| `{pool_id}` | {pool['players']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pool", action="append", help="only this pool (repeatable)")
    parser.add_argument("--hard", action="store_true", help="step 2: the hard level")
    parser.add_argument("--games", type=int, help="games per arena (400; --hard: 24)")
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--table", action="store_true", help="print the references (Markdown)")
    parser.add_argument("--log", type=Path, help="append each game's seats and places here")
    parser.add_argument(
        "--bridge",
        metavar="SPEC",
        action="append",
        help="step 1 only (repeatable, weakest first): a bot between easy and medium in "
        "their arena, for a pool where medium wins every game against easy (their gap has "
        "no finite estimate then: every game only widens it); each must win some games "
        "against the one below it and lose some to the one above",
    )
    args = parser.parse_args(argv)
    global GAME_LOG
    GAME_LOG = args.log
    if args.table:
        print(markdown())
        return 0
    pools = [p for p in all_pools() if not args.pool or p.id in args.pool]
    if not pools:
        parser.error(f"no such pool; the pools: {', '.join(p.id for p in all_pools())}")
    games = args.games or (24 if args.hard else 400)
    data = json.loads(json.dumps(references())) or {}
    data["about"] = (
        "The bots' reference ratings (openskill Plackett-Luce mu and sigma) and the spec "
        "each plays at a rated table, measured with potluck arena by "
        "python -m potluck.server.botratings (see its docstring and docs/web.md, "
        "'Ratings'). Measure again when a difficulty's bot or a game's tuned defaults change."
    )
    known = data.setdefault("pools", {})
    for pool in pools:
        print(f"{pool.id}: {games} games at {pool.measured_players} players", flush=True)
        levels = known.setdefault(pool.id, {"players": pool.measured_players, "levels": {}})
        levels["players"] = pool.measured_players
        if args.hard:
            medium = levels["levels"].get("medium")
            if medium is None:
                parser.error(f"{pool.id}: measure easy and medium first (without --hard)")
            levels["levels"]["hard"] = measure_hard(pool, games, args.seed, medium)
        else:
            hard = levels["levels"].pop("hard", None)
            levels["levels"].update(measure_base(pool, games, args.seed, args.bridge))
            medium = levels["levels"]["medium"]
            if hard is not None and "above_medium" in hard:
                # medium's spec is the same: hard keeps the difference its arena measured,
                # placed on medium's new rating (a new spec is unrated, see ``ratings``)
                levels["levels"]["hard"] = chained(hard, hard["above_medium"], medium)
        data["pools"] = dict(sorted(known.items()))
        REFERENCE_FILE.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        references.cache_clear()
        for level, found in levels["levels"].items():
            print(f"  {level}: mu {found['mu']} sigma {found['sigma']}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
